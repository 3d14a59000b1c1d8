//! Guided lessons on the page (issue 5): the lesson picker, the step panel (narration, the
//! prediction and its reveal, back and next, the table of contents, the metaphor table) and the
//! audience question.
//!
//! A lesson's steps are played on the engine once, when it opens ([`lesson::plan`]): every step's
//! start is known exactly, so going back, a step link (`?lesson=ID&step=N`) and a reload all
//! restore it with [`AppState::restore`]. While a step waits for its event the clock stops at the
//! planned moment, and the step ends when the run, still on the lesson's path, has reached the
//! awaited trace entry. A learner who changes the run leaves the path: the lesson then waits, and
//! says so. Progress (the step, the furthest step, the answers) is kept in `localStorage`.
//!
//! The tutor's whole state is one signal and the panel is written as markup with one click
//! handler: each further signal type or component costs the page kilobytes (issue 4's budget).

use std::sync::Arc;

use leptos::prelude::*;

use crate::scenario::lesson::{self, decode_progress, encode_progress, Element, Lesson, PlannedStep};
use crate::scenario::{library, Localized};
use crate::story::i18n::Ui;
use crate::story::{fill, Lang};

use super::state::AppState;
use super::{catalog, tr};

/// Where a step stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// The question is shown; the run waits for the answer.
    Asking,
    /// The audience question, big, counting down.
    Counting,
    /// The run plays on to the awaited event.
    Playing,
    /// The awaited event happened (for a question: the answer is revealed); Next moves on.
    Reached,
    /// A step without an awaited event: the learner moves on.
    #[default]
    Free,
}

/// The lesson being followed and where the learner is in it.
#[derive(Clone, Default)]
pub struct Tour {
    pub lesson: Option<Arc<Lesson>>,
    /// Every step's exact start and awaited moment ([`lesson::plan`]).
    plan: Arc<Vec<PlannedStep>>,
    /// The step shown, from 0.
    pub step: usize,
    pub phase: Phase,
    /// The learner's answer to each step's question (an index into its choices).
    pub answers: Vec<Option<usize>>,
    /// The furthest step reached, from 0.
    pub furthest: usize,
    /// Seconds left of the audience question's count-down.
    pub countdown: u32,
    /// Why the lesson could not be opened, or what a step link asked for that does not exist.
    pub notice: Option<String>,
    /// Counts step entries, so an old step's timers (count-down, moving on) stop when another
    /// step begins.
    ticket: u32,
    /// The step was entered by the lesson's own flow (Next, or the step before moving on): it may
    /// move on by itself. A step entered by Back, the contents or a link waits for Next.
    flow: bool,
    /// The step has reached its event and will move on by itself once it has been read.
    moving_on: bool,
}

impl Tour {
    /// The step shown and its plan.
    fn current(&self) -> Option<(&lesson::Step, &PlannedStep)> {
        let lesson = self.lesson.as_ref()?;
        Some((lesson.steps.get(self.step)?, self.plan.get(self.step)?))
    }

    fn steps(&self) -> usize {
        self.lesson.as_ref().map_or(0, |l| l.steps.len())
    }
}

/// The lesson being followed, kept in [`AppState::tutor`].
#[derive(Clone, Copy)]
pub struct Tutor(pub RwSignal<Tour>);

impl Tutor {
    pub fn new() -> Self {
        Self(RwSignal::new(Tour::default()))
    }

    /// Whether a lesson is being followed.
    pub fn active(&self) -> bool {
        self.0.with(|t| t.lesson.is_some())
    }

    fn get<R>(&self, f: impl FnOnce(&Tour) -> R) -> R {
        self.0.with_untracked(f)
    }

    fn set(&self, f: impl FnOnce(&mut Tour)) {
        self.0.update(f);
    }
}

impl Default for Tutor {
    fn default() -> Self {
        Self::new()
    }
}

/// Text from a lesson file in `lang`.
fn pick(text: &Localized, lang: Lang) -> String {
    match lang {
        Lang::En => text.en.clone(),
        Lang::Zh => text.zh.clone(),
    }
}

