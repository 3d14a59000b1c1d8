//! The lesson player's state machine (issue 12): which step is shown, in what phase, what the
//! learner answered, how far they got, and when a step moves on by itself.
//!
//! Plain Rust, no web types. The page feeds it [`Input`]s (the learner's clicks and keys, the
//! timers it was asked to start, what it sees of the run on each frame through
//! [`Tour::observe`]) and carries out the [`Effect`]s that [`Tour::handle`] returns: restoring a
//! step's start, stopping the clock at the awaited moment, playing and pausing, pointing,
//! starting a timer, saving progress, following the address, moving the focus. Storage, timers,
//! focus and markup stay in the page (`ui::lesson`); every decision is made here, and
//! `tests/tour.rs` walks the built-in lessons through it on the real engine.
//!
//! How a step plays (see `docs/lesson-format.md`):
//! - it starts at its planned start ([`PlannedStep::start`]), restored exactly and paused;
//! - a question not yet answered waits for the answer ([`Phase::Asking`]); in presenter mode a
//!   question with a count-down is the audience's ([`Phase::Counting`]): the run waits at the
//!   step's start until the presenter reveals;
//! - a step with an awaited event plays to it ([`Phase::Playing`]) and stops there
//!   ([`Phase::Reached`]); it moves on by itself, once read, only if it was entered by the
//!   lesson's own flow and neither asks nor holds;
//! - a step without one waits for the learner ([`Phase::Free`]).

use std::sync::Arc;

use crate::engine::ScheduledCommand;
use crate::scenario::lesson::{decode_progress, encode_progress, Element, Lesson, PlannedStep, Step, StepStart};
use crate::scenario::{Localized, Pacing};
use crate::vocab::Fable;

use super::fill;
use super::i18n::Ui;
use crate::vocab::Lang;

/// Where a step stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// The question is shown; the run waits for the answer.
    Asking,
    /// The audience question (presenter mode), big over the page, counting down; the run waits
    /// at the step's start until the presenter reveals.
    Counting,
    /// The run plays on to the awaited event.
    Playing,
    /// The awaited event happened (for a question: the answer is revealed); Next moves on.
    Reached,
    /// A step without an awaited event (or no lesson): the learner moves on.
    #[default]
    Free,
}

impl Phase {
    /// The phase as the step panel's `data-phase` names it: `asking`, `counting`, `playing`,
    /// `reached` or `free`.
    pub fn code(self) -> &'static str {
        match self {
            Phase::Asking => "asking",
            Phase::Counting => "counting",
            Phase::Playing => "playing",
            Phase::Reached => "reached",
            Phase::Free => "free",
        }
    }
}

/// Something that happened to the lesson: what the learner did, a timer the page started, what
/// the page saw of the run.
#[derive(Clone, Debug)]
pub enum Input {
    /// A lesson was fetched and planned ([`crate::scenario::lesson::plan`]): show step `step`
    /// (from 0; `None`: where the learner left off, else the first). `kept` is the progress the
    /// page had stored for it ([`encode_progress`]), if any; `lang` and `presenter` are the
    /// page's language and presenter mode now.
    Open {
        lesson: Arc<Lesson>,
        plan: Arc<[PlannedStep]>,
        step: Option<usize>,
        kept: Option<String>,
        lang: Lang,
        presenter: bool,
    },
    /// The lesson could not be fetched or planned; `error` says why (in English, as the
    /// parser and the planner word it).
    Failed(String),
    /// The learner leaves the lesson: the run stays as it is, a sandbox again.
    Leave,
    /// Show step `i` (from 0, capped at the last): the contents, a step link, "start the step
    /// again", "back to the lesson". It waits for Next once its event has happened.
    Go(usize),
    /// The learner's answer to the step's question: choice `k` (from 0). Ignored unless the
    /// question is open; a `k` beyond the choices is ignored.
    Answer(usize),
    /// The presenter ends the audience question's count-down (the reveal button, or K, Space or
    /// Enter): the run plays to the moment the question is about.
    Reveal,
    /// The run was set playing by the learner (Play, Space, K, the embed API). With a question
    /// open, they chose to watch rather than predict: the question closes unanswered and the run
    /// plays to its moment and stops there, as after an answer, so that an answer given after
    /// the outcome was seen can never count as a prediction.
    Played,
    /// The next step (Next, N, Page Down); nothing at the last or while the audience thinks.
    Next,
    /// The previous step (Back, B, Page Up); it waits for Next. Nothing at the first.
    Back,
    /// The run, on the lesson's path, holds the awaited trace entry ([`Tour::observe`]).
    Reached,
    /// The run, on the lesson's path, went back before the awaited entry after the step had
    /// reached it ([`Tour::observe`]).
    SteppedBack,
    /// The run is no longer the lesson's (the learner acted on it, chose another scenario…).
    OffPath,
    /// The run is the lesson's again.
    OnPath,
    /// The reading timer of [`Effect::MoveOnAfter`] with this ticket fired.
    MoveOn(u32),
    /// The count-down timer of [`Effect::Tick`] with this ticket fired: one second less.
    CountdownTick(u32),
    /// Presenter mode was switched on (`true`) or off.
    Presenter(bool),
    /// The page's language changed.
    Lang(Lang),
    /// A row of the metaphor table, `k` from 0, was chosen: its element lights up.
    Point(usize),
}

