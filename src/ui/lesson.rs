//! Guided lessons on the page (issue 5): the lesson picker, the step panel (narration, the
//! prediction and its reveal, back and next, the table of contents, the metaphor table) and the
//! audience question.
//!
//! What the lesson does is decided by its state machine, [`crate::story::tour::Tour`], plain Rust
//! tested natively: this module feeds it the learner's clicks, the timers it asked for and what
//! each frame shows of the run, and carries out the effects it returns (restoring a step's start,
//! the clock's stop, play and pause, pointing, timers, `localStorage`, the address, the focus).
//! It also draws the panel and the audience question, as `view!` components: each control
//! carries out its [`Action`] through the registry (`act::perform`), and the focus stays on the
//! control clicked, or goes to the step's title when it is gone (see `focus`).

use std::sync::Arc;

use leptos::prelude::*;

use crate::actions::Action;
use crate::scenario::lesson::{self, Ask, Element, Lesson, Metaphor};
use crate::scenario::Localized;
use crate::story::fill;
use crate::story::i18n::{Later, Ui};
use crate::story::tour::{self, Focus, Input, Phase, RunView, Tour};
use crate::vocab::Lang;

use super::catalog;
use super::state::AppState;
use super::tr;

/// The lesson being followed, kept in [`AppState::tutor`]: the state machine, the real time (ms)
/// at which the current step began (its reading time counts from there), the lessons' code once
/// it has been fetched (see [`Runtime`]), and the step's reveal as drawn (brought into view when
/// a prediction is revealed).
#[derive(Clone, Copy)]
pub struct Tutor(pub RwSignal<Tour>, StoredValue<f64>, RwSignal<Option<Runtime>>, NodeRef<leptos::html::Div>);

/// What the page calls of the lessons' code, which the release build fetches as a chunk the first
/// time a lesson is opened (`#[lazy]`): nobody is following a lesson before that, so the first
/// scene goes without it. Until then an input for the lesson (a key, a click) has no lesson to go
/// to and is dropped.
#[derive(Clone, Copy)]
pub struct Runtime {
    send: fn(AppState, Input),
    open: fn(AppState, String, Option<usize>),
    panel: fn(AppState) -> AnyView,
    audience: fn(AppState) -> AnyView,
    pointers: fn(AppState, &'static str, PlaceFn) -> AnyView,
}

chunk_fn! {
    in later_parts;
    /// The lessons' code: loaded on first use in the split build.
    fn runtime() -> Runtime = lesson_code;
}

fn lesson_code() -> Runtime {
    Runtime { send: send_now, open: open_now, panel: panel_view, audience: audience_view, pointers: pointers_view }
}

impl Tutor {
    pub fn new() -> Self {
        Self(RwSignal::new(Tour::default()), StoredValue::new(0.0), RwSignal::new(None), NodeRef::new())
    }

    fn get<R>(&self, f: impl FnOnce(&Tour) -> R) -> R {
        self.0.with_untracked(f)
    }

