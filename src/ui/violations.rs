//! The violations panel: every violation the oracle reported in this run, newest first, each in
//! one sentence in the current language. Pointing at a row or focusing it with the keyboard
//! lights up, through [`AppState::highlight`], the writer's card and flag-bearer and the
//! flag-verifier and boat in the scene.

use leptos::prelude::*;

use crate::story::fill;
use crate::story::i18n::Later;
use crate::story::violations::{highlight, sentence, Highlight};

use super::state::AppState;
use super::tr;

/// One violation as its row shows it.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Row {
    /// Its place in the ledger (what it lights up is looked up there).
    index: usize,
    kind: &'static str,
    at_ms: u64,
    sentence: String,
}

/// The violations panel: a row per violation, newest first, each lighting up what it involves
/// while pointed at or focused; a line when there is none yet, a note on a token two holders
/// shared, and how many earlier ones are no longer listed.
#[component]
pub fn Violations(app: AppState) -> impl IntoView {
    let rows = Memo::new(move |_| {
        let lang = app.lang.get();
        app.cast.with(|cast| {
            app.ledger.with(|l| {
                l.violations_newest_first()
                    .into_iter()
                    .map(|(index, f)| Row {
                        index,
                        kind: f.violation.kind(),
                        at_ms: f.at_ms,
                        sentence: sentence(&f.violation, f.at_ms, cast, lang),
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    // What the row under the pointer or the focus involves is lit up; anywhere else in the list,
    // nothing, and nothing once the pointer and the focus have left it.
    let light = move |lit: Option<Highlight>| {
        if app.highlight.with_untracked(|h| *h != lit) {
            app.highlight.set(lit);
        }
    };
    let dark = move || light(None);
    // The ledger changes with every frame of a playing run: what is drawn from it is read through
    // memos, so the list's rows are drawn again only when what they show changes.
    let none = Memo::new(move |_| app.ledger.with(|l| l.violations_total == 0));
    let empty = move || {
        none.get().then(|| {
            let empty = move || if app.finished.get() { Later::NoViolationsInRun } else { Later::NoViolations };
            view! {
                <li class="no-violations" data-testid="violations-empty" on:mouseover=move |_| dark()>
                    {move || empty().text(app.lang.get())}
                </li>
            }
        })
    };
    // Why a run of two holders may show no violation (the Redis fail-over).
    let shared_note = Memo::new(move |_| {
        let lang = app.lang.get();
        app.ledger.with(|l| {
            let shared = l.shared_token.as_ref()?;
            Some(app.cast.with(|cast| {
                fill(
                    Later::SharedTokenNote.text(lang),
                    &[
                        ("a", &cast.name(&shared.first, lang)),
                        ("b", &cast.name(&shared.second, lang)),
                        ("token", &shared.token.to_string()),
                        ("s", &super::seconds(shared.at_ms)),
                    ],
                )
            }))
        })
    });
    let shared = move || {
        let note = shared_note.get()?;
        Some(view! {
            <li class="violations-note" data-testid="shared-token-note" on:mouseover=move |_| dark()>
                {note}
            </li>
        })
    };
    let dropped = Memo::new(move |_| app.ledger.with(|l| l.violations_dropped()));
    let earlier = move || {
        let dropped = dropped.get();
        (dropped > 0).then(|| {
            let earlier = fill(Later::ViolationsEarlier.text(app.lang.get()), &[("n", &dropped.to_string())]);
            view! {
                <li class="violations-earlier" on:mouseover=move |_| dark()>
                    {earlier}
                </li>
            }
        })
    };
    let row = move |r: Row| {
        let lit = move || app.ledger.with_untracked(|l| l.violations.get(r.index).map(|f| highlight(&f.violation)));
        view! {
            <li
                class="violation"
                data-testid="violation"
                data-kind=r.kind
                data-ms=r.at_ms
                tabindex="0"
                on:mouseover=move |_| light(lit())
                on:focusin=move |_| light(lit())
            >
                {r.sentence}
            </li>
        }
    };
    let pointed =
        move || app.pointed.with(|p| p.contains(&crate::scenario::lesson::Element::Violations)).then_some("true");
    view! {
        <section
            class="violations"
            data-testid="violations-panel"
            data-highlight=pointed
            data-none=move || none.get().then_some("true")
        >
            <header>
                <h2>{tr(app, Later::ViolationsTitle)}</h2>
                <span class="hint">{super::tw(app, crate::fables::Word::ViolationsHint)}</span>
            </header>
            <ol
                class="violation-list"
                aria-live="polite"
                on:mouseover=move |ev| {
                    if ev.target() == ev.current_target() {
                        dark()
                    }
                }
                on:mouseleave=move |_| dark()
                on:focusout=move |_| dark()
            >
                <For each=move || rows.get() key=|r| r.clone() children=row />
                {empty}
                {shared}
                {earlier}
            </ol>
        </section>
    }
}
