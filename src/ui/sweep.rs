//! Sweeps in the page (issue 30): the Ask tab's second question, "how do the knobs trade safety
//! against availability?". The learner picks a knob and its range; the search worker plays the
//! scenario at [`POINTS`] settings with [`SEEDS`] seeds each, fencing on and off
//! (`engine::sweep`, exactly what `leaselab sweep` prints), and the page draws the plot as the
//! points come (`draw::plot`). A point is a button: it opens one seeded run of its class in the
//! player, as the scenario's file with the knob, the seed and fencing set (`knobs` in the
//! scenario format), so its share link replays that very run.

use std::cell::RefCell;

use leptos::prelude::*;

use crate::actions::Action;
use crate::engine::sweep::{Example, Knob, Point, SweepSpec};
use crate::engine::{Sim, TraceEvent};
use crate::fables::Said;
use crate::scenario::Scenario;
use crate::story::fill;
use crate::story::i18n::Later;

use super::act::ActButton;
use super::state::AppState;
use super::tr;

/// Settings per sweep.
pub const POINTS: u32 = 20;
/// Seeds per setting (each played with fencing and without).
pub const SEEDS: u32 = 50;

/// Where a sweep stands.
#[derive(Clone, Debug, PartialEq)]
enum State {
    Idle,
    Running,
    Done,
    Stopped,
    Failed(String),
}

/// The sweep panel's state, and the sweep on show.
#[derive(Clone, Copy)]
struct Sweeping {
    knob: RwSignal<Knob>,
    /// The range, from and to, in the knob's own unit (ms or ppm).
    range: RwSignal<(u64, u64)>,
    state: RwSignal<State>,
    spec: RwSignal<Option<SweepSpec>>,
    points: RwSignal<Vec<Point>>,
    /// The end of the range (0 from, 1 to) last typed as something that is not a number.
    unread: RwSignal<Option<usize>>,
    /// The scenario swept and its file: a point's run is this file with the point's knob, seed
    /// and fencing set.
    swept: StoredValue<Option<(Scenario, serde_json::Value)>, LocalStorage>,
}

thread_local! {
    static SWEEPING: RefCell<Option<Sweeping>> = const { RefCell::new(None) };
}

fn sweeping() -> Sweeping {
    SWEEPING.with(|s| {
        *s.borrow_mut().get_or_insert_with(|| {
            let (from, to) = range(Knob::LeaseDurationMs);
            Sweeping {
                knob: RwSignal::new(Knob::LeaseDurationMs),
                range: RwSignal::new((from, to)),
                state: RwSignal::new(State::Idle),
                spec: RwSignal::new(None),
                points: RwSignal::new(Vec::new()),
                unread: RwSignal::new(None),
                swept: StoredValue::new_local(None),
            }
        })
    })
}

/// A knob's range to start from: the lease sweep (5 to 60 s), pauses from 1 to 40 s,
/// clocks from half to one and a half times true speed, a network from 20 ms to 2 s.
fn range(knob: Knob) -> (u64, u64) {
    match knob {
        Knob::LeaseDurationMs => (5_000, 60_000),
        Knob::PauseMs => (1_000, 40_000),
        Knob::ClockRatePpm => (500_000, 1_500_000),
        Knob::NetworkDelayMs => (20, 2_000),
    }
}

/// Whether a sweep is under way (the worker does one job at a time).
pub(super) fn running() -> bool {
    SWEEPING.with(|s| s.borrow().as_ref().is_some_and(|s| s.state.get_untracked() == State::Running))
}

/// Carries out a sweep action (`ui::act::perform_later`).
pub(crate) fn act(app: AppState, action: Action) {
    let s = sweeping();
    match action {
        Action::Sweep => start(app, s),
        Action::OpenSwept(k, class) => open(app, s, k, class),
        _ => {}
    }
}

