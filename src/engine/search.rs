//! Search: the runs of a scenario over a bounded space of interventions and faults, breadth
//! first by the number of interventions, with every engine state seen once.
//!
//! A question ([`Goal`]) is either a safety property to break (a *counterexample*: a stale write
//! accepted, two awake holders at once, …) or something instructive to see happen (a *witness*:
//! a zombie write fenced, a lease running out with nobody paused, …), in the spirit of TLC's
//! invariants and Stateright's `always` / `sometimes` properties. The space ([`Space`]) says
//! where interventions may happen (a grid of virtual time) and which: pauses of each node for
//! each listed length, a node cut off from the store for a while, a write held up, a clock
//! stepped or sped up, a crash, the operator's revoke, fencing switched off.
//!
//! The search is breadth first by the number of interventions, so the first answer uses as few
//! as any can; among those, it is the first in (time, choice) order. States are told apart by a
//! 64-bit hash of everything in the [`Sim`] that decides the future (its trace and the record
//! of what was applied are left out): a state reached a second time, by any path, is not
//! explored again. That is what makes an intervention that changes nothing (pausing a node
//! already paused, switching off fencing that is off) cost one hash.
//!
//! A level's runs are kept as (parent, time, choice), a few bytes each, not as engine states:
//! a run's start is rebuilt from its parent's, which is walked forward once per level in time
//! order ([`Searcher`] keeps one cursor per level). The search is resumable ([`Searcher::run`]
//! takes a budget of states), so a Web Worker can report progress and take a Stop between slices;
//! the same question always gets the same answer, natively and in the browser.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{
    Command, Config, ConfigError, Link, MessageFault, MessageKind, ScheduledCommand, Sim, TraceEntry, TraceEvent,
    WriteOutcome,
};

/// What a search looks for. Counterexamples break a safety property; witnesses show something
/// worth seeing. Named in `snake_case` on the command line, in the worker's messages and in
/// lessons (`leaselab search --goal stale_write_accepted`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Goal {
    /// Counterexample: the resource accepted a write whose token is older than the newest one
    /// granted ([`super::Violation::StaleWriteAccepted`]; Kleppmann's paused client).
    StaleWriteAccepted,
    /// Counterexample: a write with a missing or malformed token accepted (seed `004`).
    InvalidTokenAccepted,
    /// Counterexample: the resource accepted a token lower than one it accepted before.
    TokenRegression,
    /// Counterexample: an operation took effect twice (fencing is not idempotency, seed `004`).
    DuplicateSideEffect,
    /// Counterexample: a release deleted a lock another client held (a plain `DEL`).
    LockDeletedByNonOwner,
    /// Counterexample: a token of another lock accepted as a bare number.
    ForeignTokenAccepted,
    /// Counterexample: two nodes, both awake (neither paused nor crashed), believe they hold
    /// the lease at the same millisecond: the mutual exclusion a lease is often taken for
    /// (etcd's docs: a lease alone does not guarantee it).
    TwoHolders,
    /// Counterexample (an availability one): the resource refused a write from the node that
    /// held the lease at that moment by the store's record, with the record's current token.
    WriteRefusedWhileHolding,
    /// Witness: the resource refused a node's write for its stale token (Old Chen's flag 7).
    ZombieWriteFenced,
    /// Witness: two nodes believe they lead at the same millisecond, a frozen one included.
    DualBelief,
    /// Witness: the lease ran out although no node was ever paused or crashed (a slow or cut
    /// network, a clock that runs slow).
    ExpiryWithoutPause,
    /// Witness: a renewal was refused after a release had deleted another client's lock.
    RenewalRefusedAfterStrayDelete,
}

impl Goal {
    /// Every goal, counterexamples first.
    pub const ALL: [Goal; 12] = [
        Goal::StaleWriteAccepted,
        Goal::InvalidTokenAccepted,
        Goal::TokenRegression,
        Goal::DuplicateSideEffect,
        Goal::LockDeletedByNonOwner,
        Goal::ForeignTokenAccepted,
        Goal::TwoHolders,
        Goal::WriteRefusedWhileHolding,
        Goal::ZombieWriteFenced,
        Goal::DualBelief,
        Goal::ExpiryWithoutPause,
        Goal::RenewalRefusedAfterStrayDelete,
    ];

    /// Whether it is a witness ("show me a run where …") rather than a counterexample.
    pub fn is_witness(self) -> bool {
        matches!(
            self,
            Goal::ZombieWriteFenced
                | Goal::DualBelief
                | Goal::ExpiryWithoutPause
                | Goal::RenewalRefusedAfterStrayDelete
        )
    }

