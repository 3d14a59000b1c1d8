//! Guided lessons on the page (issue 5): the lesson picker, the step panel (narration, the
//! prediction and its reveal, back and next, the table of contents, the metaphor table) and the
//! audience question.
//!
//! What the lesson does is decided by its state machine, [`crate::story::tour::Tour`], plain Rust
//! tested natively: this module feeds it the learner's clicks, the timers it asked for and what
//! each frame shows of the run, and carries out the effects it returns (restoring a step's start,
//! the clock's stop, play and pause, pointing, timers, `localStorage`, the address, the focus).
//! It also draws the panel.
//!
//! The tutor's whole state is one signal and the panel is written as markup with one click
//! handler: each further signal type or component costs the page kilobytes (issue 4's budget).

use std::sync::Arc;

use leptos::prelude::*;

use crate::actions::Action;
use crate::scenario::lesson::{self, Element};
use crate::scenario::Localized;
use crate::story::fill;
use crate::story::i18n::Ui;
use crate::story::tour::{self, Focus, Input, Phase, RunView, Tour};
use crate::vocab::Lang;

use super::act::code as act;
use super::catalog;
use super::state::AppState;

/// The lesson being followed, kept in [`AppState::tutor`]: the state machine, the real time (ms)
/// at which the current step began (its reading time counts from there), and the lessons' code
/// once it has been fetched (see [`Runtime`]).
#[derive(Clone, Copy)]
pub struct Tutor(pub RwSignal<Tour>, StoredValue<f64>, RwSignal<Option<Runtime>>);

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
    /// The lessons' code: loaded on first use in the split build.
    fn runtime() -> Runtime = lesson_code;
}

fn lesson_code() -> Runtime {
    Runtime { send: send_now, open: open_now, panel: panel_view, audience: audience_view, pointers: pointers_view }
}

impl Tutor {
    pub fn new() -> Self {
        Self(RwSignal::new(Tour::default()), StoredValue::new(0.0), RwSignal::new(None))
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
    web_sys::window()?.local_storage().ok()?
}

/// Real time now, in ms.
fn real_now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
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
            if let Some(window) = web_sys::window() {
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
            // be laying out (or drawn again) after the first try, leaving the reveal below.
            for after_ms in [300, 1_200] {
                set_timeout(
                    || {
                        if let Some(el) = document().query_selector("[data-testid=\"reveal\"]").ok().flatten() {
                            scroll_to(&el, web_sys::ScrollLogicalPosition::Nearest);
                        }
                    },
                    std::time::Duration::from_millis(after_ms),
                );
            }
        }
        Do::Focus(Focus::Title) => super::focus::hand_to(&[".lesson:not([hidden]) .step-title"]),
        Do::Focus(Focus::Reveal) => super::focus::hand_to(&["[data-testid=audience-reveal]"]),
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
    let Some(window) = web_sys::window() else { return };
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
    web_sys::window()
        .and_then(|w| w.match_media("(max-width: 999px) and (orientation: portrait)").ok().flatten())
        .is_some_and(|m| m.matches())
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
                    web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64()).unwrap_or(0.0);
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
        super::focus::dialogs(app.help.get(), counting);
    });
}

/// `text` escaped for HTML.
fn esc(text: &str) -> String {
    crate::story::technical::escape_html(text)
}

