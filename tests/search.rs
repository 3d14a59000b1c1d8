//! The search (`engine::search`): its answers are the shortest, agree with the brute-force
//! explorer (`engine::explore`, which replays every sequence from scratch), replay to the same
//! run in the player's terms, and are the same every time.

mod common;

use leaselab::engine::explore::{shortest_violation, Bounds};
use leaselab::engine::search::{Goal, Outcome, Searcher, Space};
use leaselab::engine::{Command, Config, ScheduledCommand, Sim, TraceEvent, Violation};
use leaselab::scenario::link;

/// The harbor without its scripted nap: Chen and Lin, 60 s, fencing as given (as in
/// `tests/explorer.rs`).
fn harbor(fencing: bool) -> Config {
    let mut c = common::builtin("harbor-zombie").config;
    c.events.clear();
    c.until_ms = 60_000;
    c.resource.fencing = fencing;
    c
}

/// Only naps and held-up writes of 30 s, on a 5 s grid: the explorer's questions.
fn naps_and_delays(max_interventions: usize) -> Space {
    Space {
        grid_ms: 5_000,
        max_interventions,
        pause_ms: vec![30_000],
        cut_ms: Vec::new(),
        delay_write_ms: vec![30_000],
        crash: false,
        ..Space::default()
    }
}

/// The explorer's candidates in the order the search tries its choices: per node, its pause,
/// then its held-up write.
fn the_same_candidates(config: &Config) -> Vec<Command> {
    config
        .nodes
        .iter()
        .flat_map(|n| {
            [
                Command::Pause { node: n.id.clone(), for_ms: Some(30_000) },
                Command::DelayNextWrite { node: n.id.clone(), by_ms: 30_000 },
            ]
        })
        .collect()
}

fn search(config: &Config, goals: &[Goal], space: &Space) -> Outcome {
    Searcher::new(config.clone(), goals, space).expect("a valid question").finish()
}

fn found(outcome: &Outcome) -> &leaselab::engine::search::Found {
    match outcome {
        Outcome::Found { found, .. } => found,
        other => panic!("expected an answer, got {other:?}"),
    }
}

/// The search and the explorer, asked the same question over the same interventions, need as
/// many interventions (the explorer's may be another run of that length: the search walks a
/// state once, by whichever path reached it first); one intervention fewer finds nothing.
fn agrees_with_the_explorer(config: &Config, goal: Goal, wanted: impl Fn(&Violation) -> bool + Copy, depth: usize) {
    let space = naps_and_delays(depth);
    let outcome = search(config, &[goal], &space);
    let answer = found(&outcome);
    let bounds = Bounds {
        grid_ms: space.grid_ms,
        max_interventions: depth,
        candidates: the_same_candidates(config),
        max_states: 100_000,
    };
    let explored = shortest_violation(config, &bounds, wanted).expect("valid");
    let (sequence, _) = explored.found.expect("the explorer finds it too");
    assert_eq!(answer.depth, sequence.len(), "as short as the explorer's {sequence:?}: {answer:?}");
    assert_eq!(answer.interventions.len(), answer.depth);
    let mut replayed = Sim::replay(config.clone(), &answer.interventions).expect("replays");
    replayed.run_to_end();
    assert!(replayed
        .trace()
        .iter()
        .any(|e| matches!(&e.event, TraceEvent::ViolationFound { violation, .. } if wanted(violation))));
    if depth > 0 {
        let fewer = search(config, &[goal], &naps_and_delays(depth - 1));
        assert!(matches!(fewer, Outcome::NoneWithinBounds { .. }), "one fewer finds nothing: {fewer:?}");
    }
}

