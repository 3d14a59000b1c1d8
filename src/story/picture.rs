//! The one picture of the run that every fable draws: fable-neutral, built once per snapshot.
//!
//! It names what the lease protocol has, not what a fable calls it: the [`Record`] (the lease:
//! its holder, its token and whether it is live), the [`Timer`] (the lease's remaining time), the
//! [`Actor`]s (the nodes and what they believe), the compare-and-swap being decided ([`Cas`]),
//! what is in [`Flight`], the [`Gate`] that judges writes (the fenced resource) and the
//! [`Outcome`] (what the resource last accepted, and whether it ever accepted an older number
//! after a newer one). A fable is a telling of it ([`crate::fables`]): its
//! words for each state and where it puts things. A third fable needs its words and a drawing,
//! nothing here.
//!
//! Whether the lease is live is decided once, by the engine ([`Liveness::judge`], in the
//! snapshot's `lease.liveness`): the plaque, the tablet, the panel and the technical view
//! ([`super::technical::lease_state`]) all read it.
//!
//! Nothing is scripted. The timer is the lease's remaining time on the coordinator's clock; an
//! actor holds up its token because its node believes it leads; a message is as far along its
//! way as the latency the engine drew; a collision is exactly a write the resource accepted with
//! a token below one it had already accepted (with the newer token granted, the oracle's
//! `stale_write_accepted` with `resource_had_seen_newer`).
//!
//! [`Memory`] folds the trace incrementally (each entry once): what one snapshot cannot tell
//! (renewals this term, the judged writes, the race at the clasp, the collision). The per-frame
//! work is [`picture`], which reads only the snapshot and that small memory.

use super::markup::within;
pub use crate::engine::Liveness;
use crate::engine::{Endpoint, MessageKind, Role, Snapshot, TraceEntry, TraceEvent, WireToken, WriteOutcome};
use crate::fables::Word;

/// How many of the resource's latest verdicts the picture keeps in view.
pub const VERDICTS_KEPT: usize = 3;

/// How long the timer takes to turn over (or a wick to flare) after a grant or a renewal, in
/// virtual ms (at high speeds it simply snaps).
pub const TURN_MS: u64 = 600;

/// How long a compare-and-swap stays on show after it is decided, at least, in virtual ms: as long
/// as its reply travels, and never shorter than this.
pub const CAS_MS: u64 = 600;

/// Longest token label drawn; longer (hostile or malformed) labels are cut with `…`. A token is
/// data from a scenario file, not a name: names are never cut.
pub const MAX_LABEL_CHARS: usize = 10;

/// The concept a message of `kind` in flight is, for its title in the fable's words.
pub fn message_word(kind: MessageKind) -> Word {
    match kind {
        MessageKind::AcquireRequest => Word::MsgAcquire,
        MessageKind::AcquireReply => Word::MsgAcquireReply,
        MessageKind::RenewRequest => Word::MsgRenew,
        MessageKind::RenewReply => Word::MsgRenewReply,
        MessageKind::Write => Word::MsgWrite,
        MessageKind::ReleaseRequest => Word::MsgRelease,
    }
}

impl Verdict {
    /// The concept its verdict is: accepted, refused, or already done.
    pub fn word(&self) -> Word {
        match self.outcome {
            WriteOutcome::Accepted => Word::Accepted,
            WriteOutcome::Duplicate => Word::Duplicate,
            _ => Word::Refused,
        }
    }
}

impl Timer {
    /// What the timer says now: seconds left (with the ms left), out, or not started.
    pub fn line(&self) -> (Word, Option<u64>) {
        match self.state {
            TimerState::Running => (Word::TimerLeft, Some(self.remaining_ms)),
            TimerState::Out => (Word::TimerOut, None),
            TimerState::Unset => (Word::TimerUnset, None),
        }
    }
}

impl Gate {
    /// The gate's sign now, with the token it holds to (if any).
    pub fn sign(&self) -> (Word, Option<u64>) {
        if !self.on_duty {
            (Word::GateAway, None)
        } else if self.mark == 0 {
            (Word::GateUnseen, None)
        } else {
            (Word::GateOnly, Some(self.mark))
        }
    }
}

