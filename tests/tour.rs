//! The lesson player's state machine (issue 12, `story::tour`), driven natively through the
//! built-in lessons as the page drives it: a small stand-in for the page carries out every
//! effect on the real engine (a `Timeline` rebuilds each step's start, frames of virtual time
//! play it, the clock stops where the tour says) and feeds back what each frame shows.
//!
//! What is expected comes from the lesson files (`assets/lessons/*.json`: which steps ask, hold,
//! count down, point, at what speed), from `lesson::plan` (every step's start and awaited entry),
//! from the engine run on its own, and from the rules in `docs/lesson-format.md`, never from the
//! tour's own output.

use std::sync::Arc;

use leaselab::engine::timeline::Timeline;
use leaselab::engine::{Command, Sim, TraceEvent};
use leaselab::scenario::lesson::{self, decode_progress, encode_progress, Element, Lesson, PlannedStep};
use leaselab::scenario::{library, Pacing};
use leaselab::story::i18n::Ui;
use leaselab::story::tour::{self, Effect, Focus, Input, Phase, RunView, Tour};
use leaselab::vocab::Fable;
use leaselab::vocab::Lang;

/// Virtual ms per frame of the stand-in page.
const FRAME_MS: u64 = 100;

/// A built-in lesson and its plan.
fn planned(id: &str) -> (Arc<Lesson>, Arc<[PlannedStep]>) {
    let lesson = library::lessons::get(id).expect("a built-in lesson").expect("valid");
    let plan = lesson::plan(&lesson, library::get).expect("plays");
    (Arc::new(lesson), plan.into())
}

/// Index of the step titled `title` (English).
fn step_titled(lesson: &Lesson, title: &str) -> usize {
    lesson.steps.iter().position(|s| s.title.en == title).unwrap_or_else(|| panic!("no step {title:?}"))
}

/// What the page does with the tour's effects, on the real engine.
struct Page {
    tour: Tour,
    scenario: String,
    timeline: Timeline,
    sim: Sim,
    /// The page's clock, in virtual ms.
    clock: u64,
    playing: bool,
    stop_at: Option<u64>,
    speed: Option<i32>,
    /// A step's own pacing (`None`: the page's).
    pacing: Option<Pacing>,
    fable: Option<Fable>,
    pointed: Vec<Element>,
    /// `localStorage`.
    saved: Vec<(String, String)>,
    address: String,
    /// Count-down timers started and not yet fired (their tickets).
    ticks: Vec<u32>,
    /// Reading timers started and not yet fired (ticket, reading time).
    move_ons: Vec<(u32, u64)>,
    focus: Vec<Focus>,
    revealed_shown: usize,
    /// Every step start the page rebuilt: (scenario, at_ms).
    restored: Vec<(String, u64)>,
}

impl Page {
    /// The sandbox as the page opens it: `harbor-zombie` at 0 ms, paused.
    fn new() -> Page {
        let scenario = library::get(library::DEFAULT_ID).expect("built-in").expect("valid");
        let mut timeline = Timeline::new(scenario.config).expect("accepted");
        let sim = timeline.seek(0);
        Page {
            tour: Tour::default(),
            scenario: library::DEFAULT_ID.to_owned(),
            timeline,
            sim,
            clock: 0,
            playing: false,
            stop_at: None,
            speed: None,
            pacing: None,
            fable: None,
            pointed: Vec::new(),
            saved: Vec::new(),
            address: String::new(),
            ticks: Vec::new(),
            move_ons: Vec::new(),
            focus: Vec::new(),
            revealed_shown: 0,
            restored: Vec::new(),
        }
    }

    /// A page with lesson `id` opened (no stored progress, English).
    fn open(id: &str, step: Option<usize>, presenter: bool) -> Page {
        let mut page = Page::new();
        let (lesson, plan) = planned(id);
        page.send(Input::Open { lesson, plan, step, kept: None, lang: Lang::En, presenter });
        page
    }

    fn send(&mut self, input: Input) -> Vec<Effect> {
        let effects = self.tour.handle(input);
        for e in &effects {
            self.carry_out(e.clone());
        }
        effects
    }