    /// Its `snake_case` name, as serde writes it.
    pub fn code(self) -> &'static str {
        match self {
            Goal::StaleWriteAccepted => "stale_write_accepted",
            Goal::InvalidTokenAccepted => "invalid_token_accepted",
            Goal::TokenRegression => "token_regression",
            Goal::DuplicateSideEffect => "duplicate_side_effect",
            Goal::LockDeletedByNonOwner => "lock_deleted_by_non_owner",
            Goal::ForeignTokenAccepted => "foreign_token_accepted",
            Goal::TwoHolders => "two_holders",
            Goal::WriteRefusedWhileHolding => "write_refused_while_holding",
            Goal::ZombieWriteFenced => "zombie_write_fenced",
            Goal::DualBelief => "dual_belief",
            Goal::ExpiryWithoutPause => "expiry_without_pause",
            Goal::RenewalRefusedAfterStrayDelete => "renewal_refused_after_stray_delete",
        }
    }

    /// The goal named `code`, if any.
    pub fn from_code(code: &str) -> Option<Goal> {
        Goal::ALL.into_iter().find(|g| g.code() == code)
    }

    /// Whether `violation` is the one this goal looks for (a goal that is a violation kind).
    fn is_violation(self, violation: &super::Violation) -> bool {
        !self.is_witness() && violation.kind() == self.code()
    }

    /// Whether this goal may use pauses and crashes: a lease running out "with no pause at all"
    /// must be shown without them.
    fn allows_pauses(self) -> bool {
        self != Goal::ExpiryWithoutPause
    }
}

/// Where and how a search may intervene. Every list may be empty; `grid_ms` > 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Space {
    /// Interventions happen only at multiples of this, in virtual ms (≥ 1).
    pub grid_ms: u64,
    /// The most interventions in one run (0 ..= 6): the search's depth.
    pub max_interventions: usize,
    /// Pause lengths to try on each node, in ms ([`Command::Pause`] with `for_ms`: a GC pause).
    pub pause_ms: Vec<u64>,
    /// How long a node is cut off from the store (its requests and their replies lost: the
    /// lost messages of a cut), in ms: a [`Command::Partition`] from the coordinator and its
    /// [`Command::Heal`] that long after, one choice.
    pub cut_ms: Vec<u64>,
    /// How much to hold up a node's next write, in ms ([`Command::DelayNextWrite`]).
    pub delay_write_ms: Vec<u64>,
    /// Steps of a clock, in ms, for each node and for the store ([`Command::ClockJump`]).
    pub clock_jump_ms: Vec<i64>,
    /// Clock rates, in parts per million of true time, for each node and the store
    /// ([`Command::ClockRate`]; 500 000 is half speed).
    pub clock_rate_ppm: Vec<u64>,
    /// Whether a node may crash (and stay down).
    pub crash: bool,
    /// Whether the network may lose a node's next message of one kind (to or from it:
    /// [`Command::NextMessage`] with [`MessageFault::Lose`]), for each node and each kind.
    pub lose_message: bool,
    /// How much to hold back a node's next message of one kind, in ms ([`MessageFault::Hold`]),
    /// for each node and each kind.
    pub hold_message_ms: Vec<u64>,
    /// Whether the network may deliver a node's next message of one kind twice
    /// ([`MessageFault::Copy`]), for each node and each kind.
    pub copy_message: bool,
    /// Whether the operator may strike the holder ([`Command::RevokeLease`]).
    pub revoke: bool,
    /// Whether the resource's token check may be switched off ([`Command::SetFencing`]).
    pub fencing_off: bool,
    /// Stop after this many distinct states (a safety net: the answer then says so).
    pub max_states: usize,
    /// Whether the scenario's scripted steps for its nodes happen (its own pause of Old Chen,
    /// say). Without them the search starts each run by setting every node's script aside
    /// ([`Command::DropScript`] at 0 ms, in the answer's interventions, so its link replays the
    /// same run; not counted as choices): the question is then whether *anything* within the
    /// bounds breaks it.
    pub scripted: bool,
}

impl Default for Space {
    /// A 1 s grid, two interventions, pauses of 5, 10 and 20 s, a 10 s cut, a 10 s held-up
    /// write, crashes (those levers with the values [`Space::allow`] gives them), and at most two
    /// million states.
    fn default() -> Self {
        let mut space = Self {
            grid_ms: 1_000,
            max_interventions: 2,
            pause_ms: Vec::new(),
            cut_ms: Vec::new(),
            delay_write_ms: Vec::new(),
            clock_jump_ms: Vec::new(),
            clock_rate_ppm: Vec::new(),
            crash: false,
            lose_message: false,
            hold_message_ms: Vec::new(),
            copy_message: false,
            revoke: false,
            fencing_off: false,
            max_states: 2_000_000,
            scripted: true,
        };
        for lever in [Lever::Pause, Lever::Cut, Lever::DelayWrite, Lever::Crash] {
            space.allow(lever, true);
        }
        space
    }
}

