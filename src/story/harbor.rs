//! The harbor's picture: what the scene draws, derived from the engine's [`Snapshot`] and trace.
//!
//! Nothing here is scripted. The sand in the hourglass is the lease's remaining time on the
//! coordinator's clock; a flag-bearer raises his flag because his node believes it leads; a flag
//! moves along its path as far as the latency the engine drew; the boat runs onto the rocks only
//! when the resource accepted a write whose token is below one it had already accepted (it obeyed
//! an older number after a newer one: two flag-bearers). Whenever the coordinator granted that
//! newer token, this is exactly the oracle's `stale_write_accepted` with `resource_had_seen_newer`. Geometry stays in the UI: this module says *what*, the
//! scene says *where*.
//!
//! [`HarborMemory`] folds the trace incrementally (each entry once), so the per-frame work is
//! [`picture`], which only reads the snapshot and that small memory.

use crate::engine::{Endpoint, MessageKind, Role, Snapshot, TraceEntry, TraceEvent, WireToken, WriteOutcome};

/// How many of the verifier's latest verdicts the scene keeps in view.
pub const VERDICTS_KEPT: usize = 3;

/// How long the hourglass takes to turn over, in virtual ms (at high speeds it simply snaps).
pub const FLIP_MS: u64 = 600;

/// Longest token label drawn on a flag; longer (hostile or malformed) labels are cut with `…`.
pub const MAX_LABEL_CHARS: usize = 10;

/// What the harbor remembers from the trace: things a single snapshot cannot tell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HarborMemory {
    /// Trace entries folded so far.
    seen: usize,
    /// Marks carved on the wall in the current term (renewals since the last grant).
    pub marks: u32,
    /// How many times the hourglass was turned (grants, re-acquisitions and renewals).
    pub flips: u32,
    /// When it was last turned, in virtual ms.
    pub last_flip_ms: Option<u64>,
    /// The verifier's latest verdicts, oldest first (at most [`VERDICTS_KEPT`]).
    pub verdicts: Vec<Verdict>,
    /// Set once the oracle saw the boat obey a flag older than one it had already obeyed.
    pub aground: Option<Aground>,
}

/// What the flag-verifier did with one flag (a judged write).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub seq: u64,
    pub at_ms: u64,
    /// The node that waved it; `None` for a flag from outside.
    pub from: Option<String>,
    /// The number it carried, as a short label (see [`short_label`]).
    pub token: String,
    pub outcome: WriteOutcome,
    /// The number the verifier held on to after judging it.
    pub high_water_after: u64,
}

impl Verdict {
    /// The boat obeyed this flag (it was accepted).
    pub fn obeyed(&self) -> bool {
        self.outcome == WriteOutcome::Accepted
    }
}

/// The boat ran aground: it obeyed `token` after having obeyed `newest` or newer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Aground {
    pub at_ms: u64,
    pub from: Option<String>,
    /// The older number the boat obeyed…
    pub token: u64,
    /// …after it had already obeyed this newer one (the resource's high-water mark then).
    pub newer: u64,
}

impl HarborMemory {
    /// Folds the entries of `trace` not seen yet. `trace` must be the same run's whole trace
    /// (as [`crate::engine::Sim::trace`] gives it); a shorter one (a new run) starts over.
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

