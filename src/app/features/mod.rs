//! Features that live beside the views: agents on a changing map, Krafft 2019's moving 3D
//! scene, the dynamic experiment, crowd and vehicle windows, the lessons. Each is a
//! [`Part`](crate::app::parts::Part) listed in `parts::every_part`, owning its state.

pub(crate) mod agent;
pub(crate) mod crowd;
pub(crate) mod crowd_view;
pub(crate) mod experiment;
pub(crate) mod flight;
pub(crate) mod lesson;
pub(crate) mod map_stats;
pub(crate) mod vehicle;
pub(crate) mod vehicle_paint;
pub(crate) mod vehicle_view;
