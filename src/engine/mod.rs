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
//! intervention). This file is the event loop that moves messages and timers between them.
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
pub mod explore;
pub mod node;
pub mod oracle;
pub mod resource;
pub mod rng;
pub mod script;
pub mod snapshot;
pub mod timeline;
pub mod token;
pub mod trace;

use std::collections::BTreeMap;

pub use clock::{ClockConfig, RATE_ONE_PPM};
pub use command::{Command, Link, ScheduledCommand};
pub use config::{
    Config, ConfigError, EqualTokenPolicy, Expiry, IssuerConfig, LeaseConfig, LockConfig, NetworkConfig, NodeConfig,
    Protocol, ReleaseCheck, ResourceConfig, TokenCheck, TokenScope, WorkConfig, MAX_NODES, MAX_UNTIL_MS,
};
pub use snapshot::{LeaseView, MessageView, NodeView, PreparedWrite, ResourceView, Role, Snapshot};
pub use token::WireToken;
pub use trace::{
    Blocked, Endpoint, IgnoredBecause, MessageKind, ReleaseOutcome, StepDownReason, TraceEntry, TraceEvent, Violation,
    WriteOutcome,
};

use clock::Clock;
use coordinator::{AcquireResult, Coordinator, StoreNow};
use node::{Held, Leadership, Node, Observation, TimerKind};
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

/// A message between the actors.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Message {
    id: u64,
    sent_ms: u64,
    arrive_ms: u64,
    body: Body,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Body {
    /// `observed_expired`: under observer expiry, the record version the candidate saw and
    /// judged expired on its own clock.
    AcquireRequest {
        node: usize,
        incarnation: u32,
        observed_expired: Option<u64>,
    },
    /// Carries the record as the store has it now (what a client-go `Get` returns).
    AcquireReply {
        node: usize,
        incarnation: u32,
        request_sent_ms: u64,
        token: Option<u64>,
        record: Record,
    },
    RenewRequest {
        node: usize,
        incarnation: u32,
        token: u64,
    },
    RenewReply {
        node: usize,
        incarnation: u32,
        request_sent_ms: u64,
        token: u64,
        ok: bool,
    },
    Write {
        node: usize,
        op_id: String,
        value: String,
        token: u64,
    },
    ReleaseRequest {
        node: usize,
        token: u64,
    },
}

/// The parts of the record a reply shows the candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Record {
    version: u64,
    holder: Option<String>,
    duration_ms: u64,
}

impl Body {
    fn kind(&self) -> MessageKind {
        match self {
            Body::AcquireRequest { .. } => MessageKind::AcquireRequest,
            Body::AcquireReply { .. } => MessageKind::AcquireReply,
            Body::RenewRequest { .. } => MessageKind::RenewRequest,
            Body::RenewReply { .. } => MessageKind::RenewReply,
            Body::Write { .. } => MessageKind::Write,
            Body::ReleaseRequest { .. } => MessageKind::ReleaseRequest,
        }
    }

    /// The node at the far end of the message (every message has exactly one).
    fn node(&self) -> usize {
        match self {
            Body::AcquireRequest { node, .. }
            | Body::AcquireReply { node, .. }
            | Body::RenewRequest { node, .. }
            | Body::RenewReply { node, .. }
            | Body::Write { node, .. }
            | Body::ReleaseRequest { node, .. } => *node,
        }
    }

    /// Whether the message travels towards the node (a reply).
    fn to_node(&self) -> bool {
        matches!(self, Body::AcquireReply { .. } | Body::RenewReply { .. })
    }

    fn token(&self) -> Option<WireToken> {
        match self {
            Body::AcquireRequest { .. } => None,
            Body::AcquireReply { token, .. } => token.map(WireToken::Number),
            Body::RenewRequest { token, .. }
            | Body::RenewReply { token, .. }
            | Body::Write { token, .. }
            | Body::ReleaseRequest { token, .. } => Some(WireToken::Number(*token)),
        }
    }
}

/// Something scheduled to happen at a virtual time.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    config: Config,
    now_ms: u64,
    rng: Rng,
    /// Pending items, ordered by (time, insertion order): ties resolve deterministically.
    queue: BTreeMap<(u64, u64), Item>,
    next_seq: u64,
    next_message_id: u64,
    coordinator: Coordinator,
    /// The store's own clock.
    store_clock: Clock,
    nodes: Vec<Node<Message>>,
    resource: Resource,
    oracle: oracle::Oracle,
    /// The `renewTime` whose expiry was already reported, so it is reported once.
    expiry_reported_for: Option<u64>,
    raw_writes: u64,
    trace: Vec<TraceEntry>,
    hasher: TraceHasher,
    interventions: Vec<ScheduledCommand>,
    ended: bool,
}