/// The whole picture at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// Virtual time, in ms.
    pub now_ms: u64,
    /// How far the run is, 0.0 ..= 1.0 (`now / until`); the fables' skies follow it.
    pub day: f64,
    /// The run has reached its end (the story's last line has been told).
    pub over: bool,
    pub record: Record,
    pub timer: Timer,
    /// The compare-and-swap being decided now, if any.
    pub cas: Option<Cas>,
    /// The latest actor who set out for the record before it was taken and found it taken.
    pub too_late: Option<TooLate>,
    /// In scenario order.
    pub actors: Vec<Actor>,
    /// Messages on their way, in send order.
    pub flights: Vec<Flight>,
    pub gate: Gate,
    pub outcome: Outcome,
}

/// The lease record (the coordinator's Lease).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// `holderIdentity`: who is named on it (also once the term has lapsed).
    pub holder: Option<String>,
    /// The fencing token of the current (or last) term.
    pub token: Option<u64>,
    /// The newest token ever granted (a holder below it is stale).
    pub newest: Option<u64>,
    /// Whether the lease is live ([`liveness`]).
    pub liveness: Liveness,
    /// When the term runs out: `renewTime + leaseDuration`, in ms.
    pub expires_ms: Option<u64>,
    /// Renewals in this term (a re-acquire by the holder counts as one).
    pub renewals: u32,
}

impl Record {
    /// Someone has been granted the lease at least once.
    pub fn ever_granted(&self) -> bool {
        self.token.is_some()
    }
}

/// What the timer shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerState {
    /// Never started: no term yet.
    Unset,
    /// A live term is running down.
    Running,
    /// The term is over (lapsed, revoked or released).
    Out,
}

impl TimerState {
    /// `unset`, `running` or `out`.
    pub fn code(self) -> &'static str {
        match self {
            TimerState::Unset => "unset",
            TimerState::Running => "running",
            TimerState::Out => "out",
        }
    }
}

/// The lease's remaining time on the coordinator's clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Timer {
    pub state: TimerState,
    /// What is left, 0.0 ..= 1.0 (`remaining / leaseDuration`).
    pub left: f64,
    pub remaining_ms: u64,
    pub duration_ms: u64,
    /// Times it was started again (each grant, re-acquire and renewal).
    pub turns: u32,
    /// How much of the last turn is still to go: 1.0 just now, 0.0 after [`TURN_MS`] of virtual time.
    pub turning: f64,
}

/// Which request a compare-and-swap decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CasKind {
    Acquire,
    Renew,
}

/// A compare-and-swap on the record, shown from its decision until its reply has arrived (and
/// for at least [`CAS_MS`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cas {
    /// Whose request it decides.
    pub node: String,
    pub kind: CasKind,
    /// It succeeded (a grant, a re-acquire, a renewal) or found the record held by another.
    pub won: bool,
    /// When it was decided, in ms.
    pub at_ms: u64,
}

/// An actor set out for the record before someone else's request was granted, and found it taken
/// when they got there: a step too late.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLate {
    pub node: String,
    /// Who had been granted it.
    pub holder: String,
    /// When they set out (their acquire request was sent).
    pub sent_ms: u64,
    /// When they found it taken.
    pub at_ms: u64,
}

/// How an actor is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Posture {
    /// Not started yet.
    NotYet,
    /// Running.
    Up,
    /// Paused (a GC pause, SIGSTOP): it still believes what it believed.
    Asleep,
    /// Crashed: believes nothing until restarted.
    Down,
}

/// One node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    pub id: String,
    pub role: Role,
    pub posture: Posture,
    /// Cut off by a partition.
    pub cut_off: bool,
    /// The token it believes it leads with (also while paused; never when crashed).
    pub belief: Option<u64>,
    /// Its belief is older than the newest token granted: a zombie, and it does not know.
    pub stale: bool,
    /// Its belief is the record's live term (its name, its token, time left).
    pub live: bool,
    /// Its name is on the record.
    pub on_record: bool,
    /// The write it prepared just before a pause, by token.
    pub prepared: Option<u64>,
    /// It was the latest one a step too late.
    pub too_late: bool,
    /// Its older number was obeyed after a newer one (the collision) and it has not led since.
    pub collided: bool,
}

