//! The built-in scenarios on the page: their menu is compiled in ([`library::MENU`]), their files
//! are fetched when first wanted (`scenarios/<id>.json`, next to the page; Trunk copies them there),
//! read and kept for the rest of the visit. Only ids from the menu are ever fetched.
//!
//! The default scenario is built in code ([`opening`]): a page at its bare address needs neither
//! its file nor the scenario reader, which comes in a chunk ([`reader`]) the first time another
//! scenario or an address with a query is read (issue 14: the first load).

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::scenario::lesson::{self, Lesson};
use crate::scenario::opening::opening;
use crate::scenario::{library, parse, Scenario, ScenarioError};
use crate::story::packs::{self, Part};
use crate::vocab::{Fable, Lang};

/// A built-in as the page has it.
struct Entry {
    id: &'static str,
    /// The file's text, if it was fetched (the default scenario's is fetched only to export it).
    text: Option<String>,
    /// What reading it gave, or why it could not be fetched or read.
    read: Result<Scenario, ScenarioError>,
}

thread_local! {
    /// Every built-in asked for. An entry that could not be had is asked for again next time.
    static FILES: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// What reads the page's texts: in a chunk of its own in the split build.
#[derive(Clone, Copy)]
pub struct Reader {
    /// Reads a scenario file (see `scenario::parse`).
    pub scenario: fn(&str) -> Result<Scenario, ScenarioError>,
    /// Reads the start settings from the page's address (see `url::read`).
    pub address: fn() -> super::url::Start,
}

chunk_fn! {
    in reader;
    /// The scenario and address reader: fetched on first use in the split build.
    pub fn reader() -> Reader = reader_entries;
}

fn reader_entries() -> Reader {
    Reader { scenario: parse, address: super::url::read }
}

/// Makes built-in `id` ready for [`get`]: the default at once, another by fetching and reading
/// its file unless it is already here. Unknown ids are ignored (see [`get`]).
pub async fn load(id: &str) {
    let Some(builtin) = library::builtin(id) else { return };
    if FILES.with_borrow(|f| f.iter().any(|e| e.id == builtin.id && e.read.is_ok())) {
        return;
    }
    let entry = if builtin.id == library::DEFAULT_ID {
        Entry { id: builtin.id, text: None, read: Ok(opening()) }
    } else {
        match fetch_text(&file_url(builtin.id)).await {
            Ok(text) => return keep(builtin.id, text).await,
            Err(message) => Entry { id: builtin.id, text: None, read: Err(not_fetched(message)) },
        }
    };
    FILES.with_borrow_mut(|f| {
        f.retain(|e| e.id != builtin.id);
        f.push(entry);
    });
}

/// Why a file could not be had, as an error of the whole document.
fn not_fetched(message: String) -> ScenarioError {
    ScenarioError { path: ".".into(), message, line_column: None }
}

/// Where built-in `id`'s file is, next to the page.
fn file_url(id: &str) -> String {
    format!("scenarios/{id}.json")
}

/// Built-in `id` as read: `None` if it is not a built-in or was not [`load`]ed; an error if it
/// could not be fetched (what the browser said) or read.
pub fn get(id: &str) -> Option<Result<Scenario, ScenarioError>> {
    FILES.with_borrow(|f| f.iter().find(|e| e.id == id).map(|e| e.read.clone()))
}

/// The text of built-in `id`'s file, fetched if it is not here yet; `None` if `id` is not a
/// built-in or its file cannot be fetched.
pub async fn file_text(id: &str) -> Option<String> {
    let builtin = library::builtin(id)?;
    if let Some(text) = FILES.with_borrow(|f| f.iter().find(|e| e.id == builtin.id).and_then(|e| e.text.clone())) {
        return Some(text);
    }
    let text = fetch_text(&file_url(builtin.id)).await.ok()?;
    FILES.with_borrow_mut(|f| {
        if let Some(e) = f.iter_mut().find(|e| e.id == builtin.id) {
            e.text = Some(text.clone());
        }
    });
    Some(text)
}

/// Fetches and reads built-in lesson `id` with the scenarios its steps play, in one request:
/// its bundle (`lesson-bundles/<id>.json`, next to the page, see
/// `library::lessons::bundle`; only ids of the lesson menu are fetched). The scenarios are kept
/// as if each file had been fetched ([`load`] then finds them here). Says why it could not be had
/// (in English).
pub async fn lesson(id: &str) -> Result<Lesson, String> {
    use library::lessons::{BUNDLE_DIR, BUNDLE_FORMAT};
    let Some(builtin) = library::lessons::builtin(id) else { return Err(format!("there is no lesson \"{id}\"")) };
    let url = format!("{BUNDLE_DIR}/{}.json", builtin.id);
    let text = fetch_text(&url).await?;
    let bundle: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{url}: {e}"))?;
    if bundle["format"].as_str() != Some(BUNDLE_FORMAT) {
        return Err(format!("{url}: \"format\" must be \"{BUNDLE_FORMAT}\""));
    }
    let Some(lesson_text) = bundle["lesson"].as_str() else { return Err(format!("{url}: no \"lesson\" text")) };
    if let Some(scenarios) = bundle["scenarios"].as_object() {
        for (sid, file) in scenarios {
            if let Some(file) = file.as_str() {
                keep(sid, file.to_owned()).await;
            }
        }
    }
    lesson::parse(lesson_text).map_err(|e| e.to_string())
}

/// Keeps built-in `id`'s file `text`, read, unless it is here already (as [`load`] would have).
async fn keep(id: &str, text: String) {
    let Some(builtin) = library::builtin(id) else { return };
    if FILES.with_borrow(|f| f.iter().any(|e| e.id == builtin.id && e.read.is_ok())) {
        return;
    }
    let read = match reader().await {
        Ok(reader) => (reader.scenario)(&text),
        Err(_) => Err(not_fetched("the page's scenario reader could not be fetched".into())),
    };
    FILES.with_borrow_mut(|f| {
        f.retain(|e| e.id != builtin.id);
        f.push(Entry { id: builtin.id, text: Some(text), read });
    });
}

/// Loads the first part of `lang`'s translation pack (`i18n/<lang>.json`, stamped against stale
/// caches) unless it is already here (see `story::packs`). Its later part is in the later parts'
/// chunk (`ui::later`).
///
/// # Errors
/// Why it could not be fetched or read (in English).
pub async fn load_pack(lang: Lang) -> Result<(), String> {
    let part = Part::First;
    if packs::has(lang, part) {
        return Ok(());
    }
    let url = format!("i18n/{}?v={}", packs::file_name(lang, part), packs::PACK_STAMP);
    let text = fetch_text(&url).await?;
    let texts = pack_texts(&text).map_err(|e| format!("{url}: {e}"))?;
    packs::install(lang, part, texts).map_err(|e| format!("{url}: {e}"))
}

/// Loads the first part of `fable`'s pack in `lang` (`i18n/<fable>.<lang>.json`, stamped as the
/// others) unless it is already here (see `story::packs`; its later part is in the later parts'
/// chunk).
///
/// # Errors
/// Why it could not be fetched or read (in English).
pub async fn load_fable_pack(fable: Fable, lang: Lang) -> Result<(), String> {
    let part = Part::First;
    if packs::has_fable(fable, lang, part) {
        return Ok(());
    }
    let url = format!("i18n/{}?v={}", packs::fable_file_name(fable, lang, part), packs::PACK_STAMP);
    let text = fetch_text(&url).await?;
    let texts = pack_texts(&text).map_err(|e| format!("{url}: {e}"))?;
    packs::install_fable(fable, lang, part, texts).map_err(|e| format!("{url}: {e}"))
}

/// A pack's texts: its file is a JSON array of strings, read with the browser's `JSON.parse`
/// (the page carries no JSON reader of its own before it needs one).
pub(crate) fn pack_texts(json: &str) -> Result<Vec<String>, String> {
    let value = js_sys::JSON::parse(json).map_err(|_| String::from("not JSON"))?;
    if !js_sys::Array::is_array(&value) {
        return Err("not a JSON array".into());
    }
    js_sys::Array::from(&value)
        .iter()
        .map(|t| t.as_string().ok_or_else(|| "not every text is a string".into()))
        .collect()
}

/// The body of `url` (relative to the page) as text, or what went wrong.
pub(crate) async fn fetch_text(url: &str) -> Result<String, String> {
    let shown = |e: wasm_bindgen::JsValue| {
        format!("fetching {url} failed: {}", e.as_string().unwrap_or_else(|| "a network error".into()))
    };
    let window = crate::ui::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url)).await.map_err(shown)?;
    let response: web_sys::Response = response.dyn_into().map_err(shown)?;
    if !response.ok() {
        return Err(format!("fetching {url} failed: HTTP {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(shown)?).await.map_err(shown)?;
    text.as_string().ok_or_else(|| format!("fetching {url} failed: not text"))
}