/// Where the focus should go, once the markup is redrawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The step's title (`.lesson .step-title`).
    Title,
    /// The audience question's reveal button (`data-testid="audience-reveal"`).
    Reveal,
}

/// How long a step that moves on by itself stays on its moment, in ms of real time, however long
/// it took to get there: "that is the moment" is seen before the next step begins (in story time
/// a step often plays longer than its reading time).
pub const MOMENT_HOLD_MS: u64 = 2_500;

/// What the page must do, in the order given.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Rebuild the run exactly, paused: built-in `scenario` from 0 ms, `interventions` at their
    /// times, then the moment `at_ms` (in ms of virtual time). Every step begins with this; the
    /// page notes the real time then (see [`Effect::MoveOnAfter`]).
    Restore { scenario: String, interventions: Vec<ScheduledCommand>, at_ms: u64 },
    /// While playing, stop the clock at this moment, in ms of virtual time (`None`: play on).
    StopAt(Option<u64>),
    /// Play (`true`) or pause the run.
    Play(bool),
    /// Set the playing speed: a power of two, −2 ..= 6 (0.25× to 64×).
    Speed(i32),
    /// Play with this pacing (story time or true time); `None`: the page's own setting.
    Pacing(Option<Pacing>),
    /// Tell the run as this fable.
    Fable(Fable),
    /// Light up exactly these elements in the scene and the diagram (empty: none).
    Point(Vec<Element>),
    /// In one second of real time, send [`Input::CountdownTick`] with this ticket.
    Tick(u32),
    /// Once the step has been on screen `read_ms` of real time (counted from its
    /// [`Effect::Restore`]), and its moment for at least [`MOMENT_HOLD_MS`] (counted from this
    /// effect), send [`Input::MoveOn`] with `ticket`.
    MoveOnAfter { ticket: u32, read_ms: u64 },
    /// Keep the learner's progress: store `progress` under `key` (`localStorage`).
    Save { key: String, progress: String },
    /// Replace the address's query with this one (`?lesson=…&step=…`, and `lang=…` for Chinese),
    /// keeping the path.
    Address(String),
    /// Bring the revealed answer into view, once the panel has been redrawn.
    ShowReveal,
    /// Move the focus, once the markup has been redrawn.
    Focus(Focus),
}

/// What the page sees of the run on a frame, for [`Tour::observe`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunView {
    /// The run is the current step's path ([`Tour::path`]): the same built-in scenario with
    /// exactly the same interventions.
    pub on_path: bool,
    /// How many trace entries the run holds.
    pub trace_len: usize,
}

/// The lesson being followed and where the learner is in it. `Tour::default()` follows no
/// lesson.
#[derive(Clone, Debug, Default)]
pub struct Tour {
    lesson: Option<Arc<Lesson>>,
    /// Every step's exact start and awaited moment.
    plan: Option<Arc<[PlannedStep]>>,
    step: usize,
    phase: Phase,
    answers: Vec<Option<usize>>,
    furthest: usize,
    /// Seconds left of the audience question's count-down.
    countdown: u32,
    /// Why the lesson could not be opened, what a step link asked for that does not exist, or
    /// another message the page shows in the lesson panel.
    pub notice: Option<String>,
    /// Counts step entries (what the live region announces).
    entry: u32,
    /// Changes whenever the timers already started must no longer act (a new step, a step
    /// reopened, the count-down closed).
    ticket: u32,
    /// The step was entered by the lesson's own flow (Next, or the step before moving on).
    flow: bool,
    /// The step has reached its event and will move on by itself once read.
    moving_on: bool,
    /// The run has left the lesson's path.
    off_path: bool,
    lang: Lang,
    presenter: bool,
}