/// Starts a sweep of the scenario on screen.
fn start(app: AppState, s: Sweeping) {
    if running() {
        return;
    }
    // An end just refused (typed wrong, then Sweep pressed, which left the field): the refusal
    // stays on screen and nothing is swept; Sweep again plays the range the fields show.
    if s.unread.get_untracked().is_some() {
        s.unread.set(None);
        return;
    }
    if super::ask::searching() {
        s.state.set(State::Failed(Later::SweepSearchBusy.text(app.lang.get_untracked()).to_owned()));
        return;
    }
    let spec = SweepSpec {
        knob: s.knob.get_untracked(),
        from: s.range.get_untracked().0,
        to: s.range.get_untracked().1,
        points: POINTS,
        seeds: SEEDS,
    };
    // The range in the learner's own words and units (the engine's check names ms).
    if spec.to <= spec.from {
        s.state.set(State::Failed(Later::SweepRangeBackwards.text(app.lang.get_untracked()).to_owned()));
        return;
    }
    // Settings are whole ms (or ppm): a range narrower than the points would repeat settings.
    if spec.to - spec.from < u64::from(POINTS - 1) {
        let said = fill(Later::SweepTooNarrow.text(app.lang.get_untracked()), &[("n", &POINTS.to_string())]);
        s.state.set(State::Failed(said));
        return;
    }
    if let Err(e) = spec.check() {
        s.state.set(State::Failed(format!("{}: {}", e.path, e.message)));
        return;
    }
    let scenario = app.scenario.get_untracked();
    // An end the engine would refuse (a lease of days, a clock at a hundred times true speed):
    // said here, in the learner's words, rather than by the worker in the engine's.
    let accepts = |v: u64| spec.knob.apply(&scenario.config, v).is_ok();
    if let Some(value) = [spec.from, spec.to].into_iter().find(|v| !accepts(*v)) {
        let l = app.lang.get_untracked();
        let knob = crate::draw::plot::knob_words(spec.knob).text(l);
        let shown = |v: u64| crate::scenario::live::shown(spec.knob, v);
        // The nearest setting it takes, looked for from one it takes: the range's other end, or
        // the knob's usual range.
        let (usual_from, usual_to) = range(spec.knob);
        let nearest = [spec.from, spec.to, usual_from, usual_to]
            .into_iter()
            .find(|v| accepts(*v))
            .and_then(|ok| spec.knob.nearest_accepted(&scenario.config, value, ok));
        let said = match nearest {
            Some(near) => fill(
                Later::SweepNotAcceptedNearest.text(l),
                &[("knob", knob), ("value", &shown(value)), ("near", &shown(near))],
            ),
            // Nothing to turn (a pause knob where nobody pauses).
            None => fill(Later::SweepNothingToTurn.text(l), &[("knob", knob)]),
        };
        s.state.set(State::Failed(said));
        return;
    }
    let source = app.source.get_untracked();
    // Sweep gives way to Stop: a focus on it goes there.
    let had_focus = leptos::prelude::document()
        .active_element()
        .is_some_and(|el| el.closest(".sweeping .sweep-run").ok().flatten().is_some());
    s.state.set(State::Running);
    if had_focus {
        super::focus::hand_to(&[".sweeping .sweep-stop"]);
    }
    s.spec.set(Some(spec));
    s.points.set(Vec::new());
    s.swept.set_value(None);
    wasm_bindgen_futures::spawn_local(async move {
        let file = match super::ask::scenario_file(&scenario.id, source).await {
            Ok(file) => file,
            Err(e) => return s.state.set(State::Failed(e)),
        };
        let request = serde_json::json!({
            "leaselab": 1, "type": "sweep", "scenario": file, "knob": spec.knob.code(),
            "from": spec.from, "to": spec.to, "points": spec.points, "seeds": spec.seeds,
        });
        s.swept.set_value(Some((scenario, file)));
        super::ask::post_request(&request.to_string(), true);
    });
}

/// A message from the worker about the sweep under way; whether it was one.
pub(super) fn heard(message: &serde_json::Value) -> bool {
    let Some(s) = SWEEPING.with(|s| *s.borrow()) else { return false };
    if s.state.get_untracked() != State::Running {
        return false;
    }
    // Read from the message in place (`&Value` is a deserializer of its own).
    let points = |v: &serde_json::Value| <Vec<Point> as serde::Deserialize>::deserialize(v).unwrap_or_default();
    // Stop goes when the sweep ends: a focus on it moves to Sweep, once drawn.
    let had_focus = leptos::prelude::document()
        .active_element()
        .is_some_and(|el| el.closest(".sweeping .sweep-stop").ok().flatten().is_some());
    match message["type"].as_str().unwrap_or_default() {
        "points" => {
            s.points.set(points(&message["points"]));
            return true;
        }
        "swept" => {
            s.points.set(points(&message["answer"]["points"]));
            s.state.set(State::Done);
        }
        "stopped" => s.state.set(State::Stopped),
        "failed" | "error" => s.state.set(State::Failed(message["message"].as_str().unwrap_or_default().to_owned())),
        _ => return false,
    }
    if had_focus {
        super::focus::hand_to(&[".sweeping .sweep-run"]);
    }
    true
}

