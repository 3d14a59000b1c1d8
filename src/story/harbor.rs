//! The harbor's telling of the shared [`Picture`] (the harbor fable): the dockmaster's plaque is
//! the record (`holderIdentity` and the number that only climbs), the hourglass the timer, the
//! marks carved on the wall the renewals of this term, the flag-bearers the actors (a raised flag
//! is a belief, its number the token), slips to and from the dockmaster the requests and
//! replies, a flag on its way a write, the flag-verifier the gate with its "only N counts" (the
//! high-water mark), and the boat the resource: it runs onto the rocks at the collision.
//!
//! What is left here is the harbor's own: its words ([`HARBOR`]) and where it puts things
//! ([`shown_flag`], [`mast_flag`], [`plaque_name_struck`]). Everything it tells is in the picture.

use super::i18n::Ui;
use super::picture::{Actor, Outcome, Picture, Posture, Telling};

/// The harbor's words for the shared picture.
pub const HARBOR: Telling = Telling {
    record_free: Ui::PlaqueNobody,
    timer_left: Ui::SandLeft,
    timer_out: Ui::SandOut,
    timer_unset: Ui::NotTurned,
    renewals: Ui::MarksOnWall,
    gate: Ui::FlagVerifier,
    gate_only: Ui::OnlyCounts,
    gate_unseen: Ui::NoNumberYet,
    gate_away: Ui::VerifierAway,
    gate_lets_all: Ui::EveryFlagObeyed,
    obeyed: Ui::Obeyed,
    refused: Ui::Void,
    duplicate: Ui::AlreadyDone,
    outsider: Ui::Outside,
    outcome_idle: Ui::BoatWaiting,
    outcome_last: Ui::BoatObeys,
    collision: Ui::OnTheRocks,
    collision_why: Ui::OnTheRocksWhy,
    asleep: Ui::Snore,
    messages: [
        Ui::MsgAcquireRequest,
        Ui::MsgAcquireReply,
        Ui::MsgRenewRequest,
        Ui::MsgRenewReply,
        Ui::MsgWrite,
        Ui::MsgReleaseRequest,
    ],
};

/// The number on the flag a flag-bearer holds: raised while he believes he leads; asleep, the
/// flag he prepared before dozing off (or the one he still believes in); none when gone.
pub fn shown_flag(a: &Actor) -> Option<u64> {
    match a.posture {
        Posture::Down => None,
        Posture::Asleep => a.prepared.or(a.belief),
        Posture::Up | Posture::NotYet => a.belief,
    }
}

/// The flag at the boat's mast: the number it obeyed last, except on the rocks, where it is the
/// older number that put it there (a newer flag obeyed afterwards does not refloat it).
pub fn mast_flag(o: &Outcome) -> Option<String> {
    match &o.collision {
        Some(c) => Some(c.token.to_string()),
        None => o.last_token.clone(),
    }
}

