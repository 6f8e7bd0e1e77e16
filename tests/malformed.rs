//! No input makes a reader panic: random bytes, and valid files cut or corrupted anywhere.

use pathlab::map::io::{parse_map, parse_scen};
use proptest::prelude::*;
use std::path::Path;

const MAP: &str = "type octile\r\nheight 3\r\nwidth 4\r\nmap\r\n....\r\n.@T.\r\nSWG.\r\n";
const SCEN: &str =
    "version 1\n0\tmaps/x.map\t4\t3\t0\t0\t3\t2\t3.82843\n1\tx.map\t4\t3\t0\t1\t3\t1\t4.82843\n";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_text_never_panics(s in ".{0,200}") {
        let _ = parse_map(&s, Path::new("r.map"));
        let _ = parse_scen(&s, Path::new("r.scen"));
    }

    #[test]
    fn cut_files_error_or_parse(cut in 0usize..200) {
        let m = &MAP[..cut.min(MAP.len())];
        let s = &SCEN[..cut.min(SCEN.len())];
        if cut < MAP.len() - 2 {
            prop_assert!(parse_map(m, Path::new("m.map")).is_err());
        }
        let _ = parse_scen(s, Path::new("s.scen"));
    }

    #[test]
    fn corrupted_bytes_never_panic(pos in 0usize..120, byte in any::<u8>()) {
        for text in [MAP, SCEN] {
            let mut b = text.as_bytes().to_vec();
            let i = pos % b.len();
            b[i] = byte;
            if let Ok(t) = String::from_utf8(b) {
                let _ = parse_map(&t, Path::new("m.map"));
                let _ = parse_scen(&t, Path::new("s.scen"));
            }
        }
    }
}