    fn carry_out(&mut self, effect: Effect) {
        match effect {
            Effect::Restore { scenario, interventions, at_ms } => {
                let loaded = library::get(&scenario).expect("built-in").expect("valid");
                let mut timeline = Timeline::new(loaded.config).expect("accepted");
                for i in &interventions {
                    timeline.intervene(i.at_ms, i.command.clone()).expect("the plan's own interventions");
                }
                self.sim = timeline.seek(at_ms);
                self.timeline = timeline;
                self.clock = self.sim.now_ms();
                self.playing = false;
                self.restored.push((scenario.clone(), at_ms));
                self.scenario = scenario;
            }
            Effect::StopAt(t) => self.stop_at = t,
            Effect::Play(on) => self.playing = on,
            Effect::Speed(k) => self.speed = Some(k),
            Effect::Pacing(p) => self.pacing = p,
            Effect::Fable(f) => self.fable = Some(f),
            Effect::Point(p) => self.pointed = p,
            Effect::Tick(t) => self.ticks.push(t),
            Effect::MoveOnAfter { ticket, read_ms } => self.move_ons.push((ticket, read_ms)),
            Effect::Save { key, progress } => {
                self.saved.retain(|(k, _)| *k != key);
                self.saved.push((key, progress));
            }
            Effect::Address(a) => self.address = a,
            Effect::ShowReveal => self.revealed_shown += 1,
            Effect::Focus(f) => self.focus.push(f),
        }
    }

    /// Whether the run is the current step's path.
    fn on_path(&self) -> bool {
        self.tour
            .path()
            .is_some_and(|p| p.scenario == self.scenario && p.interventions.as_slice() == self.timeline.interventions())
    }

    /// What the page's per-frame watcher does.
    fn observe(&mut self) {
        let run = RunView { on_path: self.on_path(), trace_len: self.sim.trace().len() };
        if let Some(input) = self.tour.observe(run) {
            self.send(input);
        }
    }

    /// One animation frame: the clock moves `FRAME_MS` while playing, never past the stop (as
    /// `AppState::tick`), the engine follows, and the watcher looks.
    fn frame(&mut self) {
        if self.sim.finished() {
            self.playing = false;
        }
        if self.playing {
            let mut clock = (self.clock + FRAME_MS).min(self.sim.config().until_ms);
            if let Some(stop) = self.stop_at.filter(|s| self.clock <= *s) {
                clock = clock.min(stop);
            }
            self.clock = clock;
            self.timeline.advance(&mut self.sim, clock);
        }
        self.observe();
    }

    /// Frames until the run stops playing (or `limit` frames).
    fn play_out(&mut self, limit: usize) {
        for _ in 0..limit {
            self.frame();
            if !self.playing {
                return;
            }
        }
    }

    /// The Play button.
    fn press_play(&mut self) {
        self.playing = true;
    }

    /// The step-back button: the moment of the previous trace entry, paused.
    fn step_back(&mut self) {
        let now = self.sim.now_ms();
        let previous = self.sim.trace().iter().rev().map(|e| e.at_ms).find(|t| *t < now).unwrap_or(0);
        self.sim = self.timeline.seek(previous);
        self.clock = self.sim.now_ms();
        self.playing = false;
        self.observe();
    }

    /// A learner's command on the run, now.
    fn act(&mut self, command: Command) {
        self.sim = self.timeline.intervene(self.clock, command).expect("accepted");
        self.observe();
    }

    /// Fires every count-down timer started so far.
    fn fire_ticks(&mut self) {
        for t in std::mem::take(&mut self.ticks) {
            self.send(Input::CountdownTick(t));
        }
    }

    /// Fires every reading timer started so far.
    fn fire_move_ons(&mut self) {
        for (t, _) in std::mem::take(&mut self.move_ons) {
            self.send(Input::MoveOn(t));
        }
    }

    fn progress(&self, id: &str) -> Option<String> {
        self.saved.iter().find(|(k, _)| *k == tour::progress_key(id)).map(|(_, v)| v.clone())
    }
}

/// The run stands exactly at step `i`'s planned start.
fn assert_at_start(page: &Page, plan: &[PlannedStep], i: usize, what: &str) {
    let start = &plan[i].start;
    assert_eq!(page.scenario, start.scenario, "{what}: the step's scenario");
    assert_eq!(page.sim.now_ms(), start.at_ms, "{what}: the step's start");
    assert_eq!(page.sim.trace().len(), start.trace_len, "{what}: the run holds what it held at the start");
    assert_eq!(page.timeline.interventions(), start.interventions.as_slice(), "{what}: the lesson's interventions");
}

/// The run stands exactly at step `i`'s awaited entry, which is the one its `until` names.
fn assert_at_moment(page: &Page, lesson: &Lesson, plan: &[PlannedStep], i: usize, what: &str) {
    let (at_ms, seq) = plan[i].until.expect("awaits an event");
    assert_eq!(page.sim.now_ms(), at_ms, "{what}: stopped at the awaited moment");
    let entry = page.sim.trace().iter().find(|e| e.seq == seq).unwrap_or_else(|| panic!("{what}: no entry {seq}"));
    let until = lesson.steps[i].until.as_ref().expect("until");
    assert!(until.matches(&entry.event), "{what}: {:?} is what the step awaits", entry.event);
    // The first match after the step began: no earlier entry of the step matches.
    let start = plan[i].start.trace_len;
    assert!(
        page.sim.trace()[start..].iter().take_while(|e| e.seq < seq).all(|e| !until.matches(&e.event)),
        "{what}: an earlier entry matched"
    );
}

