//! The network's own faults: messages delivered twice or held back (drawn from the seed), and
//! one-way cuts. Each test states the outcome the real systems document and checks that the run
//! reaches it, and that the same run without the fault does not.

mod common;

use common::*;
use leaselab::engine::{
    Command, EqualTokenPolicy, Link, MessageKind, ScheduledCommand, StepDownReason, TraceEvent, WriteOutcome,
};
use leaselab::scenario::ScenarioError;

/// `(op_id, outcome)` of the writes from `node` with `op_id`.
fn judged<'a>(sim: &'a leaselab::engine::Sim, op: &'a str) -> Vec<WriteOutcome> {
    outcomes(sim).into_iter().filter(|(o, _)| o == op).map(|(_, w)| w).collect()
}

/// Seed 004 ("fencing is not idempotency") and yugabyte/yugabyte-db#33653: a write that
/// arrives twice with the same token and operation id passes the fence twice, since an equal
/// token is the same term writing again. It is applied twice under `equal_token: accept`
/// (a duplicate side effect), once under `dedupe`, and without the copying network once.
#[test]
fn a_write_the_network_copied_applies_twice_unless_deduplicated() {
    let s = builtin("duplicated-write");
    let sim = run(&s);
    assert_eq!(judged(&sim, "chen-1"), [WriteOutcome::Accepted, WriteOutcome::Accepted]);
    assert_eq!(kinds(&report(&s)), ["duplicate_side_effect"]);
    // The copy is a message of its own, naming the original.
    let copies = events(&sim, |e| matches!(e, TraceEvent::MessageDuplicated { kind: MessageKind::Write, .. }));
    assert_eq!(copies.len(), 1);
    let TraceEvent::MessageDuplicated { id, copy_of, .. } = copies[0].event else { unreachable!() };
    assert_ne!(id, copy_of);

    let mut dedupe = s.clone();
    dedupe.config.resource.equal_token = EqualTokenPolicy::Dedupe;
    assert_eq!(judged(&run(&dedupe), "chen-1"), [WriteOutcome::Accepted, WriteOutcome::Duplicate]);
    assert!(report(&dedupe).violations.is_empty());

    let mut plain = s.clone();
    plain.config.network.duplicate_percent = 0;
    assert_eq!(judged(&run(&plain), "chen-1"), [WriteOutcome::Accepted]);
    assert!(report(&plain).violations.is_empty());
}

/// The copies come from a stream of their own: switching them on leaves every latency the run's
/// main stream draws where it was, so the first message (sent before anything was copied)
/// arrives at the same moment with and without them.
#[test]
fn copies_draw_from_their_own_stream() {
    let s = builtin("duplicated-write");
    let mut plain = s.clone();
    plain.config.network.duplicate_percent = 0;
    let first = |sim: &leaselab::engine::Sim| {
        sim.trace().iter().find(|e| matches!(e.event, TraceEvent::MessageSent { .. })).map(|e| e.event.clone())
    };
    assert_eq!(first(&run(&s)), first(&run(&plain)));
}

/// A client takes the first reply to a call and ignores any later one. With every message
/// copied, harbor-zombie still tells its documented story: Chen leads once with 7, Lin gets 8,
/// Chen's late 7 is refused; the copies add only duplicate side effects, never a second leader.
#[test]
fn copied_replies_do_not_confuse_a_node() {
    let mut s = builtin("harbor-zombie");
    s.config.network.duplicate_percent = 100;
    let sim = run(&s);
    let r = report(&s);
    let grants: Vec<(&str, u64)> = r.grants.iter().map(|g| (g.node.as_str(), g.token)).collect();
    assert_eq!(grants, [("chen", 7), ("lin", 8)]);
    let led = |who: &str| events(&sim, |e| matches!(e, TraceEvent::BecameLeader { node, .. } if node == who)).len();
    assert_eq!((led("chen"), led("lin")), (1, 1), "one leadership each, whatever the echoes");
    assert!(!events(&sim, |e| matches!(e, TraceEvent::ReplyIgnored { .. })).is_empty());
    assert!(r.writes.iter().any(|w| w.from.as_deref() == Some("chen")
        && w.token == Some(serde_json::json!(7))
        && w.outcome == WriteOutcome::RejectedStale));
    assert!(kinds(&r).iter().all(|k| *k == "duplicate_side_effect"), "{:?}", kinds(&r));
}

