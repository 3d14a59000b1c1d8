//! The simulation: a deterministic discrete-event model of lease-based leader election with
//! fencing tokens.
//!
//! Virtual time is an integer number of milliseconds; the only randomness is one seeded PRNG
//! ([`rng::Rng`]); there is no wall clock and no global state; [`Sim`] is `Clone`. The same
//! [`Config`] plus the same live commands, applied at the same virtual times, give the same
//! trace bit for bit, which [`Sim::trace_hash`] proves.
//!
//! One file per concept: [`coordinator`] (the Lease or lock record and the token issuer),
//! [`node`] (candidates and leaders), [`resource`] (the fenced resource), [`clock`] (each node's
//! and the store's local clock), [`oracle`] (the safety checker), [`trace`] (what happened),
//! [`snapshot`] (what the world looks like now), [`script`] (the scenario's scripted steps still
//! ahead, and dropping a node's), [`explore`] (the bounded search for the shortest breaking
//! intervention). The simulation's own behaviour is split the same way, one `impl Sim` each:
//! `election` (a node starting, asking, leading, renewing, stepping down; its timers),
//! `network` (messages, latency, partitions, delivery), `store` (the `Store`, one value with
//! all of the store's state: the record, its clock, its expiry checks, its history for a
//! fail-over; answering acquire, renew and release on its own clock; the lease's expiry time,
//! decided in one place), `writes`
//! (sending writes and judging them at the resource) and `execute` (carrying out commands and
//! faults); `invariants` holds the checks debug builds make after every step. This file holds
//! the [`Sim`] itself, its public API and the event loop that moves messages and timers between
//! them.
//!
//! Two protocols share the loop ([`Protocol`]): a Lease (the harbor), where either the store
//! judges expiry on its clock or, as in Kubernetes client-go, each candidate judges it on its own
//! clock from when it observed the record change ([`Expiry::Observer`]); and a lock with a TTL
//! (the lantern; Redis `SET NX PX`, an etcd key on a lease), which borrowers release when done.
//! Nobody in the model reads true time: nodes and the store read their own clocks, which a
//! scenario can offset, speed up, slow down or step.

pub mod clock;
pub mod command;
pub mod compare;
pub mod config;
pub mod coordinator;
mod election;
mod execute;
pub mod explore;
mod invariants;
mod network;
pub mod node;
pub mod oracle;
pub mod profile;
pub(crate) mod queue;
pub mod resource;
pub mod rng;
pub mod script;
pub mod search;
pub mod snapshot;
mod store;
pub mod sweep;
pub mod timeline;
pub mod token;
pub mod trace;
mod writes;

use std::sync::Arc;

pub use clock::{ClockConfig, RATE_ONE_PPM};
pub use command::{Command, Link, MessageFault, ScheduledCommand};
pub use config::{
    Config, ConfigError, EqualTokenPolicy, Expiry, IssuerConfig, LeaseConfig, LockConfig, NetworkConfig, NodeConfig,
    NodeLease, ObserverDuration, Protocol, ReleaseCheck, ResourceConfig, TokenCheck, TokenScope, WorkConfig, MAX_NODES,
    MAX_RESOURCES, MAX_UNTIL_MS,
};
pub use profile::{
    ClientKind, ClientRules, ExpiryJudges, ObservedExpiry, RenewPolicy, StoreKind, StoreRules, TimerClock, TokenSource,
};
pub use snapshot::{LeaseView, Liveness, MessageView, NodeView, PreparedWrite, ResourceView, Role, Snapshot};
pub use token::WireToken;
pub use trace::{
    Blocked, Endpoint, IgnoredBecause, MessageKind, ReleaseOutcome, StepDownReason, TraceEntry, TraceEvent, Violation,
    WriteOutcome,
};

use clock::Clock;
use network::Message;
use node::{Held, Node, TimerKind};
use resource::Resource;
use rng::Rng;
use trace::TraceHasher;

/// Most trace entries one run may produce (a day of the default harbor makes about 240 000). A
/// scenario that would produce more (a write every millisecond for a day) stops at this many,
/// with [`TraceEvent::TraceLimitReached`], rather than exhaust the page's or the runner's memory.
pub const MAX_TRACE_ENTRIES: usize = 500_000;

/// Queue key (second part) of the first recorded intervention (`Config::interventions`): above
/// any insertion counter a run reaches, below the end's `u64::MAX`.
const LIVE_KEY: u64 = u64::MAX / 2;

