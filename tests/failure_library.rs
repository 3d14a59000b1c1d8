//! The failure library: built-in scenarios that replay public failure reports (cases of
//! `shared/reference/semantics-and-failures.md`), each against the outcome the report states.

mod common;

use common::*;
use leaselab::engine::{Violation, WriteOutcome};
use serde_json::json;

/// C3 (etcd-io/etcd#10811), both orders from the same seed: A's late 41 is refused if the
/// resource saw B's 42 first, and accepted if it arrives first.
#[test]
fn c3_a_deposed_41_is_refused_or_accepted_by_arrival_order() {
    let refused = report(&builtin("deposed-41-refused"));
    let accepted = report(&builtin("deposed-41-accepted"));
    for r in [&refused, &accepted] {
        let grants: Vec<(&str, u64)> = r.grants.iter().map(|g| (g.node.as_str(), g.token)).collect();
        assert_eq!(grants, [("a", 41), ("b", 42)], "the same grants in both runs");
    }
    let late = |r: &leaselab::scenario::Report| {
        r.writes.iter().find(|w| w.from.as_deref() == Some("a") && w.sent_ms >= 16_000).cloned().expect("A writes on waking")
    };
    let (r41, a41) = (late(&refused), late(&accepted));
    assert_eq!((r41.token, r41.outcome, r41.high_water_after), (Some(json!(41)), WriteOutcome::RejectedStale, 42));
    assert_eq!((a41.token, a41.outcome, a41.high_water_after), (Some(json!(41)), WriteOutcome::Accepted, 41));
    let first_42 = |r: &leaselab::scenario::Report| {
        r.writes.iter().find(|w| w.token == Some(json!(42))).map(|w| w.arrived_ms).expect("B writes")
    };
    assert!(first_42(&refused) < r41.arrived_ms);
    assert!(first_42(&accepted) > a41.arrived_ms, "the delayed 42 arrives after the 41");
    assert!(refused.violations.is_empty());
    assert_eq!(kinds(&accepted), ["stale_write_accepted"]);
    // The violation points at A's write and at both terms: 41 (A's) and 42 (B's).
    let v = &accepted.violations[0];
    assert_eq!(accepted.writes[v.write.expect("a write caused it")].arrived_ms, a41.arrived_ms);
    let terms: Vec<u64> = v.grants.iter().map(|&g| accepted.grants[g].token).collect();
    assert_eq!(terms, [41, 42]);
    assert!(matches!(
        accepted.violations[0].violation,
        Violation::StaleWriteAccepted { token: 41, newest_granted: 42, resource_had_seen_newer: false, .. }
    ));
}

/// C21 (oxia-db/oxia#87): a mark kept in memory is lost on restart and the old leader's token
/// passes again; with a durable mark it is refused.
#[test]
fn c21_a_lost_high_water_mark_lets_the_old_leader_back_in() {
    let s = builtin("lost-high-water-mark");
    let r = report(&s);
    let grants: Vec<u64> = r.grants.iter().map(|g| g.token).collect();
    assert_eq!(grants, [4, 5]);
    let woke = r.writes.iter().find(|w| w.from.as_deref() == Some("chen") && w.sent_ms >= 40_500).expect("Chen wakes");
    assert_eq!((woke.token.clone(), woke.outcome), (Some(json!(4)), WriteOutcome::Accepted));
    assert_eq!(kinds(&r), ["stale_write_accepted", "token_regression"]);

    let mut durable = s.clone();
    durable.config.resource.persist_high_water = true;
    let d = report(&durable);
    let woke = d.writes.iter().find(|w| w.from.as_deref() == Some("chen") && w.sent_ms >= 40_500).expect("Chen wakes");
    assert_eq!(woke.outcome, WriteOutcome::RejectedStale);
    assert!(d.violations.is_empty());
}

/// C20 (etcd-io/etcd#16028): the issuer restored from an old backup hands the next holder a
/// token below the resource's mark; safe, but the new holder can never write.
#[test]
fn c20_a_rolled_back_issuer_is_a_liveness_failure() {
    let r = report(&builtin("issuer-rollback"));
    let grants: Vec<(&str, u64)> = r.grants.iter().map(|g| (g.node.as_str(), g.token)).collect();
    assert_eq!(grants, [("a", 1000), ("b", 905)]);
    let b: Vec<&leaselab::scenario::report::Write> = r.writes.iter().filter(|w| w.from.as_deref() == Some("b")).collect();
    assert!(b.len() >= 5 && b.iter().all(|w| w.outcome == WriteOutcome::RejectedStale));
    assert_eq!((r.final_state.holder.as_deref(), r.final_state.high_water), (Some("b"), 1000));
    assert!(r.violations.is_empty());
}

/// C19 (yugabyte/yugabyte-db#33653): a retried write with the same token and op id lands twice
/// under a plain fence; a deduplicating resource applies it once.
#[test]
fn c19_a_retried_write_needs_deduplication_not_fencing() {
    let s = builtin("retried-write");
    let r = report(&s);
    let outcomes: Vec<WriteOutcome> = r.writes.iter().map(|w| w.outcome).collect();
    assert_eq!(outcomes, [WriteOutcome::Accepted; 3]);
    assert_eq!(kinds(&r), ["duplicate_side_effect"]);
    assert_eq!((r.violations[0].write, r.violations[0].earlier_writes.clone()), (Some(1), vec![0]), "the retry, and the first application");

    let mut dedupe = s.clone();
    dedupe.config.resource.equal_token = leaselab::engine::EqualTokenPolicy::Dedupe;
    let d = report(&dedupe);
    let outcomes: Vec<WriteOutcome> = d.writes.iter().map(|w| w.outcome).collect();
    assert_eq!(outcomes, [WriteOutcome::Accepted, WriteOutcome::Duplicate, WriteOutcome::Accepted]);
    assert!(d.violations.is_empty());
}