/// A kind of intervention a search may make, as the page offers them: each sets its field of
/// [`Space`] to the page's values, or empties it ([`Space::allow`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lever {
    /// Pauses of 5, 10 and 20 s ([`Space::pause_ms`]).
    Pause,
    /// A 10 s cut from the store ([`Space::cut_ms`]).
    Cut,
    /// A write held up 10 s ([`Space::delay_write_ms`]).
    DelayWrite,
    /// A crash ([`Space::crash`]).
    Crash,
    /// A message lost ([`Space::lose_message`]).
    LoseMessage,
    /// A message held back 10 s ([`Space::hold_message_ms`]).
    HoldMessage,
    /// A message delivered twice ([`Space::copy_message`]).
    CopyMessage,
    /// A clock stepped 10 s forward or back ([`Space::clock_jump_ms`]).
    ClockJump,
    /// A clock running at half or double speed ([`Space::clock_rate_ppm`]).
    ClockRate,
    /// The operator strikes the holder ([`Space::revoke`]).
    Revoke,
    /// The resource's token check switched off ([`Space::fencing_off`]).
    FencingOff,
}

impl Lever {
    /// Every lever, in the order the page lists them.
    pub const ALL: [Lever; 11] = [
        Lever::Pause,
        Lever::Cut,
        Lever::DelayWrite,
        Lever::Crash,
        Lever::LoseMessage,
        Lever::HoldMessage,
        Lever::CopyMessage,
        Lever::ClockJump,
        Lever::ClockRate,
        Lever::Revoke,
        Lever::FencingOff,
    ];

    /// Its name in the page's markup and in requests: `pause`, `lose_message`, ….
    pub fn code(self) -> &'static str {
        match self {
            Lever::Pause => "pause",
            Lever::Cut => "cut",
            Lever::DelayWrite => "delay_write",
            Lever::Crash => "crash",
            Lever::LoseMessage => "lose_message",
            Lever::HoldMessage => "hold_message",
            Lever::CopyMessage => "copy_message",
            Lever::ClockJump => "clock_jump",
            Lever::ClockRate => "clock_rate",
            Lever::Revoke => "revoke",
            Lever::FencingOff => "fencing_off",
        }
    }

    /// Whether [`Space::default`] pulls it.
    pub fn default_on(self) -> bool {
        Space::default().pulls(self)
    }
}

/// Deepest search allowed ([`Space::max_interventions`]).
pub const MAX_INTERVENTIONS: usize = 6;

impl Space {
    /// Lets the search pull `lever` (with the values [`Lever`] gives), or not.
    pub fn allow(&mut self, lever: Lever, on: bool) {
        let list = |values: &[u64]| if on { values.to_vec() } else { Vec::new() };
        match lever {
            Lever::Pause => self.pause_ms = list(&[5_000, 10_000, 20_000]),
            Lever::Cut => self.cut_ms = list(&[10_000]),
            Lever::DelayWrite => self.delay_write_ms = list(&[10_000]),
            Lever::Crash => self.crash = on,
            Lever::LoseMessage => self.lose_message = on,
            Lever::HoldMessage => self.hold_message_ms = list(&[10_000]),
            Lever::CopyMessage => self.copy_message = on,
            Lever::ClockJump => self.clock_jump_ms = if on { vec![-10_000, 10_000] } else { Vec::new() },
            Lever::ClockRate => self.clock_rate_ppm = list(&[500_000, 2_000_000]),
            Lever::Revoke => self.revoke = on,
            Lever::FencingOff => self.fencing_off = on,
        }
    }

    /// Whether the search may pull `lever` (with any values).
    pub fn pulls(&self, lever: Lever) -> bool {
        match lever {
            Lever::Pause => !self.pause_ms.is_empty(),
            Lever::Cut => !self.cut_ms.is_empty(),
            Lever::DelayWrite => !self.delay_write_ms.is_empty(),
            Lever::Crash => self.crash,
            Lever::LoseMessage => self.lose_message,
            Lever::HoldMessage => !self.hold_message_ms.is_empty(),
            Lever::CopyMessage => self.copy_message,
            Lever::ClockJump => !self.clock_jump_ms.is_empty(),
            Lever::ClockRate => !self.clock_rate_ppm.is_empty(),
            Lever::Revoke => self.revoke,
            Lever::FencingOff => self.fencing_off,
        }
    }

