//! The failure library: built-in scenarios that replay public failure reports (cases of
//! `shared/reference/semantics-and-failures.md`), each against the outcome the report states.

mod common;

use common::*;
use leaselab::engine::{ReleaseOutcome, StepDownReason, StoreKind, TraceEvent, Violation, WriteOutcome};
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
        r.writes
            .iter()
            .find(|w| w.from.as_deref() == Some("a") && w.sent_ms >= 16_000)
            .cloned()
            .expect("A writes on waking")
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
    // By its mark the resource had not seen 5, but it had accepted 5 before the restart: the
    // finding says it forgot, not that it had not seen the newer term yet.
    assert!(matches!(
        r.violations[0].violation,
        Violation::StaleWriteAccepted {
            token: 4,
            newest_granted: 5,
            resource_had_seen_newer: false,
            resource_forgot_newer: true,
            ..
        }
    ));

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
    let b: Vec<&leaselab::scenario::report::Write> =
        r.writes.iter().filter(|w| w.from.as_deref() == Some("b")).collect();
    assert!(b.len() >= 5 && b.iter().all(|w| w.outcome == WriteOutcome::RejectedStale));
    // Each of those refusals shuts out the newest term, and the report says so.
    assert!(b.iter().all(|w| w.blocked == Some(leaselab::engine::Blocked::IssuerBehind)));
    assert!(r.writes.iter().filter(|w| w.from.as_deref() == Some("a")).all(|w| w.blocked.is_none()));
    assert_eq!((r.final_state.holder.as_deref(), r.final_state.high_water), (Some("b"), 1000));
    assert!(r.violations.is_empty());

    // With the counter kept ahead (no rollback), B's 1001 passes and nothing is blocked.
    let mut kept = builtin("issuer-rollback");
    kept.config.events.retain(|e| !matches!(e.command, leaselab::engine::Command::RollbackIssuer { .. }));
    let k = report(&kept);
    assert!(k.writes.iter().filter(|w| w.from.as_deref() == Some("b")).all(|w| w.outcome == WriteOutcome::Accepted));
    assert!(k.writes.iter().all(|w| w.blocked.is_none()));
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
    assert_eq!(
        (r.violations[0].write, r.violations[0].earlier_writes.clone()),
        (Some(1), vec![0]),
        "the retry, and the first application"
    );

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
        [
            ("client 2", Accepted),
            ("client 1 (revoked)", RejectedStale),
            ("client 3", RejectedStale),
            ("client 2 again", Accepted)
        ]
    );
    let mut ordered = s.clone();
    ordered.config.resource.token_check = leaselab::engine::TokenCheck::Ordered;
    let o = report(&ordered);
    let got: Vec<WriteOutcome> = o.writes.iter().map(|w| w.outcome).collect();
    assert_eq!(got, [Accepted, RejectedStale, Accepted, RejectedStale], "ordered: 3 starts a newer term and fences 2");
}

