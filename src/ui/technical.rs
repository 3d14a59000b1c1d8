//! The technical view (the lease as `kubectl`, `redis-cli` or `etcdctl` prints it, with a
//! picker) and the resource table (high-water mark, counts, the last writes judged). Both draw
//! what [`crate::story::technical`] derives; nothing here reads the engine.
//!
//! Display-only parts are built as escaped markup in one memo each: a typed view per row and
//! per value cost several KB of the page's wasm budget and bought no behaviour. The memos'
//! equality checks keep the DOM still unless the text changes.
//!
//! Nobody reads the technical tab before opening it, so its code (the three transcripts, the
//! table) is fetched as a chunk of its own the first time the tab is shown
//! ([`technical_panel`]), and the panel is built then: until that moment no snapshot is turned
//! into a transcript.

use leptos::prelude::*;

use crate::story::i18n::Ui;
use crate::story::markup::Markup;
use crate::story::technical::{technical_view_as, JudgedWrite, TechView, View};
use crate::story::Cast;
use crate::vocab::Lang;

use super::state::AppState;
use super::tr;

/// The technical panel's code, which the release build fetches as a chunk the first time the tab
/// is shown (`#[lazy]`).
#[derive(Clone, Copy)]
pub struct Code {
    /// The panel: the technical view, then the resource table.
    pub panel: fn(AppState) -> AnyView,
}

chunk_fn! {
    /// Loads the technical panel's code (a chunk in the split build, at once otherwise).
    pub fn technical_panel() -> Code = technical_code;
}

fn technical_code() -> Code {
    Code { panel: build_panel }
}

fn build_panel(app: AppState) -> AnyView {
    view! {
        <TechnicalView app />
        <ResourceTable app />
    }
    .into_any()
}

#[component]
fn TechnicalView(app: AppState) -> impl IntoView {
    // Two strings, each recomputed with the snapshot: the memos' equality checks keep the DOM
    // still unless the text changes (a remaining TTL ticking down changes only the transcript).
    let shown = move |f: fn(&TechView) -> String| {
        let lang = app.lang.get();
        let view = app.tech_view.get();
        // The holder as the fable's systems print it (under the lantern, its townsperson's handle).
        app.cast.with(|cast| {
            app.snapshot
                .with(|snap| f(&technical_view_as(view, snap, &snap.lease.lock_name, lang, &|h| cast.handle(h))))
        })
    };
    // One text node for the whole transcript: a line per command or answer, as a terminal shows it.
    let transcript =
        Memo::new(move |_| shown(|v| v.lines.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join("\n")));
    let notes = Memo::new(move |_| {
        shown(|v| {
            let mut m = Markup::new();
            for n in &v.notes {
                m.tag("li").text(n);
            }
            m.into_string()
        })
    });
    let on_pick = move |ev| {
        if let Some(view) = View::from_code(&event_target_value(&ev)) {
            app.tech_view.set(view);
        }
    };
    // The views as markup, the one shown selected (rewritten when it or the language changes).
    let options = move || {
        let lang = app.lang.get();
        let now = app.tech_view.get();
        let mut out = Markup::new();
        for v in View::ALL {
            out.option(v.code(), v.label().text(lang), v == now);
        }
        out.into_string()
    };
    view! {
        <section class="techview" data-testid="technical-view">
            <header>
                <h2>{tr(app, Ui::TechViewTitle)}</h2>
                <label class="tech-picker" title=tr(app, Ui::TechViewPickerHint)>
                    <span>{tr(app, Ui::TechViewPicker)}</span>
                    <select data-testid="technical-view-picker" on:change=on_pick inner_html=options></select>
                </label>
            </header>
            // Scrollable, so it takes the focus: the keyboard scrolls it too.
            <pre class="terminal" translate="no" tabindex="0" aria-label=tr(app, Ui::TechViewTitle)>{transcript}</pre>
            <ul class="tech-notes" inner_html=notes></ul>
        </section>
    }
}

#[component]
fn ResourceTable(app: AppState) -> impl IntoView {
    let body = Memo::new(move |_| {
        let lang = app.lang.get();
        // Every resource's mark, by name when the run names them (`db 8 · blobs 7`); the counts
        // are of all of them.
        let (high_water, accepted, refused) = app.snapshot.with(|s| {
            let (mut marks, mut accepted, mut refused) =
                (s.resource.high_water.to_string(), s.resource.accepted, s.resource.rejected);
            if s.resource.name.is_some() {
                marks = crate::story::picture::marks_text(&crate::story::picture::named_marks(s));
                for r in &s.more_resources {
                    accepted += r.accepted;
                    refused += r.rejected;
                }
            }
            (marks, accepted, refused)
        });
        app.cast.with(|cast| {
            app.ledger.with(|l| {
                let mut html = Markup::new();
                let stat = |html: &mut Markup, class: &'static str, label: Ui, testid: &'static str, value: &str| {
                    html.tag("div").lit("class", class).open();
                    html.tag("dt").text(label.text(lang));
                    html.tag("dd").lit("data-testid", testid).text(value);
                    html.end("div");
                };
                html.tag("dl").lit("class", "res-stats").open();
                stat(&mut html, "stat mark", Ui::ResHighWater, "resource-table-high-water", &high_water);
                stat(&mut html, "stat", Ui::ResAccepted, "resource-table-accepted", &accepted.to_string());
                stat(&mut html, "stat", Ui::ResRefused, "resource-table-refused", &refused.to_string());
                html.end("dl");
                html.tag("h3").text(Ui::ResLastWrites.text(lang));
                if l.writes.is_empty() {
                    html.tag("p").lit("class", "res-empty").text(Ui::ResNoWrites.text(lang));
                } else {
                    html.tag("div")
                        .lit("class", "res-scroll")
                        .lit("tabindex", "0")
                        .lit("role", "region")
                        .attr("aria-label", Ui::ResLastWrites.text(lang))
                        .open();
                    html.push_raw(r#"<table class="res-writes"><thead><tr>"#);
                    for (label, class) in [
                        (Ui::ResColOp, None),
                        (Ui::ResColFrom, None),
                        (Ui::ResColToken, Some("num")),
                        (Ui::ResColOutcome, None),
                        (Ui::ResColMark, Some("num")),
                    ] {
                        html.tag("th").attr_opt("class", class).text(label.text(lang));
                    }
                    html.push_raw("</tr></thead><tbody>");
                    for w in l.writes.iter().rev() {
                        write_row(&mut html, w, cast, lang);
                    }
                    html.push_raw("</tbody></table></div>");
                }
                html.into_string()
            })
        })
    });
    view! {
        <section class="resource-box" data-testid="resource-table">
            <h2>{tr(app, Ui::ResourceTitle)}</h2>
            <div inner_html=body></div>
        </section>
    }
}

/// One judged write as a table row; its sender as the fable's systems name it.
fn write_row(html: &mut Markup, w: &JudgedWrite, cast: &Cast, lang: Lang) {
    let from = match w.from.as_deref() {
        Some(id) => cast.handle(id),
        None => cast.fable().word(crate::fables::Word::Outsider, lang).to_owned(),
    };
    html.tag("tr")
        .lit("class", "res-write")
        .lit("data-testid", "resource-write")
        .lit("data-outcome", w.outcome_code())
        .open();
    html.tag("td").lit("class", "op").text(&cast.op_handle(&w.op_id));
    html.tag("td").text(&from);
    html.tag("td").lit("class", "num").text(&w.token);
    html.tag("td").lit("class", "outcome").text(w.outcome_label().text(lang));
    html.tag("td").lit("class", "num").text(&w.mark_change());
    html.end("tr");
}
