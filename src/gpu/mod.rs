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

/// Loop rounds per invocation per dispatch that Mesa's llvmpipe allows the crowd kernels, or
/// `None` elsewhere. llvmpipe ends an invocation's loops after 65,535 rounds in all, counted per
/// SIMD batch of invocations, and every lane's rounds may count; its name says its vector
/// width ("llvmpipe (LLVM 15.0.6, 256 bits)": 8 lanes of 32 bits). The budget leaves each lane
/// room for one expansion past it (a few hundred rounds). A kernel still cut by the driver
/// reports the agent as cut, never with another answer.
pub fn loop_budget(adapter: &Adapter) -> Option<u32> {
    if !adapter.name.contains("llvmpipe") && adapter.kind != "Cpu" {
        return None;
    }
    let lanes = (vector_bits(&adapter.name) / 32).max(1);
    Some((60_000 / lanes).saturating_sub(600).max(256))
}

/// The vector width an llvmpipe adapter names ("…, 256 bits)"); 512 (the widest it uses) when
/// it names none.
fn vector_bits(name: &str) -> u32 {
    name.split(" bits")
        .next()
        .filter(|_| name.contains(" bits"))
        .and_then(|head| head.rsplit(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(512)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llvmpipe_budgets_follow_its_vector_width() {
        assert_eq!(vector_bits("llvmpipe (LLVM 15.0.6, 256 bits)"), 256);
        assert_eq!(vector_bits("llvmpipe (LLVM 19.1.7, 128 bits)"), 128);
        assert_eq!(vector_bits("llvmpipe"), 512);
        let of = |name: &str, kind: &str| {
            loop_budget(&Adapter {
                name: name.into(),
                backend: "Vulkan".into(),
                kind: kind.into(),
            })
        };
        // Eight lanes of 7,000 rounds (and one expansion past it) stay below 65,535.
        assert_eq!(of("llvmpipe (LLVM 15.0.6, 256 bits)", "Cpu"), Some(6900));
        assert_eq!(of("llvmpipe", "Cpu"), Some(3150));
        assert_eq!(of("NVIDIA H200", "DiscreteGpu"), None);
    }
}