/// Walks lesson `id` from its first step to its last as a learner who answers every question
/// right and presses Next as soon as a step is over (or lets it move on by itself).
fn walk(id: &str, presenter: bool) {
    let (lesson, plan) = planned(id);
    let n = lesson.steps.len();
    let mut page = Page::open(id, None, presenter);
    for (i, step) in lesson.steps.iter().enumerate() {
        let what = format!("{id} step {}", i + 1);
        assert_eq!(page.tour.step(), i, "{what}: shown in order");
        assert_eq!(page.address, format!("?lesson={id}&step={}", i + 1), "{what}: the address follows");
        assert_eq!(
            page.restored.last().map(|(s, t)| (s.as_str(), *t)),
            Some((plan[i].start.scenario.as_str(), plan[i].start.at_ms))
        );
        if let Some(k) = step.speed_log2 {
            assert_eq!(page.speed, Some(k), "{what}: the step's speed");
        }
        assert_eq!(page.fable, lesson.fable, "{what}: the lesson's fable");
        if step.until.is_none() {
            assert_eq!(page.tour.phase(), Phase::Free, "{what}: waits for the learner");
            assert!(!page.playing, "{what}: a free step does not play");
            assert_eq!(page.pointed, step.point, "{what}: points at once");
            assert_at_start(&page, &plan, i, &what);
        } else if let Some(ask) = &step.ask {
            let audience = presenter && ask.countdown_s.is_some();
            assert_eq!(page.tour.phase(), if audience { Phase::Counting } else { Phase::Asking }, "{what}");
            assert!(page.pointed.is_empty(), "{what}: nothing pointed at before the answer");
            // The question waits at the step's start, however long the learner thinks.
            page.play_out(50);
            assert_at_start(&page, &plan, i, &what);
            let effects = page.send(Input::Answer(ask.answer));
            assert!(effects.iter().any(|e| matches!(e, Effect::Save { .. })), "{what}: the answer is kept");
            if audience {
                assert_eq!(page.tour.phase(), Phase::Counting, "{what}: the room's answer is only noted");
                page.send(Input::Reveal);
            }
            assert_eq!(page.tour.phase(), Phase::Playing, "{what}: answered, the run shows what happens");
            assert_eq!(page.stop_at, plan[i].until.map(|u| u.0), "{what}: stops at the moment");
            page.play_out(100_000);
            assert_eq!(page.tour.phase(), Phase::Reached, "{what}");
            assert_at_moment(&page, &lesson, &plan, i, &what);
            assert_eq!(page.tour.verdict(Lang::En).as_deref(), Some(Ui::PredictionRight.text(Lang::En)), "{what}");
            assert!(page.move_ons.is_empty(), "{what}: a question waits for Next");
        } else {
            assert_eq!(page.tour.phase(), Phase::Playing, "{what}: plays to its event");
            assert_eq!(page.stop_at, plan[i].until.map(|u| u.0), "{what}: the clock stops at the moment");
            page.play_out(100_000);
            assert_eq!(page.tour.phase(), Phase::Reached, "{what}");
            assert_at_moment(&page, &lesson, &plan, i, &what);
            assert!(!page.playing, "{what}: paused at the moment");
            // Entered by the lesson's flow (every step after the first here), neither holding
            // nor the last: it moves on by itself once read.
            let moves_on = i > 0 && !step.hold && i + 1 < n;
            assert_eq!(page.tour.moving_on(), moves_on, "{what}");
            let read = tour::reading_ms(&step.text.en);
            let expected: Vec<u64> = if moves_on { vec![read] } else { Vec::new() };
            assert_eq!(page.move_ons.iter().map(|m| m.1).collect::<Vec<_>>(), expected, "{what}: the reading timer");
        }
        if step.until.is_some() {
            assert_eq!(page.pointed, step.point, "{what}: points at the step's elements at the moment");
        }
        if i + 1 < n {
            if page.tour.moving_on() {
                page.fire_move_ons();
            } else {
                page.send(Input::Next);
            }
        }
    }
    assert_eq!(page.tour.furthest(), n - 1);
    // Every answer kept, in the stored progress.
    let (step, furthest, answers) = decode_progress(&page.progress(id).expect("saved"), n).expect("fits");
    assert_eq!((step, furthest), (n - 1, n - 1));
    for (i, s) in lesson.steps.iter().enumerate() {
        assert_eq!(answers[i], s.ask.as_ref().map(|a| a.answer), "{id} step {}: the answer kept", i + 1);
    }
    // Next at the last step does nothing.
    assert!(page.send(Input::Next).is_empty());
}