    fn absorb_one(&mut self, entry: &TraceEntry) {
        match &entry.event {
            TraceEvent::LeaseGranted { .. } => {
                self.marks = 0;
                self.flips = self.flips.saturating_add(1);
                self.last_flip_ms = Some(entry.at_ms);
            }
            TraceEvent::LeaseRenewed { .. } | TraceEvent::LeaseReacquired { .. } => {
                self.marks = self.marks.saturating_add(1);
                self.flips = self.flips.saturating_add(1);
                self.last_flip_ms = Some(entry.at_ms);
            }
            TraceEvent::WriteJudged { from, token, outcome, high_water_before, high_water_after, .. } => {
                if let (Some(t), None) = (older_obeyed(*outcome, token, *high_water_before), &self.aground) {
                    // The first collision is the one the picture shows.
                    self.aground =
                        Some(Aground { at_ms: entry.at_ms, from: from.clone(), token: t, newer: *high_water_before });
                }
                keep_verdict(
                    &mut self.verdicts,
                    Verdict {
                        seq: entry.seq,
                        at_ms: entry.at_ms,
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

/// The older number a judged write got obeyed with, if the resource accepted it after having
/// accepted a newer one (`high_water_before`, its mark then): the boat runs aground (and in the
/// lantern, a borrower with a dead lantern falls into the ditch). Whenever the newer number was
/// granted, this is the oracle's `stale_write_accepted` with `resource_had_seen_newer`.
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

/// Cuts a label to [`MAX_LABEL_CHARS`] characters (by `char`, never inside one).
pub fn short_label(label: &str) -> String {
    if label.chars().count() <= MAX_LABEL_CHARS {
        label.to_owned()
    } else {
        let mut s: String = label.chars().take(MAX_LABEL_CHARS - 1).collect();
        s.push('…');
        s
    }
}

/// The whole picture at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Harbor {
    pub now_ms: u64,
    pub plaque: Plaque,
    pub hourglass: Hourglass,
    /// Marks carved on the wall this term (`renewTime` moved this many times).
    pub marks: u32,
    pub bearers: Vec<Bearer>,
    pub flags_and_slips: Vec<Travel>,
    pub verifier: Verifier,
    pub boat: Boat,
}

/// The dockmaster's plaque: the Lease's `holderIdentity` and the fencing token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plaque {
    /// Node id on the plaque, `None` when nobody's name is on it.
    pub holder: Option<String>,
    /// The number carved on it (the current or last term's token).
    pub token: Option<u64>,
    /// The sand ran out but nobody has taken the post yet.
    pub expired: bool,
}

/// The hourglass: the lease's remaining time on the coordinator's clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Hourglass {
    /// Sand left in the top bulb, 0.0 ..= 1.0 (`remaining / leaseDuration`).
    pub sand: f64,
    pub remaining_ms: u64,
    pub duration_ms: u64,
    /// Times it was turned (each grant and renewal turns it).
    pub flips: u32,
    /// How much of the last turn is still to go: 1.0 just turned (upside down), 0.0 upright.
    /// It follows virtual time, [`FLIP_MS`] per turn.
    pub turning: f64,
}

/// How a flag-bearer looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Posture {
    /// Not on duty yet (the node has not started).
    NotYet,
    Awake,
    /// Paused: slumped, "z z".
    Asleep,
    /// Crashed: an empty post.
    Gone,
}

/// One flag-bearer (node).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bearer {
    pub id: String,
    pub role: Role,
    pub posture: Posture,
    /// Cut off by a partition (broken rope, fog).
    pub cut_off: bool,
    /// The number on his raised flag: he believes he leads with this token.
    pub flag: Option<u64>,
    /// His flag carries an older number than the plaque: he is a zombie and does not know it.
    pub stale: bool,
    /// His name is on the plaque.
    pub on_plaque: bool,
    /// A flag he prepared just before falling asleep, with its number.
    pub prepared: Option<u64>,
}

/// Where something in flight is going.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// A slip from a flag-bearer to the dockmaster (acquire or renew request).
    ToDockmaster { node: String },
    /// The dockmaster's answer going back (acquire or renew reply).
    FromDockmaster { node: String },
    /// A flag (write) on its way to the verifier and the boat.
    ToVerifier { node: Option<String> },
}

/// A message in flight.
#[derive(Clone, Debug, PartialEq)]
pub struct Travel {
    pub id: u64,
    pub kind: MessageKind,
    pub route: Route,
    /// 0.0 at the sender, 1.0 at the receiver: `(now − sent) / (arrive − sent)`.
    pub progress: f64,
    /// The number it carries, if any (short label).
    pub token: Option<String>,
}