    /// Checks the bounds.
    ///
    /// # Errors
    /// The field and what is wrong with it.
    pub fn check(&self) -> Result<(), ConfigError> {
        let bad = |path: &str, message: &str| Err(ConfigError { path: path.into(), message: message.into() });
        if self.grid_ms == 0 {
            return bad("grid_ms", "must be at least 1");
        }
        if self.max_interventions > MAX_INTERVENTIONS {
            return bad("max_interventions", &format!("at most {MAX_INTERVENTIONS}"));
        }
        for (path, ms) in [
            ("pause_ms", &self.pause_ms),
            ("cut_ms", &self.cut_ms),
            ("delay_write_ms", &self.delay_write_ms),
            ("hold_message_ms", &self.hold_message_ms),
        ] {
            if ms.iter().any(|&m| m == 0 || m > super::command::MAX_COMMAND_MS) {
                return bad(path, "each length must be 1 ..= 86 400 000 ms");
            }
        }
        if self.clock_jump_ms.iter().any(|&m| m == 0 || m.unsigned_abs() > super::command::MAX_COMMAND_MS) {
            return bad("clock_jump_ms", "each step must be non-zero and within ±86 400 000 ms");
        }
        if self.clock_rate_ppm.iter().any(|r| !(100_000..=10_000_000).contains(r)) {
            return bad("clock_rate_ppm", "each rate must be 100 000 ..= 10 000 000");
        }
        Ok(())
    }

    /// The choices at each grid point, in the order the search tries them: per node, its
    /// pauses, cuts, held-up writes, crash, then its next message of each kind lost, held back
    /// or copied; then clock steps and rates per node and the store; then revoke and fencing
    /// off.
    fn choices(&self, config: &Config, goal_allows_pauses: bool) -> Vec<Choice> {
        let mut out = Vec::new();
        for node in &config.nodes {
            let id = &node.id;
            if goal_allows_pauses {
                for &ms in &self.pause_ms {
                    out.push(Choice::now(Command::Pause { node: id.clone(), for_ms: Some(ms) }));
                }
            }
            for &ms in &self.cut_ms {
                out.push(Choice {
                    command: Command::Partition { node: id.clone(), from: Link::Coordinator },
                    then: Some((ms, Command::Heal { node: id.clone() })),
                });
            }
            for &ms in &self.delay_write_ms {
                out.push(Choice::now(Command::DelayNextWrite { node: id.clone(), by_ms: ms }));
            }
            if self.crash && goal_allows_pauses {
                out.push(Choice::now(Command::Crash { node: id.clone() }));
            }
            let holds = self.hold_message_ms.iter().map(|&by_ms| MessageFault::Hold { by_ms });
            let faults: Vec<MessageFault> = (self.lose_message.then_some(MessageFault::Lose).into_iter())
                .chain(holds)
                .chain(self.copy_message.then_some(MessageFault::Copy))
                .collect();
            for kind in MessageKind::ALL {
                for &fault in &faults {
                    out.push(Choice::now(Command::NextMessage { node: id.clone(), kind, fault }));
                }
            }
        }
        let targets = config.nodes.iter().map(|n| n.id.clone()).chain([super::command::STORE.to_owned()]);
        for target in targets {
            for &by_ms in &self.clock_jump_ms {
                out.push(Choice::now(Command::ClockJump { target: target.clone(), by_ms }));
            }
            for &rate_ppm in &self.clock_rate_ppm {
                out.push(Choice::now(Command::ClockRate { target: target.clone(), rate_ppm }));
            }
        }
        if self.revoke {
            out.push(Choice::now(Command::RevokeLease));
        }
        if self.fencing_off {
            out.push(Choice::now(Command::SetFencing { on: false }));
        }
        out
    }
}

/// One intervention the search may make: a command now, and possibly its undoing later (a cut
/// healed after its length).
#[derive(Clone, Debug)]
struct Choice {
    command: Command,
    then: Option<(u64, Command)>,
}

impl Choice {
    fn now(command: Command) -> Self {
        Self { command, then: None }
    }
}

/// What a search found: the run, as the scenario plus these interventions (what the player and
/// a share link replay: [`Sim::replay`]), and the moment the goal was met.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Found {
    pub goal: Goal,
    /// The interventions, in time order (a cut's heal included, also one due after `at_ms`, but not
    /// one due after the run's end, which never happens in it).
    pub interventions: Vec<ScheduledCommand>,
    /// How many choices the search made (a cut and its heal are one).
    pub depth: usize,
    /// When the goal was met, in virtual ms.
    pub at_ms: u64,
    /// The trace entry that met it, in the replayed run (its `seq` points into that trace); for
    /// a goal about the state (two holders), the entry of that millisecond that made it so.
    pub entry: TraceEntry,
    /// The replayed run's [`Sim::trace_hash`] at its end: what its share link reproduces.
    pub trace_hash: String,
}

/// Counts, for progress and for the answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Distinct engine states explored.
    pub states: u64,
    /// Runs walked (each a distinct way to spend up to `depth` interventions).
    pub runs: u64,
    /// The number of interventions of the runs being walked now.
    pub depth: usize,
    /// Runs waiting at the next depth.
    pub queued: u64,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Outcome {
    /// The shortest run that meets the goal.
    Found { found: Box<Found>, progress: Progress },
    /// Every run within the bounds was walked and none meets the goal.
    NoneWithinBounds { progress: Progress },
    /// The state budget ran out first ([`Space::max_states`]).
    BudgetSpent { progress: Progress },
}

