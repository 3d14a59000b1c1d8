//! Time travel (issue 4's engine part): a seek from checkpoints gives exactly the state a replay
//! from zero gives, and an intervention in the past forks the run.

mod common;

use common::*;
use leaselab::engine::timeline::Timeline;
use leaselab::engine::{Command, ScheduledCommand, Sim, TraceEvent};

fn replay_to(config: &leaselab::engine::Config, interventions: &[ScheduledCommand], t: u64) -> Sim {
    let upto: Vec<ScheduledCommand> = interventions.iter().filter(|i| i.at_ms <= t).cloned().collect();
    let mut sim = Sim::replay(config.clone(), &upto).expect("valid");
    sim.advance_to(t);
    sim
}

/// Seeks in any order, to grid points, between them and past the end, match a replay from zero
/// bit for bit (trace and hash), with interventions on and off the grid.
#[test]
fn a_seek_is_a_replay_bit_for_bit() {
    let mut config = builtin("harbor-zombie").config;
    config.until_ms = 300_000;
    let mut timeline = Timeline::new(config.clone()).expect("valid");
    let every = timeline.every_ms();
    let plan = [
        (3_000, Command::Pause { node: "lin".into(), for_ms: Some(20_000) }),
        (every * 2, Command::Crash { node: "chen".into() }),
        (every * 2, Command::Restart { node: "chen".into() }),
        (every * 5 + 17, Command::SetFencing { on: false }),
    ];
    for (at, command) in plan {
        timeline.intervene(at, command).expect("valid");
    }
    let interventions = timeline.interventions().to_vec();
    assert_eq!(interventions.len(), 4);
    for t in [299_999, 0, every, every * 2, every * 2 + 1, 3_000, 17, every * 5 + 17, 123_456, 300_000, 999_999] {
        let seek = timeline.seek(t);
        let replay = replay_to(&config, &interventions, t);
        assert_eq!(seek.now_ms(), replay.now_ms(), "t = {t}");
        assert_eq!(seek.trace_hash(), replay.trace_hash(), "t = {t}");
        assert_eq!(seek.trace(), replay.trace(), "t = {t}");
    }
    assert!(timeline.checkpoints() as u64 <= leaselab::engine::timeline::MAX_CHECKPOINTS + 1);
}

/// Seed `000`, rewritten: wake Chen long before Lin is granted 8 and his stale 7 is never sent
/// late; the old future (with its refused 7) is discarded.
#[test]
fn waking_chen_earlier_forks_the_run() {
    let scenario = builtin("harbor-zombie");
    let mut timeline = Timeline::new(scenario.config.clone()).expect("valid");
    let end = scenario.config.until_ms;
    let original = timeline.seek(end);
    let refused = |sim: &Sim| {
        sim.trace()
            .iter()
            .filter(|e| matches!(&e.event, TraceEvent::WriteJudged { from: Some(f), outcome, .. } if f == "chen" && *outcome != leaselab::engine::WriteOutcome::Accepted))
            .count()
    };
    assert!(refused(&original) >= 1, "the fable: Chen's stale flag is voided");
    // Find when Chen fell asleep, and wake him one second later.
    let asleep = original
        .trace()
        .iter()
        .find(|e| matches!(&e.event, TraceEvent::Paused { node } if node == "chen"))
        .expect("Chen falls asleep")
        .at_ms;
    timeline.intervene(asleep + 1_000, Command::Resume { node: "chen".into() }).expect("valid");
    let forked = timeline.seek(end);
    assert_ne!(forked.trace_hash(), original.trace_hash(), "the future changed");
    assert_eq!(refused(&forked), 0, "awake in time, Chen renews and nothing of his is refused");
    // The prefix before the fork is the same.
    let prefix = original.trace().iter().take_while(|e| e.at_ms <= asleep).count();
    assert_eq!(&forked.trace()[..prefix], &original.trace()[..prefix]);
    // Intervening earlier still discards the later intervention.
    timeline.intervene(asleep / 2, Command::SetFencing { on: false }).expect("valid");
    assert_eq!(timeline.interventions().len(), 1);
    assert!(timeline.intervene(10, Command::Crash { node: "ghost".into() }).is_err());
    assert_eq!(timeline.interventions().len(), 1, "a refused command changes nothing");
}