    /// Whether a lesson is being followed (tracked: the page's layout follows it).
    pub fn active(&self) -> bool {
        self.0.with(|t| t.lesson().is_some())
    }
}

impl Default for Tutor {
    fn default() -> Self {
        Self::new()
    }
}

/// Text from a lesson file in `lang`.
fn pick(text: &Localized, lang: Lang) -> String {
    tour::pick(text, lang).to_owned()
}

fn storage() -> Option<web_sys::Storage> {
    crate::ui::window()?.local_storage().ok()?
}

/// Real time now, in ms.
pub(super) fn real_now() -> f64 {
    crate::ui::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Gives `input` to the lesson's state machine and carries out what it says (nothing before a
/// lesson has been opened).
pub fn send(app: AppState, input: Input) {
    if let Some(runtime) = app.tutor.2.get_untracked() {
        (runtime.send)(app, input);
    }
}

fn send_now(app: AppState, input: Input) {
    let effects = app.tutor.0.try_update(|t| t.handle(input)).unwrap_or_default();
    for effect in effects {
        carry_out(app, effect);
    }
}

/// Carries out one effect of the lesson's state machine.
fn carry_out(app: AppState, effect: tour::Effect) {
    use tour::Effect as Do;
    match effect {
        Do::Restore { scenario, interventions, at_ms } => {
            app.tutor.1.set_value(real_now());
            // The plan was made from these very scenarios, so they are here and accepted.
            if let Some(Ok(scenario)) = catalog::get(&scenario) {
                let _ = app.restore(scenario, &interventions, at_ms);
            }
        }
        Do::StopAt(t) => app.set_stop_at(t),
        Do::Play(on) => {
            app.playing.set(on);
            if on {
                // After the step's own focus has moved (and maybe scrolled the page).
                set_timeout(show_stage_when_stacked, std::time::Duration::from_millis(150));
            }
        }
        Do::Speed(k) => app.speed_log2.set(k),
        Do::Pacing(p) => app.set_step_pacing(p),
        Do::Fable(f) => app.choose_fable(f),
        Do::Point(elements) => app.pointed.set(elements),
        Do::Tick(ticket) => {
            set_timeout(move || send(app, Input::CountdownTick(ticket)), std::time::Duration::from_secs(1))
        }
        Do::MoveOnAfter { ticket, read_ms } => {
            let left = (app.tutor.1.get_value() + read_ms as f64 - real_now()).max(tour::MOMENT_HOLD_MS as f64);
            set_timeout(move || send(app, Input::MoveOn(ticket)), std::time::Duration::from_millis(left as u64));
        }
        Do::Save { key, progress } => {
            if let Some(s) = storage() {
                let _ = s.set_item(&key, &progress);
            }
        }
        Do::Address(query) => {
            if let Some(window) = crate::ui::window() {
                let path = window.location().pathname().unwrap_or_default();
                if let Ok(history) = window.history() {
                    let url = format!("{path}{query}");
                    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
                }
            }
            // Out of the lesson the sandbox's address names the scenario it plays.
            if !query.contains("lesson=") {
                app.address_follows_the_run();
            }
        }
        // The answer and its reason are what the room waits for: bring them into view (inside
        // the panel when it scrolls, as little as needed), once the panel has been redrawn and
        // the pointing has scrolled the scene.
        Do::ShowReveal => {
            // Once it is drawn, and again a moment later: on a busy machine the panel can still
            // be laying out (or drawn again) after the first try, leaving the reveal below. The
            // second try only if nobody has scrolled the panel or the page, nor taken any action
            // (opened the contents, say), since the first: a learner (or a test) already reaching
            // for the contents or Next keeps the panel where they put it, rather than having it
            // pulled away under the pointer.
            let scrolled = move || {
                let panel = document().query_selector(".lesson").ok().flatten().map_or(0, |p| p.scroll_top());
                let page = crate::ui::window().and_then(|w| w.scroll_y().ok()).unwrap_or(0.0);
                (panel, page.round() as i64, app.acts.get_untracked())
            };
            set_timeout(
                move || {
                    let Some(el) = app.tutor.3.get_untracked().filter(|el| el.is_connected()) else { return };
                    scroll_to(&el, web_sys::ScrollLogicalPosition::Nearest);
                    let after_first = scrolled();
                    set_timeout(
                        move || {
                            if scrolled() != after_first {
                                return;
                            }
                            if let Some(el) = app.tutor.3.get_untracked().filter(|el| el.is_connected()) {
                                scroll_to(&el, web_sys::ScrollLogicalPosition::Nearest);
                            }
                        },
                        std::time::Duration::from_millis(900),
                    );
                },
                std::time::Duration::from_millis(300),
            );
        }
        Do::Focus(Focus::Title) => super::focus::hand_to(&[STEP_TITLE]),
        Do::Focus(Focus::Reveal) => super::focus::hand_to(&[".audience .reveal-button"]),
    }
}

/// Opens built-in lesson `id`: fetches it and its scenarios, plays it on the engine, then shows
/// step `step` (from 0; `None`: where the learner left off, else the first).
pub fn open(app: AppState, id: String, step: Option<usize>) {
    wasm_bindgen_futures::spawn_local(async move {
        let runtime = match app.tutor.2.get_untracked() {
            Some(loaded) => loaded,
            None => {
                // Not fetched (the network): nothing opens; choosing the lesson again tries again.
                let Ok(loaded) = runtime().await else { return };
                app.tutor.2.set(Some(loaded));
                loaded
            }
        };
        (runtime.open)(app, id, step);
    });
}

fn open_now(app: AppState, id: String, step: Option<usize>) {
    wasm_bindgen_futures::spawn_local(async move {
        let opened = async {
            let lesson = catalog::lesson(&id).await?;
            for s in lesson.steps.iter().filter_map(|s| s.scenario.as_deref()) {
                catalog::load(s).await;
            }
            let plan = lesson::plan(&lesson, catalog::get).map_err(|e| e.to_string())?;
            Ok::<_, String>((lesson, plan))
        };
        let input = match opened.await {
            Ok((lesson, plan)) => {
                let kept = storage().and_then(|s| s.get_item(&tour::progress_key(&lesson.id)).ok().flatten());
                Input::Open {
                    lesson: Arc::new(lesson),
                    plan: plan.into(),
                    step,
                    kept,
                    lang: app.lang.get_untracked(),
                    presenter: app.presenter.get_untracked(),
                }
            }
            Err(error) => Input::Failed(error),
        };
        send(app, input);
    });
}

/// Leaves the lesson: the run stays as it is, a sandbox again.
pub fn leave(app: AppState) {
    send(app, Input::Leave);
}

/// On a narrow upright screen (one column: the step under the stage) a run the lesson plays is
/// brought into view, so that what the learner waits for is not played off the screen after they
/// scrolled down to answer or to press Next.
fn show_stage_when_stacked() {
    let Some(window) = crate::ui::window() else { return };
    let stacked = stacked();
    let Some(scene) = document().query_selector(".fable-scene:not([hidden]) .scene").ok().flatten() else { return };
    let height = window.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
    let r = scene.get_bounding_client_rect();
    if stacked && (r.top() < 0.0 || r.bottom() > height) {
        scroll_to(&scene, web_sys::ScrollLogicalPosition::Start);
    }
}

/// Whether the page stands in one column (a phone, a tablet upright): the step under the stage,
/// the diagram and the side panel under the step.
fn stacked() -> bool {
    crate::ui::window()
        .and_then(|w| w.match_media("(max-width: 999px) and (orientation: portrait)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Brings the first element `selector` finds into view inside the lesson panel, where the panel
/// scrolls by itself beside the scene (a witness's answer under its button, below the fold of a
/// 1280 × 720 screen). Not on a page in one column: there the player, which has just taken the
/// focus, is what the learner watches.
pub(crate) fn show_in_panel(selector: &str) {
    if stacked() {
        return;
    }
    if let Some(el) = document().query_selector(selector).ok().flatten() {
        scroll_to(&el, web_sys::ScrollLogicalPosition::Nearest);
    }
}

/// Scrolls `el` into view (and its scrolling panel, if any), placed at `block`.
fn scroll_to(el: &web_sys::Element, block: web_sys::ScrollLogicalPosition) {
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(block);
    el.scroll_into_view_with_scroll_into_view_options(&options);
}

/// Watches the run on every frame and tells the lesson what it means: the run left (or
/// rejoined) the lesson's path, reached the awaited trace entry, or went back before it.
fn watch(app: AppState) {
    super::effect(move || {
        app.snapshot.track();
        let seen = app.tutor.get(|t| {
            let start = t.path()?;
            let on_path = app.on_path(&start.scenario, &start.interventions);
            t.observe(RunView { on_path, trace_len: app.trace_len() })
        });
        if let Some(input) = seen {
            untrack(|| send(app, input));
        }
    });
    // The learner set the run playing (a question open then is left unanswered).
    Effect::new(move |was: Option<bool>| {
        let playing = app.playing.get();
        if playing && was == Some(false) {
            untrack(|| send(app, Input::Played));
        }
        playing
    });
    // Presenter mode and the language, as they change.
    super::effect(move || {
        let on = app.presenter.get();
        untrack(|| send(app, Input::Presenter(on)));
    });
    super::effect(move || {
        let lang = app.lang.get();
        untrack(|| send(app, Input::Lang(lang)));
    });
}

/// What the live region should say of the lesson now (see [`Tour::announcement`]).
pub(crate) fn announcement(app: AppState, lang: Lang) -> Option<(String, String)> {
    app.tutor.get(|t| t.announcement(lang))
}

/// Keeps the keyboard's place when the panel is redrawn: a focus that fell to the page (its
/// control was redrawn away) goes to the step's title, or to the reveal button while the
/// audience question is up; an open dialog (the audience question, the shortcuts list) makes
/// the page behind it inert, so Tab stays inside.
pub(crate) fn keep_focus(app: AppState) {
    // What is pointed at comes into view when it is off the screen (a panel below the fold, the
    // scene under the lesson on a phone). Not while the step plays its run on a page in one
    // column: there the stage is what the learner watches, and it stays in view (see
    // `show_stage_when_stacked`); the page is not scrolled away from it and back.
    Effect::new(move |first: Option<()>| {
        let pointed = app.pointed.with(|p| !p.is_empty());
        if first.is_some() && pointed {
            request_animation_frame(move || {
                if stacked() && app.tutor.0.with_untracked(|t| t.phase() == Phase::Playing) {
                    return;
                }
                let doc = document();
                let Some(el) = doc
                    .query_selector(
                        ".fable-scene:not([hidden]) .pointer, .spacetime .pointer-ring, [data-highlight=\"true\"]",
                    )
                    .ok()
                    .flatten()
                else {
                    return;
                };
                let r = el.get_bounding_client_rect();
                let height =
                    crate::ui::window().and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64()).unwrap_or(0.0);
                if r.bottom() < 0.0 || r.top() > height {
                    scroll_to(&el, web_sys::ScrollLogicalPosition::Center);
                }
            });
        }
    });
    // The dialogs and the redrawn panel tell the focus's one owner; it makes the page behind a
    // dialog inert and finds a lost focus again (see `focus`).
    super::effect(move || {
        let counting = app.tutor.0.with(|t| t.phase() == Phase::Counting);
        super::focus::dialogs(app.anchors, app.help.get(), counting);
    });
}

/// The step's title: where the focus goes when the control that had it is gone with its part of
/// the panel.
const STEP_TITLE: &str = ".lesson:not([hidden]) .step-title";

/// Asks that the focus stay on the control `control` finds once the panel has followed a click
/// (or go to the step's title when that control is gone); see [`super::focus::keep`].
fn keep(control: &str) {
    super::focus::keep(&[control, STEP_TITLE]);
}

/// An `aria-*` state: `"true"` or `"false"`.
fn aria_state(on: bool) -> &'static str {
    if on {
        "true"
    } else {
        "false"
    }
}

/// Text from a lesson file, in the page's language as it changes.
fn said_in(app: AppState, text: Localized) -> impl Fn() -> String + Send + Sync + 'static {
    move || pick(&text, app.lang.get())
}

/// Whether a step's question takes an answer in `phase` (its choices are not `aria-disabled`).
fn answerable(phase: Phase) -> bool {
    matches!(phase, Phase::Asking | Phase::Counting)
}

/// The step panel as `view!`, shown while a lesson is followed: a notice (a lesson that could
/// not open, a step link beyond the lesson), then the lesson itself ([`LessonShown`]).
fn panel_view(app: AppState) -> AnyView {
    watch(app);
    let notice = Memo::new(move |_| app.tutor.0.with(|t| t.notice.clone()));
    // The lesson followed, while its step is one of its own; the same lesson (the same `Arc`)
    // keeps its drawing, and a lesson opened again is drawn afresh.
    let lesson = Memo::new_with_compare(
        move |_| app.tutor.0.with(|t| t.lesson().filter(|l| t.step() < l.steps.len()).cloned()),
        |was, now| match (was, now) {
            (Some(was), Some(now)) => was.as_ref().map(Arc::as_ptr) != now.as_ref().map(Arc::as_ptr),
            _ => true,
        },
    );
    let hidden = move || app.tutor.0.with(|t| t.lesson().is_none() && t.notice.is_none());
    // For the style sheet: once a prediction is revealed the whole panel scrolls. An attribute
    // rather than a `:has(.reveal)` selector: that one made the browser check every change of
    // the page against it (the log's rows at 64×: a frame took four times as long at CPU 4×).
    let revealed = Memo::new(move |_| app.tutor.0.with(Tour::revealed));
    view! {
        <section
            class="lesson"
            data-testid="lesson"
            data-revealed=move || revealed.get().then_some("true")
            aria-labelledby="lesson-title"
            hidden=hidden
        >
            {move || {
                notice
                    .get()
                    .map(|n| view! { <p class="lesson-notice" data-testid="lesson-notice" role="status">{n}</p> })
            }}
            {move || lesson.get().map(|lesson| view! { <LessonShown app lesson /> })}
        </section>
    }
    .into_any()
}

/// A lesson in the panel, as `view!`: its head (title, progress, the leave button), the step
/// shown ([`StepShown`]), back and next ([`StepNav`]) and the table of contents ([`Contents`]).
/// Drawn once for the lesson: a new step draws only the step's own part again, so the head, the
/// nav and the contents keep their controls (and the keyboard's focus on them).
#[component]
fn LessonShown(app: AppState, lesson: Arc<Lesson>) -> impl IntoView {
    let step = Memo::new(move |_| app.tutor.0.with(Tour::step));
    let phase = Memo::new(move |_| app.tutor.0.with(Tour::phase));
    let steps = lesson.steps.len();
    let progress = move || {
        let (k, n) = ((step.get() + 1).to_string(), steps.to_string());
        fill(Ui::LessonProgress.text(app.lang.get()), &[("k", &k), ("n", &n)])
    };
    let shown = lesson.clone();
    let step_shown = move || {
        let i = step.get();
        shown.steps.get(i).is_some().then(|| view! { <StepShown app lesson=shown.clone() i phase /> })
    };
    view! {
        <div class="lesson-head">
            <h2 id="lesson-title" data-testid="lesson-title">
                {said_in(app, lesson.title.clone())}
            </h2>
            <span class="lesson-progress" data-testid="lesson-progress">
                {progress}
            </span>
            <button
                class="lesson-leave"
                data-testid="lesson-leave"
                on:click=move |_| {
                    super::act::perform(app, Action::Lesson(Input::Leave));
                    keep(".lesson .lesson-leave");
                }
            >
                {tr(app, Later::LessonLeave)}
            </button>
        </div>
        {step_shown}
        <StepNav app steps step phase />
        <Contents app lesson step />
    }
}

/// What a step playing its run says under its narration.
#[derive(Clone, Copy, PartialEq)]
enum Waiting {
    /// The learner changed the run: it left the lesson's path (with a button back to it).
    OffPath,
    /// The run the step's witness question found is on screen, off the lesson's path (with the
    /// same button back).
    WitnessRun,
    /// Paused by the learner (a step back, the Pause button), with a button to play.
    Paused,
    /// The run plays on to the step's moment.
    Watching,
}

/// Step `i` of `lesson`, as `view!`: its title (where the focus goes as a step begins), its
/// narration, its question ([`Question`]), what the run is doing, the metaphor table
/// ([`Metaphors`]) and, at the last step, that the lesson is done. Drawn for each step shown.
#[component]
fn StepShown(app: AppState, lesson: Arc<Lesson>, i: usize, phase: Memo<Phase>) -> impl IntoView {
    let step = &lesson.steps[i];
    let (asks, last) = (step.ask.is_some(), i + 1 == lesson.steps.len());
    let text = step.text.clone();
    // Live numbers: the narration's own component; the run they are of is the step's scenario.
    let live = (!step.live.is_empty())
        .then(|| app.tutor.0.with_untracked(|t| t.current().map(|(_, planned)| planned.start.scenario.clone())))
        .flatten()
        .map(|scenario| (step.live.clone(), scenario));
    let narration = move || match live.clone() {
        Some((bounds, scenario)) => {
            view! { <super::live::LiveNarration app text=text.clone() bounds scenario /> }.into_any()
        }
        None => {
            paragraphs(&pick(&text, app.lang.get())).into_iter().map(|p| view! { <p>{p}</p> }).collect_view().into_any()
        }
    };
    // While a question is up (waiting for its answer, or answered while the run plays on), the
    // narration may scroll in a box of its own above it (`data-asks`, see `later.css`): a
    // keyboard reaches it too.
    let scrolls = move || (asks && matches!(phase.get(), Phase::Asking | Phase::Playing)).then_some("0");
    let lesson_id = lesson.id.clone();
    let waiting = Memo::new(move |_| {
        (phase.get() == Phase::Playing).then(|| {
            if app.tutor.0.with(Tour::off_path) {
                match super::ask::witness_run_on_screen(app, &lesson_id, i) {
                    true => Waiting::WitnessRun,
                    false => Waiting::OffPath,
                }
            } else if !app.playing.get() && !app.finished.get() {
                Waiting::Paused
            } else {
                Waiting::Watching
            }
        })
    });
    let waiting = move || {
        waiting.get().map(|w| match w {
            Waiting::OffPath | Waiting::WitnessRun => view! {
                <p class="lesson-off" data-testid="lesson-off-path" role="status">
                    {tr(app, if w == Waiting::WitnessRun { Later::LessonWitnessRun } else { Later::LessonOffPath })}
                    " "
                    <button
                        data-testid="lesson-back-to-path"
                        on:click=move |_| {
                            super::act::perform(app, Action::BackToPath);
                            keep(".lesson .lesson-off button");
                        }
                    >
                        {tr(app, Later::LessonBackToPath)}
                    </button>
                </p>
            }
            .into_any(),
            Waiting::Paused => view! {
                <p class="lesson-wait" data-testid="lesson-paused">
                    {tr(app, Later::LessonPaused)}
                    " "
                    <button
                        data-testid="lesson-play"
                        on:click=move |_| {
                            super::act::perform(app, Action::SetPlaying(true));
                            keep(".lesson .lesson-wait button");
                        }
                    >
                        {tr(app, Ui::Play)}
                    </button>
                </p>
            }
            .into_any(),
            Waiting::Watching => view! {
                <p class="lesson-wait" data-testid="lesson-wait">
                    {tr(app, Later::LessonWatching)}
                </p>
            }
            .into_any(),
        })
    };
    // Reached a step without a question that is not the last: Next, or it moves on by itself.
    let reached = Memo::new(move |_| {
        (phase.get() == Phase::Reached && !asks && !last).then(|| {
            if app.tutor.0.with(Tour::moving_on) {
                Later::LessonMovingOn
            } else {
                Later::LessonReachedNext
            }
        })
    });
    let reached = move || {
        reached.get().map(|hint| view! { <p class="lesson-wait" data-testid="lesson-reached">{tr(app, hint)}</p> })
    };
    let done = move || {
        (last && phase.get() != Phase::Playing).then(|| {
            view! { <p class="lesson-done" data-testid="lesson-done">{tr(app, Later::LessonDone)}</p> }
        })
    };
    // The witness question: after a question's reveal only (its words would give the answer
    // away before).
    let shown_witness = step.witness.clone();
    let lesson_id = lesson.id.clone();
    let revealed = Memo::new(move |_| !asks || phase.get() == Phase::Reached);
    let witness = move || {
        let w = shown_witness.clone()?;
        revealed.get().then(|| view! { <super::ask::WitnessAsk app lesson=lesson_id.clone() step=i witness=w /> })
    };
    view! {
        <div
            class="lesson-step"
            data-testid="lesson-step"
            data-step=(i + 1).to_string()
            data-phase=move || phase.get().code()
            data-asks=asks.then_some("")
        >
            <h3 class="step-title" tabindex="-1">
                {said_in(app, step.title.clone())}
            </h3>
            <div class="step-text" data-testid="step-text" tabindex=scrolls>
                {narration}
            </div>
            {step.ask.clone().map(|ask| view! { <Question app ask i phase /> })}
            {waiting}
            {reached}
            {witness}
            {step.metaphors.then(|| view! { <Metaphors app rows=lesson.metaphors.clone() /> })}
            {done}
        </div>
    }
}

/// Step `i`'s question, as `view!`: a cue while it waits (on a phone the question may lie under
/// the first screen: the cue sticks to the foot of the screen until the question scrolls up to
/// it), the question, its choices (each a button that answers; once revealed, marked right or
/// wrong, and in words which is right and which was the learner's) and the reveal.
#[component]
fn Question(app: AppState, ask: Ask, i: usize, phase: Memo<Phase>) -> impl IntoView {
    let revealed = move || phase.get() == Phase::Reached;
    let given = Memo::new(move |_| app.tutor.0.with(|t| t.answer(i)));
    let answer = ask.answer;
    let choices = ask
        .choices
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let (right, mine) = (k == answer, move || given.get() == Some(k));
            let mark = move || match (revealed(), right, mine()) {
                (true, true, _) => "right",
                (true, false, true) => "wrong",
                _ => "",
            };
            let control = format!(".lesson .choices > li:nth-child({}) > .choice", k + 1);
            // A closed question (`aria-disabled`) takes no answer.
            let on_click = move |_| {
                if answerable(phase.get_untracked()) {
                    super::act::perform(app, Action::Lesson(Input::Answer(k)));
                    keep(&control);
                }
            };
            // Once revealed, in words too (the marks' glyphs are not read out).
            let right_label = move || {
                (revealed() && right).then(|| {
                    view! {
                        " "
                        <span class="choice-label right" data-testid="answer-right">
                            <span aria-hidden="true">"✓ "</span>
                            {tr(app, Later::ChoiceRight)}
                        </span>
                    }
                })
            };
            let mine_label = move || {
                (revealed() && mine()).then(|| {
                    view! {
                        " "
                        <span class="choice-label" data-testid="answer-mine">
                            {tr(app, Later::ChoiceMine)}
                        </span>
                    }
                })
            };
            view! {
                <li>
                    <button
                        class="choice"
                        data-testid=format!("choice-{}", c.id)
                        data-mark=mark
                        aria-pressed=move || aria_state(mine())
                        aria-disabled=move || aria_state(!answerable(phase.get()))
                        on:click=on_click
                    >
                        <span class="choice-text">{said_in(app, c.text.clone())}</span>
                        {right_label}
                        {mine_label}
                    </button>
                </li>
            }
        })
        .collect_view();
    let verdict = Memo::new(move |_| {
        let lang = app.lang.get();
        app.tutor.0.with(|t| t.verdict(lang))
    });
    let right = move || match given.get() {
        Some(k) if k == answer => "true",
        Some(_) => "false",
        None => "none",
    };
    let happened = ask.choices.get(answer).map(|c| c.text.clone());
    let happened = move || {
        let lang = app.lang.get();
        let answer = happened.as_ref().map(|t| pick(t, lang)).unwrap_or_default();
        fill(Ui::WhatHappened.text(lang), &[("answer", &answer)])
    };
    let why = ask.why;
    // The reveal is what the room waits for: `Effect::ShowReveal` brings it into view (through
    // the tutor's node ref).
    let reveal = move || {
        verdict.get().map(|word| {
            view! {
                <div class="reveal" data-testid="reveal" data-right=right node_ref=app.tutor.3>
                    <p>
                        <strong>{word}</strong>
                        " "
                        {happened.clone()}
                    </p>
                    <p class="why">{said_in(app, why.clone())}</p>
                </div>
            }
        })
    };
    let cue = move || {
        (phase.get() == Phase::Asking).then(|| {
            view! {
                <a class="ask-cue" data-testid="ask-cue" href="#lesson-question">
                    {tr(app, Later::AskWaits)}
                    " "
                    <span aria-hidden="true">"↓"</span>
                </a>
            }
        })
    };
    view! {
        {cue}
        <div class="ask" data-testid="ask">
            <p class="question" id="lesson-question">
                {said_in(app, ask.question)}
            </p>
            <ul class="choices" aria-labelledby="lesson-question">
                {choices}
            </ul>
            {reveal}
        </div>
    }
}

