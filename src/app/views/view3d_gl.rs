//! The 3D view's drawing: three-d inside egui's glow painter. The paint callback must be Send
//! and Sync while three-d's context is neither, so the GPU side lives in a thread-local,
//! created on the first frame and re-uploading a part only when its generation changes.

use crate::app::view3d_mesh::Tris;
use eframe::egui;
use eframe::egui_glow;
use eframe::glow::HasContext;
use std::cell::RefCell;
use std::sync::Arc;
use three_d::{
    Camera, ClearState, ColorMaterial, Context, CpuMaterial, CpuMesh, Gm, Indices, Mesh, Positions,
    RenderStates, RenderTarget, ScissorBox, Srgba, Vec3, Viewport,
};

/// One frame's scene: the parts with their generations, the camera and the background.
#[derive(Clone)]
pub struct Scene {
    pub parts: Vec<(u64, Arc<Tris>)>,
    pub eye: [f32; 3],
    pub target: [f32; 3],
    pub fov_y: f32,
    pub far: f32,
    pub background: egui::Color32,
    /// Draw parts after the first in front of it.
    pub xray: bool,
}

struct Gpu {
    ctx: Context,
    parts: Vec<(u64, Option<Gm<Mesh, ColorMaterial>>)>,
}

thread_local! {
    static GPU: RefCell<Option<Gpu>> = const { RefCell::new(None) };
}

/// Paints `scene` into `rect` of the window.
pub fn paint(ui: &egui::Ui, rect: egui::Rect, scene: Scene) {
    let cb = egui_glow::CallbackFn::new(move |info, painter| {
        GPU.with(|g| {
            let mut g = g.borrow_mut();
            if g.is_none() {
                match Context::from_gl_context(painter.gl().clone()) {
                    Ok(ctx) => {
                        *g = Some(Gpu { ctx, parts: vec![] });
                    }
                    Err(e) => {
                        eprintln!("pathlab: the 3D view cannot use this OpenGL context: {e}");
                        return;
                    }
                }
            }
            if let Some(gpu) = g.as_mut() {
                draw(gpu, &info, painter, &scene);
            }
        });
    });
    ui.painter().add(egui::PaintCallback {
        rect,
        callback: Arc::new(cb),
    });
}

fn upload(ctx: &Context, t: &Tris) -> Option<Gm<Mesh, ColorMaterial>> {
    if t.is_empty() {
        return None;
    }
    let cpu = CpuMesh {
        positions: Positions::F32(
            t.positions
                .iter()
                .map(|p| Vec3::new(p[0], p[1], p[2]))
                .collect(),
        ),
        indices: Indices::U32(t.indices.clone()),
        colors: Some(
            t.colors
                .iter()
                .map(|c| Srgba::new(c[0], c[1], c[2], c[3]))
                .collect(),
        ),
        ..Default::default()
    };
    let mut material = ColorMaterial::new_opaque(
        ctx,
        &CpuMaterial {
            albedo: Srgba::WHITE,
            ..Default::default()
        },
    );
    // Both windings: the y mirror turns every face, and cut-away layers show insides.
    material.render_states = RenderStates {
        cull: three_d::Cull::None,
        ..Default::default()
    };
    Some(Gm::new(Mesh::new(ctx, &cpu), material))
}

fn draw(
    gpu: &mut Gpu,
    info: &egui::PaintCallbackInfo,
    painter: &egui_glow::Painter,
    scene: &Scene,
) {
    gpu.parts
        .resize_with(scene.parts.len(), || (u64::MAX, None));
    for (slot, (generation, tris)) in gpu.parts.iter_mut().zip(&scene.parts) {
        if slot.0 != *generation {
            *slot = (*generation, upload(&gpu.ctx, tris));
        }
    }
    let vp = info.viewport_in_pixels();
    let clip = info.clip_rect_in_pixels();
    if vp.width_px <= 0 || vp.height_px <= 0 {
        return;
    }
    let viewport = Viewport {
        x: vp.left_px,
        y: vp.from_bottom_px,
        width: vp.width_px as u32,
        height: vp.height_px as u32,
    };
    // The painter's clip rectangle may be larger than the view: draw only where both are.
    let (x0, y0) = (
        clip.left_px.max(vp.left_px),
        clip.from_bottom_px.max(vp.from_bottom_px),
    );
    let x1 = (clip.left_px + clip.width_px).min(vp.left_px + vp.width_px);
    let y1 = (clip.from_bottom_px + clip.height_px).min(vp.from_bottom_px + vp.height_px);
    if x1 <= x0 || y1 <= y0 {
        return;
    }
    let scissor = ScissorBox {
        x: x0,
        y: y0,
        width: (x1 - x0) as u32,
        height: (y1 - y0) as u32,
    };
    let v = |p: [f32; 3]| Vec3::new(p[0], p[1], p[2]);
    let camera = Camera::new_perspective(
        viewport,
        v(scene.eye),
        v(scene.target),
        Vec3::new(0.0, 0.0, 1.0),
        three_d::radians(scene.fov_y),
        0.1,
        scene.far,
    );
    let [w, h] = info.screen_size_px;
    unsafe {
        // egui draws in sRGB space by hand; three-d's colours are already sRGB.
        painter.gl().disable(eframe::glow::FRAMEBUFFER_SRGB);
    }
    let target = match painter.intermediate_fbo() {
        Some(fbo) => RenderTarget::from_framebuffer(&gpu.ctx, w, h, fbo),
        None => RenderTarget::screen(&gpu.ctx, w, h),
    };
    let bg = scene.background;
    target.clear_partially(
        scissor,
        ClearState::color_and_depth(
            bg.r() as f32 / 255.0,
            bg.g() as f32 / 255.0,
            bg.b() as f32 / 255.0,
            1.0,
            1.0,
        ),
    );
    for (k, part) in gpu.parts.iter().enumerate() {
        if let Some(gm) = &part.1 {
            if k > 0 && scene.xray {
                // X-ray: later parts (the search) show in front of the obstacles, still
                // hiding one another.
                target.clear_partially(scissor, ClearState::depth(1.0));
            }
            target.render_partially(scissor, &camera, [gm], &[]);
        }
    }
    // egui's framebuffer belongs to egui: a render target made from it would delete it when
    // dropped.
    let _ = target.into_framebuffer();
}