impl Sim {
    /// Start a run. Nothing happens until time is advanced.
    ///
    /// # Errors
    /// [`ConfigError`] when the configuration breaks a rule of [`Config::check`].
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        config.check()?;
        let mut resource = Resource::new(config.resource.fencing, config.resource.equal_token);
        resource.persist_high_water = config.resource.persist_high_water;
        resource.token_check = config.resource.token_check;
        resource.token_scope = config.resource.token_scope;
        let mut coordinator = Coordinator::new(config.lease.duration_ms, config.issuer.first_token);
        coordinator.judges_expiry = config.lease.expiry == Expiry::Coordinator || config.protocol == Protocol::Lock;
        coordinator.reentrant = config.protocol == Protocol::Lease;
        let mut sim = Self {
            now_ms: 0,
            rng: Rng::new(config.seed),
            queue: BTreeMap::new(),
            next_seq: 0,
            next_message_id: 0,
            coordinator,
            store_clock: Clock::new(config.store_clock),
            nodes: config
                .nodes
                .iter()
                .map(|n| Node::new(n.id.clone(), n.identity.clone(), Clock::new(n.clock)))
                .collect(),
            resource,
            oracle: oracle::Oracle::default(),
            expiry_reported_for: None,
            raw_writes: 0,
            trace: Vec::new(),
            hasher: TraceHasher::default(),
            interventions: Vec::new(),
            ended: false,
            config,
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
        Ok(sim)
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

    pub fn config(&self) -> &Config {
        &self.config
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

    /// FNV-1a hash of the whole trace so far, 16 hex digits.
    pub fn trace_hash(&self) -> String {
        self.hasher.hex()
    }

    /// The commands applied live, with the times they took effect.
    pub fn interventions(&self) -> &[ScheduledCommand] {
        &self.interventions
    }

    /// The time of the next pending item, if any.
    pub fn next_event_ms(&self) -> Option<u64> {
        self.queue.keys().next().map(|(t, _)| *t)
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
        while let Some(entry) = self.queue.first_entry() {
            if entry.key().0 > target {
                break;
            }
            let ((at, _), item) = entry.remove_entry();
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
            let Some(entry) = self.queue.first_entry() else { break };
            if entry.key().0 >= limit {
                break;
            }
            let ((at, _), item) = entry.remove_entry();
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
        let now = self.now_ms;
        self.advance_to(now);
        self.interventions.push(ScheduledCommand { at_ms: now, command: command.clone() });
        self.execute(command);
        Ok(())
    }

    /// Whether the store judges expiry on its clock (false only under client-go's observer
    /// expiry).
    pub fn store_judges_expiry(&self) -> bool {
        self.coordinator.judges_expiry
    }

    /// The world now, as plain data.
    pub fn snapshot(&self) -> Snapshot {
        let now = self.now_ms;
        let c = &self.coordinator;
        let store_clock_ms = self.store_clock.read(now);
        let expires_ms = if c.judges_expiry {
            // Once passed, the expiry is shown at renewTime + duration on true time (or now, if a
            // store clock jump expired it early).
            c.expires_local_ms().map(|e| {
                if store_clock_ms >= e {
                    c.renew_time_ms.unwrap_or(now).saturating_add(c.duration_ms).min(now)
                } else {
                    self.store_clock.when_reads(e, now)
                }
            })
        } else {
            c.holder.as_ref().and(c.renew_time_ms).map(|t| t.saturating_add(c.duration_ms))
        };
        let lease = LeaseView {
            holder_identity: c.holder.clone(),
            lease_duration_ms: c.duration_ms,
            acquire_time_ms: c.acquire_time_ms,
            renew_time_ms: c.renew_time_ms,
            lease_transitions: c.lease_transitions,
            token: c.token,
            newest_granted: c.newest_granted(),
            expires_ms,
            expired: c.holder.is_some() && !c.is_live(store_clock_ms),
            version: c.version,
            lock_name: self.config.lock.name.clone(),
            renew_time_store_ms: c.renew_local_ms,
        };
        let deadline = self.config.lease.renew_deadline_ms;
        let nodes = self
            .nodes
            .iter()
            .map(|n| NodeView {
                id: n.id.clone(),
                identity: n.identity.clone(),
                clock_ms: n.clock.read(now),
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
                renew_deadline_ms: n.leadership.map(|l| {
                    let d = i64::try_from(deadline).unwrap_or(i64::MAX);
                    n.clock.when_reads(l.last_ok_sent_local_ms.saturating_add(d), now)
                }),
                prepared_write: n.prepared.clone(),
                next_write_delay_ms: n.next_write_delay_ms,
                writes_sent: n.writes_sent,
            })
            .collect();
        let r = &self.resource;
        let resource = ResourceView {
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
        };
        let mut in_flight: Vec<MessageView> = self
            .queue
            .values()
            .filter_map(|item| match item {
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
        in_flight.sort_by_key(|m| m.id);
        Snapshot {
            now_ms: now,
            until_ms: self.config.until_ms,
            protocol: self.config.protocol,
            expiry: if self.coordinator.judges_expiry { Expiry::Coordinator } else { Expiry::Observer },
            store_clock_ms,
            lease,
            nodes,
            resource,
            in_flight,
        }
    }

    // ----- internals -------------------------------------------------------------------------

    fn node_index(&self, id: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.id == id)
    }

    fn message_view(&self, m: &Message) -> MessageView {
        let (from, to) = self.endpoints(&m.body);
        MessageView {
            id: m.id,
            kind: m.body.kind(),
            from,
            to,
            sent_ms: m.sent_ms,
            arrive_ms: m.arrive_ms,
            token: m.body.token(),
        }
    }

    fn endpoints(&self, body: &Body) -> (Endpoint, Endpoint) {
        let node = Endpoint::Node(self.nodes[body.node()].id.clone());
        let other = if matches!(body, Body::Write { .. }) { Endpoint::Resource } else { Endpoint::Coordinator };
        if body.to_node() {
            (other, node)
        } else {
            (node, other)
        }
    }

    fn schedule(&mut self, at_ms: u64, item: Item) {
        // A run stopped early at the trace limit schedules nothing more: it has ended.
        if self.ended {
            return;
        }
        self.queue.insert((at_ms, self.next_seq), item);
        self.next_seq += 1;
    }

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
        self.hasher.add(&entry);
        self.trace.push(entry);
    }

    /// Arm a node timer `after_ms` from now on the node's own clock.
    fn arm(&mut self, node: usize, kind: TimerKind, after_ms: u64) {
        let now = self.now_ms;
        let due = self.nodes[node].clock.read(now).saturating_add(i64::try_from(after_ms).unwrap_or(i64::MAX));
        self.arm_at_local(node, kind, due);
    }

    /// Arm a node timer for when the node's clock reads `due_local_ms`.
    fn arm_at_local(&mut self, node: usize, kind: TimerKind, due_local_ms: i64) {
        let now = self.now_ms;
        let n = &mut self.nodes[node];
        n.cancel(kind);
        n.timer_due_local[kind.index()] = Some(due_local_ms);
        let item = Item::Timer { node, incarnation: n.incarnation, kind, generation: n.timer_generation[kind.index()] };
        let at = n.clock.when_reads(due_local_ms, now);
        self.schedule(at, item);
    }

    /// After a node's clock changed, its armed timers fire when the clock reads their due time.
    fn rearm_timers(&mut self, node: usize) {
        for kind in TimerKind::ALL {
            if let Some(due) = self.nodes[node].timer_due_local[kind.index()] {
                self.arm_at_local(node, kind, due);
            }
        }
    }

    fn process(&mut self, item: Item) {
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
            Item::ExpiryCheck { renew_time_ms } => {
                let c = &self.coordinator;
                if c.renew_time_ms == Some(renew_time_ms)
                    && !c.is_live(self.store_clock.read(self.now_ms))
                    && self.expiry_reported_for != Some(renew_time_ms)
                {
                    if let (Some(holder), Some(token)) = (c.holder.clone(), c.token) {
                        self.expiry_reported_for = Some(renew_time_ms);
                        self.record(TraceEvent::LeaseExpired { holder, token });
                    }
                }
            }
            Item::End => {
                if !self.ended {
                    self.record(TraceEvent::RunEnded);
                    self.ended = true;
                }
            }
        }
    }

    // ----- nodes -----------------------------------------------------------------------------

    fn start(&mut self, node: usize) {
        self.nodes[node].started = true;
        let id = self.nodes[node].id.clone();
        self.record(TraceEvent::NodeStarted { node: id });
        self.send_acquire(node);
    }

    fn send_acquire(&mut self, node: usize) {
        let n = &self.nodes[node];
        let incarnation = n.incarnation;
        // Observer expiry: ask to take over only the version seen expired on the node's clock.
        let local = n.clock.read(self.now_ms);
        let observed_expired = n.observed.as_ref().filter(|o| o.expired(local)).map(|o| o.version);
        self.send(Body::AcquireRequest { node, incarnation, observed_expired }, 0);
        let mut retry = self.config.lease.retry_every_ms;
        if !self.coordinator.judges_expiry {
            // client-go: wait.JitterUntil(tryAcquire, RetryPeriod, JitterFactor 1.2, ...): each
            // wait is RetryPeriod plus up to 1.2 × RetryPeriod more.
            retry = retry.saturating_add(self.rng.range_inclusive(0, retry.saturating_mul(6) / 5));
        }
        self.arm(node, TimerKind::Retry, retry);
    }

    fn on_timer(&mut self, node: usize, kind: TimerKind) {
        // A leader's own timers first check client-go's RenewDeadline: once it has passed, the
        // leader steps down instead of renewing, writing or finishing its errand.
        let leader_timer = matches!(kind, TimerKind::Renew | TimerKind::Work | TimerKind::Deadline | TimerKind::Hold);
        if leader_timer && self.nodes[node].leadership.is_some() && self.step_down_if_deadline_passed(node) {
            return;
        }
        let lease = self.config.lease;
        match (kind, self.nodes[node].leadership) {
            (TimerKind::Retry, None) => self.send_acquire(node),
            (TimerKind::Renew, Some(l)) => {
                let incarnation = self.nodes[node].incarnation;
                self.send(Body::RenewRequest { node, incarnation, token: l.token }, 0);
                self.arm(node, TimerKind::Renew, lease.renew_every_ms);
            }
            (TimerKind::Work, Some(l)) => {
                self.send_write(node, l.token);
                let every = self.config.work.every_ms;
                self.arm(node, TimerKind::Work, every);
            }
            (TimerKind::Work, None) => {
                // Work that outlived its lease goes on with the old token.
                if let Some(token) = self.nodes[node].zombie_token {
                    self.send_write(node, token);
                    let every = self.config.work.every_ms;
                    self.arm(node, TimerKind::Work, every);
                }
            }
            (TimerKind::Hold, Some(_)) => self.step_down(node, StepDownReason::Finished),
            _ => {}
        }
    }

    /// client-go's renew loop gives up once `RenewDeadline` has passed without a confirmed renewal.
    fn step_down_if_deadline_passed(&mut self, node: usize) -> bool {
        if self.nodes[node].deadline_passed(self.now_ms, self.config.lease.renew_deadline_ms) {
            self.step_down(node, StepDownReason::RenewDeadline);
            true
        } else {
            false
        }
    }

    fn become_leader(&mut self, node: usize, token: u64, request_sent_ms: u64, request_sent_local_ms: i64) {
        let (sent_ms, sent_local_ms) = if self.config.protocol == Protocol::Lock && !self.config.lock.session_check {
            // The old client trusts the grant as fresh and counts its lease from the reply.
            (self.now_ms, self.nodes[node].clock.read(self.now_ms))
        } else {
            (request_sent_ms, request_sent_local_ms)
        };
        let n = &mut self.nodes[node];
        n.leadership = Some(Leadership { token, last_ok_sent_ms: sent_ms, last_ok_sent_local_ms: sent_local_ms });
        n.zombie_token = None;
        n.cancel(TimerKind::Retry);
        n.cancel(TimerKind::Work);
        let id = n.id.clone();
        if self.nodes[node].deadline_passed(self.now_ms, self.config.lease.renew_deadline_ms) {
            // The grant came back after the requester's own lease had run out: it never believes
            // it leads, never starts (etcd's ErrSessionExpired), and lets go of the grant.
            self.step_down(node, StepDownReason::SessionExpired);
            return;
        }
        self.record(TraceEvent::BecameLeader { node: id, token });
        let lease = self.config.lease;
        self.arm(node, TimerKind::Renew, lease.renew_every_ms);
        if let (Protocol::Lock, Some(hold)) = (self.config.protocol, self.config.lock.hold_ms) {
            self.arm(node, TimerKind::Hold, hold);
        }
        self.arm_deadline(node);
        if !self.step_down_if_deadline_passed(node) {
            // The work starts as soon as it learns it leads (client-go's OnStartedLeading).
            self.send_write(node, token);
            let every = self.config.work.every_ms;
            self.arm(node, TimerKind::Work, every);
        }
    }

    fn arm_deadline(&mut self, node: usize) {
        if let Some(l) = self.nodes[node].leadership {
            let d = i64::try_from(self.config.lease.renew_deadline_ms).unwrap_or(i64::MAX);
            self.arm_at_local(node, TimerKind::Deadline, l.last_ok_sent_local_ms.saturating_add(d));
        }
    }

    /// The node stops believing it leads. Under the lock protocol it then releases the lock, as a
    /// client's `finally: unlock()` does, whatever the reason. Its work stops too, unless
    /// `work.stops_with_lease` is false.
    fn step_down(&mut self, node: usize, reason: StepDownReason) {
        let keep_working = !self.config.work.stops_with_lease && reason != StepDownReason::SessionExpired;
        let n = &mut self.nodes[node];
        let Some(l) = n.leadership.take() else { return };
        for kind in [TimerKind::Renew, TimerKind::Deadline, TimerKind::Hold] {
            n.cancel(kind);
        }
        if !keep_working {
            n.cancel(TimerKind::Work);
        }
        let id = n.id.clone();
        self.record(TraceEvent::SteppedDown { node: id.clone(), token: l.token, reason });
        if keep_working {
            self.nodes[node].zombie_token = Some(l.token);
            self.record(TraceEvent::WorkContinues { node: id, token: l.token });
        }
        if self.config.protocol == Protocol::Lock {
            self.send(Body::ReleaseRequest { node, token: l.token }, 0);
        }
        let retry = self.config.lease.retry_every_ms;
        self.arm(node, TimerKind::Retry, retry);
    }

    fn send_write(&mut self, node: usize, token: u64) {
        let (op_id, value) = self.nodes[node].next_write();
        self.send_prepared_write(node, PreparedWrite { op_id, token, value });
    }

    /// Sends a write, held up by any delay armed for this node's next write.
    fn send_prepared_write(&mut self, node: usize, w: PreparedWrite) {
        let extra = self.nodes[node].next_write_delay_ms.take().unwrap_or(0);
        self.nodes[node].writes_sent += 1;
        self.send(Body::Write { node, op_id: w.op_id, value: w.value, token: w.token }, extra);
    }

    fn on_message(&mut self, node: usize, message: Message) {
        match message.body {
            Body::AcquireReply { incarnation, request_sent_ms, token, record, .. } => {
                if incarnation != self.nodes[node].incarnation {
                    return;
                }
                if !self.coordinator.judges_expiry {
                    self.observe(node, record);
                }
                let sent_local = self.nodes[node].clock.read(request_sent_ms);
                match (token, self.nodes[node].leadership) {
                    (Some(t), None) => self.become_leader(node, t, request_sent_ms, sent_local),
                    (Some(t), Some(l)) if l.token == t => self.confirm(node, request_sent_ms),
                    _ => {}
                }
            }
            Body::RenewReply { incarnation, request_sent_ms, token, ok, .. } => {
                if incarnation != self.nodes[node].incarnation {
                    return;
                }
                match self.nodes[node].leadership {
                    Some(l) if l.token == token && ok => self.confirm(node, request_sent_ms),
                    Some(l) if l.token == token => self.step_down(node, StepDownReason::RenewRefused),
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn confirm(&mut self, node: usize, request_sent_ms: u64) {
        let n = &mut self.nodes[node];
        // The send time on the node's clock, as the node noted it then (a later jump or rate
        // change does not rewrite what it noted).
        let sent_local = n.clock.read(request_sent_ms);
        if let Some(l) = n.leadership.as_mut() {
            if request_sent_ms > l.last_ok_sent_ms {
                l.last_ok_sent_ms = request_sent_ms;
                l.last_ok_sent_local_ms = sent_local;
            }
        }
        self.arm_deadline(node);
    }

    /// Observer expiry (client-go): a record that differs from the last one seen restarts the
    /// node's own wait, `observedTime = now` on its clock.
    fn observe(&mut self, node: usize, record: Record) {
        let now = self.now_ms;
        let n = &mut self.nodes[node];
        if n.observed.as_ref().is_some_and(|o| o.version == record.version) {
            return;
        }
        let local = n.clock.read(now);
        n.observed = Some(Observation {
            version: record.version,
            holder: record.holder.clone(),
            lease_duration_ms: record.duration_ms,
            observed_local_ms: local,
        });
        let id = n.id.clone();
        if record.holder.as_deref() != Some(n.identity.as_str()) {
            self.record(TraceEvent::RecordObserved {
                node: id,
                holder: record.holder,
                version: record.version,
                lease_duration_ms: record.duration_ms,
            });
        }
    }

    // ----- network ---------------------------------------------------------------------------

    fn send(&mut self, body: Body, extra_delay_ms: u64) {
        let id = self.next_message_id;
        self.next_message_id += 1;
        let kind = body.kind();
        let node = body.node();
        if !body.to_node() && self.cut(node, &body) {
            self.record(TraceEvent::MessageDropped { id, kind });
            return;
        }
        let net = self.config.network;
        let latency = self.rng.range_inclusive(net.latency_min_ms, net.latency_max_ms);
        let arrive_ms = self.now_ms.saturating_add(latency).saturating_add(extra_delay_ms);
        let (from, to) = self.endpoints(&body);
        let token = body.token();
        self.record(TraceEvent::MessageSent { id, kind, from, to, arrive_ms, token });
        let message = Message { id, sent_ms: self.now_ms, arrive_ms, body };
        self.schedule(arrive_ms, Item::Deliver(message));
    }

    /// Whether a partition of `node` cuts the link `body` travels on.
    fn cut(&self, node: usize, body: &Body) -> bool {
        match self.nodes[node].cut {
            None => false,
            Some(Link::All) => true,
            Some(Link::Coordinator) => !matches!(body, Body::Write { .. }),
            Some(Link::Resource) => matches!(body, Body::Write { .. }),
        }
    }

    fn deliver(&mut self, message: Message) {
        let node = message.body.node();
        let n = &self.nodes[node];
        // A node-level partition cuts the node's only link: nothing crosses it either way.
        if self.cut(node, &message.body) || (message.body.to_node() && n.crashed) {
            self.record(TraceEvent::MessageDropped { id: message.id, kind: message.body.kind() });
            return;
        }
        if message.body.to_node() {
            if n.paused {
                self.nodes[node].held.push_back(Held::Message(message));
            } else {
                self.on_message(node, message);
            }
            return;
        }
        match message.body {
            Body::AcquireRequest { incarnation, observed_expired, .. } => {
                self.on_acquire(node, incarnation, message.sent_ms, observed_expired)
            }
            Body::ReleaseRequest { token, .. } => self.on_release(node, token),
            Body::RenewRequest { incarnation, token, .. } => self.on_renew(node, incarnation, token, message.sent_ms),
            Body::Write { ref op_id, ref value, token, .. } => {
                let arrival = WriteArrival {
                    from: Some(self.nodes[node].id.clone()),
                    token: WireToken::Number(token),
                    value: value.clone(),
                    op_id: op_id.clone(),
                    sent_ms: message.sent_ms,
                    lock: None,
                    message: Some(message.id),
                };
                self.judge_write(arrival);
            }
            _ => {}
        }
    }

    // ----- coordinator -----------------------------------------------------------------------

    fn store_now(&self) -> StoreNow {
        StoreNow { true_ms: self.now_ms, local_ms: self.store_clock.read(self.now_ms) }
    }

    /// When the current record expires, in true ms (under observer expiry: `renewTime +
    /// duration` on true time, for display only).
    fn expires_true_ms(&self) -> u64 {
        let c = &self.coordinator;
        match (c.judges_expiry, c.expires_local_ms()) {
            (true, Some(e)) => self.store_clock.when_reads(e, self.now_ms),
            _ => c.renew_time_ms.unwrap_or(self.now_ms).saturating_add(c.duration_ms),
        }
    }

    fn on_acquire(&mut self, node: usize, incarnation: u32, request_sent_ms: u64, observed_expired: Option<u64>) {
        let id = self.nodes[node].id.clone();
        let identity = self.nodes[node].identity.clone();
        let now = self.store_now();
        let result = self.coordinator.acquire(&identity, now, observed_expired);
        let expires_ms = self.expires_true_ms();
        let token = match result {
            AcquireResult::Granted { token, lease_transitions } => {
                self.record(TraceEvent::LeaseGranted { node: id, token, lease_transitions, expires_ms });
                self.schedule_expiry_check();
                if self.config.resource.epoch_barrier {
                    let high_water_before = self.resource.raise_mark(token);
                    let high_water_after = self.resource.high_water;
                    self.record(TraceEvent::EpochBarrierRaised { token, high_water_before, high_water_after });
                }
                Some(token)
            }
            AcquireResult::Reacquired { token } => {
                self.record(TraceEvent::LeaseReacquired { node: id, token, expires_ms });
                self.schedule_expiry_check();
                Some(token)
            }
            AcquireResult::Refused { holder } => {
                self.record(TraceEvent::AcquireRefused { node: id, holder, expires_ms });
                None
            }
        };
        let c = &self.coordinator;
        let record = Record { version: c.version, holder: c.holder.clone(), duration_ms: c.duration_ms };
        self.send(Body::AcquireReply { node, incarnation, request_sent_ms, token, record }, 0);
    }

    fn on_renew(&mut self, node: usize, incarnation: u32, token: u64, request_sent_ms: u64) {
        let id = self.nodes[node].id.clone();
        let identity = self.nodes[node].identity.clone();
        let now = self.store_now();
        let ok = self.coordinator.renew(&identity, token, now);
        if ok {
            let expires_ms = self.expires_true_ms();
            self.record(TraceEvent::LeaseRenewed { node: id, token, expires_ms });
            self.schedule_expiry_check();
        } else {
            let holder = self.coordinator.holder.clone();
            self.record(TraceEvent::RenewRefused { node: id, token, holder });
        }
        self.send(Body::RenewReply { node, incarnation, request_sent_ms, token, ok }, 0);
    }

    /// Lock protocol: delete the key, with or without the owner check.
    fn on_release(&mut self, node: usize, token: u64) {
        let id = self.nodes[node].id.clone();
        let identity = self.nodes[node].identity.clone();
        let now = self.store_now();
        let outcome = self.coordinator.release(&identity, token, self.config.lock.release_check, now);
        let violation = match &outcome {
            ReleaseOutcome::DeletedOthers { holder, token: holder_token } => Some(Violation::LockDeletedByNonOwner {
                node: id.clone(),
                holder: holder.clone(),
                holder_token: *holder_token,
            }),
            _ => None,
        };
        self.record(TraceEvent::LockReleased { node: id, token, outcome });
        if let Some(violation) = violation {
            self.record(TraceEvent::ViolationFound { violation });
        }
    }

    fn schedule_expiry_check(&mut self) {
        if !self.coordinator.judges_expiry {
            return;
        }
        if let (Some(expires), Some(renew_time_ms)) =
            (self.coordinator.expires_local_ms(), self.coordinator.renew_time_ms)
        {
            let at = self.store_clock.when_reads(expires, self.now_ms);
            self.schedule(at, Item::ExpiryCheck { renew_time_ms });
        }
    }

    // ----- resource --------------------------------------------------------------------------

    fn judge_write(&mut self, arrival: WriteArrival) {
        let WriteArrival { from, token, value, op_id, sent_ms, lock, message } = arrival;
        let lock = lock.filter(|l| *l != self.config.lock.name);
        let j = self.resource.write_scoped(&token, &value, &op_id, from.as_deref(), lock.as_deref());
        let newest = self.coordinator.newest_granted();
        let violations = self.oracle.check_write(&j, &token, newest, &op_id, from.as_deref(), lock.as_deref());
        let blocked = match (j.outcome, token.valid()) {
            (WriteOutcome::RejectedStale, _) if j.foreign_mark => {
                self.resource.mark_lock.clone().map(|lock| Blocked::ForeignMark { lock })
            }
            (WriteOutcome::RejectedStale, Some(t))
                if lock.is_none() && Some(t) == newest && t < j.high_water_before =>
            {
                Some(Blocked::IssuerBehind)
            }
            _ => None,
        };
        self.record(TraceEvent::WriteJudged {
            op_id,
            from,
            token,
            value,
            sent_ms,
            outcome: j.outcome,
            high_water_before: j.high_water_before,
            high_water_after: j.high_water_after,
            fencing: self.resource.fencing,
            lock,
            message,
            blocked,
        });
        for violation in violations {
            self.record(TraceEvent::ViolationFound { violation });
        }
    }

    // ----- commands --------------------------------------------------------------------------

    fn ignored(&mut self, command: &Command, why: IgnoredBecause) {
        // Cannot fail (plain data); the error's text stands in if it ever did (see `TraceHasher`).
        let command = serde_json::to_string(command).unwrap_or_else(|e| e.to_string());
        self.record(TraceEvent::CommandIgnored { command, why });
    }

    fn execute(&mut self, command: Command) {
        let target = command.node().and_then(|id| self.node_index(id));
        match (&command, target) {
            (Command::Pause { for_ms, .. }, Some(node)) => {
                let n = &self.nodes[node];
                if n.crashed || n.paused || !n.started {
                    return self.ignored(&command, IgnoredBecause::NotRunning);
                }
                self.pause(node, *for_ms);
            }
            (Command::Resume { .. }, Some(node)) => {
                if !self.nodes[node].paused {
                    return self.ignored(&command, IgnoredBecause::NotPaused);
                }
                self.resume(node);
            }
            (Command::Crash { .. }, Some(node)) => {
                if self.nodes[node].crashed {
                    return self.ignored(&command, IgnoredBecause::AlreadyCrashed);
                }
                let n = &mut self.nodes[node];
                n.lose_volatile_state();
                n.crashed = true;
                n.started = true;
                let id = n.id.clone();
                self.record(TraceEvent::Crashed { node: id });
            }
            (Command::Restart { .. }, Some(node)) => {
                if !self.nodes[node].crashed {
                    return self.ignored(&command, IgnoredBecause::NotCrashed);
                }
                let n = &mut self.nodes[node];
                n.crashed = false;
                n.incarnation += 1;
                let id = n.id.clone();
                self.record(TraceEvent::Restarted { node: id });
                self.start(node);
            }
            (Command::Partition { from, .. }, Some(node)) => {
                if self.nodes[node].cut.is_some() {
                    return self.ignored(&command, IgnoredBecause::AlreadyPartitioned);
                }
                self.nodes[node].cut = Some(*from);
                let id = self.nodes[node].id.clone();
                self.record(match from {
                    Link::All => TraceEvent::Partitioned { node: id },
                    link => TraceEvent::PartitionedFrom { node: id, from: *link },
                });
            }
            (Command::Heal { .. }, Some(node)) => {
                if self.nodes[node].cut.is_none() {
                    return self.ignored(&command, IgnoredBecause::NotPartitioned);
                }
                self.nodes[node].cut = None;
                let id = self.nodes[node].id.clone();
                self.record(TraceEvent::Healed { node: id });
            }
            (Command::DelayNextWrite { by_ms, .. }, Some(node)) => {
                self.nodes[node].next_write_delay_ms = Some(*by_ms);
                let id = self.nodes[node].id.clone();
                self.record(TraceEvent::WriteDelayArmed { node: id, by_ms: *by_ms });
            }
            (Command::RevokeLease, _) => {
                let token = self.coordinator.token.unwrap_or(0);
                let holder = self.coordinator.revoke();
                self.record(TraceEvent::LeaseRevoked { holder, token });
            }
            (Command::SetFencing { on }, _) => {
                self.resource.fencing = *on;
                self.record(TraceEvent::FencingSet { on: *on });
            }
            (Command::RollbackIssuer { next_token }, _) => {
                let next_token_before = self.coordinator.next_token;
                self.coordinator.next_token = *next_token;
                self.record(TraceEvent::IssuerRolledBack { next_token_before, next_token: *next_token });
            }
            (Command::RestoreResource { high_water }, _) => {
                let high_water_before = self.resource.restore(*high_water);
                let high_water_after = self.resource.high_water;
                self.record(TraceEvent::ResourceRestored { high_water_before, high_water_after });
            }
            (Command::RestartResource, _) => {
                let high_water_before = self.resource.restart();
                let high_water_after = self.resource.high_water;
                self.record(TraceEvent::ResourceRestarted { high_water_before, high_water_after });
            }
            (Command::RawWrite { token, value, op_id, lock }, _) => {
                self.raw_writes += 1;
                let op_id = op_id.clone().unwrap_or_else(|| format!("raw-{}", self.raw_writes));
                let now = self.now_ms;
                let arrival = WriteArrival {
                    from: None,
                    token: token.clone(),
                    value: value.clone(),
                    op_id,
                    sent_ms: now,
                    lock: lock.clone(),
                    message: None,
                };
                self.judge_write(arrival);
            }
            (Command::ClockJump { target, by_ms }, node) => {
                let now = self.now_ms;
                let reads_ms = match node {
                    Some(node) => {
                        self.nodes[node].clock.jump(*by_ms, now);
                        self.rearm_timers(node);
                        self.nodes[node].clock.read(now)
                    }
                    None => {
                        self.store_clock.jump(*by_ms, now);
                        self.store_clock.read(now)
                    }
                };
                self.record(TraceEvent::ClockJumped { target: target.clone(), by_ms: *by_ms, reads_ms });
                if node.is_none() {
                    self.store_clock_changed();
                }
            }
            (Command::ClockRate { target, rate_ppm }, node) => {
                let now = self.now_ms;
                match node {
                    Some(node) => {
                        self.nodes[node].clock.set_rate(*rate_ppm, now);
                        self.rearm_timers(node);
                    }
                    None => self.store_clock.set_rate(*rate_ppm, now),
                }
                self.record(TraceEvent::ClockRateSet { target: target.clone(), rate_ppm: *rate_ppm });
                if node.is_none() {
                    self.store_clock_changed();
                }
            }
            (Command::DropScript { .. }, Some(node)) => self.drop_script(node),
            (_, None) => self.ignored(&command, IgnoredBecause::UnknownNode),
        }
    }

    /// The store's clock moved: a lease may now expire sooner or later than scheduled. A forward
    /// jump past the expiry ends it at once (redis/redis#416).
    fn store_clock_changed(&mut self) {
        self.schedule_expiry_check();
    }

    /// A pause lands between the leader's check and its send: the write is already prepared
    /// with the token it believes in, and goes out first thing on resume.
    fn pause(&mut self, node: usize, for_ms: Option<u64>) {
        let n = &mut self.nodes[node];
        n.paused = true;
        n.pause_count += 1;
        let pause = n.pause_count;
        let id = n.id.clone();
        let prepared = n.leadership.map(|l| l.token).or(n.zombie_token).map(|token| {
            let (op_id, value) = n.next_write();
            PreparedWrite { op_id, token, value }
        });
        n.prepared = prepared.clone();
        self.record(TraceEvent::Paused { node: id.clone() });
        if let Some(p) = prepared {
            self.record(TraceEvent::WritePrepared { node: id, op_id: p.op_id, token: p.token });
        }
        if let Some(ms) = for_ms {
            let at = self.now_ms.saturating_add(ms);
            self.schedule(at, Item::AutoResume { node, pause });
        }
    }

    /// On resume the node first sends the write it prepared, with its old token, before it
    /// learns anything new; then it handles what waited for it, in arrival order.
    fn resume(&mut self, node: usize) {
        self.nodes[node].paused = false;
        let id = self.nodes[node].id.clone();
        self.record(TraceEvent::Resumed { node: id });
        if let Some(p) = self.nodes[node].prepared.take() {
            self.send_prepared_write(node, p);
        }
        while let Some(held) = self.nodes[node].held.pop_front() {
            if self.nodes[node].paused || self.nodes[node].crashed {
                self.nodes[node].held.push_front(held);
                break;
            }
            match held {
                Held::Timer { kind, generation } => {
                    if self.nodes[node].timer_generation[kind.index()] == generation {
                        self.on_timer(node, kind);
                    }
                }
                Held::Message(m) => self.on_message(node, m),
            }
        }
    }
}

/// A write as it reaches the fenced resource: from a node's message or a raw write command.
struct WriteArrival {
    /// The writing node's id; `None` for a raw write (`Command::RawWrite`).
    from: Option<String>,
    /// The fencing token as sent (raw writes may carry a missing or malformed one).
    token: WireToken,
    value: String,
    op_id: String,
    /// When the write left its sender, in virtual ms.
    sent_ms: u64,
    /// The lock the token belongs to, when it is not this run's own lock.
    lock: Option<String>,
    /// The message that carried it (`None` for a raw write).
    message: Option<u64>,
}