/// Where progress is kept: one entry per lesson.
fn progress_key(id: &str) -> String {
    format!("leaselab.lesson.{id}")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn save_progress(app: AppState) {
    let kept = app
        .tutor
        .get(|t| t.lesson.as_ref().map(|l| (progress_key(&l.id), encode_progress(t.step, t.furthest, &t.answers))));
    if let (Some((key, text)), Some(s)) = (kept, storage()) {
        let _ = s.set_item(&key, &text);
    }
}

/// The address of step `step` (from 0) of lesson `id` in `lang`, relative to the page.
fn step_href(id: &str, step: usize, lang: Lang) -> String {
    format!("?lesson={id}&step={}&lang={}", step + 1, lang.code())
}

/// The address bar follows the lesson, so a reload or a copied address comes back to this step.
fn follow_address(app: AppState) {
    let lang = app.lang.get_untracked();
    let query = app.tutor.get(|t| match &t.lesson {
        Some(l) => step_href(&l.id, t.step, lang),
        None => format!("?lang={}", lang.code()),
    });
    if let Some(window) = web_sys::window() {
        let path = window.location().pathname().unwrap_or_default();
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{query}")));
        }
    }
}

/// Opens built-in lesson `id`: fetches it and its scenarios, plays it on the engine, then shows
/// step `step` (from 0; `None`: where the learner left off, else the first).
pub fn open(app: AppState, id: String, step: Option<usize>) {
    wasm_bindgen_futures::spawn_local(async move {
        let lang = app.lang.get_untracked();
        let opened = async {
            let lesson = catalog::lesson(&id).await?;
            for s in lesson.steps.iter().filter_map(|s| s.scenario.as_deref()) {
                catalog::load(s).await;
            }
            let plan = lesson::plan(&lesson, catalog::get).map_err(|e| e.to_string())?;
            Ok::<_, String>((lesson, plan))
        };
        match opened.await {
            Ok((lesson, plan)) => {
                let n = lesson.steps.len();
                let kept = storage()
                    .and_then(|s| s.get_item(&progress_key(&lesson.id)).ok().flatten())
                    .and_then(|text| decode_progress(&text, n));
                let (kept_step, furthest, answers) = kept.unwrap_or((0, 0, vec![None; n]));
                let mut notice = None;
                let first = match step {
                    Some(k) if k < n => k,
                    Some(k) => {
                        notice = Some(fill(
                            Ui::LessonNoSuchStep.text(lang),
                            &[("step", &(k + 1).to_string()), ("n", &n.to_string())],
                        ));
                        n - 1
                    }
                    None => kept_step,
                };
                app.tutor.set(|t| {
                    *t = Tour {
                        lesson: Some(Arc::new(lesson)),
                        plan: Arc::new(plan),
                        answers,
                        furthest,
                        notice,
                        ticket: t.ticket.wrapping_add(1),
                        ..Tour::default()
                    }
                });
                go(app, first);
            }
            Err(error) => {
                app.tutor.set(|t| t.notice = Some(fill(Ui::LessonCannotOpen.text(lang), &[("error", &error)])))
            }
        }
    });
}

/// Leaves the lesson: the run stays as it is, a sandbox again.
pub fn leave(app: AppState) {
    app.tutor.set(|t| *t = Tour { ticket: t.ticket.wrapping_add(1), ..Tour::default() });
    app.pointed.set(Vec::new());
    app.set_stop_at(None);
    follow_address(app);
}

/// Shows step `i` (from 0, capped at the last): its start restored exactly, then asked, played
/// or left to the learner. A step shown this way (Back, the contents, a link, going back to the
/// path) waits for Next once its event has happened.
pub fn go(app: AppState, i: usize) {
    go_with(app, i, false);
}

