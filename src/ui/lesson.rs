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

use std::sync::Arc;

use leptos::prelude::*;

use crate::scenario::lesson::{self, decode_progress, encode_progress, Element, Lesson, PlannedStep};
use crate::scenario::{library, Localized};
use crate::story::i18n::Ui;
use crate::story::{fill, Lang};

use super::state::AppState;
use super::{catalog, tr};

/// Where a step stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    Free,
}

/// The lesson being followed: all `Copy` handles, kept in [`AppState::tutor`].
#[derive(Clone, Copy)]
pub struct Tutor {
    pub lesson: RwSignal<Option<Arc<Lesson>>>,
    plan: StoredValue<Arc<Vec<PlannedStep>>>,
    /// The step shown, from 0.
    pub step: RwSignal<usize>,
    pub phase: RwSignal<Phase>,
    /// The learner's answer to each step's question (an index into its choices).
    pub answers: RwSignal<Vec<Option<usize>>>,
    /// The furthest step reached, from 0.
    pub furthest: RwSignal<usize>,
    /// Seconds left of the audience question's count-down.
    pub countdown: RwSignal<u32>,
    /// Why the lesson could not be opened, or what a step link asked for that does not exist.
    pub notice: RwSignal<Option<String>>,
    /// Counts count-downs, so an old one's timer stops when another step begins.
    ticket: StoredValue<u32>,
}

impl Tutor {
    pub fn new() -> Self {
        Self {
            lesson: RwSignal::new(None),
            plan: StoredValue::new(Arc::new(Vec::new())),
            step: RwSignal::new(0),
            phase: RwSignal::new(Phase::Free),
            answers: RwSignal::new(Vec::new()),
            furthest: RwSignal::new(0),
            countdown: RwSignal::new(0),
            notice: RwSignal::new(None),
            ticket: StoredValue::new(0),
        }
    }

    /// Whether a lesson is being followed.
    pub fn active(&self) -> bool {
        self.lesson.with(Option::is_some)
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
    let t = app.tutor;
    let Some(id) = t.lesson.with_untracked(|l| l.as_ref().map(|l| l.id.clone())) else { return };
    let text = t.answers.with_untracked(|a| encode_progress(t.step.get_untracked(), t.furthest.get_untracked(), a));
    if let Some(s) = storage() {
        let _ = s.set_item(&progress_key(&id), &text);
    }
}

/// The address of step `step` (from 0) of lesson `id` in `lang`, relative to the page.
fn step_href(id: &str, step: usize, lang: Lang) -> String {
    format!("?lesson={id}&step={}&lang={}", step + 1, lang.code())
}

/// The address bar follows the lesson, so a reload or a copied address comes back to this step.
fn follow_address(app: AppState) {
    let t = app.tutor;
    let query = match t.lesson.with_untracked(|l| l.as_ref().map(|l| l.id.clone())) {
        Some(id) => step_href(&id, t.step.get_untracked(), app.lang.get_untracked()),
        None => format!("?lang={}", app.lang.get_untracked().code()),
    };
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
        let t = app.tutor;
        let lang = app.lang.get_untracked();
        let opened = async {
            let lesson = catalog::lesson(&id).await?;
            for s in lesson.steps.iter().filter_map(|s| s.scenario.as_deref()) {
                catalog::load(s).await;
            }
            let plan = lesson::plan(&lesson, |s| catalog::get(s)).map_err(|e| e.to_string())?;
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
                t.plan.set_value(Arc::new(plan));
                t.answers.set(answers);
                t.furthest.set(furthest);
                t.lesson.set(Some(Arc::new(lesson)));
                t.notice.set(notice);
                go(app, first);
            }
            Err(error) => t.notice.set(Some(fill(Ui::LessonCannotOpen.text(lang), &[("error", &error)]))),
        }
    });
}

/// Leaves the lesson: the run stays as it is, a sandbox again.
pub fn leave(app: AppState) {
    let t = app.tutor;
    t.lesson.set(None);
    t.notice.set(None);
    t.ticket.update_value(|k| *k = k.wrapping_add(1));
    app.pointed.set(Vec::new());
    app.set_stop_at(None);
    follow_address(app);
}