/// Something scheduled to happen at a virtual time.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Item {
    Start {
        node: usize,
    },
    Timer {
        node: usize,
        incarnation: u32,
        kind: TimerKind,
        generation: u64,
    },
    Deliver(Message),
    Scheduled {
        index: usize,
    },
    /// `config.interventions[index]`, keyed after everything else at its millisecond.
    Intervention {
        index: usize,
    },
    AutoResume {
        node: usize,
        pause: u64,
    },
    ExpiryCheck {
        renew_time_ms: u64,
    },
    End,
}

/// A running simulation.
#[derive(Clone, Debug)]
pub struct Sim {
    /// Never changed by the run, so clones (a timeline's checkpoints) share one copy.
    config: Arc<Config>,
    now_ms: u64,
    rng: Rng,
    /// Pending items, ordered by (time, insertion order): ties resolve deterministically.
    queue: queue::Agenda<Item>,
    next_seq: u64,
    next_message_id: u64,
    /// The lock store, all of its state in one value: the record and token issuer, its clock,
    /// its expiry checks, its history for a fail-over (`store`).
    store: store::Store,
    nodes: Vec<Node<Message>>,
    /// The network's own faults (copies, hold-backs) and their random stream.
    net: network::NetFaults,
    /// The fenced resources, in the order of `Config::resources` (one, unnamed, without them):
    /// each a value of its own with its own mark, judged by the one rule of [`Resource`].
    resources: Vec<Resource>,
    /// The oracle's memory of each resource, by the same index: what that resource accepted.
    oracles: Vec<oracle::Oracle>,
    raw_writes: u64,
    trace: Vec<TraceEntry>,
    /// The `trace_hash` of the entries folded so far (folded when asked for).
    hasher: TraceHasher,
    interventions: Vec<ScheduledCommand>,
    ended: bool,
    /// What the debug builds' invariant checks carry from step to step (`invariants`).
    invariants: invariants::Invariants,
}

