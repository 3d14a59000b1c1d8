//! Ask the engine (issue 30): the side panel's Ask tab, where a learner picks a question (a
//! safety property to break, or something to see happen), searches the scenario's runs in the
//! page's search worker (`src/bin/leaselab-worker.rs`, started the first time), watches the
//! progress, stops it, and opens the shortest run found in the player at the moment it met the
//! goal. The actions (`Action::Search`, `StopSearch`, `OpenFound`) come through the registry
//! like every other; the panel and this glue are in the later parts' chunk.
//!
//! The worker speaks the JSON of `scenario::search`; an answer is exactly what `leaselab search`
//! prints for the same question (`tests/browser/tests/search.rs`).

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::actions::Action;
use crate::engine::search::{Goal, Lever, Space};
use crate::engine::{Command, MessageFault, ScheduledCommand};
use crate::fables::Said;
use crate::story::fill;
use crate::story::i18n::Later;

use super::act::ActButton;
use super::state::AppState;
use super::{seconds, tr};

/// Where a search stands, as the panel shows it.
#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    Starting,
    Running {
        states: u64,
        runs: u64,
        depth: u64,
        rate: u64,
    },
    /// A run found: how many choices, when, after how many states, and its interventions (the
    /// script set aside included, as the share link carries them).
    Found {
        depth: u64,
        at_ms: u64,
        states: u64,
        steps: Vec<ScheduledCommand>,
        /// The goal the run met, said when the search looked for more than one.
        met: Option<Goal>,
    },
    NoneFound {
        states: u64,
        runs: u64,
        depth: u64,
    },
    /// Gave up at the state budget while walking runs of `depth` interventions (every run of
    /// fewer was walked).
    Budget {
        states: u64,
        depth: u64,
    },
    Stopped {
        states: u64,
    },
    /// Search was asked while a sweep runs in the worker: nothing was sent.
    SweepBusy,
    /// Search was asked with nothing allowed to go wrong (no lever ticked): nothing was sent.
    NothingMayGoWrong,
    /// The worker did not start (it could not be fetched).
    NoWorker,
    Failed(String),
}

/// The Ask panel's state: the question, the search's status and the worker. A lesson's witness
/// question (`Action::Witness`) asks through the same state: it sets the question, and says whose
/// it is in `asked_by`.
#[derive(Clone, Copy)]
struct Asking {
    goal: RwSignal<Goal>,
    /// More goals: the search stops at the first run that meets any of them or `goal`.
    also: RwSignal<Vec<Goal>>,
    /// What the search may do (the default space's to begin with).
    levers: RwSignal<Vec<Lever>>,
    depth: RwSignal<u64>,
    scripted: RwSignal<bool>,
    status: RwSignal<Status>,
    worker: StoredValue<Option<web_sys::Worker>, LocalStorage>,
    /// A request written before the worker said it was ready.
    pending: StoredValue<Option<String>, LocalStorage>,
    /// The scenario searched (the answer's run is of it).
    searched: StoredValue<Option<crate::scenario::Scenario>, LocalStorage>,
    /// The lesson (its id) and step (from 0) whose witness question the search answers; `None`:
    /// the Ask tab's own.
    asked_by: RwSignal<Option<(String, usize)>>,
    /// A witness question's page: the run found opens in its player at once.
    open_when_found: StoredValue<Option<AppState>, LocalStorage>,
    /// The question the search under way answers, as the panel had it when it started: a search
    /// whose question has changed since is stopped (its answer would be another question's).
    searching_for: StoredValue<Option<Question>, LocalStorage>,
    /// When the search under way started, in ms of real time: a Stop sooner than [`STOP_GUARD_MS`]
    /// after it is the second click of a double click on Search (Stop takes its place) and is
    /// not obeyed.
    started_ms: StoredValue<f64, LocalStorage>,
}

/// How soon after Search a Stop is taken for the rest of a double click, in ms of real time.
const STOP_GUARD_MS: f64 = 400.0;

/// The panel's question: the goal, the depth, whether the script is kept, the extra goals, and
/// what may go wrong.
type Question = (Goal, u64, bool, Vec<Goal>, Vec<Lever>);

