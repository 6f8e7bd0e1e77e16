//! The panels around the views: menus, status line, timeline, left and right panels, help,
//! keys and the path field.

pub(crate) mod bottom;
pub(crate) mod help;
pub(crate) mod inspector;
pub(crate) mod keys;
pub(crate) mod palette;
pub(crate) mod panels;
pub(crate) mod path_prompt;
pub(crate) mod statistics;
pub(crate) mod world_panels;