/// Shows step `i` (from 0, capped at the last): its start restored exactly, then asked, played
/// or left to the learner.
pub fn go(app: AppState, i: usize) {
    let t = app.tutor;
    let Some(lesson) = t.lesson.get_untracked() else { return };
    let plan = t.plan.get_value();
    let i = i.min(lesson.steps.len().saturating_sub(1));
    let (Some(step), Some(planned)) = (lesson.steps.get(i), plan.get(i)) else { return };
    let Some(Ok(scenario)) = catalog::get(&planned.start.scenario) else { return };
    t.ticket.update_value(|k| *k = k.wrapping_add(1));
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
    t.step.set(i);
    if t.furthest.get_untracked() < i {
        t.furthest.set(i);
    }
    // A question points only once it is answered: the pointing would give the answer away.
    let answered = t.answers.with_untracked(|a| a.get(i).copied().flatten().is_some());
    app.pointed.set(if step.ask.is_some() { Vec::new() } else { step.point.clone() });
    match (&step.ask, &step.until) {
        (Some(ask), _) if !answered => {
            if let Some(seconds) = ask.countdown_s {
                count_down(app, seconds);
            } else {
                t.phase.set(Phase::Asking);
            }
        }
        (_, Some(_)) => play(app),
        (_, None) => t.phase.set(Phase::Free),
    }
    save_progress(app);
    follow_address(app);
}

/// Plays the step on to its awaited moment.
fn play(app: AppState) {
    let t = app.tutor;
    let until = t.plan.with_value(|p| p.get(t.step.get_untracked()).and_then(|s| s.until));
    match until {
        Some((at_ms, _)) => {
            t.phase.set(Phase::Playing);
            app.set_stop_at(Some(at_ms));
            app.playing.set(true);
        }
        None => t.phase.set(Phase::Free),
    }
}

/// The audience question: `seconds` to think, one a second, then the presenter may reveal.
fn count_down(app: AppState, seconds: u32) {
    let t = app.tutor;
    t.phase.set(Phase::Counting);
    t.countdown.set(seconds);
    let ticket = t.ticket.get_value();
    fn tick(app: AppState, ticket: u32) {
        let t = app.tutor;
        set_timeout(
            move || {
                if t.ticket.get_value() != ticket || t.phase.get_untracked() != Phase::Counting {
                    return;
                }
                let left = t.countdown.get_untracked().saturating_sub(1);
                t.countdown.set(left);
                if left > 0 {
                    tick(app, ticket);
                }
            },
            std::time::Duration::from_secs(1),
        );
    }
    tick(app, ticket);
}

/// The learner's answer to the step's question: choice `k`; the run then shows what happens.
pub fn answer(app: AppState, k: usize) {
    let t = app.tutor;
    let i = t.step.get_untracked();
    t.answers.update(|a| {
        if let Some(slot) = a.get_mut(i) {
            *slot = Some(k);
        }
    });
    save_progress(app);
    if matches!(t.phase.get_untracked(), Phase::Asking) {
        play(app);
    }
}

/// Ends the audience question's count-down (the presenter reveals): the run shows what happens.
pub fn reveal(app: AppState) {
    if app.tutor.phase.get_untracked() == Phase::Counting {
        play(app);
    }
}

/// The next step, or nothing at the last.
pub fn next(app: AppState) {
    let t = app.tutor;
    let n = t.lesson.with_untracked(|l| l.as_ref().map_or(0, |l| l.steps.len()));
    let i = t.step.get_untracked();
    if i + 1 < n {
        go(app, i + 1);
    }
}

/// The previous step, or nothing at the first.
pub fn back(app: AppState) {
    let i = app.tutor.step.get_untracked();
    if i > 0 {
        go(app, i - 1);
    }
}

/// Whether the run is on the current step's path (the lesson's scenario and interventions).
fn on_path(app: AppState) -> bool {
    let t = app.tutor;
    t.plan.with_value(|p| p.get(t.step.get_untracked()).is_some_and(|s| app.on_path(&s.start.scenario, &s.start.interventions)))
}