/// Every failure-library scenario's public source is named where engineers look for it, the
/// table of built-ins in docs/scenarios.md; the learner reads the story without issue numbers.
#[test]
fn failure_scenarios_name_their_sources() {
    let table =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenarios.md")).expect("docs/scenarios.md");
    for (id, source) in [
        ("deposed-41-refused", "etcd-io/etcd#10811"),
        ("deposed-41-accepted", "etcd-io/etcd#10811"),
        ("lost-high-water-mark", "oxia-db/oxia#87"),
        ("issuer-rollback", "etcd-io/etcd#16028"),
        ("retried-write", "yugabyte/yugabyte-db#33653"),
        ("missing-token", "bsm/redislock#94"),
        ("equality-fence", "etcd-io/etcd#11788"),
        ("deposed-41-barrier", "KAFKA-6082"),
        ("lock-late-del", "abelaska/jedis-lock#2"),
        ("lock-late-del-etcd", "LeaseKeepAlive"),
        ("lock-owner-release", "redis/redis-py#1031"),
        ("store-clock-jump", "valkey-io/valkey#2651"),
        ("lock-session-expired", "etcd-io/etcd#11456"),
        ("lock-session-unchecked", "etcd-io/etcd#11456"),
        ("observer-full-wait", "kubernetes/client-go#448"),
        ("observer-rate-skew", "kubernetes/client-go#448"),
        ("observer-offset", "kubernetes/client-go#448"),
        ("duplicate-identity", "kubernetes/kubernetes#30015"),
        ("counter-reset", "kubernetes/kubernetes#41956"),
        ("work-outlives-lease", "kubernetes/kubernetes#82960"),
        ("retried-write-dedupe", "yugabyte/yugabyte-db#33653"),
        ("foreign-token-per-lock", "C23"),
        ("foreign-token-global", "C23"),
        ("duplicated-write", "yugabyte/yugabyte-db#33653"),
        ("reordered-writes", "How to do distributed locking"),
        ("lost-grant-reply", "C19"),
        ("lock-client-judged", "awslabs/amazon-dynamodb-lock-client"),
    ] {
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("| `{id}` |")))
            .unwrap_or_else(|| panic!("{id} in docs/scenarios.md"));
        assert!(row.contains(source), "docs/scenarios.md should cite {source} for {id}: {row}");
        let summary = builtin(id).summary.expect("has a summary");
        assert!(!summary.en.contains(source) && !summary.zh.contains(source), "{id}: the story cites {source}");
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
    // A crashed leader does nothing: nobody acted during this gap.
    assert!(gap.stale_work.is_empty() && gap.writes_accepted == 0, "{gap:?}");
}

/// A gap with no leader is not always a gap with nobody acting: in work-outlives-lease Chen's
/// renew loop gives up but his work goes on with token 1, and the resource accepts it until it
/// sees Lin's 2 (kubernetes/kubernetes#82960). The report names him in the gap and counts the
/// writes that landed meanwhile, so nobody reads that gap as quiet.
#[test]
fn a_gap_with_stale_work_going_on_is_told_apart() {
    let r = report(&builtin("work-outlives-lease"));
    assert_eq!(r.leader_gaps.len(), 1);
    let gap = &r.leader_gaps[0];
    assert_eq!(gap.stale_work, ["chen"], "{gap:?}");
    let landed = r
        .writes
        .iter()
        .filter(|w| w.outcome == WriteOutcome::Accepted && w.arrived_ms > gap.from_ms && w.arrived_ms < gap.to_ms)
        .inspect(|w| assert_eq!((w.from.as_deref(), w.token.clone()), (Some("chen"), Some(json!(1)))))
        .count();
    assert!(landed >= 1, "Chen's old work landed with nobody leading");
    assert_eq!(gap.writes_accepted, landed as u64);
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
    assert!(
        long_idle * 100 / long.until_ms < idle * 100 / r.until_ms,
        "the short TTL wastes a larger share of the run"
    );
}

/// The epoch barrier (seed `002`'s window, KAFKA-6082's epoch znode): the run of
/// `deposed-41-accepted`, where A's 41 reaches the resource before B's first 42, is refused once
/// the grant of 42 raises the mark itself.
#[test]
fn an_epoch_barrier_refuses_the_41_that_arrives_first() {
    let r = report(&builtin("deposed-41-barrier"));
    let grants: Vec<u64> = r.grants.iter().map(|g| g.token).collect();
    assert_eq!(grants, [41, 42]);
    let late =
        r.writes.iter().find(|w| w.from.as_deref() == Some("a") && w.sent_ms >= 16_000).expect("A writes on waking");
    let first_42 = r.writes.iter().find(|w| w.token == Some(json!(42))).expect("B writes");
    assert!(late.arrived_ms < first_42.arrived_ms, "the 41 still arrives first");
    assert_eq!((late.outcome, late.high_water_after), (WriteOutcome::RejectedStale, 42));
    assert!(r.violations.is_empty());
}