/// The flag-verifier: the fenced resource's check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verifier {
    /// On duty (fencing on)?
    pub on_duty: bool,
    /// "Only N counts": the resource's high-water mark (0 = no number seen yet).
    pub only_counts: u64,
    /// Latest verdicts, oldest first.
    pub recent: Vec<Verdict>,
}

/// The boat: the resource's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Boat {
    /// Whose flag it obeys now (the last accepted write), and its number.
    pub obeys_from: Option<String>,
    pub obeys_token: Option<String>,
    pub value: Option<String>,
    pub aground: Option<Aground>,
}

/// Derives the picture from the world now and what the trace taught.
pub fn picture(snap: &Snapshot, memory: &HarborMemory) -> Harbor {
    let now = snap.now_ms;
    let lease = &snap.lease;
    let live = lease.holder_identity.is_some() && !lease.expired;
    let remaining_ms = match (live, lease.expires_ms) {
        (true, Some(expires)) => expires.saturating_sub(now),
        _ => 0,
    };
    let sand = if lease.lease_duration_ms == 0 {
        0.0
    } else {
        (remaining_ms as f64 / lease.lease_duration_ms as f64).clamp(0.0, 1.0)
    };
    let current_token = lease.token;
    let bearers = snap
        .nodes
        .iter()
        .map(|n| {
            let posture = match n.role {
                Role::Crashed => Posture::Gone,
                Role::Paused => Posture::Asleep,
                _ if !n.started => Posture::NotYet,
                _ => Posture::Awake,
            };
            let flag = if n.believes_leader && n.role != Role::Crashed { n.token } else { None };
            let stale = matches!((flag, lease.newest_granted), (Some(f), Some(newest)) if f < newest);
            Bearer {
                id: n.id.clone(),
                role: n.role,
                posture,
                cut_off: n.partitioned,
                flag,
                stale,
                on_plaque: lease.holder_identity.as_deref() == Some(n.id.as_str()),
                prepared: n.prepared_write.as_ref().map(|p| p.token),
            }
        })
        .collect();
    let flags_and_slips = snap
        .in_flight
        .iter()
        .filter_map(|m| {
            let node_of = |e: &Endpoint| match e {
                Endpoint::Node(id) => Some(id.clone()),
                _ => None,
            };
            let route = match (&m.from, &m.to) {
                (_, Endpoint::Resource) => Route::ToVerifier { node: node_of(&m.from) },
                (Endpoint::Node(id), Endpoint::Coordinator) => Route::ToDockmaster { node: id.clone() },
                (Endpoint::Coordinator, Endpoint::Node(id)) => Route::FromDockmaster { node: id.clone() },
                _ => return None,
            };
            Some(Travel {
                id: m.id,
                kind: m.kind,
                route,
                progress: progress(now, m.sent_ms, m.arrive_ms),
                token: m.token.as_ref().map(|t| short_label(&t.label())),
            })
        })
        .collect();
    let r = &snap.resource;
    Harbor {
        now_ms: now,
        plaque: Plaque { holder: lease.holder_identity.clone(), token: current_token, expired: lease.expired },
        hourglass: Hourglass {
            sand,
            remaining_ms,
            duration_ms: lease.lease_duration_ms,
            flips: memory.flips,
            turning: turning(now, memory.last_flip_ms),
        },
        marks: memory.marks,
        bearers,
        flags_and_slips,
        verifier: Verifier { on_duty: r.fencing, only_counts: r.high_water, recent: memory.verdicts.clone() },
        boat: Boat {
            obeys_from: r.value_from.clone(),
            obeys_token: r.value_token.as_ref().map(|t| short_label(&t.label())),
            value: r.value.clone(),
            aground: memory.aground.clone(),
        },
    }
}