/// Where a learner's progress in lesson `id` is kept (`localStorage`).
pub fn progress_key(id: &str) -> String {
    format!("leaselab.lesson.{id}")
}

/// The address (query) of step `step` (from 0) of lesson `id` in `lang`: `lang=` only for a
/// language other than English, the page's default (as every setting of the address).
pub fn step_query(id: &str, step: usize, lang: Lang) -> String {
    format!("?lesson={id}&step={}{}", step + 1, lang_param(lang, '&'))
}

/// `lang=` with `sep` before it, or nothing for English (the page's default).
fn lang_param(lang: Lang, sep: char) -> String {
    match lang {
        Lang::En => String::new(),
        other => format!("{sep}lang={}", other.code()),
    }
}

/// How long a narration takes to read, in real ms: about 240 words a minute (Chinese: 500
/// characters), at least 4 s and at most 18 s. A step that moves on by itself stays at least
/// this long.
pub fn reading_ms(text: &str) -> u64 {
    let wide = text.chars().filter(|c| u32::from(*c) >= 0x2E80).count() as u64;
    let words = text.split_whitespace().count() as u64;
    (words * 250 + wide * 120).clamp(4_000, 18_000)
}

/// Text from a lesson file in `lang`.
pub fn pick(text: &Localized, lang: Lang) -> &str {
    match lang {
        Lang::En => &text.en,
        Lang::Zh => &text.zh,
    }
}

impl Tour {
    /// The lesson followed, if any.
    pub fn lesson(&self) -> Option<&Arc<Lesson>> {
        self.lesson.as_ref()
    }

    /// The step shown, from 0.
    pub fn step(&self) -> usize {
        self.step
    }

    /// Where the step shown stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The learner's answer to step `i`'s question (an index into its choices), if given.
    pub fn answer(&self, i: usize) -> Option<usize> {
        self.answers.get(i).copied().flatten()
    }

    /// The furthest step reached in order, from 0.
    pub fn furthest(&self) -> usize {
        self.furthest
    }

    /// Seconds left of the audience question's count-down (0: time is up).
    pub fn countdown(&self) -> u32 {
        self.countdown
    }

    /// The step reached its event and moves on by itself once read.
    pub fn moving_on(&self) -> bool {
        self.moving_on
    }

    /// The run has left the lesson's path: the lesson waits.
    pub fn off_path(&self) -> bool {
        self.off_path
    }

    /// Whether the run must stay where it is: the audience is thinking (presenter mode), so
    /// playing, stepping or acting on the run waits for the reveal.
    pub fn holds_run(&self) -> bool {
        self.phase == Phase::Counting
    }

    /// Counts the steps entered so far (changes with every step shown).
    pub fn entry(&self) -> u32 {
        self.entry
    }

    /// Number of steps of the lesson (0 without one).
    pub fn steps(&self) -> usize {
        self.lesson.as_ref().map_or(0, |l| l.steps.len())
    }

    /// The step shown and its plan.
    pub fn current(&self) -> Option<(&Step, &PlannedStep)> {
        let lesson = self.lesson.as_ref()?;
        Some((lesson.steps.get(self.step)?, self.plan.as_ref()?.get(self.step)?))
    }

    /// The current step's start: the run the lesson expects (its path).
    pub fn path(&self) -> Option<&StepStart> {
        self.current().map(|(_, p)| &p.start)
    }

    /// The address (query) of the page now: the step shown, or no lesson (then only the language
    /// when it is not English; the page adds the scenario playing, `ui::lesson`).
    pub fn address(&self) -> String {
        match &self.lesson {
            Some(l) => step_query(&l.id, self.step, self.lang),
            None => lang_param(self.lang, '?'),
        }
    }

    /// What a frame of the run means for the lesson, if anything: it left or rejoined the path;
    /// on the path, it reached the awaited trace entry while playing, or went back before it
    /// after the step had reached it. Feed the result to [`Tour::handle`].
    pub fn observe(&self, run: RunView) -> Option<Input> {
        let (_, planned) = self.current()?;
        if run.on_path == self.off_path {
            return Some(if run.on_path { Input::OnPath } else { Input::OffPath });
        }
        if !run.on_path {
            return None;
        }
        let (_, seq) = planned.until?;
        // Deterministic: on the path, the entry at position `seq` is the awaited one.
        let holds = run.trace_len as u64 > seq;
        match self.phase {
            Phase::Playing if holds => Some(Input::Reached),
            Phase::Reached if !holds => Some(Input::SteppedBack),
            _ => None,
        }
    }