/// What [`Searcher::run`] returns after a slice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// More to do; the counts so far.
    Running(Progress),
    /// Finished.
    Done(Outcome),
}

/// A run waiting to be walked: its parent (an index into the previous depth's list), the grid
/// time of its last choice and which choice.
#[derive(Clone, Copy, Debug)]
struct Entry {
    parent: u32,
    at_ms: u64,
    choice: u16,
}

/// An engine state with what the search carries beside it.
#[derive(Clone, Debug)]
struct Walker {
    sim: Sim,
    /// Commands the search owes the run later (heals), in time order.
    owed: Vec<ScheduledCommand>,
    /// A release has deleted another client's lock in this run (for
    /// [`Goal::RenewalRefusedAfterStrayDelete`]).
    stray_delete: bool,
}

/// A run being rebuilt at one depth: which entry, and its state, walked forward so far.
#[derive(Clone, Debug)]
struct Cursor {
    index: usize,
    walker: Walker,
}

/// Each state seen, by its hash, with the fewest interventions it was seen with.
type Seen = HashMap<u64, u8, BuildHasherDefault<PassHasher>>;

/// Records that a state with hash `hash` was reached with `depth` interventions. `Some(true)`:
/// never seen before; `Some(false)`: seen, but only with more interventions (so what follows
/// it has to be walked again, with more left to spend); `None`: seen with as few or fewer,
/// nothing new to learn from it.
fn visit(seen: &mut Seen, hash: u64, depth: usize) -> Option<bool> {
    let depth = u8::try_from(depth).unwrap_or(u8::MAX);
    match seen.entry(hash) {
        std::collections::hash_map::Entry::Vacant(v) => {
            v.insert(depth);
            Some(true)
        }
        std::collections::hash_map::Entry::Occupied(mut o) if *o.get() > depth => {
            o.insert(depth);
            Some(false)
        }
        std::collections::hash_map::Entry::Occupied(_) => None,
    }
}

/// The search, resumable: [`Searcher::run`] with a budget of states, as often as needed.
#[derive(Debug)]
pub struct Searcher {
    config: Arc<Config>,
    /// Commands every run starts with, at 0 ms (setting the script aside).
    prelude: Vec<Command>,
    goals: Vec<Goal>,
    grid_ms: u64,
    max_depth: usize,
    max_states: usize,
    choices: Vec<Choice>,
    /// `levels[d]`: the runs with `d` choices, in the order they were found.
    levels: Vec<Vec<Entry>>,
    /// The depth being walked and the next entry of it.
    depth: usize,
    next: usize,
    cursors: Vec<Option<Cursor>>,
    seen: Seen,
    progress: Progress,
    outcome: Option<Outcome>,
}

impl Searcher {
    /// A search of `config`'s runs (its own scripted events included) for any of `goals`.
    ///
    /// # Errors
    /// The configuration's [`ConfigError`], bad bounds ([`Space::check`]), or no goal.
    pub fn new(config: Config, goals: &[Goal], space: &Space) -> Result<Self, ConfigError> {
        space.check()?;
        if goals.is_empty() {
            return Err(ConfigError { path: "goal".into(), message: "name at least one goal".into() });
        }
        config.check()?;
        let allows_pauses = goals.iter().all(|g| g.allows_pauses());
        let choices = space.choices(&config, allows_pauses);
        if choices.len() > usize::from(u16::MAX) {
            return Err(ConfigError { path: "space".into(), message: "too many choices at one moment".into() });
        }
        let mut goals = goals.to_vec();
        goals.dedup();
        let prelude = if space.scripted {
            Vec::new()
        } else {
            config.nodes.iter().map(|n| Command::DropScript { node: n.id.clone() }).collect()
        };
        Ok(Self {
            config: Arc::new(config),
            prelude,
            goals,
            grid_ms: space.grid_ms,
            max_depth: space.max_interventions,
            max_states: space.max_states,
            choices,
            levels: vec![vec![Entry { parent: 0, at_ms: 0, choice: 0 }]],
            depth: 0,
            next: 0,
            cursors: vec![None; space.max_interventions + 1],
            seen: Seen::default(),
            progress: Progress::default(),
            outcome: None,
        })
    }

    /// The counts so far.
    pub fn progress(&self) -> Progress {
        self.progress
    }

    /// Goes on for about `budget` more states (a run is never split, so a slice may take a run's
    /// length more), then reports.
    pub fn run(&mut self, budget: u64) -> Status {
        let stop_at = self.progress.states.saturating_add(budget.max(1));
        while self.outcome.is_none() && self.progress.states < stop_at {
            self.outcome = self.walk_next();
        }
        match &self.outcome {
            Some(outcome) => Status::Done(outcome.clone()),
            None => Status::Running(self.progress),
        }
    }

    /// Runs the search to its end.
    pub fn finish(&mut self) -> Outcome {
        loop {
            if let Status::Done(outcome) = self.run(u64::MAX) {
                return outcome;
            }
        }
    }

