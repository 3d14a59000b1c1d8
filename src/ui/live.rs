//! Numbers in the prose (issue 30, `scenario::live`): a lesson step's narration whose bound
//! numbers the reader types or drags, and whose outcome numbers are the engine's, computed by
//! playing the step's scenario to its end with the knobs set so, at every change. The scene
//! itself stays the lesson's run: the sentence is a question asked beside it.

use std::sync::Arc;

use leptos::either::Either;
use leptos::prelude::*;

use crate::scenario::live::{self, Bound, Figure, Piece};
use crate::scenario::Localized;
use crate::story::fill;
use crate::story::i18n::Later;

use super::state::AppState;

/// A step's narration with live numbers: each paragraph's text, its bound numbers as inputs
/// (typed, or dragged on the slider beside them), and its outcome numbers as `<output>`s. `scenario` is the built-in the numbers are a run of (the step's); while the
/// page shows another, the outcome numbers wait ("…").
#[component]
pub fn LiveNarration(app: AppState, text: Localized, bounds: Vec<Bound>, scenario: String) -> impl IntoView {
    let bounds = Arc::new(bounds);
    let values = RwSignal::new(bounds.iter().map(|b| b.value).collect::<Vec<u64>>());
    // Every outcome number of the run with these values (in `Figure::ALL`'s order), or `None`
    // while another scenario is on screen or the engine refuses the setting.
    let figures = {
        let bounds = bounds.clone();
        Memo::new(move |_| {
            let set = values.get();
            app.scenario.with(|s| {
                if s.id != scenario {
                    return None;
                }
                let report = live::report(s, &bounds, &set).ok()?;
                Some(Figure::ALL.map(|f| f.of(&report)))
            })
        })
    };
    let paragraphs = move || {
        let lang = app.lang.get();
        let said = crate::story::tour::pick(&text, lang).to_owned();
        said.split('\n')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|paragraph| {
                // Checked when the lesson was read: a paragraph that does not parse is shown as
                // it is written.
                let pieces = live::pieces(paragraph, &bounds).unwrap_or_else(|_| vec![Piece::Text(paragraph.into())]);
                // Each piece one of three: text, a bound number, or an outcome number.
                let drawn = pieces
                    .into_iter()
                    .map(|piece| match piece {
                        Piece::Text(t) => Either::Left(t),
                        Piece::Bound(k) => {
                            Either::Right(Either::Left(view! { <BoundNumber app bound=bounds[k].clone() k values /> }))
                        }
                        Piece::Figure(f) => {
                            let at = Figure::ALL.iter().position(|x| *x == f).unwrap_or(0);
                            let shown =
                                move || figures.with(|v| v.as_ref().map_or_else(|| "…".to_owned(), |v| v[at].clone()));
                            Either::Right(Either::Right(
                                view! { <output class="live-figure" data-figure=f.code()>{shown}</output> },
                            ))
                        }
                    })
                    .collect_view();
                view! { <p class="live-text">{drawn}</p> }
            })
            .collect_view()
    };
    view! { <div class="live" data-testid="live">{paragraphs}</div> }
}

/// A bound number in the text: a number input in the unit shown (seconds, or ppm), to type, and a
/// slider beside it, to drag (both step it with the arrow keys).
#[component]
fn BoundNumber(app: AppState, bound: Bound, k: usize, values: RwSignal<Vec<u64>>) -> impl IntoView {
    let bound = Arc::new(bound);
    let set = move |v: u64| {
        if values.with_untracked(|vs| vs.get(k) != Some(&v)) {
            values.update(|vs| {
                if let Some(slot) = vs.get_mut(k) {
                    *slot = v;
                }
            });
        }
    };
    let shown = {
        let bound = bound.clone();
        move || values.with(|vs| vs.get(k).map(|v| bound.shown(*v)).unwrap_or_default())
    };
    // While typing, a number takes effect once it is one of the bound's own (in range, on a
    // step): the field is not rewritten under the reader's fingers. Leaving it (or Enter)
    // snaps what was typed to the nearest such number.
    let typing = {
        let bound = bound.clone();
        move |ev: leptos::ev::Event| {
            let typed = event_target_value(&ev);
            if let Some(v) = bound.read(&typed) {
                if bound.shown(v) == typed.trim() {
                    set(v);
                }
            }
        }
    };
    let done = {
        let bound = bound.clone();
        move |ev: leptos::ev::Event| {
            let typed = event_target_value(&ev);
            let v = bound
                .read(&typed)
                .unwrap_or_else(|| values.with_untracked(|vs| vs.get(k).copied().unwrap_or(bound.value)));
            set(v);
            // The same value again would not redraw the field: write it back as shown.
            if let Some(input) =
                ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok())
            {
                input.set_value(&bound.shown(v));
            }
        }
    };
    // Dragged: the slider beside the number steps it as the pointer moves.
    let slid = {
        let bound = bound.clone();
        move |ev: leptos::ev::Event| {
            if let Some(v) = event_target_value(&ev).parse::<u64>().ok().map(|v| bound.snap(v as f64)) {
                set(v);
            }
        }
    };
    let raw = move || values.with(|vs| vs.get(k).copied().unwrap_or_default().to_string());
    let label = bound.label.clone();
    let label = move || crate::story::tour::pick(&label, app.lang.get()).to_owned();
    let label2 = label.clone();
    // Its range, said where a pointer rests on it (a number typed outside it is held to it).
    let range = {
        let bound = bound.clone();
        move || {
            let (min, max, step) = (bound.shown(bound.min), bound.shown(bound.max), bound.shown(bound.step));
            fill(Later::LiveRange.text(app.lang.get()), &[("min", &min), ("max", &max), ("step", &step)])
        }
    };
    view! {
        <span class="live-bound">
            <input
                type="number"
                class="live-number"
                data-testid=format!("live-{}", bound.name)
                min=bound.shown(bound.min)
                max=bound.shown(bound.max)
                step=bound.shown(bound.step)
                prop:value=shown
                aria-label=label
                title=range
                on:input=typing
                on:change=done
            />
            <input
                type="range"
                class="live-slider"
                data-testid=format!("live-slider-{}", bound.name)
                min=bound.min.to_string()
                max=bound.max.to_string()
                step=bound.step.to_string()
                prop:value=raw
                aria-label=label2
                on:input=slid
            />
        </span>
    }
}