/// C8 (abelaska/jedis-lock#2) and C7 (redis/redis-py#1031): a release without the owner check
/// deletes the lock of whoever holds it now; the owner-checked release changes nothing.
#[test]
fn c8_a_plain_del_deletes_another_clients_lock_and_the_owner_check_does_not() {
    let del = report(&builtin("lock-late-del"));
    // A held 1 and froze; B took the expired lock with 2; A's release on waking deleted B's key.
    assert_eq!((del.grants[0].node.as_str(), del.grants[0].token), ("a", 1));
    assert_eq!((del.grants[1].node.as_str(), del.grants[1].token), ("b", 2));
    let first = &del.releases[0];
    assert_eq!((first.node.as_str(), first.token), ("a", 1));
    assert_eq!(first.outcome, ReleaseOutcome::DeletedOthers { holder: "b".into(), token: 2 });
    assert_eq!(kinds(&del)[0], "lock_deleted_by_non_owner");
    let v = &del.violations[0];
    assert_eq!((v.write, v.release), (None, Some(0)));
    assert_eq!(v.grants.iter().map(|&g| del.grants[g].token).collect::<Vec<_>>(), [2], "the term that lost its lock");
    // With B's key gone, the next SET NX succeeds while B still believes: C gets 3.
    assert_eq!((del.grants[2].node.as_str(), del.grants[2].token), ("c", 3));
    assert!(del.grants[2].at_ms > first.at_ms);
    // A's own stale write on waking was refused by the fence: the mark was already 2.
    let woke =
        del.writes.iter().find(|w| w.from.as_deref() == Some("a") && w.sent_ms >= 8_000).expect("A's prepared write");
    assert_eq!((woke.token.clone(), woke.outcome), (Some(json!(1)), WriteOutcome::RejectedStale));

    let owner = report(&builtin("lock-owner-release"));
    assert_eq!(owner.releases[0].outcome, ReleaseOutcome::NotOwner { holder: Some("b".into()) });
    assert!(owner.violations.is_empty());
    let tokens: Vec<u64> = owner.grants.iter().map(|g| g.token).collect();
    assert_eq!(tokens, [1, 2], "B keeps the lock; C's SET NX keeps failing");
    assert_eq!(owner.final_state.holder.as_deref(), Some("b"));
}

/// The same late plain delete on both stores. On Redis the victim's renewal is a compare-and-
/// `PEXPIRE` on its key, so it learns it lost the lock at its next renewal; on etcd a renewal is a
/// `LeaseKeepAlive` of its lease, which the delete left alive, so every keepalive succeeds and it
/// never learns (etcd's lease API renews a lease id, not a key).
#[test]
fn a_late_plain_del_is_noticed_on_redis_and_never_on_etcd() {
    let redis = builtin("lock-late-del");
    let etcd = builtin("lock-late-del-etcd");
    assert_eq!((redis.config.store_kind, etcd.config.store_kind), (StoreKind::Redis, StoreKind::Etcd));
    let mut same = etcd.config.clone();
    same.store_kind = StoreKind::Redis;
    // Each store's usual client: etcd's checks its session on a late grant, redis-py's does not.
    assert!(same.lock.session_check && !redis.config.lock.session_check);
    same.lock.session_check = false;
    assert_eq!(same, redis.config, "the pair differs only in its store");

    let victim_learns = |s: &leaselab::scenario::Scenario| {
        let sim = run(s);
        let deleted = events(&sim, |e| {
            matches!(e, TraceEvent::LockReleased { outcome: ReleaseOutcome::DeletedOthers { .. }, .. })
        });
        let ReleaseOutcome::DeletedOthers { holder, token } = (match &deleted[0].event {
            TraceEvent::LockReleased { outcome, .. } => outcome.clone(),
            _ => unreachable!(),
        }) else {
            unreachable!()
        };
        let after = deleted[0].at_ms;
        let refused = events(
            &sim,
            |e| matches!(e, TraceEvent::RenewRefused { node, token: t, .. } if *node == holder && *t == token),
        );
        let renewed = events(
            &sim,
            |e| matches!(e, TraceEvent::LeaseRenewed { node, token: t, .. } if *node == holder && *t == token),
        );
        (refused.iter().any(|e| e.at_ms > after), renewed.iter().filter(|e| e.at_ms > after).count())
    };
    let (redis_refused, _) = victim_learns(&redis);
    assert!(redis_refused, "on Redis the victim's compare-and-PEXPIRE is refused");
    let (etcd_refused, etcd_renewed) = victim_learns(&etcd);
    assert!(!etcd_refused, "on etcd no keepalive of the victim is refused");
    assert!(etcd_renewed >= 3, "its keepalives go on succeeding ({etcd_renewed})");
    let r = report(&etcd);
    let open = r.dual_beliefs.last().expect("two believers");
    assert!(open.open && open.nodes == ["b", "c"], "B and C both believe they hold it when the run ends: {open:?}");
    assert!(kinds(&r).iter().all(|k| *k == "lock_deleted_by_non_owner"), "the fence kept B's writes out");
}