/// How much of the hourglass's last turn is still to go at `now_ms` (see [`Hourglass::turning`]).
pub fn turning(now_ms: u64, last_flip_ms: Option<u64>) -> f64 {
    match last_flip_ms {
        Some(at) if now_ms < at.saturating_add(FLIP_MS) => 1.0 - now_ms.saturating_sub(at) as f64 / FLIP_MS as f64,
        _ => 0.0,
    }
}

/// How far along its path a message is: `(now − sent) / (arrive − sent)`, within 0 ..= 1. A
/// message that arrives the moment it is sent (or waits at a frozen node's door) is at 1.
pub fn progress(now_ms: u64, sent_ms: u64, arrive_ms: u64) -> f64 {
    if arrive_ms <= sent_ms {
        return 1.0;
    }
    let done = now_ms.saturating_sub(sent_ms) as f64;
    (done / (arrive_ms - sent_ms) as f64).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Command, Sim};
    use crate::scenario::library;

    fn sim(id: &str) -> Sim {
        let s = library::get(id).expect("exists").expect("parses");
        Sim::new(s.config).expect("valid")
    }

    fn look(sim: &Sim, memory: &mut HarborMemory) -> Harbor {
        memory.absorb(sim.trace());
        picture(&sim.snapshot(), memory)
    }

    fn bearer<'a>(h: &'a Harbor, id: &str) -> &'a Bearer {
        h.bearers.iter().find(|b| b.id == id).expect("bearer")
    }

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
    fn the_hourglass_turns_in_virtual_time() {
        assert_eq!(turning(1_000, None), 0.0);
        assert_eq!(turning(1_000, Some(1_000)), 1.0);
        assert!((turning(1_000 + FLIP_MS / 2, Some(1_000)) - 0.5).abs() < 1e-9);
        assert_eq!(turning(1_000 + FLIP_MS, Some(1_000)), 0.0);
        assert_eq!(turning(5, Some(u64::MAX)), 1.0);
    }

    #[test]
    fn labels_are_cut_by_character() {
        assert_eq!(short_label("8"), "8");
        assert_eq!(short_label("18446744073709551616"), "184467440…");
        assert_eq!(short_label("编号编号编号编号编号编号"), "编号编号编号编号编…");
    }

    /// Chen takes the post with 7, the hourglass drains on the coordinator's clock and each
    /// renewal carves a mark; he falls asleep at 20 s, the sand runs out, Lin gets 8; when Chen
    /// wakes his flag with 7 is voided and the verifier says "only 8 counts".
    #[test]
    fn the_harbor_zombie_story_as_pictures() {
        let mut s = sim("harbor-zombie");
        let mut m = HarborMemory::default();

        let h = look(&s, &mut m);
        assert_eq!(h.plaque.holder, None);
        assert_eq!(h.hourglass.sand, 0.0);
        assert!(h.bearers.iter().all(|b| b.flag.is_none()));

        s.advance_to(1_000);
        let h = look(&s, &mut m);
        assert_eq!(h.plaque.holder.as_deref(), Some("chen"));
        assert_eq!(h.plaque.token, Some(7));
        let b = bearer(&h, "chen");
        assert_eq!((b.posture, b.flag, b.on_plaque, b.stale), (Posture::Awake, Some(7), true, false));
        // Granted at 62 ms with 15 s: 14 062 ms of 15 000 left at 1 s.
        let expected = (s.snapshot().lease.expires_ms.expect("held") - 1_000) as f64 / 15_000.0;
        assert!((h.hourglass.sand - expected).abs() < 1e-9, "sand {} vs {expected}", h.hourglass.sand);
        assert!(h.hourglass.sand > 0.9);

        s.advance_to(19_000);
        let h = look(&s, &mut m);
        assert!(h.marks >= 3, "renewals every 5 s carve marks, got {}", h.marks);
        assert_eq!(h.hourglass.flips, h.marks + 1);

        s.advance_to(25_000);
        let h = look(&s, &mut m);
        let b = bearer(&h, "chen");
        assert_eq!(b.posture, Posture::Asleep);
        assert_eq!(b.prepared, Some(7), "he fell asleep holding a prepared flag");
        assert_eq!(b.flag, Some(7), "asleep, he still believes he leads");

        s.advance_to(31_000);
        let h = look(&s, &mut m);
        assert_eq!(h.plaque.holder.as_deref(), Some("lin"));
        assert_eq!(h.plaque.token, Some(8));
        assert_eq!(h.marks, 0, "a new term starts with a clean wall");
        assert!(bearer(&h, "chen").stale, "Chen's 7 is older than the plaque's 8");

        s.advance_to(61_000);
        let h = look(&s, &mut m);
        assert!(h.verifier.on_duty);
        assert_eq!(h.verifier.only_counts, 8);
        let voided =
            h.verifier.recent.iter().chain(m.verdicts.iter()).any(|v| {
                v.from.as_deref() == Some("chen") && v.token == "7" && v.outcome == WriteOutcome::RejectedStale
            });
        // The voided flag may already have scrolled out of the last three: check the trace too.
        let in_trace = s.trace().iter().any(|e| {
            matches!(&e.event, TraceEvent::WriteJudged { from: Some(f), outcome: WriteOutcome::RejectedStale, .. } if f == "chen")
        });
        assert!(voided || in_trace);
        assert!(h.boat.aground.is_none(), "with fencing on the boat stays off the rocks");
        assert_eq!(h.boat.obeys_token.as_deref(), Some("8"));

        s.run_to_end();
        let h = look(&s, &mut m);
        assert!(h.boat.aground.is_none());
    }

    #[test]
    fn without_fencing_the_boat_obeys_two_flags_and_runs_aground() {
        let mut s = sim("harbor-no-fencing");
        let mut m = HarborMemory::default();
        s.advance_to(59_999);
        let h = look(&s, &mut m);
        assert!(!h.verifier.on_duty);
        assert!(h.boat.aground.is_none(), "before Chen wakes the boat is fine");
        s.run_to_end();
        let h = look(&s, &mut m);
        let a = h.boat.aground.expect("the oracle saw the boat obey 7 after 8");
        assert_eq!((a.from.as_deref(), a.token, a.newer), (Some("chen"), 7, 8));
        assert!(a.at_ms >= 60_000);
    }

    #[test]
    fn aground_only_from_the_oracle_not_from_fencing_off_alone() {
        // Fencing off, nobody sleeps: one leader, no collision, no rocks.
        let mut s = sim("harbor-zombie");
        let mut m = HarborMemory::default();
        s.apply(Command::SetFencing { on: false }).expect("valid");
        s.advance_to(15_000);
        let h = look(&s, &mut m);
        assert!(!h.verifier.on_duty);
        assert!(h.boat.aground.is_none());
    }

    #[test]
    fn messages_in_flight_have_routes_and_progress() {
        let mut s = sim("harbor-zombie");
        let mut m = HarborMemory::default();
        // Chen's first acquire request leaves at 0 and arrives within 20..80 ms.
        s.advance_to(0);
        let h = look(&s, &mut m);
        let slip = h.flags_and_slips.first().expect("a slip in flight");
        assert_eq!(slip.route, Route::ToDockmaster { node: "chen".into() });
        assert_eq!(slip.progress, 0.0);
        s.advance_to(15);
        let h = look(&s, &mut m);
        let slip = h.flags_and_slips.first().expect("still in flight");
        assert!(slip.progress > 0.0 && slip.progress < 1.0);
        // Find a write in flight and check it goes to the verifier with its number.
        let mut seen_flag = false;
        for t in (100..4_000).step_by(5) {
            s.advance_to(t);
            let h = look(&s, &mut m);
            if let Some(f) = h.flags_and_slips.iter().find(|f| f.kind == MessageKind::Write) {
                assert_eq!(f.route, Route::ToVerifier { node: Some("chen".into()) });
                assert_eq!(f.token.as_deref(), Some("7"));
                seen_flag = true;
                break;
            }
        }
        assert!(seen_flag);
    }

    #[test]
    fn crash_partition_and_revoke_show() {
        let mut s = sim("harbor-zombie");
        let mut m = HarborMemory::default();
        s.advance_to(2_000);
        s.apply(Command::Partition { node: "lin".into(), from: crate::engine::Link::All }).expect("valid");
        s.apply(Command::Crash { node: "chen".into() }).expect("valid");
        let h = look(&s, &mut m);
        assert_eq!(bearer(&h, "chen").posture, Posture::Gone);
        assert_eq!(bearer(&h, "chen").flag, None);
        assert!(bearer(&h, "lin").cut_off);
        s.apply(Command::RevokeLease).expect("valid");
        let h = look(&s, &mut m);
        assert_eq!(h.plaque.holder, None);
        assert_eq!(h.hourglass.sand, 0.0);
        assert_eq!(h.plaque.token, Some(7), "the number stays; it only climbs");
    }

    #[test]
    fn outside_flags_are_judged_and_hostile_labels_are_short() {
        let mut s = sim("fencing-checks");
        let mut m = HarborMemory::default();
        s.advance_to(3_500);
        let h = look(&s, &mut m);
        assert!(h.bearers.is_empty());
        let last = h.verifier.recent.last().expect("a verdict");
        assert_eq!((last.from.as_deref(), last.token.as_str(), last.outcome), (None, "1", WriteOutcome::RejectedStale));
        assert_eq!(h.verifier.only_counts, 2);
        s.run_to_end();
        let h = look(&s, &mut m);
        assert_eq!(h.verifier.recent.len(), VERDICTS_KEPT);
        assert!(h.verifier.recent.iter().all(|v| v.token.chars().count() <= MAX_LABEL_CHARS));
        assert_eq!(h.verifier.only_counts, 3);
    }

    #[test]
    fn absorbing_a_new_run_starts_over() {
        let mut s = sim("harbor-zombie");
        let mut m = HarborMemory::default();
        s.advance_to(20_000);
        m.absorb(s.trace());
        assert!(m.marks > 0);
        let fresh = sim("harbor-zombie");
        m.absorb(fresh.trace());
        assert_eq!(m, HarborMemory::default());
    }

    #[test]
    fn the_voided_flag_stays_in_view_after_later_flags() {
        let mut s = sim("harbor-zombie");
        s.run_to_end();
        let mut m = HarborMemory::default();
        m.absorb(s.trace());
        let h = picture(&s.snapshot(), &m);
        assert_eq!(h.verifier.recent.len(), VERDICTS_KEPT);
        let void = h.verifier.recent.iter().find(|v| v.outcome == WriteOutcome::RejectedStale);
        let void = void.expect("Chen's voided 7 is still on the line at the end of the run");
        assert_eq!((void.from.as_deref(), void.token.as_str()), (Some("chen"), "7"));
        let last = h.verifier.recent.last().expect("verdicts");
        assert_eq!(last.from.as_deref(), Some("lin"), "newer flags still come in behind it");
    }

    /// The boat also runs aground when nobody granted the newer number it had obeyed: here two
    /// messengers from outside, with fencing off, in the field notes' order (2, then 1).
    #[test]
    fn an_older_number_obeyed_after_a_newer_one_wrecks_the_boat_even_without_grants() {
        let mut s = sim("fencing-checks");
        s.apply(Command::SetFencing { on: false }).expect("valid");
        s.advance_to(2_500);
        let mut m = HarborMemory::default();
        assert!(look(&s, &mut m).boat.aground.is_none(), "1 then 2 is in order");
        s.advance_to(3_000);
        let a = look(&s, &mut m).boat.aground.expect("1 obeyed after 2");
        assert_eq!((a.at_ms, a.from, a.token, a.newer), (3_000, None, 1, 2));
    }
}