/// Fencing orders terms, not writes within one term (Kleppmann: refuse only lower tokens): the
/// network holds Chen's seventh write back, the eighth overtakes it, both pass with the equal
/// token 7, and the older value is the one left. Without the hold-back the newest value stays.
#[test]
fn a_held_back_write_of_the_same_term_lands_last_and_wins() {
    let s = builtin("reordered-writes");
    let r = report(&s);
    let w = |v: &str| r.writes.iter().find(|w| w.value == v).expect("written").clone();
    let (older, newer) = (w("chen#7"), w("chen#8"));
    assert!(older.sent_ms < newer.sent_ms && older.arrived_ms > newer.arrived_ms, "overtaken");
    assert_eq!((older.outcome, newer.outcome), (WriteOutcome::Accepted, WriteOutcome::Accepted));
    assert_eq!(older.token, newer.token);
    assert_eq!(r.final_state.value.as_deref(), Some("chen#7"), "the older value wins");
    assert!(r.violations.is_empty(), "nothing a token check can see");

    let mut plain = s.clone();
    plain.config.network.reorder_percent = 0;
    let p = report(&plain);
    assert!(p.writes.windows(2).all(|w| w[0].sent_ms < w[1].sent_ms), "arrival order is send order");
    assert_eq!(p.final_state.value.as_deref(), Some("chen#8"));
}

/// A grant whose reply is lost (Redis `SET NX PX`, the lost response of reference case C19): the
/// store holds the lock for A-Xiu, who does not know it; her retries are refused by her own key
/// and so are Wang's, and nobody works until the key's TTL runs out. Without the cut she leads
/// with the first token at once.
#[test]
fn a_lost_grant_reply_leaves_the_lock_idle_until_its_ttl() {
    let s = builtin("lost-grant-reply");
    let sim = run(&s);
    let r = report(&s);
    assert_eq!(r.grants[0].node, "xiu");
    assert_eq!(r.grants[0].token, 1);
    let refused_by_own_key = events(
        &sim,
        |e| matches!(e, TraceEvent::AcquireRefused { node, holder, .. } if node == "xiu" && holder == "xiu"),
    );
    assert!(refused_by_own_key.len() >= 2, "SET NX refuses its own key");
    let expired = events(&sim, |e| matches!(e, TraceEvent::LeaseExpired { token: 1, .. }));
    assert_eq!(expired.len(), 1);
    let idle_until = expired[0].at_ms;
    assert!(idle_until >= 9_000, "the TTL ran out in full: {idle_until}");
    let led = events(&sim, |e| matches!(e, TraceEvent::BecameLeader { .. }));
    assert!(led.iter().all(|e| e.at_ms > idle_until), "nobody led before the key expired");
    assert!(matches!(led[0].event, TraceEvent::BecameLeader { ref node, token: 2 } if node == "xiu"));
    assert!(r.writes.iter().all(|w| w.arrived_ms > idle_until));

    let mut plain = s.clone();
    plain.config.events.clear();
    let p = run(&plain);
    let led = events(&p, |e| matches!(e, TraceEvent::BecameLeader { .. }));
    assert!(matches!(led[0].event, TraceEvent::BecameLeader { ref node, token: 1 } if node == "xiu"));
    assert!(led[0].at_ms < 200);
}

