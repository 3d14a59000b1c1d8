//! Faults of the issuer and the resource, and what the oracle says about them. Each timeline is
//! a case of the reference corpus (`shared/reference/semantics-and-failures.md`).

mod common;

use common::*;
use leaselab::engine::{TraceEvent, WriteOutcome};
use leaselab::scenario::Report;

fn raw(events: &str, resource: &str) -> Report {
    report(&parse(&format!(
        r#"{{"format":"leaselab.scenario/1","until_ms":10000,"nodes":[],"resource":{{{resource}}},"events":[{events}]}}"#
    )))
}

/// C21 (oxia-db/oxia#87): fenced to 5 in memory only, the resource restarts at 0 and the old
/// leader's 4 is accepted. With a durable mark it is refused and the resource stays at 5.
#[test]
fn a_mark_kept_in_memory_is_lost_on_restart() {
    let events = r#"{"at_ms":1000,"do":"raw_write","token":5,"value":"new leader"},
                    {"at_ms":2000,"do":"restart_resource"},
                    {"at_ms":3000,"do":"raw_write","token":4,"value":"old leader"}"#;
    let volatile = raw(events, r#""persist_high_water": false"#);
    assert_eq!(volatile.writes[1].outcome, WriteOutcome::Accepted);
    assert_eq!(volatile.final_state.high_water, 4);
    assert_eq!(kinds(&volatile), ["token_regression"]);

    let durable = raw(events, r#""persist_high_water": true"#);
    assert_eq!(durable.writes[1].outcome, WriteOutcome::RejectedStale);
    assert_eq!(durable.final_state.high_water, 5);
    assert!(durable.violations.is_empty());
}

/// C20 (etcd-io/etcd#16028): the resource's mark is 990; it is restored from an older backup at
/// 900, and a stale 905 passes again.
#[test]
fn a_resource_restored_with_a_lower_mark_lets_stale_tokens_pass() {
    let r = raw(
        r#"{"at_ms":1000,"do":"raw_write","token":990,"value":"current"},
           {"at_ms":2000,"do":"restore_resource","high_water":900},
           {"at_ms":3000,"do":"raw_write","token":905,"value":"stale"}"#,
        "",
    );
    assert_eq!(r.writes[1].outcome, WriteOutcome::Accepted);
    assert_eq!(kinds(&r), ["token_regression"]);
}

/// C20, the issuer side: the token counter is restored from a backup, so the legitimate new
/// holder gets a token below the resource's mark and every write it makes is refused: fencing
/// stays safe, but the system stops making progress (a liveness failure).
#[test]
fn a_rolled_back_issuer_locks_the_new_holder_out() {
    let s = parse(
        r#"{"format":"leaselab.scenario/1","until_ms":40000,
            "nodes":[{"id":"a"},{"id":"b","start_ms":1000}],
            "issuer":{"first_token":1000},
            "events":[{"at_ms":5000,"do":"crash","node":"a"},
                      {"at_ms":5000,"do":"rollback_issuer","next_token":905}]}"#,
    );
    let r = report(&s);
    let grants: Vec<(&str, u64)> = r.grants.iter().map(|g| (g.node.as_str(), g.token)).collect();
    assert_eq!(grants, [("a", 1000), ("b", 905)], "the next grant is smaller than the one before");
    let b: Vec<WriteOutcome> = r.writes.iter().filter(|w| w.from.as_deref() == Some("b")).map(|w| w.outcome).collect();
    assert!(!b.is_empty() && b.iter().all(|o| *o == WriteOutcome::RejectedStale), "{b:?}");
    assert_eq!(r.final_state.high_water, 1000);
    assert!(r.violations.is_empty(), "safe, but stuck");
    let sim = run(&s);
    assert_eq!(
        events(&sim, |e| matches!(e, TraceEvent::IssuerRolledBack { next_token_before: 1001, next_token: 905 })).len(),
        1
    );
}

/// C19 (yugabyte/yugabyte-db#33653): a retried write with the same token and op id. Fencing
/// lets both through (equal tokens are legal); only deduplication applies it once.
#[test]
fn a_retried_write_applies_twice_unless_deduplicated() {
    let events = r#"{"at_ms":1000,"do":"raw_write","token":9,"value":"pay 10","op_id":"R"},
                    {"at_ms":2000,"do":"raw_write","token":9,"value":"pay 10","op_id":"R"}"#;
    let accept = raw(events, r#""equal_token":"accept""#);
    assert_eq!(accept.writes[1].outcome, WriteOutcome::Accepted);
    assert_eq!(kinds(&accept), ["duplicate_side_effect"]);
    let dedupe = raw(events, r#""equal_token":"dedupe""#);
    assert_eq!(dedupe.writes[1].outcome, WriteOutcome::Duplicate);
    assert!(dedupe.violations.is_empty());
}