impl Asking {
    /// The question as the panel has it now (untracked).
    fn question(&self) -> Question {
        (
            self.goal.get_untracked(),
            self.depth.get_untracked(),
            self.scripted.get_untracked(),
            self.also.get_untracked(),
            self.levers.get_untracked(),
        )
    }
}

thread_local! {
    // The page's one Ask panel, made the first time it is drawn (the glue's state, not the
    // engine's).
    static ASKING: RefCell<Option<Asking>> = const { RefCell::new(None) };
}

fn asking() -> Asking {
    ASKING.with(|a| {
        *a.borrow_mut().get_or_insert_with(|| Asking {
            goal: RwSignal::new(Goal::StaleWriteAccepted),
            also: RwSignal::new(Vec::new()),
            levers: RwSignal::new(Lever::ALL.into_iter().filter(|l| l.default_on()).collect()),
            depth: RwSignal::new(1),
            scripted: RwSignal::new(true),
            status: RwSignal::new(Status::Idle),
            worker: StoredValue::new_local(None),
            pending: StoredValue::new_local(None),
            searched: StoredValue::new_local(None),
            asked_by: RwSignal::new(None),
            open_when_found: StoredValue::new_local(None),
            searching_for: StoredValue::new_local(None),
            started_ms: StoredValue::new_local(f64::NEG_INFINITY),
        })
    })
}

/// A goal's name on the page.
fn goal_words(goal: Goal) -> Later {
    match goal {
        Goal::StaleWriteAccepted => Later::GoalStaleWrite,
        Goal::InvalidTokenAccepted => Later::GoalInvalidToken,
        Goal::TokenRegression => Later::GoalTokenRegression,
        Goal::DuplicateSideEffect => Later::GoalDuplicate,
        Goal::LockDeletedByNonOwner => Later::GoalLockDeleted,
        Goal::ForeignTokenAccepted => Later::GoalForeignToken,
        Goal::TwoHolders => Later::GoalTwoHolders,
        Goal::WriteRefusedWhileHolding => Later::GoalRefusedHolder,
        Goal::ZombieWriteFenced => Later::GoalZombieFenced,
        Goal::DualBelief => Later::GoalDualBelief,
        Goal::ExpiryWithoutPause => Later::GoalExpiryNoPause,
        Goal::RenewalRefusedAfterStrayDelete => Later::GoalRenewalAfterDelete,
    }
}

/// A check box that puts `item` in `chosen` while it is ticked, and takes it out when not.
fn check_box<T: Copy + PartialEq + Send + Sync + 'static>(
    chosen: RwSignal<Vec<T>>,
    item: T,
    testid: String,
    words: impl Fn() -> &'static str + Send + Sync + 'static,
) -> impl IntoView {
    let on = move || chosen.with(|c| c.contains(&item));
    let set = move |ev| {
        let checked = event_target_checked(&ev);
        chosen.update(|c| {
            c.retain(|x| *x != item);
            if checked {
                c.push(item);
            }
        });
    };
    view! {
        <label class="ask-check">
            <input type="checkbox" data-testid=testid prop:checked=on on:change=set />
            <span>{words}</span>
        </label>
    }
}

/// A lever's words on the page: what may go wrong, with its bounds.
fn lever_words(lever: Lever) -> Later {
    match lever {
        Lever::Pause => Later::LeverPause,
        Lever::Cut => Later::LeverCut,
        Lever::DelayWrite => Later::LeverDelayWrite,
        Lever::Crash => Later::LeverCrash,
        Lever::LoseMessage => Later::LeverLoseMessage,
        Lever::HoldMessage => Later::LeverHoldMessage,
        Lever::CopyMessage => Later::LeverCopyMessage,
        Lever::ClockJump => Later::LeverClockJump,
        Lever::ClockRate => Later::LeverClockRate,
        Lever::Revoke => Later::LeverRevoke,
        Lever::FencingOff => Later::LeverFencingOff,
    }
}