/// Where a message in flight goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// A node's request to the record (acquire, renew, release).
    ToRecord { node: String },
    /// The record's answer going back (acquire or renew reply).
    FromRecord { node: String },
    /// A write on its way to the gate with its token; `None` from outside.
    ToGate { node: Option<String> },
}

/// A message in flight.
#[derive(Clone, Debug, PartialEq)]
pub struct Flight {
    pub id: u64,
    pub kind: MessageKind,
    pub route: Route,
    /// 0.0 at the sender, 1.0 at the receiver: `(now − sent) / (arrive − sent)`.
    pub progress: f64,
    /// The token it carries, if any (short label).
    pub token: Option<String>,
}

impl Flight {
    /// The node it comes from, `store` for a reply, `outside` for a raw write (`data-from`).
    pub fn from(&self) -> &str {
        match &self.route {
            Route::ToRecord { node } | Route::ToGate { node: Some(node) } => node,
            Route::FromRecord { .. } => "store",
            Route::ToGate { node: None } => "outside",
        }
    }
}

/// The kind of a message as the page's hooks name it (`data-kind`): as the trace does, in
/// snake_case (`acquire_request`, `write`, …).
pub fn kind_code(kind: MessageKind) -> &'static str {
    kind.code()
}

/// What the gate did with one write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub seq: u64,
    pub at_ms: u64,
    /// The node that sent it; `None` from outside.
    pub from: Option<String>,
    /// The token it carried, as a short label (see [`short_label`]).
    pub token: String,
    pub outcome: WriteOutcome,
    /// The gate's mark after judging it.
    pub high_water_after: u64,
    /// The resource that judged it, in a run with named resources (`resources`): its own mark.
    pub resource: Option<String>,
}

impl Verdict {
    /// It was obeyed (accepted).
    pub fn obeyed(&self) -> bool {
        self.outcome == WriteOutcome::Accepted
    }

    /// It was turned away (any refusal; a duplicate is reported, not refused).
    pub fn refused(&self) -> bool {
        matches!(
            self.outcome,
            WriteOutcome::RejectedStale | WriteOutcome::RejectedInvalid | WriteOutcome::RejectedForeignLock
        )
    }
}

/// The gate that judges writes: the fenced resource's check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gate {
    /// Checking tokens (fencing on).
    pub on_duty: bool,
    /// The high-water mark, "only N counts" (0: none seen yet).
    pub mark: u64,
    /// Latest verdicts, oldest first.
    pub recent: Vec<Verdict>,
    /// In a run with named resources (`resources`): each one's name and mark, in order (the
    /// first is `mark`); empty otherwise. Each resource knows only the tokens that reached it.
    pub marks: Vec<(String, u64)>,
}

/// The resource accepted `token` after it had accepted `newer`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collision {
    pub at_ms: u64,
    /// Whose write it was; `None` from outside.
    pub from: Option<String>,
    /// The older number obeyed…
    pub token: u64,
    /// …after this newer one (the resource's mark then).
    pub newer: u64,
}

/// What came of the writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Who sent the last accepted write, and its token (short label).
    pub last_from: Option<String>,
    pub last_token: Option<String>,
    pub value: Option<String>,
    /// The first collision, once there was one.
    pub collision: Option<Collision>,
}

/// What the picture remembers from the trace: what a single snapshot cannot tell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// Trace entries folded so far.
    seen: usize,
    /// Renewals in the current term.
    pub renewals: u32,
    /// Times the timer was started again.
    pub turns: u32,
    /// When it last was, in ms.
    pub last_turn_ms: Option<u64>,
    /// The latest compare-and-swap decided, and its reply.
    cas: Option<(Cas, Reply)>,
    /// The latest grant: who and when.
    latest_grant: Option<(String, u64)>,
    pub too_late: Option<TooLate>,
    /// Acquire requests on their way to the record.
    asking: Vec<Asking>,
    /// The gate's latest verdicts, oldest first (at most [`VERDICTS_KEPT`]).
    pub verdicts: Vec<Verdict>,
    /// The first collision.
    pub collision: Option<Collision>,
    /// Nodes that have led (a `BecameLeader`) since the collision.
    led_since_collision: Vec<String>,
}