    /// Walks the next run; `Some` when the search is over.
    fn walk_next(&mut self) -> Option<Outcome> {
        while self.next >= self.levels[self.depth].len() {
            if self.depth >= self.max_depth || self.levels.get(self.depth + 1).is_none_or(Vec::is_empty) {
                return Some(Outcome::NoneWithinBounds { progress: self.progress });
            }
            // The depth is done. Its list stays: the next depth's runs are rebuilt through it,
            // each level's cursor walking forward from the start again.
            self.depth += 1;
            self.cursors.iter_mut().for_each(|c| *c = None);
            self.next = 0;
        }
        if self.progress.states >= self.max_states as u64 {
            return Some(Outcome::BudgetSpent { progress: self.progress });
        }
        let index = self.next;
        self.next += 1;
        self.progress.depth = self.depth;
        self.progress.runs += 1;
        let mut hit = None;
        let mut walker = self.start(self.depth, index, &mut hit);
        if let Some(hit) = hit {
            return Some(self.found(walker, hit));
        }
        if self.depth == 0 {
            visit(&mut self.seen, state_hash(&walker), 0);
            self.progress.states += 1;
        }
        let until = self.config.until_ms;
        let mut first = true;
        loop {
            let now = walker.sim.now_ms();
            // A decision point: a run's start (already counted when it was queued) or a grid time.
            if !first {
                match visit(&mut self.seen, state_hash(&walker), self.depth) {
                    None => return None,
                    Some(new) => self.progress.states += u64::from(new),
                }
            }
            first = false;
            if self.depth < self.max_depth && !walker.sim.finished() && now < until {
                self.branch(&walker, index);
            }
            if walker.sim.finished() || now >= until {
                return None;
            }
            let to = (now / self.grid_ms + 1).saturating_mul(self.grid_ms).min(until);
            let mut hit = None;
            advance(&mut walker, to, Some((&self.goals, &mut hit)));
            if let Some(hit) = hit {
                return Some(self.found(walker, hit));
            }
        }
    }

    /// Queues every choice at the walker's moment whose state is new.
    fn branch(&mut self, walker: &Walker, parent: usize) {
        let at_ms = walker.sim.now_ms();
        for (i, choice) in self.choices.iter().enumerate() {
            let mut child = walker.clone();
            let from = child.sim.trace.len();
            if apply(&mut child, choice).is_err() {
                continue;
            }
            note_stray_delete(&mut child, from);
            child.sim.trace.clear();
            if let Some(new) = visit(&mut self.seen, state_hash(&child), self.depth + 1) {
                self.progress.states += u64::from(new);
                self.progress.queued += 1;
                if self.levels.len() <= self.depth + 1 {
                    self.levels.push(Vec::new());
                }
                let parent = u32::try_from(parent).unwrap_or(u32::MAX);
                let choice = u16::try_from(i).unwrap_or(u16::MAX);
                self.levels[self.depth + 1].push(Entry { parent, at_ms, choice });
            }
        }
    }

    /// The state at the start of run `index` of depth `depth`: rebuilt from its parent's cursor,
    /// walked to the run's time, with its choice applied. Goals met by applying it go to `hit`.
    fn start(&mut self, depth: usize, index: usize, hit: &mut Option<Hit>) -> Walker {
        let (Some(up), Some(entry)) = (depth.checked_sub(1), self.levels[depth].get(index).copied()) else {
            let mut sim = Sim::from_checked((*self.config).clone());
            if !self.config.events.iter().any(|e| matches!(e.command, Command::StoreFailover { .. })) {
                // No choice of the search fails the store over, and neither does the script.
                sim.store.forget_history();
            }
            for command in &self.prelude {
                // Setting aside the script of a node the configuration names cannot fail.
                let _ = sim.apply(command.clone());
            }
            sim.trace.clear();
            return Walker { sim, owed: Vec::new(), stray_delete: false };
        };
        let parent = entry.parent as usize;
        let mut cursor = match self.cursors[up].take() {
            Some(cursor) if cursor.index == parent => cursor,
            _ => Cursor { index: parent, walker: self.start(up, parent, &mut None) },
        };
        advance(&mut cursor.walker, entry.at_ms, None);
        let mut walker = cursor.walker.clone();
        self.cursors[up] = Some(cursor);
        if let Some(choice) = self.choices.get(usize::from(entry.choice)) {
            let from = walker.sim.trace.len();
            // The choice was applied without error when the run was queued; it cannot fail now.
            let _ = apply(&mut walker, choice);
            Scan { goals: &self.goals, hit }.entries(&mut walker, from);
            walker.sim.trace.clear();
        }
        walker
    }