/// [`go`], `flow`: entered by the lesson's own flow, so it may move on by itself.
fn go_with(app: AppState, i: usize, flow: bool) {
    let found = app.tutor.get(|t| {
        let lesson = t.lesson.clone()?;
        let i = i.min(lesson.steps.len().saturating_sub(1));
        let planned = t.plan.get(i)?.clone();
        Some((lesson, i, planned, t.answers.get(i).copied().flatten().is_some()))
    });
    let Some((lesson, i, planned, answered)) = found else { return };
    let Some(step) = lesson.steps.get(i) else { return };
    let Some(Ok(scenario)) = catalog::get(&planned.start.scenario) else { return };
    app.playing.set(false);
    app.set_stop_at(None);
    if app.restore(scenario, &planned.start.interventions, planned.start.at_ms).is_err() {
        return;
    }
    if let Some(fable) = lesson.fable {
        app.choose_fable(fable);
    }
    if let Some(k) = step.speed_log2 {
        app.speed_log2.set(k);
    }
    // A question points only once it is answered: the pointing would give the answer away.
    app.pointed.set(if step.ask.is_some() { Vec::new() } else { step.point.clone() });
    let countdown = step.ask.as_ref().filter(|_| !answered).and_then(|a| a.countdown_s);
    app.tutor.set(|t| {
        // Reached in order (a link far ahead does not tick the steps before it as seen).
        if i <= t.furthest + 1 {
            t.furthest = t.furthest.max(i);
        }
        t.step = i;
        t.flow = flow;
        t.moving_on = false;
        t.ticket = t.ticket.wrapping_add(1);
        t.countdown = countdown.unwrap_or(0);
        t.phase = match (&step.ask, &step.until) {
            (Some(_), _) if !answered => {
                if countdown.is_some() {
                    Phase::Counting
                } else {
                    Phase::Asking
                }
            }
            _ => Phase::Free,
        };
    });
    if countdown.is_some() {
        count_down(app);
    } else if app.tutor.get(|t| t.phase == Phase::Free) {
        play(app);
    }
    save_progress(app);
    follow_address(app);
}

/// Plays the step on to its awaited moment (a step without one waits for the learner).
fn play(app: AppState) {
    let until = app.tutor.get(|t| t.current().and_then(|(_, p)| p.until));
    if let Some((at_ms, _)) = until {
        app.tutor.set(|t| t.phase = Phase::Playing);
        app.set_stop_at(Some(at_ms));
        app.playing.set(true);
    } else {
        app.tutor.set(|t| t.phase = Phase::Free);
    }
}

/// The audience question's count-down: one second at a time, then the presenter may reveal.
fn count_down(app: AppState) {
    let ticket = app.tutor.get(|t| t.ticket);
    fn tick(app: AppState, ticket: u32) {
        set_timeout(
            move || {
                let going = app.tutor.get(|t| t.ticket == ticket && t.phase == Phase::Counting && t.countdown > 0);
                if going {
                    app.tutor.set(|t| t.countdown -= 1);
                    tick(app, ticket);
                }
            },
            std::time::Duration::from_secs(1),
        );
    }
    tick(app, ticket);
}

/// The answer to the step's question, choice `k`: while asking, the run then shows what happens;
/// during the audience's count-down it is only noted (the presenter reveals).
pub fn answer(app: AppState, k: usize) {
    let asking = app.tutor.get(|t| t.phase == Phase::Asking);
    let open = app.tutor.get(|t| matches!(t.phase, Phase::Asking | Phase::Counting));
    if !open {
        return;
    }
    app.tutor.set(|t| {
        let i = t.step;
        if let Some(slot) = t.answers.get_mut(i) {
            *slot = Some(k);
        }
    });
    save_progress(app);
    if asking {
        play(app);
    }
}

/// Ends the audience question's count-down (the presenter reveals): the run shows what happens.
pub fn reveal(app: AppState) {
    if app.tutor.get(|t| t.phase == Phase::Counting) {
        play(app);
    }
}

/// The next step, or nothing at the last (or while the audience is still thinking).
pub fn next(app: AppState) {
    let (i, n, counting) = app.tutor.get(|t| (t.step, t.steps(), t.phase == Phase::Counting));
    if i + 1 < n && !counting {
        go_with(app, i + 1, true);
    }
}

/// The previous step, or nothing at the first.
pub fn back(app: AppState) {
    let (i, active) = app.tutor.get(|t| (t.step, t.lesson.is_some()));
    if active && i > 0 {
        go(app, i - 1);
    }
}

