//! The lock store fails over (`{"do": "store_failover"}`), and the store's lock-delay
//! (`lock.lock_delay_ms`): hidden-outcome tests. Each states what the real system does, checks
//! that the run reaches it, and that the same run without the fault does not.

mod common;

use common::*;
use leaselab::engine::{TraceEvent, Violation, WriteOutcome};
use leaselab::scenario::Scenario;

/// The scenario without its scheduled `store_failover`.
fn without_failover(mut s: Scenario) -> Scenario {
    s.config.events.retain(|e| !matches!(e.command, leaselab::engine::Command::StoreFailover { .. }));
    s
}

fn grants(s: &Scenario) -> Vec<(String, u64, u64)> {
    report(s).grants.iter().map(|g| (g.node.clone(), g.token, g.at_ms)).collect()
}

/// Redis replicates asynchronously (Redis docs, "Redis replication"; Kleppmann, "How to do
/// distributed locking", 2016): a replica promoted 1 s behind lacks A-Xiu's `SET NX` and the
/// counter's `INCR`, so Smith Wang acquires the same lock with the same token while she still
/// holds it: two holders at once, and the resource (equal tokens accepted) takes both holders'
/// writes. Without the fail-over he is refused until she lets go.
#[test]
fn a_redis_failover_to_a_lagging_replica_gives_two_holders_the_same_token() {
    let s = builtin("lock-failover-redis");
    let sim = run(&s);
    let lost = events(
        &sim,
        |e| matches!(e, TraceEvent::StoreFailedOver { lost_holder: Some(h), lost_token: Some(1), next_token_before: 2, next_token: 1, .. } if h == "a"),
    );
    assert_eq!(lost.len(), 1, "the replica lacks a's key and the INCR");
    let g = grants(&s);
    assert_eq!(g.iter().map(|(n, t, _)| (n.as_str(), *t)).collect::<Vec<_>>(), [("a", 1), ("b", 1)]);
    let r = report(&s);
    let both = r.dual_beliefs.iter().find(|d| d.nodes.contains(&"a".to_owned()) && d.nodes.contains(&"b".to_owned()));
    let both = both.expect("a and b believe they hold the lock at once");
    assert!(both.length_ms > 1_000, "{both:?}");
    let accepted_in_overlap = |who: &str| {
        r.writes.iter().any(|w| {
            w.from.as_deref() == Some(who)
                && w.outcome == WriteOutcome::Accepted
                && w.token == Some(serde_json::json!(1))
                && (both.from_ms..=both.to_ms).contains(&w.arrived_ms)
        })
    };
    assert!(accepted_in_overlap("a") && accepted_in_overlap("b"), "the fence cannot tell two holders of 1 apart");

    let plain = without_failover(s.clone());
    let g = grants(&plain);
    assert_eq!(g.len(), 1, "without the fail-over only a holds: {g:?}");
    assert!(report(&plain).dual_beliefs.is_empty());

    // A replica that is not behind loses nothing: b is refused as on the primary.
    let mut synced = s;
    for e in &mut synced.config.events {
        if let leaselab::engine::Command::StoreFailover { lag_ms } = &mut e.command {
            *lag_ms = 0;
        }
    }
    assert_eq!(grants(&synced).len(), 1);
}

/// The same lost `INCR` under a resource that refuses equal tokens: each holder's second write
/// with 1 is refused, so the run shows what the equal-token policy does with two holders of one
/// token (and that it also stops a single holder's repeated writes).
#[test]
fn with_equal_tokens_refused_the_second_holder_of_the_same_token_is_stopped() {
    let mut s = builtin("lock-failover-redis");
    s.config.resource.equal_token = leaselab::engine::EqualTokenPolicy::Reject;
    let r = report(&s);
    let b: Vec<WriteOutcome> = r.writes.iter().filter(|w| w.from.as_deref() == Some("b")).map(|w| w.outcome).collect();
    assert!(!b.is_empty() && b.iter().all(|o| *o == WriteOutcome::RejectedStale), "{b:?}");
}

