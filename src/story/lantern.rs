//! The lantern's picture (seed `001`): what the lantern scene draws, derived from the engine's
//! [`Snapshot`] and trace, exactly as [`super::harbor`] does for the harbor.
//!
//! The mapping, element by element:
//! - The iron lantern on its stone pillar is the use of the shared resource: it hangs on the
//!   pillar while nobody's lease is live, and goes out with the holder.
//! - The wooden tablet is the lock state: "free" (空) or a borrower's name (`holderIdentity`) with
//!   the return hour (`renewTime + leaseDurationSeconds`, on the coordinator's clock). Once the
//!   hour has passed the name is still written there (as in Kubernetes) but the tablet counts as
//!   free.
//! - The brass clasp under the tablet is the compare-and-swap: latched while a lease is live. A
//!   borrower whose acquire was already on its way when someone else's latched the clasp
//!   (`AcquireRefused` for a request sent no later than that `LeaseGranted`) was "a step too late".
//! - The timed wick is the lease's remaining time (`expires − now`), renewed in person
//!   (`LeaseRenewed`); every new borrower gets a fresh wick with a new, higher number: the fencing
//!   token.
//! - A borrower who believes they hold the lease carries a lantern with their wick number; it is
//!   lit only while their wick is the tablet's and its hour has not passed, otherwise it is a dead
//!   lantern. A crashed borrower has twisted an ankle, a paused one dozes, a partitioned one is lost
//!   in the dark lanes: none can come back to renew.
//! - The granary keeper is the fenced resource with its high-water mark (`WriteJudged`: let
//!   through, turned back, already done). With fencing off, an errand whose wick number is below
//!   the keeper's mark before it is let through, and the borrower falls into the ditch: the same
//!   rule as the boat running aground ([`older_obeyed`]), the oracle's `stale_write_accepted` with
//!   `resource_had_seen_newer` whenever the newer number was granted.
//!
//! A lantern returned early (an explicit release, coming with the engine's lock protocol) needs no
//! new picture state: a release that clears `holderIdentity` already shows as [`Face::Free`], the
//! lantern back on its pillar and the clasp open; [`LanternMemory`] would only note the release
//! event (for example to put the returning borrower's lantern out at once).
//!
//! [`LanternMemory`] folds the trace incrementally (each entry once); [`picture`] only reads the
//! snapshot and that small memory, once per frame.

use super::harbor::{keep_verdict, older_obeyed, progress, short_label, turning, Verdict};
use crate::engine::{Endpoint, MessageKind, Role, Snapshot, TraceEntry, TraceEvent};

/// How long a wick flares up after it is lit or renewed, in virtual ms (at high speeds it snaps):
/// as long as the hourglass takes to turn.
pub const FLARE_MS: u64 = super::harbor::FLIP_MS;

/// What the lantern remembers from the trace: things a single snapshot cannot tell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LanternMemory {
    /// Trace entries folded so far.
    seen: usize,
    /// Renewals in person in the current term (a re-acquire by the holder counts as one).
    pub renewals: u32,
    /// When the wick was last lit or renewed, in virtual ms.
    pub last_trim_ms: Option<u64>,
    /// The latest latch of the clasp (the latest grant).
    pub latch: Option<Latch>,
    /// The latest borrower who was a step too late for that latch.
    pub too_late: Option<TooLate>,
    /// Acquire requests on their way to the tablet.
    asking: Vec<Asking>,
    /// The keeper's latest verdicts, oldest first (see [`super::harbor::VERDICTS_KEPT`]).
    pub verdicts: Vec<Verdict>,
    /// The first fall into the ditch.
    pub fall: Option<Fall>,
}

/// Someone latched the clasp: a grant (`LeaseGranted`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Latch {
    pub node: String,
    /// The fresh wick's number (the fencing token).
    pub token: u64,
    pub at_ms: u64,
}

/// A borrower set out for the clasp before it was latched and found it held when they got there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLate {
    pub node: String,
    /// Who had latched it.
    pub holder: String,
    /// When they set out (their acquire request was sent).
    pub sent_ms: u64,
    /// When they found it held (`AcquireRefused`).
    pub at_ms: u64,
}

