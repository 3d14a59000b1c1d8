//! The built-in scenarios on the page: their menu is compiled in ([`library::MENU`]), their files
//! are fetched when first wanted (`scenarios/<id>.json`, next to the page; Trunk copies them there)
//! and kept for the rest of the visit. Only ids from the menu are ever fetched.

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::scenario::lesson::{self, Lesson};
use crate::scenario::{library, parse, Scenario, ScenarioError};
use crate::story::packs;
use crate::vocab::Lang;

thread_local! {
    /// `(id, the file's text or why it could not be fetched)`, for every built-in asked for.
    static FILES: RefCell<Vec<(&'static str, Result<String, String>)>> = const { RefCell::new(Vec::new()) };
}

/// Fetches built-in `id`'s file unless it is already here. Unknown ids are ignored (see [`get`]).
pub async fn load(id: &str) {
    let Some(builtin) = library::builtin(id) else { return };
    if FILES.with_borrow(|f| f.iter().any(|(i, r)| *i == builtin.id && r.is_ok())) {
        return;
    }
    let fetched = fetch_text(&format!("scenarios/{}.json", builtin.id)).await;
    FILES.with_borrow_mut(|f| {
        f.retain(|(i, _)| *i != builtin.id);
        f.push((builtin.id, fetched));
    });
}

/// The file of built-in `id` as fetched: `None` if `id` is not a built-in or was never loaded.
pub fn text(id: &str) -> Option<Result<String, String>> {
    FILES.with_borrow(|f| f.iter().find(|(i, _)| *i == id).map(|(_, r)| r.clone()))
}

/// Built-in `id`, parsed like any scenario file: `None` if it is not a built-in or was not
/// [`load`]ed; an error if it could not be fetched (what the browser said) or read.
pub fn get(id: &str) -> Option<Result<Scenario, ScenarioError>> {
    let text = text(id)?;
    Some(text.map_err(|message| ScenarioError { path: ".".into(), message, line_column: None }).and_then(|t| parse(&t)))
}

/// Fetches and reads built-in lesson `id` (`lessons/<id>.json`, next to the page; only ids of the
/// lesson menu are fetched), or says why it could not be had (in English).
pub async fn lesson(id: &str) -> Result<Lesson, String> {
    let Some(builtin) = library::lessons::builtin(id) else { return Err(format!("there is no lesson \"{id}\"")) };
    let text = fetch_text(&format!("lessons/{}.json", builtin.id)).await?;
    lesson::parse(&text).map_err(|e| e.to_string())
}

/// Loads `lang`'s translation pack (`i18n/<lang>.json`, stamped against stale caches) unless
/// it is already here (see `story::packs`).
///
/// # Errors
/// Why it could not be fetched or read (in English).
pub async fn load_pack(lang: Lang) -> Result<(), String> {
    if packs::has(lang) {
        return Ok(());
    }
    let url = format!("i18n/{}?v={}", packs::file_name(lang), packs::PACK_STAMP);
    let text = fetch_text(&url).await?;
    packs::install(lang, &text).map_err(|e| format!("{url}: {e}"))
}

/// The body of `url` (relative to the page) as text, or what went wrong.
async fn fetch_text(url: &str) -> Result<String, String> {
    let shown = |e: wasm_bindgen::JsValue| {
        format!("fetching {url} failed: {}", e.as_string().unwrap_or_else(|| "a network error".into()))
    };
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url)).await.map_err(shown)?;
    let response: web_sys::Response = response.dyn_into().map_err(shown)?;
    if !response.ok() {
        return Err(format!("fetching {url} failed: HTTP {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(shown)?).await.map_err(shown)?;
    text.as_string().ok_or_else(|| format!("fetching {url} failed: not text"))
}
