//! Each built-in scenario, run to its end, against the outcomes its seed document states.

mod common;

use common::*;
use leaselab::engine::{TraceEvent, Violation, WriteOutcome};
use serde_json::json;

/// Seed 000: Chen holds 7 and falls asleep; his sand runs out; the dockmaster gives the post to
/// Lin and the number jumps from 7 to 8; Chen wakes and waves a flag carrying 7; the flag-verifier,
/// who "only counts 8", ignores it.
#[test]
fn harbor_zombie_chen_seven_is_voided_after_lin_eight() {
    let s = builtin("harbor-zombie");
    let r = report(&s);
    let grants: Vec<(&str, u64)> = r.grants.iter().map(|g| (g.node.as_str(), g.token)).collect();
    assert_eq!(grants, [("chen", 7), ("lin", 8)], "7 then 8, nothing else");
    assert_eq!(r.grants[1].lease_transitions, 1, "one change of holder");

    // Lin only gets the post after Chen's sand ran out: 15 s after Chen's last mark.
    let sim = run(&s);
    let last_chen_renew = events(&sim, |e| matches!(e, TraceEvent::LeaseRenewed { node, .. } if node == "chen"))
        .last()
        .map(|e| e.at_ms)
        .expect("Chen renewed before sleeping");
    assert!(last_chen_renew < 20_000, "Chen's last mark is carved before he falls asleep at 20 s");
    assert!(r.grants[1].at_ms >= last_chen_renew + 15_000);
    let expired = events(&sim, |e| matches!(e, TraceEvent::LeaseExpired { holder, token: 7 } if holder == "chen"));
    assert_eq!(expired.len(), 1);
    assert!(expired[0].at_ms <= r.grants[1].at_ms);

    // Chen's flags before the nap all counted; the one he waves on waking, carrying 7, is void.
    let chen: Vec<_> = r.writes.iter().filter(|w| w.from.as_deref() == Some("chen")).collect();
    let (woke, before): (Vec<&&leaselab::scenario::report::Write>, Vec<_>) =
        chen.iter().partition(|w| w.sent_ms >= 60_000);
    assert!(
        !before.is_empty() && before.iter().all(|w| w.outcome == WriteOutcome::Accepted && w.token == Some(json!(7)))
    );
    assert_eq!(woke.len(), 1, "Chen waves exactly one flag on waking, then learns he was replaced");
    assert_eq!(woke[0].sent_ms, 60_000, "the prepared flag goes out the moment he wakes");
    assert_eq!(woke[0].token, Some(json!(7)));
    assert_eq!(woke[0].outcome, WriteOutcome::RejectedStale);
    assert_eq!(woke[0].high_water_after, 8, "only 8 counts");

    // Every flag from Lin counts.
    assert!(r.writes.iter().filter(|w| w.from.as_deref() == Some("lin")).all(|w| w.outcome == WriteOutcome::Accepted));
    assert!(r.violations.is_empty(), "fencing held: {:?}", r.violations);
    let f = &r.final_state;
    assert_eq!((f.holder.as_deref(), f.token, f.lease_transitions, f.high_water), (Some("lin"), Some(8), 1, 8));
    assert!(f.value.as_deref().is_some_and(|v| v.starts_with("lin#")), "the boat last obeyed Lin");
    let roles: Vec<(&str, &str)> = f.nodes.iter().map(|n| (n.id.as_str(), n.role)).collect();
    assert_eq!(roles, [("chen", "candidate"), ("lin", "leader")]);

    // The liveness cost: nobody at work from the moment Chen fell asleep until Lin learned she
    // leads: what was left of his hourglass, plus at most one retry and two messages.
    let lin_leads = events(&sim, |e| matches!(e, TraceEvent::BecameLeader { node, .. } if node == "lin"));
    assert_eq!(r.leader_gaps.len(), 1);
    let gap = &r.leader_gaps[0];
    assert_eq!((gap.from_ms, gap.to_ms, gap.open), (20_000, lin_leads[0].at_ms, false));
    assert!(gap.to_ms >= expired[0].at_ms && gap.to_ms <= expired[0].at_ms + 2_000 + 160, "{gap:?}");
    // The zombie window: from Lin learning she leads until Chen, awake, finds his deadline long
    // past. Both believed they led; fencing made it harmless.
    assert_eq!(r.dual_beliefs.len(), 1);
    let dual = &r.dual_beliefs[0];
    assert_eq!((dual.from_ms, dual.to_ms, dual.open), (lin_leads[0].at_ms, 60_000, false));
    assert_eq!(dual.nodes, ["chen", "lin"]);
}

/// Seed 000's warning: without the flag-verifier, the stale 7 is obeyed after 8 and the boat is
/// driven onto the rocks. The oracle names the collision.
#[test]
fn harbor_without_fencing_obeys_the_stale_flag_and_the_oracle_says_so() {
    let r = report(&builtin("harbor-no-fencing"));
    let grants: Vec<u64> = r.grants.iter().map(|g| g.token).collect();
    assert_eq!(grants, [7, 8]);
    let woke = r.writes.iter().find(|w| w.from.as_deref() == Some("chen") && w.sent_ms >= 60_000).expect("Chen's flag");
    assert_eq!((woke.token.clone(), woke.outcome), (Some(json!(7)), WriteOutcome::Accepted));
    // One write, two findings: it obeyed a deposed term, and the resource went backwards.
    assert_eq!(r.violations.len(), 2, "{:?}", r.violations);
    assert!(r.violations.iter().all(|v| v.at_ms == woke.arrived_ms));
    match &r.violations[0].violation {
        Violation::StaleWriteAccepted { from, token, newest_granted, resource_had_seen_newer, .. } => {
            assert_eq!(
                (from.as_deref(), *token, *newest_granted, *resource_had_seen_newer),
                (Some("chen"), 7, 8, true)
            );
        }
        other => panic!("unexpected violation {other:?}"),
    }
    match &r.violations[1].violation {
        Violation::TokenRegression { from, token, highest_before, .. } => {
            assert_eq!((from.as_deref(), *token, *highest_before), (Some("chen"), 7, 8));
        }
        other => panic!("unexpected violation {other:?}"),
    }
}