/// Opens the run a point's button stands for: `class` 0 a run that broke safety with fencing, 1
/// without, 2 a safe run (fenced where the store issues tokens), 3 a safe run without fencing;
/// at the first violation's moment, or at 0 s for a safe one.
fn open(app: AppState, s: Sweeping, k: usize, class: usize) {
    let (Some(spec), Some((scenario, file))) = (s.spec.get_untracked(), s.swept.get_value()) else { return };
    let Some(point) = s.points.with_untracked(|p| p.get(k).cloned()) else { return };
    let example = match class {
        0..=2 => point.examples[class],
        // No run without fencing broke safety at this setting: the first seed's is safe.
        _ => (point.violating_unfenced == 0).then_some(Example { seed: scenario.config.seed, fencing: false }),
    };
    let Some(example) = example else { return };
    let mut file = file;
    file["seed"] = serde_json::json!(example.seed);
    if !file["knobs"].is_object() {
        file["knobs"] = serde_json::json!({});
    }
    file["knobs"][spec.knob.code()] = serde_json::json!(point.value);
    if !file["resource"].is_object() {
        file["resource"] = serde_json::json!({});
    }
    file["resource"]["fencing"] = serde_json::json!(example.fencing);
    let text = file.to_string();
    let run = match crate::scenario::parse(&text) {
        Ok(run) => run,
        Err(e) => return s.state.set(State::Failed(e.to_string())),
    };
    // The moment to stand at: the first violation, if the run has one.
    let at_ms = Sim::new(run.config.clone()).ok().and_then(|mut sim| {
        sim.run_to_end();
        sim.trace().iter().find(|e| matches!(e.event, TraceEvent::ViolationFound { .. })).map(|e| e.at_ms)
    });
    app.load_custom(run, text);
    app.seek(at_ms.unwrap_or(0));
    super::focus::hand_now(&[app.anchors.play, app.anchors.step_back]);
}