/// Carries out an Ask action (`ui::act::perform_later` sends them here, in the later parts).
pub(crate) fn act(app: AppState, action: Action) {
    let a = asking();
    match action {
        // One job at a time in the worker: the sweep goes on, and the panel says so.
        Action::Search if super::sweep::running() => a.status.set(Status::SweepBusy),
        Action::Search => {
            let had_focus = focus_in_panel();
            a.asked_by.set(None);
            a.open_when_found.set_value(None);
            let nothing = a.levers.with_untracked(Vec::is_empty);
            if nothing && !a.scripted.get_untracked() {
                // Not even the script would act: say what to tick instead.
                a.status.set(Status::NothingMayGoWrong);
                return;
            }
            // Nothing may go wrong: the scenario's own run is the one to look at.
            let depth = if nothing { 0 } else { usize::try_from(a.depth.get_untracked()).unwrap_or(1) };
            let mut space =
                Space { max_interventions: depth, scripted: a.scripted.get_untracked(), ..Space::default() };
            a.levers.with_untracked(|on| Lever::ALL.into_iter().for_each(|l| space.allow(l, on.contains(&l))));
            let main = a.goal.get_untracked();
            let mut goals = vec![main];
            a.also.with_untracked(|also| goals.extend(also.iter().filter(|g| **g != main)));
            search(app, a, &goals, serde_json::to_value(space).unwrap_or_default());
            if had_focus {
                super::focus::hand_to(&[".asking .ask-stop"]);
            }
        }
        Action::Witness => witness(app, a),
        Action::StopSearch
            if (searching() || super::sweep::running())
                && super::lesson::real_now() - a.started_ms.get_value() < STOP_GUARD_MS => {}
        Action::StopSearch if searching() || super::sweep::running() => {
            post(a, &serde_json::json!({ "leaselab": 1, "type": "stop" }).to_string());
        }
        Action::OpenFound => {
            let found = (a.status.get_untracked(), a.searched.get_value());
            if let (Status::Found { at_ms, steps, .. }, Some(scenario)) = found {
                if let Err(e) = app.restore(scenario, &steps, at_ms) {
                    a.status.set(Status::Failed(e));
                    return;
                }
                // The player takes the focus: it is where the run now is (and on a phone, where
                // the panel is far below the scene, the page scrolls to it).
                super::focus::hand_now(&[app.anchors.play, app.anchors.step_back]);
            }
        }
        _ => {}
    }
}

/// Asks the lesson step's witness question: the Ask panel takes the question (so its tab shows
/// it too), and the shortest run found opens in the player. Nothing is asked while a search is
/// under way, or when the run on screen is not the step's scenario.
fn witness(app: AppState, a: Asking) {
    if matches!(a.status.get_untracked(), Status::Running { .. } | Status::Starting) {
        return;
    }
    let asked = app.tutor.0.with_untracked(|t| {
        let (step, planned) = t.current()?;
        Some((t.lesson()?.id.clone(), t.step(), step.witness.clone()?, planned.start.scenario.clone()))
    });
    let Some((lesson, i, w, scenario)) = asked else { return };
    if app.source.with_untracked(Option::is_some) || app.scenario.with_untracked(|s| s.id != scenario) {
        return;
    }
    a.goal.set(w.goal);
    a.depth.set(w.max_interventions as u64);
    a.scripted.set(w.scripted);
    a.asked_by.set(Some((lesson, i)));
    a.open_when_found.set_value(Some(app));
    // The bounds are the lesson checker's (`Witness::space`), whole.
    let space = serde_json::to_value(w.space()).unwrap_or_default();
    search(app, a, &[w.goal], space);
}

/// Whether the run on screen is the one step `step` (from 0) of lesson `lesson` had the engine find
/// for its witness question (its interventions exactly): the lesson waits beside it, but the
/// learner did not leave the lesson's path by hand. Tracks the answer shown.
pub(super) fn witness_run_on_screen(app: AppState, lesson: &str, step: usize) -> bool {
    let a = asking();
    let ours = a.asked_by.with(|by| by.as_ref().is_some_and(|(l, s)| l == lesson && *s == step));
    ours && a.status.with(|status| matches!(status, Status::Found { steps, .. } if app.interventions() == *steps))
}

/// The file of the scenario on screen, as the worker reads it: the imported text (`source`), or
/// built-in `id`'s, fetched (it is cached). A search and a sweep both send it.
pub(super) async fn scenario_file(id: &str, source: Option<String>) -> Result<serde_json::Value, String> {
    let text = match source {
        Some(text) => Ok(text),
        None => super::catalog::fetch_text(&format!("scenarios/{id}.json")).await,
    };
    text.and_then(|t| serde_json::from_str::<serde_json::Value>(&t).map_err(|e| e.to_string()))
}