    /// The answer for a run that met the goal: replayed from scratch with its interventions,
    /// which must meet it again at the same moment (else the search has a bug, reported as
    /// none found rather than a wrong run).
    fn found(&self, walker: Walker, hit: Hit) -> Outcome {
        let mut interventions = walker.sim.interventions().to_vec();
        // An undoing owed after the run's end (a cut's heal) never happens in it: a link carries
        // only what does (the page refuses an item after the end).
        let until_ms = self.config.until_ms;
        interventions.extend(walker.owed.into_iter().filter(|c| c.at_ms <= until_ms));
        let depth = self.depth;
        let at_ms = hit.1.at_ms;
        match confirm(&self.config, &self.goals, &interventions, &hit) {
            Some((entry, trace_hash)) => Outcome::Found {
                found: Box::new(Found { goal: hit.0, interventions, depth, at_ms, entry, trace_hash }),
                progress: self.progress,
            },
            None => Outcome::NoneWithinBounds { progress: self.progress },
        }
    }
}

/// Replays `config` with `interventions` the way the search walks (so a goal about the state is
/// judged at the same moments), and finds the first entry meeting one of `goals`, which must be
/// the search's `hit`, the same goal met by the same entry: that entry with its place in the
/// whole run's trace, and the run's trace hash at its end.
fn confirm(
    config: &Config,
    goals: &[Goal],
    interventions: &[ScheduledCommand],
    hit: &Hit,
) -> Option<(TraceEntry, String)> {
    let mut walker = Walker { sim: Sim::new(config.clone()).ok()?, owed: interventions.to_vec(), stray_delete: false };
    let mut again = None;
    advance(&mut walker, hit.1.at_ms, Some((goals, &mut again)));
    let (goal, entry) = again?;
    if goal != hit.0 || entry.at_ms != hit.1.at_ms || entry.event != hit.1.event {
        return None;
    }
    let mut full = Sim::replay(config.clone(), interventions).ok()?;
    full.run_to_end();
    let seq = full.trace().iter().position(|e| e.at_ms == entry.at_ms && e.event == entry.event)?;
    let entry = TraceEntry { seq: seq as u64, ..entry };
    Some((entry, full.trace_hash()))
}

/// Applies a choice now: its command, and its undoing owed for later.
fn apply(walker: &mut Walker, choice: &Choice) -> Result<(), ConfigError> {
    walker.sim.apply(choice.command.clone())?;
    if let Some((after_ms, then)) = &choice.then {
        let at_ms = walker.sim.now_ms().saturating_add(*after_ms);
        let place = walker.owed.partition_point(|c| c.at_ms <= at_ms);
        walker.owed.insert(place, ScheduledCommand { at_ms, command: then.clone() });
    }
    Ok(())
}

/// A goal met, and the trace entry that met it (its moment is the entry's `at_ms`).
type Hit = (Goal, TraceEntry);

/// What a walk that judges the goals carries: the goals, and where the first hit goes.
type Judge<'a, 'b> = Option<(&'a [Goal], &'b mut Option<Hit>)>;

/// Walks to `to_ms`, a millisecond with something due at a time (the engine's items, then the
/// owed commands one by one), judging each against the goals when asked (the first hit goes to
/// `hit`; the walk stops there). The one procedure for the search's walk, for rebuilding a run
/// and for confirming an answer, so all three pass through the same states. The trace is
/// emptied as it goes.
fn advance(walker: &mut Walker, to_ms: u64, mut judge: Judge) {
    loop {
        if walker.sim.finished() || judge.as_ref().is_some_and(|(_, hit)| hit.is_some()) {
            return;
        }
        let item = walker.sim.next_event_ms();
        let owed = walker.owed.first().map(|c| c.at_ms);
        let next = match (item, owed) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        match next {
            Some(ms) if ms <= to_ms => {
                step_ms(walker, ms, judge.as_mut().map(|(g, hit)| (*g, &mut **hit)));
                walker.sim.trace.clear();
            }
            _ => {
                walker.sim.advance_to(to_ms);
                walker.sim.trace.clear();
                return;
            }
        }
    }
}

/// Processes the engine's items due by `ms`, judges them, then applies one owed command due by
/// then, if any, and judges what it did.
fn step_ms(walker: &mut Walker, ms: u64, mut judge: Judge) {
    let from = walker.sim.trace.len();
    walker.sim.advance_to(ms);
    look(walker, from, &mut judge);
    if !walker.sim.finished() && walker.owed.first().is_some_and(|c| c.at_ms <= ms) {
        let owed = walker.owed.remove(0);
        let from = walker.sim.trace.len();
        // An owed command names a node the search chose from the run's own; it cannot fail.
        let _ = walker.sim.apply(owed.command);
        look(walker, from, &mut judge);
    }
}

/// Judges the entries from trace index `from` against the goals, if any, and notes a stray
/// delete among them.
fn look(walker: &mut Walker, from: usize, judge: &mut Judge) {
    match judge {
        Some((goals, hit)) => Scan { goals, hit }.entries(walker, from),
        None => note_stray_delete(walker, from),
    }
}