/// C22 (bsm/redislock#94, Hazelcast `INVALID_FENCE = 0`): no token, 0 or null fails closed;
/// only with fencing off do they land, each reported as an invalid token accepted.
#[test]
fn c22_a_missing_or_zero_token_fails_closed() {
    let r = report(&builtin("missing-token"));
    let got: Vec<(Option<serde_json::Value>, WriteOutcome, u64)> =
        r.writes.iter().map(|w| (w.token.clone(), w.outcome, w.high_water_after)).collect();
    use WriteOutcome::*;
    assert_eq!(
        got,
        [
            (Some(json!(42)), Accepted, 42),
            (None, RejectedInvalid, 42),
            (Some(json!(0)), RejectedInvalid, 42),
            (Some(json!(null)), RejectedInvalid, 42),
            (None, Accepted, 42),
            (Some(json!(0)), Accepted, 42),
            (Some(json!(null)), Accepted, 42),
        ]
    );
    assert_eq!(kinds(&r), ["invalid_token_accepted"; 3]);
    assert!(r.violations.iter().all(|v| v.at_ms >= 6_000), "nothing slipped through while fencing was on");
}

/// C4 (etcd-io/etcd#11788): an equality check on lease ids refuses the revoked client 1, but
/// also the newer legitimate client 3; an ordered fence accepts client 3.
#[test]
fn c4_an_equality_fence_locks_out_the_newer_holder() {
    let s = builtin("equality-fence");
    let r = report(&s);
    let got: Vec<(&str, WriteOutcome)> = r.writes.iter().map(|w| (w.value.as_str(), w.outcome)).collect();
    use WriteOutcome::*;
    assert_eq!(
        got,
        [("client 2", Accepted), ("client 1 (revoked)", RejectedStale), ("client 3", RejectedStale), ("client 2 again", Accepted)]
    );
    let mut ordered = s.clone();
    ordered.config.resource.token_check = leaselab::engine::TokenCheck::Ordered;
    let o = report(&ordered);
    let got: Vec<WriteOutcome> = o.writes.iter().map(|w| w.outcome).collect();
    assert_eq!(got, [Accepted, RejectedStale, Accepted, RejectedStale], "ordered: 3 starts a newer term and fences 2");
}

/// Every failure-library scenario names its public source in its explanation.
#[test]
fn failure_scenarios_name_their_sources() {
    for (id, source) in [
        ("deposed-41-refused", "etcd-io/etcd#10811"),
        ("deposed-41-accepted", "etcd-io/etcd#10811"),
        ("lost-high-water-mark", "oxia-db/oxia#87"),
        ("issuer-rollback", "etcd-io/etcd#16028"),
        ("retried-write", "yugabyte/yugabyte-db#33653"),
        ("missing-token", "bsm/redislock#94"),
        ("equality-fence", "etcd-io/etcd#11788"),
    ] {
        let s = builtin(id);
        let summary = s.summary.expect("has a summary");
        assert!(summary.en.contains(source) && summary.zh.contains(source), "{id} should cite {source}");
    }
}

/// Seed 001's trade-off, liveness side: with a 60 s lease, a crash leaves the harbor without a
/// leader at work until the sand runs out, about 50 s.
#[test]
fn a_long_ttl_means_a_long_gap_after_a_crash() {
    let r = report(&builtin("ttl-too-long"));
    assert_eq!(r.leader_gaps.len(), 1);
    let gap = &r.leader_gaps[0];
    let chen_grant = r.grants[0].at_ms;
    assert_eq!(gap.from_ms, 10_000, "the gap starts with the crash");
    // Lin can take over only once Chen's 60 s (counted from his last renewal, the grant itself)
    // have run out, at her next retry (2 s), plus two messages.
    assert!(gap.to_ms >= chen_grant + 60_000 && gap.to_ms <= chen_grant + 60_000 + 2_000 + 160, "{gap:?}");
    assert!(r.violations.is_empty());
}

/// The churn side: a 400 ms lease against up to 300 ms of latency. Nothing fails, yet nobody is
/// at work for most of the run.
#[test]
fn a_ttl_near_the_latency_churns() {
    let s = builtin("ttl-too-short");
    assert!(s.config.events.is_empty(), "no fault is injected");
    let r = report(&s);
    let idle: u64 = r.leader_gaps.iter().map(|g| g.length_ms).sum();
    assert!(r.leader_gaps.len() >= 10, "{} gaps", r.leader_gaps.len());
    assert!(idle > s.config.until_ms / 2, "idle {idle} ms of {}", s.config.until_ms);
    assert!(r.violations.is_empty(), "fencing keeps it safe");

    let long = report(&builtin("ttl-too-long"));
    let long_idle: u64 = long.leader_gaps.iter().map(|g| g.length_ms).sum();
    assert!(long_idle * 100 / long.until_ms < idle * 100 / r.until_ms, "the short TTL wastes a larger share of the run");
}