    /// Takes `input`; returns what the page must do, in order.
    pub fn handle(&mut self, input: Input) -> Vec<Effect> {
        let mut out = Vec::new();
        match input {
            Input::Open { lesson, plan, step, kept, lang, presenter } => {
                out = self.open(lesson, plan, step, kept, lang, presenter)
            }
            Input::Failed(error) => {
                self.notice = Some(fill(Ui::LessonCannotOpen.text(self.lang), &[("error", &error)]));
            }
            Input::Leave => {
                *self = Tour {
                    lang: self.lang,
                    presenter: self.presenter,
                    entry: self.entry.wrapping_add(1),
                    ticket: self.ticket.wrapping_add(1),
                    ..Tour::default()
                };
                out.extend([
                    Effect::Point(Vec::new()),
                    Effect::StopAt(None),
                    Effect::Pacing(None),
                    Effect::Address(self.address()),
                ]);
            }
            Input::Go(i) => self.go(i, false, &mut out),
            Input::Answer(k) => self.answer_with(k, &mut out),
            Input::Played => {
                if self.phase == Phase::Asking {
                    self.play(&mut out);
                }
            }
            Input::Reveal => {
                if self.phase == Phase::Counting {
                    self.ticket = self.ticket.wrapping_add(1);
                    self.play(&mut out);
                    out.push(Effect::Focus(Focus::Title));
                }
            }
            Input::Next => {
                if self.step + 1 < self.steps() && self.phase != Phase::Counting {
                    self.go(self.step + 1, true, &mut out);
                }
            }
            Input::Back => {
                if self.lesson.is_some() && self.step > 0 {
                    self.go(self.step - 1, false, &mut out);
                }
            }
            Input::Reached => self.reached(&mut out),
            Input::SteppedBack => {
                let until = self.current().and_then(|(_, p)| p.until);
                if let (Phase::Reached, false, Some((at_ms, _))) = (self.phase, self.off_path, until) {
                    // Not over: it plays to that moment again, and moves on only from there.
                    self.phase = Phase::Playing;
                    self.moving_on = false;
                    self.ticket = self.ticket.wrapping_add(1);
                    out.push(Effect::StopAt(Some(at_ms)));
                }
            }
            Input::OffPath => {
                if self.lesson.is_some() && !self.off_path {
                    // The learner's own run is not held at the lesson's moment, nor moved on.
                    self.off_path = true;
                    self.moving_on = false;
                    out.push(Effect::StopAt(None));
                }
            }
            Input::OnPath => {
                if self.off_path {
                    self.off_path = false;
                    if self.phase == Phase::Playing {
                        out.push(Effect::StopAt(self.current().and_then(|(_, p)| p.until).map(|u| u.0)));
                    }
                }
            }
            Input::MoveOn(ticket) => {
                if ticket == self.ticket && self.phase == Phase::Reached && self.moving_on && !self.off_path {
                    self.go(self.step + 1, true, &mut out);
                }
            }
            Input::CountdownTick(ticket) => {
                if ticket == self.ticket && self.phase == Phase::Counting && self.countdown > 0 {
                    self.countdown -= 1;
                    if self.countdown > 0 {
                        out.push(Effect::Tick(ticket));
                    }
                }
            }
            Input::Presenter(on) => self.presenter_with(on, &mut out),
            Input::Lang(lang) => {
                if lang != self.lang {
                    self.lang = lang;
                    if self.lesson.is_some() {
                        out.push(Effect::Address(self.address()));
                    }
                }
            }
            Input::Point(k) => {
                if let Some(m) = self.lesson.as_ref().and_then(|l| l.metaphors.get(k)) {
                    out.push(Effect::Point(vec![m.element.clone()]));
                }
            }
        }
        out
    }

