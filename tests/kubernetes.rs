//! The Kubernetes Lease profile (`store.kind: kubernetes`): client-go's renewal loop, its
//! observer expiry on a monotonic clock, and the absence of any fencing token. Each test states
//! what client-go does (`tools/leaderelection/leaderelection.go`, the reference corpus in
//! `shared/reference/semantics-and-failures.md` §1.1) and checks that the run reaches it, and
//! that the run without the rule does not.

mod common;

use common::*;
use leaselab::engine::compare::Setting;
use leaselab::engine::{
    Command, Config, ObserverDuration, ScheduledCommand, Sim, StepDownReason, TimerClock, TraceEntry, TraceEvent,
    Violation,
};

fn play(config: Config) -> Sim {
    let mut sim = Sim::new(config).expect("valid");
    sim.run_to_end();
    sim
}

fn step_downs(sim: &Sim, who: &str) -> Vec<(u64, StepDownReason)> {
    sim.trace()
        .iter()
        .filter_map(|e| match &e.event {
            TraceEvent::SteppedDown { node, reason, .. } if node == who => Some((e.at_ms, *reason)),
            _ => None,
        })
        .collect()
}

fn first_at(sim: &Sim, pred: impl Fn(&TraceEvent) -> bool) -> Option<u64> {
    sim.trace().iter().find(|e| pred(&e.event)).map(|e: &TraceEntry| e.at_ms)
}

fn renewals(sim: &Sim, who: &str) -> Vec<u64> {
    events(sim, |e| matches!(e, TraceEvent::LeaseRenewed { node, .. } if node == who)).iter().map(|e| e.at_ms).collect()
}

/// client-go's defaults: the leader tries every RetryPeriod (2 s) and a lost try is retried, so
/// a 4 s outage of the API server costs nothing; giving up at the first refusal with a renewal
/// every third of the lease loses the lease to the same outage (issue 13: "one lost renewal
/// ends its leadership").
#[test]
fn client_go_rides_out_an_outage_that_a_give_up_policy_does_not() {
    let s = builtin("k8s-renew-retry");
    let sim = play(s.config.clone());
    let before_cut: Vec<u64> = renewals(&sim, "chen").into_iter().filter(|t| *t < 15_000).collect();
    for w in before_cut.windows(2) {
        // RetryPeriod after the previous reply, plus a message's latency (20–80 ms each way).
        assert!((2_000..=2_200).contains(&(w[1] - w[0])), "renewals every RetryPeriod: {before_cut:?}");
    }
    assert!(step_downs(&sim, "chen").is_empty(), "Chen leads on");
    assert!(
        renewals(&sim, "chen").iter().any(|t| (19_000..21_100).contains(t)),
        "the first try after the heal succeeds"
    );
    assert_eq!(first_at(&sim, |e| matches!(e, TraceEvent::LeaseGranted { node, .. } if node == "lin")), None);

    assert!(Setting::RenewPolicy.applies(&s.config));
    let give_up = play(Setting::RenewPolicy.flipped(&s.config));
    let lost = step_downs(&give_up, "chen");
    assert_eq!(lost.len(), 1, "{lost:?}");
    assert_eq!(lost[0].1, StepDownReason::RenewDeadline);
    assert!((19_000..21_000).contains(&lost[0].0), "10 s after the last confirmed send, about 20.1 s: {lost:?}");
}

/// kubernetes/kubernetes#23731 and client-go's renew(): a refused renewal is one failed try. The
/// deposed leader believes it leads, and works, until RenewDeadline, at most RetryPeriod +
/// RenewDeadline (12 s) after its last good renewal; with no fencing token its writes land.
#[test]
fn a_refused_renewal_leaves_a_client_go_leader_working_until_its_deadline() {
    let s = builtin("k8s-split-brain");
    let sim = play(s.config.clone());
    let lin_leads =
        first_at(&sim, |e| matches!(e, TraceEvent::BecameLeader { node, .. } if node == "lin")).expect("Lin leads");
    let refused: Vec<u64> = events(&sim, |e| matches!(e, TraceEvent::RenewRefused { node, .. } if node == "chen"))
        .iter()
        .map(|e| e.at_ms)
        .collect();
    assert!(refused.len() >= 2, "refused and tried again: {refused:?}");
    let down = step_downs(&sim, "chen");
    assert_eq!(down.len(), 1);
    assert_eq!(down[0].1, StepDownReason::RenewDeadline, "a refusal did not end it");
    assert!(down[0].0 > lin_leads + 4_000, "two leaders for more than 4 s");
    let last_ok = renewals(&sim, "chen").into_iter().filter(|t| *t < lin_leads).max().expect("renewed before");
    assert!(down[0].0 <= last_ok + 12_000 + 80, "bounded by RetryPeriod + RenewDeadline");
    let stale: Vec<&TraceEntry> = events(
        &sim,
        |e| matches!(e, TraceEvent::ViolationFound { violation: Violation::StaleWriteAccepted { from: Some(f), .. }, .. } if f == "chen"),
    );
    assert!(stale.iter().any(|e| e.at_ms > refused[0]), "Chen's work after the refusal lands: nothing fences it");

    // Giving up (a renewal every third of the lease, 10 s after the last confirmed send): Chen
    // stops as he wakes.
    let give_up = play(Setting::RenewPolicy.flipped(&s.config));
    let down = step_downs(&give_up, "chen");
    assert!(down.first().is_some_and(|d| (11_000..11_200).contains(&d.0)), "{down:?}");
}