/// etcd 3.4: a new leader's lessor `Promote`s every lease to `now + election timeout + TTL`
/// (`lease/lessor.go` `refresh`; the server passes `electionTimeout()`, 1 s by default). A-Xiu
/// crashed holding a 5 s lease granted at 60 ms; the leader change at 4 s makes it last until
/// 10 s, so Smith Wang gets the lock only after that. Without it he gets it soon after 5.06 s.
/// Either way nobody holds it twice.
#[test]
fn an_etcd_leader_change_keeps_a_crashed_holders_lock_alive() {
    let s = builtin("lock-failover-etcd");
    let sim = run(&s);
    let promoted = events(
        &sim,
        |e| matches!(e, TraceEvent::StoreFailedOver { holder: Some(h), expires_ms: Some(10_000), lost_holder: None, .. } if h == "a"),
    );
    assert_eq!(promoted.len(), 1, "a's lease now ends at 4 s + 1 s + 5 s");
    let g = grants(&s);
    assert_eq!(g.len(), 2);
    assert!(g[1].2 >= 10_000, "b waits for the promoted lease: {g:?}");
    assert!(report(&s).dual_beliefs.is_empty(), "safety kept");

    let g = grants(&without_failover(s));
    assert_eq!(g.len(), 2);
    assert!((5_060..7_000).contains(&g[1].2), "without the leader change b gets it after the TTL: {g:?}");
}

/// Consul's `LockDelay` (default 15 s) and Chubby's lock-delay: after A-Xiu's lease runs out,
/// nobody may take the lock for 15 s, so her write that was held up on the way lands before
/// Smith Wang's first write. Without it (fencing off) hers lands after his and overwrites it.
#[test]
fn lock_delay_lets_the_old_holders_late_write_land_first() {
    let s = builtin("lock-delay");
    let position = |r: &leaselab::scenario::Report, op: &str| r.writes.iter().position(|w| w.op_id == op);
    let r = report(&s);
    assert!(position(&r, "a-2") < position(&r, "b-1"), "a's late write lands first");
    assert!(r.violations.is_empty());
    let sim = run(&s);
    assert!(
        !events(&sim, |e| matches!(e, TraceEvent::AcquireDelayed { node, until_ms: 20_061 } if node == "b")).is_empty()
    );
    let first_b = r.grants.iter().find(|g| g.node == "b").expect("b gets it after the delay");
    assert!(first_b.at_ms >= 20_061);

    let mut plain = s;
    plain.config.lock.lock_delay_ms = 0;
    let r = report(&plain);
    assert!(position(&r, "b-1") < position(&r, "a-2"), "without it b writes first");
    let overwrote = r.violations.iter().any(|v| {
        matches!(&v.violation, Violation::StaleWriteAccepted { op_id, resource_had_seen_newer: true, .. } if op_id == "a-2")
    });
    assert!(overwrote, "a's write with 1 overwrites b's with 2");
}

/// A clean release starts no lock-delay (Consul applies it only when a session is invalidated):
/// the next borrower gets the lock at once.
#[test]
fn a_clean_release_starts_no_lock_delay() {
    let s = parse(
        r#"{"format":"leaselab.scenario/1","protocol":"lock","store":{"kind":"redis"},"until_ms":8000,
            "lock":{"hold_ms":1000,"lock_delay_ms":15000},"lease":{"duration_ms":5000},
            "network":{"latency_ms":{"min":40,"max":60}},
            "nodes":[{"id":"a"},{"id":"b","start_ms":200}]}"#,
    );
    let sim = run(&s);
    assert!(events(&sim, |e| matches!(e, TraceEvent::AcquireDelayed { .. })).is_empty());
    assert!(report(&s).grants.iter().any(|g| g.node == "b" && g.at_ms < 5_000), "b gets it after a's release");
}