    /// Takes a lesson just opened (see [`Input::Open`]) and shows its first step.
    fn open(
        &mut self,
        lesson: Arc<Lesson>,
        plan: Arc<[PlannedStep]>,
        step: Option<usize>,
        kept: Option<String>,
        lang: Lang,
        presenter: bool,
    ) -> Vec<Effect> {
        let n = lesson.steps.len();
        let (kept_step, furthest, mut answers) =
            kept.and_then(|text| decode_progress(&text, n)).unwrap_or((0, 0, vec![None; n]));
        // An answer that is not one of its step's choices (a hand-edited value) is no answer.
        for (a, s) in answers.iter_mut().zip(&lesson.steps) {
            *a = a.filter(|k| s.ask.as_ref().is_some_and(|ask| *k < ask.choices.len()));
        }
        let mut notice = None;
        let first = match step {
            Some(k) if k < n => k,
            Some(k) => {
                notice = Some(fill(
                    Ui::LessonNoSuchStep.text(lang),
                    &[("step", &(k + 1).to_string()), ("n", &n.to_string())],
                ));
                n.saturating_sub(1)
            }
            None => kept_step,
        };
        *self = Tour {
            lesson: Some(lesson),
            plan: Some(plan),
            answers,
            furthest,
            notice,
            entry: self.entry,
            ticket: self.ticket,
            lang,
            presenter,
            ..Tour::default()
        };
        let mut out = Vec::new();
        self.go(first, false, &mut out);
        out
    }

    /// Shows step `i` (capped at the last): its start restored, then asked, counted down, played
    /// or left to the learner. `flow`: entered by the lesson's own flow, so it may move on by
    /// itself.
    fn go(&mut self, i: usize, flow: bool, out: &mut Vec<Effect>) {
        let Some(lesson) = self.lesson.clone() else { return };
        let i = i.min(lesson.steps.len().saturating_sub(1));
        let (Some(step), Some(planned)) = (lesson.steps.get(i), self.plan.as_ref().and_then(|p| p.get(i))) else {
            return;
        };
        out.extend([
            Effect::Play(false),
            Effect::StopAt(None),
            Effect::Restore {
                scenario: planned.start.scenario.clone(),
                interventions: planned.start.interventions.clone(),
                at_ms: planned.start.at_ms,
            },
        ]);
        let start_ms = planned.start.at_ms;
        if let Some(fable) = lesson.fable {
            out.push(Effect::Fable(fable));
        }
        if let Some(k) = step.speed_log2 {
            out.push(Effect::Speed(k));
        }
        out.push(Effect::Pacing(step.pacing));
        // A question points only once it is answered: the pointing would give the answer away.
        out.push(Effect::Point(if step.ask.is_some() { Vec::new() } else { step.point.clone() }));
        // Reached in order (a link far ahead does not tick the steps before it as seen).
        if i <= self.furthest + 1 {
            self.furthest = self.furthest.max(i);
        }
        self.step = i;
        self.flow = flow;
        self.moving_on = false;
        self.off_path = false;
        self.entry = self.entry.wrapping_add(1);
        self.ticket = self.ticket.wrapping_add(1);
        let answered = self.answer(i).is_some();
        let audience = step.ask.as_ref().and_then(|a| a.countdown_s).filter(|_| self.presenter && !answered);
        self.countdown = audience.unwrap_or(0);
        self.phase = match (&step.ask, audience) {
            (Some(_), Some(_)) => Phase::Counting,
            (Some(_), None) if !answered => Phase::Asking,
            _ => Phase::Free,
        };
        match self.phase {
            // The run waits behind the count-down at the step's start, clock stopped.
            Phase::Counting => {
                out.extend([Effect::StopAt(Some(start_ms)), Effect::Tick(self.ticket), Effect::Focus(Focus::Reveal)])
            }
            Phase::Free => self.play(out),
            _ => {}
        }
        out.push(self.save());
        out.push(Effect::Address(self.address()));
    }

    /// Plays the step on to its awaited moment (a step without one waits for the learner).
    fn play(&mut self, out: &mut Vec<Effect>) {
        match self.current().and_then(|(_, p)| p.until) {
            Some((at_ms, _)) => {
                self.phase = Phase::Playing;
                // Off the path the learner's run is not held at the lesson's moment.
                out.extend([Effect::StopAt((!self.off_path).then_some(at_ms)), Effect::Play(true)]);
            }
            None => self.phase = Phase::Free,
        }
    }

    fn answer_with(&mut self, k: usize, out: &mut Vec<Effect>) {
        let choices = self.current().and_then(|(s, _)| s.ask.as_ref()).map_or(0, |a| a.choices.len());
        if !matches!(self.phase, Phase::Asking | Phase::Counting) || k >= choices {
            return;
        }
        if let Some(slot) = self.answers.get_mut(self.step) {
            *slot = Some(k);
        }
        out.push(self.save());
        // During the audience's count-down the answer is only noted: the presenter reveals.
        if self.phase == Phase::Asking {
            self.play(out);
        }
    }

