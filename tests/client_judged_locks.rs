//! Client-judged lock expiry, as the AWS DynamoDB lock client judges it
//! (awslabs/amazon-dynamodb-lock-client: `acquireLock` notes the item and its record version
//! number at its first read, `LockItem.isExpired` is `now - lookupTime > leaseDuration` on the
//! client's own clock, and the take-over is a put conditional on that record version number;
//! heartbeats write a new one). Each test states the outcome the client's rules give and checks
//! that the engine reaches it, and that the run without the fault does not.

mod common;

use common::*;
use leaselab::engine::{Expiry, ReleaseOutcome, TraceEvent, Violation, WriteOutcome};

/// When `node` was first granted the lock, in true ms.
fn first_grant(r: &leaselab::scenario::Report, node: &str) -> Option<u64> {
    r.grants.iter().find(|g| g.node == node).map(|g| g.at_ms)
}

/// The client's rule: a borrower that finds the lock held waits a full lease from its own first
/// read, however old the holder's last heartbeat is. A-Xiu's last heartbeat is at about 1 s;
/// Smith Wang first reads at about 20 s and takes the lock only once 10 s have passed on his
/// clock since then. A store that judged the TTL itself would give it to him at his first try.
#[test]
fn a_borrower_waits_a_full_lease_from_its_first_read_however_old_the_heartbeat() {
    let s = builtin("lock-client-judged");
    let sim = run(&s);
    let last_heartbeat = events(&sim, |e| matches!(e, TraceEvent::LeaseRenewed { node, .. } if node == "a"))
        .last()
        .map(|e| e.at_ms)
        .expect("A-Xiu sends heartbeats before she freezes");
    assert!(last_heartbeat < 2_000, "her last heartbeat is before her freeze: {last_heartbeat}");
    let first_read = events(&sim, |e| matches!(e, TraceEvent::RecordObserved { node, .. } if node == "b"))
        .first()
        .map(|e| e.at_ms)
        .expect("Wang reads the record");
    assert!(first_read >= 20_000 && first_read - last_heartbeat > 18_000, "the heartbeat is old at the first read");
    let r = report(&s);
    let wang = first_grant(&r, "b").expect("Wang takes the lock");
    // Strictly more than 10 s after the read, at his next poll (every 1 s), plus a message.
    assert!(wang > first_read + 10_000 && wang <= first_read + 10_000 + 1_000 + 80, "granted at {wang}");

    let mut store_judged = s.clone();
    store_judged.config.lease.expiry = Expiry::Coordinator;
    let r = report(&store_judged);
    let wang = first_grant(&r, "b").expect("Wang takes the lock");
    assert!(wang < 20_100, "a store judging the TTL grants his first try: {wang}");
}

/// `LockItem.isExpired` is strict: with no latency and a 1 s poll, a borrower whose first read
/// is at 20 s finds the 10 s lease not yet over at 30 s (10 000 is not more than 10 000) and
/// takes the lock at 31 s.
#[test]
fn the_wait_is_judged_strictly() {
    let s = parse(
        r#"{"format": "leaselab.scenario/1", "protocol": "lock", "seed": 1, "until_ms": 40000,
            "lock": {"hold_ms": 30000}, "resource": {"fencing": false},
            "network": {"latency_ms": {"min": 0, "max": 0}},
            "lease": {"duration_ms": 10000, "renew_every_ms": 1000, "retry_every_ms": 1000, "expiry": "observer"},
            "nodes": [{"id": "a"}, {"id": "b", "start_ms": 20000}],
            "events": [{"at_ms": 500, "do": "pause", "node": "a"}]}"#,
    );
    let r = report(&s);
    assert_eq!(first_grant(&r, "b"), Some(31_000));
}

/// A holder frozen longer than the lease wakes to find its lock taken: its conditional release
/// is refused (the record names Wang), and the write it had prepared lands, for the client
/// issues no fencing token and the resource checks none. Without the freeze A-Xiu keeps the
/// lock to the end and nothing stale lands.
#[test]
fn a_holder_frozen_past_the_lease_wakes_to_find_its_lock_taken() {
    let s = builtin("lock-client-judged");
    assert!(!s.config.resource.fencing, "the DynamoDB lock client issues no fencing token");
    let r = report(&s);
    let a_release = r.releases.iter().find(|x| x.node == "a").expect("A-Xiu lets go on waking");
    assert_eq!(a_release.outcome, ReleaseOutcome::NotOwner { holder: Some("b".into()) });
    assert!(r.violations.iter().any(|v| matches!(&v.violation,
        Violation::StaleWriteAccepted { from: Some(f), token: 1, .. } if f == "a")));

    let mut calm = s.clone();
    calm.config.events.clear();
    let r = report(&calm);
    assert_eq!(r.grants.len(), 1, "A-Xiu keeps the lock: {:?}", r.grants);
    assert!(r.violations.is_empty());
}

/// A borrower whose clock runs at 3× counts the 10 s in about 3.3 s of true time: Auntie Zhou
/// takes the lock while Wang, frozen for 5 s inside his renew deadline, still believes he holds
/// it; on waking his writes land. With her clock at the right rate his heartbeats resume before
/// her wait is over and she never gets it.
#[test]
fn a_fast_clock_takes_the_lock_while_the_holder_still_believes_it_holds() {
    let s = builtin("lock-client-judged");
    let r = report(&s);
    let zhou = first_grant(&r, "c").expect("Zhou takes the lock");
    assert!((45_000..50_000).contains(&zhou), "during Wang's freeze: {zhou}");
    assert!(
        r.dual_beliefs.iter().any(|d| d.nodes.contains(&"b".to_owned()) && d.nodes.contains(&"c".to_owned())),
        "Wang and Zhou both believe they hold it: {:?}",
        r.dual_beliefs
    );
    assert!(r
        .writes
        .iter()
        .any(|w| w.from.as_deref() == Some("b") && w.sent_ms >= 50_000 && w.outcome == WriteOutcome::Accepted));

    let mut right_rate = s.clone();
    right_rate.config.nodes[2].clock.rate_ppm = leaselab::engine::clock::RATE_ONE_PPM;
    let r = report(&right_rate);
    assert_eq!(first_grant(&r, "c"), None, "{:?}", r.grants);
}

/// The rule holds on the Redis record only: an etcd lease is expired by etcd itself.
#[test]
fn client_judged_locks_need_a_store_that_judges_nothing() {
    let ok = r#"{"format": "leaselab.scenario/1", "protocol": "lock", "lease": {"expiry": "observer"}}"#;
    assert!(leaselab::scenario::parse(ok).is_ok());
    let etcd = r#"{"format": "leaselab.scenario/1", "protocol": "lock", "store": {"kind": "etcd"}, "lease": {"expiry": "observer"}}"#;
    let e = leaselab::scenario::parse(etcd).expect_err("refused on etcd");
    assert!(e.to_string().contains("lease.expiry"), "{e}");
}
