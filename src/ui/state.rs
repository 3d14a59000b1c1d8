//! The app's state (its clock in [`clock`], the run's files and address in [`files`]).
//!
//! The engine lives in a non-reactive holder ([`StoredValue`]); after anything moves it, one
//! [`Snapshot`] is published to a signal, the one fable-neutral [`Picture`] is derived from it
//! (each fable's scene tells it, only the one shown is drawn), and new trace entries are appended to the log and folded into the [`Ledger`]
//! (judged writes, violations). Components read only those: never the engine itself. The fable
//! shown is a telling, not part of the run: switching it changes the cast and the pictures'
//! words, never the engine.

use std::sync::Arc;

use leptos::prelude::*;

use crate::engine::compare::{compare, Divergence, Setting};
use crate::engine::timeline::Timeline;
use crate::engine::ScheduledCommand;
use crate::engine::{Command, Config, Sim, Snapshot, TraceEntry};
use crate::scenario::lesson::Element;
use crate::scenario::{Pacing, Scenario};
use crate::story::pacing::{Pacer, Play};
use crate::story::picture::{self, Memory, Picture};
use crate::story::technical::{Ledger, View};
use crate::story::theme::Theme;
use crate::story::violations::Highlight;
use crate::story::{narrate, Cast};
use crate::vocab::Fable;
use crate::vocab::Lang;

use super::hands::{Figure, ScriptNotice};
use super::lesson::Tutor;
use super::plain::Plain;

mod clock;
mod files;

use clock::now_ms;
use files::rewrite_address;
pub use files::RunFile;

/// Slowest and fastest speeds, as powers of two: 0.25× ..= 64×.
pub const SPEED_LOG2_MIN: i32 = -2;
pub const SPEED_LOG2_MAX: i32 = 6;

/// Log rows kept on the page, at least (older ones are dropped so the page stays quick): the
/// oldest batch of rows (those published in one frame) is dropped whole once the newer rows are
/// this many, so the page holds this many plus at most one batch.
pub const LOG_ROWS_KEPT: usize = 400;

/// Longest real time one frame may account for, in ms (a background tab does not jump ahead).
const MAX_FRAME_MS: f64 = 250.0;

/// One row of the event log: a trace entry worth narrating.
#[derive(Clone, Debug)]
pub struct LogRow {
    /// Which run of the page the row belongs to (grows on every reset), so rows of a new run
    /// never reuse the views of an old run's rows with the same trace position.
    pub run: u32,
    /// The rows published together (in one frame) share this: the trace's length before them.
    /// The log draws each such batch as one keyed item (see `log::Log`).
    pub batch: usize,
    pub entry: TraceEntry,
    pub kind: &'static str,
    pub minor: bool,
}

/// Two rows are the same row when they tell the same trace entry of the same run: the engine is
/// deterministic, so the entry at a trace position of a run is always the same (the caption's memo
/// compares rows this way instead of field by field).
impl PartialEq for LogRow {
    fn eq(&self, other: &Self) -> bool {
        self.run == other.run && self.entry.seq == other.entry.seq
    }
}

impl LogRow {
    /// The batch the row was published in, across runs: the log draws and drops batches whole.
    pub fn batch_key(&self) -> (u32, usize) {
        (self.run, self.batch)
    }
}

