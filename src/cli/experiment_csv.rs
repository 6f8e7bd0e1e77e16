//! Where an experiment's CSV and its table go: the CSV to its file or to stdout, the table to
//! whichever of stdout and stderr the CSV leaves free.

use anyhow::Result;
use std::io::Write;
use std::path::PathBuf;

/// The CSV to its file (the table then on stdout) or to stdout (the table on stderr, so the
/// CSV stays clean for a pipe).
pub(super) fn write_csv_and_table(to: Option<PathBuf>, text: &str, table: &str) -> Result<()> {
    let to_file = to.is_some();
    write_csv(to, text)?;
    if to_file {
        print!("{table}");
    } else {
        eprint!("{table}");
    }
    Ok(())
}

pub(super) fn write_csv(to: Option<PathBuf>, text: &str) -> Result<()> {
    match to {
        Some(p) => pathlab::map::io::write_atomic(&p, text.as_bytes())?,
        None => std::io::stdout().write_all(text.as_bytes())?,
    }
    Ok(())
}