#[test]
fn without_fencing_the_shortest_stale_write_is_the_explorers_one_nap() {
    let config = harbor(false);
    agrees_with_the_explorer(
        &config,
        Goal::StaleWriteAccepted,
        |v| matches!(v, Violation::StaleWriteAccepted { .. }),
        1,
    );
    let answer = search(&config, &[Goal::StaleWriteAccepted], &naps_and_delays(2));
    let f = found(&answer);
    // As the explorer's test says: at 0 s Chen is not leading yet; the first nap that matters
    // is at 5 s, and his prepared 7 is obeyed after Lin's 8.
    assert_eq!(
        f.interventions,
        [ScheduledCommand { at_ms: 5_000, command: Command::Pause { node: "chen".into(), for_ms: Some(30_000) } }]
    );
    assert!(matches!(
        &f.entry.event,
        TraceEvent::ViolationFound { violation: Violation::StaleWriteAccepted { token: 7, newest_granted: 8, .. }, .. }
    ));
}

/// Seed 002: a stale token passes until the resource has seen a newer one. With rare writes
/// it takes two interventions (the nap and a late first flag from Lin), as the explorer finds.
#[test]
fn with_fencing_and_rare_writes_the_stale_window_takes_two_interventions() {
    let mut config = harbor(true);
    config.work.every_ms = 40_000;
    agrees_with_the_explorer(
        &config,
        Goal::StaleWriteAccepted,
        |v| matches!(v, Violation::StaleWriteAccepted { .. }),
        2,
    );
}

#[test]
fn with_an_epoch_barrier_no_stale_write_passes_within_the_bounds() {
    let mut config = harbor(true);
    config.work.every_ms = 40_000;
    config.resource.epoch_barrier = true;
    let outcome = search(&config, &[Goal::StaleWriteAccepted], &naps_and_delays(2));
    let Outcome::NoneWithinBounds { progress } = outcome else { panic!("expected none: {outcome:?}") };
    assert!(progress.states > 500, "{progress:?}");
    assert_eq!(progress.depth, 2);
}

/// The answer is a run the player can open: its interventions replay (as `Sim::replay`, what a
/// share link does) to the reported trace hash, with the goal's entry at its place; the link
/// text carries exactly those interventions.
#[test]
fn an_answer_replays_as_a_share_link_to_the_same_trace() {
    let config = common::builtin("harbor-no-fencing").config;
    let space = Space { scripted: false, max_interventions: 2, ..Space::default() };
    let outcome = search(&config, &[Goal::StaleWriteAccepted], &space);
    let f = found(&outcome);
    assert_eq!(f.depth, 1, "one nap is enough without fencing: {f:?}");
    // The scripted steps are set aside first, then the one choice.
    assert!(matches!(f.interventions[0], ScheduledCommand { at_ms: 0, command: Command::DropScript { .. } }));
    let text = link::encode(&f.interventions).expect("a link carries every choice");
    let decoded = link::decode(&text).expect("the link reads back");
    assert_eq!(decoded, f.interventions);
    let mut sim = Sim::replay(config, &decoded).expect("replays");
    sim.run_to_end();
    assert_eq!(sim.trace_hash(), f.trace_hash);
    let entry = &sim.trace()[f.entry.seq as usize];
    assert_eq!(entry, &f.entry);
    assert_eq!(entry.at_ms, f.at_ms);
}

#[test]
fn the_same_question_gets_the_same_answer() {
    let config = common::builtin("harbor-zombie").config;
    let space = Space { scripted: false, max_interventions: 2, max_states: 60_000, ..Space::default() };
    let goals = [Goal::TwoHolders, Goal::TokenRegression];
    let a = search(&config, &goals, &space);
    let b = search(&config, &goals, &space);
    assert_eq!(serde_json::to_string(&a).ok(), serde_json::to_string(&b).ok());
    // Run in slices, as the page's worker does, it is the same search.
    let mut sliced = Searcher::new(config, &goals, &space).expect("valid");
    let c = loop {
        if let leaselab::engine::search::Status::Done(outcome) = sliced.run(997) {
            break outcome;
        }
    };
    assert_eq!(a, c);
}

