//! LeaseLab's conformance suite: replays the engine's built-in scenarios against the real
//! servers whose rules the engine models, Redis 7.0 and etcd 3.4, and compares every answer.
//!
//! For each built-in (`leaselab::scenario::library`) the engine plays the scenario to its end;
//! its trace becomes a [`plan::Plan`] (every request that reached the store or the resource, with
//! the engine's answer); the plan is sent to the server that [`plan::profile_of`] names
//! (`redis_store`: exact, on a clock the test drives) and every answer is compared: granted or
//! refused, the token, renewed or not, deleted or not, the resource's verdict and mark, the final
//! mark and value. The etcd replayer (`etcd`, real time) runs too, on every scenario it can
//! express, so that it is proven to work before scenarios are judged by etcd's rules.
//!
//! `leaselab-conform [--self-check] [--only ID]...`: `--self-check` also replays deliberately
//! altered engine answers and fails unless each alteration is reported as a mismatch naming its
//! scenario, moment and answer. Prints one line per replay and a summary line; exits 1 on any
//! mismatch (or a self-check that was not caught), 2 when a server cannot be started.
//! `cargo xtask conform` builds and runs it.

mod etcd;
mod plan;
mod redis_store;
mod servers;

use std::process::ExitCode;
use std::time::Instant;

use leaselab::scenario::library;

use plan::{Mismatch, Outcome, Plan, Profile};

/// Scenarios written for the suite itself (`conform/scenarios/`), replayed after the built-ins:
/// `etcd-boundary` has a borrower asking every 50 ms while the holder's term runs out, so that
/// etcd's replay meets requests it cannot decide (they are counted, not compared);
/// `redis-levers` pulls the levers no built-in pulls (the store's clock sped up, slowed back and
/// stepped back, a revoke, a restore of the resource to an older mark under dedupe);
/// `equality-reject` and `equality-dedupe` put the equality token check (only the first token
/// accepted passes, etcd-io/etcd#11788) under the two equal-token policies no built-in pairs it
/// with, so that both servers' fences are compared on them (equal, lower and higher tokens,
/// retried op ids, fencing off and on, a restore and a restart).
const HAND_MADE: [(&str, &str); 4] = [
    ("etcd-boundary", include_str!("../scenarios/etcd-boundary.json")),
    ("redis-levers", include_str!("../scenarios/redis-levers.json")),
    ("equality-reject", include_str!("../scenarios/equality-reject.json")),
    ("equality-dedupe", include_str!("../scenarios/equality-dedupe.json")),
];

/// The scenario `id`: a built-in, or one of [`HAND_MADE`].
fn scenario(id: &str) -> Result<leaselab::scenario::Scenario, String> {
    match library::get(id) {
        Some(parsed) => parsed.map_err(|e| format!("{id}: {e}")),
        None => {
            let (_, json) = HAND_MADE.iter().find(|(h, _)| *h == id).ok_or(format!("no scenario {id}"))?;
            leaselab::scenario::parse(json).map_err(|e| format!("{id}: {e}"))
        }
    }
}

/// Totals over the run, per server.
#[derive(Default)]
struct Totals {
    scenarios: std::collections::BTreeSet<String>,
    redis: u64,
    etcd: u64,
    undecidable: u64,
    mismatches: Vec<Mismatch>,
}

impl Totals {
    fn add(&mut self, plan: &Plan, profile: Profile, outcome: Outcome) {
        println!(
            "{:<6} {:<24} {:>4} answers compared, {:>2} undecidable, {} mismatches",
            profile.name(),
            plan.scenario,
            outcome.compared,
            outcome.undecidable,
            outcome.mismatches.len()
        );
        self.scenarios.insert(plan.scenario.clone());
        match profile {
            Profile::Redis => self.redis += outcome.compared,
            Profile::Etcd => self.etcd += outcome.compared,
        }
        self.undecidable += outcome.undecidable;
        self.mismatches.extend(outcome.mismatches);
    }
}