/// Whether the run is on the current step's path (the lesson's scenario and interventions).
fn on_path(app: AppState) -> bool {
    app.tutor.get(|t| t.current().is_some_and(|(_, p)| app.on_path(&p.start.scenario, &p.start.interventions)))
}

/// How long a step's narration takes to read, in real ms: about 240 words a minute (Chinese:
/// 500 characters), at least 4 s and at most 18 s. A step that moves on by itself stays at least
/// this long.
fn reading_ms(text: &str) -> u64 {
    let wide = text.chars().filter(|c| u32::from(*c) >= 0x2E80).count() as u64;
    let words = text.split_whitespace().count() as u64;
    (words * 250 + wide * 120).clamp(4_000, 18_000)
}

/// Scrolls `el` into view (and its scrolling panel, if any), placed at `block`.
fn scroll_to(el: &web_sys::Element, block: web_sys::ScrollLogicalPosition) {
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(block);
    el.scroll_into_view_with_scroll_into_view_options(&options);
}

/// Real time now, in ms.
fn real_now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Watches the run while a step plays: once it has reached the awaited trace entry on the
/// lesson's path, the run pauses there and the step ends. It moves on by itself only when it was
/// entered by the lesson's flow, does not hold or ask, and has been on screen long enough to be
/// read; otherwise it waits for Next. A run the learner changed plays on freely.
fn watch(app: AppState) {
    let entered = StoredValue::new((u32::MAX, 0.0f64));
    Effect::new(move |_| {
        app.snapshot.track();
        // Read on every frame: only what the check needs (the pointing and the reading time are
        // taken once the moment is reached).
        let due = app.tutor.get(|t| {
            let (step, planned) = t.current()?;
            let (at_ms, seq) = planned.until?;
            let stays = step.ask.is_some() || step.hold || !t.flow || t.step + 1 >= t.steps();
            matches!(t.phase, Phase::Playing | Phase::Reached).then_some((at_ms, seq, stays, t.step, t.ticket, t.phase))
        });
        let Some((at_ms, seq, stays, i, ticket, phase)) = due else { return };
        if phase == Phase::Reached {
            // Stepped or scrubbed back before the awaited moment, still on the path: the step is
            // not over, it plays to that moment again (and moves on only from there).
            if on_path(app) && app.trace_len() as u64 <= seq {
                app.tutor.set(|t| {
                    t.phase = Phase::Playing;
                    t.moving_on = false;
                });
                app.set_stop_at(Some(at_ms));
            }
            return;
        }
        if entered.get_value().0 != ticket {
            entered.set_value((ticket, real_now()));
        }
        if !on_path(app) {
            // Off the lesson's path: the learner's own run is not held at the lesson's moment.
            app.set_stop_at(None);
            return;
        }
        // Deterministic: on the path, the entry at `seq` is the awaited one.
        if app.trace_len() as u64 <= seq {
            return;
        }
        app.playing.set(false);
        app.set_stop_at(None);
        let lang = app.lang.get_untracked();
        let (point, reading) = app
            .tutor
            .get(|t| {
                t.current().map(|(step, _)| {
                    (step.point.clone(), reading_ms(if lang == Lang::Zh { &step.text.zh } else { &step.text.en }))
                })
            })
            .unwrap_or_default();
        app.tutor.set(|t| t.phase = Phase::Reached);
        app.pointed.set(point);
        // The answer and its reason are what the room waits for: bring them into view (inside
        // the panel when it scrolls, as little as needed), once the panel has been redrawn and
        // the pointing has scrolled the scene.
        set_timeout(
            || {
                if let Some(el) = document().query_selector("[data-testid=\"reveal\"]").ok().flatten() {
                    scroll_to(&el, web_sys::ScrollLogicalPosition::Nearest);
                }
            },
            std::time::Duration::from_millis(300),
        );
        if stays {
            return;
        }
        let left = (entered.get_value().1 + reading as f64 - real_now()).max(0.0);
        app.tutor.set(|t| t.moving_on = true);
        set_timeout(
            move || {
                let still = app.tutor.get(|t| t.ticket == ticket && t.phase == Phase::Reached && t.moving_on);
                if still {
                    go_with(app, i + 1, true);
                }
            },
            std::time::Duration::from_millis(left as u64),
        );
    });
}