/// Everything the components share. All fields are `Copy` handles.
#[derive(Clone, Copy)]
pub struct AppState {
    sim: StoredValue<Sim>,
    /// The run's checkpoints and live interventions: seeking, stepping back and forking.
    timeline: StoredValue<Timeline>,
    /// What the picture remembers from the trace.
    memory: StoredValue<Memory>,
    /// What publishing keeps from one publish to the next (the log's and the diagram's turns).
    publishing: StoredValue<Publishing>,
    /// The virtual clock and how it turns real time into virtual time (see `story::pacing`).
    pace: StoredValue<Pace>,
    /// The page's pacing: `false` for story time (the default), `true` for true time (plain
    /// real time × speed). A bool rather than a [`Pacing`]: a signal of a type of its own costs
    /// the page about half a kilobyte.
    pub true_time: Plain<bool>,
    pub scenario: RwSignal<Scenario>,
    /// The fable the learner chose (the picker or `&fable=`); `None` follows the scenario's own.
    pub fable_choice: Plain<Option<Fable>>,
    /// The fable shown: the learner's choice, else the scenario's.
    pub fable: Memo<Fable>,
    /// Who is who in the fable shown.
    pub cast: Memo<Cast>,
    pub snapshot: RwSignal<Snapshot>,
    /// The run now as both fables draw it, built once per snapshot.
    pub picture: Memo<Picture>,
    pub finished: Plain<bool>,
    pub log: RwSignal<Vec<Arc<LogRow>>>,
    pub log_trimmed: Plain<bool>,
    pub hide_minor: Plain<bool>,
    pub lang: Plain<Lang>,
    /// The smallest size a scene's words are drawn at, in view-box units, for the size the scene
    /// is shown at (set by `draw::keep_readable`; 0 until the scene is measured).
    pub floor: Plain<f64>,
    pub playing: Plain<bool>,
    pub speed_log2: Plain<i32>,
    /// Which real system the technical view imitates.
    pub tech_view: Plain<View>,
    /// The page's colour theme (`data-theme` on `<html>`).
    pub theme: Plain<Theme>,
    /// The latest judged writes and every violation of this run, folded from the trace.
    pub ledger: RwSignal<Ledger>,
    /// What the scene lights up (a violation under the pointer or the keyboard focus).
    pub highlight: RwSignal<Option<Highlight>>,
    /// The run's `trace_hash` so far (equal hashes: identical runs), for share links and tests;
    /// empty until the page's later parts have come (`later::Coming::trace_hash`).
    pub trace_hash: RwSignal<String>,
    /// The last share link or `<iframe>` snippet ("Embed this") made, shown for copying.
    pub share_url: RwSignal<Option<String>>,
    /// The virtual time the space-time diagram was last asked to redraw at. While playing it
    /// moves at most every [`DIAGRAM_REDRAW_MS`] of real time, or [`CATCH_UP_MS`] at speed (and
    /// when the playhead leaves what the drawing covers): rebuilding the drawing's markup every
    /// frame at 64× doubled the 95th-percentile frame time; between redraws it only slides.
    pub diagram_now: Plain<u64>,
    /// The JSON of an imported scenario (a file or a link's `s=`); `None` for a built-in.
    pub source: RwSignal<Option<String>>,
    /// The setting the compared run flips; `None`: no comparison.
    pub compare: RwSignal<Option<Setting>>,
    /// Where the compared run first parts from this one (`Some(None)`: never), recomputed when
    /// the run changes (an intervention, a reset, another scenario).
    pub divergence: RwSignal<Option<Option<Divergence>>>,
    /// The comparison's runs and code, once one has been asked for ([`AppState::set_compare`]).
    comparing: StoredValue<Option<Comparing>>,
    /// The compared run's picture at this run's moment (`None` without a comparison): its scene
    /// is drawn beside this run's.
    pub other_picture: RwSignal<Option<Picture>>,
    /// What a lesson step or a metaphor row points at in the scene and the diagram.
    pub pointed: RwSignal<Vec<Element>>,
    /// The lesson being followed, if any.
    pub tutor: Tutor,
    /// The parts of the page that come after the first scene (`later`), once they have come.
    pub later: super::later::Coming,
    /// Presenter mode: large type and strokes, full screen, controls hidden until wanted.
    pub presenter: Plain<bool>,
    /// In presenter mode: the controls shown.
    pub show_controls: Plain<bool>,
    /// The keyboard shortcuts overlay is open.
    pub help: Plain<bool>,
    /// The lesson panel's table of contents is open.
    pub contents: Plain<bool>,
    /// How many actions the learner has taken (`act::perform`): what the page does by itself a
    /// moment later (the lesson's second scroll to its reveal) is left undone once they have
    /// acted since, so nothing moves under their pointer.
    pub acts: Plain<u64>,
    /// The card at the run's end was put away (until a new run reaches its end).
    pub recap_put_away: Plain<bool>,
    /// The landing card over the scene (what to do first) is shown: a fresh page, until the
    /// learner starts something.
    pub landing: Plain<bool>,
    /// The figure whose menu is open (or was last), see `hands`.
    pub figure: RwSignal<Option<Figure>>,
    /// The script will act again on a node the learner just acted on: the page says so.
    pub script_notice: RwSignal<Option<ScriptNotice>>,
    /// Which tab of the side panel is shown.
    pub side_tab: Plain<SideTab>,
    /// The learner enlarged the space-time diagram (it spans the page's width under the stage).
    pub diagram_big: Plain<bool>,
    /// The controls the focus is handed to when the one that had it goes (see `focus`).
    pub(crate) anchors: super::focus::Anchors,
}

/// The side panel's tabs: the run's history, its people, and the panels for engineers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SideTab {
    /// The event log.
    #[default]
    Log,
    /// The flag-bearers' (borrowers') cards.
    Crew,
    /// The lease in its own terms, and the metaphor table.
    Lease,
    /// kubectl / redis-cli / etcdctl, and the resource's table.
    Technical,
    /// The oracle's findings.
    Problems,
    /// Ask the engine: search the scenario's runs (issue 30).
    Ask,
}

impl SideTab {
    /// Every tab, in the order shown.
    pub const ALL: [SideTab; 6] =
        [SideTab::Log, SideTab::Crew, SideTab::Lease, SideTab::Technical, SideTab::Problems, SideTab::Ask];

    /// The tab's code (`data-tab`, `data-tab-panel`).
    pub fn code(self) -> &'static str {
        match self {
            SideTab::Crew => "crew",
            SideTab::Log => "log",
            SideTab::Lease => "lease",
            SideTab::Technical => "technical",
            SideTab::Problems => "problems",
            SideTab::Ask => "ask",
        }
    }
}

/// The virtual clock and its pacing between frames. Kept in one stored value with
/// [`Publishing`] beside it, rather than a stored value per field: each stored value of a type
/// of its own is code in the page (issue 14).
struct Pace {
    /// Virtual clock, in ms (fractional, so slow speeds still advance).
    clock_ms: f64,
    pacer: Pacer,
    /// A lesson step's own pacing, which it plays with instead of the page's.
    step: Option<Pacing>,
    /// While playing, the clock stops at this moment (a lesson step's awaited event), in ms.
    stop_at_ms: Option<u64>,
    /// `prefers-reduced-motion`: the scene moves in steps while playing.
    reduced_motion: bool,
    /// With reduced motion: real time gathered since the scene last moved, in ms.
    owed_ms: f64,
    /// When the engine last caught up with the clock, in real ms (reduced motion).
    moved_at_ms: f64,
}

