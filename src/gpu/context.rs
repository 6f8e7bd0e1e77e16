//! One wgpu device for compute, and the few buffer moves the crowd kernels need.

use super::Adapter;
use wgpu::util::DeviceExt;

/// Asked between dispatches: false stops the work (the app's Cancel, a closed window).
pub type GoOn<'a> = &'a (dyn Fn() -> bool + Sync);

/// What a run stopped by its [`GoOn`] says.
pub const STOPPED: &str = "stopped";

/// A device and queue on the adapter [`super::probe`] would pick.
pub struct Gpu {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub adapter: Adapter,
}

impl Gpu {
    /// Opens the adapter (software ones count: lavapipe on a machine with no GPU), or says why
    /// there is none.
    pub fn new() -> Result<Gpu, String> {
        let (adapter, described) = super::request()?;
        // The adapter's own limits rather than wgpu's defaults, so big maps and waves of
        // agents bind as much memory as the adapter allows.
        let limits = adapter.limits();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("pathlab compute"),
            required_limits: limits,
            ..Default::default()
        }))
        .map_err(|e| format!("the GPU adapter {} refused a device: {e}", described.name))?;
        Ok(Gpu {
            device,
            queue,
            adapter: described,
        })
    }

    /// The most bytes one storage binding (and one buffer) may hold on this device.
    pub fn binding_limit(&self) -> u64 {
        let l = self.device.limits();
        l.max_storage_buffer_binding_size.min(l.max_buffer_size)
    }

    /// Refuses, in one line naming the limit, a buffer of `bytes` for `what` that this device
    /// cannot bind: checked before the buffer is made, since wgpu answers an oversized binding
    /// with a validation error that ends the process.
    pub fn fits(&self, what: &str, bytes: u64) -> Result<(), String> {
        let limit = self.binding_limit();
        if bytes <= limit {
            return Ok(());
        }
        Err(format!(
            "{what}: {} MiB on the GPU, more than this adapter binds at once ({} MiB, its \
             storage-buffer limit); plan it on the CPU (--backend cpu)",
            bytes.div_ceil(1 << 20),
            limit >> 20
        ))
    }

    /// The most table slots (a power of two) one agent may have when each takes
    /// `words_per_slot` words and `words_after` more follow: the agent's memory is one binding.
    pub fn max_slots(&self, words_per_slot: u64, words_after: u64) -> u32 {
        let words = self.binding_limit() / 4;
        let most = words.saturating_sub(words_after) / words_per_slot;
        if most < 16 {
            return 16;
        }
        1u32 << (63 - most.leading_zeros()).min(31)
    }

    /// A storage buffer holding `data`, readable back when `copy_src`.
    pub fn storage(&self, label: &str, data: &[u32]) -> wgpu::Buffer {
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: &bytes(data),
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
            })
    }

    /// A uniform buffer holding `data`.
    pub fn uniform(&self, label: &str, data: &[u32]) -> wgpu::Buffer {
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: &bytes(data),
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            })
    }

    /// Copies the first `len` words of `buffer` back to the CPU, after all work submitted.
    pub fn read(&self, buffer: &wgpu::Buffer, len: usize) -> Result<Vec<u32>, String> {
        let size = (len * 4).max(4) as u64;
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("read back"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut enc = self.device.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
        self.queue.submit([enc.finish()]);
        let (tx, rx) = std::sync::mpsc::channel();
        staging.map_async(wgpu::MapMode::Read, .., move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| format!("the GPU did not finish: {e}"))?;
        rx.recv()
            .map_err(|e| format!("read back: {e}"))?
            .map_err(|e| format!("read back: {e}"))?;
        let view = staging
            .get_mapped_range(..)
            .map_err(|e| format!("read back: {e}"))?;
        let words = view
            .chunks_exact(4)
            .take(len)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        drop(view);
        staging.unmap();
        Ok(words)
    }

    /// A compute pipeline for `entry` of the WGSL `source`, its bind group layout taken from
    /// the shader.
    pub fn pipeline(&self, source: &str, entry: &str) -> wgpu::ComputePipeline {
        let module = self
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(entry),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            });
        self.device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
    }
}

impl Gpu {
    /// The bind group of `pipeline`'s group 0 with `buffers` at bindings 0, 1, 2, ….
    pub fn bind(
        &self,
        pipeline: &wgpu::ComputePipeline,
        buffers: &[&wgpu::Buffer],
    ) -> wgpu::BindGroup {
        let entries: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        })
    }

    /// Starts a wave of agents: its parameters into `uniform`, and `cleared` zeroed (an
    /// agent's memory, which zero marks as not started).
    pub fn begin_wave(&self, uniform: &wgpu::Buffer, params: &[u32], cleared: &[&wgpu::Buffer]) {
        self.queue.write_buffer(uniform, 0, &bytes(params));
        let mut enc = self.device.create_command_encoder(&Default::default());
        for b in cleared {
            enc.clear_buffer(b, 0, None);
        }
        self.queue.submit([enc.finish()]);
    }

    /// Dispatches `pipeline` over `items` until a dispatch leaves `pending[0]` at zero: the
    /// per-agent searches, each of which works a budget per dispatch and counts itself in
    /// `pending` while unfinished. More than `max_rounds` re-dispatches is an error; so is
    /// `go_on` saying stop, asked before each dispatch ([`STOPPED`]).
    pub fn dispatch_until_done(
        &self,
        pipeline: &wgpu::ComputePipeline,
        bind: &wgpu::BindGroup,
        pending: &wgpu::Buffer,
        items: usize,
        max_rounds: u64,
        go_on: GoOn,
    ) -> Result<(), String> {
        let mut rounds = 0;
        loop {
            if !go_on() {
                return Err(STOPPED.into());
            }
            let mut enc = self.device.create_command_encoder(&Default::default());
            enc.clear_buffer(pending, 0, None);
            {
                let (x, y) = groups(items);
                let mut pass = enc.begin_compute_pass(&Default::default());
                pass.set_pipeline(pipeline);
                pass.set_bind_group(0, bind, &[]);
                pass.dispatch_workgroups(x, y, 1);
            }
            self.queue.submit([enc.finish()]);
            if self.read(pending, 1)?[0] == 0 {
                return Ok(());
            }
            rounds += 1;
            if rounds > max_rounds {
                return Err("the searches did not finish".into());
            }
        }
    }
}

/// Words as the little-endian bytes a buffer holds.
pub fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Workgroups of 64 for `items` in a grid no side of which passes 65,535 (the kernels number
/// items as `x + y · groups_x · 64`).
pub fn groups(items: usize) -> (u32, u32) {
    let g = items.div_ceil(64).max(1);
    let x = g.min(65_535);
    (x as u32, g.div_ceil(x) as u32)
}