impl Sim {
    /// Start a run. Nothing happens until time is advanced.
    ///
    /// # Errors
    /// [`ConfigError`] when the configuration breaks a rule of [`Config::check`].
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        config.check()?;
        Ok(Self::from_checked(config))
    }

    /// Start a run of a configuration already known to pass [`Config::check`]: the config of a
    /// [`Scenario`](crate::scenario::Scenario) read by [`scenario::parse`](crate::scenario::parse)
    /// (which checks it) or of the built-in opening (`scenario::opening`, checked by its tests).
    /// The page starts its runs this way, so that the checker's rules and messages stay out of
    /// its first module (issue 14); anything else goes through [`Sim::new`]. An unchecked config
    /// may make the run panic.
    pub(crate) fn from_checked(config: Config) -> Self {
        debug_assert!(config.check().is_ok(), "Sim::from_checked needs a checked config");
        let resources: Vec<Resource> = (0..config.resource_count())
            .map(|r| {
                let mut resource = Resource::new(config.resource.fencing, config.resource.equal_token);
                resource.name = config.resource_name(r);
                resource.persist_high_water = config.resource.persist_high_water;
                resource.token_check = config.resource.token_check;
                resource.token_scope = config.resource.token_scope;
                resource
            })
            .collect();
        let mut sim = Self {
            now_ms: 0,
            rng: Rng::new(config.seed),
            queue: queue::Agenda::default(),
            next_seq: 0,
            next_message_id: 0,
            store: store::Store::new(&config),
            nodes: config
                .nodes
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    let mut node = Node::new(n.id.clone(), n.identity.clone(), Clock::new(n.clock));
                    node.monotonic_timers = n.timers == TimerClock::Monotonic;
                    node.writes_to = config.node_targets(i);
                    node
                })
                .collect(),
            net: network::NetFaults::new(config.seed),
            oracles: vec![oracle::Oracle::default(); resources.len()],
            resources,
            raw_writes: 0,
            trace: Vec::new(),
            hasher: TraceHasher::default(),
            interventions: Vec::new(),
            ended: false,
            invariants: invariants::Invariants::default(),
            config: Arc::new(config),
        };
        // Scheduled commands first, so at the same millisecond they apply before anything the
        // run itself schedules later, and among themselves in file order.
        for index in 0..sim.config.events.len() {
            let at = sim.config.events[index].at_ms;
            sim.schedule(at, Item::Scheduled { index });
        }
        for node in 0..sim.nodes.len() {
            let at = sim.config.nodes[node].start_ms;
            sim.schedule(at, Item::Start { node });
        }
        // Recorded interventions sort after everything else at their millisecond, also what is
        // scheduled for it later on (the insertion counter never comes near `LIVE_KEY`), as
        // `apply` after `advance_to` did; the end still sorts after them.
        for index in 0..sim.config.interventions.len() {
            let at = sim.config.interventions[index].at_ms;
            sim.queue.insert((at, LIVE_KEY + index as u64), Item::Intervention { index });
        }
        let until = sim.config.until_ms;
        // The end sorts after everything else at `until_ms`, also what is scheduled for that very
        // millisecond later on: nothing happens after the run ended.
        sim.queue.insert((until, u64::MAX), Item::End);
        sim
    }

    /// Replay a run: the configuration plus live commands, each applied after everything at or
    /// before its `at_ms`, exactly as [`Sim::apply`] did when they were first given.
    ///
    /// # Errors
    /// As [`Sim::new`]; or a command that names an unknown node or has bad arguments.
    pub fn replay(config: Config, interventions: &[ScheduledCommand]) -> Result<Self, ConfigError> {
        let mut sim = Self::new(config)?;
        for ScheduledCommand { at_ms, command } in interventions {
            sim.advance_to(*at_ms);
            sim.apply(command.clone())?;
        }
        Ok(sim)
    }

    /// The configuration the run was started with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The configuration, shared rather than copied (a [`timeline::Timeline`] keeps it with its
    /// checkpoints).
    pub(crate) fn shared_config(&self) -> Arc<Config> {
        Arc::clone(&self.config)
    }

    /// Current virtual time, in ms.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// Whether the run has reached `until_ms`.
    pub fn finished(&self) -> bool {
        self.ended
    }

    /// Every trace entry so far.
    pub fn trace(&self) -> &[TraceEntry] {
        &self.trace
    }

    /// Takes the trace out, leaving it empty: a [`timeline::Timeline`] checkpoint keeps one
    /// shared trace instead of a copy per checkpoint. Put it back with [`Self::put_trace`]
    /// before playing on (the trace limit counts it).
    pub(crate) fn take_trace(&mut self) -> Vec<TraceEntry> {
        std::mem::take(&mut self.trace)
    }

    /// Puts back the trace [`Self::take_trace`] took (or a prefix of a longer one that this state
    /// produced: the entries up to this state's own).
    pub(crate) fn put_trace(&mut self, trace: Vec<TraceEntry>) {
        self.trace = trace;
    }

    /// FNV-1a hash of the whole trace so far, 16 hex digits ([`TraceHasher`]). The entries are
    /// serialized and folded when it is asked for: a run nobody asks never serializes its trace.
    pub fn trace_hash(&self) -> String {
        let mut hasher = self.hasher;
        hasher.catch_up(&self.trace);
        hasher.hex()
    }

    /// [`Self::trace_hash`], keeping what it folded, so that the next call folds only the
    /// entries made since: for a caller that asks often (the page, every frame).
    pub fn fold_trace_hash(&mut self) -> String {
        self.hasher.catch_up(&self.trace);
        self.hasher.hex()
    }

    /// The commands applied live, with the times they took effect.
    pub fn interventions(&self) -> &[ScheduledCommand] {
        &self.interventions
    }

    /// The time of the next pending item, if any.
    pub fn next_event_ms(&self) -> Option<u64> {
        self.queue.first_key().map(|(t, _)| t)
    }

    /// Process everything scheduled at or before `t_ms` (capped at `until_ms`), then set the
    /// clock to that time. Returns how many trace entries were added.
    pub fn advance_to(&mut self, t_ms: u64) -> usize {
        // A run stopped early (the trace limit) stays at the moment it stopped.
        if self.ended {
            return 0;
        }
        let target = t_ms.min(self.config.until_ms);
        let before = self.trace.len();
        while let Some(((at, _), item)) = self.queue.pop_before(target.saturating_add(1)) {
            self.now_ms = self.now_ms.max(at);
            self.process(item);
        }
        if !self.ended {
            self.now_ms = self.now_ms.max(target);
        }
        self.trace.len() - before
    }

    /// Process pending items until at least one trace entry appears or the run ends: one
    /// "engine event" for the step button. Never goes past `until_ms`. Returns the number of
    /// entries added (0 once the run has ended).
    pub fn step(&mut self) -> usize {
        self.step_before(self.config.until_ms.saturating_add(1))
    }

    /// [`Sim::step`], but processing only items due before `limit_ms`: the step button stops
    /// short of an intervention still ahead, which applies after everything at its millisecond
    /// (see [`timeline::Timeline::step`]). Returns the number of entries added (0 when nothing
    /// is due before the limit).
    pub fn step_before(&mut self, limit_ms: u64) -> usize {
        let before = self.trace.len();
        let limit = limit_ms.min(self.config.until_ms.saturating_add(1));
        while self.trace.len() == before {
            let Some(((at, _), item)) = self.queue.pop_before(limit) else { break };
            self.now_ms = self.now_ms.max(at);
            self.process(item);
        }
        self.trace.len() - before
    }

    /// Run to `until_ms`.
    pub fn run_to_end(&mut self) {
        self.advance_to(self.config.until_ms);
    }

    /// Apply a command now, after everything scheduled at or before the current time, and record
    /// it so the run can be replayed ([`Sim::replay`]).
    ///
    /// # Errors
    /// A command that names an unknown node or has bad arguments; the world is left unchanged.
    pub fn apply(&mut self, command: Command) -> Result<(), ConfigError> {
        if let Some(node) = command.node() {
            if self.node_index(node).is_none() {
                return Err(ConfigError { path: "node".into(), message: format!("unknown node \"{node}\"") });
            }
        }
        command.check().map_err(|(field, message)| ConfigError { path: field.into(), message })?;
        if let Some(name) = command.resource() {
            if self.config.resource_index(Some(name)).is_none() {
                return Err(ConfigError { path: "resource".into(), message: format!("unknown resource \"{name}\"") });
            }
        }
        if matches!(command, Command::SetFencing { on: true }) && !self.store.coordinator.rules.issues_tokens() {
            return Err(ConfigError {
                path: "on".into(),
                message: format!("the {} store issues no fencing token to check", self.config.store_kind.code()),
            });
        }
        let now = self.now_ms;
        self.advance_to(now);
        self.interventions.push(ScheduledCommand { at_ms: now, command: command.clone() });
        self.checked_step(|sim| sim.execute(command));
        Ok(())
    }

    /// Whether the store judges expiry on its clock (false only under observer expiry: client-go's,
    /// or the DynamoDB lock client's). A reader of the profile's one rule,
    /// [`StoreRules::judges_expiry`], through [`Config::store_judges_expiry`].
    pub fn store_judges_expiry(&self) -> bool {
        self.config.store_judges_expiry()
    }

    /// The world now, as plain data.
    pub fn snapshot(&self) -> Snapshot {
        let now = self.now_ms;
        let c = &self.store.coordinator;
        let store_judges = self.store_judges_expiry();
        let store_clock_ms = self.store.clock_ms(now);
        let expires_ms = self.lease_expires_ms().map(|at| {
            if store_judges && !c.lease_live(store_clock_ms) {
                // Once passed, the expiry is shown when it ended, not when it was noticed.
                self.lease_ended_ms()
            } else {
                at
            }
        });
        // The store's own judgement (its clock, its profile's rule for the last millisecond).
        let expired = c.holder.is_some() && !c.lease_live(store_clock_ms);
        let lease = LeaseView {
            holder_identity: c.holder.clone(),
            lease_duration_ms: c.duration_ms,
            acquire_time_ms: c.acquire_time_ms,
            renew_time_ms: c.renew_time_ms,
            lease_transitions: c.lease_transitions,
            token: c.token,
            newest_granted: c.newest_granted(),
            expires_ms,
            expired,
            liveness: Liveness::judge(c.holder.is_some(), expires_ms, expired, store_judges, now),
            version: c.version,
            lock_name: self.config.lock.name.clone(),
            renew_time_store_ms: c.renew_local_ms,
        };
        let nodes = self
            .nodes
            .iter()
            .map(|n| NodeView {
                id: n.id.clone(),
                identity: n.identity.clone(),
                clock_ms: n.clock.read(now).saturating_add(n.wall_shift_ms),
                clock_rate_ppm: n.clock.rate_ppm(),
                observed_expires_ms: n
                    .observed
                    .as_ref()
                    .filter(|o| o.holder.is_some() && o.holder.as_deref() != Some(n.identity.as_str()))
                    .map(|o| {
                        let d = i64::try_from(o.lease_duration_ms).unwrap_or(i64::MAX);
                        n.clock.when_reads(o.observed_local_ms.saturating_add(d), now)
                    }),
                zombie_token: n.zombie_token,
                role: if n.crashed {
                    Role::Crashed
                } else if n.paused {
                    Role::Paused
                } else if n.leadership.is_some() {
                    Role::Leader
                } else {
                    Role::Candidate
                },
                believes_leader: n.leadership.is_some(),
                token: n.leadership.map(|l| l.token),
                partitioned: n.cut.is_some(),
                cut_from: n.cut,
                started: n.started,
                last_renew_ok_ms: n.leadership.map(|l| l.last_ok_sent_ms),
                renew_deadline_ms: n.leadership.map(|l| n.clock.when_reads(l.deadline_local_ms, now)),
                prepared_write: n.prepared.first().cloned(),
                next_write_delay_ms: n.next_write_delay_ms,
                writes_sent: n.writes_sent,
            })
            .collect();
        let mut resources = self.resources.iter().map(|r| ResourceView {
            name: r.name.clone(),
            fencing: r.fencing,
            equal_token: r.equal_token,
            epoch_barrier: self.config.resource.epoch_barrier,
            token_scope: r.token_scope,
            high_water: r.high_water,
            value: r.value.clone(),
            value_from: r.value_from.clone(),
            value_token: r.value_token.clone(),
            accepted: r.accepted,
            rejected: r.rejected,
        });
        // There is always a first resource (`Config::resource_count` is at least 1).
        let resource = resources.next().unwrap_or_default();
        let more_resources = resources.collect();
        let mut in_flight: Vec<MessageView> = self
            .queue
            .iter()
            .filter_map(|(_, item)| match item {
                Item::Deliver(m) => Some(self.message_view(m)),
                _ => None,
            })
            .collect();
        // Held messages reached a frozen node: show them waiting at its door.
        for n in &self.nodes {
            for held in &n.held {
                if let Held::Message(m) = held {
                    in_flight.push(self.message_view(m));
                }
            }
        }
        queue::sort_by_keys(&mut in_flight, |m| (m.id, 0));
        Snapshot {
            now_ms: now,
            until_ms: self.config.until_ms,
            protocol: self.config.protocol,
            store_kind: self.config.store_kind,
            expiry: if store_judges { Expiry::Coordinator } else { Expiry::Observer },
            store_clock_ms: self.store.shown_clock_ms(now),
            lease,
            nodes,
            resource,
            more_resources,
            in_flight,
        }
    }

    // ----- internals -------------------------------------------------------------------------

    /// The index of the node called `id`.
    fn node_index(&self, id: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.id == id)
    }

    /// Queue `item` for `at_ms`, after everything already queued for that millisecond.
    fn schedule(&mut self, at_ms: u64, item: Item) {
        // A run stopped early at the trace limit schedules nothing more: it has ended.
        if self.ended {
            return;
        }
        self.queue.insert((at_ms, self.next_seq), item);
        self.next_seq += 1;
    }

    /// Append `event` to the trace at the current time (or end the run at the trace limit).
    fn record(&mut self, event: TraceEvent) {
        if self.ended {
            return;
        }
        if self.trace.len() + 2 >= MAX_TRACE_ENTRIES {
            // A run that would outgrow any page or terminal stops here, and says so.
            self.push(TraceEvent::TraceLimitReached { entries: self.trace.len() + 2 });
            self.push(TraceEvent::RunEnded);
            self.ended = true;
            self.queue.clear();
            return;
        }
        self.push(event);
    }

    fn push(&mut self, event: TraceEvent) {
        let entry = TraceEntry { seq: self.trace.len() as u64, at_ms: self.now_ms, event };
        self.trace.push(entry);
    }

    /// One step of the run: `item` is handled (and, in debug builds, the invariants checked).
    fn process(&mut self, item: Item) {
        self.checked_step(|sim| sim.handle(item));
    }

    fn handle(&mut self, item: Item) {
        match item {
            Item::Start { node } => {
                if !self.nodes[node].crashed && !self.nodes[node].started {
                    self.start(node);
                }
            }
            Item::Timer { node, incarnation, kind, generation } => {
                let n = &mut self.nodes[node];
                if n.incarnation != incarnation || n.timer_generation[kind.index()] != generation || n.crashed {
                    return;
                }
                n.timer_due_local[kind.index()] = None;
                if n.paused {
                    n.held.push_back(Held::Timer { kind, generation });
                } else {
                    self.on_timer(node, kind);
                }
            }
            Item::Deliver(message) => self.deliver(message),
            Item::Scheduled { index } => {
                let command = self.config.events[index].command.clone();
                self.execute(command);
            }
            Item::Intervention { index } => {
                let command = self.config.interventions[index].command.clone();
                self.execute(command);
            }
            Item::AutoResume { node, pause } => {
                if self.nodes[node].paused && self.nodes[node].pause_count == pause {
                    self.resume(node);
                }
            }
            Item::ExpiryCheck { renew_time_ms } => self.check_expiry(renew_time_ms),
            Item::End => {
                if !self.ended {
                    self.record(TraceEvent::RunEnded);
                    self.ended = true;
                }
            }
        }
    }
}