/// The sweep part of the Ask tab: the knob and its range, Sweep (Stop while it works), how far
/// it is, and the plot, whose points open runs.
#[component]
pub fn SweepPanel(app: AppState) -> impl IntoView {
    let s = sweeping();
    let lang = move || app.lang.get();
    let knobs = Knob::ALL
        .into_iter()
        .map(|k| {
            view! {
                <option value=k.code() selected=move || s.knob.get() == k>
                    {move || crate::draw::plot::knob_words(k).text(lang())}
                </option>
            }
        })
        .collect_view();
    // One end of the range: `end` 0 the start, 1 the end.
    let field = move |end: usize, testid: &'static str, words: Later| {
        let get = move |(from, to): (u64, u64)| if end == 0 { from } else { to };
        let shown = move || crate::scenario::live::shown(s.knob.get(), get(s.range.get()));
        view! {
            <label class="ask-field sweep-end">
                <span>{tr(app, words)}</span>
                <input
                    type="number"
                    step="any"
                    data-testid=testid
                    prop:value=shown
                    aria-invalid=move || (s.unread.get() == Some(end)).then_some("true")
                    on:change=move |ev| {
                        let l = app.lang.get_untracked();
                        let said = |text: Later| fill(text.text(l), &[("field", words.text(l))]);
                        match crate::scenario::live::read(s.knob.get_untracked(), &event_target_value(&ev)) {
                            Some(v) if v >= 0.0 => {
                                // Whole ms (or ppm): the engine's grain. Far beyond what any
                                // knob takes (a trillion ms, a million times true speed), a
                                // number is held there, to be refused with the nearest setting.
                                let v = v.min(1e12).round() as u64;
                                s.range.update(|r| if end == 0 { r.0 = v } else { r.1 = v });
                                if s.unread.get_untracked() == Some(end) {
                                    s.unread.set(None);
                                }
                                // What was said of the range before is of another range.
                                if matches!(s.state.get_untracked(), State::Failed(_)) {
                                    s.state.set(State::Idle);
                                }
                            }
                            // Not a number, nothing, or below zero: the field shows the setting
                            // again, and the status says why.
                            wrong => {
                                s.range.update(|_| {});
                                if s.state.get_untracked() != State::Running {
                                    let text = if wrong.is_some() { Later::SweepNegative } else { Later::SweepNotNumber };
                                    s.unread.set(Some(end));
                                    s.state.set(State::Failed(said(text)));
                                }
                            }
                        }
                    }
                />
            </label>
        }
    };
    let busy = move || s.state.get() == State::Running;
    let status = move || {
        let l = lang();
        let n = s.points.with(Vec::len);
        let runs: u64 = s.points.with(|p| p.iter().map(|p| u64::from(p.runs) * if p.fenced { 2 } else { 1 }).sum());
        match s.state.get() {
            State::Idle => String::new(),
            State::Running => fill(Later::SweepRunning.text(l), &[("k", &n.to_string()), ("n", &POINTS.to_string())]),
            State::Done => fill(
                Later::SweepDone.text(l),
                &[("n", &n.to_string()), ("seeds", &SEEDS.to_string()), ("runs", &runs.to_string())],
            ),
            State::Stopped => fill(Later::SweepStopped.text(l), &[("k", &n.to_string()), ("n", &POINTS.to_string())]),
            State::Failed(message) => fill(Later::SweepFailed.text(l), &[("message", &message)]),
        }
    };
    let plot = move || {
        let spec = s.spec.get()?;
        Some(s.points.with(|points| crate::draw::plot::sweep_plot(&spec, points, lang())))
    };
    // A point pressed (a click, or Enter or Space on it): the run it stands for.
    let pressed = move |target: Option<web_sys::EventTarget>| {
        let el = target.and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())?;
        let point = el.closest("[data-point]").ok()??;
        let k: usize = point.get_attribute("data-point")?.parse().ok()?;
        let class = point.get_attribute("data-class")?;
        let class = crate::draw::plot::CLASSES.iter().position(|c| *c == class)?;
        super::act::perform(app, Action::OpenSwept(k, class));
        Some(())
    };
    // Another scenario: the plot was this one's, and goes with it (a point's run is the same
    // scenario with its knobs set, and keeps it).
    let scenario = Memo::new(move |_| app.scenario.with(|sc| sc.id.clone()));
    let seen = StoredValue::new_local(None::<String>);
    super::effect(move || {
        let id = scenario.get();
        let before = seen.get_value();
        seen.set_value(Some(id.clone()));
        if before.is_some_and(|b| b != id) {
            if s.state.get_untracked() == State::Running {
                super::ask::post_request(&serde_json::json!({ "leaselab": 1, "type": "stop" }).to_string(), false);
            }
            s.state.set(State::Idle);
            s.spec.set(None);
            s.points.set(Vec::new());
        }
    });
    view! {
        <div class="sweeping" data-testid="sweeping">
            <h3 class="sweep-title">{tr(app, Later::SweepTitle)}</h3>
            <p class="ask-intro">{tr(app, Later::SweepIntro)}</p>
            <label class="ask-field">
                <span>{tr(app, Later::SweepKnob)}</span>
                <select data-testid="sweep-knob" on:change=move |ev| {
                    if let Some(k) = Knob::from_code(&event_target_value(&ev)) {
                        let (from, to) = range(k);
                        s.knob.set(k);
                        s.range.set((from, to));
                        s.unread.set(None);
                        if matches!(s.state.get_untracked(), State::Failed(_)) {
                            s.state.set(State::Idle);
                        }
                    }
                }>
                    {knobs}
                </select>
            </label>
            <div class="sweep-range">
                {field(0, "sweep-from", Later::SweepFrom)}
                {field(1, "sweep-to", Later::SweepTo)}
            </div>
            <div class="ask-buttons">
                <Show
                    when=busy
                    fallback=move || view! {
                        <ActButton app action=Action::Sweep testid="sweep-run" class="sweep-run" label=Said::Later(Later::SweepRun) />
                    }
                >
                    <ActButton app action=Action::StopSearch testid="sweep-stop" class="sweep-stop" label=Said::Later(Later::AskStop) />
                </Show>
            </div>
            <p class="ask-status" data-testid="sweep-status" role="status" aria-live="polite">{status}</p>
            <div
                class="sweep-plot-box"
                data-testid="sweep-plot"
                inner_html=move || plot().unwrap_or_default()
                on:click=move |ev| {
                    pressed(ev.target());
                }
                on:keydown=move |ev| {
                    if matches!(ev.key().as_str(), "Enter" | " ") && pressed(ev.target()).is_some() {
                        ev.prevent_default();
                    }
                }
            ></div>
        </div>
    }
}
