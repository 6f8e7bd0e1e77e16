//! Keyboard shortcuts (the Help window lists them).

use crate::app::files::DialogPurpose;
use crate::app::{Command, PathlabApp, Tool};
use eframe::egui;

impl PathlabApp {
    pub(in crate::app) fn shortcuts(&mut self, ctx: &egui::Context) {
        // A modal question (a path to type, a file dialog, a prompt) takes every key: none
        // reaches the window behind it as a shortcut.
        if ctx.egui_wants_keyboard_input() || self.asking_file() || self.prompt.is_some() {
            return;
        }
        use egui::{Key, KeyboardShortcut, Modifiers};
        let cmd = Modifiers::COMMAND;
        let cs = Modifiers::COMMAND | Modifiers::SHIFT;
        let pressed = |m: Modifiers, k: Key| {
            ctx.input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(m, k)))
        };
        // What the keys ask, applied in the order they are read.
        let mut asked = vec![];
        if pressed(cs, Key::Z) || pressed(cmd, Key::Y) {
            asked.push(Command::Redo);
        }
        if pressed(cmd, Key::Z) {
            asked.push(Command::Undo);
        }
        if pressed(cmd, Key::O) {
            asked.push(Command::Open(None));
        }
        if pressed(cs, Key::S) {
            asked.push(Command::AskFile(DialogPurpose::SaveAs, "map.map".into()));
        }
        if pressed(cmd, Key::S) {
            asked.push(Command::Save);
        }
        if pressed(cmd, Key::N) {
            asked.push(Command::New);
        }
        // A voxel world's layer: up and down through the 2D view.
        if crate::app::worlds::ui_of(&self.work.doc.world).layered() {
            let (up, down) =
                ctx.input(|i| (i.key_pressed(Key::PageUp), i.key_pressed(Key::PageDown)));
            let z = self.work.doc.layer();
            if up {
                asked.push(Command::SetLayer(z + 1));
            }
            if down && z > 0 {
                asked.push(Command::SetLayer(z - 1));
            }
        }
        let keys = ctx.input(|i| {
            [
                Key::Home,
                Key::End,
                Key::F1,
                Key::F,
                Key::V,
                Key::B,
                Key::E,
                Key::R,
                Key::G,
                Key::L,
            ]
            .map(|k| i.key_pressed(k))
        });
        let [home, end, f1, f, v, b, e, r, g, l] = keys;
        // Every press counts, however many come within one frame (and auto-repeat too), each
        // with the modifiers it was pressed with: a quick Shift+→ whose Shift went down and up
        // within the frame leaves the frame's modifiers without Shift, its key event not.
        let big = self.play.step_n.max(1);
        let steps = |key: Key| -> usize {
            presses(ctx, key)
                .iter()
                .map(|m| if m.shift { big } else { 1 })
                .sum()
        };
        let (right, left) = (steps(Key::ArrowRight), steps(Key::ArrowLeft));
        if right > 0 {
            asked.push(Command::StepForward(right));
        }
        if left > 0 {
            asked.push(Command::StepBack(left));
        }
        if home {
            asked.push(Command::GoTo(0));
        }
        if end {
            asked.push(Command::ToEnd);
        }
        if f1
            || ctx.input(|i| {
                i.events
                    .iter()
                    .any(|e| matches!(e, egui::Event::Text(t) if t == "?"))
            })
        {
            asked.push(Command::ToggleHelp);
        }
        if f {
            asked.push(Command::Fit);
        }
        for (hit, t) in [
            (v, Tool::Select),
            (b, Tool::Brush),
            (e, Tool::Erase),
            (r, Tool::Rect),
            (g, Tool::Fill),
        ] {
            if hit {
                asked.push(Command::SetTool(t));
            }
        }
        if l {
            asked.push(Command::ToggleLegend);
        }
        // S and T: start or goal (target) to the cell under the pointer, else the selected one,
        // at any zoom.
        let plain = |key: Key| presses(ctx, key).iter().any(|m| !m.command && !m.alt);
        let (set_s, set_t) = (plain(Key::S), plain(Key::T));
        if let Some(c) = self
            .edit
            .hover
            .or(self.edit.selected)
            .filter(|_| set_s || set_t)
        {
            asked.push(Command::MoveEndpoint(set_s, c));
        } else if set_s || set_t {
            self.status = "Point at a cell (or select one) first, then press S or T".into();
        }
        // Space: play/pause on release, unless it was held to pan.
        let (sp_pressed, sp_released) =
            ctx.input(|i| (i.key_pressed(Key::Space), i.key_released(Key::Space)));
        if sp_pressed {
            self.display.space_panned = false;
        }
        if sp_released && !self.display.space_panned {
            asked.push(Command::TogglePlay);
        }
        for c in asked {
            self.apply(c);
        }
    }
}

/// The modifiers of each press of `key` this frame, as its own event carries them (the frame's
/// `modifiers` are those at its end).
fn presses(ctx: &egui::Context, key: egui::Key) -> Vec<egui::Modifiers> {
    ctx.input(|i| {
        i.events
            .iter()
            .filter_map(|e| match e {
                egui::Event::Key {
                    key: k,
                    pressed: true,
                    modifiers,
                    ..
                } if *k == key => Some(*modifiers),
                _ => None,
            })
            .collect()
    })
}
