//! The path field that stands in for the native file dialog where none can open (no desktop
//! portal: a bare X server, a container, a remote session): the current folder's entries to
//! click through, and a path to type, checked before it is used.

use crate::app::files::DialogPurpose;
use eframe::egui::{self, RichText};
use std::path::{Path, PathBuf};

/// A file question on screen, answered by typing or clicking a path.
pub struct PathPrompt {
    pub purpose: DialogPurpose,
    /// The path as typed: absolute, or relative to `folder`.
    pub text: String,
    folder: PathBuf,
    /// `folder`'s sub-folders and the files this purpose can use, read when the folder changes.
    entries: Vec<(String, bool)>,
    listed: Option<PathBuf>,
    pub error: Option<String>,
    /// Whether the field has been given the keyboard (once, when the prompt opens).
    focused: bool,
}

/// What the user did with the prompt this frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Chosen(PathBuf),
    Cancelled,
}

impl PathPrompt {
    /// A prompt in `folder`, with `suggested` as the file name for saves.
    // A page asks the browser's file picker instead (`web_files`).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub fn new(purpose: DialogPurpose, folder: PathBuf, suggested: &str) -> PathPrompt {
        let text = if purpose.opens() || suggested.is_empty() {
            format!("{}/", folder.display())
        } else {
            folder.join(suggested).display().to_string()
        };
        PathPrompt {
            purpose,
            text,
            folder,
            entries: vec![],
            listed: None,
            error: None,
            focused: false,
        }
    }

    /// The typed path, resolved against the folder shown.
    pub fn resolved(&self) -> PathBuf {
        let p = PathBuf::from(self.text.trim());
        if p.is_absolute() {
            p
        } else {
            self.folder.join(p)
        }
    }

    /// Why the typed path cannot be used, if it cannot.
    pub fn check(&self) -> Result<PathBuf, String> {
        let p = self.resolved();
        if self.text.trim().is_empty() {
            return Err("Type a path first".into());
        }
        if self.purpose.opens() {
            if p.is_dir() {
                return Err(format!("{} is a folder: pick a file in it", p.display()));
            }
            if !p.is_file() {
                return Err(format!("{}: no such file", p.display()));
            }
        } else {
            if p.is_dir() || self.text.trim_end().ends_with('/') {
                return Err(format!("{} is a folder: add a file name", p.display()));
            }
            let parent = p.parent().unwrap_or(Path::new("."));
            if !parent.as_os_str().is_empty() && !parent.is_dir() {
                return Err(format!("{}: no such folder", parent.display()));
            }
        }
        Ok(p)
    }

    /// Accepts the typed path if it can be used; else keeps the prompt with the reason.
    pub fn accept(&mut self) -> Option<Answer> {
        match self.check() {
            Ok(p) => Some(Answer::Chosen(p)),
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }

    fn list(&mut self) {
        if self.listed.as_ref() == Some(&self.folder) {
            return;
        }
        let exts = self.purpose.extensions();
        let mut v: Vec<(String, bool)> = std::fs::read_dir(&self.folder)
            .map(|rd| {
                rd.flatten()
                    .filter_map(|e| {
                        let name = e.file_name().to_string_lossy().into_owned();
                        let dir = e.path().is_dir();
                        let ext = Path::new(&name)
                            .extension()
                            .map(|x| x.to_string_lossy().to_ascii_lowercase());
                        let usable = ext.is_some_and(|x| exts.contains(&x.as_str()));
                        ((dir && !name.starts_with('.')) || (!dir && usable)).then_some((name, dir))
                    })
                    .collect()
            })
            .unwrap_or_default();
        // Folders first, then files, each by name.
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        self.entries = v;
        self.listed = Some(self.folder.clone());
    }

    fn enter(&mut self, folder: PathBuf) {
        let name = if self.purpose.opens() {
            String::new()
        } else {
            self.resolved()
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        self.text = folder.join(name).display().to_string();
        if self.purpose.opens() {
            self.text = format!("{}/", folder.display());
        }
        self.folder = folder;
        self.error = None;
    }

    /// Draws the prompt; returns the answer once the user gives one.
    pub fn show(&mut self, ctx: &egui::Context) -> Option<Answer> {
        self.list();
        let mut answer = None;
        egui::Window::new(self.purpose.title())
            .id(egui::Id::unique("path-prompt"))
            .collapsible(false)
            .resizable(true)
            .default_width(520.0)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.label(
                    RichText::new(
                        "No file dialog can open here (no desktop portal): type a path, or \
                         click through the folder.",
                    )
                    .small(),
                );
                ui.horizontal(|ui| {
                    if ui.button("Up").on_hover_text("The folder above").clicked() {
                        if let Some(up) = self.folder.parent().map(Path::to_path_buf) {
                            self.enter(up);
                        }
                    }
                    ui.label(RichText::new(self.folder.display().to_string()).monospace());
                });
                let l = ui.label("Path");
                let field = ui
                    .add(
                        egui::TextEdit::singleline(&mut self.text)
                            .desired_width(f32::INFINITY)
                            .id_salt("path-field"),
                    )
                    .labelled_by(l.id);
                // Typing goes to the field from the first frame, every time the prompt opens
                // (egui keeps focus by id, and the second prompt's field did not get it).
                if !self.focused {
                    field.request_focus();
                    // The cursor at the end of the path: egui keeps the last prompt's cursor
                    // by id, which would put typed text in the middle.
                    let mut st = egui::text_edit::TextEditState::load(ui.ctx(), field.id)
                        .unwrap_or_default();
                    let end = egui::text::CCursor::new(self.text.chars().count());
                    st.cursor
                        .set_char_range(Some(egui::text::CCursorRange::one(end)));
                    st.store(ui.ctx(), field.id);
                    self.focused = true;
                }
                let mut go = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if field.changed() {
                    self.error = None;
                }
                let mut enter = None;
                egui::ScrollArea::vertical()
                    .max_height(220.0)
                    .auto_shrink([false, true])
                    .show(ui, |ui| {
                        if self.entries.is_empty() {
                            ui.label(RichText::new("(no folders or usable files here)").weak());
                        }
                        for (name, dir) in &self.entries {
                            let label = if *dir {
                                format!("{name}/")
                            } else {
                                name.clone()
                            };
                            let r = ui.selectable_label(false, label);
                            if r.double_clicked() && !*dir {
                                go = true;
                            }
                            if r.clicked() {
                                if *dir {
                                    enter = Some(self.folder.join(name));
                                } else {
                                    self.text = self.folder.join(name).display().to_string();
                                    self.error = None;
                                }
                            }
                        }
                    });
                if let Some(f) = enter {
                    self.enter(f);
                }
                if let Some(e) = &self.error {
                    ui.colored_label(egui::Color32::from_rgb(190, 30, 30), e);
                }
                ui.horizontal(|ui| {
                    let ok = if self.purpose.opens() { "Open" } else { "Save" };
                    if ui.button(ok).clicked() {
                        go = true;
                    }
                    if ui.button("Cancel").clicked() {
                        answer = Some(Answer::Cancelled);
                    }
                });
                if go {
                    answer = self.accept();
                }
            });
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_what_it_is_given() {
        let dir = std::env::temp_dir().join(format!("pathlab-prompt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.map"), "x").unwrap();
        let mut open = PathPrompt::new(DialogPurpose::Open, dir.clone(), "");
        assert!(open.check().unwrap_err().contains("is a folder"));
        open.text = "a.map".into();
        assert_eq!(open.check().unwrap(), dir.join("a.map"));
        open.text = "b.map".into();
        assert!(open.check().unwrap_err().contains("no such file"));
        let mut save = PathPrompt::new(DialogPurpose::SaveAs, dir.clone(), "map.map");
        assert_eq!(save.check().unwrap(), dir.join("map.map"));
        save.text = dir.join("nope/x.map").display().to_string();
        assert!(save.check().unwrap_err().contains("no such folder"));
        save.list();
        assert_eq!(save.entries, vec![("a.map".to_string(), false)]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
