//! A candidate / leader process (a flag-bearer).
//!
//! A candidate asks to acquire every `retry_every_ms`. A leader renews every `renew_every_ms` and
//! steps down when it has had no successful renewal for `renew_deadline_ms` on its own clock
//! (client-go `RenewDeadline`) or when a renewal is refused. While it believes it leads it sends
//! one write every `work.every_ms`. Believing is not holding: nothing here reads the
//! coordinator's record; a node learns only from the replies that reach it.

use std::collections::VecDeque;

use serde::Serialize;

use super::snapshot::PreparedWrite;

/// The node's periodic timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum TimerKind {
    /// Candidate: send another acquire request.
    Retry,
    /// Leader: send a renewal.
    Renew,
    /// Leader: check the belief and send a write.
    Work,
    /// Leader: the renew deadline may have passed.
    Deadline,
    /// Lock protocol: the borrower's errand is done (`lock.hold_ms`); release.
    Hold,
    /// The work's client sends its pending write again (`work.retry_after_ms`).
    WriteRetry,
}

impl TimerKind {
    pub(crate) const ALL: [TimerKind; 6] = [
        TimerKind::Retry,
        TimerKind::Renew,
        TimerKind::Work,
        TimerKind::Deadline,
        TimerKind::Hold,
        TimerKind::WriteRetry,
    ];

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// What a leader believes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Leadership {
    /// The fencing token of its term.
    pub token: u64,
    /// Send time of the last request the coordinator confirmed (acquire or renew), in true ms
    /// (for the picture). The deadline counts from the send, not the reply: the coordinator moved
    /// `renewTime` no earlier than that, so the leader gives up no later than the lease could be
    /// given away.
    pub last_ok_sent_ms: u64,
    /// The same moment on the node's own clock, in local ms.
    pub last_ok_sent_local_ms: i64,
    /// When it gives up if no renewal succeeds by then, on its own clock, in local ms
    /// (client-go `RenewDeadline`; where it counts from is the renewal policy's,
    /// [`super::RenewPolicy`]).
    pub deadline_local_ms: i64,
}

/// Observer expiry: the record version a candidate last saw, and when, on its own clock.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Observation {
    pub version: u64,
    pub holder: Option<String>,
    /// `leaseDurationSeconds` of the observed record, in ms (client-go uses the record's, not its
    /// own: kubernetes/kubernetes#47671).
    pub lease_duration_ms: u64,
    /// `observedTime`, on the node's clock, in local ms.
    pub observed_local_ms: i64,
}

impl Observation {
    /// Whether, at local time `local_ms`, the observed holder's lease has expired by this
    /// node's reckoning (`observedTime + leaseDuration <= now`). A free record is free at once.
    pub fn expired(&self, local_ms: i64) -> bool {
        let d = i64::try_from(self.lease_duration_ms).unwrap_or(i64::MAX);
        self.holder.is_none() || self.observed_local_ms.saturating_add(d) <= local_ms
    }
}

/// Something that reached a frozen node and waits for it to wake.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Held<M> {
    Timer { kind: TimerKind, generation: u64 },
    Message(M),
}