#[test]
fn every_lesson_walked_step_by_step_on_the_engine() {
    for entry in library::lessons::MENU {
        walk(entry.id, false);
    }
}

#[test]
fn every_lesson_walked_in_presenter_mode() {
    for entry in library::lessons::MENU {
        walk(entry.id, true);
    }
}

#[test]
fn reading_time_follows_the_text_within_its_bounds() {
    // 240 words a minute is 250 ms a word; Chinese 500 characters a minute, 120 ms each.
    assert_eq!(tour::reading_ms("one two"), 4_000, "at least 4 s");
    assert_eq!(tour::reading_ms(&"word ".repeat(40)), 10_000);
    // Fifty characters without a space: 50 × 120 ms, plus the 250 ms of one word.
    assert_eq!(tour::reading_ms(&"字".repeat(50)), 6_250);
    assert_eq!(tour::reading_ms(&"word ".repeat(1_000)), 18_000, "at most 18 s");
}

#[test]
fn back_and_a_step_link_wait_for_next_and_old_timers_do_nothing() {
    let (lesson, plan) = planned("harbor-replaced");
    let marks = step_titled(&lesson, "The hourglass and the marks");
    let asleep = step_titled(&lesson, "Chen falls asleep");
    assert!(!lesson.steps[marks].hold && !lesson.steps[asleep].hold && lesson.steps[asleep].ask.is_none());

    // Entered by Next: it moves on by itself once read.
    let mut page = Page::open("harbor-replaced", Some(marks - 1), false);
    page.play_out(100_000);
    page.send(Input::Next);
    page.play_out(100_000);
    assert_eq!((page.tour.step(), page.tour.phase()), (marks, Phase::Reached));
    assert!(page.tour.moving_on());
    let stale = page.move_ons.clone();
    page.fire_move_ons();
    assert_eq!(page.tour.step(), asleep, "moved on by itself");
    page.play_out(100_000);
    assert!(page.tour.moving_on(), "entered by the flow");
    page.move_ons.clear();

    // Back: the step before, from its start, and at its moment it waits for Next.
    page.send(Input::Back);
    assert_eq!(page.tour.step(), marks);
    assert_at_start(&page, &plan, marks, "back");
    page.play_out(100_000);
    assert_eq!(page.tour.phase(), Phase::Reached);
    assert_at_moment(&page, &lesson, &plan, marks, "back");
    assert!(!page.tour.moving_on() && page.move_ons.is_empty(), "entered by Back, it waits for Next");
    // The reading timer of that step's earlier visit fires late: nothing happens.
    for (t, _) in stale {
        assert!(page.send(Input::MoveOn(t)).is_empty());
    }
    assert_eq!(page.tour.step(), marks);

    // A step link (or the contents): the same.
    let mut page = Page::open("harbor-replaced", Some(asleep), false);
    assert_at_start(&page, &plan, asleep, "link");
    page.play_out(100_000);
    assert_eq!((page.tour.step(), page.tour.phase()), (asleep, Phase::Reached));
    assert!(!page.tour.moving_on() && page.move_ons.is_empty());
    page.send(Input::Go(marks));
    page.play_out(100_000);
    assert_eq!((page.tour.step(), page.tour.phase()), (marks, Phase::Reached));
    assert!(!page.tour.moving_on(), "a step chosen in the contents waits for Next");
    page.send(Input::Next);
    assert_eq!(page.tour.step(), asleep);
}

#[test]
fn stepping_back_before_the_moment_reopens_the_step() {
    let (lesson, plan) = planned("harbor-replaced");
    let marks = step_titled(&lesson, "The hourglass and the marks");
    let mut page = Page::open("harbor-replaced", Some(marks - 1), false);
    page.play_out(100_000);
    page.send(Input::Next);
    page.play_out(100_000);
    assert_eq!(page.tour.phase(), Phase::Reached);
    let at_moment = (page.sim.now_ms(), page.sim.trace_hash());
    let stale = std::mem::take(&mut page.move_ons);

    page.step_back();
    page.step_back();
    assert!(page.sim.now_ms() < plan[marks].until.expect("awaits").0);
    assert_eq!(page.tour.phase(), Phase::Playing, "the step is open again");
    assert!(!page.tour.moving_on());
    assert_eq!(page.stop_at, plan[marks].until.map(|u| u.0), "and stops at the moment again");
    // Its earlier reading timer does not move on.
    for (t, _) in stale {
        page.send(Input::MoveOn(t));
    }
    assert_eq!((page.tour.step(), page.tour.phase()), (marks, Phase::Playing));
    // Paused: the run stays; played: the very same moment, bit for bit.
    page.play_out(10);
    assert_eq!(page.tour.phase(), Phase::Playing);
    page.press_play();
    page.play_out(100_000);
    assert_eq!(page.tour.phase(), Phase::Reached);
    assert_eq!((page.sim.now_ms(), page.sim.trace_hash()), at_moment);
    assert!(page.tour.moving_on(), "reached again, it moves on from there");
}

