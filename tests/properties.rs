//! Invariants that must hold for every run: random configurations and random interventions,
//! checked after the fact against the whole trace (the TigerBeetle way: a seed is a replayable
//! failure).

mod common;

use leaselab::engine::{
    Command, Config, EqualTokenPolicy, IssuerConfig, LeaseConfig, NetworkConfig, NodeConfig, ResourceConfig,
    ScheduledCommand, Sim, TraceEvent, Violation, WorkConfig, WriteOutcome,
};
use proptest::prelude::*;

fn command(kind: u8, node: String, by: u64) -> Command {
    match kind % 9 {
        0 => Command::Pause { node, for_ms: None },
        1 => Command::Pause { node, for_ms: Some(by) },
        2 => Command::Resume { node },
        3 => Command::Crash { node },
        4 => Command::Restart { node },
        5 => Command::Partition { node },
        6 => Command::Heal { node },
        7 => Command::RevokeLease,
        _ => Command::DelayNextWrite { node, by_ms: by },
    }
}

prop_compose! {
    fn config()(
        seed in any::<u64>(),
        n in 1usize..5,
        duration in 2_000u64..20_000,
        renew_frac in 2u64..6,
        deadline_pct in 30u64..95,
        retry in 100u64..3_000,
        lat in (0u64..300, 0u64..300),
        work in 200u64..5_000,
        policy in 0u8..3,
        first_token in 1u64..1_000_000,
        raw in prop::collection::vec((0u64..120_000, 0u8..9, 0usize..5, 1u64..20_000), 0..14),
    ) -> Config {
        let nodes: Vec<NodeConfig> = (0..n).map(|i| NodeConfig { id: format!("n{i}"), start_ms: (i as u64) * 300 }).collect();
        let events = raw
            .into_iter()
            .map(|(at, kind, who, by)| ScheduledCommand { at_ms: at, command: command(kind, format!("n{}", who % n), by) })
            .collect();
        Config {
            seed,
            until_ms: 120_000,
            nodes,
            lease: LeaseConfig {
                duration_ms: duration,
                renew_every_ms: (duration / renew_frac).max(1),
                renew_deadline_ms: (duration * deadline_pct / 100).max(1),
                retry_every_ms: retry,
            },
            network: NetworkConfig { latency_min_ms: lat.0.min(lat.1), latency_max_ms: lat.0.max(lat.1) },
            resource: ResourceConfig {
                fencing: true,
                equal_token: [EqualTokenPolicy::Accept, EqualTokenPolicy::Reject, EqualTokenPolicy::Dedupe][policy as usize],
                persist_high_water: true,
                token_check: leaselab::engine::TokenCheck::Ordered,
            },
            work: WorkConfig { every_ms: work },
            issuer: IssuerConfig { first_token },
            events,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn safety_invariants_hold_for_any_run(config in config()) {
        let duration = config.lease.duration_ms;
        let mut sim = Sim::new(config).expect("generated configs are valid");
        sim.run_to_end();

        let mut last_token: Option<u64> = None;
        // (holder, expires_ms) of the live term, as the coordinator recorded it.
        let mut term: Option<(String, u64)> = None;
        let mut revoked = false;
        let mut high_water = 0u64;
        for e in sim.trace() {
            match &e.event {
                TraceEvent::LeaseGranted { node, token, expires_ms, .. } => {
                    // Tokens only climb, also for the same identity.
                    prop_assert!(last_token.is_none_or(|t| *token > t), "token {token} after {last_token:?}");
                    // A new term only once the old one expired or was revoked (at most one holder).
                    if let Some((_, exp)) = &term {
                        prop_assert!(revoked || e.at_ms >= *exp, "granted at {} while live until {exp}", e.at_ms);
                    }
                    prop_assert_eq!(*expires_ms, e.at_ms + duration);
                    last_token = Some(*token);
                    term = Some((node.clone(), *expires_ms));
                    revoked = false;
                }
                TraceEvent::LeaseRenewed { node, token, expires_ms } | TraceEvent::LeaseReacquired { node, token, expires_ms } => {
                    prop_assert_eq!(Some(*token), last_token, "only the current term renews");
                    let (holder, exp) = term.clone().expect("a term exists");
                    prop_assert_eq!(&holder, node);
                    prop_assert!(!revoked && e.at_ms < exp, "renewed after expiry");
                    term = Some((holder, *expires_ms));
                }
                TraceEvent::LeaseRevoked { .. } => revoked = true,
                TraceEvent::WriteJudged { token, outcome, high_water_before, high_water_after, .. } => {
                    prop_assert_eq!(*high_water_before, high_water);
                    prop_assert!(high_water_after >= high_water_before, "the mark never falls");
                    match outcome {
                        WriteOutcome::Accepted => {
                            let t = token.valid().expect("fencing on: only valid tokens pass");
                            prop_assert!(t >= *high_water_before);
                        }
                        _ => prop_assert_eq!(high_water_after, high_water_before, "a refused write changes nothing"),
                    }
                    high_water = *high_water_after;
                }
                TraceEvent::ViolationFound { violation: Violation::StaleWriteAccepted { resource_had_seen_newer, .. } } => {
                    // Seed 002: with fencing on, a stale token can only pass before the resource saw a newer one.
                    prop_assert!(!resource_had_seen_newer);
                }
                TraceEvent::ViolationFound { violation } => prop_assert!(false, "unexpected {violation:?}"),
                _ => {}
            }
        }
        prop_assert!(sim.finished());
        let (gaps, duals) = leaselab::engine::oracle::intervals(sim.trace());
        for w in gaps.windows(2) {
            prop_assert!(w[0].to_ms <= w[1].from_ms, "gaps are ordered and disjoint");
        }
        for w in duals.windows(2) {
            prop_assert!(w[0].to_ms <= w[1].from_ms, "dual beliefs are ordered and disjoint");
        }
        prop_assert!(gaps.iter().all(|g| g.from_ms + g.length_ms == g.to_ms));
        prop_assert!(duals.iter().all(|d| d.nodes.len() >= 2 && d.from_ms + d.length_ms == d.to_ms));
        let snap = sim.snapshot();
        prop_assert!(snap.in_flight.iter().all(|m| m.arrive_ms >= m.sent_ms));
    }

    /// Same configuration, same trace, bit for bit; and a clone taken mid-run continues identically.
    #[test]
    fn runs_are_deterministic_and_clones_continue_identically(config in config(), cut in 0u64..120_000) {
        let mut a = Sim::new(config.clone()).expect("valid");
        let mut b = Sim::new(config).expect("valid");
        a.advance_to(cut);
        let mut c = a.clone();
        a.run_to_end();
        b.run_to_end();
        c.run_to_end();
        prop_assert_eq!(a.trace_hash(), b.trace_hash());
        prop_assert_eq!(a.trace_hash(), c.trace_hash());
        prop_assert_eq!(a.trace(), c.trace());
    }
}

#[test]
fn live_interventions_replay_to_the_same_trace() {
    let scenario = common::builtin("harbor-zombie");
    let mut live = Sim::new(scenario.config.clone()).expect("valid");
    live.advance_to(12_345);
    live.step();
    live.apply(Command::Partition { node: "lin".into() }).expect("valid");
    live.advance_to(40_000);
    live.apply(Command::Heal { node: "lin".into() }).expect("valid");
    live.apply(Command::SetFencing { on: false }).expect("valid");
    live.run_to_end();
    let replayed = Sim::replay(scenario.config, live.interventions()).map(|mut s| {
        s.run_to_end();
        s
    });
    let replayed = replayed.expect("valid");
    assert_eq!(replayed.trace_hash(), live.trace_hash());
    assert_eq!(replayed.trace(), live.trace());
}

#[test]
fn the_seed_changes_the_run() {
    let mut a = common::builtin("harbor-zombie").config;
    let mut b = a.clone();
    b.seed += 1;
    let hash = |c: &mut Config| {
        let mut s = Sim::new(c.clone()).expect("valid");
        s.run_to_end();
        s.trace_hash()
    };
    assert_ne!(hash(&mut a), hash(&mut b), "latencies differ, so the trace does");
    assert_eq!(hash(&mut a), hash(&mut a.clone()));
}
