//! Scenario files in and out: import a scenario file (checked exactly as the runner checks it),
//! export this run as a scenario file, and export its report.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::story::fill;
use crate::story::i18n::Later;

use super::state::{AppState, RunFile};
use super::tr;

/// Offers `text` as a download named `name`: a Blob, an object URL and a temporary
/// `<a download>` clicked once.
fn download(name: &str, text: &str) -> Option<()> {
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let a: web_sys::HtmlAnchorElement = document().create_element("a").ok()?.dyn_into().ok()?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Some(())
}

#[component]
pub fn Files(app: AppState) -> impl IntoView {
    // The last import's error: the file's name and what is wrong, where.
    let error = RwSignal::new(None::<(String, String)>);
    let on_file = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        // The same file chosen again must fire `change` again.
        input.set_value("");
        leptos::task::spawn_local(async move {
            let name = file.name();
            let text = wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|v| v.as_string());
            let Some(text) = text else {
                error.set(Some((name, "the file could not be read as text".into())));
                return;
            };
            match crate::scenario::parse(&text) {
                Ok(scenario) => {
                    error.set(None);
                    // The landing card welcomed the built-in; a file of one's own is past it.
                    app.landing.set(false);
                    app.load_custom(scenario, text);
                }
                Err(e) => error.set(Some((name, e.to_string()))),
            }
        });
    };
    // Both files are written by chunks fetched the first time they are asked for.
    let export = move |kind: Option<RunFile>| {
        move |_| {
            leptos::task::spawn_local(async move {
                let file = match kind {
                    Some(kind) => app.export_run(kind).await,
                    None => app.export_scenario().await,
                };
                if let Some((name, text)) = file {
                    download(&name, &text);
                }
            })
        }
    };
    let message = move || {
        error.get().map(|(file, e)| fill(Later::ImportError.text(app.lang.get()), &[("file", &file), ("error", &e)]))
    };
    view! {
        <div class="group files">
            <label class="import" title=tr(app, Later::ImportHint)>
                <span>{tr(app, Later::ImportScenario)}</span>
                <input type="file" accept=".json,application/json" data-testid="import-file" on:change=on_file />
            </label>
            <button data-testid="export-scenario" title=tr(app, Later::ExportScenarioHint) on:click=export(None)>
                {tr(app, Later::ExportScenario)}
            </button>
            <button data-testid="export-report" title=tr(app, Later::ExportReportHint) on:click=export(Some(RunFile::Report))>
                {tr(app, Later::ExportReport)}
            </button>
            <button data-testid="export-shiviz" title=tr(app, Later::ExportShivizHint) on:click=export(Some(RunFile::Shiviz))>
                {tr(app, Later::ExportShiviz)}
            </button>
            <button data-testid="export-history" title=tr(app, Later::ExportHistoryHint) on:click=export(Some(RunFile::History))>
                {tr(app, Later::ExportHistory)}
            </button>
            <p class="import-error" data-testid="import-error" role="alert" hidden=move || error.with(Option::is_none)>
                {message}
            </p>
        </div>
    }
}