#[test]
fn a_learner_off_the_path_is_not_held_and_the_lesson_waits() {
    let (lesson, plan) = planned("harbor-replaced");
    let belief = step_titled(&lesson, "Belief and truth");
    let (at_ms, _) = plan[belief].until.expect("awaits");
    // Entered by the flow, so it would move on by itself.
    let mut page = Page::open("harbor-replaced", Some(belief - 1), false);
    page.send(Input::Answer(lesson.steps[belief - 1].ask.as_ref().expect("asks").answer));
    page.play_out(100_000);
    page.send(Input::Next);
    assert_eq!((page.tour.step(), page.tour.phase()), (belief, Phase::Playing));
    page.frame();
    // Wake Chen early: the run is no longer the lesson's.
    page.act(Command::Resume { node: "chen".into() });
    assert!(page.tour.off_path());
    assert_eq!(page.stop_at, None, "the learner's run is not held at the lesson's moment");
    page.play_out(((at_ms + 20_000) / FRAME_MS) as usize);
    assert!(page.sim.now_ms() > at_ms, "it played past the lesson's moment");
    assert_eq!((page.tour.step(), page.tour.phase()), (belief, Phase::Playing), "the lesson waits");
    assert!(page.move_ons.is_empty());
    // Back to the lesson: the step's start, on the path, to its moment.
    page.send(Input::Go(page.tour.step()));
    assert!(!page.tour.off_path());
    assert_at_start(&page, &plan, belief, "back to the path");
    page.play_out(100_000);
    assert_eq!(page.tour.phase(), Phase::Reached);
    assert_at_moment(&page, &lesson, &plan, belief, "back to the path");
    assert!(!page.tour.moving_on(), "entered by “back to the lesson”, it waits for Next");

    // Off the path after the moment, on a step that would move on: it does not.
    let mut page = Page::open("harbor-replaced", Some(belief - 1), false);
    page.send(Input::Answer(0));
    page.play_out(100_000);
    page.send(Input::Next);
    page.play_out(100_000);
    assert!(page.tour.moving_on());
    page.act(Command::Pause { node: "lin".into(), for_ms: None });
    assert!(page.tour.off_path() && !page.tour.moving_on());
    page.fire_move_ons();
    assert_eq!(page.tour.step(), belief, "a learner who changed the run is not moved on");
    // Next still goes on, from the lesson's own path.
    page.send(Input::Next);
    assert_at_start(&page, &plan, belief + 1, "next");
    assert!(!page.tour.off_path());
}

/// The audience step of `fencing-in-depth`, its index and count-down.
fn audience_step() -> (Arc<Lesson>, Arc<[PlannedStep]>, usize, u32) {
    let (lesson, plan) = planned("fencing-in-depth");
    let k = lesson.steps.iter().position(|s| s.ask.as_ref().is_some_and(|a| a.countdown_s.is_some())).expect("one");
    let seconds = lesson.steps[k].ask.as_ref().and_then(|a| a.countdown_s).expect("a count-down");
    (lesson, plan, k, seconds)
}