/// C9 (valkey-io/valkey#2651, redis/redis#416): the store's clock steps forward a day, the key
/// expires at once, B acquires while A keeps working; only the fence stops A.
#[test]
fn c9_a_store_clock_jump_expires_the_lock_at_once() {
    let s = builtin("store-clock-jump");
    let sim = run(&s);
    let expired = events(&sim, |e| matches!(e, TraceEvent::LeaseExpired { .. }));
    assert_eq!(expired[0].at_ms, 3_000, "expired at the jump, not at 30 s");
    let r = report(&s);
    assert_eq!(r.grants.len(), 2);
    let b = &r.grants[1];
    assert_eq!((b.node.as_str(), b.token), ("b", 2));
    assert!(b.at_ms > 3_000 && b.at_ms < 3_000 + s.config.lease.retry_every_ms + 200, "B's next SET NX succeeds");
    // A's lease would have run to about 30 s; it keeps writing with 1 until its renewal is refused.
    let a_after: Vec<&leaselab::scenario::report::Write> =
        r.writes.iter().filter(|w| w.from.as_deref() == Some("a") && w.arrived_ms > 3_000).collect();
    assert!(a_after.len() >= 4, "A keeps working after its key expired");
    let b_first = r.writes.iter().find(|w| w.from.as_deref() == Some("b")).expect("B writes").arrived_ms;
    for w in &a_after {
        let expected = if w.arrived_ms > b_first { WriteOutcome::RejectedStale } else { WriteOutcome::Accepted };
        assert_eq!(w.outcome, expected, "{}", w.op_id);
    }
    assert!(r.violations.is_empty(), "no write with 1 landed after 2 was granted and seen");
}

/// C1/C2 (etcd-io/etcd#11456, #9921): a grant that reaches a waiter after its own lease ran out.
/// The fixed client gives up (ErrSessionExpired) and never writes; the old one writes with its
/// stale token and the fence refuses it because the resource has seen the newer one.
#[test]
fn c1_a_late_grant_after_the_session_expired() {
    let fixed = builtin("lock-session-expired");
    assert_eq!(fixed.config.store_kind, StoreKind::Etcd, "the fixed client is etcd's");
    let r = report(&fixed);
    // etcd's tokens are its revisions: a fresh store's first write is revision 2, and every write
    // takes the next one: A's grant (2), A's write to the resource (3), A's release (4), B's grant.
    assert_eq!((r.grants[0].node.as_str(), r.grants[0].token), ("a", 2));
    assert_eq!((r.grants[1].node.as_str(), r.grants[1].token), ("b", 5));
    let b_token = r.grants[1].token;
    let (c_node, c_token) = (r.grants[2].node.as_str(), r.grants[2].token);
    assert_eq!(c_node, "c");
    assert!(c_token > b_token + 1, "the lessor's delete of B's key took a revision between them");
    let sim = run(&fixed);
    let gave_up = events(
        &sim,
        |e| matches!(e, TraceEvent::SteppedDown { node, token, reason: StepDownReason::SessionExpired } if node == "b" && *token == b_token),
    );
    assert_eq!(gave_up.len(), 1);
    // It never believed it held the lock: no became_leader for B with its token.
    let believed =
        events(&sim, |e| matches!(e, TraceEvent::BecameLeader { node, token } if node == "b" && *token == b_token));
    assert!(believed.is_empty());
    assert!(r.writes.iter().all(|w| w.token != Some(json!(b_token))), "B never writes with its token");
    let b_release = r.releases.iter().find(|x| x.node == "b").expect("B releases");
    assert_eq!(b_release.outcome, ReleaseOutcome::NotOwner { holder: Some("c".into()) });

    let old = report(&builtin("lock-session-unchecked"));
    let w2 = old.writes.iter().find(|w| w.token == Some(json!(2))).expect("the old client writes with 2");
    assert_eq!((w2.from.as_deref(), w2.outcome, w2.high_water_after), (Some("b"), WriteOutcome::RejectedStale, 3));
    assert!(old.violations.is_empty());
    assert!(!old.dual_beliefs.is_empty(), "B and C both believed they held the lock");
}