/// Where the reply to a compare-and-swap is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reply {
    /// Not sent yet (it is sent in the same instant).
    Pending,
    /// On its way: message id, arrival.
    Sent(u64, u64),
    /// Arrived or lost, at this time.
    Done(u64),
}

/// An acquire request on its way (from its `MessageSent`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Asking {
    id: u64,
    node: String,
    sent_ms: u64,
    arrive_ms: u64,
}

impl Memory {
    /// Folds the entries of `trace` not seen yet. `trace` must be the same run's whole trace (as
    /// [`crate::engine::Sim::trace`] gives it); a shorter one (a new run) starts over.
    pub fn absorb(&mut self, trace: &[TraceEntry]) {
        if trace.len() < self.seen {
            *self = Self::default();
        }
        for entry in trace.get(self.seen..).unwrap_or(&[]) {
            self.absorb_one(entry);
        }
        self.seen = trace.len();
    }

    /// How many trace entries have been folded.
    pub fn seen(&self) -> usize {
        self.seen
    }

    /// The request of `node` that reached the record at `at_ms`, no longer on its way.
    fn arrived(&mut self, node: &str, at_ms: u64) -> Option<Asking> {
        let i = self.asking.iter().position(|a| a.node == node && a.arrive_ms <= at_ms)?;
        Some(self.asking.remove(i))
    }

    fn decided(&mut self, node: &str, kind: CasKind, won: bool, at_ms: u64) {
        self.cas = Some((Cas { node: node.to_owned(), kind, won, at_ms }, Reply::Pending));
    }

    fn turned(&mut self, at_ms: u64) {
        self.turns = self.turns.saturating_add(1);
        self.last_turn_ms = Some(at_ms);
    }

    fn absorb_one(&mut self, entry: &TraceEntry) {
        let at = entry.at_ms;
        // Every request that should have arrived by now has been answered or dropped.
        self.asking.retain(|a| a.arrive_ms >= at);
        match &entry.event {
            TraceEvent::MessageSent { id, kind, from, to, arrive_ms, .. } => match (kind, from, to) {
                (MessageKind::AcquireRequest, Endpoint::Node(node), _) => {
                    self.asking.push(Asking { id: *id, node: node.clone(), sent_ms: at, arrive_ms: *arrive_ms });
                }
                (MessageKind::AcquireReply | MessageKind::RenewReply, _, Endpoint::Node(node)) => {
                    if let Some((cas, reply @ Reply::Pending)) = &mut self.cas {
                        if &cas.node == node {
                            *reply = Reply::Sent(*id, *arrive_ms);
                        }
                    }
                }
                _ => {}
            },
            TraceEvent::MessageDropped { id, .. } => {
                self.asking.retain(|a| a.id != *id);
                if let Some((_, reply)) = &mut self.cas {
                    if matches!(reply, Reply::Sent(r, _) if r == id) {
                        *reply = Reply::Done(at);
                    }
                }
            }
            TraceEvent::LeaseGranted { node, .. } => {
                self.arrived(node, at);
                self.renewals = 0;
                self.turned(at);
                self.decided(node, CasKind::Acquire, true, at);
                self.latest_grant = Some((node.clone(), at));
                self.too_late = None;
            }
            TraceEvent::LeaseReacquired { node, .. } => {
                self.arrived(node, at);
                self.renewals = self.renewals.saturating_add(1);
                self.turned(at);
                self.decided(node, CasKind::Acquire, true, at);
            }
            TraceEvent::AcquireRefused { node, holder, .. } => {
                let asked = self.arrived(node, at);
                self.decided(node, CasKind::Acquire, false, at);
                if let (Some(asked), Some((granted, granted_at))) = (asked, &self.latest_grant) {
                    if asked.sent_ms <= *granted_at && granted == holder {
                        self.too_late = Some(TooLate {
                            node: node.clone(),
                            holder: holder.clone(),
                            sent_ms: asked.sent_ms,
                            at_ms: at,
                        });
                    }
                }
            }
            TraceEvent::LeaseRenewed { node, .. } => {
                self.renewals = self.renewals.saturating_add(1);
                self.turned(at);
                self.decided(node, CasKind::Renew, true, at);
            }
            TraceEvent::RenewRefused { node, .. } => self.decided(node, CasKind::Renew, false, at),
            TraceEvent::BecameLeader { node, .. }
                if self.collision.is_some() && !self.led_since_collision.contains(node) =>
            {
                self.led_since_collision.push(node.clone());
            }
            TraceEvent::WriteJudged { from, token, outcome, high_water_before, high_water_after, resource, .. } => {
                if let (Some(t), None) = (older_obeyed(*outcome, token, *high_water_before), &self.collision) {
                    // The first collision is the one the picture shows.
                    self.collision =
                        Some(Collision { at_ms: at, from: from.clone(), token: t, newer: *high_water_before });
                }
                keep_verdict(
                    &mut self.verdicts,
                    Verdict {
                        seq: entry.seq,
                        at_ms: at,
                        from: from.clone(),
                        token: short_label(&token.label()),
                        outcome: *outcome,
                        high_water_after: *high_water_after,
                        resource: resource.clone(),
                    },
                );
            }
            _ => {}
        }
    }