#[test]
fn the_audience_question_waits_behind_the_count_down_until_the_reveal() {
    let (lesson, plan, k, seconds) = audience_step();
    let ask = lesson.steps[k].ask.as_ref().expect("asks");
    // The moment the question is about: the first violation of its scenario, found by the
    // engine on its own (the issue: “16.0 s” into `deposed-41-accepted`, to the tenth).
    let scenario = library::get(&plan[k].start.scenario).expect("built-in").expect("valid");
    let mut alone = Sim::replay(scenario.config, &plan[k].start.interventions).expect("replays");
    alone.run_to_end();
    let violation = alone
        .trace()
        .iter()
        .find(|e| e.at_ms > plan[k].start.at_ms && matches!(e.event, TraceEvent::ViolationFound { .. }))
        .expect("a violation")
        .at_ms;
    assert!((15_950..16_050).contains(&violation), "{violation}");

    let mut page = Page::open("fencing-in-depth", Some(k), true);
    assert_eq!(page.tour.phase(), Phase::Counting);
    assert!(page.tour.holds_run(), "the play keys reveal instead of playing");
    assert_eq!(page.tour.countdown(), seconds);
    assert_eq!(page.focus, vec![Focus::Reveal]);
    assert_eq!(page.stop_at, Some(plan[k].start.at_ms), "held at the step's start");
    // Even a run set playing does not move while the audience thinks.
    page.press_play();
    page.play_out(200);
    assert_at_start(&page, &plan, k, "counting");
    page.playing = false;
    // The room's answer is noted, nothing plays; Next waits.
    page.send(Input::Answer(ask.answer));
    assert_eq!(page.tour.phase(), Phase::Counting);
    assert!(!page.playing);
    assert!(page.send(Input::Next).is_empty());
    assert_eq!(page.tour.step(), k);
    // The count-down, one second per tick, to zero and no further.
    for left in (0..seconds).rev() {
        assert_eq!(page.ticks.len(), 1, "one timer at a time");
        page.fire_ticks();
        assert_eq!(page.tour.countdown(), left);
    }
    assert!(page.ticks.is_empty(), "time is up: no more ticks");
    assert_eq!(page.tour.phase(), Phase::Counting, "the presenter reveals, not the clock");

    // The reveal: the count-down closes and the run plays to the moment, and stops there.
    page.send(Input::Reveal);
    assert!(!page.tour.holds_run());
    assert_eq!(page.tour.phase(), Phase::Playing);
    assert_eq!(page.focus.last(), Some(&Focus::Title));
    assert!(page.playing);
    assert_eq!(page.stop_at, Some(violation));
    page.play_out(100_000);
    assert_eq!(page.tour.phase(), Phase::Reached);
    assert_eq!(page.sim.now_ms(), violation, "not a millisecond past the moment");
    assert_at_moment(&page, &lesson, &plan, k, "revealed");
    assert_eq!(page.tour.verdict(Lang::En).as_deref(), Some(Ui::PredictionRight.text(Lang::En)));
    assert_eq!(page.revealed_shown, 1);
    assert_eq!(page.pointed, lesson.steps[k].point);

    // A late tick of the closed count-down changes nothing.
    let ticket_effects = page.send(Input::CountdownTick(0));
    assert!(ticket_effects.is_empty());
    // Nobody answered: the reveal says so.
    let mut page = Page::open("fencing-in-depth", Some(k), true);
    page.send(Input::Reveal);
    page.play_out(100_000);
    assert_eq!(page.tour.verdict(Lang::En).as_deref(), Some(Ui::PredictionNone.text(Lang::En)));
}

#[test]
fn outside_presenter_mode_a_count_down_question_is_an_ordinary_one() {
    let (lesson, plan, k, seconds) = audience_step();
    let mut page = Page::open("fencing-in-depth", Some(k), false);
    assert_eq!(page.tour.phase(), Phase::Asking);
    assert!(!page.tour.holds_run());
    assert!(page.ticks.is_empty() && page.focus.is_empty());
    assert!(page.send(Input::Reveal).is_empty(), "nothing to reveal");
    // Presenter mode switched on: the room's question, counted down, the run held.
    page.send(Input::Presenter(true));
    assert_eq!((page.tour.phase(), page.tour.countdown()), (Phase::Counting, seconds));
    assert_eq!(page.stop_at, Some(plan[k].start.at_ms));
    assert_eq!(page.ticks.len(), 1);
    // And off again: an ordinary question; the old timer stops.
    page.send(Input::Presenter(false));
    assert_eq!(page.tour.phase(), Phase::Asking);
    page.fire_ticks();
    assert!(page.ticks.is_empty());
    page.send(Input::Answer(lesson.steps[k].ask.as_ref().expect("asks").answer));
    assert_eq!(page.tour.phase(), Phase::Playing, "answered, it plays at once");
    page.play_out(100_000);
    assert_at_moment(&page, &lesson, &plan, k, "ordinary");
    // An answered question is not asked again in presenter mode: opened again, it plays.
    page.send(Input::Presenter(true));
    page.send(Input::Go(k));
    assert_eq!(page.tour.phase(), Phase::Playing);
}

