//! Benchmark: the exhaustive explorer's questions, with the runs it examined and its wall time.
//!
//! `cargo run --release --example explore` asks the explorer ([`leaselab::engine::explore`])
//! the questions the tests ask and prints, for each, the answer, how many intervention sequences
//! it played to the end, and how long that took. The engine never reads a clock; only this
//! harness does.

use std::time::Instant;

use leaselab::engine::explore::{shortest_violation, Bounds};
use leaselab::engine::{Command, Config, ReleaseCheck, Violation};
use leaselab::scenario::library;

fn builtin(id: &str) -> Config {
    match library::get(id) {
        Some(Ok(s)) => s.config,
        _ => {
            eprintln!("built-in {id} is missing");
            std::process::exit(2)
        }
    }
}

fn nap(node: &str, for_ms: u64) -> Command {
    Command::Pause { node: node.into(), for_ms: Some(for_ms) }
}

fn ask(question: &str, config: &Config, bounds: &Bounds, wanted: impl Fn(&Violation) -> bool) {
    let start = Instant::now();
    match shortest_violation(config, bounds, wanted) {
        Ok(out) => {
            let answer = match &out.found {
                Some((seq, _)) => format!("found, {} intervention(s): {seq:?}", seq.len()),
                None if out.exhausted => "none within the bound".to_owned(),
                None => "none before the state budget ran out".to_owned(),
            };
            println!("{question}\n  {answer}\n  {} runs in {:.2?}", out.states_visited, start.elapsed());
        }
        Err(e) => println!("{question}\n  invalid: {e}"),
    }
}

fn main() {
    let mut harbor = builtin("harbor-zombie");
    harbor.events.clear();
    harbor.until_ms = 60_000;
    let grid =
        |candidates, max_interventions| Bounds { grid_ms: 5_000, max_interventions, candidates, max_states: 20_000 };
    let naps_and_delays = || {
        vec![
            nap("chen", 30_000),
            nap("lin", 30_000),
            Command::DelayNextWrite { node: "lin".into(), by_ms: 30_000 },
            Command::DelayNextWrite { node: "chen".into(), by_ms: 30_000 },
        ]
    };
    let stale = |v: &Violation| matches!(v, Violation::StaleWriteAccepted { .. });

    let mut off = harbor.clone();
    off.resource.fencing = false;
    ask("harbor, fencing off: a stale write accepted?", &off, &grid(naps_and_delays(), 2), stale);

    let mut rare = harbor.clone();
    rare.work.every_ms = 40_000;
    ask("harbor, fencing on, writes every 40 s: a stale write accepted?", &rare, &grid(naps_and_delays(), 2), stale);

    let mut barrier = rare.clone();
    barrier.resource.epoch_barrier = true;
    ask("the same with an epoch barrier: a stale write accepted?", &barrier, &grid(naps_and_delays(), 2), stale);

    let mut lock = builtin("lock-late-del");
    lock.events.clear();
    lock.until_ms = 20_000;
    let naps = vec![nap("a", 7_000), nap("b", 7_000), nap("c", 7_000)];
    let small = |candidates| Bounds { grid_ms: 1_000, max_interventions: 2, candidates, max_states: 20_000 };
    let deleted = |v: &Violation| matches!(v, Violation::LockDeletedByNonOwner { .. });
    ask("lantern lock, plain DEL: a lock deleted by a non-owner?", &lock, &small(naps.clone()), deleted);
    lock.lock.release_check = ReleaseCheck::Owner;
    ask("lantern lock, owner-checked release: a lock deleted by a non-owner?", &lock, &small(naps), deleted);
}