/// Starts a search of the scenario on screen for any of `goals` within `space` (a [`Space`]'s
/// fields as JSON; the ones missing default).
fn search(app: AppState, a: Asking, goals: &[Goal], space: serde_json::Value) {
    let goals: Vec<&str> = goals.iter().map(|g| g.code()).collect();
    let goals = serde_json::json!(goals);
    let scenario = app.scenario.get_untracked();
    let source = app.source.get_untracked();
    a.status.set(Status::Starting);
    a.searching_for.set_value(Some(a.question()));
    a.started_ms.set_value(super::lesson::real_now());
    a.searched.set_value(None);
    wasm_bindgen_futures::spawn_local(async move {
        let file = match scenario_file(&scenario.id, source).await {
            Ok(file) => file,
            Err(e) => return a.status.set(Status::Failed(e)),
        };
        let request = serde_json::json!({
            "leaselab": 1, "type": "search", "scenario": file, "goals": goals, "space": space,
        });
        a.searched.set_value(Some(scenario));
        post(a, &request.to_string());
    });
}

/// Whether a search is under way (the worker does one job at a time).
pub(super) fn searching() -> bool {
    ASKING.with(|a| {
        a.borrow()
            .as_ref()
            .is_some_and(|a| matches!(a.status.get_untracked(), Status::Running { .. } | Status::Starting))
    })
}

/// Sends a request to the worker (a sweep's, `ui::sweep`), starting it the first time. `job`: it
/// starts a job (a sweep), which a Stop within [`STOP_GUARD_MS`] does not end.
pub(super) fn post_request(text: &str, job: bool) {
    let a = asking();
    if job {
        a.started_ms.set_value(super::lesson::real_now());
    }
    post(a, text);
}

/// Sends a request to the worker, starting it the first time. Until the worker says it is
/// ready (`pending` holds a request then, or nothing yet), the newest request waits.
fn post(a: Asking, text: &str) {
    match a.worker.get_value() {
        Some(worker) if a.pending.with_value(Option::is_none) => {
            let _ = worker.post_message(&JsValue::from_str(text));
        }
        Some(_) => a.pending.set_value(Some(text.to_owned())),
        None => {
            if let Some(worker) = start_worker(a) {
                a.worker.set_value(Some(worker));
                a.pending.set_value(Some(text.to_owned()));
            }
        }
    }
}

/// The worker (a classic worker: its loader imports the glue and starts the wasm), created and
/// listened to: its messages set the panel's status. One that has not said it is ready after
/// [`READY_MS`] (it could not be fetched) is reported, and the next search starts another.
fn start_worker(a: Asking) -> Option<web_sys::Worker> {
    let worker = match web_sys::Worker::new("./leaselab-worker_loader.js") {
        Ok(w) => w,
        Err(e) => {
            a.status.set(Status::Failed(format!("{e:?}")));
            return None;
        }
    };
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
        let text = event.data().as_string().unwrap_or_default();
        if let Ok(message) = serde_json::from_str::<serde_json::Value>(&text) {
            heard(a, &message);
        }
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    wasm_bindgen_futures::spawn_local(async move {
        gloo_timers::future::TimeoutFuture::new(READY_MS).await;
        if a.pending.with_value(Option::is_some) {
            if let Some(worker) = a.worker.get_value() {
                worker.terminate();
            }
            a.worker.set_value(None);
            a.pending.set_value(None);
            a.status.set(Status::NoWorker);
        }
    });
    Some(worker)
}

/// How long the worker may take to say it is ready, in ms of real time.
const READY_MS: u32 = 20_000;

/// Whether the keyboard's focus is in the Ask panel (on Search or Stop, about to be swapped).
fn focus_in_panel() -> bool {
    leptos::prelude::document().active_element().is_some_and(|el| el.closest(".asking").ok().flatten().is_some())
}

/// Sets a status that ends the search: Stop goes, so a focus on it moves to Open this run (when
/// a run was found) or Search, at the next frame, once they are drawn.
fn finish(a: Asking, status: Status) {
    let had_focus = focus_in_panel();
    let found = matches!(status, Status::Found { .. });
    a.status.set(status);
    if had_focus {
        match found {
            true => super::focus::hand_to(&[".asking .ask-open", ".asking .ask-search"]),
            false => super::focus::hand_to(&[".asking .ask-search"]),
        }
    }
}