/// Watches the run while a step plays: once it has reached the awaited trace entry on the
/// lesson's path, the run pauses there and the step ends (the lesson moves on by itself unless
/// the step holds or asks).
fn watch(app: AppState) {
    Effect::new(move |_| {
        app.snapshot.track();
        let t = app.tutor;
        if t.phase.get_untracked() != Phase::Playing || !on_path(app) {
            return;
        }
        let i = t.step.get_untracked();
        let Some((_, seq)) = t.plan.with_value(|p| p.get(i).and_then(|s| s.until)) else { return };
        // Deterministic: on the path, the entry at `seq` is the awaited one.
        if app.trace_len() as u64 <= seq {
            return;
        }
        app.playing.set(false);
        app.set_stop_at(None);
        let Some(lesson) = t.lesson.get_untracked() else { return };
        let Some(step) = lesson.steps.get(i) else { return };
        if step.ask.is_some() || step.hold || i + 1 >= lesson.steps.len() {
            t.phase.set(Phase::Reached);
            app.pointed.set(step.point.clone());
        } else {
            go(app, i + 1);
        }
    });
}

/// The lesson picker in the page's header: the built-in lessons, or none (the sandbox).
#[component]
pub fn LessonPicker(app: AppState) -> impl IntoView {
    let t = app.tutor;
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
        let current = t.lesson.with(|l| l.as_ref().map(|l| l.id.clone()));
        library::lessons::MENU
            .iter()
            .map(|b| {
                let selected = current.as_deref() == Some(b.id);
                let title = lang.pick([b.title_en, b.title_zh]);
                view! { <option value=b.id selected=selected>{title}</option> }
            })
            .collect::<Vec<_>>()
    };
    view! {
        <label class="lesson-picker">
            <span>{tr(app, Ui::Lessons)}</span>
            <select data-testid="lesson-picker" on:change=on_change prop:value=move || t.lesson.with(|l| l.as_ref().map(|l| l.id.clone()).unwrap_or_default())>
                <option value="" selected=move || !t.active()>{tr(app, Ui::NoLesson)}</option>
                {options}
            </select>
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
    let t = app.tutor;
    let Some(lesson) = t.lesson.get() else { return String::new() };
    let i = t.step.get();
    let phase = t.phase.get();
    let furthest = t.furthest.get();
    let Some(step) = lesson.steps.get(i) else { return String::new() };
    let n = lesson.steps.len();
    let given = t.answers.with(|a| a.get(i).copied().flatten());
    let text = |l: &Localized| esc(&pick(l, lang));
    let ui = |u: Ui| esc(u.text(lang));
    let mut out = format!(
        r#"<div class="lesson-head"><h2 id="lesson-title" data-testid="lesson-title">{}</h2><span class="lesson-progress" data-testid="lesson-progress">{}</span><button class="lesson-leave" data-testid="lesson-leave" data-act="leave">{}</button></div>"#,
        text(&lesson.title),
        esc(&fill(Ui::LessonProgress.text(lang), &[("k", &(i + 1).to_string()), ("n", &n.to_string())])),
        ui(Ui::LessonLeave),
    );
    out.push_str(&format!(
        r#"<div class="lesson-step" data-testid="lesson-step" data-step="{}" data-phase="{}"><h3 class="step-title" tabindex="-1">{}</h3><p class="step-text" data-testid="step-text">{}</p>"#,
        i + 1,
        phase_code(phase),
        text(&step.title),
        text(&step.text),
    ));
    if let Some(ask) = &step.ask {
        let open = matches!(phase, Phase::Asking | Phase::Counting);
        out.push_str(&format!(
            r#"<div class="ask" data-testid="ask"><p class="question" id="lesson-question">{}</p><ul class="choices" role="group" aria-labelledby="lesson-question">"#,
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
                    fill(Ui::PredictionWrong.text(lang), &[("choice", &ask.choices.get(k).map(|c| pick(&c.text, lang)).unwrap_or_default())]),
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
        if on_path {
            out.push_str(&format!(r#"<p class="lesson-wait" data-testid="lesson-wait">{}</p>"#, ui(Ui::LessonWatching)));
        } else {
            out.push_str(&format!(
                r#"<p class="lesson-off" data-testid="lesson-off-path" role="status">{} <button data-testid="lesson-back-to-path" data-act="path">{}</button></p>"#,
                ui(Ui::LessonOffPath),
                ui(Ui::LessonBackToPath),
            ));
        }
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
    out.push_str(&format!(r#"<details class="toc" data-testid="toc"><summary>{}</summary><ol>"#, ui(Ui::LessonContents)));
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
    let t = app.tutor;
    if t.phase.get() != Phase::Counting {
        return String::new();
    }
    let i = t.step.get();
    let Some(ask) = t.lesson.with(|l| l.as_ref().and_then(|l| l.steps.get(i).and_then(|s| s.ask.clone()))) else {
        return String::new();
    };
    let given = t.answers.with(|a| a.get(i).copied().flatten());
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
    let left = t.countdown.get();
    let count = if left > 0 { fill(Ui::AudienceCount.text(lang), &[("s", &left.to_string())]) } else { Ui::AudienceTimeUp.text(lang).to_owned() };
    out.push_str(&format!(
        r#"</ol><p class="audience-count" data-testid="audience-count">{}</p><button class="primary reveal-button" data-testid="audience-reveal" data-act="reveal">{}</button></div>"#,
        esc(&count),
        esc(Ui::AudienceReveal.text(lang)),
    ));
    out
}

/// Carries out a `data-act` of the panel or the audience question.
fn act(app: AppState, what: &str) {
    let t = app.tutor;
    let (name, arg) = what.split_once(':').unwrap_or((what, ""));
    let k: Option<usize> = arg.parse().ok();
    match (name, k) {
        ("leave", _) => leave(app),
        ("back", _) => back(app),
        ("next", _) if t.phase.get_untracked() != Phase::Counting => next(app),
        ("path", _) => go(app, t.step.get_untracked()),
        ("go", Some(k)) => go(app, k),
        ("reveal", _) => reveal(app),
        ("answer", Some(k)) => {
            if t.phase.get_untracked() == Phase::Counting {
                // The audience's answer is noted; the presenter reveals.
                t.answers.update(|a| {
                    if let Some(slot) = a.get_mut(t.step.get_untracked()) {
                        *slot = Some(k);
                    }
                });
            } else {
                answer(app, k);
            }
        }
        ("point", Some(k)) => {
            let element = t.lesson.with_untracked(|l| l.as_ref().and_then(|l| l.metaphors.get(k).map(|m| m.element.clone())));
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

/// The step panel, shown while a lesson is followed (and a lesson's error, if it could not open),
/// and the audience question over the page.
#[component]
pub fn LessonPanel(app: AppState) -> impl IntoView {
    watch(app);
    let t = app.tutor;
    // Recomputed on every frame, but it changes only when the learner leaves or rejoins the path.
    let path = Memo::new(move |_| {
        app.snapshot.track();
        t.lesson.track();
        t.step.track();
        on_path(app)
    });
    let panel = move || panel_html(app, app.lang.get(), path.get());
    let audience = move || audience_html(app, app.lang.get());
    let notice = move || t.notice.get().map(|n| view! { <p class="lesson-notice" data-testid="lesson-notice" role="status">{n}</p> });
    view! {
        {notice}
        <section class="lesson" data-testid="lesson" aria-labelledby="lesson-title" hidden=move || !t.active() on:click=on_act(app) inner_html=panel></section>
        <div class="audience-layer" on:click=on_act(app) inner_html=audience></div>
    }
}

/// A box in a scene's view-box units: x, y, width, height.
pub(crate) type Place = (f64, f64, f64, f64);

/// A scene's pointing overlay: around each element pointed at that `place` finds in this scene,
/// a dashed ring and the field's term for it (a shape and a word, not a colour alone).
pub(crate) fn pointers(app: AppState, place: impl Fn(&Element) -> Option<Place> + Send + Sync + 'static) -> impl IntoView {
    let markup = move || {
        let lang = app.lang.get();
        let mut out = String::new();
        app.pointed.with(|pointed| {
            for e in pointed {
                let (Some(label), Some((x, y, w, h))) = (concept_label(e), place(e)) else { continue };
                // The term above the ring, or below it when the ring is at the top edge.
                let ty = if y > 30.0 { y - 10.0 } else { y + h + 24.0 };
                out.push_str(&format!(
                    r#"<g class="pointer" data-element="{}"><rect x="{}" y="{}" width="{}" height="{}" rx="14" class="pointer-ring"/><text x="{}" y="{}" class="pointer-label">{}</text></g>"#,
                    crate::story::technical::escape_html(&e.code()),
                    super::coord(x),
                    super::coord(y),
                    super::coord(w),
                    super::coord(h),
                    super::coord(x + 6.0),
                    super::coord(ty),
                    crate::story::technical::escape_html(label.text(lang)),
                ));
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
        Element::Node(_) => Ui::PointNode,
        _ => return None,
    })
}