/// An acquire request on its way (from its `MessageSent`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Asking {
    id: u64,
    node: String,
    sent_ms: u64,
    arrive_ms: u64,
}

/// A borrower fell into the ditch: an errand with wick `token` was let through after the granary
/// had already let `newer` through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fall {
    pub at_ms: u64,
    /// Whose errand it was; `None` for one from outside.
    pub from: Option<String>,
    pub token: u64,
    /// The keeper's mark before it: the newer number already let through.
    pub newer: u64,
}

impl LanternMemory {
    /// Folds the entries of `trace` not seen yet. `trace` must be the same run's whole trace; a
    /// shorter one (a new run) starts over.
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

    /// The request of `node` that reached the tablet at `at_ms`, no longer on its way.
    fn arrived(&mut self, node: &str, at_ms: u64) -> Option<Asking> {
        let i = self.asking.iter().position(|a| a.node == node && a.arrive_ms <= at_ms)?;
        Some(self.asking.remove(i))
    }

    fn absorb_one(&mut self, entry: &TraceEntry) {
        let at = entry.at_ms;
        // Every request that should have arrived by now has been answered or dropped.
        self.asking.retain(|a| a.arrive_ms >= at);
        match &entry.event {
            TraceEvent::MessageSent {
                id,
                kind: MessageKind::AcquireRequest,
                from: Endpoint::Node(node),
                arrive_ms,
                ..
            } => {
                self.asking.push(Asking { id: *id, node: node.clone(), sent_ms: at, arrive_ms: *arrive_ms });
            }
            TraceEvent::MessageDropped { id, .. } => self.asking.retain(|a| a.id != *id),
            TraceEvent::LeaseGranted { node, token, .. } => {
                self.arrived(node, at);
                self.renewals = 0;
                self.last_trim_ms = Some(at);
                self.latch = Some(Latch { node: node.clone(), token: *token, at_ms: at });
                self.too_late = None;
            }
            TraceEvent::LeaseReacquired { node, .. } => {
                self.arrived(node, at);
                self.renewals = self.renewals.saturating_add(1);
                self.last_trim_ms = Some(at);
            }
            TraceEvent::AcquireRefused { node, holder, .. } => {
                let asked = self.arrived(node, at);
                if let (Some(asked), Some(latch)) = (asked, &self.latch) {
                    if asked.sent_ms <= latch.at_ms && &latch.node == holder {
                        self.too_late = Some(TooLate {
                            node: node.clone(),
                            holder: holder.clone(),
                            sent_ms: asked.sent_ms,
                            at_ms: at,
                        });
                    }
                }
            }
            TraceEvent::LeaseRenewed { .. } => {
                self.renewals = self.renewals.saturating_add(1);
                self.last_trim_ms = Some(at);
            }
            TraceEvent::WriteJudged { from, token, outcome, high_water_before, high_water_after, .. } => {
                if let (Some(t), None) = (older_obeyed(*outcome, token, *high_water_before), &self.fall) {
                    self.fall = Some(Fall { at_ms: at, from: from.clone(), token: t, newer: *high_water_before });
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
                    },
                );
            }
            _ => {}
        }
    }
}

/// The whole picture at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Lantern {
    pub now_ms: u64,
    pub tablet: Tablet,
    pub clasp: Clasp,
    pub wick: Wick,
    pub borrowers: Vec<Borrower>,
    pub errands: Vec<Errand>,
    pub keeper: Keeper,
    pub granary: Granary,
}

/// What the tablet's face says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    /// 空: no name on it (nobody has borrowed yet, or the elder wiped it; a returned lantern will
    /// show the same).
    Free,
    /// A borrower's name and a return hour still to come.
    Taken,
    /// A name whose return hour has passed on the coordinator's clock: it counts as free.
    HourPassed,
}

impl Face {
    /// The `data-state` value: `free`, `taken` or `hour-passed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Face::Free => "free",
            Face::Taken => "taken",
            Face::HourPassed => "hour-passed",
        }
    }
}