/// A message from the worker.
fn heard(a: Asking, message: &serde_json::Value) {
    let n = |v: &serde_json::Value| v.as_u64().unwrap_or(0);
    let states_so_far = || match a.status.get_untracked() {
        Status::Running { states, .. } => states,
        _ => 0,
    };
    let kind = message["type"].as_str().unwrap_or_default();
    // A sweep's news is the sweep panel's.
    if kind != "ready" && super::sweep::heard(message) {
        return;
    }
    // What the worker says of a search the page no longer waits for (stopped for another
    // scenario, its question changed) is not this panel's news.
    let waiting = matches!(a.status.get_untracked(), Status::Running { .. } | Status::Starting);
    if kind != "ready" && !waiting {
        return;
    }
    match kind {
        "ready" => {
            let pending = a.pending.get_value();
            a.pending.set_value(None);
            if let (Some(text), Some(worker)) = (pending, a.worker.get_value()) {
                let _ = worker.post_message(&JsValue::from_str(&text));
            }
        }
        "progress" => {
            let p = &message["progress"];
            a.status.set(Status::Running {
                states: n(&p["states"]),
                runs: n(&p["runs"]),
                depth: n(&p["depth"]),
                rate: message["states_per_s"].as_f64().map_or(0, |r| r.max(0.0).round() as u64),
            });
        }
        "answer" => {
            let answer = &message["answer"];
            let p = &answer["progress"];
            let status = match answer["result"].as_str().unwrap_or_default() {
                "found" => {
                    let found = &answer["found"];
                    let at_ms = n(&found["at_ms"]);
                    let link = answer["link"].as_str().unwrap_or_default();
                    let steps = crate::scenario::link::decode(link).unwrap_or_default();
                    let several = answer["goals"].as_array().is_some_and(|g| g.len() > 1);
                    let met = found["goal"].as_str().and_then(Goal::from_code).filter(|_| several);
                    Status::Found { depth: n(&found["depth"]), at_ms, states: n(&p["states"]), steps, met }
                }
                "none_within_bounds" => Status::NoneFound {
                    states: n(&p["states"]),
                    runs: n(&p["runs"]),
                    depth: n(&answer["space"]["max_interventions"]),
                },
                _ => Status::Budget { states: n(&p["states"]), depth: n(&p["depth"]) },
            };
            let found = matches!(status, Status::Found { .. });
            finish(a, status);
            // A witness question's run opens at once.
            let opener = a.open_when_found.get_value();
            a.open_when_found.set_value(None);
            if let (true, Some(app)) = (found, opener) {
                act(app, Action::OpenFound);
                // Its answer, under the button, in view once drawn.
                request_animation_frame(|| super::lesson::show_in_panel(".witness [data-testid=witness-steps]"));
            }
        }
        "stopped" => finish(a, Status::Stopped { states: states_so_far() }),
        "error" => finish(a, Status::Failed(message["message"].as_str().unwrap_or_default().to_owned())),
        _ => {}
    }
}