/// Pressing Play with the question open (walkthrough of issue 13: the run played past the moment
/// and a later right answer was credited as a prediction): the run plays to the step's moment and
/// stops there, and the question is closed unanswered.
#[test]
fn playing_instead_of_answering_closes_the_question_unanswered() {
    let (lesson, plan) = planned("harbor-replaced");
    let sand = step_titled(&lesson, "The sand runs out");
    let ask = lesson.steps[sand].ask.as_ref().expect("asks");
    let mut page = Page::open("harbor-replaced", Some(sand), false);
    assert_eq!(page.tour.phase(), Phase::Asking);
    page.send(Input::Played);
    assert_eq!(page.tour.phase(), Phase::Playing, "it plays on to the moment");
    assert_eq!(page.stop_at, Some(plan[sand].until.expect("awaits").0), "and stops there");
    assert!(page.send(Input::Answer(ask.answer)).is_empty(), "no answer while it plays");
    page.play_out(100_000);
    assert_at_moment(&page, &lesson, &plan, sand, "played unanswered");
    assert!(page.send(Input::Answer(ask.answer)).is_empty(), "nor once the outcome is seen");
    assert_eq!(page.tour.answer(sand), None);
    assert_eq!(page.tour.verdict(Lang::En).as_deref(), Some("You watched without predicting."));
    // Played again at the moment (or on a step without a question) it changes nothing.
    assert!(page.send(Input::Played).is_empty());
}

#[test]
fn answers_only_count_while_the_question_is_open() {
    let (lesson, _) = planned("harbor-replaced");
    let sand = step_titled(&lesson, "The sand runs out");
    let choices = lesson.steps[sand].ask.as_ref().expect("asks").choices.len();
    let mut page = Page::open("harbor-replaced", Some(sand), false);
    assert!(page.send(Input::Answer(choices)).is_empty(), "not one of the choices");
    assert_eq!(page.tour.answer(sand), None);
    let wrong = (lesson.steps[sand].ask.as_ref().expect("asks").answer + 1) % choices;
    page.send(Input::Answer(wrong));
    page.play_out(100_000);
    assert_eq!(page.tour.phase(), Phase::Reached);
    // Too late to change one's mind.
    assert!(page.send(Input::Answer(0)).is_empty());
    assert_eq!(page.tour.answer(sand), Some(wrong));
    let verdict = page.tour.verdict(Lang::En).expect("revealed");
    assert!(verdict.contains(&lesson.steps[sand].ask.as_ref().expect("asks").choices[wrong].text.en), "{verdict}");
    // A step without a question takes no answer.
    page.send(Input::Next);
    assert!(page.send(Input::Answer(0)).is_empty());
}

#[test]
fn progress_is_kept_and_a_lesson_opened_again_resumes() {
    let (lesson, plan) = planned("harbor-replaced");
    let sand = step_titled(&lesson, "The sand runs out");
    let n = lesson.steps.len();
    let mut page = Page::open("harbor-replaced", None, false);
    assert_eq!(page.tour.step(), 0, "no progress: the first step");
    for _ in 0..sand {
        page.play_out(100_000);
        page.send(Input::Next);
    }
    page.send(Input::Answer(1));
    let kept = page.progress("harbor-replaced").expect("saved");
    let mut answers = vec![None; n];
    answers[sand] = Some(1);
    assert_eq!(kept, encode_progress(sand, sand, &answers));

    // Opened again without a step: where the learner was, with the answer.
    let mut again = Page::new();
    let (l, p) = planned("harbor-replaced");
    again.send(Input::Open {
        lesson: l,
        plan: p,
        step: None,
        kept: Some(kept.clone()),
        lang: Lang::Zh,
        presenter: false,
    });
    assert_eq!(again.tour.step(), sand);
    assert_eq!(again.tour.answer(sand), Some(1));
    assert_eq!(again.tour.phase(), Phase::Playing, "an answered question plays");
    assert_at_start(&again, &plan, sand, "resumed");
    assert_eq!(again.address, format!("?lesson=harbor-replaced&step={}&lang=zh", sand + 1));

    // A link far ahead does not tick the steps before it as seen.
    let (l, p) = planned("harbor-replaced");
    let mut far = Page::new();
    far.send(Input::Open { lesson: l, plan: p, step: Some(n - 1), kept: None, lang: Lang::En, presenter: false });
    assert_eq!((far.tour.step(), far.tour.furthest()), (n - 1, 0));

    // A step beyond the lesson: the last one, and a notice naming both numbers.
    let (l, p) = planned("harbor-replaced");
    let mut beyond = Page::new();
    beyond.send(Input::Open { lesson: l, plan: p, step: Some(98), kept: None, lang: Lang::En, presenter: false });
    assert_eq!(beyond.tour.step(), n - 1);
    let notice = beyond.tour.notice.clone().expect("a notice");
    assert!(notice.contains("99") && notice.contains(&n.to_string()), "{notice}");

    // Kept progress that does not fit this lesson, or names a choice that does not exist.
    let seven = encode_progress(2, 2, &vec![Some(7); n]);
    for bad in ["9 9", "x", seven.as_str()] {
        let (l, p) = planned("harbor-replaced");
        let mut page = Page::new();
        page.send(Input::Open {
            lesson: l,
            plan: p,
            step: None,
            kept: Some(bad.to_owned()),
            lang: Lang::En,
            presenter: false,
        });
        assert!((0..n).all(|i| page.tour.answer(i).is_none()), "{bad}: no answer taken from it");
    }
}

