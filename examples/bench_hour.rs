//! Benchmark: how long the engine takes to simulate one hour of the harbor.
//!
//! `cargo run --release --example bench_hour` runs `harbor-zombie` stretched to one hour of virtual
//! time several times and prints the median wall time, trace length and trace hash. The engine itself
//! never reads a clock; only this harness does.

use std::time::Instant;

use leaselab::engine::Sim;
use leaselab::scenario::library;

fn main() {
    let Some(Ok(scenario)) = library::get("harbor-zombie") else {
        eprintln!("harbor-zombie is missing");
        std::process::exit(2);
    };
    let mut config = scenario.config;
    config.until_ms = 3_600_000;
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..7 {
        let start = Instant::now();
        let Ok(mut sim) = Sim::new(config.clone()) else { std::process::exit(2) };
        sim.run_to_end();
        times.push(start.elapsed());
        last = Some((sim.trace().len(), sim.trace_hash()));
    }
    times.sort();
    let median = times[times.len() / 2];
    if let Some((len, hash)) = last {
        println!(
            "one hour of harbor-zombie (2 nodes): median {:.1} ms over {} runs, {len} trace entries, trace_hash {hash}",
            median.as_secs_f64() * 1e3,
            times.len()
        );
    }
}