/// C11, kubernetes/kubernetes#47671 → PR #114872: a candidate that waits out its own shorter
/// LeaseDuration takes over while the leader (30 s lease, 20 s RenewDeadline) still leads; one
/// that waits out the record's leaseDurationSeconds takes over only after it stopped.
#[test]
fn the_records_lease_duration_is_the_one_that_counts() {
    let s = builtin("k8s-duration-mismatch");
    assert_eq!(s.config.lease.observer_duration, ObserverDuration::Own);
    let old = play(s.config.clone());
    let chen_down = step_downs(&old, "chen")[0].0;
    let lin_in = first_at(&old, |e| matches!(e, TraceEvent::LeaseGranted { node, .. } if node == "lin")).expect("Lin");
    assert!(lin_in < chen_down, "old client-go: overlap ({lin_in} < {chen_down})");
    let observed = events(&old, |e| matches!(e, TraceEvent::RecordObserved { node, .. } if node == "lin"));
    assert!(observed.iter().all(|e| matches!(e.event, TraceEvent::RecordObserved { lease_duration_ms: 10_000, .. })));

    let mut fixed = s.config.clone();
    fixed.lease.observer_duration = ObserverDuration::Record;
    let new = play(fixed);
    let chen_down = step_downs(&new, "chen")[0].0;
    let lin_in = first_at(&new, |e| matches!(e, TraceEvent::LeaseGranted { node, .. } if node == "lin")).expect("Lin");
    assert!(lin_in > chen_down, "the record's 30 s: no overlap ({lin_in} > {chen_down})");
    let last_look = events(&new, |e| matches!(e, TraceEvent::RecordObserved { node, .. } if node == "lin"))
        .last()
        .map(|e| e.at_ms)
        .expect("Lin looked");
    assert!(lin_in >= last_look + 30_000, "a full record lease after her last look");
}

/// client-go measures on Go's monotonic clock: a wall-clock step on a node changes what its
/// wall clock reads and nothing else. The same step on a node whose timers follow the wall
/// clock moves them.
#[test]
fn a_wall_clock_step_does_not_move_monotonic_timers() {
    let s = builtin("k8s-renew-retry");
    assert!(s.config.nodes.iter().all(|n| n.timers == TimerClock::Monotonic), "the profile's default");
    let base = play(s.config.clone());
    let mut stepped = s.config.clone();
    stepped
        .events
        .push(ScheduledCommand { at_ms: 5_000, command: Command::ClockJump { target: "chen".into(), by_ms: 600_000 } });
    let mono = play(stepped.clone());
    let without_jump: Vec<&TraceEntry> =
        mono.trace().iter().filter(|e| !matches!(e.event, TraceEvent::ClockJumped { .. })).collect();
    assert_eq!(without_jump.len(), base.trace().len());
    assert!(without_jump.iter().zip(base.trace()).all(|(a, b)| a.event == b.event && a.at_ms == b.at_ms));
    assert_eq!(mono.snapshot().nodes[0].clock_ms - base.snapshot().nodes[0].clock_ms, 600_000, "the wall reads it");

    for n in &mut stepped.nodes {
        n.timers = TimerClock::Wall;
    }
    let wall = play(stepped);
    assert_ne!(wall.trace_hash(), base.trace_hash());
    assert!(
        step_downs(&wall, "chen").iter().any(|d| d.1 == StepDownReason::RenewDeadline),
        "ten minutes forward: the renew deadline passes at once"
    );
}

/// A Kubernetes Lease issues no fencing token: a fence cannot be turned on, and the log says
/// that the number the scene shows is only LeaseLab's count of terms and that leaseTransitions
/// is not a token.
#[test]
fn a_kubernetes_lease_has_no_token_to_fence_with() {
    let s = builtin("k8s-split-brain");
    let mut fenced = s.config.clone();
    fenced.resource.fencing = true;
    let e = Sim::new(fenced).expect_err("no token to check");
    assert_eq!(e.path, "resource.fencing");
    let mut sim = Sim::new(s.config.clone()).expect("valid");
    sim.advance_to(12_000);
    assert!(sim.apply(Command::SetFencing { on: true }).is_err());
    assert!(sim.snapshot().lease.token.is_some(), "LeaseLab still numbers the terms to judge them");
    let cast = leaselab::story::Cast::new(&s);
    let grant = sim.trace().iter().find(|e| matches!(e.event, TraceEvent::LeaseGranted { .. })).expect("a grant");
    let told = leaselab::story::narrate(grant, &cast, leaselab::vocab::Lang::En).expect("told");
    assert!(told.technical.contains("carries no fencing token"), "{}", told.technical);
    assert!(told.technical.contains("leaseTransitions is not one"), "{}", told.technical);
}