/// The wooden tablet beside the lantern: the Lease record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tablet {
    pub face: Face,
    /// `holderIdentity`: the node whose name is written on it (also once the hour has passed).
    pub holder: Option<String>,
    /// The return hour, `renewTime + leaseDuration`, in ms on the coordinator's clock.
    pub return_ms: Option<u64>,
    /// The number of the current (or last) wick: the fencing token.
    pub wick_number: Option<u64>,
    /// Renewals in person this term.
    pub renewals: u32,
    /// Whether anyone has borrowed the lantern yet.
    pub ever_borrowed: bool,
}

impl Tablet {
    /// The lantern hangs on its pillar: nobody's lease is live.
    pub fn lantern_on_pillar(&self) -> bool {
        self.face != Face::Taken
    }
}

/// The brass clasp under the tablet: the compare-and-swap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clasp {
    /// Latched while a lease is live.
    pub latched: bool,
    /// Who latched it (the live holder).
    pub by: Option<String>,
    /// The latest borrower who was a step too late for the latest latch.
    pub too_late: Option<TooLate>,
}

/// How the wick is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WickState {
    /// No wick has been lit yet (no token granted).
    Unlit,
    /// The lease is live: it burns down with the remaining time.
    Burning,
    /// Its hour passed, or the name was wiped: the wick is dead.
    Out,
}

impl WickState {
    /// The `data-state` value: `unlit`, `burning` or `out`.
    pub fn as_str(self) -> &'static str {
        match self {
            WickState::Unlit => "unlit",
            WickState::Burning => "burning",
            WickState::Out => "out",
        }
    }
}

/// The timed wick: the lease's remaining time on the coordinator's clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Wick {
    /// Its number: the fencing token of the current (or last) term.
    pub number: Option<u64>,
    pub state: WickState,
    /// Wick left, 0.0 ..= 1.0 (`remaining / leaseDuration`).
    pub left: f64,
    pub remaining_ms: u64,
    pub duration_ms: u64,
    /// How much of the flare after the last lighting or renewal is still to go: 1.0 just now,
    /// 0.0 after [`FLARE_MS`] of virtual time.
    pub flare: f64,
}

/// How a borrower looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Posture {
    /// Not out yet (the node has not started).
    NotYet,
    Afoot,
    /// Paused: dozing against a wall.
    Dozing,
    /// Crashed: twisted an ankle, carried home.
    Hurt,
}

/// One borrower (node).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Borrower {
    pub id: String,
    pub role: Role,
    pub posture: Posture,
    /// Cut off by a partition: lost in the dark lanes.
    pub lost: bool,
    /// The wick number of the lantern they carry: they believe they hold the lease with it.
    pub lantern: Option<u64>,
    /// Their lantern is lit: its wick is the tablet's and the return hour has not passed.
    pub lit: bool,
    /// Their name is on the tablet.
    pub on_tablet: bool,
    /// The errand they stopped in the middle of (a write prepared before a pause), by wick number.
    pub prepared: Option<u64>,
    /// They were the latest one a step too late at the clasp.
    pub too_late: bool,
}

impl Borrower {
    /// The `data-state` value: `not-yet`, `hurt`, `dozing`, `carrying` (a lit lantern),
    /// `dead-lantern` or `waiting`.
    pub fn state(&self) -> &'static str {
        match (self.posture, self.lantern, self.lit) {
            (Posture::NotYet, ..) => "not-yet",
            (Posture::Hurt, ..) => "hurt",
            (Posture::Dozing, ..) => "dozing",
            (Posture::Afoot, Some(_), true) => "carrying",
            (Posture::Afoot, Some(_), false) => "dead-lantern",
            (Posture::Afoot, None, _) => "waiting",
        }
    }
}

/// Where something in flight is going.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Way {
    /// A borrower going to the tablet (acquire or renew request).
    ToTablet { node: String },
    /// The tablet's answer going back (acquire or renew reply).
    FromTablet { node: String },
    /// An errand (write) on its way to the granary keeper with its wick number.
    ToKeeper { node: Option<String> },
}

