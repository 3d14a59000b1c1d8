//! The exhaustive explorer on the harbor: what the smallest mischief is that breaks safety, with
//! fencing off and on.

mod common;

use leaselab::engine::explore::{shortest_violation, Bounds};
use leaselab::engine::{Command, Config, ScheduledCommand, Violation};

/// The harbor without its scripted nap: Chen and Lin, 60 s, fencing as given.
fn harbor(fencing: bool) -> Config {
    let mut c = common::builtin("harbor-zombie").config;
    c.events.clear();
    c.until_ms = 60_000;
    c.resource.fencing = fencing;
    c
}

fn bounds(candidates: Vec<Command>, max_interventions: usize) -> Bounds {
    Bounds { grid_ms: 5_000, max_interventions, candidates, max_states: 20_000 }
}

fn nap(node: &str) -> Command {
    Command::Pause { node: node.into(), for_ms: Some(30_000) }
}

/// Two flags obeyed: the boat follows an old number after a newer one.
fn collision(v: &Violation) -> bool {
    matches!(v, Violation::StaleWriteAccepted { resource_had_seen_newer: true, .. } | Violation::TokenRegression { .. })
}

#[test]
fn without_fencing_one_nap_is_enough_to_wreck_the_boat() {
    let out = shortest_violation(&harbor(false), &bounds(vec![nap("chen"), nap("lin")], 2), collision).expect("valid");
    let (sequence, violation) = out.found.expect("a collision exists");
    // At 0 s Chen is not leading yet, so the first nap that matters is at 5 s: he wakes at 35 s,
    // after Lin took 8, and his prepared 7 is obeyed.
    assert_eq!(sequence, [ScheduledCommand { at_ms: 5_000, command: nap("chen") }]);
    assert!(matches!(
        violation,
        Violation::StaleWriteAccepted { token: 7, newest_granted: 8, resource_had_seen_newer: true, .. }
    ));
    eprintln!("fencing off: found after {} runs", out.states_visited);
}

#[test]
fn with_fencing_no_sequence_of_naps_and_delays_makes_the_boat_obey_an_older_number() {
    let candidates = vec![
        nap("chen"),
        nap("lin"),
        Command::DelayNextWrite { node: "lin".into(), by_ms: 30_000 },
        Command::DelayNextWrite { node: "chen".into(), by_ms: 30_000 },
    ];
    let out = shortest_violation(&harbor(true), &bounds(candidates, 2), collision).expect("valid");
    assert_eq!(out.found, None);
    assert!(out.exhausted, "every sequence within the bound was examined");
    assert!(out.states_visited > 500, "{}", out.states_visited);
    eprintln!("fencing on: no collision in {} runs", out.states_visited);
}

/// Seed 002's window, found by search: a stale token still passes if it arrives before the
/// resource has seen the newer one. With a leader that writes rarely (every 40 s), it takes two
/// interventions: the nap, and a headwind on Lin's first flag.
#[test]
fn with_fencing_a_stale_write_needs_the_new_flag_to_be_late() {
    let mut config = harbor(true);
    config.work.every_ms = 40_000;
    let candidates = vec![nap("chen"), Command::DelayNextWrite { node: "lin".into(), by_ms: 30_000 }];
    let any_stale = |v: &Violation| matches!(v, Violation::StaleWriteAccepted { .. });
    let out = shortest_violation(&config, &bounds(candidates, 2), any_stale).expect("valid");
    let (sequence, violation) = out.found.expect("the window exists");
    assert_eq!(sequence.len(), 2);
    assert!(matches!(violation, Violation::StaleWriteAccepted { token: 7, resource_had_seen_newer: false, .. }));
    eprintln!("fencing on, any stale write: {sequence:?} after {} runs", out.states_visited);
}

/// The same question as above with `resource.epoch_barrier` on: the grant raises the mark
/// before the new holder works, so no sequence within the bound lets a stale token pass.
#[test]
fn with_an_epoch_barrier_no_stale_write_passes_at_all() {
    let mut config = harbor(true);
    config.work.every_ms = 40_000;
    config.resource.epoch_barrier = true;
    let candidates = vec![
        nap("chen"),
        nap("lin"),
        Command::DelayNextWrite { node: "lin".into(), by_ms: 30_000 },
        Command::DelayNextWrite { node: "chen".into(), by_ms: 30_000 },
    ];
    let any_stale = |v: &Violation| matches!(v, Violation::StaleWriteAccepted { .. });
    let out = shortest_violation(&config, &bounds(candidates, 2), any_stale).expect("valid");
    assert_eq!(out.found, None);
    assert!(out.exhausted);
    assert!(out.states_visited > 500, "{}", out.states_visited);
    eprintln!("epoch barrier: no stale write in {} runs", out.states_visited);
}

/// The lantern's lock: with a plain DEL one nap of the holder is enough to delete another's
/// lock; with the owner check no sequence of naps and delays does.
#[test]
fn the_owner_check_is_what_keeps_a_late_release_harmless() {
    let mut config = common::builtin("lock-late-del").config;
    config.events.clear();
    config.until_ms = 20_000;
    let naps = |ids: &[&str]| {
        ids.iter().map(|id| Command::Pause { node: (*id).into(), for_ms: Some(7_000) }).collect::<Vec<_>>()
    };
    let deleted = |v: &Violation| matches!(v, Violation::LockDeletedByNonOwner { .. });
    let small = |candidates| Bounds { grid_ms: 1_000, max_interventions: 2, candidates, max_states: 20_000 };
    let out = shortest_violation(&config, &small(naps(&["a", "b", "c"])), deleted).expect("valid");
    let (sequence, _) = out.found.expect("a plain DEL deletes another's lock");
    assert_eq!(sequence.len(), 1, "{sequence:?}");
    eprintln!("plain DEL: found {sequence:?} after {} runs", out.states_visited);

    config.lock.release_check = leaselab::engine::ReleaseCheck::Owner;
    let out = shortest_violation(&config, &small(naps(&["a", "b", "c"])), deleted).expect("valid");
    assert_eq!(out.found, None);
    assert!(out.exhausted);
    eprintln!("owner check: none in {} runs", out.states_visited);
}
