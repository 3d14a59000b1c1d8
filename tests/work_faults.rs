//! Faults of a node's own work loop (issue 13): a bounded shutdown that drains for a while after
//! the lease is lost (cilium/cilium#42920, hashicorp/consul#1843), and the work's own client
//! retrying a write with the same operation id (yugabyte/yugabyte-db#33653; seed 004: a fence
//! is not an idempotency key). Each test states the documented outcome, checks the built-in
//! reaches it, and checks a variant without the fault does not.

mod common;

use common::*;
use leaselab::engine::{StepDownReason, TraceEvent, WriteOutcome};
use leaselab::scenario::{Report, Scenario};
use serde_json::json;

fn chen_writes_after(r: &Report, from_ms: u64) -> Vec<&leaselab::scenario::report::Write> {
    r.writes.iter().filter(|w| w.from.as_deref() == Some("chen") && w.sent_ms > from_ms).collect()
}

fn step_down_ms(s: &Scenario) -> u64 {
    let sim = run(s);
    let down = events(
        &sim,
        |e| matches!(e, TraceEvent::SteppedDown { node, reason: StepDownReason::RenewDeadline, .. } if node == "chen"),
    );
    assert_eq!(down.len(), 1, "Chen steps down once");
    down[0].at_ms
}

/// A process told to stop when it loses its lease, but slow to drain, overlaps the next leader:
/// without fencing its old-token writes land after the new leader's (two writers at once); with
/// fencing they are refused once the resource has seen the new token; and with no drain, no
/// write leaves after the loss.
#[test]
fn bounded_shutdown_overlaps_the_next_leader() {
    let s = builtin("bounded-shutdown");
    assert_eq!((s.config.work.stops_with_lease, s.config.work.stops_after_ms), (true, 12_000));
    assert!(!s.config.resource.fencing, "the built-in shows the harm with fencing off");
    let down = step_down_ms(&s);
    let sim = run(&s);
    // The drain ends 12 s after the loss (the nodes' clocks are true here), and not before.
    let stopped = events(&sim, |e| matches!(e, TraceEvent::WorkStopped { node, token: 1, .. } if node == "chen"));
    assert_eq!(stopped.len(), 1);
    assert_eq!(stopped[0].at_ms, down + 12_000);
    assert!(matches!(stopped[0].event, TraceEvent::WorkStopped { after_ms: 12_000, .. }));

    let r = report(&s);
    let lin = r.grants.iter().find(|g| g.node == "lin").expect("Lin takes over");
    assert_eq!(lin.token, 2);
    assert!(lin.at_ms > down && lin.at_ms < down + 12_000, "Lin leads inside Chen's drain");
    let lin_first = r.writes.iter().find(|w| w.from.as_deref() == Some("lin")).expect("Lin writes").arrived_ms;
    let overlap: Vec<_> = chen_writes_after(&r, down).into_iter().filter(|w| w.arrived_ms > lin_first).collect();
    assert!(!overlap.is_empty(), "Chen still writes after Lin's first write");
    assert!(overlap.iter().all(|w| w.token == Some(json!(1)) && w.outcome == WriteOutcome::Accepted));
    assert!(kinds(&r).contains(&"stale_write_accepted"), "stale writes accepted without fencing");
    // Nothing is sent after the drain ended.
    assert!(chen_writes_after(&r, down + 12_000).is_empty());

    // Fencing on: the same writes are refused once the resource has seen 2.
    let mut fenced = s.clone();
    fenced.config.resource.fencing = true;
    let rf = report(&fenced);
    let lin_first = rf.writes.iter().find(|w| w.from.as_deref() == Some("lin")).expect("Lin writes").arrived_ms;
    let overlap: Vec<_> = chen_writes_after(&rf, down).into_iter().filter(|w| w.arrived_ms > lin_first).collect();
    assert!(!overlap.is_empty());
    assert!(overlap.iter().all(|w| w.outcome == WriteOutcome::RejectedStale));
    assert!(rf.violations.is_empty());

    // No drain (the default): the work stops with the lease, nothing is written after the loss.
    let mut prompt = s.clone();
    prompt.config.work.stops_after_ms = 0;
    let rp = report(&prompt);
    assert!(chen_writes_after(&rp, down).is_empty());
    assert!(rp.violations.is_empty());
    assert!(events(&run(&prompt), |e| matches!(e, TraceEvent::WorkStopped { .. } | TraceEvent::WorkContinues { .. }))
        .is_empty());
}

/// A crash ends a drain at once: the process is gone, so no `work_stopped` and no more writes.
#[test]
fn a_crash_ends_the_drain() {
    let mut s = builtin("bounded-shutdown");
    let down = step_down_ms(&s);
    s.config.events.push(parse_event(down + 3_000, json!({"do": "crash", "node": "chen"})));
    let r = report(&s);
    assert!(chen_writes_after(&r, down + 3_000).is_empty());
    assert!(events(&run(&s), |e| matches!(e, TraceEvent::WorkStopped { .. })).is_empty());
}