/// Witnesses, each on a scenario where it can happen, with the script set aside: the search
/// finds a run, and the replayed run shows the event.
#[test]
fn witnesses_are_found_and_replay() {
    let cases = [
        ("harbor-zombie", Goal::ZombieWriteFenced),
        ("harbor-zombie", Goal::DualBelief),
        ("harbor-zombie", Goal::ExpiryWithoutPause),
        ("lock-late-del", Goal::RenewalRefusedAfterStrayDelete),
    ];
    for (id, goal) in cases {
        let config = common::builtin(id).config;
        let space = Space { scripted: false, max_interventions: 2, ..Space::default() };
        let outcome = search(&config, &[goal], &space);
        let f = found(&outcome);
        let mut sim = Sim::replay(config, &f.interventions).expect("replays");
        sim.run_to_end();
        let entry = &sim.trace()[f.entry.seq as usize];
        match goal {
            Goal::ZombieWriteFenced => assert!(
                matches!(
                    &entry.event,
                    TraceEvent::WriteJudged {
                        outcome: leaselab::engine::WriteOutcome::RejectedStale,
                        from: Some(_),
                        ..
                    }
                ),
                "{entry:?}"
            ),
            Goal::DualBelief => {
                let (_, duals) = leaselab::engine::oracle::intervals(sim.trace());
                assert!(duals.iter().any(|d| d.from_ms <= f.at_ms && f.at_ms <= d.to_ms), "{duals:?} at {}", f.at_ms);
            }
            Goal::ExpiryWithoutPause => {
                assert!(matches!(entry.event, TraceEvent::LeaseExpired { .. }), "{entry:?}");
                assert!(
                    !sim.trace()
                        .iter()
                        .any(|e| matches!(e.event, TraceEvent::Paused { .. } | TraceEvent::Crashed { .. })),
                    "nobody paused or crashed"
                );
                assert!(
                    f.interventions.iter().all(|i| !matches!(i.command, Command::Pause { .. } | Command::Crash { .. })),
                    "{:?}",
                    f.interventions
                );
            }
            Goal::RenewalRefusedAfterStrayDelete => {
                assert!(matches!(entry.event, TraceEvent::RenewRefused { .. }), "{entry:?}");
                let delete = sim.trace().iter().position(|e| {
                    matches!(
                        &e.event,
                        TraceEvent::ViolationFound { violation: Violation::LockDeletedByNonOwner { .. }, .. }
                    )
                });
                assert!(delete.is_some_and(|d| d < f.entry.seq as usize), "a stray delete came first");
            }
            _ => unreachable!(),
        }
        eprintln!("{id} {}: {} interventions, {:?}", goal.code(), f.depth, outcome);
    }
}

#[test]
fn bad_bounds_are_refused_with_the_field() {
    let config = harbor(true);
    for (space, field) in [
        (Space { grid_ms: 0, ..Space::default() }, "grid_ms"),
        (Space { max_interventions: 7, ..Space::default() }, "max_interventions"),
        (Space { pause_ms: vec![0], ..Space::default() }, "pause_ms"),
        (Space { clock_rate_ppm: vec![5], ..Space::default() }, "clock_rate_ppm"),
    ] {
        let e = Searcher::new(config.clone(), &[Goal::StaleWriteAccepted], &space).expect_err("refused");
        assert_eq!(e.path, field, "{e}");
    }
    let e = Searcher::new(config, &[], &Space::default()).expect_err("no goal");
    assert_eq!(e.path, "goal");
    for goal in Goal::ALL {
        assert_eq!(Goal::from_code(goal.code()), Some(goal));
        assert_eq!(serde_json::to_value(goal).ok(), Some(serde_json::Value::from(goal.code())));
    }
}

/// `leaselab search` prints the same answer every time, and names a bad goal.
#[test]
fn the_command_line_answers_the_same_every_time() {
    let run = || {
        let args = ["search", "--builtin", "harbor-no-fencing", "--property", "stale_write_accepted"];
        common::runner(&[&args[..], &["--max-interventions", "2", "--no-script", "--compact"]].concat(), "")
    };
    let (a, b) = (run(), run());
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout);
    let answer: serde_json::Value = serde_json::from_slice(&a.stdout).expect("JSON");
    assert_eq!(answer["format"], "leaselab.search/1");
    assert_eq!(answer["result"], "found");
    assert_eq!(answer["found"]["depth"], 1);
    assert!(answer["link"].as_str().is_some_and(|l| l.starts_with("0.o.")), "{answer}");
    let bad = common::runner(&["search", "--builtin", "harbor-no-fencing", "--property", "stale_writes"], "");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("stale_writes: not a goal"));
}

