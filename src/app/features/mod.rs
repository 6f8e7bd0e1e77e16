//! Features that live beside the views: agents on a changing map, Krafft 2019's moving 3D
//! scene, the dynamic experiment window.

pub(crate) mod agent;
pub(crate) mod experiment;
pub(crate) mod flight;