/// One node's state. Volatile parts are lost on a crash.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Node<M> {
    pub id: String,
    /// The `holderIdentity` it claims.
    pub identity: String,
    /// Its own clock: the one its timers run on (monotonic or wall, see `monotonic_timers`).
    pub clock: super::clock::Clock,
    /// Whether its timers run on a monotonic clock: then a `clock_jump` only moves
    /// `wall_shift_ms`, what its wall clock reads beyond `clock`.
    pub monotonic_timers: bool,
    /// How far its wall clock has been stepped away from the clock its timers run on, in ms.
    pub wall_shift_ms: i64,
    /// Observer expiry: the record it last saw.
    pub observed: Option<Observation>,
    /// The token its work keeps writing with after it stopped leading (`work.stops_with_lease`
    /// false), if any.
    pub zombie_token: Option<u64>,
    /// A bounded shutdown under way (`work.stops_after_ms`): when, on its own clock, the work
    /// it keeps doing with `zombie_token` stops.
    pub work_stops_local_ms: Option<i64>,
    /// The writes of its last round that its client will send again (`work.retry_after_ms`);
    /// empty when none is pending.
    pub pending_retry: Vec<PreparedWrite>,
    /// The resources its work writes to each round (indices into the run's resources, in order;
    /// [`super::Config::node_targets`]).
    pub writes_to: Vec<usize>,
    /// Local due time of each armed timer kind, so a clock change can re-arm it.
    pub timer_due_local: [Option<i64>; 6],
    pub started: bool,
    pub crashed: bool,
    pub paused: bool,
    /// Which links a partition cuts, if any.
    pub cut: Option<super::command::Link>,
    /// Grows on every crash and restart, so timers and replies meant for an earlier life of the
    /// process are ignored.
    pub incarnation: u32,
    pub leadership: Option<Leadership>,
    /// Generation of each timer kind; a fired timer with an older generation was cancelled.
    pub timer_generation: [u64; 6],
    pub held: VecDeque<Held<M>>,
    /// The round of writes (one per resource it writes to) it prepared just before a pause, sent
    /// first on resume; empty when none.
    pub prepared: Vec<PreparedWrite>,
    pub next_write_delay_ms: Option<u64>,
    /// Number of the next write (kept across crashes so op ids stay unique).
    pub next_write_number: u64,
    pub writes_sent: u64,
    /// Grows with each pause, so a `for_ms` auto-resume cannot end a later pause.
    pub pause_count: u64,
}

impl<M> Node<M> {
    pub fn new(id: String, identity: String, clock: super::clock::Clock) -> Self {
        Self {
            id,
            identity,
            clock,
            monotonic_timers: false,
            wall_shift_ms: 0,
            observed: None,
            zombie_token: None,
            work_stops_local_ms: None,
            pending_retry: Vec::new(),
            writes_to: vec![0],
            timer_due_local: [None; 6],
            started: false,
            crashed: false,
            paused: false,
            cut: None,
            incarnation: 0,
            leadership: None,
            timer_generation: [0; 6],
            held: VecDeque::new(),
            prepared: Vec::new(),
            next_write_delay_ms: None,
            next_write_number: 1,
            writes_sent: 0,
            pause_count: 0,
        }
    }

    /// Whether the renew deadline has passed at true time `now_ms`, judged on the node's own clock.
    pub fn deadline_passed(&self, now_ms: u64) -> bool {
        let local = self.clock.read(now_ms);
        self.leadership.is_some_and(|l| local >= l.deadline_local_ms)
    }

    /// Cancel a timer kind (any armed instance will be ignored when it fires).
    pub fn cancel(&mut self, kind: TimerKind) {
        self.timer_generation[kind.index()] += 1;
        self.timer_due_local[kind.index()] = None;
    }

    /// Take the next write's op id and value, e.g. `chen-3` and `chen#3`.
    pub fn next_write(&mut self) -> (String, String) {
        let n = self.next_write_number;
        self.next_write_number += 1;
        (format!("{}-{n}", self.id), format!("{}#{n}", self.id))
    }

    /// Prepare one round of work with `token`: a write to each resource it writes to, in order,
    /// each with its own op id.
    pub fn next_round(&mut self, token: u64) -> Vec<PreparedWrite> {
        let mut round = Vec::with_capacity(self.writes_to.len());
        for i in 0..self.writes_to.len() {
            let (op_id, value) = self.next_write();
            round.push(PreparedWrite { op_id, token, value, resource: self.writes_to[i] });
        }
        round
    }

    /// Forget all volatile state (a crash).
    pub fn lose_volatile_state(&mut self) {
        self.leadership = None;
        self.paused = false;
        self.held.clear();
        self.prepared.clear();
        self.next_write_delay_ms = None;
        self.observed = None;
        self.zombie_token = None;
        self.work_stops_local_ms = None;
        self.pending_retry.clear();
        for kind in TimerKind::ALL {
            self.cancel(kind);
        }
        self.incarnation += 1;
    }
}
