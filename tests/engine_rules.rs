//! The engine's rules, one timeline each, written as the seed documents and the reference
//! systems describe them.

mod common;

use common::*;
use leaselab::engine::{
    Command, Endpoint, MessageKind, Role, Sim, StepDownReason, TraceEvent, WireToken, WriteOutcome,
};

const TWO: &str = r#"{"format":"leaselab.scenario/1","seed":3,"until_ms":60000,
  "nodes":[{"id":"a"},{"id":"b","start_ms":1000}],
  "lease":{"duration_ms":15000,"renew_every_ms":5000,"renew_deadline_ms":10000,"retry_every_ms":2000},
  "network":{"latency_ms":{"min":20,"max":80}}"#;

fn two(events: &str) -> String {
    format!("{TWO}, \"events\": [{events}]}}")
}

#[test]
fn every_message_latency_is_drawn_from_the_configured_range() {
    let sim = run(&parse(&two("")));
    let mut n = 0;
    for e in sim.trace() {
        if let TraceEvent::MessageSent { arrive_ms, .. } = &e.event {
            let latency = arrive_ms - e.at_ms;
            assert!((20..=80).contains(&latency), "latency {latency}");
            n += 1;
        }
    }
    assert!(n > 20);
}

#[test]
fn a_leader_renews_every_renew_interval_and_a_candidate_retries_every_retry_period() {
    let sim = run(&parse(&two("")));
    let renews = sends(&sim, "a", MessageKind::RenewRequest);
    assert!(renews.len() >= 10);
    assert!(renews.windows(2).all(|w| w[1] - w[0] == 5_000), "{renews:?}");
    let retries = sends(&sim, "b", MessageKind::AcquireRequest);
    assert_eq!(retries[0], 1_000, "b asks as soon as it starts");
    assert!(retries.windows(2).all(|w| w[1] - w[0] == 2_000), "{retries:?}");
    // b is refused every time: a keeps renewing.
    assert_eq!(events(&sim, |e| matches!(e, TraceEvent::LeaseGranted { .. })).len(), 1);
}

