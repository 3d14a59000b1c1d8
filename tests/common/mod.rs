//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use leaselab::engine::{Sim, TraceEntry, TraceEvent, WriteOutcome};
use leaselab::scenario::{self, library, Report, Scenario};

/// A built-in scenario, parsed.
pub fn builtin(id: &str) -> Scenario {
    match library::get(id) {
        Some(Ok(s)) => s,
        Some(Err(e)) => panic!("built-in {id} does not parse: {e}"),
        None => panic!("no built-in {id}"),
    }
}

/// Parse a scenario written in a test.
pub fn parse(json: &str) -> Scenario {
    scenario::parse(json).unwrap_or_else(|e| panic!("test scenario does not parse: {e}\n{json}"))
}

/// Run a scenario to its end.
pub fn run(s: &Scenario) -> Sim {
    let mut sim = Sim::new(s.config.clone()).expect("valid config");
    sim.run_to_end();
    sim
}

pub fn report(s: &Scenario) -> Report {
    Report::run(s).expect("valid config")
}

/// Trace events matching a predicate, with their times.
pub fn events<'a>(sim: &'a Sim, pred: impl Fn(&TraceEvent) -> bool + 'a) -> Vec<&'a TraceEntry> {
    sim.trace().iter().filter(|e| pred(&e.event)).collect()
}

/// `(op_id, outcome)` of every judged write.
pub fn outcomes(sim: &Sim) -> Vec<(String, WriteOutcome)> {
    sim.trace()
        .iter()
        .filter_map(|e| match &e.event {
            TraceEvent::WriteJudged { op_id, outcome, .. } => Some((op_id.clone(), *outcome)),
            _ => None,
        })
        .collect()
}

/// The kinds of a report's violations, in order, as the report names them.
pub fn kinds(r: &Report) -> Vec<&'static str> {
    r.violations.iter().map(|v| v.violation.kind()).collect()
}

/// Runs the command-line runner with `args`, `stdin` on its standard input.
pub fn runner(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the runner starts");
    if let Some(mut input) = child.stdin.take() {
        // A runner that exits early may close stdin; that is not what is tested here.
        let _ = input.write_all(stdin.as_bytes());
    }
    child.wait_with_output().expect("the runner finishes")
}