#[test]
fn leaving_the_lesson_and_a_lesson_that_cannot_open() {
    let mut page = Page::open("lantern-return-hour", None, false);
    assert_eq!(page.fable, Fable::from_code("lantern"), "the lesson's fable");
    page.play_out(3);
    page.send(Input::Leave);
    assert!(page.tour.lesson().is_none());
    // English is the default: the address says no language (the page adds the scenario).
    assert_eq!(page.address, "");
    assert_eq!(page.stop_at, None);
    assert!(page.pointed.is_empty());
    // The sandbox is left alone: no timers, no watching, no lesson keys.
    page.fire_move_ons();
    page.fire_ticks();
    for input in [Input::Next, Input::Back, Input::Reveal, Input::Answer(0), Input::Reached, Input::OffPath] {
        assert!(page.send(input).is_empty());
    }
    assert_eq!(page.tour.observe(RunView { on_path: false, trace_len: 0 }).map(|_| ()), None);

    let mut page = Page::new();
    page.send(Input::Lang(Lang::Zh));
    assert!(page.address.is_empty(), "no lesson: the address is not the tour's");
    page.send(Input::Failed("steps[0].scenario: \"x\" is not a built-in scenario".into()));
    let notice = page.tour.notice.clone().expect("a notice");
    assert!(notice.contains("steps[0].scenario"), "{notice}");
    assert_eq!(
        notice,
        Ui::LessonCannotOpen.text(Lang::Zh).replace("{error}", "steps[0].scenario: \"x\" is not a built-in scenario")
    );
}

/// A step plays with its own pacing; the next step without one, and the sandbox after the
/// lesson, with the page's.
#[test]
fn a_step_plays_with_its_own_pacing() {
    let step =
        |extra: &str| format!(r#"{{"title": {{"en": "a", "zh": "甲"}}, "text": {{"en": "b", "zh": "乙"}}{extra}}}"#);
    let json = format!(
        r#"{{"format": "leaselab.lesson/1", "id": "t", "title": {{"en": "T", "zh": "题"}}, "steps": [{}, {}]}}"#,
        step(r#", "scenario": "harbor-zombie", "pacing": "true""#),
        step("")
    );
    let lesson = lesson::parse(&json).expect("valid");
    let plan = lesson::plan(&lesson, library::get).expect("plays");
    let mut page = Page::new();
    page.send(Input::Open {
        lesson: Arc::new(lesson),
        plan: plan.into(),
        step: None,
        kept: None,
        lang: Lang::En,
        presenter: false,
    });
    assert_eq!(page.pacing, Some(Pacing::True), "the first step plays in true time");
    page.send(Input::Next);
    assert_eq!(page.tour.step(), 1);
    assert_eq!(page.pacing, None, "the second step follows the page");
    page.send(Input::Back);
    assert_eq!(page.pacing, Some(Pacing::True));
    page.send(Input::Leave);
    assert_eq!(page.pacing, None, "the sandbox follows the page");
}

#[test]
fn a_metaphor_row_lights_its_element_up() {
    let (lesson, _) = planned("harbor-replaced");
    let last = lesson.steps.len() - 1;
    assert!(lesson.steps[last].metaphors);
    let mut page = Page::open("harbor-replaced", Some(last), false);
    for (k, m) in lesson.metaphors.iter().enumerate() {
        page.send(Input::Point(k));
        assert_eq!(page.pointed, vec![m.element.clone()]);
    }
    assert!(page.send(Input::Point(lesson.metaphors.len())).is_empty());
}

#[test]
fn the_live_region_hears_each_step_once_and_each_reveal() {
    let (lesson, _) = planned("harbor-replaced");
    let sand = step_titled(&lesson, "The sand runs out");
    let mut page = Page::open("harbor-replaced", Some(sand), false);
    let (key, text) = page.tour.announcement(Lang::En).expect("a step");
    assert_eq!(text, format!("Step {} of {}: {}", sand + 1, lesson.steps.len(), lesson.steps[sand].title.en));
    page.play_out(5);
    assert_eq!(page.tour.announcement(Lang::En).map(|a| a.0), Some(key.clone()), "nothing new to say");
    let ask = lesson.steps[sand].ask.as_ref().expect("asks");
    page.send(Input::Answer(ask.answer));
    page.play_out(100_000);
    let (revealed, text) = page.tour.announcement(Lang::En).expect("the reveal");
    assert_ne!(revealed, key);
    assert!(text.starts_with(Ui::PredictionRight.text(Lang::En)) && text.ends_with(&ask.why.en), "{text}");
}