    fn reached(&mut self, out: &mut Vec<Effect>) {
        if self.phase != Phase::Playing || self.off_path {
            return;
        }
        let Some((step, _)) = self.current() else { return };
        let stays = step.ask.is_some() || step.hold || !self.flow || self.step + 1 >= self.steps();
        let asks = step.ask.is_some();
        let point = step.point.clone();
        let read_ms = reading_ms(pick(&step.text, self.lang));
        self.phase = Phase::Reached;
        out.extend([Effect::Play(false), Effect::StopAt(None), Effect::Point(point)]);
        if asks {
            out.push(Effect::ShowReveal);
        }
        if !stays {
            self.moving_on = true;
            out.push(Effect::MoveOnAfter { ticket: self.ticket, read_ms });
        }
    }

    fn presenter_with(&mut self, on: bool, out: &mut Vec<Effect>) {
        if on == self.presenter {
            return;
        }
        self.presenter = on;
        let countdown = self.current().and_then(|(s, _)| s.ask.as_ref()).and_then(|a| a.countdown_s);
        let start_ms = self.path().map(|s| s.at_ms);
        match (on, self.phase, countdown, start_ms) {
            // An open question becomes the audience's: the run waits behind it.
            (true, Phase::Asking, Some(s), Some(start_ms)) if self.answer(self.step).is_none() => {
                self.phase = Phase::Counting;
                self.countdown = s;
                self.ticket = self.ticket.wrapping_add(1);
                out.extend([
                    Effect::Play(false),
                    Effect::StopAt(Some(start_ms)),
                    Effect::Tick(self.ticket),
                    Effect::Focus(Focus::Reveal),
                ]);
            }
            // Outside presenter mode it is an ordinary question.
            (false, Phase::Counting, _, _) => {
                self.phase = Phase::Asking;
                self.countdown = 0;
                self.ticket = self.ticket.wrapping_add(1);
                out.extend([Effect::StopAt(None), Effect::Focus(Focus::Title)]);
            }
            _ => {}
        }
    }

    /// The progress to keep now.
    fn save(&self) -> Effect {
        let id = self.lesson.as_ref().map_or("", |l| l.id.as_str());
        Effect::Save { key: progress_key(id), progress: encode_progress(self.step, self.furthest, &self.answers) }
    }

    /// Whether the step shown asked for a prediction and has revealed what happened.
    pub fn revealed(&self) -> bool {
        self.current().is_some_and(|(step, _)| step.ask.is_some()) && self.phase == Phase::Reached
    }

    /// The verdict on the learner's prediction for the step shown, once revealed: right, wrong
    /// (naming their choice) or not answered.
    pub fn verdict(&self, lang: Lang) -> Option<String> {
        let (step, _) = self.current()?;
        let ask = step.ask.as_ref().filter(|_| self.revealed())?;
        Some(match self.answer(self.step) {
            Some(k) if k == ask.answer => Ui::PredictionRight.text(lang).to_owned(),
            Some(k) => fill(
                Ui::PredictionWrong.text(lang),
                &[("choice", ask.choices.get(k).map_or("", |c| pick(&c.text, lang)))],
            ),
            None => Ui::PredictionNone.text(lang).to_owned(),
        })
    }

    /// What the live region should say of the lesson now, with a key that changes when it is
    /// something new: the step's number and title when it begins; the verdict, what happened
    /// and why when a prediction is revealed.
    pub fn announcement(&self, lang: Lang) -> Option<(String, String)> {
        let lesson = self.lesson.as_ref()?;
        let (step, _) = self.current()?;
        let verdict = self.verdict(lang);
        let key = format!("{}:{}:{}", lesson.id, self.entry, verdict.is_some());
        let text = match (&step.ask, verdict) {
            (Some(ask), Some(verdict)) => {
                let happened = ask.choices.get(ask.answer).map_or("", |c| pick(&c.text, lang));
                format!(
                    "{verdict} {} {}",
                    fill(Ui::WhatHappened.text(lang), &[("answer", happened)]),
                    pick(&ask.why, lang)
                )
            }
            _ => format!(
                "{}: {}",
                fill(
                    Ui::LessonProgress.text(lang),
                    &[("k", &(self.step + 1).to_string()), ("n", &lesson.steps.len().to_string())]
                ),
                pick(&step.title, lang)
            ),
        };
        Some((key, text))
    }
}
