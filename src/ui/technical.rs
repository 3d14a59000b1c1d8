//! The technical view (the lease as `kubectl`, `redis-cli` or `etcdctl` prints it, with a
//! picker) and the resource table (high-water mark, counts, the last writes judged). Both draw
//! what [`crate::story::technical`] derives; nothing here reads the engine.
//!
//! Display-only parts are built as escaped markup in one memo each: a typed view per row and
//! per value cost several KB of the page's wasm budget and bought no behaviour. The memos'
//! equality checks keep the DOM still unless the text changes.

use leptos::prelude::*;

use crate::story::i18n::Ui;
use crate::story::technical::{escape_html as escape, technical_view, JudgedWrite, TechView, View};
use crate::story::Lang;

use super::state::AppState;
use super::tr;

#[component]
pub fn TechnicalView(app: AppState) -> impl IntoView {
    // Two strings, each recomputed with the snapshot: the memos' equality checks keep the DOM
    // still unless the text changes (a remaining TTL ticking down changes only the transcript).
    let shown = move |f: fn(&TechView) -> String| {
        let lang = app.lang.get();
        let view = app.tech_view.get();
        app.snapshot.with(|snap| f(&technical_view(view, snap, &snap.lease.lock_name, lang)))
    };
    // One text node for the whole transcript: a line per command or answer, as a terminal shows it.
    let transcript =
        Memo::new(move |_| shown(|v| v.lines.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join("\n")));
    let notes = Memo::new(move |_| shown(|v| v.notes.iter().map(|n| format!("<li>{}</li>", escape(n))).collect()));
    let on_pick = move |ev| {
        if let Some(view) = View::from_code(&event_target_value(&ev)) {
            app.tech_view.set(view);
        }
    };
    // Only the picker changes the view after the start, so each option's `selected` is set once.
    let first = app.tech_view.get_untracked();
    let options = View::ALL
        .into_iter()
        .map(|v| view! { <option value=v.code() selected={v == first}>{tr(app, v.label())}</option> })
        .collect::<Vec<_>>();
    view! {
        <section class="techview" data-testid="technical-view">
            <header>
                <h2>{tr(app, Ui::TechViewTitle)}</h2>
                <label class="tech-picker" title=tr(app, Ui::TechViewPickerHint)>
                    <span>{tr(app, Ui::TechViewPicker)}</span>
                    <select data-testid="technical-view-picker" on:change=on_pick>
                        {options}
                    </select>
                </label>
            </header>
            // Scrollable, so it takes the focus: the keyboard scrolls it too.
            <pre class="terminal" translate="no" tabindex="0" aria-label=tr(app, Ui::TechViewTitle)>{transcript}</pre>
            <ul class="tech-notes" inner_html=notes></ul>
        </section>
    }
}

#[component]
pub fn ResourceTable(app: AppState) -> impl IntoView {
    let body = Memo::new(move |_| {
        let lang = app.lang.get();
        let (high_water, accepted, refused) =
            app.snapshot.with(|s| (s.resource.high_water, s.resource.accepted, s.resource.rejected));
        app.ledger.with(|l| {
            let t = |ui: Ui| escape(ui.text(lang));
            let stat = |class: &str, label: Ui, testid: &str, value: u64| {
                format!("<div class=\"stat{class}\"><dt>{}</dt><dd data-testid=\"{testid}\">{value}</dd></div>", t(label))
            };
            let mut html = format!(
                "<dl class=\"res-stats\">{}{}{}</dl><h3>{}</h3>",
                stat(" mark", Ui::ResHighWater, "resource-table-high-water", high_water),
                stat("", Ui::ResAccepted, "resource-table-accepted", accepted),
                stat("", Ui::ResRefused, "resource-table-refused", refused),
                t(Ui::ResLastWrites),
            );
            if l.writes.is_empty() {
                html.push_str(&format!("<p class=\"res-empty\">{}</p>", t(Ui::ResNoWrites)));
            } else {
                html.push_str(&format!(
                    "<div class=\"res-scroll\" tabindex=\"0\" role=\"region\" aria-label=\"{}\"><table class=\"res-writes\"><thead><tr><th>{}</th><th>{}</th>\
                     <th class=\"num\">{}</th><th>{}</th><th class=\"num\">{}</th></tr></thead><tbody>",
                    t(Ui::ResLastWrites),
                    t(Ui::ResColOp),
                    t(Ui::ResColFrom),
                    t(Ui::ResColToken),
                    t(Ui::ResColOutcome),
                    t(Ui::ResColMark),
                ));
                for w in l.writes.iter().rev() {
                    html.push_str(&write_row(w, lang));
                }
                html.push_str("</tbody></table></div>");
            }
            html
        })
    });
    view! {
        <section class="resource-box" data-testid="resource-table">
            <h2>{tr(app, Ui::ResourceTitle)}</h2>
            <div inner_html=body></div>
        </section>
    }
}

/// One judged write as a table row (escaped markup).
fn write_row(w: &JudgedWrite, lang: Lang) -> String {
    let from = w.from.as_deref().unwrap_or(Ui::Outside.text(lang));
    format!(
        "<tr class=\"res-write\" data-testid=\"resource-write\" data-outcome=\"{}\"><td class=\"op\">{}</td>\
         <td>{}</td><td class=\"num\">{}</td><td class=\"outcome\">{}</td><td class=\"num\">{}</td></tr>",
        w.outcome_code(),
        escape(&w.op_id),
        escape(from),
        escape(&w.token),
        escape(w.outcome_label().text(lang)),
        w.mark_change(),
    )
}
