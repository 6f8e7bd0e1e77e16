//! The workspace: the document, its runs and their timeline, files and problems, apart from
//! the UI that shows them.

pub(crate) mod changes;
pub(crate) mod choice;
pub(crate) mod document;
pub(crate) mod envelope;
pub(crate) mod file_actions;
pub(crate) mod files;
pub(crate) mod oracle;
pub(crate) mod prepared;
pub(crate) mod problems;
pub(crate) mod run;
pub(crate) mod timeline;
