//! One UI part per world family: its panel, its tools and its side views.

pub(crate) mod hex;
pub(crate) mod knowledge;
pub(crate) mod voxel;