/// The worker's protocol (`scenario::search::parse_request`): a bad request names what and where.
#[test]
fn a_bad_request_to_the_worker_says_what_and_where() {
    use leaselab::scenario::search::parse_request;
    let scenario = std::fs::read_to_string("assets/scenarios/harbor-no-fencing.json").expect("the file");
    let with = |rest: &str| format!(r#"{{"leaselab":1,"scenario":{scenario},{rest}}}"#);
    for (text, says) in [
        ("nonsense".to_owned(), "not JSON"),
        ("[1]".to_owned(), "a JSON object"),
        (r#"{"type":"stop"}"#.to_owned(), "leaselab: must be 1"),
        (r#"{"leaselab":1}"#.to_owned(), "type: missing"),
        (r#"{"leaselab":1,"type":"dance"}"#.to_owned(), "\"dance\" is not search, sweep or stop"),
        (with(r#""type":"search""#), "goals: missing"),
        (with(r#""type":"search","goals":["stale_write_accepted","x"]"#), "goals[1]: \"x\" is not a goal"),
        (with(r#""type":"search","goals":["dual_belief"],"space":{"grid":5}"#), "space: unknown field `grid`"),
        (with(r#""type":"search","goals":["dual_belief"],"space":{"grid_ms":0}"#), "space.grid_ms: must be at least 1"),
        (r#"{"leaselab":1,"type":"search","goals":["dual_belief"]}"#.to_owned(), "scenario: missing"),
        (with(r#""type":"sweep","knob":"pause_ms","from":1,"to":9,"points":3"#), "seeds: missing"),
        (with(r#""type":"sweep","knob":"pause","from":1,"to":9,"points":3,"seeds":2"#), "not a knob"),
    ] {
        let e = parse_request(&text).expect_err(&text);
        assert!(e.contains(says), "{text:.80}: {e}");
    }
    let bad_scenario = r#"{"leaselab":1,"type":"search","goals":["dual_belief"],"scenario":{"format":"leaselab.scenario/1","nodes":7}}"#;
    let e = parse_request(bad_scenario).expect_err("a bad scenario");
    assert!(e.starts_with("scenario: "), "{e}");
}

/// A job run in the worker's slices answers exactly what the command line prints.
#[test]
fn the_workers_job_answers_what_the_command_line_prints() {
    use leaselab::scenario::search::{parse_request, Job, JobStep};
    let scenario = std::fs::read_to_string("assets/scenarios/harbor-no-fencing.json").expect("the file");
    let cli = |args: &[&str]| {
        let out = common::runner(args, "");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("text").trim_end().to_owned()
    };
    let finish = |request: &str| {
        let mut job = Job::start(parse_request(request).expect("valid")).expect("starts").expect("a job");
        loop {
            match job.step(1_000) {
                JobStep::Answer { answer } => break serde_json::to_string(&answer).expect("JSON"),
                JobStep::Swept { answer } => break serde_json::to_string(&answer).expect("JSON"),
                JobStep::Failed { message } => panic!("{message}"),
                _ => {}
            }
        }
    };
    let search = format!(
        r#"{{"leaselab":1,"type":"search","scenario":{scenario},"goals":["stale_write_accepted"],"space":{{"max_interventions":2,"scripted":false}}}}"#
    );
    let args = ["search", "--builtin", "harbor-no-fencing", "--property", "stale_write_accepted"];
    assert_eq!(finish(&search), cli(&[&args[..], &["--max-interventions", "2", "--no-script", "--compact"]].concat()));
    let sweep = format!(
        r#"{{"leaselab":1,"type":"sweep","scenario":{scenario},"knob":"pause_ms","from":1000,"to":40000,"points":4,"seeds":5}}"#
    );
    let args =
        ["sweep", "--builtin", "harbor-no-fencing", "--knob", "pause_ms=1000..40000/4", "--seeds", "5", "--compact"];
    assert_eq!(finish(&sweep), cli(&args));
}