/// The name on the plaque is struck through once the sand has run out: it stays there until the
/// dockmaster writes another, as `holderIdentity` stays on an expired Lease.
pub fn plaque_name_struck(p: &Picture) -> bool {
    p.record.holder.is_some() && !p.record.liveness.is_live()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Command, MessageKind, Sim, TraceEvent, WriteOutcome};
    use crate::scenario::library;
    use crate::story::picture::{picture, Memory, Route, TimerState, VERDICTS_KEPT};

    fn sim(id: &str) -> Sim {
        let s = library::get(id).expect("exists").expect("parses");
        Sim::new(s.config).expect("valid")
    }

    fn look(sim: &Sim, memory: &mut Memory) -> Picture {
        memory.absorb(sim.trace());
        picture(&sim.snapshot(), memory)
    }

    fn bearer<'a>(p: &'a Picture, id: &str) -> &'a Actor {
        p.actors.iter().find(|b| b.id == id).expect("bearer")
    }

    /// Chen takes the post with 7, the hourglass drains on the coordinator's clock and each
    /// renewal carves a mark; he falls asleep at 20 s, the sand runs out, Lin gets 8; when Chen
    /// wakes his flag with 7 is voided and the verifier says "only 8 counts".
    #[test]
    fn the_harbor_zombie_story_as_pictures() {
        let mut s = sim("harbor-zombie");
        let mut m = Memory::default();

        let p = look(&s, &mut m);
        assert_eq!(p.record.holder, None);
        assert_eq!((p.timer.left, HARBOR.timer_line(&p.timer).0), (0.0, Ui::NotTurned));
        assert!(p.actors.iter().all(|b| shown_flag(b).is_none()));

        s.advance_to(1_000);
        let p = look(&s, &mut m);
        assert_eq!((p.record.holder.as_deref(), p.record.token), (Some("chen"), Some(7)));
        let b = bearer(&p, "chen");
        assert_eq!((b.posture, shown_flag(b), b.on_record, b.stale), (Posture::Up, Some(7), true, false));
        // The sand left is the lease's remaining time on the coordinator's clock.
        let expected = (s.snapshot().lease.expires_ms.expect("held") - 1_000) as f64 / 15_000.0;
        assert!((p.timer.left - expected).abs() < 1e-9, "sand {} vs {expected}", p.timer.left);
        assert!(p.timer.left > 0.9);
        assert_eq!(HARBOR.timer_line(&p.timer), (Ui::SandLeft, Some(p.timer.remaining_ms)));

        s.advance_to(19_000);
        let p = look(&s, &mut m);
        assert!(p.record.renewals >= 3, "renewals every 5 s carve marks, got {}", p.record.renewals);
        assert_eq!(p.timer.turns, p.record.renewals + 1);

        s.advance_to(25_000);
        let p = look(&s, &mut m);
        let b = bearer(&p, "chen");
        assert_eq!(b.posture, Posture::Asleep);
        assert_eq!(b.prepared, Some(7), "he fell asleep holding a prepared flag");
        assert_eq!((b.belief, shown_flag(b)), (Some(7), Some(7)), "asleep, he still believes he leads");

        s.advance_to(31_000);
        let p = look(&s, &mut m);
        assert_eq!((p.record.holder.as_deref(), p.record.token), (Some("lin"), Some(8)));
        assert_eq!(p.record.renewals, 0, "a new term starts with a clean wall");
        assert!(bearer(&p, "chen").stale, "Chen's 7 is older than the plaque's 8");
        assert!(!plaque_name_struck(&p));

        s.advance_to(61_000);
        let p = look(&s, &mut m);
        assert!(p.gate.on_duty);
        assert_eq!(HARBOR.gate_sign(&p.gate), (Ui::OnlyCounts, Some(8)));
        let in_trace = s.trace().iter().any(|e| {
            matches!(&e.event, TraceEvent::WriteJudged { from: Some(f), outcome: WriteOutcome::RejectedStale, .. } if f == "chen")
        });
        assert!(in_trace, "Chen's 7 was voided");
        assert!(p.outcome.collision.is_none(), "with fencing on the boat stays off the rocks");
        assert_eq!(mast_flag(&p.outcome).as_deref(), Some("8"));

        s.run_to_end();
        assert!(look(&s, &mut m).outcome.collision.is_none());
    }

    /// At 62 s of harbor-no-fencing Lin's 8 has been obeyed again after Chen's 7 put the boat on
    /// the rocks: the boat still flies 7, the number that wrecked it.
    #[test]
    fn the_boat_on_the_rocks_flies_the_older_number_that_put_it_there() {
        let mut s = sim("harbor-no-fencing");
        let mut m = Memory::default();
        s.advance_to(59_999);
        let p = look(&s, &mut m);
        assert!(!p.gate.on_duty && p.outcome.collision.is_none(), "before Chen wakes the boat is fine");
        assert_eq!(HARBOR.gate_sign(&p.gate), (Ui::VerifierAway, None));
        s.advance_to(62_000);
        let p = look(&s, &mut m);
        let c = p.outcome.collision.clone().expect("the oracle saw the boat obey 7 after 8");
        assert_eq!((c.from.as_deref(), c.token, c.newer), (Some("chen"), 7, 8));
        let obeyed_after: Vec<&str> = s
            .trace()
            .iter()
            .filter_map(|e| match &e.event {
                TraceEvent::WriteJudged { from: Some(f), outcome: WriteOutcome::Accepted, .. } if e.at_ms > c.at_ms => {
                    Some(f.as_str())
                }
                _ => None,
            })
            .collect();
        assert!(obeyed_after.contains(&"lin"), "Lin signalled again before 62 s: {obeyed_after:?}");
        assert_eq!(p.outcome.last_token.as_deref(), Some("8"), "the resource's last value is Lin's");
        assert_eq!(mast_flag(&p.outcome).as_deref(), Some("7"), "the wreck flies the flag that caused it");
    }

    #[test]
    fn aground_only_from_the_oracle_not_from_fencing_off_alone() {
        // Fencing off, nobody sleeps: one leader, no collision, no rocks.
        let mut s = sim("harbor-zombie");
        let mut m = Memory::default();
        s.apply(Command::SetFencing { on: false }).expect("valid");
        s.advance_to(15_000);
        let p = look(&s, &mut m);
        assert!(!p.gate.on_duty);
        assert!(p.outcome.collision.is_none());
    }

    #[test]
    fn messages_in_flight_have_routes_and_progress() {
        let mut s = sim("harbor-zombie");
        let mut m = Memory::default();
        // Chen's first acquire request leaves at 0 and arrives within 20..80 ms.
        s.advance_to(0);
        let p = look(&s, &mut m);
        let slip = p.flights.first().expect("a slip in flight");
        assert_eq!(slip.route, Route::ToRecord { node: "chen".into() });
        assert_eq!((slip.progress, slip.from()), (0.0, "chen"));
        s.advance_to(15);
        let p = look(&s, &mut m);
        let slip = p.flights.first().expect("still in flight");
        assert!(slip.progress > 0.0 && slip.progress < 1.0);
        // Find a write in flight and check it goes to the verifier with its number.
        let mut seen_flag = false;
        for t in (100..4_000).step_by(5) {
            s.advance_to(t);
            let p = look(&s, &mut m);
            if let Some(f) = p.flights.iter().find(|f| f.kind == MessageKind::Write) {
                assert_eq!(f.route, Route::ToGate { node: Some("chen".into()) });
                assert_eq!(f.token.as_deref(), Some("7"));
                assert_eq!(HARBOR.message(f.kind), Ui::MsgWrite);
                seen_flag = true;
                break;
            }
        }
        assert!(seen_flag);
    }

    #[test]
    fn crash_partition_and_revoke_show() {
        let mut s = sim("harbor-zombie");
        let mut m = Memory::default();
        s.advance_to(2_000);
        s.apply(Command::Partition { node: "lin".into(), from: crate::engine::Link::All }).expect("valid");
        s.apply(Command::Crash { node: "chen".into() }).expect("valid");
        let p = look(&s, &mut m);
        assert_eq!(bearer(&p, "chen").posture, Posture::Down);
        assert_eq!(shown_flag(bearer(&p, "chen")), None);
        assert!(bearer(&p, "lin").cut_off);
        s.apply(Command::RevokeLease).expect("valid");
        let p = look(&s, &mut m);
        assert_eq!(p.record.holder, None);
        assert_eq!((p.timer.left, p.timer.state), (0.0, TimerState::Out));
        assert_eq!(HARBOR.timer_line(&p.timer).0, Ui::SandOut, "the sand was run out");
        assert_eq!(p.record.token, Some(7), "the number stays; it only climbs");
        assert!(!plaque_name_struck(&p), "no name left to strike");
    }

    #[test]
    fn outside_flags_are_judged_and_hostile_labels_are_short() {
        let mut s = sim("fencing-checks");
        let mut m = Memory::default();
        s.advance_to(3_500);
        let p = look(&s, &mut m);
        assert!(p.actors.is_empty());
        let last = p.gate.recent.last().expect("a verdict");
        assert_eq!((last.from.as_deref(), last.token.as_str(), last.outcome), (None, "1", WriteOutcome::RejectedStale));
        assert_eq!(HARBOR.verdict(last), Ui::Void);
        assert_eq!(p.gate.mark, 2);
        s.run_to_end();
        let p = look(&s, &mut m);
        assert_eq!(p.gate.recent.len(), VERDICTS_KEPT);
        assert!(p.gate.recent.iter().all(|v| v.token.chars().count() <= crate::story::picture::MAX_LABEL_CHARS));
        assert_eq!(p.gate.mark, 3);
    }

    #[test]
    fn the_voided_flag_stays_in_view_after_later_flags() {
        let mut s = sim("harbor-zombie");
        s.run_to_end();
        let mut m = Memory::default();
        let p = look(&s, &mut m);
        assert_eq!(p.gate.recent.len(), VERDICTS_KEPT);
        let void = p.gate.recent.iter().find(|v| v.outcome == WriteOutcome::RejectedStale);
        let void = void.expect("Chen's voided 7 is still on the line at the end of the run");
        assert_eq!((void.from.as_deref(), void.token.as_str()), (Some("chen"), "7"));
        let last = p.gate.recent.last().expect("verdicts");
        assert_eq!(last.from.as_deref(), Some("lin"), "newer flags still come in behind it");
    }

    /// The boat also runs aground when nobody granted the newer number it had obeyed: here two
    /// messengers from outside, with fencing off, in the field notes' order (2, then 1).
    #[test]
    fn an_older_number_obeyed_after_a_newer_one_wrecks_the_boat_even_without_grants() {
        let mut s = sim("fencing-checks");
        s.apply(Command::SetFencing { on: false }).expect("valid");
        s.advance_to(2_500);
        let mut m = Memory::default();
        assert!(look(&s, &mut m).outcome.collision.is_none(), "1 then 2 is in order");
        s.advance_to(3_000);
        let c = look(&s, &mut m).outcome.collision.expect("1 obeyed after 2");
        assert_eq!((c.at_ms, c.from, c.token, c.newer), (3_000, None, 1, 2));
    }
}