/// C10 (kubernetes/client-go#448): a candidate that starts long after the leader died still
/// waits a full leaseDurationSeconds from its own first observation.
#[test]
fn c10_a_standby_waits_a_full_lease_from_its_first_observation() {
    let s = builtin("observer-full-wait");
    let r = report(&s);
    let lin = r.grants.iter().find(|g| g.node == "lin").expect("Lin takes over");
    let start = 100_000;
    let lease = s.config.lease;
    assert!(lin.at_ms >= start + lease.duration_ms, "not before observedTime + 15 s (at {})", lin.at_ms);
    // Within one jittered retry (up to 2.2 × RetryPeriod) plus two message latencies.
    assert!(lin.at_ms <= start + lease.duration_ms + lease.retry_every_ms * 22 / 10 + 2 * 80 + 80, "at {}", lin.at_ms);
    assert_eq!(lin.lease_transitions, 1);
}

/// Observer expiry tolerates a clock offset but not a rate skew (kubernetes/client-go#448):
/// with Lin's clock at 3×, Lin takes over while Chen is frozen inside its renew deadline; with
/// Lin's clock an hour ahead, nothing changes hands.
#[test]
fn observer_expiry_tolerates_offset_but_not_rate_skew() {
    let skew = report(&builtin("observer-rate-skew"));
    let lin = skew.grants.iter().find(|g| g.node == "lin").expect("Lin takes over early");
    assert!(lin.at_ms > 20_300 && lin.at_ms < 29_300, "during Chen's freeze (at {})", lin.at_ms);
    assert!(skew
        .dual_beliefs
        .iter()
        .any(|d| d.nodes.contains(&"chen".to_owned()) && d.nodes.contains(&"lin".to_owned())));
    let woke = skew
        .writes
        .iter()
        .find(|w| w.from.as_deref() == Some("chen") && w.sent_ms >= 29_300)
        .expect("Chen's prepared write");
    assert_eq!(woke.outcome, WriteOutcome::RejectedStale);

    let offset = report(&builtin("observer-offset"));
    assert_eq!(offset.grants.len(), 1, "only Chen's first grant");
    assert_eq!(offset.final_state.holder.as_deref(), Some("chen"));
    assert!(offset.dual_beliefs.is_empty());
}

/// C12 (kubernetes/kubernetes#30015): two processes with one identity both lead, all run long,
/// and leaseTransitions never moves; the fence cannot tell them apart.
#[test]
fn c12_a_shared_identity_makes_two_leaders() {
    let s = builtin("duplicate-identity");
    let r = report(&s);
    assert_eq!(r.grants.len(), 1, "the second master re-acquires the same term");
    assert_eq!(r.final_state.lease_transitions, 0);
    let both: u64 = r.dual_beliefs.iter().map(|d| d.length_ms).sum();
    assert!(both > (s.config.until_ms - 3_200) * 9 / 10, "both lead for almost the whole run ({both} ms)");
    for node in ["master-1", "master-2"] {
        let accepted =
            r.writes.iter().filter(|w| w.from.as_deref() == Some(node) && w.outcome == WriteOutcome::Accepted).count();
        assert!(accepted >= 5, "{node} does its work unhindered");
    }
}

/// C13 (kubernetes/kubernetes#41956): a counter rewritten as 0 on renew is refused by a fence
/// that had seen 1; the correct counter (1 on renew, 2 at the next takeover) passes.
#[test]
fn c13_a_counter_reset_to_zero_is_refused() {
    let r = report(&builtin("counter-reset"));
    let seen: Vec<(&str, WriteOutcome, u64)> =
        r.writes.iter().map(|w| (w.op_id.as_str(), w.outcome, w.high_water_after)).collect();
    assert_eq!(
        seen,
        [
            ("takeover", WriteOutcome::Accepted, 1),
            ("renew-buggy", WriteOutcome::RejectedInvalid, 1),
            ("renew", WriteOutcome::Accepted, 1),
            ("next-takeover", WriteOutcome::Accepted, 2),
        ]
    );
}