/// What the live region should say of the lesson now, with a key that changes when it is
/// something new: a step's number and title when it begins, the verdict and the reason when a
/// prediction is revealed.
pub(crate) fn announcement(app: AppState, lang: Lang) -> Option<(String, String)> {
    app.tutor.get(|t| {
        let lesson = t.lesson.as_ref()?;
        let step = lesson.steps.get(t.step)?;
        let revealed = t.phase == Phase::Reached && step.ask.is_some();
        let key = format!("{}:{}:{revealed}", lesson.id, t.ticket);
        let text = match (&step.ask, revealed) {
            (Some(ask), true) => {
                let verdict = match t.answers.get(t.step).copied().flatten() {
                    Some(k) if k == ask.answer => Ui::PredictionRight.text(lang).to_owned(),
                    Some(k) => fill(
                        Ui::PredictionWrong.text(lang),
                        &[("choice", &ask.choices.get(k).map(|c| pick(&c.text, lang)).unwrap_or_default())],
                    ),
                    None => Ui::PredictionNone.text(lang).to_owned(),
                };
                let happened = ask.choices.get(ask.answer).map(|c| pick(&c.text, lang)).unwrap_or_default();
                format!(
                    "{verdict} {} {}",
                    fill(Ui::WhatHappened.text(lang), &[("answer", &happened)]),
                    pick(&ask.why, lang)
                )
            }
            _ => format!(
                "{}: {}",
                fill(
                    Ui::LessonProgress.text(lang),
                    &[("k", &(t.step + 1).to_string()), ("n", &lesson.steps.len().to_string())]
                ),
                pick(&step.title, lang)
            ),
        };
        Some((key, text))
    })
}

