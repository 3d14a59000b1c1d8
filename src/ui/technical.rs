//! The technical view (the lease as `kubectl`, `redis-cli` or `etcdctl` prints it, with a
//! picker) and the resource table (high-water mark, counts, the last writes judged). Both draw
//! what [`crate::story::technical`] derives; nothing here reads the engine.
//!
//! Nobody reads the technical tab before opening it, so its code (the three transcripts, the
//! table) is fetched as a chunk of its own the first time the tab is shown
//! ([`technical_panel`]), and the panel is built then: until that moment no snapshot is turned
//! into a transcript.

use leptos::either::Either;
use leptos::prelude::*;

use crate::story::i18n::Later;
use crate::story::technical::{technical_view_as, JudgedWrite, View};
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
    in later_parts;
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

/// The lease as the chosen system prints it: a picker of the system (`kubectl`, `redis-cli`,
/// `etcdctl`), the transcript as a terminal shows it, and notes on what it shows.
#[component]
fn TechnicalView(app: AppState) -> impl IntoView {
    // Recomputed with the snapshot: the memos' equality checks keep the page still unless the
    // text changes (a remaining TTL ticking down changes only the transcript).
    let shown = Memo::new(move |_| {
        let lang = app.lang.get();
        let view = app.tech_view.get();
        // The holder as the fable's systems print it (under the lantern, its townsperson's handle).
        app.cast.with(|cast| {
            app.snapshot.with(|snap| technical_view_as(view, snap, &snap.lease.lock_name, lang, &|h| cast.handle(h)))
        })
    });
    // One text node for the whole transcript: a line per command or answer, as a terminal shows it.
    let transcript =
        Memo::new(move |_| shown.with(|v| v.lines.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join("\n")));
    let notes = Memo::new(move |_| shown.with(|v| v.notes.clone()));
    let on_pick = move |ev| {
        if let Some(view) = View::from_code(&event_target_value(&ev)) {
            app.tech_view.set(view);
        }
    };
    let options = View::ALL
        .into_iter()
        .map(|v| {
            view! {
                <option value=v.code() selected=move || app.tech_view.get() == v>
                    {tr(app, v.label())}
                </option>
            }
        })
        .collect_view();
    view! {
        <section class="techview" data-testid="technical-view">
            <header>
                <h2>{tr(app, Later::TechViewTitle)}</h2>
                <label class="tech-picker" title=tr(app, Later::TechViewPickerHint)>
                    <span>{tr(app, Later::TechViewPicker)}</span>
                    <select
                        data-testid="technical-view-picker"
                        on:change=on_pick
                        prop:value=move || app.tech_view.get().code()
                    >
                        {options}
                    </select>
                </label>
            </header>
            // Scrollable, so it takes the focus: the keyboard scrolls it too.
            <pre class="terminal" translate="no" tabindex="0" aria-label=tr(app, Later::TechViewTitle)>{transcript}</pre>
            <ul class="tech-notes">
                {move || notes.get().into_iter().map(|note| view! { <li>{note}</li> }).collect_view()}
            </ul>
        </section>
    }
}

/// One judged write as the table shows it.
#[derive(Clone, PartialEq, Eq, Hash)]
struct WriteRow {
    /// Which write it is: its ledger's generation and its place in the trace.
    at: (u32, u64),
    op: String,
    from: String,
    token: String,
    outcome_code: &'static str,
    outcome: &'static str,
    mark: String,
}

/// One judged write as a table row; its sender as the fable's systems name it.
fn write_row(w: &JudgedWrite, cast: &Cast, lang: Lang) -> WriteRow {
    let from = match w.from.as_deref() {
        Some(id) => cast.handle(id),
        None => cast.fable().word(crate::fables::Word::Outsider, lang).to_owned(),
    };
    WriteRow {
        at: (w.generation, w.seq),
        op: cast.op_handle(&w.op_id),
        from,
        token: w.token.clone(),
        outcome_code: w.outcome_code(),
        outcome: w.outcome_label().text(lang),
        mark: w.mark_change(),
    }
}

/// The resource's table: its high-water mark, how many writes it accepted and refused, and the
/// last writes it judged, newest first.
#[component]
fn ResourceTable(app: AppState) -> impl IntoView {
    // Every resource's mark, by name when the run names them (`db 8 · blobs 7`); the counts are
    // of all of them.
    let stats = Memo::new(move |_| {
        app.snapshot.with(|s| {
            let (mut marks, mut accepted, mut refused) =
                (s.resource.high_water.to_string(), s.resource.accepted, s.resource.rejected);
            if s.resource.name.is_some() {
                marks = crate::story::picture::marks_text(&crate::story::picture::named_marks(s));
                for r in &s.more_resources {
                    accepted += r.accepted;
                    refused += r.rejected;
                }
            }
            (marks, accepted.to_string(), refused.to_string())
        })
    });
    let writes = Memo::new(move |_| {
        let lang = app.lang.get();
        app.cast.with(|cast| {
            app.ledger.with(|l| l.writes.iter().rev().map(|w| write_row(w, cast, lang)).collect::<Vec<_>>())
        })
    });
    let none = Memo::new(move |_| writes.with(Vec::is_empty));
    // A row stays while its write and its words do; a new write is a row of its own.
    let row = |w: WriteRow| {
        view! {
            <tr class="res-write" data-testid="resource-write" data-outcome=w.outcome_code>
                <td class="op">{w.op}</td>
                <td>{w.from}</td>
                <td class="num">{w.token}</td>
                <td class="outcome">{w.outcome}</td>
                <td class="num">{w.mark}</td>
            </tr>
        }
    };
    let last_writes = move || {
        if none.get() {
            return Either::Left(view! { <p class="res-empty">{tr(app, Later::ResNoWrites)}</p> });
        }
        Either::Right(view! {
            <div class="res-scroll" tabindex="0" role="region" aria-label=tr(app, Later::ResLastWrites)>
                <table class="res-writes">
                    <thead>
                        <tr>
                            <th>{tr(app, Later::ResColOp)}</th>
                            <th>{tr(app, Later::ResColFrom)}</th>
                            <th class="num">{tr(app, Later::ResColToken)}</th>
                            <th>{tr(app, Later::ResColOutcome)}</th>
                            <th class="num">{tr(app, Later::ResColMark)}</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For each=move || writes.get() key=|w| w.clone() children=row />
                    </tbody>
                </table>
            </div>
        })
    };
    view! {
        <section class="resource-box" data-testid="resource-table">
            <h2>{tr(app, Later::ResourceTitle)}</h2>
            <div>
                <dl class="res-stats">
                    <div class="stat mark">
                        <dt>{tr(app, Later::ResHighWater)}</dt>
                        <dd data-testid="resource-table-high-water">{move || stats.with(|s| s.0.clone())}</dd>
                    </div>
                    <div class="stat">
                        <dt>{tr(app, Later::ResAccepted)}</dt>
                        <dd data-testid="resource-table-accepted">{move || stats.with(|s| s.1.clone())}</dd>
                    </div>
                    <div class="stat">
                        <dt>{tr(app, Later::ResRefused)}</dt>
                        <dd data-testid="resource-table-refused">{move || stats.with(|s| s.2.clone())}</dd>
                    </div>
                </dl>
                <h3>{tr(app, Later::ResLastWrites)}</h3>
                {last_writes}
            </div>
        </section>
    }
}
