//! The workspace: the document, its runs and their timeline, files and problems, apart from
//! the UI that shows them.

pub(crate) mod breakpoints;
pub(crate) mod changes;
pub(crate) mod choice;
pub(crate) mod document;
pub(crate) mod envelope;
pub(crate) mod file_actions;
pub(crate) mod files;
pub(crate) mod oracle;
pub(crate) mod prepared;
pub(crate) mod problems;
pub(crate) mod recovery;
pub(crate) mod run;
pub(crate) mod run_files;
pub(crate) mod timeline;

use crate::app::timeline::Resume;
use crate::app::{Document, View};
use crate::world::AnySpace;

/// What the app works on, apart from how it is shown: the document and its world as a graph,
/// the runs (one per view) and the timeline's cursor.
pub(crate) struct Workspace {
    pub(crate) doc: Document,
    /// The document's world as a search graph, of its family.
    pub(crate) space: AnySpace,
    pub(crate) views: Vec<View>,
    /// Steps shown (shared cursor). The one truth of the timeline: after every frame each
    /// view shows `min(cursor, its steps)`, and `cursor <= max_steps()`.
    pub(crate) cursor: usize,
    /// Set when runs restart: where the cursor returns as they record again.
    pub(crate) resume: Option<Resume>,
    /// Serial of the next run built: a view's texture and caches start over when it changes.
    pub(crate) next_serial: u64,
    /// Documents a conversion replaced (the square map before "Turn into hexes"), newest
    /// last, each with its views: undo goes back to them once the converted document's own
    /// edits are undone.
    pub(crate) converted_from: Vec<(Document, Vec<View>)>,
    /// The tiles as the runs last saw them: an edit's old cells come from here.
    pub(crate) seen_tiles: Vec<u8>,
    /// Bumped whenever the document is replaced (caches keyed on it start over).
    pub(crate) doc_serial: u64,
}
