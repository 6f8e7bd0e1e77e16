//! The GPU side (the `gpu` feature): finding an adapter through wgpu. The crowd kernels (WGSL in
//! `shaders/`, each with a CPU twin here that tests compare it against) build on it; without
//! an adapter pathlab says so and runs on the CPU.

pub mod astar;
pub mod context;
pub mod crowd;
pub mod flow;
pub mod hna;

pub use context::Gpu;

/// The adapter wgpu would compute on: its name, backend and kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adapter {
    pub name: String,
    pub backend: String,
    pub kind: String,
}

impl std::fmt::Display for Adapter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}, {})", self.name, self.backend, self.kind)
    }
}

/// The adapter wgpu offers for compute (any backend it can load, `WGPU_BACKEND` honoured), or
/// why there is none. Software adapters count: Mesa's lavapipe runs compute on the CPU, which
/// is how CI and machines with no GPU run the kernels.
pub fn probe() -> Result<Adapter, String> {
    request()
        .map(|(_, a)| a)
        .map_err(|e| format!("{e}: the CPU backend runs instead"))
}

/// The adapter [`probe`] describes, with its description.
pub(crate) fn request() -> Result<(wgpu::Adapter, Adapter), String> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let options = wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        ..Default::default()
    };
    let adapter = pollster::block_on(instance.request_adapter(&options))
        .map_err(|e| format!("no GPU adapter ({e})"))?;
    let info = adapter.get_info();
    let described = Adapter {
        name: info.name,
        backend: format!("{:?}", info.backend),
        kind: format!("{:?}", info.device_type),
    };
    Ok((adapter, described))
}