/// Playing forward after a seek back replays the interventions still ahead, exactly as the run
/// did the first time.
#[test]
fn playing_on_after_a_seek_back_replays_the_future() {
    let scenario = builtin("harbor-zombie");
    let mut timeline = Timeline::new(scenario.config.clone()).expect("valid");
    timeline
        .intervene(20_000, Command::Partition { node: "lin".into(), from: leaselab::engine::Link::All })
        .expect("valid");
    timeline.intervene(50_000, Command::SetFencing { on: false }).expect("valid");
    let end = scenario.config.until_ms;
    let straight = timeline.seek(end);
    let mut sim = timeline.seek(10_000);
    for t in [15_000, 20_000, 20_001, 49_999, 50_000, 70_000, end] {
        timeline.advance(&mut sim, t);
    }
    assert_eq!(sim.trace_hash(), straight.trace_hash());
    assert_eq!(timeline.next_intervention_ms(20_000), Some(50_000));
    assert_eq!(timeline.next_intervention_ms(50_000), None);
}

/// A run that reaches the trace limit (a write every millisecond) can still be sought and forked
/// exactly: the checkpoints share one trace (each used to hold a copy, gigabytes in the page),
/// and a fork before the last checkpoint drops only the trace after it.
#[test]
fn a_run_at_the_trace_limit_seeks_and_forks_exactly() {
    let mut config = builtin("harbor-zombie").config;
    config.until_ms = 300_000;
    config.work.every_ms = 1;
    let mut timeline = Timeline::new(config.clone()).expect("valid");
    let end = timeline.seek(300_000);
    assert!(
        end.trace().iter().any(|e| matches!(e.event, TraceEvent::TraceLimitReached { .. })),
        "the run stops at the limit"
    );
    for t in [60_000, 5_000, 299_000] {
        assert_eq!(timeline.seek(t).trace_hash(), replay_to(&config, &[], t).trace_hash(), "t = {t}");
    }
    timeline.intervene(30_000, Command::Crash { node: "lin".into() }).expect("valid");
    let interventions = timeline.interventions().to_vec();
    for t in [29_999, 30_000, 45_000, 120_000] {
        let seek = timeline.seek(t);
        let replay = replay_to(&config, &interventions, t);
        assert_eq!(seek.trace(), replay.trace(), "t = {t}");
        assert_eq!(seek.trace_hash(), replay.trace_hash(), "t = {t}");
    }
}

/// The step button after a seek back, with an intervention still ahead: every step gives the run
/// that the interventions define, entry for entry, and the intervention is applied, never stepped
/// over (walkthrough of issue 4: Step skipped Chen's wake-up at 25 s and the share link then
/// replayed a different run).
#[test]
fn stepping_never_steps_over_an_intervention_ahead() {
    let config = builtin("harbor-zombie").config;
    let mut timeline = Timeline::new(config.clone()).expect("valid");
    timeline.intervene(25_000, Command::Resume { node: "chen".into() }).expect("valid");
    let interventions = timeline.interventions().to_vec();
    let mut whole = Sim::replay(config.clone(), &interventions).expect("valid");
    whole.run_to_end();
    for from in [24_545, 24_999, 20_000] {
        let mut sim = timeline.seek(from);
        let mut woke = false;
        for _ in 0..120 {
            timeline.step(&mut sim);
            let n = sim.trace().len();
            assert_eq!(sim.trace(), &whole.trace()[..n], "stepping from {from} left the run at {} ms", sim.now_ms());
            woke |= sim
                .trace()
                .iter()
                .any(|e| matches!(&e.event, TraceEvent::Resumed { node } if node == "chen") && e.at_ms == 25_000);
            if sim.finished() {
                break;
            }
        }
        assert!(woke, "stepping from {from} applied the wake-up at 25 s");
    }
}

/// A run stopped at the trace limit schedules nothing more: it ends at once instead of running on
/// to `until_ms` without a trace (walkthrough of issue 4: a minute and 6.8 GB for a day of writes
/// every millisecond, a blank page in the browser).
#[test]
fn a_run_stopped_at_the_trace_limit_schedules_nothing_more() {
    let mut config = builtin("harbor-zombie").config;
    config.until_ms = 86_400_000;
    config.work.every_ms = 1;
    config.network = leaselab::engine::NetworkConfig::with_latency(0, 0);
    config.events.clear();
    let mut sim = Sim::new(config).expect("valid");
    sim.advance_to(600_000);
    assert!(sim.finished(), "the limit ends the run");
    assert_eq!(sim.trace().len(), leaselab::engine::MAX_TRACE_ENTRIES);
    assert_eq!(sim.next_event_ms(), None, "nothing is left to process after the end");
    let stopped = sim.now_ms();
    assert!(stopped < 600_000, "the clock stays where the run stopped: {stopped}");
    sim.advance_to(700_000);
    assert_eq!(sim.now_ms(), stopped);
}