/// Seed 002's model, check by check, then the malformed tokens the issue lists.
#[test]
fn fencing_checks_follow_the_field_notes_model() {
    use WriteOutcome::*;
    let r = report(&builtin("fencing-checks"));
    let got: Vec<WriteOutcome> = r.writes.iter().map(|w| w.outcome).collect();
    assert_eq!(
        got,
        [
            Accepted,        // 1 before the resource has seen 2: issuance alone protects nothing
            Accepted,        // 2
            RejectedStale,   // 1 after 2
            Accepted,        // 2 again: the same term may write again
            RejectedInvalid, // null
            RejectedInvalid, // "2"
            RejectedInvalid, // true
            Accepted,        // 3
            RejectedStale,   // 2 after 3
            RejectedInvalid, // 0
            RejectedInvalid, // -3
            RejectedInvalid, // 3.5
            RejectedInvalid, // 2^64
            RejectedInvalid, // absent
        ]
    );
    let marks: Vec<u64> = r.writes.iter().map(|w| w.high_water_after).collect();
    assert_eq!(marks, [1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3]);
    assert_eq!(r.writes[5].token, Some(json!("2")), "the report keeps the token exactly as sent");
    assert_eq!(r.writes[4].token, Some(json!(null)));
    assert_eq!(r.writes[13].token, None, "an absent token stays absent");
    assert_eq!((r.final_state.high_water, r.final_state.value.as_deref()), (3, Some("newest")));
    assert!(r.writes.iter().filter(|w| w.outcome != Accepted).all(|w| w.value == "must-not-land"));
}

/// Seed 004's timeline: A gets 41 with a 10 s lease and pauses 30 s; the lease expires; B gets
/// 42 and the storage accepts; A resumes with 41 and the storage rejects.
#[test]
fn gc_pause_41_42_timeline() {
    let s = builtin("gc-pause-41-42");
    let r = report(&s);
    let grants: Vec<(&str, u64)> = r.grants.iter().map(|g| (g.node.as_str(), g.token)).collect();
    assert_eq!(grants, [("a", 41), ("b", 42)]);
    let sim = run(&s);
    let expiry = events(&sim, |e| matches!(e, TraceEvent::LeaseExpired { token: 41, .. }));
    assert_eq!(expiry.len(), 1, "t2: lease expires");
    assert!(expiry[0].at_ms < 34_000, "while A is still paused");
    assert!(expiry[0].at_ms <= r.grants[1].at_ms, "t3 comes after t2");
    let b_first = r.writes.iter().find(|w| w.from.as_deref() == Some("b")).expect("B writes");
    assert_eq!((b_first.token.clone(), b_first.outcome), (Some(json!(42)), WriteOutcome::Accepted));
    let a_late =
        r.writes.iter().find(|w| w.from.as_deref() == Some("a") && w.sent_ms >= 34_000).expect("A writes on resume");
    assert_eq!(a_late.sent_ms, 34_000, "A resumes after exactly 30 s and sends at once");
    assert_eq!(
        (a_late.token.clone(), a_late.outcome, a_late.high_water_after),
        (Some(json!(41)), WriteOutcome::RejectedStale, 42)
    );
    assert!(a_late.arrived_ms > b_first.arrived_ms);
    assert!(r.violations.is_empty());
    assert_eq!((r.final_state.holder.as_deref(), r.final_state.high_water), (Some("b"), 42));
}

/// Every built-in names the store it reproduces (`"store": {"kind": …}`) rather than leaning on
/// the default, and its summary tells the story of that store: an etcd one says etcd.
#[test]
fn every_builtin_names_its_store_profile() {
    for id in leaselab::scenario::library::ids() {
        let (_, json) = leaselab::scenario::library::FILES.iter().find(|(i, _)| *i == id).expect("file");
        let file: serde_json::Value = serde_json::from_str(json).expect("JSON");
        let kind = file["store"]["kind"].as_str().unwrap_or_else(|| panic!("{id} does not name its store"));
        let s = builtin(id);
        assert_eq!(s.config.store_kind.code(), kind, "{id}");
        if kind == "etcd" {
            assert!(s.summary.as_ref().is_some_and(|t| t.en.contains("etcd") && t.zh.contains("etcd")), "{id}");
        }
    }
}

#[test]
fn every_builtin_has_titles_and_summaries_in_both_languages() {
    for id in leaselab::scenario::library::ids() {
        let s = builtin(id);
        assert_eq!(s.id, id, "file id matches its library id");
        for text in [s.title.as_ref(), s.summary.as_ref()] {
            let t = text.unwrap_or_else(|| panic!("{id} lacks a title or summary"));
            assert!(!t.en.trim().is_empty(), "{id}");
            assert!(t.zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{id}: zh is not Chinese");
        }
    }
}