/// C14/C15 (kubernetes/kubernetes#82960, vmware/pinniped#800): cut off from the coordinator, the
/// leader's renew deadline passes and it stops leading, but its work keeps writing with the old
/// token; the fence refuses it once the new token is seen.
#[test]
fn c14_work_that_outlives_its_lease_is_fenced() {
    let s = builtin("work-outlives-lease");
    let sim = run(&s);
    let gave_up = events(
        &sim,
        |e| matches!(e, TraceEvent::SteppedDown { node, reason: StepDownReason::RenewDeadline, .. } if node == "chen"),
    );
    // Cut from the coordinator at 10 s: no renewal confirmed after the one sent at about 10 s -
    // 5 s, so the 10 s renew deadline passes at about 15 s, and the work goes on.
    assert!((14_000..=16_000).contains(&gave_up[0].at_ms), "gave up at {}", gave_up[0].at_ms);
    assert_eq!(events(&sim, |e| matches!(e, TraceEvent::WorkContinues { node, token: 1 } if node == "chen")).len(), 1);
    let r = report(&s);
    let lin = r.grants.iter().find(|g| g.node == "lin").expect("Lin takes over");
    assert_eq!(lin.token, 2);
    let lin_first = r.writes.iter().find(|w| w.from.as_deref() == Some("lin")).expect("Lin writes").arrived_ms;
    let zombie: Vec<_> =
        r.writes.iter().filter(|w| w.from.as_deref() == Some("chen") && w.arrived_ms > lin_first).collect();
    assert!(zombie.len() >= 5, "Chen's work goes on");
    assert!(zombie.iter().all(|w| w.outcome == WriteOutcome::RejectedStale));
    assert!(r.violations.is_empty());
    // Without fencing, the same work lands after the new holder's: stale writes accepted.
    let mut off = s.clone();
    off.config.resource.fencing = false;
    let r = report(&off);
    assert!(kinds(&r).contains(&"stale_write_accepted"));
}

/// C19 with the fix: deduplication by operation id applies a retry once.
#[test]
fn c19_deduplication_applies_a_retry_once() {
    let r = report(&builtin("retried-write-dedupe"));
    let seen: Vec<(&str, WriteOutcome)> = r.writes.iter().map(|w| (w.op_id.as_str(), w.outcome)).collect();
    assert_eq!(seen, [("R1", WriteOutcome::Accepted), ("R1", WriteOutcome::Duplicate), ("R2", WriteOutcome::Accepted)]);
    assert!(r.violations.is_empty());
    assert_eq!(r.final_state.value.as_deref(), Some("pay 20"));
}

/// C23: a resource keyed by lock refuses another lock's larger token; one compared globally
/// accepts it, reports it, and then refuses its own holder.
#[test]
fn c23_tokens_are_scoped_to_their_lock() {
    let per_lock = report(&builtin("foreign-token-per-lock"));
    let seen: Vec<(&str, WriteOutcome, u64)> =
        per_lock.writes.iter().map(|w| (w.op_id.as_str(), w.outcome, w.high_water_after)).collect();
    assert_eq!(
        seen,
        [
            ("x-50", WriteOutcome::Accepted, 50),
            ("y-51", WriteOutcome::RejectedForeignLock, 50),
            ("x-50b", WriteOutcome::Accepted, 50)
        ]
    );
    assert_eq!(per_lock.writes[1].lock.as_deref(), Some("invoices"));
    assert!(per_lock.violations.is_empty());

    let global = report(&builtin("foreign-token-global"));
    let seen: Vec<(&str, WriteOutcome, u64)> =
        global.writes.iter().map(|w| (w.op_id.as_str(), w.outcome, w.high_water_after)).collect();
    assert_eq!(
        seen,
        [
            ("x-50", WriteOutcome::Accepted, 50),
            ("y-51", WriteOutcome::Accepted, 51),
            ("x-50b", WriteOutcome::RejectedStale, 51)
        ]
    );
    assert_eq!(kinds(&global), ["foreign_token_accepted"]);
    // The orders holder's refusal is the invoices lock's doing, and the report names it.
    let blocked = leaselab::engine::Blocked::ForeignMark { lock: "invoices".into() };
    assert_eq!(global.writes[2].blocked, Some(blocked));
}