#[test]
fn a_paused_leader_sends_its_prepared_write_before_learning_anything() {
    let s = parse(&two(r#"{"at_ms":20000,"do":"pause","node":"a"},{"at_ms":45000,"do":"resume","node":"a"}"#));
    let sim = run(&s);
    let after: Vec<&TraceEvent> = sim.trace().iter().filter(|e| e.at_ms >= 45_000).map(|e| &e.event).collect();
    assert!(matches!(after[0], TraceEvent::Resumed { node } if node == "a"));
    match after[1] {
        TraceEvent::MessageSent { kind: MessageKind::Write, token: Some(WireToken::Number(1)), .. } => {}
        other => panic!("the first thing a does on waking is send its old-token write, got {other:?}"),
    }
    let down = events(&sim, |e| matches!(e, TraceEvent::SteppedDown { node, .. } if node == "a"));
    assert_eq!(down.len(), 1);
    assert_eq!(down[0].at_ms, 45_000, "then it finds its renew deadline long past, on its own clock");
    assert!(matches!(down[0].event, TraceEvent::SteppedDown { reason: StepDownReason::RenewDeadline, .. }));
    // While frozen, a sent nothing at all.
    let sent_while_paused = sim
        .trace()
        .iter()
        .filter(|e| (20_000..45_000).contains(&e.at_ms))
        .any(|e| matches!(&e.event, TraceEvent::MessageSent { from: Endpoint::Node(n), .. } if n == "a"));
    assert!(!sent_while_paused);
}

#[test]
fn pause_for_ms_resumes_by_itself() {
    let sim = run(&parse(&two(r#"{"at_ms":5000,"do":"pause","node":"a","for_ms":2500}"#)));
    let resumed = events(&sim, |e| matches!(e, TraceEvent::Resumed { .. }));
    assert_eq!(resumed.iter().map(|e| e.at_ms).collect::<Vec<_>>(), [7_500]);
    assert!(events(&sim, |e| matches!(e, TraceEvent::SteppedDown { .. })).is_empty(), "a short pause costs nothing");
}

#[test]
fn a_cut_off_leader_gives_up_on_its_own_clock_before_the_lease_is_given_away() {
    let s = parse(&two(r#"{"at_ms":20000,"do":"partition","node":"a"},{"at_ms":50000,"do":"heal","node":"a"}"#));
    let sim = run(&s);
    let down = events(&sim, |e| matches!(e, TraceEvent::SteppedDown { node, .. } if node == "a"));
    let granted_b = events(&sim, |e| matches!(e, TraceEvent::LeaseGranted { node, .. } if node == "b"));
    assert_eq!((down.len(), granted_b.len()), (1, 1));
    assert!(down[0].at_ms < granted_b[0].at_ms, "renew deadline (10 s) < lease duration (15 s)");
    // Nothing from a crosses the partition while it lasts.
    let dropped = events(&sim, |e| matches!(e, TraceEvent::MessageDropped { .. }));
    assert!(!dropped.is_empty());
    let judged_from_a = sim.trace().iter().any(|e| {
        (20_100..50_000).contains(&e.at_ms)
            && matches!(&e.event, TraceEvent::WriteJudged { from: Some(n), .. } if n == "a")
    });
    assert!(!judged_from_a);
    // After healing, a is refused: b holds the lease.
    assert!(!events(&sim, |e| matches!(e, TraceEvent::AcquireRefused { node, .. } if node == "a")).is_empty());
    assert_eq!(sim.snapshot().lease.holder_identity.as_deref(), Some("b"));
}

#[test]
fn a_crash_forgets_everything_and_the_same_identity_gets_a_new_token_later() {
    let s = parse(&format!(
        "{}, \"nodes\": [{{\"id\":\"a\"}}], \"events\": [{{\"at_ms\":1000,\"do\":\"crash\",\"node\":\"a\"}},{{\"at_ms\":30000,\"do\":\"restart\",\"node\":\"a\"}}]}}",
        r#"{"format":"leaselab.scenario/1","until_ms":40000,"issuer":{"first_token":5}"#
    ));
    let sim = run(&s);
    let grants: Vec<(u64, u32)> = sim
        .trace()
        .iter()
        .filter_map(|e| match e.event {
            TraceEvent::LeaseGranted { token, lease_transitions, .. } => Some((token, lease_transitions)),
            _ => None,
        })
        .collect();
    assert_eq!(grants, [(5, 0), (6, 0)], "a new term, a new token; the holder did not change");
    let snap = sim.snapshot();
    assert_eq!(snap.nodes[0].role, Role::Leader);
    assert_eq!(snap.nodes[0].token, Some(6));
}

#[test]
fn a_restart_while_the_old_lease_lives_rejoins_the_same_term() {
    let s = parse(&format!(
        "{}, \"nodes\": [{{\"id\":\"a\"}}], \"events\": [{{\"at_ms\":1000,\"do\":\"crash\",\"node\":\"a\"}},{{\"at_ms\":2000,\"do\":\"restart\",\"node\":\"a\"}}]}}",
        r#"{"format":"leaselab.scenario/1","until_ms":10000"#
    ));
    let sim = run(&s);
    assert_eq!(events(&sim, |e| matches!(e, TraceEvent::LeaseGranted { .. })).len(), 1);
    assert_eq!(events(&sim, |e| matches!(e, TraceEvent::LeaseReacquired { token: 1, .. })).len(), 1);
}

#[test]
fn revoking_frees_the_lease_now_and_the_holder_learns_at_its_next_renewal() {
    let sim = run(&parse(&two(r#"{"at_ms":12000,"do":"revoke_lease"}"#)));
    let refused = events(&sim, |e| matches!(e, TraceEvent::RenewRefused { node, .. } if node == "a"));
    assert!(!refused.is_empty());
    let down = events(&sim, |e| matches!(e, TraceEvent::SteppedDown { reason: StepDownReason::RenewRefused, .. }));
    assert_eq!(down.len(), 1);
    let b = events(
        &sim,
        |e| matches!(e, TraceEvent::LeaseGranted { node, token: 2, lease_transitions: 1, .. } if node == "b"),
    );
    assert_eq!(b.len(), 1, "b takes the next token at its next retry");
    assert!(b[0].at_ms >= 12_000 && b[0].at_ms < 12_000 + 2_000 + 160);
}

#[test]
fn a_delayed_write_arrives_late_by_the_given_time() {
    let sim = run(&parse(&two(r#"{"at_ms":2000,"do":"delay_next_write","node":"a","by_ms":7000}"#)));
    let sent = sim
        .trace()
        .iter()
        .find_map(|e| match &e.event {
            TraceEvent::MessageSent { kind: MessageKind::Write, arrive_ms, .. } if e.at_ms > 2_000 => {
                Some((e.at_ms, *arrive_ms))
            }
            _ => None,
        })
        .expect("a writes after 2 s");
    let latency = sent.1 - sent.0;
    assert!((7_020..=7_080).contains(&latency), "{latency}");
    // Only the next one.
    let later = sim.trace().iter().filter(|e| e.at_ms > sent.0).find_map(|e| match &e.event {
        TraceEvent::MessageSent { kind: MessageKind::Write, arrive_ms, .. } => Some(arrive_ms - e.at_ms),
        _ => None,
    });
    assert!(later.is_some_and(|l| l <= 80));
}

/// Reference C3 (etcd-io/etcd#10811): the deposed holder's 41 is refused if the resource saw 42
/// first, and accepted if it arrives first. With fencing on, the oracle can only ever report the
/// second case, and reports that the resource had not seen the newer token.
#[test]
fn a_stale_token_passes_until_the_resource_has_seen_the_newer_one() {
    let base = r#"{"format":"leaselab.scenario/1","seed":41,"until_ms":60000,
      "nodes":[{"id":"a"},{"id":"b","start_ms":1000}],
      "lease":{"duration_ms":10000,"renew_every_ms":3000,"renew_deadline_ms":6000,"retry_every_ms":1000},
      "network":{"latency_ms":{"min":10,"max":50}}, "work":{"every_ms":20000}, "issuer":{"first_token":41},
      "events":[{"at_ms":4000,"do":"pause","node":"a","for_ms":12000}"#;
    let refused = parse(&format!("{base}]}}"));
    let accepted =
        parse(&format!("{base},{{\"at_ms\":5000,\"do\":\"delay_next_write\",\"node\":\"b\",\"by_ms\":5000}}]}}"));
    let out = |s| {
        let sim = run(s);
        let a_write = sim.trace().iter().find_map(|e| match &e.event {
            TraceEvent::WriteJudged {
                from: Some(n), token: WireToken::Number(41), outcome, high_water_before, ..
            } if n == "a" && e.at_ms >= 16_000 => Some((*outcome, *high_water_before)),
            _ => None,
        });
        (a_write, leaselab::scenario::Report::new(&builtin("harbor-zombie"), &sim).violations)
    };
    let (a, v) = out(&refused);
    assert_eq!(a, Some((WriteOutcome::RejectedStale, 42)));
    assert!(v.is_empty());
    let (a, v) = out(&accepted);
    assert_eq!(a, Some((WriteOutcome::Accepted, 41)), "b's first write with 42 is still on its way");
    assert_eq!(v.len(), 1);
    assert!(matches!(
        v[0].violation,
        leaselab::engine::Violation::StaleWriteAccepted {
            token: 41,
            newest_granted: 42,
            resource_had_seen_newer: false,
            ..
        }
    ));
}

#[test]
fn equal_token_policies_on_a_live_leader() {
    let policy = |p: &str| {
        let s = parse(&format!(
            r#"{{"format":"leaselab.scenario/1","until_ms":10000,"nodes":[{{"id":"a"}}],"resource":{{"equal_token":"{p}"}},"work":{{"every_ms":3000}}}}"#
        ));
        outcomes(&run(&s)).into_iter().map(|(_, o)| o).collect::<Vec<_>>()
    };
    use WriteOutcome::*;
    assert_eq!(policy("accept"), [Accepted, Accepted, Accepted, Accepted], "one leader writes many times per term");
    assert_eq!(policy("reject"), [Accepted, RejectedStale, RejectedStale, RejectedStale]);
    assert_eq!(policy("dedupe"), [Accepted, Accepted, Accepted, Accepted], "distinct op ids all apply");
}

#[test]
fn dedupe_applies_a_retried_write_once() {
    let s = parse(
        r#"{"format":"leaselab.scenario/1","until_ms":5000,"nodes":[],"resource":{"equal_token":"dedupe"},"events":[
        {"at_ms":100,"do":"raw_write","token":9,"value":"pay 10","op_id":"op-1"},
        {"at_ms":200,"do":"raw_write","token":9,"value":"pay 10","op_id":"op-1"},
        {"at_ms":300,"do":"raw_write","token":9,"value":"pay 20","op_id":"op-2"}]}"#,
    );
    let sim = run(&s);
    let got: Vec<WriteOutcome> = outcomes(&sim).into_iter().map(|(_, o)| o).collect();
    assert_eq!(got, [WriteOutcome::Accepted, WriteOutcome::Duplicate, WriteOutcome::Accepted]);
    assert_eq!(sim.snapshot().resource.accepted, 2);
}

#[test]
fn turning_fencing_off_mid_run_lets_the_next_stale_write_through() {
    let zombie = builtin("harbor-zombie");
    let mut sim = Sim::new(zombie.config.clone()).expect("valid");
    sim.advance_to(59_000);
    sim.apply(Command::SetFencing { on: false }).expect("valid command");
    sim.run_to_end();
    let chen = outcomes(&sim).into_iter().find(|(op, _)| op == "chen-8").expect("Chen's prepared write");
    assert_eq!(chen.1, WriteOutcome::Accepted);
}

#[test]
fn live_commands_are_checked_and_nonsense_is_ignored_visibly() {
    let mut sim = Sim::new(builtin("harbor-zombie").config).expect("valid");
    sim.advance_to(1_000);
    assert!(sim.apply(Command::Pause { node: "nobody".into(), for_ms: None }).is_err());
    assert!(sim.apply(Command::Pause { node: "chen".into(), for_ms: Some(0) }).is_err());
    assert!(sim.interventions().is_empty(), "refused commands leave no trace");
    sim.apply(Command::Resume { node: "chen".into() }).expect("well-formed");
    assert!(matches!(sim.trace().last().map(|e| &e.event), Some(TraceEvent::CommandIgnored { .. })));
}

#[test]
fn step_advances_one_observable_event_at_a_time() {
    let mut sim = Sim::new(builtin("harbor-zombie").config).expect("valid");
    let mut last = 0;
    for _ in 0..50 {
        let added = sim.step();
        assert!(added >= 1);
        assert!(sim.now_ms() >= last);
        last = sim.now_ms();
    }
    assert!(!sim.finished());
    sim.run_to_end();
    let (len, hash) = (sim.trace().len(), sim.trace_hash());
    assert_eq!(sim.step(), 0, "nothing happens after the end");
    assert_eq!((sim.now_ms(), sim.trace().len(), sim.trace_hash()), (90_000, len, hash));
}

/// Seed 001's liveness trade-off: when the only holder crashes, nobody leads from the crash to
/// the end of the run; the report measures that gap and marks it open.
#[test]
fn a_crashed_lone_holder_leaves_an_open_leader_gap() {
    let s = parse(
        r#"{"format":"leaselab.scenario/1","until_ms":30000,"nodes":[{"id":"a"}],
            "lease":{"duration_ms":10000},"events":[{"at_ms":2000,"do":"crash","node":"a"}]}"#,
    );
    let r = report(&s);
    assert_eq!(r.leader_gaps.len(), 1);
    let gap = &r.leader_gaps[0];
    assert!(gap.open);
    assert_eq!(gap.to_ms, 30_000);
    assert_eq!(gap.from_ms, 2_000, "the gap starts with the crash, not with the expiry");
    assert!(r.dual_beliefs.is_empty(), "one node cannot disagree with itself");
}

// ----- clocks, observer expiry, the lock protocol -------------------------------------------

/// Every send time of `kind` by `who`.
fn sends(sim: &Sim, who: &str, kind: MessageKind) -> Vec<u64> {
    sim.trace()
        .iter()
        .filter_map(|e| match &e.event {
            TraceEvent::MessageSent { kind: k, from: Endpoint::Node(n), .. } if *k == kind && n == who => Some(e.at_ms),
            _ => None,
        })
        .collect()
}

/// A node's timers run on its own clock: at 2×, a leader renews every 2.5 s of true time for a
/// 5 s renew interval; an offset changes nothing.
#[test]
fn node_timers_run_on_the_nodes_own_clock() {
    let fast = TWO.replace(r#"{"id":"a"}"#, r#"{"id":"a","clock":{"rate":2}}"#);
    let sim = run(&parse(&format!("{fast}}}")));
    let renews = sends(&sim, "a", MessageKind::RenewRequest);
    assert!(renews.windows(2).all(|w| w[1] - w[0] == 2_500), "{renews:?}");
    let offset = TWO.replace(r#"{"id":"a"}"#, r#"{"id":"a","clock":{"offset_ms":-3600000}}"#);
    let sim = run(&parse(&format!("{offset}}}")));
    let renews = sends(&sim, "a", MessageKind::RenewRequest);
    assert!(renews.windows(2).all(|w| w[1] - w[0] == 5_000), "{renews:?}");
}

/// A node clock stepped forward past the renew deadline makes the leader give up at once: the
/// deadline is judged on its own clock, and its armed timers fire when that clock reads their time.
#[test]
fn a_node_clock_jump_moves_its_renew_deadline() {
    let sim = run(&parse(&two(r#"{"at_ms":7000,"do":"clock_jump","target":"a","by_ms":20000}"#)));
    let down = events(
        &sim,
        |e| matches!(e, TraceEvent::SteppedDown { node, reason: StepDownReason::RenewDeadline, .. } if node == "a"),
    );
    assert_eq!(down.first().map(|e| e.at_ms), Some(7_000));
}

/// The store judges expiry on its clock: at half speed, a 15 s lease lasts 30 s of true time.
#[test]
fn a_slow_store_clock_stretches_the_lease_in_true_time() {
    let json = two(r#"{"at_ms":3000,"do":"crash","node":"a"}"#).replacen('{', r#"{"store_clock":{"rate":0.5},"#, 1);
    let sim = run(&parse(&json));
    let expired = events(&sim, |e| matches!(e, TraceEvent::LeaseExpired { .. }));
    let granted = events(&sim, |e| matches!(e, TraceEvent::LeaseGranted { .. }));
    // a crashed at 3 s, before its first renewal (every 5 s): renewTime is the grant.
    assert!(events(&sim, |e| matches!(e, TraceEvent::LeaseRenewed { node, .. } if node == "a")).is_empty());
    // The store's clock reads whole ms, so the grant's half-ms is rounded down: within 1 ms. Redis
    // keeps the key through its last ms, so it is gone one store ms (two true ms) later.
    let expected = granted[0].at_ms + 30_000;
    assert!(
        (expected + 1..=expected + 2).contains(&expired[0].at_ms),
        "expired at {}, expected {expected}",
        expired[0].at_ms
    );
}

/// client-go's observer expiry: a candidate never compares renewTime with its clock; it asks to
/// take over only the record version it saw unchanged for a full lease on its own clock, and its
/// retries are jittered between 1 and 2.2 retry periods.
#[test]
fn observer_candidates_wait_a_lease_from_observation_with_jittered_retries() {
    let json = two(r#"{"at_ms":5000,"do":"crash","node":"a"}"#).replacen(
        r#""retry_every_ms":2000}"#,
        r#""retry_every_ms":2000,"expiry":"observer"}"#,
        1,
    );
    let sim = run(&parse(&json));
    let retries = sends(&sim, "b", MessageKind::AcquireRequest);
    assert!(retries.windows(2).all(|w| (2_000..=4_400).contains(&(w[1] - w[0]))), "{retries:?}");
    assert!(retries.windows(2).any(|w| w[1] - w[0] != retries[1] - retries[0]), "jittered: {retries:?}");
    let observed = events(&sim, |e| matches!(e, TraceEvent::RecordObserved { node, .. } if node == "b"));
    let last_change = observed.last().expect("b observed the record").at_ms;
    let b_grant = events(&sim, |e| matches!(e, TraceEvent::LeaseGranted { node, .. } if node == "b"));
    assert!(
        b_grant[0].at_ms >= last_change + 15_000,
        "granted at {} after observing at {last_change}",
        b_grant[0].at_ms
    );
    // The store never judged expiry.
    assert!(events(&sim, |e| matches!(e, TraceEvent::LeaseExpired { .. })).is_empty());
}

/// The lock protocol: SET NX refuses even the holder itself; release is compare-and-delete and
/// frees the lock at once.
#[test]
fn a_lock_is_released_when_the_errand_is_done_and_free_at_once() {
    let json = r#"{"format":"leaselab.scenario/1","seed":4,"until_ms":12000,"protocol":"lock",
      "lock":{"name":"lantern","hold_ms":3000},"lease":{"duration_ms":9000},
      "network":{"latency_ms":{"min":50,"max":50}},
      "nodes":[{"id":"a"},{"id":"b","start_ms":10}]}"#;
    let s = parse(json);
    let r = report(&s);
    assert_eq!(r.releases[0].node, "a");
    assert_eq!(r.releases[0].outcome, leaselab::engine::ReleaseOutcome::Released);
    // B's next retry after the release succeeds; it need not wait for the 9 s TTL.
    let b = r.grants.iter().find(|g| g.node == "b").expect("b gets the lantern");
    assert!(b.at_ms >= r.releases[0].at_ms && b.at_ms < r.releases[0].at_ms + s.config.lease.retry_every_ms + 100);
    assert!(b.at_ms < r.grants[0].at_ms + 9_000);
}

/// Nothing happens after the run ends: for every built-in, `run_ended` is the last entry.
#[test]
fn the_run_ends_last() {
    for id in leaselab::scenario::library::ids() {
        let sim = run(&builtin(id));
        let last = sim.trace().last().expect("a trace");
        assert!(matches!(last.event, TraceEvent::RunEnded), "{id}: {last:?} after the end");
        assert_eq!(last.at_ms, sim.config().until_ms, "{id}");
    }
}

/// A scenario that would write every millisecond for an hour stops at the engine's limit and
/// says so, instead of growing without bound.
#[test]
fn a_runaway_scenario_stops_at_the_trace_limit() {
    let s = parse(r#"{"format":"leaselab.scenario/1","until_ms":3600000,"work":{"every_ms":1}}"#);
    let sim = run(&s);
    let trace = sim.trace();
    assert_eq!(trace.len(), leaselab::engine::MAX_TRACE_ENTRIES);
    assert!(matches!(trace[trace.len() - 2].event, TraceEvent::TraceLimitReached { .. }));
    assert!(matches!(trace[trace.len() - 1].event, TraceEvent::RunEnded));
    assert!(sim.finished());
    assert!(trace.last().map(|e| e.at_ms).unwrap_or(0) < 3_600_000, "it stopped early");
}

/// etcd's lessor deletes an expired lease's key only at its next check (every 500 ms): a rival
/// asking in between is refused although the lease has ended, and the log says so; Redis, which
/// drops an expired key at once, grants the same request. (lock-late-del-etcd with seed 1: Smith
/// Wang asks about 200 ms after A-Xiu's lease ended.)
#[test]
fn etcd_refuses_a_rival_until_its_lessor_deletes_the_expired_key() {
    let mut s = builtin("lock-late-del-etcd");
    s.config.seed = 1;
    let sim = run(&s);
    let lingering: Vec<&leaselab::engine::TraceEntry> =
        events(&sim, |e| matches!(e, TraceEvent::AcquireRefused { node, holder, .. } if node == "b" && holder == "a"))
            .into_iter()
            .filter(|e| matches!(e.event, TraceEvent::AcquireRefused { expires_ms, .. } if expires_ms < e.at_ms))
            .collect();
    let refused = lingering.first().expect("a refusal after A's lease ended");
    let expired = events(&sim, |e| matches!(e, TraceEvent::LeaseExpired { holder, .. } if holder == "a"));
    assert!(expired[0].at_ms > refused.at_ms, "the key was deleted only after");
    assert!(expired[0].at_ms - refused.at_ms < 500, "within one lessor period");
    let cast = leaselab::story::cast::Cast::new(&s);
    let told = leaselab::story::narrate::narrate(refused, &cast, leaselab::vocab::Lang::En).expect("told");
    assert!(told.technical.starts_with("etcd 3.4: ") && told.technical.contains("lessor"), "{}", told.technical);

    let mut redis = s.clone();
    redis.config.store_kind = leaselab::engine::StoreKind::Redis;
    let sim = run(&redis);
    assert!(
        events(&sim, |e| matches!(e, TraceEvent::AcquireRefused { .. }))
            .iter()
            .all(|e| matches!(e.event, TraceEvent::AcquireRefused { expires_ms, .. } if expires_ms >= e.at_ms)),
        "Redis never refuses after the lease's end"
    );
}

/// A store profile's word in scenario files (`store.kind`, read by its serde name) is the word
/// the page and the reports use for it (`StoreKind::code`).
#[test]
fn a_store_profile_has_one_name() {
    for kind in leaselab::engine::StoreKind::ALL {
        let word = serde_json::to_value(kind).expect("a unit variant serialises");
        assert_eq!(word.as_str(), Some(kind.code()), "{kind:?}");
    }
}