/// What publishing the engine's state keeps from one publish to the next.
struct Publishing {
    /// Trace entries already turned into log rows.
    logged: usize,
    /// Number of the current run (see [`LogRow::run`]).
    run: u32,
    /// When the diagram last redrew, or (at speed) the log or the diagram last caught up, in
    /// real ms.
    diagram_stamp_ms: f64,
    /// At [`FAST_FROM_SPEED`] or faster, whether the log catches up next (else the diagram).
    log_turn: bool,
    /// The latest moment the diagram's current drawing covers (see
    /// [`AppState::set_diagram_horizon`]), in ms.
    diagram_horizon_ms: u64,
}

impl Publishing {
    /// A new run (a seek or a reset) whose log starts at trace entry `logged`.
    fn new_run(&mut self, logged: usize) {
        self.logged = logged;
        self.run = self.run.wrapping_add(1);
    }
}

/// With `prefers-reduced-motion`, the real time between two steps of the scene while playing,
/// in ms.
pub const REDUCED_MOTION_STEP_MS: f64 = 600.0;

/// Whether the learner's system asks for reduced motion (`prefers-reduced-motion: reduce`).
fn prefers_reduced_motion() -> bool {
    crate::ui::window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Least real time between two redraws of the space-time diagram while playing, in ms (below
/// [`FAST_FROM_SPEED`]).
pub const DIAGRAM_REDRAW_MS: f64 = 500.0;

/// From this speed up, while playing, the log and the space-time diagram catch up with the run
/// in turns, each at most every [`CATCH_UP_MS`] of real time and half that apart, so that no frame
/// does both (and at once when paused, or when the run ends); the scene and the clock still move
/// every frame. At 64× the log had new rows every frame and each addition cost the page a layout
/// of its side panel: the frame rate halved (issue 14). Nobody reads a log that fast; below this
/// speed the log follows each frame.
pub const FAST_FROM_SPEED: f64 = 16.0;

/// Least real time between two catch-ups of the log, and between two redraws of the diagram, at
/// [`FAST_FROM_SPEED`] or faster, in ms.
pub const CATCH_UP_MS: f64 = 1_000.0;

/// A run of `config` (checked when its scenario was read: `Sim::from_checked`) at 0 ms, and its
/// timeline. At 0 ms whoever starts at once is already on the breakwater.
fn fresh_run(config: &Config) -> (Sim, Timeline) {
    let mut sim = Sim::from_checked(config.clone());
    sim.advance_to(0);
    (sim, Timeline::from_checked(config.clone()))
}

/// What comparing keeps, once a comparison has been asked for: its code, and the compared run.
/// One stored value rather than one per field: each stored value of a type of its own is code in
/// the page (issue 14).
struct Comparing {
    /// Playing both runs through, and moving the compared run to this run's moment.
    code: CompareCode,
    /// The compared run's whole trace.
    trace: Vec<TraceEntry>,
    /// The compared run as a timeline (the same interventions), to show it at this run's moment.
    timeline: Option<Timeline>,
    /// The compared run at the moment shown (moved on with this run, or sought when it goes back).
    sim: Option<Sim>,
    /// The picture's memory of the compared run's trace.
    memory: Memory,
}

/// The comparing code, reached through these pointers only (set by [`AppState::set_compare`]),
/// so that the split build puts it in the chunk of the page's later parts with the compare bar
/// (issue 14: the first load).
#[derive(Clone, Copy)]
struct CompareCode {
    /// Plays both runs to their end and finds where they part.
    refresh: fn(&AppState),
    /// Moves the compared run to this run's moment and publishes its picture.
    publish: fn(&AppState),
}

impl AppState {
    /// A fresh app on `scenario`, told as `fable` (`None`: the scenario's own). Every scenario
    /// the page has was read by `scenario::parse`, which checks its config, or is the built-in
    /// opening: its runs start unchecked (`Sim::from_checked`).
    pub fn new(scenario: Scenario, fable: Option<Fable>, lang: Lang, speed_log2: i32, playing: bool) -> Self {
        let (sim, timeline) = fresh_run(&scenario.config);
        let snapshot = RwSignal::new(sim.snapshot());
        let memory = StoredValue::new(Memory::default());
        let scenario = RwSignal::new(scenario);
        let fable_choice = Plain::new(fable);
        let fable = Memo::new(move |_| fable_choice.get().unwrap_or_else(|| scenario.with(|s| s.fable)));
        // One picture for both fables; each scene redraws only while its fable is shown.
        let picture = Memo::new(move |_| {
            let snap = snapshot.read();
            memory.with_value(|m| picture::picture(&snap, m))
        });
        let cast = Memo::new(move |_| scenario.with(|s| Cast::for_fable(s, fable.get())));
        let state = Self {
            sim: StoredValue::new(sim),
            timeline: StoredValue::new(timeline),
            memory,
            publishing: StoredValue::new(Publishing {
                logged: 0,
                run: 0,
                diagram_stamp_ms: f64::NEG_INFINITY,
                log_turn: true,
                diagram_horizon_ms: u64::MAX,
            }),
            pace: StoredValue::new(Pace {
                clock_ms: 0.0,
                pacer: Pacer::default(),
                step: None,
                stop_at_ms: None,
                reduced_motion: prefers_reduced_motion(),
                owed_ms: 0.0,
                moved_at_ms: f64::NEG_INFINITY,
            }),
            true_time: Plain::new(false),
            scenario,
            fable_choice,
            fable,
            cast,
            snapshot,
            picture,
            finished: Plain::new(false),
            log: RwSignal::new(Vec::new()),
            log_trimmed: Plain::new(false),
            hide_minor: Plain::new(false),
            lang: Plain::new(lang),
            floor: Plain::new(0.0),
            playing: Plain::new(playing),
            speed_log2: Plain::new(speed_log2.clamp(SPEED_LOG2_MIN, SPEED_LOG2_MAX)),
            tech_view: Plain::new(View::default()),
            theme: Plain::new(Theme::default()),
            ledger: RwSignal::new(Ledger::default()),
            highlight: RwSignal::new(None),
            trace_hash: RwSignal::new(String::new()),
            share_url: RwSignal::new(None),
            diagram_now: Plain::new(0),
            source: RwSignal::new(None),
            compare: RwSignal::new(None),
            divergence: RwSignal::new(None),
            comparing: StoredValue::new(None),
            other_picture: RwSignal::new(None),
            pointed: RwSignal::new(Vec::new()),
            tutor: Tutor::new(),
            later: super::later::Coming::new(),
            presenter: Plain::new(false),
            show_controls: Plain::new(false),
            help: Plain::new(false),
            contents: Plain::new(false),
            acts: Plain::new(0),
            recap_put_away: Plain::new(false),
            landing: Plain::new(false),
            anchors: super::focus::Anchors::default(),
            figure: RwSignal::new(None),
            script_notice: RwSignal::new(None),
            side_tab: Plain::new(SideTab::default()),
            diagram_big: Plain::new(false),
        };
        state.publish();
        state
    }

    /// Speed as a factor: 2^speed_log2.
    pub fn speed_factor(log2: i32) -> f64 {
        2f64.powi(log2.clamp(SPEED_LOG2_MIN, SPEED_LOG2_MAX))
    }

    /// Whether the trace has entries the log has not taken yet (see [`FAST_FROM_SPEED`]).
    fn log_behind(&self) -> bool {
        let logged = self.publishing.with_value(|p| p.logged);
        self.sim.with_value(|sim| logged < sim.trace().len())
    }

    /// Sets [`Self::trace_hash`] from the run as it stands, once the later parts' chunk, which
    /// computes it, has come (`later::Coming::trace_hash`).
    pub fn refresh_trace_hash(&self) {
        if let Some(hash) = self.sim.try_update_value(|sim| self.later.trace_hash(sim)).flatten() {
            self.trace_hash.set(hash);
        }
    }

    /// Publishes the engine's state: the snapshot, the picture's memory of the trace, new log rows.
    fn publish(&self) {
        let cast = self.cast.get_untracked();
        let (logged, run, stamp_ms, log_turn, horizon_ms) =
            self.publishing.with_value(|p| (p.logged, p.run, p.diagram_stamp_ms, p.log_turn, p.diagram_horizon_ms));
        let real = now_ms().unwrap_or(0.0);
        let playing = self.playing.get_untracked();
        let fast = playing && Self::speed_factor(self.speed_log2.get_untracked()) >= FAST_FROM_SPEED;
        let every_ms = if fast { CATCH_UP_MS / 2.0 } else { DIAGRAM_REDRAW_MS };
        let on_time = real - stamp_ms >= every_ms;
        // At speed, whose turn it is when on time (`log_turn`): the log's or the diagram's.
        let (snapshot, finished, mut rows, log_due, trace_len) = self.sim.with_value(|sim| {
            let trace = sim.trace();
            self.memory.update_value(|m| m.absorb(trace));
            self.ledger.maybe_update(|l| l.absorb(trace));
            let log_due = !fast || (on_time && log_turn) || sim.finished();
            // Not due: the rows wait in the trace (`logged` stays) for a later publish.
            let from = if log_due { logged } else { trace.len() };
            let rows: Vec<Arc<LogRow>> = trace
                .get(from..)
                .unwrap_or(&[])
                .iter()
                .filter_map(|entry| {
                    narrate(entry, &cast, Lang::En).map(|n| {
                        Arc::new(LogRow { run, batch: logged, entry: entry.clone(), kind: n.kind, minor: n.minor })
                    })
                })
                .collect();
            (sim.snapshot(), sim.finished(), rows, log_due, trace.len())
        });
        self.refresh_trace_hash();
        if log_due {
            self.publishing.update_value(|p| p.logged = trace_len);
        }
        if !rows.is_empty() {
            // A batch is never larger than what the log keeps (a seek far into a long run).
            let mut trimmed = rows.len() > LOG_ROWS_KEPT;
            rows.drain(..rows.len().saturating_sub(LOG_ROWS_KEPT));
            self.log.update(|log| {
                log.extend(rows);
                // The oldest batch goes whole once the newer rows are enough without it: each
                // batch is one item of the log's list (`log::Log`), drawn once.
                while let Some(first) = log.first().map(|r| r.batch_key()) {
                    let n = log.iter().take_while(|r| r.batch_key() == first).count();
                    if log.len() - n < LOG_ROWS_KEPT {
                        break;
                    }
                    log.drain(..n);
                    trimmed = true;
                }
            });
            if trimmed && !self.log_trimmed.get_untracked() {
                self.log_trimmed.set(true);
            }
        }
        let now = snapshot.now_ms;
        self.snapshot.set(snapshot);
        if on_time && fast {
            self.publishing.update_value(|p| {
                p.log_turn = !log_turn;
                p.diagram_stamp_ms = real;
            });
        }
        let due = !playing || finished || now > horizon_ms || (on_time && !(fast && log_turn));
        if due {
            self.publishing.update_value(|p| p.diagram_stamp_ms = real);
            // Set even when equal: a seek or an intervention at the same moment changes the run.
            self.diagram_now.set(now);
        }
        if self.finished.get_untracked() != finished {
            self.finished.set(finished);
        }
        if finished && self.playing.get_untracked() {
            self.playing.set(false);
        }
        let publish = self.comparing.with_value(|c| c.as_ref().map(|c| c.code.publish));
        if let Some(publish) = publish.filter(|_| self.compare.with_untracked(Option::is_some)) {
            publish(self);
        }
    }

    /// The space-time diagram says how far its drawing reaches: once the playhead passes
    /// `t_ms`, the next frame redraws it whatever the time since the last redraw.
    pub fn set_diagram_horizon(&self, t_ms: u64) {
        self.publishing.update_value(|p| p.diagram_horizon_ms = t_ms);
    }

    /// One animation frame of `dt_ms` real time: the pacing says how far the virtual clock and
    /// the engine move (story time or plain real time × speed).
    fn tick(&self, dt_ms: f64) {
        if self.finished.get_untracked() {
            self.playing.set(false);
            return;
        }
        let mut real = crate::story::markup::within(dt_ms, 0.0, MAX_FRAME_MS);
        // With reduced motion the scene moves in steps: the real time is gathered and played
        // every REDUCED_MOTION_STEP_MS.
        if self.pace.with_value(|p| p.reduced_motion) {
            let now = now_ms().unwrap_or(0.0);
            let due = self
                .pace
                .try_update_value(|p| {
                    let due = now - p.moved_at_ms >= REDUCED_MOTION_STEP_MS;
                    p.owed_ms += real;
                    real = if due { std::mem::take(&mut p.owed_ms) } else { 0.0 };
                    if due {
                        p.moved_at_ms = now;
                    }
                    due
                })
                .unwrap_or(false);
            if !due {
                return;
            }
        }
        let (stop_at_ms, clock) = self.pace.with_value(|p| (p.stop_at_ms, p.clock_ms));
        let play =
            Play { speed: Self::speed_factor(self.speed_log2.get_untracked()), pacing: self.pacing_now(), stop_at_ms };
        // Interventions still ahead (after a seek back) apply at their times.
        let moved = self.timeline.with_value(|timeline| {
            self.sim.try_update_value(|sim| {
                let (entries, before) = (sim.trace().len(), sim.now_ms());
                let clock = self.pace.try_update_value(|p| p.pacer.frame(timeline, sim, clock, real, play));
                (clock, sim.trace().len() != entries || sim.now_ms() != before)
            })
        });
        if let Some((Some(clock), moved)) = moved {
            self.pace.update_value(|p| p.clock_ms = clock);
            if moved {
                self.publish();
            }
        }
    }

    /// The pacing played now: the lesson step's own, else the page's.
    pub fn pacing_now(&self) -> Pacing {
        let page = if self.true_time.get_untracked() { Pacing::True } else { Pacing::Story };
        self.pace.with_value(|p| p.step).unwrap_or(page)
    }

    /// A lesson step plays with `pacing` (`None`: the page's setting).
    pub fn set_step_pacing(&self, pacing: Option<Pacing>) {
        self.pace.update_value(|p| p.step = pacing);
    }

    /// The step button: run the engine to its next trace entry, and move the clock there.
    pub fn step(&self) {
        self.playing.set(false);
        let now = self.timeline.with_value(|timeline| {
            self.sim.try_update_value(|sim| {
                timeline.step(sim);
                sim.now_ms()
            })
        });
        if let Some(now) = now {
            self.pace.update_value(|p| p.clock_ms = now as f64);
        }
        self.publish();
    }

    /// Applies a learner's command now. After a seek back this forks the run: the old future's
    /// interventions are discarded and the future is computed anew. A refused command changes
    /// nothing.
    pub fn apply(&self, command: Command) {
        let _ = self.try_apply(command);
    }

    /// The learner acts on a node (from its figure, its card or a shortcut): the command is
    /// applied, and if the scenario's script acts on that node later, the page says so and
    /// offers to drop those steps.
    pub fn act_on_node(&self, command: Command) {
        let node = super::hands::acts_on_node(&command).map(str::to_owned);
        self.landing.set(false);
        if self.try_apply(command).is_err() {
            return;
        }
        let Some(node) = node else { return };
        let ahead = super::hands::script_ahead_for(*self, &node, self.lang.get_untracked());
        self.script_notice.set(ahead.first().map(|(at, _)| ScriptNotice { node, next_at_ms: *at }));
    }

    /// The scenario's scripted steps still ahead (not run yet, not dropped), in order; only those
    /// acting on `node` when it is given.
    pub fn script_ahead(&self, node: Option<&str>) -> Vec<ScheduledCommand> {
        self.sim.with_value(|sim| match node {
            Some(node) => sim.script_ahead_for(node),
            None => sim.script_ahead(),
        })
    }

    /// The scripted steps set aside so far: [`Sim::script_dropped`].
    pub fn script_dropped(&self) -> Vec<(String, u64)> {
        self.sim.with_value(Sim::script_dropped)
    }

    /// [`apply`](Self::apply), saying why the engine refused the command (an unknown node, a
    /// bad argument; in English).
    ///
    /// # Errors
    /// The engine's refusal; nothing changed.
    pub fn try_apply(&self, command: Command) -> Result<(), String> {
        let now = self.sim.with_value(Sim::now_ms);
        let forked = self.timeline.try_update_value(|timeline| timeline.intervene(now, command));
        let result = match forked {
            Some(Ok(sim)) => {
                self.sim.set_value(sim);
                Ok(())
            }
            Some(Err(e)) => Err(e.to_string()),
            None => Err(String::from("the run is not available")),
        };
        self.share_url.set(None);
        self.publish();
        self.refresh_compare();
        result
    }

    /// While playing, stop the clock at `t_ms` (`None`: play on to the end).
    pub fn set_stop_at(&self, t_ms: Option<u64>) {
        self.pace.update_value(|p| p.stop_at_ms = t_ms);
    }

    /// Whether this run is built-in `scenario` with exactly `interventions` so far: a lesson step's
    /// own path.
    pub fn on_path(&self, scenario: &str, interventions: &[ScheduledCommand]) -> bool {
        self.source.with_untracked(Option::is_none)
            && self.scenario.with_untracked(|s| s.id == scenario)
            && self.timeline.with_value(|t| t.interventions() == interventions)
    }

    /// The interventions made on this run, in time order (the learner's, a share link's, a
    /// search's answer's).
    pub fn interventions(&self) -> Vec<ScheduledCommand> {
        self.timeline.with_value(|t| t.interventions().to_vec())
    }

    /// Whether the learner changed this run (an action on it, a dropped script step): it need not
    /// end as the scenario's summary tells.
    pub fn changed(&self) -> bool {
        self.timeline.with_value(|t| !t.interventions().is_empty())
    }

    /// How many trace entries the run holds.
    pub fn trace_len(&self) -> usize {
        self.sim.with_value(|s| s.trace().len())
    }

    /// Rebuilds a run exactly: `scenario` from 0 ms (loaded afresh if another one is playing),
    /// `interventions` at their times, then the moment `at_ms`, paused (a lesson step's start).
    ///
    /// # Errors
    /// The engine's refusal (in English); the current run goes on untouched.
    pub fn restore(&self, scenario: Scenario, interventions: &[ScheduledCommand], at_ms: u64) -> Result<(), String> {
        let same = self.source.with_untracked(Option::is_none) && self.scenario.with_untracked(|s| *s == scenario);
        if same {
            self.reset();
        } else {
            self.load(scenario);
        }
        self.replay_link(interventions, Some(at_ms)).map_err(|e| e.to_string())
    }

    /// Compares this run with the same run, `setting` flipped (`None`: no comparison).
    pub fn set_compare(&self, setting: Option<Setting>) {
        // The comparing code is reached from here only, and this from the compare bar only, so
        // the split build puts it in the chunk of the page's later parts with the bar: until a
        // comparison is first asked for there is none to refresh.
        self.comparing.update_value(|c| {
            c.get_or_insert_with(|| Comparing {
                code: CompareCode { refresh: Self::refresh_compare_now, publish: Self::publish_other },
                trace: Vec::new(),
                timeline: None,
                sim: None,
                memory: Memory::default(),
            });
        });
        self.compare.set(setting);
        self.refresh_compare();
    }

    /// After the run changed: the comparison follows it, once one has been asked for.
    fn refresh_compare(&self) {
        if let Some(refresh) = self.comparing.with_value(|c| c.as_ref().map(|c| c.code.refresh)) {
            refresh(self);
        }
    }

    /// Plays both runs to their end (the same interventions at their times) and finds where they
    /// part; clears the comparison when none is asked for or the engine refuses.
    fn refresh_compare_now(&self) {
        let asked = self.compare.get_untracked();
        let result = self.timeline.with_value(|t| {
            // A setting this scenario's protocol does not have is dropped (another scenario).
            let setting = asked.filter(|s| s.applies(t.config()))?;
            compare(t.config(), t.interventions(), setting).ok()
        });
        if asked.is_some() && result.is_none() {
            self.compare.set(None);
        }
        let (trace, divergence) = match result {
            Some((_, other, d)) => (other.trace().to_vec(), Some(d)),
            None => (Vec::new(), None),
        };
        // The compared run as a timeline with the same interventions, to be shown at any moment.
        let other_timeline = divergence.is_some().then(|| {
            self.timeline.with_value(|t| {
                let setting = self.compare.get_untracked()?;
                let mut other = Timeline::new(setting.flipped(t.config())).ok()?;
                for i in t.interventions() {
                    other.intervene(i.at_ms, i.command.clone()).ok()?;
                }
                Some(other)
            })
        });
        self.comparing.update_value(|c| {
            if let Some(c) = c {
                c.timeline = other_timeline.flatten();
                c.sim = None;
                c.memory = Memory::default();
                c.trace = trace;
            }
        });
        self.divergence.set(divergence);
        self.publish_other();
    }

    /// Moves the compared run to this run's moment and publishes its picture (nothing without a
    /// comparison).
    fn publish_other(&self) {
        let now = self.sim.with_value(Sim::now_ms);
        let picture = self
            .comparing
            .try_update_value(|c| {
                let c = c.as_mut()?;
                let timeline = c.timeline.as_mut()?;
                match &mut c.sim {
                    Some(s) if s.now_ms() <= now => {
                        timeline.advance(s, now);
                    }
                    sim => *sim = Some(timeline.seek(now)),
                }
                let s = c.sim.as_ref()?;
                c.memory.absorb(s.trace());
                Some(picture::picture(&s.snapshot(), &c.memory))
            })
            .flatten();
        if picture.is_some() || self.other_picture.with_untracked(Option::is_some) {
            self.other_picture.set(picture);
        }
    }

    /// The compared run's trace up to `now_ms` (empty without a comparison).
    pub fn with_other_trace<R>(&self, now_ms: u64, f: impl FnOnce(&[TraceEntry]) -> R) -> R {
        self.comparing.with_value(|c| {
            let t = c.as_ref().map_or(&[][..], |c| &c.trace[..]);
            f(&t[..t.partition_point(|e| e.at_ms <= now_ms)])
        })
    }

    /// Plays an imported scenario (read by `scenario::parse`, so checked) from the start, like a
    /// built-in.
    pub fn load_custom(&self, scenario: Scenario, source: String) {
        self.scenario.set(scenario);
        self.source.set(Some(source));
        self.reset();
    }

    /// The trace so far with what the space-time diagram needs beside it: the node ids in
    /// order, the time now, and whether the store judges expiry.
    pub fn with_trace<R>(&self, f: impl FnOnce(&[TraceEntry], &[String], u64, bool) -> R) -> R {
        let ids: Vec<String> = self.scenario.with_untracked(|s| s.config.nodes.iter().map(|n| n.id.clone()).collect());
        self.sim.with_value(|sim| {
            let store_judges = sim.store_judges_expiry();
            f(sim.trace(), &ids, sim.now_ms(), store_judges)
        })
    }

    /// Moves the run to `t_ms` (capped at its end), backwards or forwards, paused; the log, the
    /// pictures and the panels are rebuilt from the trace at that moment.
    pub fn seek(&self, t_ms: u64) {
        let Some(sim) = self.timeline.try_update_value(|timeline| timeline.seek(t_ms)) else { return };
        self.playing.set(false);
        self.pace.update_value(|p| p.clock_ms = sim.now_ms() as f64);
        // Only the newest rows are narrated again: the log keeps LOG_ROWS_KEPT of them anyway.
        let start = sim.trace().len().saturating_sub(LOG_ROWS_KEPT * 4);
        self.sim.set_value(sim);
        self.memory.set_value(Memory::default());
        self.publishing.update_value(|p| p.new_run(start));
        self.log.set(Vec::new());
        self.log_trimmed.set(start > 0);
        self.ledger.update(Ledger::restart);
        self.highlight.set(None);
        self.share_url.set(None);
        self.script_notice.set(None);
        self.publish();
    }

    /// Replays a share link: its interventions at their times, then moves to `at_ms` (the end of
    /// the last intervention's moment when absent). All or nothing: if one cannot be applied, the
    /// run starts plain and the error says which.
    ///
    /// # Errors
    /// The first intervention the engine refuses (an unknown node, a bad argument), by position.
    pub fn replay_link(
        &self,
        interventions: &[crate::engine::ScheduledCommand],
        at_ms: Option<u64>,
    ) -> Result<(), crate::scenario::link::LinkError> {
        use crate::scenario::link::{LinkError, LinkProblem};
        if interventions.is_empty() && at_ms.is_none() {
            return Ok(());
        }
        let end_ms = self.scenario.with_untracked(|s| s.config.until_ms);
        let refused = self.timeline.try_update_value(|timeline| {
            for (n, i) in interventions.iter().enumerate() {
                if i.at_ms > end_ms {
                    let problem = LinkProblem::AfterEnd { at_ms: i.at_ms, end_ms };
                    return Some(LinkError { item: n + 1, problem });
                }
                if let Err(e) = timeline.intervene(i.at_ms, i.command.clone()) {
                    let problem = match i.command.node() {
                        Some(node) if e.path == "node" => LinkProblem::UnknownNode { node: node.to_owned() },
                        _ => LinkProblem::Refused { reason: e.to_string() },
                    };
                    return Some(LinkError { item: n + 1, problem });
                }
            }
            None
        });
        if let Some(Some(error)) = refused {
            self.reset();
            return Err(error);
        }
        let last = interventions.last().map_or(0, |i| i.at_ms);
        self.seek(at_ms.unwrap_or(last));
        self.refresh_compare();
        Ok(())
    }

    /// The step-back button: back to the moment of the previous trace entry.
    pub fn step_back(&self) {
        let previous = self.sim.with_value(|sim| {
            let now = sim.now_ms();
            sim.trace().iter().rev().map(|e| e.at_ms).find(|t| *t < now).unwrap_or(0)
        });
        self.seek(previous);
    }

    /// The address follows the run that starts again (a reset, another scenario): a share
    /// link's `v`, `do`, `t` and `s` go, since the run they replayed is gone; `scenario` names the
    /// built-in now playing (an imported file has no name an address could carry, so it goes);
    /// the other settings stay. Left alone while a lesson is in the address: the lesson writes
    /// its own (`story::tour`).
    pub(crate) fn address_follows_the_run(&self) {
        // Named only when it is the built-in itself (an embed's host may send a scenario of its
        // own under a built-in's id).
        let builtin = self
            .source
            .with_untracked(Option::is_none)
            .then(|| self.scenario.get_untracked())
            .filter(|s| matches!(super::catalog::get(&s.id), Some(Ok(b)) if b == *s));
        rewrite_address(|params| {
            for k in ["v", "do", "t", "s"] {
                params.delete(k);
            }
            match &builtin {
                Some(s) => params.set("scenario", &s.id),
                None => params.delete("scenario"),
            }
        });
    }

    /// The address follows the settings a learner changes (the language, the theme, the speed,
    /// the pacing, presenter mode), so that a reload keeps them: each is written as `ui::url`
    /// reads it, and leaves the address at its default. The first time, only the settings the address already
    /// names are written, as the page read them: a value it could not use (`speed=3`, `lang=fr`)
    /// becomes the one it used instead (`speed=4`, `lang=en`). And once the run moves from the
    /// moment the address opened it at, `t` goes: a reload starts the run from 0 ms rather than
    /// jump back to a moment the learner has left.
    /// Installed with the later parts (`ui::later`), which come just after the first scene.
    pub fn address_follows_settings(self) {
        // What each setting was when the address last followed it: a setting is written only when
        // it changed (a signal told again without a change, as when a telling's words arrive,
        // leaves the address alone).
        let last: std::cell::RefCell<Option<[String; 5]>> = std::cell::RefCell::new(None);
        super::effect(move || {
            let (lang, theme) = (self.lang.get(), self.theme.get());
            let (speed_log2, true_time) = (self.speed_log2.get(), self.true_time.get());
            let presenter = self.presenter.get();
            // Each setting's value in the address, and whether it is the default.
            let settings = [
                ("lang", lang.code().to_owned(), lang == Lang::En),
                ("theme", theme.code().to_owned(), theme == Theme::Auto),
                ("speed", files::speed_code(speed_log2), speed_log2 == 0),
                ("pacing", (if true_time { "true" } else { "story" }).to_owned(), !true_time),
                // Left, presenter mode leaves the address too: a reload does not bring it back.
                ("presenter", (if presenter { "1" } else { "0" }).to_owned(), !presenter),
            ];
            let now = settings.clone().map(|(_, value, _)| value);
            let before = last.replace(Some(now.clone()));
            rewrite_address(|params| {
                for (i, (key, value, default)) in settings.into_iter().enumerate() {
                    match &before {
                        // The first time: a setting the address gave is written as the page
                        // took it (`speed=3` as 4); one it did not give stays out.
                        None if params.has(key) => params.set(key, &value),
                        None => {}
                        Some(was) if was[i] == now[i] => {}
                        Some(_) if default => params.delete(key),
                        Some(_) => params.set(key, &value),
                    }
                }
            });
        });
        // The moment the page opened at (`None` until read; `u64::MAX` once `t` has gone).
        let opened_at = std::cell::Cell::new(None::<u64>);
        super::effect(move || {
            let now = self.snapshot.with(|s| s.now_ms);
            match opened_at.get() {
                None => opened_at.set(Some(now)),
                Some(at) if at != u64::MAX && at != now => {
                    rewrite_address(|params| params.delete("t"));
                    opened_at.set(Some(u64::MAX));
                }
                _ => {}
            }
        });
    }

    /// Starts the current scenario again from 0 ms, paused.
    pub fn reset(&self) {
        self.address_follows_the_run();
        let (sim, timeline) = self.scenario.with_untracked(|s| fresh_run(&s.config));
        self.sim.set_value(sim);
        self.timeline.set_value(timeline);
        self.playing.set(false);
        self.memory.set_value(Memory::default());
        self.publishing.update_value(|p| p.new_run(0));
        self.pace.update_value(|p| p.clock_ms = 0.0);
        self.log.set(Vec::new());
        self.log_trimmed.set(false);
        self.ledger.update(Ledger::restart);
        self.highlight.set(None);
        self.share_url.set(None);
        self.script_notice.set(None);
        self.finished.set(false);
        self.publish();
        self.refresh_compare();
    }

    /// Switches to the built-in scenario `id` (ignored if it does not load) and resets, once its
    /// file is here (fetched the first time, see `catalog`). A fable
    /// the learner chose stays chosen.
    pub fn choose_scenario(&self, id: &str) {
        let app = *self;
        let id = id.to_owned();
        // Its file is fetched the first time; the run goes on until it is here.
        wasm_bindgen_futures::spawn_local(async move {
            super::catalog::load(&id).await;
            if let Some(Ok(scenario)) = super::catalog::get(&id) {
                app.load(scenario);
            }
        });
    }

    /// Switches to built-in `id` (as [`choose_scenario`](Self::choose_scenario)), told by
    /// `fable`, and plays it from its start once its file is here.
    pub fn play_builtin(&self, id: &str, fable: Fable) {
        let app = *self;
        let id = id.to_owned();
        wasm_bindgen_futures::spawn_local(async move {
            super::catalog::load(&id).await;
            if let Some(Ok(scenario)) = super::catalog::get(&id) {
                app.choose_fable(fable);
                app.load(scenario);
                app.playing.set(true);
            }
        });
    }

    /// Switches to `scenario` (a built-in or a file read by `scenario::parse`, so checked) and
    /// resets.
    pub fn load(&self, scenario: Scenario) {
        self.scenario.set(scenario);
        self.source.set(None);
        self.reset();
    }

    /// Tells the run as `fable` from now on. The run goes on untouched: same engine, same trace,
    /// same log rows (re-told in the new fable's words).
    pub fn choose_fable(&self, fable: Fable) {
        if self.fable_choice.get_untracked() != Some(fable) {
            self.fable_choice.set(Some(fable));
        }
        // The address says so too, so that a reload tells the same fable.
        rewrite_address(|params| params.set("fable", fable.code()));
    }
}