/// `n` as the language writes a count: 2,000,019 in English, 2000019 in Chinese.
fn count(n: u64, lang: crate::vocab::Lang) -> String {
    let digits = n.to_string();
    if lang != crate::vocab::Lang::En {
        return digits;
    }
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// `n` interventions in words: "1 intervention", "3 interventions".
fn interventions(n: u64, l: crate::vocab::Lang) -> String {
    match n {
        1 => Later::AskDepthOne.text(l).to_owned(),
        n => fill(Later::AskDepthOption.text(l), &[("n", &count(n, l))]),
    }
}

/// Where a search under way stands, in words (empty once it has ended).
fn progress_words(status: &Status, l: crate::vocab::Lang) -> String {
    match status {
        Status::Starting => Later::AskStarting.text(l).to_owned(),
        Status::Running { states, runs, depth, rate } => fill(
            match depth {
                0 => Later::AskProgressScript.text(l),
                _ => Later::AskProgress.text(l),
            },
            &[
                ("states", &count(*states, l)),
                ("runs", &count(*runs, l)),
                ("depth", &interventions(*depth, l)),
                ("rate", &count(*rate, l)),
            ],
        ),
        _ => String::new(),
    }
}

/// How a search ended, in words (empty while it works).
fn status_words(status: &Status, l: crate::vocab::Lang) -> String {
    let count = |n: u64| count(n, l);
    match status.clone() {
        Status::Idle | Status::Starting | Status::Running { .. } => String::new(),
        Status::Found { depth, at_ms, states, met, .. } => {
            let (s, states) = (seconds(at_ms), count(states));
            let said = match depth {
                0 => fill(Later::AskFoundScript.text(l), &[("s", &s), ("states", &states)]),
                1 => fill(Later::AskFoundOne.text(l), &[("s", &s), ("states", &states)]),
                n => fill(Later::AskFound.text(l), &[("n", &count(n)), ("s", &s), ("states", &states)]),
            };
            match met {
                Some(goal) => {
                    format!("{said} {}", fill(Later::AskFoundGoal.text(l), &[("goal", goal_words(goal).text(l))]))
                }
                None => said,
            }
        }
        Status::NoneFound { states, depth: 0, .. } => fill(Later::AskNoneScript.text(l), &[("states", &count(states))]),
        Status::NoneFound { states, runs, depth: 1 } => {
            fill(Later::AskNoneOne.text(l), &[("states", &count(states)), ("runs", &count(runs))])
        }
        Status::NoneFound { states, runs, depth } => {
            fill(Later::AskNone.text(l), &[("states", &count(states)), ("runs", &count(runs)), ("n", &count(depth))])
        }
        Status::Budget { states, depth: 0 | 1 } => fill(Later::AskBudget.text(l), &[("states", &count(states))]),
        Status::Budget { states, depth } => fill(
            Later::AskBudgetDeeper.text(l),
            &[("states", &count(states)), ("n", &interventions(depth, l)), ("done", &interventions(depth - 1, l))],
        ),
        Status::Stopped { states } => fill(Later::AskStopped.text(l), &[("states", &count(states))]),
        Status::NothingMayGoWrong => Later::AskNothingMayGoWrong.text(l).to_owned(),
        Status::SweepBusy => Later::AskSweepBusy.text(l).to_owned(),
        Status::NoWorker => Later::AskNoWorker.text(l).to_owned(),
        Status::Failed(message) => fill(Later::AskError.text(l), &[("message", &message)]),
    }
}

/// The run found, choice by choice, as the script's marks say them (none until one is found): a
/// pause or a held-up write with how long it lasts, and a cut from the store with its heal as one
/// line, for as long as it lasted (the search's one choice).
fn run_lines(app: AppState, status: &Status, l: crate::vocab::Lang) -> Vec<String> {
    let Status::Found { steps, .. } = status else { return Vec::new() };
    // The heals that end a cut: said with it.
    let mut healed = vec![false; steps.len()];
    let mut lines = Vec::new();
    app.cast.with(|cast| {
        for (k, step) in steps.iter().enumerate() {
            let lasting = match &step.command {
                // The scenario's script set aside is the learner's choice, not the run's.
                Command::DropScript { .. } => continue,
                Command::Heal { .. } if healed[k] => continue,
                Command::Pause { for_ms: Some(ms), .. } => Some(*ms),
                Command::DelayNextWrite { by_ms: ms, .. } => Some(*ms),
                Command::NextMessage { fault: MessageFault::Hold { by_ms: ms }, .. } => Some(*ms),
                Command::Partition { node, .. } => steps.iter().enumerate().skip(k + 1).find_map(|(j, later)| {
                    let heals = match &later.command {
                        Command::Heal { node: n } => n == node,
                        _ => false,
                    };
                    heals.then(|| {
                        healed[j] = true;
                        later.at_ms.saturating_sub(step.at_ms)
                    })
                }),
                _ => None,
            };
            let mut what = super::hands::script_step(&step.command, cast, l);
            if let Some(ms) = lasting {
                what = fill(Later::AskForLong.text(l), &[("what", &what), ("d", &seconds(ms))]);
            }
            lines.push(fill(Later::AskRunStep.text(l), &[("s", &seconds(step.at_ms)), ("what", &what)]));
        }
    });
    lines
}

/// The Ask tab's panel.
#[component]
pub fn Ask(app: AppState) -> impl IntoView {
    let a = asking();
    let lang = move || app.lang.get();
    let option = move |goal: Goal| {
        view! { <option value=goal.code() selected=move || a.goal.get() == goal>{move || goal_words(goal).text(lang())}</option> }
    };
    let breaks = Goal::ALL.into_iter().filter(|g| !g.is_witness()).map(option).collect_view();
    let shows = Goal::ALL.into_iter().filter(|g| g.is_witness()).map(option).collect_view();
    let depths = (1..=3u64)
        .map(|d| {
            let words = move || interventions(d, lang());
            view! { <option value=d.to_string() selected=move || a.depth.get() == d>{words}</option> }
        })
        .collect_view();
    let levers = Lever::ALL
        .into_iter()
        .map(|lever| {
            let words = move || lever_words(lever).text(lang());
            check_box(a.levers, lever, format!("lever-{}", lever.code()), words)
        })
        .collect_view();
    // Every goal but the one chosen above (which is looked for anyway).
    let also = move || {
        let main = a.goal.get();
        Goal::ALL
            .into_iter()
            .filter(|g| *g != main)
            .map(|goal| {
                let words = move || goal_words(goal).text(lang());
                check_box(a.also, goal, format!("also-{}", goal.code()), words)
            })
            .collect_view()
    };
    let running = move || matches!(a.status.get(), Status::Running { .. } | Status::Starting);
    // The progress while it works (not a live region: it changes five times a second), and the
    // outcome (a live region: said once when it comes).
    let progress = move || a.status.with(|status| progress_words(status, lang()));
    let status = move || a.status.with(|status| status_words(status, lang()));
    // A changed question, or another scenario, and the answer on screen is no longer this
    // one's: it goes (a search under way for the old scenario is stopped).
    let question = Memo::new(move |_| (a.goal.get(), a.depth.get(), a.scripted.get(), a.also.get(), a.levers.get()));
    let scenario = Memo::new(move |_| app.scenario.with(|s| s.id.clone()));
    let seen = StoredValue::new_local(None::<(Question, String)>);
    super::effect(move || {
        let now = (question.get(), scenario.get());
        let before = seen.get_value();
        seen.set_value(Some(now.clone()));
        let Some(before) = before else { return };
        let running = matches!(a.status.get_untracked(), Status::Running { .. } | Status::Starting);
        let asked_otherwise = a.searching_for.with_value(|q| q.as_ref().is_some_and(|q| *q != now.0));
        if running && (before.1 != now.1 || asked_otherwise) {
            post(a, &serde_json::json!({ "leaselab": 1, "type": "stop" }).to_string());
            a.status.set(Status::Idle);
        } else if before != now && !running {
            a.status.set(Status::Idle);
        }
    });
    let found = move || matches!(a.status.get(), Status::Found { .. });
    let steps = move || a.status.with(|status| run_lines(app, status, lang()));
    let step_list = move || steps().into_iter().map(|line| view! { <li>{line}</li> }).collect_view();
    view! {
        <div class="asking" data-testid="asking">
            <p class="ask-intro">{tr(app, Later::AskIntro)}</p>
            <label class="ask-field">
                <span>{tr(app, Later::AskLookFor)}</span>
                <select data-testid="ask-goal" on:change=move |ev| {
                    if let Some(goal) = Goal::from_code(&event_target_value(&ev)) {
                        // The goal looked for first is not also among the extra ones, hidden.
                        a.also.update(|also| also.retain(|g| *g != goal));
                        a.goal.set(goal);
                    }
                }>
                    <optgroup label=tr(app, Later::AskBreaks)>{breaks}</optgroup>
                    <optgroup label=tr(app, Later::AskShows)>{shows}</optgroup>
                </select>
            </label>
            <label class="ask-field">
                <span>{tr(app, Later::AskDepth)}</span>
                <select data-testid="ask-depth" on:change=move |ev| {
                    if let Ok(d) = event_target_value(&ev).parse::<u64>() {
                        a.depth.set(d.clamp(1, 3));
                    }
                }>
                    {depths}
                </select>
            </label>
            <label class="ask-check">
                <input
                    type="checkbox"
                    data-testid="ask-script"
                    prop:checked=move || a.scripted.get()
                    on:change=move |ev| a.scripted.set(event_target_checked(&ev))
                />
                <span>{tr(app, Later::AskScripted)}</span>
            </label>
            <details class="ask-more" data-testid="ask-more">
                <summary>{tr(app, Later::AskMore)}</summary>
                <fieldset>
                    <legend>{tr(app, Later::AskLevers)}</legend>
                    {levers}
                </fieldset>
                <fieldset>
                    <legend>{tr(app, Later::AskAlso)}</legend>
                    {also}
                </fieldset>
            </details>
            <div class="ask-buttons">
                <Show
                    when=running
                    fallback=move || view! {
                        <ActButton app action=Action::Search testid="ask-search" class="ask-search" label=Said::Later(Later::AskSearch) />
                    }
                >
                    <ActButton app action=Action::StopSearch testid="ask-stop" class="ask-stop" label=Said::Later(Later::AskStop) />
                </Show>
                <Show when=found>
                    <ActButton app action=Action::OpenFound testid="ask-open" class="ask-open" label=Said::Later(Later::AskOpen) />
                </Show>
            </div>
            <p class="ask-progress" data-testid="ask-progress">{progress}</p>
            <p class="ask-status" data-testid="ask-status" role="status" aria-live="polite">{status}</p>
            <ol class="ask-steps" data-testid="ask-steps">{step_list}</ol>
            <super::sweep::SweepPanel app />
        </div>
    }
}

/// A lesson step's witness question (`witness` in the lesson file): its button, which asks the
/// engine for the shortest run of the step's scenario that shows it (`Action::Witness`), Stop
/// while it searches, and the answer under it: the sentence and the run, intervention by
/// intervention, as the Ask tab says them. The run itself opens in the player.
#[component]
pub fn WitnessAsk(
    app: AppState,
    lesson: String,
    step: usize,
    witness: crate::scenario::lesson::Witness,
) -> impl IntoView {
    let a = asking();
    let lang = move || app.lang.get();
    // The step drawn again (entered anew by Back, Next or the contents): an answer it showed
    // before is of a run the lesson has since left, and goes (a search under way stays).
    let searching_now = matches!(a.status.get_untracked(), Status::Running { .. } | Status::Starting);
    let ours = a.asked_by.with_untracked(|by| by.as_ref().is_some_and(|(l, s)| *l == lesson && *s == step));
    if ours && !searching_now {
        a.asked_by.set(None);
    }
    // The search on show is this step's question's (another step's, or the Ask tab's, is not).
    let mine = Memo::new(move |_| a.asked_by.with(|by| by.as_ref().is_some_and(|(l, s)| *l == lesson && *s == step)));
    let running = move || mine.get() && matches!(a.status.get(), Status::Running { .. } | Status::Starting);
    let goal = witness.goal;
    let label = witness.label.clone();
    let words = move || match &label {
        Some(text) => crate::story::tour::pick(text, lang()).to_owned(),
        None => fill(Later::WitnessDefault.text(lang()), &[("goal", goal_words(goal).text(lang()))]),
    };
    let progress = move || if mine.get() { a.status.with(|s| progress_words(s, lang())) } else { String::new() };
    let status = move || {
        if !mine.get() {
            return String::new();
        }
        a.status.with(|s| {
            let said = status_words(s, lang());
            match s {
                Status::Found { .. } => format!("{said} {}", Later::WitnessOpened.text(lang())),
                _ => said,
            }
        })
    };
    let lines = move || {
        let lines = if mine.get() { a.status.with(|s| run_lines(app, s, lang())) } else { Vec::new() };
        lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()
    };
    view! {
        <div class="witness" data-testid="witness">
            <Show
                when=running
                fallback=move || {
                    let words = words.clone();
                    view! {
                        <button class="witness-ask" data-testid="witness-ask" on:click=super::act::on_click(app, Action::Witness)>
                            {words}
                        </button>
                    }
                }
            >
                <ActButton app action=Action::StopSearch testid="witness-stop" class="witness-stop" label=Said::Later(Later::AskStop) />
            </Show>
            <p class="ask-progress" data-testid="witness-progress">{progress}</p>
            <p class="ask-status" data-testid="witness-status" role="status" aria-live="polite">{status}</p>
            <ol class="ask-steps" data-testid="witness-steps">{lines}</ol>
        </div>
    }
}