/// A message in flight.
#[derive(Clone, Debug, PartialEq)]
pub struct Errand {
    pub id: u64,
    pub kind: MessageKind,
    pub way: Way,
    /// 0.0 at the sender, 1.0 at the receiver: `(now − sent) / (arrive − sent)`.
    pub progress: f64,
    /// The wick number it carries, if any (short label).
    pub token: Option<String>,
}

/// The granary keeper: the fenced resource's check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keeper {
    /// At his post (fencing on)?
    pub on_duty: bool,
    /// "Only wick No. N": the resource's high-water mark (0 = none seen yet).
    pub only_counts: u64,
    /// Latest verdicts, oldest first.
    pub recent: Vec<Verdict>,
}

/// The granary: the resource's value, and the ditch beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Granary {
    /// Whose errand was done last (the last accepted write), and its wick number.
    pub last_from: Option<String>,
    pub last_token: Option<String>,
    pub value: Option<String>,
    pub fall: Option<Fall>,
}

/// Derives the picture from the world now and what the trace taught.
pub fn picture(snap: &Snapshot, memory: &LanternMemory) -> Lantern {
    let now = snap.now_ms;
    let lease = &snap.lease;
    let remaining_ms = match (lease.holder_identity.is_some() && !lease.expired, lease.expires_ms) {
        (true, Some(expires)) => expires.saturating_sub(now),
        _ => 0,
    };
    let live = remaining_ms > 0;
    let face = match (&lease.holder_identity, live) {
        (None, _) => Face::Free,
        (Some(_), true) => Face::Taken,
        (Some(_), false) => Face::HourPassed,
    };
    let left = if lease.lease_duration_ms == 0 {
        0.0
    } else {
        (remaining_ms as f64 / lease.lease_duration_ms as f64).clamp(0.0, 1.0)
    };
    let wick_state = match (lease.token, live) {
        (None, _) => WickState::Unlit,
        (Some(_), true) => WickState::Burning,
        (Some(_), false) => WickState::Out,
    };
    let too_late = memory.too_late.clone();
    let borrowers = snap
        .nodes
        .iter()
        .map(|n| {
            let posture = match n.role {
                Role::Crashed => Posture::Hurt,
                Role::Paused => Posture::Dozing,
                _ if !n.started => Posture::NotYet,
                _ => Posture::Afoot,
            };
            let on_tablet = lease.holder_identity.as_deref() == Some(n.id.as_str());
            let lantern = if n.believes_leader && n.role != Role::Crashed { n.token } else { None };
            let lit = live && on_tablet && lantern.is_some() && lantern == lease.token;
            Borrower {
                id: n.id.clone(),
                role: n.role,
                posture,
                lost: n.partitioned,
                lantern,
                lit,
                on_tablet,
                prepared: n.prepared_write.as_ref().map(|p| p.token),
                too_late: too_late.as_ref().is_some_and(|t| t.node == n.id),
            }
        })
        .collect();
    let errands = snap
        .in_flight
        .iter()
        .filter_map(|m| {
            let way = match (&m.from, &m.to) {
                (Endpoint::Node(id), Endpoint::Resource) => Way::ToKeeper { node: Some(id.clone()) },
                (_, Endpoint::Resource) => Way::ToKeeper { node: None },
                (Endpoint::Node(id), Endpoint::Coordinator) => Way::ToTablet { node: id.clone() },
                (Endpoint::Coordinator, Endpoint::Node(id)) => Way::FromTablet { node: id.clone() },
                _ => return None,
            };
            Some(Errand {
                id: m.id,
                kind: m.kind,
                way,
                progress: progress(now, m.sent_ms, m.arrive_ms),
                token: m.token.as_ref().map(|t| short_label(&t.label())),
            })
        })
        .collect();
    let r = &snap.resource;
    Lantern {
        now_ms: now,
        tablet: Tablet {
            face,
            holder: lease.holder_identity.clone(),
            return_ms: lease.expires_ms,
            wick_number: lease.token,
            renewals: memory.renewals,
            ever_borrowed: lease.token.is_some(),
        },
        clasp: Clasp { latched: live, by: if live { lease.holder_identity.clone() } else { None }, too_late },
        wick: Wick {
            number: lease.token,
            state: wick_state,
            left,
            remaining_ms,
            duration_ms: lease.lease_duration_ms,
            flare: if live { turning(now, memory.last_trim_ms) } else { 0.0 },
        },
        borrowers,
        errands,
        keeper: Keeper { on_duty: r.fencing, only_counts: r.high_water, recent: memory.verdicts.clone() },
        granary: Granary {
            last_from: r.value_from.clone(),
            last_token: r.value_token.as_ref().map(|t| short_label(&t.label())),
            value: r.value.clone(),
            fall: memory.fall.clone(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Command, Sim, WriteOutcome};
    use crate::scenario::library;

    fn sim(id: &str) -> Sim {
        let s = library::get(id).expect("exists").expect("parses");
        Sim::new(s.config).expect("valid")
    }

    fn look(sim: &Sim, memory: &mut LanternMemory) -> Lantern {
        memory.absorb(sim.trace());
        picture(&sim.snapshot(), memory)
    }

    fn borrower<'a>(l: &'a Lantern, id: &str) -> &'a Borrower {
        l.borrowers.iter().find(|b| b.id == id).expect("borrower")
    }

    fn grants(sim: &Sim) -> Vec<(u64, String, u64)> {
        sim.trace()
            .iter()
            .filter_map(|e| match &e.event {
                TraceEvent::LeaseGranted { node, token, .. } => Some((e.at_ms, node.clone(), *token)),
                _ => None,
            })
            .collect()
    }

    /// Two borrowers set out at the same moment; the clasp lets exactly one latch it, and the
    /// other, whose request was already on its way, finds it held: a step too late.
    #[test]
    fn lantern_race_one_latches_the_other_is_a_step_too_late() {
        let mut s = sim("lantern-race");
        let mut m = LanternMemory::default();
        s.advance_to(0);
        let l = look(&s, &mut m);
        assert_eq!(l.tablet.face, Face::Free);
        assert!(l.tablet.lantern_on_pillar() && !l.clasp.latched && l.clasp.too_late.is_none());
        assert_eq!(l.wick.state, WickState::Unlit);
        // Both asked at 0 ms: two requests on their way to the tablet.
        let asking: Vec<&Way> =
            l.errands.iter().filter(|e| e.kind == MessageKind::AcquireRequest).map(|e| &e.way).collect();
        assert_eq!(asking.len(), 2, "{:?}", l.errands);

        s.advance_to(200);
        let l = look(&s, &mut m);
        let g = grants(&s);
        assert_eq!(g.len(), 1, "exactly one latches the clasp: {g:?}");
        let (latched_at, winner, token) = g[0].clone();
        let loser = if winner == "xiu" { "wang" } else { "xiu" };
        let refusal = s
            .trace()
            .iter()
            .find(|e| matches!(&e.event, TraceEvent::AcquireRefused { node, .. } if node == loser))
            .cloned()
            .expect("the other finds the clasp held");
        assert!(refusal.at_ms >= latched_at, "refused only once it was latched");
        assert!(refusal.at_ms - latched_at <= 5, "they arrived at nearly the same time");
        assert_eq!(
            (l.tablet.face, l.tablet.holder.as_deref(), l.tablet.wick_number),
            (Face::Taken, Some(winner.as_str()), Some(token))
        );
        assert!(l.clasp.latched);
        assert_eq!(l.clasp.by.as_deref(), Some(winner.as_str()));
        let too_late = l.clasp.too_late.clone().expect("a step too late");
        assert_eq!((too_late.node.as_str(), too_late.holder.as_str(), too_late.sent_ms), (loser, winner.as_str(), 0));
        assert!(borrower(&l, loser).too_late && !borrower(&l, &winner).too_late);
        assert_eq!(borrower(&l, loser).lantern, None, "no lantern for the one too late");
        let w = borrower(&l, &winner);
        assert_eq!((w.lantern, w.lit, w.on_tablet, w.state()), (Some(token), true, true, "carrying"));
        assert!(!l.tablet.lantern_on_pillar(), "the lantern went out with its borrower");

        // Later tries find the clasp held but were not a race: the race stays the one remembered.
        s.run_to_end();
        let l = look(&s, &mut m);
        assert_eq!(grants(&s).len(), 1, "the winner keeps renewing in person");
        assert!(l.tablet.renewals >= 2);
        assert_eq!(l.clasp.too_late.as_ref().map(|t| t.at_ms), Some(refusal.at_ms));
        assert_eq!(borrower(&l, loser).state(), "waiting");
    }

    /// Lin starts after Chen's grant: her refusal is an ordinary wait, not a lost race.
    #[test]
    fn a_request_sent_after_the_latch_is_not_too_late() {
        let mut s = sim("harbor-zombie");
        let mut m = LanternMemory::default();
        s.advance_to(3_000);
        let l = look(&s, &mut m);
        assert!(s.trace().iter().any(|e| matches!(&e.event, TraceEvent::AcquireRefused { node, .. } if node == "lin")));
        assert!(l.clasp.too_late.is_none());
        assert_eq!(borrower(&l, "lin").state(), "waiting");
    }

    /// The holder twists an ankle mid-errand: the tablet keeps her name until the return hour
    /// has passed; only then does the next borrower latch the clasp, with a newer wick; her slow
    /// errand with the old number is turned back by the keeper.
    #[test]
    fn lantern_ankle_free_only_after_the_hour_then_a_newer_wick() {
        let mut s = sim("lantern-ankle");
        let mut m = LanternMemory::default();
        s.advance_to(9_500);
        let l = look(&s, &mut m);
        assert_eq!((l.tablet.holder.as_deref(), l.tablet.wick_number), (Some("xiu"), Some(1)));
        let return_ms = l.tablet.return_ms.expect("a return hour");
        let old_errand = l.errands.iter().find(|e| e.way == Way::ToKeeper { node: Some("xiu".into()) });
        assert_eq!(old_errand.and_then(|e| e.token.as_deref()), Some("1"), "her errand goes the long way round");

        s.advance_to(10_000);
        let l = look(&s, &mut m);
        assert_eq!(borrower(&l, "xiu").posture, Posture::Hurt);
        assert_eq!(borrower(&l, "xiu").lantern, None);
        assert!(return_ms > 10_000, "she was hurt before her hour");
        assert_eq!(l.tablet.return_ms, Some(return_ms), "nobody renews for her");

        // Up to the return hour the tablet still bears her name, the clasp stays latched, and
        // every try of Wang's is refused.
        s.advance_to(return_ms - 1);
        let l = look(&s, &mut m);
        assert_eq!((l.tablet.face, l.tablet.holder.as_deref()), (Face::Taken, Some("xiu")));
        assert!(l.clasp.latched && l.wick.state == WickState::Burning);
        assert_eq!(l.wick.remaining_ms, 1);
        let wang_tries = s
            .trace()
            .iter()
            .filter(|e| matches!(&e.event, TraceEvent::AcquireRefused { node, holder, .. } if node == "wang" && holder == "xiu"))
            .count();
        assert!(wang_tries >= 4, "Wang tried every 2 s: {wang_tries}");
        assert_eq!(grants(&s).len(), 1);

        s.advance_to(return_ms);
        let l = look(&s, &mut m);
        assert_eq!((l.tablet.face, l.tablet.holder.as_deref()), (Face::HourPassed, Some("xiu")));
        assert!(!l.clasp.latched && l.tablet.lantern_on_pillar());
        assert_eq!((l.wick.state, l.wick.left, l.wick.number), (WickState::Out, 0.0, Some(1)));

        s.advance_to(25_000);
        let l = look(&s, &mut m);
        let g = grants(&s);
        assert_eq!(g.len(), 2);
        assert!(g[1].0 >= return_ms, "the next borrower latched only after the hour");
        assert_eq!((g[1].1.as_str(), g[1].2), ("wang", 2), "a fresh wick with a higher number");
        assert_eq!(
            (l.tablet.face, l.tablet.holder.as_deref(), l.tablet.wick_number),
            (Face::Taken, Some("wang"), Some(2))
        );
        assert!(borrower(&l, "wang").lit);
        assert_eq!(l.keeper.only_counts, 2);

        s.run_to_end();
        let l = look(&s, &mut m);
        let turned_back: Vec<&Verdict> = m.verdicts.iter().filter(|v| v.from.as_deref() == Some("xiu")).collect();
        let late =
            turned_back.iter().find(|v| v.outcome == WriteOutcome::RejectedStale).expect("her late errand is judged");
        assert_eq!((late.token.as_str(), late.high_water_after), ("1", 2));
        assert!(l.keeper.on_duty && l.granary.fall.is_none(), "the keeper kept everyone out of the ditch");
        assert_eq!(l.granary.last_token.as_deref(), Some("2"));
        assert_eq!(borrower(&l, "xiu").state(), "waiting", "back on her feet, she waits her turn");
    }

    /// With no keeper, a borrower who dozed off walks on with a dead lantern and falls into the
    /// ditch: the oracle's stale write accepted after the newer wick.
    #[test]
    fn lantern_ditch_without_a_keeper_the_dead_lantern_falls_in() {
        let mut s = sim("lantern-ditch");
        let mut m = LanternMemory::default();
        s.advance_to(25_000);
        let l = look(&s, &mut m);
        let xiu = borrower(&l, "xiu");
        assert_eq!((xiu.posture, xiu.lantern, xiu.lit, xiu.prepared), (Posture::Dozing, Some(1), false, Some(1)));
        assert_eq!(xiu.state(), "dozing");
        assert!(borrower(&l, "wang").lit);
        assert!(!l.keeper.on_duty && l.granary.fall.is_none());

        s.run_to_end();
        let l = look(&s, &mut m);
        let fall = l.granary.fall.expect("into the ditch");
        assert_eq!((fall.from.as_deref(), fall.token, fall.newer), (Some("xiu"), 1, 2));
        let oracle = s.trace().iter().find_map(|e| match &e.event {
            TraceEvent::ViolationFound {
                violation: crate::engine::Violation::StaleWriteAccepted { from, token, resource_had_seen_newer, .. },
            } => Some((e.at_ms, from.clone(), *token, *resource_had_seen_newer)),
            _ => None,
        });
        assert_eq!(oracle, Some((fall.at_ms, Some("xiu".to_owned()), 1, true)), "the same moment the oracle names");
    }

    /// The wick burns down with the lease's remaining time on the coordinator's clock, flares
    /// when renewed in person, and a zombie's lantern is dead.
    #[test]
    fn the_wick_follows_the_lease_and_a_zombie_carries_a_dead_lantern() {
        let mut s = sim("harbor-zombie");
        let mut m = LanternMemory::default();
        s.advance_to(1_000);
        let l = look(&s, &mut m);
        let expires = s.snapshot().lease.expires_ms.expect("held");
        assert_eq!(l.wick.remaining_ms, expires - 1_000);
        assert!((l.wick.left - (expires - 1_000) as f64 / 15_000.0).abs() < 1e-9);
        assert_eq!(l.tablet.return_ms, Some(expires));

        // Right after the first renewal in person the wick flares, then settles.
        let mut ahead = s.clone();
        ahead.run_to_end();
        let renewed_at = ahead
            .trace()
            .iter()
            .find(|e| matches!(e.event, TraceEvent::LeaseRenewed { .. }))
            .map(|e| e.at_ms)
            .expect("Chen renews");
        s.advance_to(renewed_at);
        let l = look(&s, &mut m);
        assert_eq!((l.wick.flare, l.tablet.renewals), (1.0, 1));
        assert_eq!(l.wick.remaining_ms, 15_000, "renewed: a full wick again");
        s.advance_to(renewed_at + FLARE_MS / 2);
        assert!((look(&s, &mut m).wick.flare - 0.5).abs() < 1e-9);
        s.advance_to(renewed_at + FLARE_MS);
        assert_eq!(look(&s, &mut m).wick.flare, 0.0);

        s.advance_to(25_000);
        let l = look(&s, &mut m);
        let chen = borrower(&l, "chen");
        assert_eq!(
            (chen.posture, chen.lantern, chen.lit),
            (Posture::Dozing, Some(7), true),
            "dozing, his wick still burns"
        );

        s.advance_to(40_000);
        let l = look(&s, &mut m);
        let chen = borrower(&l, "chen");
        assert_eq!((chen.lantern, chen.lit), (Some(7), false), "a dead lantern: the tablet says 8");
        let lin = borrower(&l, "lin");
        assert_eq!((lin.lantern, lin.lit, lin.on_tablet), (Some(8), true, true));
        assert_eq!(l.clasp.by.as_deref(), Some("lin"));
    }

    #[test]
    fn the_elder_wipes_the_tablet_and_hurt_and_lost_borrowers_show() {
        let mut s = sim("harbor-zombie");
        let mut m = LanternMemory::default();
        s.advance_to(2_000);
        s.apply(Command::Partition { node: "lin".into(), from: crate::engine::Link::All }).expect("valid");
        s.apply(Command::Crash { node: "chen".into() }).expect("valid");
        let l = look(&s, &mut m);
        assert_eq!(borrower(&l, "chen").state(), "hurt");
        assert!(borrower(&l, "lin").lost);
        s.apply(Command::RevokeLease).expect("valid");
        let l = look(&s, &mut m);
        assert_eq!((l.tablet.face, l.tablet.holder.as_deref()), (Face::Free, None));
        assert!(l.tablet.lantern_on_pillar() && !l.clasp.latched);
        assert_eq!((l.wick.state, l.wick.number), (WickState::Out, Some(7)), "the number stays; it only climbs");
        assert!(l.tablet.ever_borrowed);
    }

    #[test]
    fn errands_from_outside_go_to_the_keeper() {
        let mut s = sim("fencing-checks");
        let mut m = LanternMemory::default();
        s.run_to_end();
        let l = look(&s, &mut m);
        assert!(l.borrowers.is_empty());
        assert_eq!(l.keeper.recent.len(), super::super::harbor::VERDICTS_KEPT);
        assert_eq!(l.keeper.only_counts, 3);
        assert_eq!(l.tablet.face, Face::Free);
        assert!(!l.tablet.ever_borrowed);
    }

    #[test]
    fn absorbing_a_new_run_starts_over() {
        let mut s = sim("lantern-race");
        let mut m = LanternMemory::default();
        s.advance_to(5_000);
        m.absorb(s.trace());
        assert!(m.latch.is_some() && m.seen() > 0);
        m.absorb(sim("lantern-race").trace());
        assert_eq!(m, LanternMemory::default());
    }

    /// The lantern and the harbor tell the same run: the same holder, number and mark.
    #[test]
    fn both_fables_read_the_same_state() {
        for id in library::ids() {
            let mut s = sim(id);
            let mut lm = LanternMemory::default();
            let mut hm = super::super::harbor::HarborMemory::default();
            let until = s.snapshot().until_ms;
            for t in [until / 3, until * 2 / 3, until] {
                s.advance_to(t);
                lm.absorb(s.trace());
                hm.absorb(s.trace());
                let snap = s.snapshot();
                let (l, h) = (picture(&snap, &lm), super::super::harbor::picture(&snap, &hm));
                assert_eq!((&l.tablet.holder, l.tablet.wick_number), (&h.plaque.holder, h.plaque.token), "{id} at {t}");
                assert_eq!(l.keeper.only_counts, h.verifier.only_counts, "{id}");
                assert_eq!(l.wick.remaining_ms, h.hourglass.remaining_ms, "{id}");
                assert_eq!(
                    l.granary.fall.as_ref().map(|f| (f.token, f.newer)),
                    h.boat.aground.as_ref().map(|a| (a.token, a.newer)),
                    "{id}"
                );
                assert_eq!(l.keeper.recent, h.verifier.recent, "{id}");
            }
        }
    }
}