    /// The compare-and-swap still on show at `now_ms`: decided less than [`CAS_MS`] ago, or its
    /// reply still on its way.
    fn cas_at(&self, now_ms: u64) -> Option<Cas> {
        let (cas, reply) = self.cas.as_ref()?;
        let until = match reply {
            Reply::Pending => cas.at_ms,
            Reply::Sent(_, arrive) => *arrive,
            Reply::Done(at) => *at,
        };
        let until = until.max(cas.at_ms.saturating_add(CAS_MS));
        (now_ms < until).then(|| cas.clone())
    }
}

/// Each named resource's name and mark, in order; empty for a run with one unnamed resource.
pub fn named_marks(snap: &Snapshot) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    if let Some(name) = &snap.resource.name {
        out.push((name.clone(), snap.resource.high_water));
        for r in &snap.more_resources {
            out.push((r.name.clone().unwrap_or_default(), r.high_water));
        }
    }
    out
}

/// Named marks as one line: `db 8 · blobs 7`.
pub fn marks_text(marks: &[(String, u64)]) -> String {
    let mut out = String::new();
    for (i, (name, n)) in marks.iter().enumerate() {
        if i > 0 {
            out.push_str(" · ");
        }
        out.push_str(name);
        out.push(' ');
        out.push_str(&n.to_string());
    }
    out
}

/// The older number a judged write was obeyed with, if the resource accepted it after having
/// accepted a newer one (`high_water_before`, its mark then): the collision. Whenever the newer
/// number was granted, this is the oracle's `stale_write_accepted` with `resource_had_seen_newer`.
pub fn older_obeyed(outcome: WriteOutcome, token: &WireToken, high_water_before: u64) -> Option<u64> {
    match (outcome, token.valid()) {
        (WriteOutcome::Accepted, Some(t)) if t < high_water_before => Some(t),
        _ => None,
    }
}

/// Adds `verdict` to a line of at most [`VERDICTS_KEPT`], oldest first. The latest refused write
/// stays on the line until a newer one is refused: at high speed the story's key moment would
/// otherwise scroll away within a second.
pub fn keep_verdict(verdicts: &mut Vec<Verdict>, verdict: Verdict) {
    verdicts.push(verdict);
    while verdicts.len() > VERDICTS_KEPT {
        let last_void = verdicts
            .iter()
            .rposition(|v| matches!(v.outcome, WriteOutcome::RejectedStale | WriteOutcome::RejectedInvalid));
        let oldest_other = (0..verdicts.len()).find(|i| Some(*i) != last_void).unwrap_or(0);
        verdicts.remove(oldest_other);
    }
}