fn chen_leads_then(cut: Link) -> leaselab::scenario::Scenario {
    let mut s = builtin("harbor-zombie");
    s.config.nodes.truncate(1);
    s.config.until_ms = 30_000;
    s.config.events =
        vec![ScheduledCommand { at_ms: 6_000, command: Command::Partition { node: "chen".into(), from: cut } }];
    s
}

/// A renewal applied at the store whose reply is lost: the store keeps renewing Chen's lease
/// while Chen, hearing nothing, steps down at his renew deadline, so the store holds a lease
/// for a node that no longer believes it leads. Cut both ways, the store renews nothing.
#[test]
fn a_renewal_whose_reply_is_lost_still_renews_at_the_store() {
    let sim = run(&chen_leads_then(Link::CoordinatorReplies));
    let renewed = events(&sim, |e| matches!(e, TraceEvent::LeaseRenewed { .. }));
    assert!(renewed.iter().any(|e| e.at_ms > 6_000), "the requests arrive and take effect");
    let down = events(&sim, |e| matches!(e, TraceEvent::SteppedDown { reason: StepDownReason::RenewDeadline, .. }));
    assert_eq!(down.len(), 1, "no reply comes back, so the deadline passes");
    let store_expiry = renewed
        .iter()
        .filter(|e| e.at_ms < down[0].at_ms)
        .filter_map(|e| match e.event {
            TraceEvent::LeaseRenewed { expires_ms, .. } => Some(expires_ms),
            _ => None,
        })
        .max()
        .expect("renewed before the step-down");
    assert!(store_expiry > down[0].at_ms, "the store still holds the lease for Chen when he gives up");

    let both = run(&chen_leads_then(Link::Coordinator));
    assert!(events(&both, |e| matches!(e, TraceEvent::LeaseRenewed { .. })).iter().all(|e| e.at_ms < 6_000));
}

/// Cut one way the other way round: the requests are lost, so nothing reaches the store, and
/// the writes (to the resource) still land.
#[test]
fn a_cut_of_the_requests_only_renews_nothing() {
    let sim = run(&chen_leads_then(Link::CoordinatorRequests));
    assert!(events(&sim, |e| matches!(e, TraceEvent::LeaseRenewed { .. })).iter().all(|e| e.at_ms < 6_000));
    assert!(
        !events(&sim, |e| matches!(e, TraceEvent::MessageDropped { kind: MessageKind::RenewRequest, .. })).is_empty()
    );
    assert!(events(&sim, |e| matches!(e, TraceEvent::WriteJudged { .. })).iter().any(|e| e.at_ms > 6_000));
}

/// Lease election has no node-to-node traffic (unlike Raft, whose candidates ask each other for
/// votes): every message of every built-in runs between one node and the store or the resource,
/// so a cut between two candidates would have nothing to cut.
#[test]
fn no_message_runs_between_two_nodes() {
    use leaselab::engine::Endpoint;
    for id in leaselab::scenario::library::ids() {
        let sim = run(&builtin(id));
        for e in sim.trace() {
            if let TraceEvent::MessageSent { from, to, .. } = &e.event {
                let nodes = [from, to].iter().filter(|p| matches!(p, Endpoint::Node(_))).count();
                assert_eq!(nodes, 1, "{id}: {from:?} -> {to:?}");
            }
        }
    }
}

/// Out-of-range options are refused naming the field.
#[test]
fn network_fault_options_are_checked() {
    let f = |network: &str| -> ScenarioError {
        leaselab::scenario::parse(&format!(r#"{{"format":"leaselab.scenario/1","network":{{{network}}}}}"#))
            .expect_err("refused")
    };
    assert_eq!(f(r#""duplicate_percent":101"#).path, "network.duplicate_percent");
    assert_eq!(f(r#""reorder_percent":300"#).path, "network.reorder_percent");
    assert_eq!(f(r#""reorder_percent":10"#).path, "network.reorder_hold_ms");
    assert_eq!(f(r#""reorder_hold_ms":600001,"reorder_percent":1"#).path, "network.reorder_hold_ms");
}
