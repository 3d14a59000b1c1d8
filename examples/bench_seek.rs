//! Benchmark: seeking in an hour-long run (issue 4's time travel, engine side).
//!
//! `cargo run --release --example bench_seek` builds a [`Timeline`] of `harbor-zombie` stretched
//! to one hour with a few interventions, then seeks to 500 random moments and prints the time of
//! the first full pass (which builds the checkpoints), the median and the 95th percentile of a
//! seek, and the number of checkpoints. Only this harness reads a clock.

use std::time::{Duration, Instant};

use leaselab::engine::rng::Rng;
use leaselab::engine::timeline::Timeline;
use leaselab::engine::Command;
use leaselab::scenario::library;

fn main() {
    let Some(Ok(scenario)) = library::get("harbor-zombie") else {
        eprintln!("harbor-zombie is missing");
        std::process::exit(2);
    };
    let mut config = scenario.config;
    config.until_ms = 3_600_000;
    let Ok(mut timeline) = Timeline::new(config) else { std::process::exit(2) };
    for (at, command) in [
        (600_000, Command::Pause { node: "lin".into(), for_ms: Some(40_000) }),
        (1_800_000, Command::SetFencing { on: false }),
        (2_400_000, Command::Crash { node: "chen".into() }),
    ] {
        if timeline.intervene(at, command).is_err() {
            std::process::exit(2);
        }
    }
    let start = Instant::now();
    let end = timeline.seek(3_600_000);
    let first = start.elapsed();
    let mut rng = Rng::new(42);
    let mut times: Vec<Duration> = (0..500)
        .map(|_| {
            let t = rng.range_inclusive(0, 3_600_000);
            let start = Instant::now();
            let sim = timeline.seek(t);
            let took = start.elapsed();
            std::hint::black_box(sim.now_ms());
            took
        })
        .collect();
    times.sort();
    let pct = |p: usize| times[(times.len() * p / 100).min(times.len() - 1)];
    println!(
        "one hour of harbor-zombie ({} trace entries), {} checkpoints every {} s",
        end.trace().len(),
        timeline.checkpoints(),
        timeline.every_ms() / 1000
    );
    println!("first seek to the end (builds the checkpoints): {first:.2?}");
    println!("500 random seeks: median {:.2?}, 95th percentile {:.2?}, max {:.2?}", pct(50), pct(95), pct(100));
}