/// Cuts a token label to [`MAX_LABEL_CHARS`] characters (by `char`, never inside one).
pub fn short_label(label: &str) -> String {
    if label.chars().count() <= MAX_LABEL_CHARS {
        label.to_owned()
    } else {
        let mut s: String = label.chars().take(MAX_LABEL_CHARS - 1).collect();
        s.push('…');
        s
    }
}

/// How much of a turn started at `last_ms` is still to go at `now_ms` (see [`Timer::turning`]).
pub fn turning(now_ms: u64, last_ms: Option<u64>) -> f64 {
    match last_ms {
        Some(at) if now_ms < at.saturating_add(TURN_MS) => 1.0 - now_ms.saturating_sub(at) as f64 / TURN_MS as f64,
        _ => 0.0,
    }
}

/// How far along its way a message is: `(now − sent) / (arrive − sent)`, within 0 ..= 1. A
/// message that arrives the moment it is sent (or waits at a frozen node's door) is at 1.
pub fn progress(now_ms: u64, sent_ms: u64, arrive_ms: u64) -> f64 {
    if arrive_ms <= sent_ms {
        return 1.0;
    }
    let done = now_ms.saturating_sub(sent_ms) as f64;
    within(done / (arrive_ms - sent_ms) as f64, 0.0, 1.0)
}

/// Derives the picture from the world now and what the trace taught.
pub fn picture(snap: &Snapshot, memory: &Memory) -> Picture {
    let now = snap.now_ms;
    let lease = &snap.lease;
    let live = lease.liveness;
    let remaining_ms = live.remaining_ms();
    let left = if lease.lease_duration_ms == 0 {
        0.0
    } else {
        within(remaining_ms as f64 / lease.lease_duration_ms as f64, 0.0, 1.0)
    };
    let state = match (lease.token, live.is_live()) {
        (None, _) => TimerState::Unset,
        (Some(_), true) => TimerState::Running,
        (Some(_), false) => TimerState::Out,
    };
    let too_late = memory.too_late.clone();
    let collision = memory.collision.clone();
    let actors = snap
        .nodes
        .iter()
        .map(|n| {
            let posture = match n.role {
                Role::Crashed => Posture::Down,
                Role::Paused => Posture::Asleep,
                _ if !n.started => Posture::NotYet,
                _ => Posture::Up,
            };
            let on_record = lease.holder_identity.as_deref() == Some(n.id.as_str());
            let belief = if n.believes_leader && n.role != Role::Crashed { n.token } else { None };
            Actor {
                id: n.id.clone(),
                role: n.role,
                posture,
                cut_off: n.partitioned,
                belief,
                stale: matches!((belief, lease.newest_granted), (Some(b), Some(newest)) if b < newest),
                live: live.is_live() && on_record && belief.is_some() && belief == lease.token,
                on_record,
                prepared: n.prepared_write.as_ref().map(|p| p.token),
                too_late: too_late.as_ref().is_some_and(|t| t.node == n.id),
                collided: collision.as_ref().is_some_and(|c| c.from.as_deref() == Some(n.id.as_str()))
                    && !memory.led_since_collision.contains(&n.id),
            }
        })
        .collect();
    let flights = snap
        .in_flight
        .iter()
        .filter_map(|m| {
            let route = match (&m.from, &m.to) {
                (Endpoint::Node(id), Endpoint::Resource) => Route::ToGate { node: Some(id.clone()) },
                (_, Endpoint::Resource) => Route::ToGate { node: None },
                (Endpoint::Node(id), Endpoint::Coordinator) => Route::ToRecord { node: id.clone() },
                (Endpoint::Coordinator, Endpoint::Node(id)) => Route::FromRecord { node: id.clone() },
                _ => return None,
            };
            Some(Flight {
                id: m.id,
                kind: m.kind,
                route,
                progress: progress(now, m.sent_ms, m.arrive_ms),
                token: m.token.as_ref().map(|t| short_label(&t.label())),
            })
        })
        .collect();
    let r = &snap.resource;
    Picture {
        now_ms: now,
        day: if snap.until_ms == 0 { 1.0 } else { within(now as f64 / snap.until_ms as f64, 0.0, 1.0) },
        over: now >= snap.until_ms,
        record: Record {
            holder: lease.holder_identity.clone(),
            token: lease.token,
            newest: lease.newest_granted,
            liveness: live,
            expires_ms: lease.expires_ms,
            renewals: memory.renewals,
        },
        timer: Timer {
            state,
            left,
            remaining_ms,
            duration_ms: lease.lease_duration_ms,
            turns: memory.turns,
            turning: turning(now, memory.last_turn_ms),
        },
        cas: memory.cas_at(now),
        too_late,
        actors,
        flights,
        gate: Gate {
            on_duty: r.fencing,
            mark: r.high_water,
            recent: memory.verdicts.clone(),
            marks: named_marks(snap),
        },
        outcome: Outcome {
            last_from: r.value_from.clone(),
            last_token: r.value_token.as_ref().map(|t| short_label(&t.label())),
            value: r.value.clone(),
            collision,
        },
    }
}

