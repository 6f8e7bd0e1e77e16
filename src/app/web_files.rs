//! A page's files: a browser page has no file system, so files come in through the browser's
//! file picker (or are dropped on the page, which egui hands over with their bytes), go out as
//! downloads, and the recovery file lives in the page's local storage.

use eframe::egui;
use eframe::wasm_bindgen::closure::Closure;
use eframe::wasm_bindgen::{JsCast as _, JsValue};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Files by name and contents, as a page gets them.
pub type Given = crate::map::io::GivenFiles;

/// The key of the recovery file (a project holding the unsaved work) in local storage.
pub const RECOVERY_KEY: &str = "pathlab-recovery";

thread_local! {
    /// The app's context, woken when picked files have been read.
    static CTX: RefCell<Option<egui::Context>> = const { RefCell::new(None) };
}

/// Remembers the app's context, to wake it when files arrive.
pub fn wake_with(ctx: &egui::Context) {
    CTX.with(|c| *c.borrow_mut() = Some(ctx.clone()));
}

fn wake() {
    CTX.with(|c| {
        if let Some(ctx) = &*c.borrow() {
            ctx.request_repaint();
        }
    });
}

fn js(e: JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::JSON::stringify(&e).ok().and_then(|s| s.as_string()))
        .unwrap_or_else(|| "the browser refused".into())
}

fn document() -> Result<web_sys::Document, String> {
    web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| "no page document".to_string())
}

/// Hands a written file to the browser as a download named as the file (the folder part of
/// `path` means nothing in a page). Set once at the start with `map::io::write_files_to`.
pub fn download(path: &Path, data: &[u8]) -> Result<(), String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "pathlab-output".into());
    let bytes = js_sys::Uint8Array::from(data);
    let parts = js_sys::Array::of1(&bytes);
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/octet-stream");
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts).map_err(js)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(js)?;
    let a: web_sys::HtmlAnchorElement = document()?
        .create_element("a")
        .map_err(js)?
        .dyn_into()
        .map_err(|_| "no <a> element".to_string())?;
    a.set_href(&url);
    a.set_download(&name);
    a.click();
    // The browser has taken the blob once the click is handled: free it a moment later.
    let free = Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    if let Some(w) = web_sys::window() {
        let _ =
            w.set_timeout_with_callback_and_timeout_and_arguments_0(free.unchecked_ref(), 10_000);
    }
    Ok(())
}

/// Files the browser is reading for the app (a page reads files asynchronously): picked with
/// the browser's file picker, or dropped on the page. Empty when the picker was cancelled.
pub struct Arriving {
    got: Rc<RefCell<Option<Given>>>,
}

impl Arriving {
    /// The files dropped on the page, read; the app is woken when they have been.
    pub fn dropped(files: Vec<egui::DroppedFileHandle>) -> Arriving {
        let got = Rc::new(RefCell::new(None));
        let slot = got.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let mut read = Vec::new();
            for f in &files {
                if let Ok(bytes) = f.bytes_async().await {
                    read.push((
                        PathBuf::from(f.path().file_name().unwrap_or_default()),
                        bytes,
                    ));
                }
            }
            *slot.borrow_mut() = Some(read);
            wake();
        });
        Arriving { got }
    }

    /// Opens the picker for files ending in one of `endings` (several may be chosen, so that a
    /// scenario comes with its map); the app is woken when the files have been read.
    pub fn picked(endings: &[&str]) -> Result<Arriving, String> {
        let input: web_sys::HtmlInputElement = document()?
            .create_element("input")
            .map_err(js)?
            .dyn_into()
            .map_err(|_| "no <input> element".to_string())?;
        input.set_type("file");
        input.set_multiple(true);
        if !endings.contains(&"*") {
            let accept: Vec<String> = endings.iter().map(|e| format!(".{e}")).collect();
            input.set_accept(&accept.join(","));
        }
        let got = Rc::new(RefCell::new(None));
        let (slot, el) = (got.clone(), input.clone());
        let chosen = Closure::<dyn FnMut()>::new(move || {
            let (slot, el) = (slot.clone(), el.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let mut files = Vec::new();
                if let Some(list) = el.files() {
                    for i in 0..list.length() {
                        let Some(f) = list.get(i) else { continue };
                        let Ok(buf) = wasm_bindgen_futures::JsFuture::from(f.array_buffer()).await
                        else {
                            continue;
                        };
                        let bytes = js_sys::Uint8Array::new(&buf).to_vec();
                        files.push((PathBuf::from(f.name()), bytes));
                    }
                }
                *slot.borrow_mut() = Some(files);
                wake();
            });
        });
        input.set_onchange(Some(chosen.as_ref().unchecked_ref()));
        chosen.forget();
        let slot = got.clone();
        let cancelled = Closure::<dyn FnMut()>::new(move || {
            slot.borrow_mut().get_or_insert_with(Vec::new);
            wake();
        });
        input
            .add_event_listener_with_callback("cancel", cancelled.as_ref().unchecked_ref())
            .map_err(js)?;
        cancelled.forget();
        // Within the frame of the click that asked: the browser still counts it as the user's.
        input.click();
        Ok(Arriving { got })
    }

    /// The files chosen (empty: cancelled), once they are read.
    pub fn poll(&self) -> Option<Given> {
        self.got.borrow_mut().take()
    }
}

/// The page's local storage, where the recovery file lives.
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The text stored under `key`, if any.
pub fn stored(key: &str) -> Option<String> {
    storage()?.get_item(key).ok()?
}

/// Stores `text` under `key`; a full storage (a few MiB per site) is an error.
pub fn store(key: &str, text: &str) -> Result<(), String> {
    storage()
        .ok_or("the page has no local storage")?
        .set_item(key, text)
        .map_err(|e| format!("the page's local storage refused it ({})", js(e)))
}

/// Removes what is stored under `key`.
pub fn forget(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}