/// The metaphor table, as `view!`: each row the fable's element (a button that points at it in
/// the scene, pressed while it alone is pointed at) and the concept it stands for.
#[component]
fn Metaphors(app: AppState, rows: Vec<Metaphor>) -> impl IntoView {
    let rows = rows
        .into_iter()
        .enumerate()
        .map(|(k, m)| {
            let element = m.element;
            let pressed = move || app.pointed.with(|p| p.len() == 1 && p[0] == element);
            let control = format!(".lesson .metaphors tbody > tr:nth-child({}) .metaphor-row", k + 1);
            view! {
                <tr>
                    <td>
                        <button
                            class="metaphor-row"
                            data-testid=format!("metaphor-{k}")
                            aria-pressed=move || aria_state(pressed())
                            on:click=move |_| {
                                super::act::perform(app, Action::Lesson(Input::Point(k)));
                                keep(&control);
                            }
                        >
                            {said_in(app, m.story)}
                        </button>
                    </td>
                    <td>{said_in(app, m.concept)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="metaphors" data-testid="metaphors">
            <thead>
                <tr>
                    <th scope="col">{tr(app, Later::MetaphorStory)}</th>
                    <th scope="col">{tr(app, Later::MetaphorConcept)}</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// Back and next, as `view!`: `aria-disabled` (and doing nothing) at the first step, and for
/// Next at the last one or while the audience thinks.
#[component]
fn StepNav(app: AppState, steps: usize, step: Memo<usize>, phase: Memo<Phase>) -> impl IntoView {
    let can_back = Memo::new(move |_| step.get() > 0);
    let can_next = Memo::new(move |_| step.get() + 1 < steps && phase.get() != Phase::Counting);
    view! {
        <nav class="lesson-nav" aria-label=tr(app, Later::LessonNav)>
            <button
                data-testid="lesson-back"
                aria-disabled=move || aria_state(!can_back.get())
                on:click=move |_| {
                    if can_back.get_untracked() {
                        super::act::perform(app, Action::Lesson(Input::Back));
                        keep(".lesson .lesson-nav > button:not(.primary)");
                    }
                }
            >
                {tr(app, Later::LessonBack)}
            </button>
            <button
                class="primary"
                data-testid="lesson-next"
                aria-disabled=move || aria_state(!can_next.get())
                on:click=move |_| {
                    if can_next.get_untracked() {
                        super::act::perform(app, Action::Lesson(Input::Next));
                        keep(".lesson .lesson-nav > .primary");
                    }
                }
            >
                {tr(app, Later::LessonNext)}
            </button>
        </nav>
    }
}

/// The lesson's table of contents, as `view!`: a disclosure (open as [`AppState::contents`]
/// says) listing every step, a link to its address (the page goes to the step itself rather
/// than following it), the step shown marked current and each step reached ticked.
#[component]
fn Contents(app: AppState, lesson: Arc<Lesson>, step: Memo<usize>) -> impl IntoView {
    let furthest = Memo::new(move |_| app.tutor.0.with(Tour::furthest));
    let entries = lesson
        .steps
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let id = lesson.id.clone();
            // Only while the contents are open: a step chosen closes them, and a link hidden in
            // them cannot keep the focus (the step's title takes it).
            let control = format!(".lesson .toc[open] li:nth-child({}) > a", k + 1);
            view! {
                <li>
                    <a
                        href=move || tour::step_query(&id, k, app.lang.get())
                        data-testid=format!("toc-{}", k + 1)
                        aria-current=move || (step.get() == k).then_some("step")
                        on:click=move |ev: leptos::ev::MouseEvent| {
                            ev.prevent_default();
                            super::act::perform(app, Action::Lesson(Input::Go(k)));
                            keep(&control);
                        }
                    >
                        {move || (k <= furthest.get()).then_some("✓ ")}
                        {said_in(app, s.title.clone())}
                    </a>
                </li>
            }
        })
        .collect_view();
    view! {
        <details class="toc" data-testid="toc" open=move || app.contents.get()>
            // Opened and closed by the page (the contents close behind a step chosen), not by
            // the browser.
            <summary
                data-testid="toc-toggle"
                on:click=move |ev: leptos::ev::MouseEvent| {
                    ev.prevent_default();
                    super::act::perform(app, Action::Contents);
                    keep(".lesson .toc > summary");
                }
            >
                {tr(app, Later::LessonContents)}
            </summary>
            <ol>{entries}</ol>
        </details>
    }
}

/// The audience count-down's words: seconds left, or that time is up.
fn audience_count(left: u32, lang: Lang) -> String {
    if left > 0 {
        fill(Later::AudienceCount.text(lang), &[("s", &left.to_string())])
    } else {
        Later::AudienceTimeUp.text(lang).to_owned()
    }
}

/// The step panel, shown while a lesson is followed (or a lesson's error, if it could not open),
/// once the lessons' code and the later parts' style sheet are there.
#[component]
pub fn LessonPanel(app: AppState) -> impl IntoView {
    move || app.tutor.2.get().filter(|_| app.later.styled(app)).map(|runtime| (runtime.panel)(app))
}

/// The audience question over the page (presenter mode), once the lessons' code and the later
/// parts' style sheet are there.
#[component]
pub fn AudienceLayer(app: AppState) -> impl IntoView {
    move || app.tutor.2.get().filter(|_| app.later.styled(app)).map(|runtime| (runtime.audience)(app))
}

/// The audience layer as `view!`, a layer of the page itself: while the audience question is up
/// ([`Audience`]) the rest of the page is inert ([`keep_focus`]).
fn audience_view(app: AppState) -> AnyView {
    // The question of the step shown, while the audience thinks about it.
    let asked = Memo::new(move |_| {
        app.tutor
            .0
            .with(|t| (t.phase() == Phase::Counting).then(|| t.current().and_then(|(s, _)| s.ask.clone())).flatten())
    });
    view! {
        <div class="audience-layer">
            {move || asked.get().map(|ask| view! { <Audience app ask /> })}
        </div>
    }
    .into_any()
}

/// The audience question (presenter mode), as `view!`: the step's question big over the page,
/// its choices (lettered buttons that answer), the count-down and the reveal button. The
/// count-down changes its words alone, so the reveal button under a presenter's pointer stays.
#[component]
fn Audience(app: AppState, ask: Ask) -> impl IntoView {
    let given = Memo::new(move |_| app.tutor.0.with(|t| t.answer(t.step())));
    let choices = ask
        .choices
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let control = format!(".audience-choices > li:nth-child({}) > .choice", k + 1);
            view! {
                <li>
                    <button
                        class="choice"
                        data-testid=format!("audience-choice-{}", c.id)
                        aria-pressed=move || aria_state(given.get() == Some(k))
                        on:click=move |_| {
                            super::act::perform(app, Action::Lesson(Input::Answer(k)));
                            keep(&control);
                        }
                    >
                        <span class="letter">{char::from(b'A' + (k as u8).min(25)).to_string()}</span>
                        " "
                        {said_in(app, c.text.clone())}
                    </button>
                </li>
            }
        })
        .collect_view();
    let count = move || audience_count(app.tutor.0.with(Tour::countdown), app.lang.get());
    view! {
        <div
            class="audience"
            data-testid="audience"
            role="dialog"
            aria-modal="true"
            aria-labelledby="audience-question"
        >
            <p class="audience-question" id="audience-question">
                {said_in(app, ask.question)}
            </p>
            <ol class="audience-choices">{choices}</ol>
            <p class="audience-count" data-testid="audience-count">
                {count}
            </p>
            <button
                class="primary reveal-button"
                data-testid="audience-reveal"
                node_ref=app.anchors.audience_reveal
                aria-keyshortcuts="K"
                on:click=move |_| {
                    super::act::perform(app, Action::Lesson(Input::Reveal));
                    keep(".audience .reveal-button");
                }
            >
                {tr(app, Later::AudienceReveal)}
            </button>
        </div>
    }
}

/// Narration as paragraphs: a blank line (or a line break) starts a new one.
fn paragraphs(text: &str) -> Vec<String> {
    text.split('\n').map(str::trim).filter(|p| !p.is_empty()).map(str::to_owned).collect()
}

/// Where an element is in a scene (view-box units): its ring (x, y, width, height) and where its
/// label starts (`None`: no label, e.g. a flag-bearer, whose name is already under him). A label
/// beside the ring is joined to it by a short line.
pub(crate) use crate::draw::Place;

/// Where a scene finds a lesson's element ([`Place`]), if it shows it.
pub(crate) type PlaceFn = fn(&crate::story::picture::Picture, &Element) -> Option<Place>;

/// A scene's pointing overlay ([`pointers_view`]), once the lessons' code is there: only a
/// lesson points, so the first scene goes without it.
pub(crate) fn pointers(app: AppState, scene: &'static str, place: PlaceFn) -> impl IntoView {
    move || app.tutor.2.get().filter(|_| app.later.styled(app)).map(|runtime| (runtime.pointers)(app, scene, place))
}

/// `text` escaped for HTML (the pointers' markup).
fn esc(text: &str) -> String {
    crate::story::technical::escape_html(text)
}

/// A scene's pointing overlay: around each element pointed at that `place` finds in this scene,
/// a dashed ring and the field's term for it (a shape and a word, not a colour alone).
fn pointers_view(app: AppState, scene: &'static str, place: PlaceFn) -> AnyView {
    let markup = move || {
        let lang = app.lang.get();
        let mut out = String::new();
        app.pointed.with(|pointed| {
            for e in pointed {
                let Some(((x, y, w, h), label)) = app.picture.with_untracked(|p| place(p, e)) else { continue };
                let c = super::coord;
                out.push_str(&format!(
                    r#"<g class="pointer" data-element="{}"><rect x="{}" y="{}" width="{}" height="{}" rx="14" class="pointer-ring"/>"#,
                    esc(&e.code()),
                    c(x),
                    c(y),
                    c(w),
                    c(h),
                ));
                if let (Some((lx, ly)), Some(term)) = (label, concept_label(e)) {
                    if lx > x + w {
                        out.push_str(&format!(r#"<line x1="{}" y1="{}" x2="{}" y2="{}" class="pointer-line"/>"#, c(x + w), c(y + h / 2.0), c(lx - 6.0), c(ly - 7.0)));
                    }
                    out.push_str(&format!(r#"<text x="{}" y="{}" class="pointer-label">{}</text>"#, c(lx), c(ly), esc(term.text(lang))));
                }
                out.push_str("</g>");
            }
        });
        out
    };
    // Off the words once drawn, and again each time the scene is redrawn under them (the words
    // move while the run plays): at most once a frame, each ring starting again from its place.
    let pending = StoredValue::new(false);
    super::effect(move || {
        app.lang.track();
        app.fable.track();
        app.picture.track();
        app.floor.track();
        if app.pointed.with(Vec::is_empty) || pending.get_value() {
            return;
        }
        pending.set_value(true);
        request_animation_frame(move || {
            pending.set_value(false);
            let Some(group) = document().query_selector(&format!("[data-testid={scene}] .pointers")).ok().flatten()
            else {
                return;
            };
            let rings: Vec<Place> = app
                .picture
                .with_untracked(|pic| app.pointed.with_untracked(|p| p.iter().filter_map(|e| place(pic, e)).collect()));
            fit_pointers(&group, &rings);
        });
    });
    view! { <g class="pointers" data-testid="pointers" inner_html=markup></g> }.into_any()
}

/// A box in screen px: left, top, right, bottom.
type Px = (f64, f64, f64, f64);

fn px(el: &web_sys::Element) -> Px {
    let r = el.get_bounding_client_rect();
    (r.left(), r.top(), r.right(), r.bottom())
}

fn meets(a: Px, b: Px) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// `a` lies within `b`, clear of its edge by `m`.
fn within(a: Px, b: Px, m: f64) -> bool {
    a.0 >= b.0 + m && a.2 <= b.2 - m && a.1 >= b.1 + m && a.3 <= b.3 - m
}

/// Keeps a scene's pointers off the scene's own words: a ring (from where `rings` placed it)
/// whose outline would run through a label grows to take the label in, and a term written over a
/// label moves down (or up) until it is clear. Measured on the page after the scene is drawn, so
/// it holds whatever the words say and wherever they stand (a flag raised, a name on two lines).
fn fit_pointers(group: &web_sys::Element, rings: &[Place]) {
    use wasm_bindgen::JsCast;
    let Some(svg) = group.closest("svg").ok().flatten() else { return };
    let frame = px(&svg);
    let scale = (frame.2 - frame.0) / 1200.0;
    // Not drawn (hidden, or zero wide): nothing to measure.
    if scale.is_nan() || scale <= 0.0 {
        return;
    }
    let to_svg = |v: f64, origin: f64| (v - origin) / scale;
    let mut words: Vec<Px> = Vec::new();
    if let Ok(texts) = svg.query_selector_all("text") {
        for i in 0..texts.length() {
            let Some(t) = texts.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else { continue };
            if t.closest(".pointers").ok().flatten().is_some() || t.text_content().unwrap_or_default().trim().is_empty()
            {
                continue;
            }
            let b = px(&t);
            if b.2 > b.0 && b.3 > b.1 {
                words.push(b);
            }
        }
    }
    // Clear of the outline by more than its own width and a hair (3 px, as the test asks).
    let margin = 5.0;
    if let Ok(shown) = group.query_selector_all(".pointer-ring") {
        for (i, ((x, y, w, h), _)) in rings.iter().enumerate() {
            let Some(ring) = shown.item(i as u32).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else {
                continue;
            };
            let mut r =
                (frame.0 + x * scale, frame.1 + y * scale, frame.0 + (x + w) * scale, frame.1 + (y + h) * scale);
            // A few rounds: taking one word in may reach another.
            for _ in 0..4 {
                let crossed: Vec<Px> = words.iter().copied().filter(|w| meets(*w, r) && !within(*w, r, 3.0)).collect();
                if crossed.is_empty() {
                    break;
                }
                for w in crossed {
                    r = (r.0.min(w.0 - margin), r.1.min(w.1 - margin), r.2.max(w.2 + margin), r.3.max(w.3 + margin));
                }
            }
            let c = super::coord;
            let _ = ring.set_attribute("x", &c(to_svg(r.0, frame.0)));
            let _ = ring.set_attribute("y", &c(to_svg(r.1, frame.1)));
            let _ = ring.set_attribute("width", &c((r.2 - r.0) / scale));
            let _ = ring.set_attribute("height", &c((r.3 - r.1) / scale));
        }
    }
    if let Ok(labels) = group.query_selector_all(".pointer-label") {
        for i in 0..labels.length() {
            let Some(label) = labels.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else { continue };
            // Moved by a transform (its own y is left as written: nothing to read back).
            for dy in ["0", "28", "-28", "56", "-56", "84"] {
                let _ = label.set_attribute("transform", &format!("translate(0 {dy})"));
                let b = px(&label);
                if !words.iter().any(|w| meets(*w, b)) {
                    break;
                }
            }
            // Its line still meets it, at its middle.
            if let Some(line) = label.previous_element_sibling().filter(|l| l.class_list().contains("pointer-line")) {
                let b = px(&label);
                let _ = line.set_attribute("y2", &super::coord(to_svg((b.1 + b.3) / 2.0, frame.1)));
            }
        }
    }
}

/// The field's term for an element, written beside it in the scene (nodes and lanes have
/// their names already).
fn concept_label(e: &Element) -> Option<Later> {
    Some(match e {
        Element::Holder => Later::PointHolder,
        Element::Token => Later::PointToken,
        Element::Ttl => Later::PointTtl,
        Element::Renewals => Later::PointRenewals,
        Element::Store => Later::PointStore,
        Element::Clasp => Later::PointClasp,
        Element::Resource => Later::PointResource,
        Element::Outcome => Later::PointOutcome,
        Element::Shared => Later::PointShared,
        _ => return None,
    })
}