/// What the picture's tests and the fables' share: a built-in's run, and the picture of it now.
#[cfg(test)]
pub(crate) mod testing {
    use super::{picture, Memory, Picture};
    use crate::engine::Sim;
    use crate::scenario::library;

    /// A run of built-in `id`, at 0 ms.
    pub(crate) fn sim(id: &str) -> Sim {
        let s = library::get(id).expect("exists").expect("parses");
        Sim::new(s.config).expect("valid")
    }

    /// The picture of `sim` now, `memory` having folded its trace so far.
    pub(crate) fn look(sim: &Sim, memory: &mut Memory) -> Picture {
        memory.absorb(sim.trace());
        picture(&sim.snapshot(), memory)
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{look, sim};
    use super::*;
    use crate::engine::Command;

    #[test]
    fn progress_follows_the_drawn_latency() {
        assert_eq!(progress(100, 100, 150), 0.0);
        assert_eq!(progress(125, 100, 150), 0.5);
        assert_eq!(progress(150, 100, 150), 1.0);
        assert_eq!(progress(999, 100, 150), 1.0);
        assert_eq!(progress(50, 100, 150), 0.0);
        assert_eq!(progress(100, 100, 100), 1.0);
        assert_eq!(progress(0, u64::MAX, 0), 1.0);
    }

    #[test]
    fn the_timer_turns_in_virtual_time() {
        assert_eq!(turning(1_000, None), 0.0);
        assert_eq!(turning(1_000, Some(1_000)), 1.0);
        assert!((turning(1_000 + TURN_MS / 2, Some(1_000)) - 0.5).abs() < 1e-9);
        assert_eq!(turning(1_000 + TURN_MS, Some(1_000)), 0.0);
        assert_eq!(turning(5, Some(u64::MAX)), 1.0);
    }

    #[test]
    fn token_labels_are_cut_by_character() {
        assert_eq!(short_label("8"), "8");
        assert_eq!(short_label("18446744073709551616"), "184467440…");
        assert_eq!(short_label("编号编号编号编号编号编号"), "编号编号编号编号编…");
    }

    /// client-go's observer expiry: the store never judges Chen's term over, yet it ends on the
    /// record 15 s after his last renewal; the picture says so until Lin takes the lease.
    #[test]
    fn under_observer_expiry_the_record_lapses_without_the_store_judging() {
        let mut s = sim("observer-full-wait");
        let mut m = Memory::default();
        s.advance_to(60_000);
        let p = look(&s, &mut m);
        assert!(!s.snapshot().lease.expired, "the store does not judge");
        assert_eq!(p.record.holder.as_deref(), Some("chen"));
        let Liveness::Lapsed { since_ms } = p.record.liveness else { panic!("{:?}", p.record.liveness) };
        assert!(since_ms < 21_000, "his last renewal was before the crash at 5 s: {since_ms}");
        assert_eq!(p.timer.state, TimerState::Out);
        s.run_to_end();
        let p = look(&s, &mut m);
        assert_eq!(p.record.holder.as_deref(), Some("lin"));
    }

    /// The clasp is the brief compare-and-swap: on show from a decision until its reply has
    /// arrived (at least `CAS_MS`), not for the whole term.
    #[test]
    fn a_compare_and_swap_is_shown_while_it_is_decided_not_for_the_whole_term() {
        let mut s = sim("lantern-race");
        let mut ahead = s.clone();
        ahead.run_to_end();
        let (granted_at, winner) = ahead
            .trace()
            .iter()
            .find_map(|e| match &e.event {
                TraceEvent::LeaseGranted { node, .. } => Some((e.at_ms, node.clone())),
                _ => None,
            })
            .expect("a grant");
        let reply_arrives = ahead
            .trace()
            .iter()
            .find_map(|e| match &e.event {
                TraceEvent::MessageSent {
                    kind: MessageKind::AcquireReply, to: Endpoint::Node(n), arrive_ms, ..
                } if *n == winner && e.at_ms == granted_at => Some(*arrive_ms),
                _ => None,
            })
            .expect("its reply");
        let mut m = Memory::default();
        s.advance_to(granted_at - 1);
        assert_eq!(look(&s, &mut m).cas, None, "nothing decided yet");
        s.advance_to(granted_at);
        let cas = look(&s, &mut m).cas.expect("deciding");
        assert_eq!((cas.node.as_str(), cas.kind, cas.won), (winner.as_str(), CasKind::Acquire, true));
        let shown_until = reply_arrives.max(granted_at + CAS_MS);
        s.advance_to(shown_until - 1);
        assert!(look(&s, &mut m).cas.is_some(), "still on show");
        s.advance_to(shown_until);
        let p = look(&s, &mut m);
        // The loser's refusal may still be on show; the winner's grant is not.
        assert!(p.cas.as_ref().is_none_or(|c| !(c.node == winner && c.won && c.at_ms == granted_at)), "{:?}", p.cas);
        // Later, between renewals, nothing is being decided though the lease is live.
        let quiet = (shown_until..20_000).step_by(50).find(|t| {
            let mut probe = s.clone();
            probe.advance_to(*t);
            let mut pm = Memory::default();
            let p = look(&probe, &mut pm);
            p.record.liveness.is_live() && p.cas.is_none()
        });
        assert!(quiet.is_some(), "a live lease with the clasp open");
    }

    /// Chen's write with 7 is obeyed after Lin's 8 (fencing off): the collision, and Chen has not
    /// led since, so he is the collided one; the boat's story keeps 7 even after Lin writes again.
    #[test]
    fn without_fencing_an_older_number_obeyed_after_a_newer_one_is_the_collision() {
        let mut s = sim("harbor-no-fencing");
        let mut m = Memory::default();
        s.advance_to(59_999);
        let p = look(&s, &mut m);
        assert!(!p.gate.on_duty && p.outcome.collision.is_none());
        s.advance_to(62_000);
        let p = look(&s, &mut m);
        let c = p.outcome.collision.clone().expect("the boat obeyed 7 after 8");
        assert_eq!((c.from.as_deref(), c.token, c.newer), (Some("chen"), 7, 8));
        let chen = p.actors.iter().find(|a| a.id == "chen").expect("chen");
        assert!(chen.collided);
        assert!(p.actors.iter().filter(|a| a.collided).count() == 1);
    }

    #[test]
    fn absorbing_a_new_run_starts_over() {
        let mut s = sim("harbor-zombie");
        let mut m = Memory::default();
        s.advance_to(20_000);
        m.absorb(s.trace());
        assert!(m.renewals > 0 && m.seen() > 0);
        m.absorb(sim("harbor-zombie").trace());
        assert_eq!(m, Memory::default());
    }

    #[test]
    fn revoking_frees_the_record_but_keeps_the_number() {
        let mut s = sim("harbor-zombie");
        let mut m = Memory::default();
        s.advance_to(2_000);
        s.apply(Command::RevokeLease).expect("valid");
        let p = look(&s, &mut m);
        assert_eq!((p.record.holder.clone(), p.record.token, p.record.liveness), (None, Some(7), Liveness::Free));
        assert_eq!((p.timer.state, p.timer.left), (TimerState::Out, 0.0));
        assert!(p.record.ever_granted());
    }
}
