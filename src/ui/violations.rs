//! The violations panel: every violation the oracle reported in this run, newest first, each in
//! one sentence in the current language. Pointing at a row or focusing it with the keyboard
//! lights up, through [`AppState::highlight`], the writer's card and flag-bearer and the
//! flag-verifier and boat in the scene.
//!
//! The rows are plain markup built from the story layer's sentences ([`Markup`], escaped), and one set of
//! delegated handlers on the list serves them all: a typed view per row cost several KB of the
//! page's wasm budget for no behaviour the markup lacks.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::story::fill;
use crate::story::i18n::Ui;
use crate::story::markup::Markup;
use crate::story::violations::{highlight, sentence};

use super::state::AppState;
use super::tr;

/// The ledger index of the violation row an event happened in, if any.
fn row_index(ev: &web_sys::Event) -> Option<usize> {
    let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let row = target.closest("[data-testid=violation]").ok()??;
    row.get_attribute("data-index")?.parse().ok()
}

#[component]
pub fn Violations(app: AppState) -> impl IntoView {
    // `data-index` is the row's place in the ledger, for the handlers below.
    let rows = Memo::new(move |_| {
        let lang = app.lang.get();
        app.cast.with(|cast| {
            app.ledger.with(|l| {
                let mut html = Markup::new();
                for (i, f) in l.violations_newest_first() {
                    html.tag("li")
                        .lit("class", "violation")
                        .lit("data-testid", "violation")
                        .lit("data-kind", f.violation.kind())
                        .int("data-ms", f.at_ms)
                        .int("data-index", i as u64)
                        .lit("tabindex", "0")
                        .text(&sentence(&f.violation, f.at_ms, cast, lang));
                }
                if l.violations_total == 0 {
                    let empty = if app.finished.get() { Ui::NoViolationsInRun } else { Ui::NoViolations };
                    html.tag("li")
                        .lit("class", "no-violations")
                        .lit("data-testid", "violations-empty")
                        .text(empty.text(lang));
                }
                // Why a run of two holders may show no violation (the Redis fail-over).
                if let Some(shared) = &l.shared_token {
                    let note = fill(
                        Ui::SharedTokenNote.text(lang),
                        &[
                            ("a", &cast.name(&shared.first, lang)),
                            ("b", &cast.name(&shared.second, lang)),
                            ("token", &shared.token.to_string()),
                            ("s", &super::seconds(shared.at_ms)),
                        ],
                    );
                    html.tag("li").lit("class", "violations-note").lit("data-testid", "shared-token-note").text(&note);
                }
                let dropped = l.violations_dropped();
                if dropped > 0 {
                    let earlier = fill(Ui::ViolationsEarlier.text(lang), &[("n", &dropped.to_string())]);
                    html.tag("li").lit("class", "violations-earlier").text(&earlier);
                }
                html.into_string()
            })
        })
    });
    let light = move |ev: &web_sys::Event| {
        let lit = row_index(ev)
            .and_then(|i| app.ledger.with_untracked(|l| l.violations.get(i).map(|f| highlight(&f.violation))));
        if app.highlight.with_untracked(|h| *h != lit) {
            app.highlight.set(lit);
        }
    };
    let dark = move || app.highlight.set(None);
    view! {
        <section class="violations" data-testid="violations-panel" data-highlight=move || app.pointed.with(|p| p.contains(&crate::scenario::lesson::Element::Violations)).then_some("true")>
            <header>
                <h2>{tr(app, Ui::ViolationsTitle)}</h2>
                <span class="hint">{super::tw(app, crate::fables::Word::ViolationsHint)}</span>
            </header>
            <ol
                class="violation-list"
                aria-live="polite"
                inner_html=rows
                on:mouseover=move |ev| light(&ev)
                on:focusin=move |ev| light(&ev)
                on:mouseleave=move |_| dark()
                on:focusout=move |_| dark()
            ></ol>
        </section>
    }
}