fn parse_event(at_ms: u64, mut event: serde_json::Value) -> leaselab::engine::ScheduledCommand {
    event["at_ms"] = json!(at_ms);
    let doc = json!({"format": "leaselab.scenario/1", "nodes": [{"id": "chen"}], "events": [event]});
    parse(&doc.to_string()).config.events.remove(0)
}

/// The leader's own client retries each write with the same op id: a plain fence (equal tokens
/// accepted) applies it twice, a `duplicate_side_effect`; a deduplicating resource reports the
/// retry as a `duplicate`; without the retry each op id reaches the resource once. A retry due
/// after Chen stepped down still carries his old token.
#[test]
fn own_retry_is_applied_twice_under_a_plain_fence() {
    let s = builtin("work-retried-write");
    assert_eq!(s.config.work.retry_after_ms, Some(3_500));
    let sim = run(&s);
    let r = report(&s);
    let chen_ops: Vec<&str> =
        r.writes.iter().filter(|w| w.from.as_deref() == Some("chen")).map(|w| w.op_id.as_str()).collect();
    let first = "chen-1";
    let judged: Vec<_> = r.writes.iter().filter(|w| w.op_id == first).collect();
    assert_eq!(judged.len(), 2, "the write and its retry");
    assert!(judged.iter().all(|w| w.outcome == WriteOutcome::Accepted && w.value == judged[0].value));
    let dup = kinds(&r).iter().filter(|k| **k == "duplicate_side_effect").count();
    assert!(dup >= 3, "each of Chen's retried writes lands twice ({dup})");
    assert!(chen_ops.len() >= 6);

    // After stepping down, a pending retry still goes out, with token 1.
    let down = step_down_ms(&s);
    let late = events(&sim, |e| matches!(e, TraceEvent::WriteRetried { node, token: 1, .. } if node == "chen"));
    assert!(late.iter().any(|e| e.at_ms > down), "a retry leaves after Chen stepped down");

    // Dedupe: the retry is a duplicate, never applied twice.
    let mut dedupe = s.clone();
    dedupe.config.resource.equal_token = leaselab::engine::EqualTokenPolicy::Dedupe;
    let rd = report(&dedupe);
    let judged: Vec<_> = rd.writes.iter().filter(|w| w.op_id == first).map(|w| w.outcome).collect();
    assert_eq!(judged, [WriteOutcome::Accepted, WriteOutcome::Duplicate]);
    assert!(!kinds(&rd).contains(&"duplicate_side_effect"));

    // No retry: each op id once, nothing duplicated.
    let mut once = s.clone();
    once.config.work.retry_after_ms = None;
    let ro = report(&once);
    assert_eq!(ro.writes.iter().filter(|w| w.op_id == first).count(), 1);
    assert!(!kinds(&ro).contains(&"duplicate_side_effect"));
    assert!(events(&run(&once), |e| matches!(e, TraceEvent::WriteRetried { .. })).is_empty());
}

/// Once the resource has seen the new token, a deposed leader's retry with its old one is
/// refused like any stale write: the fence still works on retries, it only cannot tell a retry
/// from a new write with the same token.
#[test]
fn a_late_retry_with_the_old_token_is_fenced() {
    let mut s = builtin("work-retried-write");
    // Chen is frozen from 12.5 s to 24 s; the retry of his 12.1 s write is due during the pause
    // and leaves when he resumes, after the resource has seen Lin's 2.
    s.config.events.push(parse_event(12_500, json!({"do": "pause", "node": "chen", "for_ms": 11_500})));
    let r = report(&s);
    let lin_first = r.writes.iter().find(|w| w.from.as_deref() == Some("lin")).expect("Lin writes").arrived_ms;
    let late: Vec<_> = r
        .writes
        .iter()
        .filter(|w| w.from.as_deref() == Some("chen") && w.arrived_ms > lin_first && w.token == Some(json!(1)))
        .collect();
    assert!(!late.is_empty(), "Chen's old-token writes arrive after Lin's");
    assert!(late.iter().all(|w| w.outcome == WriteOutcome::RejectedStale));
    assert!(!kinds(&r).contains(&"stale_write_accepted"));
}

/// The new fields are checked with their paths.
#[test]
fn work_fields_are_checked() {
    let bad = |work: serde_json::Value| {
        let doc = json!({"format": "leaselab.scenario/1", "nodes": [{"id": "a"}], "work": work});
        leaselab::scenario::parse(&doc.to_string()).expect_err("refused").path
    };
    assert_eq!(bad(json!({"stops_with_lease": false, "stops_after_ms": 1000})), "work.stops_after_ms");
    assert_eq!(bad(json!({"stops_after_ms": 86_400_001})), "work.stops_after_ms");
    assert_eq!(bad(json!({"every_ms": 2000, "retry_after_ms": 2000})), "work.retry_after_ms");
    assert_eq!(bad(json!({"retry_after_ms": 0})), "work.retry_after_ms");
    assert_eq!(bad(json!({"retry_after_ms": "soon"})), "work.retry_after_ms");
}