fn note_stray_delete(walker: &mut Walker, from: usize) {
    if walker.sim.trace.get(from..).unwrap_or_default().iter().any(is_stray_delete) {
        walker.stray_delete = true;
    }
}

fn is_stray_delete(entry: &TraceEntry) -> bool {
    matches!(&entry.event, TraceEvent::ViolationFound { violation: super::Violation::LockDeletedByNonOwner { .. }, .. })
}

/// Judging a millisecond's entries against the goals.
struct Scan<'a> {
    goals: &'a [Goal],
    hit: &'a mut Option<Hit>,
}

impl Scan<'_> {
    fn entries(&mut self, walker: &mut Walker, from: usize) {
        let Walker { sim, stray_delete, .. } = walker;
        for entry in sim.trace.get(from..).unwrap_or_default() {
            if self.hit.is_none() {
                if let Some(goal) = self.goals.iter().copied().find(|g| meets(*g, entry, sim, *stray_delete)) {
                    *self.hit = Some((goal, entry.clone()));
                }
            }
            if is_stray_delete(entry) {
                *stray_delete = true;
            }
        }
    }
}

/// Whether `entry`, with the world as it is at the end of its millisecond (`sim`), meets `goal`.
/// The one place each goal is decided.
fn meets(goal: Goal, entry: &TraceEntry, sim: &Sim, stray_delete: bool) -> bool {
    use TraceEvent as E;
    match (&entry.event, goal) {
        (E::ViolationFound { violation, .. }, _) => goal.is_violation(violation),
        (E::BecameLeader { .. } | E::Resumed { .. }, Goal::TwoHolders) => {
            sim.nodes.iter().filter(|n| n.leadership.is_some() && !n.paused && !n.crashed).count() >= 2
        }
        (E::BecameLeader { .. }, Goal::DualBelief) => {
            sim.nodes.iter().filter(|n| n.leadership.is_some() && !n.crashed).count() >= 2
        }
        (E::WriteJudged { from: Some(node), token, outcome, .. }, Goal::WriteRefusedWhileHolding) => {
            let refused = !matches!(outcome, WriteOutcome::Accepted | WriteOutcome::Duplicate);
            let c = &sim.store.coordinator;
            let identity = sim.nodes.iter().find(|n| &n.id == node).map(|n| &n.identity);
            refused
                && c.holder.as_ref().is_some_and(|h| Some(h) == identity)
                && c.lease_live(sim.store.clock_ms(sim.now_ms))
                && *token == super::WireToken::Number(c.token.unwrap_or(0))
                && c.token.is_some()
        }
        (E::WriteJudged { from: Some(_), outcome: WriteOutcome::RejectedStale, .. }, Goal::ZombieWriteFenced) => true,
        (E::LeaseExpired { .. }, Goal::ExpiryWithoutPause) => {
            sim.nodes.iter().all(|n| n.pause_count == 0 && n.incarnation == 0)
        }
        (E::RenewRefused { .. }, Goal::RenewalRefusedAfterStrayDelete) => stray_delete,
        _ => false,
    }
}

/// The hash that tells states apart: everything in the run that decides its future, and what
/// the search owes it; not the trace, nor the record of what was applied.
fn state_hash(walker: &Walker) -> u64 {
    let mut h = StateHasher::default();
    let sim = &walker.sim;
    sim.now_ms.hash(&mut h);
    sim.rng.hash(&mut h);
    sim.queue.hash(&mut h);
    sim.next_seq.hash(&mut h);
    sim.next_message_id.hash(&mut h);
    sim.store.hash(&mut h);
    sim.nodes.hash(&mut h);
    sim.net.hash(&mut h);
    sim.resources.hash(&mut h);
    sim.oracles.hash(&mut h);
    sim.raw_writes.hash(&mut h);
    sim.ended.hash(&mut h);
    walker.owed.hash(&mut h);
    walker.stray_delete.hash(&mut h);
    h.finish()
}

/// A fast 64-bit hasher for engine states (the multiply-rotate of rustc's FxHasher, with a
/// final mix), writing every integer as 8 bytes so that a state hashes alike on a 64-bit
/// machine and in 32-bit WebAssembly: the search explores the same states in both.
#[derive(Default)]
struct StateHasher(u64);

const K: u64 = 0xf135_7aea_2e62_a9c5;

impl StateHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(K);
    }
}

impl Hasher for StateHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }
    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
    fn write_i64(&mut self, n: i64) {
        self.add(n as u64);
    }
    fn write_isize(&mut self, n: isize) {
        self.add(n as u64);
    }
    fn finish(&self) -> u64 {
        // A final mix (from splitmix64), so that nearby states spread over the set's buckets.
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The seen set's hasher: its keys are hashes already.
#[derive(Default)]
struct PassHasher(u64);

impl Hasher for PassHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
    fn finish(&self) -> u64 {
        self.0
    }
}