/// Keeps the keyboard's place when the panel is redrawn: a focus that fell to the page (its
/// control was redrawn away) goes to the step's title; an open dialog (the audience question,
/// the shortcuts list) takes the focus and the page behind it is inert, so Tab stays inside.
fn keep_focus(app: AppState) {
    // A language switch inside a lesson: the address (and so a reload or a copied link) follows.
    Effect::new(move |first: Option<()>| {
        app.lang.track();
        if first.is_some() && app.tutor.get(|t| t.lesson.is_some()) {
            follow_address(app);
        }
    });
    // What is pointed at comes into view when it is off the screen (a panel below the fold, the
    // scene under the lesson on a phone).
    Effect::new(move |first: Option<()>| {
        let pointed = app.pointed.with(|p| !p.is_empty());
        if first.is_some() && pointed {
            request_animation_frame(|| {
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
    Effect::new(move |_| {
        let counting = app.tutor.0.with(|t| t.phase == Phase::Counting);
        let dialog = counting || app.help.get();
        app.tutor.0.track();
        request_animation_frame(move || {
            use wasm_bindgen::JsCast;
            let doc = document();
            if let Some(page) = doc.query_selector(".page").ok().flatten() {
                let children = page.children();
                for k in 0..children.length() {
                    let Some(child) = children.item(k) else { continue };
                    let layer =
                        child.class_list().contains("help-layer") || child.class_list().contains("audience-layer");
                    if dialog && !layer {
                        let _ = child.set_attribute("inert", "");
                    } else {
                        let _ = child.remove_attribute("inert");
                    }
                }
            }
            let target = if counting {
                doc.query_selector("[data-testid=audience-reveal]").ok().flatten()
            } else {
                let lost = doc.active_element().is_none_or(|a| a.tag_name() == "BODY");
                if lost {
                    doc.query_selector(".lesson:not([hidden]) .step-title").ok().flatten()
                } else {
                    None
                }
            };
            if let Some(el) = target.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
                let _ = el.focus();
            }
        });
    });
}

/// The lesson picker in the page's header: the built-in lessons, or none (the sandbox).
#[component]
pub fn LessonPicker(app: AppState) -> impl IntoView {
    let on_change = move |ev| {
        let id = event_target_value(&ev);
        if id.is_empty() {
            leave(app);
        } else {
            open(app, id, None);
        }
    };
    let options = move || {
        let lang = app.lang.get();
        let current = app.tutor.0.with(|t| t.lesson.as_ref().map(|l| l.id.clone())).unwrap_or_default();
        let mut out = format!(
            r#"<option value=""{}>{}</option>"#,
            if current.is_empty() { " selected" } else { "" },
            esc(Ui::NoLesson.text(lang))
        );
        for b in library::lessons::MENU {
            out.push_str(&format!(
                r#"<option value="{}"{}>{}</option>"#,
                b.id,
                if current == b.id { " selected" } else { "" },
                esc(lang.pick([b.title_en, b.title_zh]))
            ));
        }
        out
    };
    view! {
        <label class="lesson-picker">
            <span>{tr(app, Ui::Lessons)}</span>
            <select data-testid="lesson-picker" on:change=on_change inner_html=options></select>
        </label>
    }
}

/// `text` escaped for HTML.
fn esc(text: &str) -> String {
    crate::story::technical::escape_html(text)
}

/// `data-phase` of the step panel, for tests and styles.
fn phase_code(phase: Phase) -> &'static str {
    match phase {
        Phase::Asking => "asking",
        Phase::Counting => "counting",
        Phase::Playing => "playing",
        Phase::Reached => "reached",
        Phase::Free => "free",
    }
}

/// The step panel's markup: the lesson's title and progress, the step (narration, question,
/// reveal, what the run is doing, the metaphor table), back and next, the table of contents.
/// Its buttons carry `data-act`, read by one click handler ([`act`]). Written as markup, not as
/// components: a third of the page's size for the same panel (issue 4's budget).
fn panel_html(app: AppState, lang: Lang, on_path: bool) -> String {
    let tour = app.tutor.0.get();
    let mut out = match &tour.notice {
        Some(n) => format!(r#"<p class="lesson-notice" data-testid="lesson-notice" role="status">{}</p>"#, esc(n)),
        None => String::new(),
    };
    let Some(lesson) = tour.lesson.clone() else { return out };
    let (i, phase, furthest) = (tour.step, tour.phase, tour.furthest);
    let Some(step) = lesson.steps.get(i) else { return out };
    let n = lesson.steps.len();
    let given = tour.answers.get(i).copied().flatten();
    let text = |l: &Localized| esc(&pick(l, lang));
    let ui = |u: Ui| esc(u.text(lang));
    out.push_str(&format!(
        r#"<div class="lesson-head"><h2 id="lesson-title" data-testid="lesson-title">{}</h2><span class="lesson-progress" data-testid="lesson-progress">{}</span><button class="lesson-leave" data-testid="lesson-leave" data-act="leave">{}</button></div>"#,
        text(&lesson.title),
        esc(&fill(Ui::LessonProgress.text(lang), &[("k", &(i + 1).to_string()), ("n", &n.to_string())])),
        ui(Ui::LessonLeave),
    ));
    out.push_str(&format!(
        r#"<div class="lesson-step" data-testid="lesson-step" data-step="{}" data-phase="{}"><h3 class="step-title" tabindex="-1">{}</h3><div class="step-text" data-testid="step-text">{}</div>"#,
        i + 1,
        phase_code(phase),
        text(&step.title),
        paragraphs(&pick(&step.text, lang)),
    ));
    if let Some(ask) = &step.ask {
        let open = matches!(phase, Phase::Asking | Phase::Counting);
        out.push_str(&format!(
            r#"<div class="ask" data-testid="ask"><p class="question" id="lesson-question">{}</p><ul class="choices" aria-labelledby="lesson-question">"#,
            text(&ask.question)
        ));
        for (k, c) in ask.choices.iter().enumerate() {
            let mark = match (phase, given == Some(k), k == ask.answer) {
                (Phase::Reached, _, true) => "right",
                (Phase::Reached, true, false) => "wrong",
                _ => "",
            };
            out.push_str(&format!(
                r#"<li><button class="choice" data-testid="choice-{}" data-act="answer:{k}" data-mark="{mark}" aria-pressed="{}" aria-disabled="{}">{}</button></li>"#,
                esc(&c.id),
                given == Some(k),
                !open,
                text(&c.text),
            ));
        }
        out.push_str("</ul>");
        if phase == Phase::Reached {
            let (word, right) = match given {
                Some(k) if k == ask.answer => (Ui::PredictionRight.text(lang).to_owned(), "true"),
                Some(k) => (
                    fill(
                        Ui::PredictionWrong.text(lang),
                        &[("choice", &ask.choices.get(k).map(|c| pick(&c.text, lang)).unwrap_or_default())],
                    ),
                    "false",
                ),
                None => (Ui::PredictionNone.text(lang).to_owned(), "none"),
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
        if on_path && !app.playing.get() && !app.finished.get() {
            // Paused by the learner (a step back, the Pause button): say so, and offer to play.
            out.push_str(&format!(
                r#"<p class="lesson-wait" data-testid="lesson-paused">{} <button data-testid="lesson-play" data-act="play">{}</button></p>"#,
                ui(Ui::LessonPaused),
                ui(Ui::Play),
            ));
        } else if on_path {
            out.push_str(&format!(
                r#"<p class="lesson-wait" data-testid="lesson-wait">{}</p>"#,
                ui(Ui::LessonWatching)
            ));
        } else {
            out.push_str(&format!(
                r#"<p class="lesson-off" data-testid="lesson-off-path" role="status">{} <button data-testid="lesson-back-to-path" data-act="path">{}</button></p>"#,
                ui(Ui::LessonOffPath),
                ui(Ui::LessonBackToPath),
            ));
        }
    }
    if phase == Phase::Reached && step.ask.is_none() && i + 1 < n {
        let hint = if tour.moving_on { Ui::LessonMovingOn } else { Ui::LessonReachedNext };
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
                r#"<tr><td><button class="metaphor-row" data-testid="metaphor-{k}" data-act="point:{k}" aria-pressed="{pressed}">{}</button></td><td>{}</td></tr>"#,
                text(&m.story),
                text(&m.concept),
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
        r#"<nav class="lesson-nav" aria-label="{}"><button data-testid="lesson-back" data-act="back" aria-disabled="{}">{}</button><button class="primary" data-testid="lesson-next" data-act="next" aria-disabled="{}">{}</button></nav>"#,
        ui(Ui::LessonNav),
        i == 0,
        ui(Ui::LessonBack),
        !can_next,
        ui(Ui::LessonNext),
    ));
    out.push_str(&format!(
        r#"<details class="toc" data-testid="toc"><summary>{}</summary><ol>"#,
        ui(Ui::LessonContents)
    ));
    for (k, s) in lesson.steps.iter().enumerate() {
        out.push_str(&format!(
            r#"<li><a href="{}" data-testid="toc-{}" data-act="go:{k}"{}>{}{}</a></li>"#,
            esc(&step_href(&lesson.id, k, lang)),
            k + 1,
            if k == i { r#" aria-current="step""# } else { "" },
            if k <= furthest { "✓ " } else { "" },
            text(&s.title),
        ));
    }
    out.push_str("</ol></details>");
    out
}

/// The audience question's markup: the step's question big over the page, its choices and the
/// count-down, until the presenter reveals.
fn audience_html(app: AppState, lang: Lang) -> String {
    let tour = app.tutor.0.get();
    if tour.phase != Phase::Counting {
        return String::new();
    }
    let Some(ask) = tour.current().and_then(|(s, _)| s.ask.as_ref()) else { return String::new() };
    let given = tour.answers.get(tour.step).copied().flatten();
    let mut out = format!(
        r#"<div class="audience" data-testid="audience" role="dialog" aria-modal="true" aria-labelledby="audience-question"><p class="audience-question" id="audience-question">{}</p><ol class="audience-choices">"#,
        esc(&pick(&ask.question, lang))
    );
    for (k, c) in ask.choices.iter().enumerate() {
        out.push_str(&format!(
            r#"<li><button class="choice" data-testid="audience-choice-{}" data-act="answer:{k}" aria-pressed="{}"><span class="letter">{}</span> {}</button></li>"#,
            esc(&c.id),
            given == Some(k),
            char::from(b'A' + (k as u8).min(25)),
            esc(&pick(&c.text, lang)),
        ));
    }
    let left = tour.countdown;
    let count = if left > 0 {
        fill(Ui::AudienceCount.text(lang), &[("s", &left.to_string())])
    } else {
        Ui::AudienceTimeUp.text(lang).to_owned()
    };
    out.push_str(&format!(
        r#"</ol><p class="audience-count" data-testid="audience-count">{}</p><button class="primary reveal-button" data-testid="audience-reveal" data-act="reveal">{}</button></div>"#,
        esc(&count),
        esc(Ui::AudienceReveal.text(lang)),
    ));
    out
}

/// Carries out a `data-act` of the panel or the audience question.
fn act(app: AppState, what: &str) {
    let (name, arg) = what.split_once(':').unwrap_or((what, ""));
    let k: Option<usize> = arg.parse().ok();
    match (name, k) {
        ("leave", _) => leave(app),
        ("back", _) => back(app),
        ("next", _) => next(app),
        ("path", _) => go(app, app.tutor.get(|t| t.step)),
        ("play", _) => app.playing.set(true),
        ("go", Some(k)) => go(app, k),
        ("reveal", _) => reveal(app),
        ("answer", Some(k)) => answer(app, k),
        ("point", Some(k)) => {
            let element =
                app.tutor.get(|t| t.lesson.as_ref().and_then(|l| l.metaphors.get(k).map(|m| m.element.clone())));
            if let Some(e) = element {
                app.pointed.set(vec![e]);
            }
        }
        _ => {}
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
        act(app, &what);
        request_animation_frame(move || {
            let doc = document();
            let again = doc.query_selector(&format!("[data-act=\"{what}\"]")).ok().flatten();
            let fallback = || doc.query_selector(".lesson .step-title").ok().flatten();
            if let Some(el) = again.or_else(fallback).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
                let _ = el.focus();
            }
        });
    }
}

/// The step panel, shown while a lesson is followed (or a lesson's error, if it could not open),
/// and the audience question over the page.
#[component]
pub fn LessonPanel(app: AppState) -> impl IntoView {
    watch(app);
    keep_focus(app);
    // Recomputed on every frame, but it changes only when the learner leaves or rejoins the path.
    let path = Memo::new(move |_| {
        app.snapshot.track();
        app.tutor.0.track();
        on_path(app)
    });
    let panel = move || panel_html(app, app.lang.get(), path.get());
    let audience = move || audience_html(app, app.lang.get());
    view! {
        <section class="lesson" data-testid="lesson" aria-labelledby="lesson-title" hidden=move || app.tutor.0.with(|t| t.lesson.is_none() && t.notice.is_none()) on:click=on_act(app) inner_html=panel></section>
        <div class="audience-layer" on:click=on_act(app) inner_html=audience></div>
    }
}

/// Narration as paragraphs: a blank line (or a line break) starts a new one.
fn paragraphs(text: &str) -> String {
    text.split('\n').map(str::trim).filter(|p| !p.is_empty()).map(|p| format!("<p>{}</p>", esc(p))).collect()
}

/// Where an element is in a scene (view-box units): its ring (x, y, width, height) and where its
/// label starts (`None`: no label, e.g. a flag-bearer, whose name is already under him). A label
/// beside the ring is joined to it by a short line.
pub(crate) type Place = ((f64, f64, f64, f64), Option<(f64, f64)>);

/// A scene's pointing overlay: around each element pointed at that `place` finds in this scene,
/// a dashed ring and the field's term for it (a shape and a word, not a colour alone).
pub(crate) fn pointers(
    app: AppState,
    place: &'static (dyn Fn(AppState, &Element) -> Option<Place> + Send + Sync),
) -> impl IntoView {
    let markup = move || {
        let lang = app.lang.get();
        let mut out = String::new();
        app.pointed.with(|pointed| {
            for e in pointed {
                let Some(((x, y, w, h), label)) = place(app, e) else { continue };
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
    view! { <g class="pointers" data-testid="pointers" inner_html=markup></g> }
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