/// The step panel's markup: the lesson's title and progress, the step (narration, question,
/// reveal, what the run is doing, the metaphor table), back and next, the table of contents.
/// Its buttons carry `data-act`, read by one click handler ([`act`]). Written as markup, not as
/// components: a third of the page's size for the same panel (issue 4's budget).
fn panel_html(app: AppState, lang: Lang) -> String {
    let tour = app.tutor.0.get();
    let mut out = match &tour.notice {
        Some(n) => format!(r#"<p class="lesson-notice" data-testid="lesson-notice" role="status">{}</p>"#, esc(n)),
        None => String::new(),
    };
    let Some(lesson) = tour.lesson().cloned() else { return out };
    let (i, phase, furthest) = (tour.step(), tour.phase(), tour.furthest());
    let Some(step) = lesson.steps.get(i) else { return out };
    let n = lesson.steps.len();
    let given = tour.answer(i);
    let text = |l: &Localized| esc(&pick(l, lang));
    let ui = |u: Ui| esc(u.text(lang));
    out.push_str(&format!(
        r#"<div class="lesson-head"><h2 id="lesson-title" data-testid="lesson-title">{}</h2><span class="lesson-progress" data-testid="lesson-progress">{}</span><button class="lesson-leave" data-testid="lesson-leave" data-act="{leave}">{}</button></div>"#,
        text(&lesson.title),
        esc(&fill(Ui::LessonProgress.text(lang), &[("k", &(i + 1).to_string()), ("n", &n.to_string())])),
        ui(Ui::LessonLeave),
        leave = act(Action::Lesson(Input::Leave)),
    ));
    out.push_str(&format!(
        r#"<div class="lesson-step" data-testid="lesson-step" data-step="{}" data-phase="{}"><h3 class="step-title" tabindex="-1">{}</h3><div class="step-text" data-testid="step-text"{}>{}</div>"#,
        i + 1,
        phase.code(),
        text(&step.title),
        // While a question waits, the narration may scroll in a box of its own above it (see
        // `later.css`): a keyboard reaches it too.
        if phase == Phase::Asking && step.ask.is_some() { r#" tabindex="0""# } else { "" },
        paragraphs(&pick(&step.text, lang)),
    ));
    if let Some(ask) = &step.ask {
        let open = matches!(phase, Phase::Asking | Phase::Counting);
        let revealed = phase == Phase::Reached;
        // On a phone the question may lie under the first screen: this line sticks to the foot of
        // the screen until the question scrolls up to it (the stylesheet shows it only there).
        // Not behind the audience's question, which is over the page.
        if phase == Phase::Asking {
            out.push_str(&format!(
                r##"<a class="ask-cue" data-testid="ask-cue" href="#lesson-question">{} <span aria-hidden="true">↓</span></a>"##,
                ui(Ui::AskWaits)
            ));
        }
        out.push_str(&format!(
            r#"<div class="ask" data-testid="ask"><p class="question" id="lesson-question">{}</p><ul class="choices" aria-labelledby="lesson-question">"#,
            text(&ask.question)
        ));
        for (k, c) in ask.choices.iter().enumerate() {
            let (right, mine) = (k == ask.answer, given == Some(k));
            let mark = match (revealed, right, mine) {
                (true, true, _) => "right",
                (true, false, true) => "wrong",
                _ => "",
            };
            // Once revealed, in words too (the marks' glyphs are not read out): which answer is
            // right, and which one was the learner's.
            let mut labels = String::new();
            if revealed && right {
                labels.push_str(&format!(
                    r#" <span class="choice-label right" data-testid="answer-right"><span aria-hidden="true">✓ </span>{}</span>"#,
                    ui(Ui::ChoiceRight)
                ));
            }
            if revealed && mine {
                labels.push_str(&format!(
                    r#" <span class="choice-label" data-testid="answer-mine">{}</span>"#,
                    ui(Ui::ChoiceMine)
                ));
            }
            out.push_str(&format!(
                r#"<li><button class="choice" data-testid="choice-{}" data-act="{answer}" data-mark="{mark}" aria-pressed="{mine}" aria-disabled="{}"><span class="choice-text">{}</span>{labels}</button></li>"#,
                esc(&c.id),
                !open,
                text(&c.text),
                answer = act(Action::Lesson(Input::Answer(k))),
            ));
        }
        out.push_str("</ul>");
        if let Some(word) = tour.verdict(lang) {
            let right = match given {
                Some(k) if k == ask.answer => "true",
                Some(_) => "false",
                None => "none",
            };
            let happened = ask.choices.get(ask.answer).map(|c| pick(&c.text, lang)).unwrap_or_default();
            out.push_str(&format!(
                r#"<div class="reveal" data-testid="reveal" data-right="{right}"><p><strong>{}</strong> {}</p><p class="why">{}</p></div>"#,
                esc(&word),
                esc(&fill(Ui::WhatHappened.text(lang), &[("answer", &happened)])),
                text(&ask.why),
            ));
        }
        out.push_str("</div>");
    }
    if phase == Phase::Playing {
        if tour.off_path() {
            out.push_str(&format!(
                r#"<p class="lesson-off" data-testid="lesson-off-path" role="status">{} <button data-testid="lesson-back-to-path" data-act="{path}">{}</button></p>"#,
                ui(Ui::LessonOffPath),
                ui(Ui::LessonBackToPath),
                path = act(Action::BackToPath),
            ));
        } else if !app.playing.get() && !app.finished.get() {
            // Paused by the learner (a step back, the Pause button): say so, and offer to play.
            out.push_str(&format!(
                r#"<p class="lesson-wait" data-testid="lesson-paused">{} <button data-testid="lesson-play" data-act="{play}">{}</button></p>"#,
                ui(Ui::LessonPaused),
                ui(Ui::Play),
                play = act(Action::SetPlaying(true)),
            ));
        } else {
            out.push_str(&format!(
                r#"<p class="lesson-wait" data-testid="lesson-wait">{}</p>"#,
                ui(Ui::LessonWatching)
            ));
        }
    }
    if phase == Phase::Reached && step.ask.is_none() && i + 1 < n {
        let hint = if tour.moving_on() { Ui::LessonMovingOn } else { Ui::LessonReachedNext };
        out.push_str(&format!(r#"<p class="lesson-wait" data-testid="lesson-reached">{}</p>"#, ui(hint)));
    }
    if step.metaphors {
        out.push_str(&format!(
            r#"<table class="metaphors" data-testid="metaphors"><thead><tr><th scope="col">{}</th><th scope="col">{}</th></tr></thead><tbody>"#,
            ui(Ui::MetaphorStory),
            ui(Ui::MetaphorConcept),
        ));
        let pointed = app.pointed.get();
        for (k, m) in lesson.metaphors.iter().enumerate() {
            let pressed = pointed.len() == 1 && pointed[0] == m.element;
            out.push_str(&format!(
                r#"<tr><td><button class="metaphor-row" data-testid="metaphor-{k}" data-act="{point}" aria-pressed="{pressed}">{}</button></td><td>{}</td></tr>"#,
                text(&m.story),
                text(&m.concept),
                point = act(Action::Lesson(Input::Point(k))),
            ));
        }
        out.push_str("</tbody></table>");
    }
    if i + 1 == n && phase != Phase::Playing {
        out.push_str(&format!(r#"<p class="lesson-done" data-testid="lesson-done">{}</p>"#, ui(Ui::LessonDone)));
    }
    out.push_str("</div>");
    let can_next = i + 1 < n && phase != Phase::Counting;
    out.push_str(&format!(
        r#"<nav class="lesson-nav" aria-label="{}"><button data-testid="lesson-back" data-act="{back}" aria-disabled="{}">{}</button><button class="primary" data-testid="lesson-next" data-act="{next}" aria-disabled="{}">{}</button></nav>"#,
        ui(Ui::LessonNav),
        i == 0,
        ui(Ui::LessonBack),
        !can_next,
        ui(Ui::LessonNext),
        back = act(Action::Lesson(Input::Back)),
        next = act(Action::Lesson(Input::Next)),
    ));
    out.push_str(&format!(
        r#"<details class="toc" data-testid="toc"{}><summary data-testid="toc-toggle" data-act="{}">{}</summary><ol>"#,
        if app.contents.get() { " open" } else { "" },
        act(Action::Contents),
        ui(Ui::LessonContents)
    ));
    for (k, s) in lesson.steps.iter().enumerate() {
        out.push_str(&format!(
            r#"<li><a href="{}" data-testid="toc-{}" data-act="{go}"{}>{}{}</a></li>"#,
            esc(&tour::step_query(&lesson.id, k, lang)),
            k + 1,
            if k == i { r#" aria-current="step""# } else { "" },
            if k <= furthest { "✓ " } else { "" },
            text(&s.title),
            go = act(Action::Lesson(Input::Go(k))),
        ));
    }
    out.push_str("</ol></details>");
    out
}

/// The audience question's markup (presenter mode): the step's question big over the page, its
/// choices and the count-down, until the presenter reveals.
fn audience_html(app: AppState, lang: Lang) -> String {
    let tour = app.tutor.0.get();
    if tour.phase() != Phase::Counting {
        return String::new();
    }
    let Some(ask) = tour.current().and_then(|(s, _)| s.ask.as_ref()) else { return String::new() };
    let given = tour.answer(tour.step());
    let mut out = format!(
        r#"<div class="audience" data-testid="audience" role="dialog" aria-modal="true" aria-labelledby="audience-question"><p class="audience-question" id="audience-question">{}</p><ol class="audience-choices">"#,
        esc(&pick(&ask.question, lang))
    );
    for (k, c) in ask.choices.iter().enumerate() {
        out.push_str(&format!(
            r#"<li><button class="choice" data-testid="audience-choice-{}" data-act="{answer}" aria-pressed="{}"><span class="letter">{}</span> {}</button></li>"#,
            esc(&c.id),
            given == Some(k),
            char::from(b'A' + (k as u8).min(25)),
            esc(&pick(&c.text, lang)),
            answer = act(Action::Lesson(Input::Answer(k))),
        ));
    }
    // The count is written by `AudienceLayer` on its own: the markup stays the same while it ticks,
    // so the reveal button under a presenter's pointer is not replaced each second.
    out.push_str(&format!(
        r#"</ol><p class="audience-count" data-testid="audience-count"></p><button class="primary reveal-button" data-testid="audience-reveal" data-act="{reveal}" aria-keyshortcuts="K">{}</button></div>"#,
        esc(Ui::AudienceReveal.text(lang)),
        reveal = act(Action::Lesson(Input::Reveal)),
    ));
    out
}

/// The audience count-down's words: seconds left, or that time is up.
fn audience_count(left: u32, lang: Lang) -> String {
    if left > 0 {
        fill(Ui::AudienceCount.text(lang), &[("s", &left.to_string())])
    } else {
        Ui::AudienceTimeUp.text(lang).to_owned()
    }
}

/// One click handler for every `data-act` inside the element clicked; the focus goes back to the
/// same control once the markup is redrawn (or to the step's title when it is gone).
fn on_act(app: AppState) -> impl Fn(leptos::ev::MouseEvent) + 'static {
    move |ev| {
        use wasm_bindgen::JsCast;
        let Some(target) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let Some(el) = target.closest("[data-act]").ok().flatten() else { return };
        let Some(what) = el.get_attribute("data-act") else { return };
        ev.prevent_default();
        if el.get_attribute("aria-disabled").as_deref() == Some("true") {
            return;
        }
        super::act::perform_code(app, &what);
        super::focus::keep(&[&format!("[data-act=\"{what}\"]"), ".lesson .step-title"]);
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

fn panel_view(app: AppState) -> AnyView {
    watch(app);
    // A memo: the markup is set again only when it changes, not each time the tour is touched (a
    // redrawn button would slip from under a click or the focus).
    let panel = Memo::new(move |_| panel_html(app, app.lang.get()));
    view! {
        <section class="lesson" data-testid="lesson" aria-labelledby="lesson-title" hidden=move || app.tutor.0.with(|t| t.lesson().is_none() && t.notice.is_none()) on:click=on_act(app) inner_html=panel></section>
    }
    .into_any()
}

/// The audience question over the page (presenter mode), a layer of the page itself: while it is
/// up the rest of the page is inert ([`keep_focus`]).
fn audience_view(app: AppState) -> AnyView {
    let audience = Memo::new(move |_| audience_html(app, app.lang.get()));
    let count = Memo::new(move |_| audience_count(app.tutor.0.with(Tour::countdown), app.lang.get()));
    // Runs after the markup is set (effects follow the render), so a redrawn question gets its count too.
    super::effect(move || {
        audience.track();
        let words = count.get();
        let Some(el) = document().query_selector("[data-testid=audience-count]").ok().flatten() else {
            return;
        };
        el.set_text_content(Some(&words));
    });
    view! { <div class="audience-layer" on:click=on_act(app) inner_html=audience></div> }.into_any()
}

/// Narration as paragraphs: a blank line (or a line break) starts a new one.
fn paragraphs(text: &str) -> String {
    text.split('\n').map(str::trim).filter(|p| !p.is_empty()).map(|p| format!("<p>{}</p>", esc(p))).collect()
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
fn concept_label(e: &Element) -> Option<Ui> {
    Some(match e {
        Element::Holder => Ui::PointHolder,
        Element::Token => Ui::PointToken,
        Element::Ttl => Ui::PointTtl,
        Element::Renewals => Ui::PointRenewals,
        Element::Store => Ui::PointStore,
        Element::Clasp => Ui::PointClasp,
        Element::Resource => Ui::PointResource,
        Element::Outcome => Ui::PointOutcome,
        Element::Shared => Ui::PointShared,
        _ => return None,
    })
}