fn main() -> ExitCode {
    let mut self_check = false;
    let mut only = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), if arg == "--only" { args.next() } else { None }) {
            ("--self-check", _) => self_check = true,
            ("--only", Some(id)) => only.push(id),
            _ => {
                eprintln!("unknown argument {arg:?}\nusage: leaselab-conform [--self-check] [--only ID]...");
                return ExitCode::from(2);
            }
        }
    }
    let only: Vec<&str> = only.iter().map(String::as_str).collect();
    match run(self_check, &only) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("conformance: error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs the suite; `Ok(false)` when a mismatch was found or a self-check was not caught.
fn run(self_check: bool, only: &[&str]) -> Result<bool, String> {
    let started = Instant::now();
    let mut plans = Vec::new();
    for id in library::ids().filter(|id| only.is_empty() || only.contains(id)) {
        let scenario = library::get(id).ok_or(format!("no built-in {id}"))?.map_err(|e| format!("{id}: {e}"))?;
        let plan = plan::plan(id, &scenario.config)?;
        if !plan.skipped.is_empty() {
            println!("skip   {id:<24} {} store answers not replayed: {}", plan.skipped.len(), skip_reason(&plan));
        }
        plans.push((plan::profile_of(&scenario.config), plan));
    }
    for (id, json) in HAND_MADE.into_iter().filter(|(id, _)| only.is_empty() || only.contains(id)) {
        let scenario = leaselab::scenario::parse(json).map_err(|e| format!("{id}: {e}"))?;
        plans.push((plan::profile_of(&scenario.config), plan::plan(id, &scenario.config)?));
    }
    let redis = servers::Redis::start()?;
    redis_store::check_clock(&redis)?;
    let etcd = servers::Etcd::start()?;
    println!(
        "servers: redis-server (pid {}) on 127.0.0.1:{} with the fake clock {}, etcd (pid {}) on {}",
        redis.pid(),
        redis.port,
        servers::FAKECLOCK_SO,
        etcd.pid(),
        etcd.url
    );
    let mut totals = Totals::default();
    // Every scenario under the profile it names.
    for (profile, plan) in &plans {
        let outcome = match profile {
            Profile::Redis => redis_store::replay(&redis, plan)?,
            Profile::Etcd => match etcd::unsupported(plan) {
                None => etcd::replay(&etcd, plan)?,
                Some(why) => {
                    println!("skip   {:<24} on etcd: {why}", plan.scenario);
                    continue;
                }
            },
        };
        totals.add(plan, *profile, outcome);
    }
    // The etcd replayer on every scenario judged by Redis that it can express, whose answers do
    // not depend on the two stores' different rules.
    for (_, plan) in plans.iter().filter(|(p, _)| *p == Profile::Redis) {
        match etcd::unsupported(plan) {
            None => totals.add(plan, Profile::Etcd, etcd::replay(&etcd, plan)?),
            Some(why) => println!("skip   {:<24} on etcd: {why}", plan.scenario),
        }
    }
    let mut caught_all = true;
    if self_check {
        caught_all = run_self_check(&redis, &etcd)?;
    }
    for m in &totals.mismatches {
        println!("{m}");
    }
    println!(
        "conformance: {} scenarios, {} answers compared (redis {}, etcd {}), {} mismatches, {} undecidable, in {:.1} s",
        totals.scenarios.len(),
        totals.redis + totals.etcd,
        totals.redis,
        totals.etcd,
        totals.mismatches.len(),
        totals.undecidable,
        started.elapsed().as_secs_f64()
    );
    Ok(totals.mismatches.is_empty() && caught_all)
}

/// The reasons a plan gives for what it leaves out, once each.
fn skip_reason(plan: &Plan) -> String {
    let mut reasons: Vec<&str> =
        plan.skipped.iter().map(|s| s.split_once(": ").map_or(s.as_str(), |(_, r)| r)).collect();
    reasons.dedup();
    reasons.join("; ")
}

/// Replays deliberately wrong engine answers and checks that each is reported as a mismatch that
/// names the scenario, the moment and the answer. Returns whether all were caught.
fn run_self_check(redis: &servers::Redis, etcd: &servers::Etcd) -> Result<bool, String> {
    let plan_of = |id: &str| -> Result<Plan, String> { plan::plan(id, &scenario(id)?.config) };
    let cases: [(&str, Profile, plan::Alteration, &str); 7] = [
        (
            "lock-owner-release",
            Profile::Redis,
            plan::grant_a_refused_acquire,
            "an engine whose SET NX ignores a live key",
        ),
        ("lock-owner-release", Profile::Redis, plan::expire_a_millisecond_early, "an expiry one ms early"),
        ("fencing-checks", Profile::Redis, plan::accept_a_stale_write, "a resource that accepts a stale token"),
        ("lantern-race", Profile::Etcd, plan::grant_a_refused_acquire, "an engine whose lock ignores a live key"),
        ("fencing-checks", Profile::Etcd, plan::accept_a_stale_write, "a resource that accepts a stale token"),
        // Only the equality transactions under `reject` and `dedupe` answer these two.
        (
            "equality-reject",
            Profile::Etcd,
            plan::accept_a_stale_write,
            "an equality check that accepts an equal token under reject",
        ),
        (
            "equality-dedupe",
            Profile::Etcd,
            plan::apply_a_duplicate,
            "an equality check that applies a retried op id again",
        ),
    ];
    let mut all = true;
    for (id, profile, alter, what) in cases {
        let (altered, step) = alter(&plan_of(id)?).ok_or(format!("self-check: {id} has no step to alter"))?;
        let outcome = match profile {
            Profile::Redis => redis_store::replay(redis, &altered)?,
            Profile::Etcd => etcd::replay(etcd, &altered)?,
        };
        let wanted = step.expected.to_string();
        let caught = outcome
            .mismatches
            .iter()
            .find(|m| m.scenario == id && m.at_ms == step.at_ms && m.engine == wanted && m.server == profile.name());
        match caught {
            Some(m) => println!("self-check ({what}, on {}): caught: {m}", profile.name()),
            None => {
                all = false;
                println!(
                    "self-check FAILED ({what}, on {}): {id} at {} ms, engine answer altered to {wanted}, \
                     not reported (mismatches: {:?})",
                    profile.name(),
                    step.at_ms,
                    outcome.mismatches
                );
            }
        }
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use leaselab::engine::WriteOutcome;

    fn outcomes(id: &str) -> Vec<WriteOutcome> {
        let plan = plan::plan(id, &scenario(id).expect("parses").config).expect("runs");
        plan.steps
            .iter()
            .filter_map(|s| match s.expected {
                plan::Answer::Judged { outcome, .. } => Some(outcome),
                _ => None,
            })
            .collect()
    }

    /// The equality cases reach every verdict of their policy, and etcd replays them.
    #[test]
    fn the_equality_cases_cover_their_policies_on_both_servers() {
        use WriteOutcome::*;
        let reject = outcomes("equality-reject");
        for o in [Accepted, RejectedStale, RejectedInvalid] {
            assert!(reject.contains(&o), "equality-reject lacks {o:?}: {reject:?}");
        }
        let dedupe = outcomes("equality-dedupe");
        for o in [Accepted, RejectedStale, Duplicate] {
            assert!(dedupe.contains(&o), "equality-dedupe lacks {o:?}: {dedupe:?}");
        }
        for id in ["equality-reject", "equality-dedupe"] {
            let plan = plan::plan(id, &scenario(id).expect("parses").config).expect("runs");
            assert_eq!(etcd::unsupported(&plan), None, "{id}");
            assert_eq!(plan::profile_of(&scenario(id).expect("parses").config), Profile::Redis, "{id}: both servers");
            assert!(library::get(id).is_none(), "{id} is the suite's own, not a built-in");
        }
    }
}
