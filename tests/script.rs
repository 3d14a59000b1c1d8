//! Dropping the script for a node (`drop_script`): the scenario's scripted steps still ahead for
//! that node stop happening, so a learner who acts on it is not overruled later; the steps still
//! ahead can be read; and the drop travels through every format that carries interventions.

mod common;

use common::*;
use leaselab::engine::timeline::Timeline;
use leaselab::engine::{Command, Config, Role, ScheduledCommand, Sim, TraceEvent};
use leaselab::scenario::export::with_interventions;
use leaselab::scenario::{library, link};

const PAUSE_MS: u64 = 20_000;
const RESUME_MS: u64 = 60_000;

fn zombie() -> Config {
    builtin("harbor-zombie").config
}

fn at(at_ms: u64, command: Command) -> ScheduledCommand {
    ScheduledCommand { at_ms, command }
}

fn resume(node: &str) -> Command {
    Command::Resume { node: node.into() }
}

fn drop_script(node: &str) -> Command {
    Command::DropScript { node: node.into() }
}

/// `interventions`, applied live at their times as the page applies them, played to the end.
fn live(config: &Config, interventions: &[ScheduledCommand]) -> Sim {
    let mut sim = Sim::new(config.clone()).expect("valid");
    for i in interventions {
        sim.advance_to(i.at_ms);
        sim.apply(i.command.clone()).expect("a valid command");
    }
    sim.run_to_end();
    sim
}

/// Times at which `node` was paused and resumed.
fn pauses_and_resumes(sim: &Sim, node: &str) -> (Vec<u64>, Vec<u64>) {
    let times = |pred: &dyn Fn(&TraceEvent) -> bool| -> Vec<u64> {
        sim.trace().iter().filter(|e| pred(&e.event)).map(|e| e.at_ms).collect()
    };
    (
        times(&|e| matches!(e, TraceEvent::Paused { node: n } if n == node)),
        times(&|e| matches!(e, TraceEvent::Resumed { node: n } if n == node)),
    )
}

/// Every `script_dropped` entry: `(at_ms, node, dropped_ms)`.
fn drops(sim: &Sim) -> Vec<(u64, String, Vec<u64>)> {
    sim.trace()
        .iter()
        .filter_map(|e| match &e.event {
            TraceEvent::ScriptDropped { node, dropped_ms } => Some((e.at_ms, node.clone(), dropped_ms.clone())),
            _ => None,
        })
        .collect()
}

fn role(sim: &Sim, node: &str) -> Role {
    sim.snapshot().nodes.iter().find(|n| n.id == node).expect("the node exists").role
}

/// The learner wakes Chen at 19 s. Without the drop, the script's pause at 20 s still puts him
/// to sleep; with it, he stays awake to the end and the run is another run.
#[test]
fn waking_chen_and_dropping_his_script_keeps_him_awake() {
    let config = zombie();
    let plain = live(&config, &[]);
    assert_eq!(pauses_and_resumes(&plain, "chen"), (vec![PAUSE_MS], vec![RESUME_MS]));

    let overruled = live(&config, &[at(19_000, resume("chen"))]);
    assert_eq!(pauses_and_resumes(&overruled, "chen").0, vec![PAUSE_MS], "the script puts him to sleep at 20 s");

    let kept = live(&config, &[at(19_000, resume("chen")), at(19_000, drop_script("chen"))]);
    assert_eq!(pauses_and_resumes(&kept, "chen"), (vec![], vec![]), "neither scripted step happens");
    assert_eq!(drops(&kept), vec![(19_000, "chen".to_owned(), vec![PAUSE_MS, RESUME_MS])]);
    // Past their times, the steps are still known as set aside (the time bar marks them so).
    assert!(kept.script_ahead().is_empty());
    assert_eq!(kept.script_dropped(), vec![("chen".to_owned(), PAUSE_MS), ("chen".to_owned(), RESUME_MS)]);
    assert_ne!(kept.trace_hash(), plain.trace_hash());
    // Awake, Chen goes on renewing: Lin is never granted the lease and nothing of Chen's is voided.
    assert!(events(&kept, |e| matches!(e, TraceEvent::LeaseGranted { node, .. } if node == "lin")).is_empty());
    assert!(events(&kept, |e| matches!(e, TraceEvent::LeaseRenewed { node, .. } if node == "chen"))
        .iter()
        .any(|e| e.at_ms > RESUME_MS));
    assert_eq!(role(&kept, "chen"), Role::Leader);
}

/// After the scripted pause, the learner drops the rest of Chen's script: the resume at 60 s does
/// not come, and Chen sleeps to the end, as the learner left him.
#[test]
fn a_drop_after_a_step_keeps_that_step_and_sets_the_rest_aside() {
    let config = zombie();
    let sim = live(&config, &[at(30_000, drop_script("chen"))]);
    assert_eq!(pauses_and_resumes(&sim, "chen"), (vec![PAUSE_MS], vec![]));
    assert_eq!(drops(&sim), vec![(30_000, "chen".to_owned(), vec![RESUME_MS])]);
    assert_eq!(sim.script_dropped(), vec![("chen".to_owned(), RESUME_MS)], "the pause happened; it is not set aside");
    assert_eq!(role(&sim, "chen"), Role::Paused);
}

/// A live drop at the very millisecond of a scripted step comes after it: the pause at 20 000 ms
/// has happened and stays; only the resume is set aside.
#[test]
fn a_drop_at_the_moment_of_a_step_does_not_undo_it() {
    let config = zombie();
    let sim = live(&config, &[at(PAUSE_MS, drop_script("chen"))]);
    assert_eq!(pauses_and_resumes(&sim, "chen"), (vec![PAUSE_MS], vec![]));
    assert_eq!(drops(&sim), vec![(PAUSE_MS, "chen".to_owned(), vec![RESUME_MS])]);
    // One millisecond earlier, the pause is still ahead and is set aside too.
    let sim = live(&config, &[at(PAUSE_MS - 1, drop_script("chen"))]);
    assert_eq!(pauses_and_resumes(&sim, "chen"), (vec![], vec![]));
}

/// A drop that is itself a scripted step sets aside the steps after it in file order at its
/// millisecond, not those before it.
#[test]
fn a_scripted_drop_follows_file_order_at_its_millisecond() {
    let file = |events: &str| {
        parse(&format!(
            r#"{{"format": "leaselab.scenario/1", "until_ms": 90000, "seed": 7,
                "nodes": [{{"id": "chen"}}, {{"id": "lin", "start_ms": 500}}], "events": [{events}]}}"#
        ))
    };
    let before = run(&file(
        r#"{"at_ms": 20000, "do": "drop_script", "node": "chen"},
           {"at_ms": 20000, "do": "pause", "node": "chen"},
           {"at_ms": 60000, "do": "resume", "node": "chen"}"#,
    ));
    assert_eq!(pauses_and_resumes(&before, "chen"), (vec![], vec![]));
    assert_eq!(drops(&before), vec![(PAUSE_MS, "chen".to_owned(), vec![PAUSE_MS, RESUME_MS])]);
    let after = run(&file(
        r#"{"at_ms": 20000, "do": "pause", "node": "chen"},
           {"at_ms": 20000, "do": "drop_script", "node": "chen"},
           {"at_ms": 60000, "do": "resume", "node": "chen"}"#,
    ));
    assert_eq!(pauses_and_resumes(&after, "chen"), (vec![PAUSE_MS], vec![]));
    assert_eq!(drops(&after), vec![(PAUSE_MS, "chen".to_owned(), vec![RESUME_MS])]);
}

/// Dropping Lin's script leaves Chen's steps where they were; with nothing ahead for Lin, the
/// drop is recorded with an empty list and the run is otherwise the plain one.
#[test]
fn a_drop_for_lin_leaves_chens_steps() {
    let config = zombie();
    let plain = live(&config, &[]);
    let mut sim = Sim::new(config.clone()).expect("valid");
    sim.advance_to(10_000);
    sim.apply(drop_script("lin")).expect("lin exists");
    assert_eq!(sim.script_ahead_for("chen").len(), 2);
    sim.run_to_end();
    assert_eq!(pauses_and_resumes(&sim, "chen"), pauses_and_resumes(&plain, "chen"));
    assert_eq!(drops(&sim), vec![(10_000, "lin".to_owned(), vec![])]);
    let without_drop: Vec<&TraceEvent> =
        sim.trace().iter().map(|e| &e.event).filter(|e| !matches!(e, TraceEvent::ScriptDropped { .. })).collect();
    let plain_events: Vec<&TraceEvent> = plain.trace().iter().map(|e| &e.event).collect();
    assert_eq!(without_drop, plain_events, "nothing but the record of the drop differs");
}

/// What the page reads: the steps still ahead, in time order, for the run and for one node.
#[test]
fn the_script_ahead_shrinks_as_steps_happen_and_when_dropped() {
    let config = zombie();
    let pause = at(PAUSE_MS, Command::Pause { node: "chen".into(), for_ms: None });
    let wake = at(RESUME_MS, resume("chen"));
    let mut sim = Sim::new(config.clone()).expect("valid");
    assert_eq!(sim.script_ahead(), vec![pause.clone(), wake.clone()]);
    sim.advance_to(0);
    assert_eq!(sim.script_ahead_for("chen"), vec![pause.clone(), wake.clone()], "at 0 ms");
    assert_eq!(sim.script_ahead_for("lin"), vec![]);
    sim.advance_to(PAUSE_MS - 1);
    assert_eq!(sim.script_ahead_for("chen"), vec![pause, wake.clone()]);
    sim.advance_to(PAUSE_MS);
    assert_eq!(sim.script_ahead_for("chen"), vec![wake.clone()], "the pause at 20 s has happened");
    sim.advance_to(30_000);
    assert_eq!(sim.script_ahead(), vec![wake]);
    sim.apply(drop_script("chen")).expect("chen exists");
    assert_eq!(sim.script_ahead_for("chen"), vec![]);
    assert_eq!(sim.script_ahead(), vec![]);
    sim.run_to_end();
    assert_eq!(sim.script_ahead(), vec![]);
    // A step after the end never happens, so it is not ahead (nor set aside).
    let mut short = config;
    short.until_ms = 50_000;
    let mut sim = Sim::new(short).expect("valid");
    assert_eq!(sim.script_ahead().iter().map(|s| s.at_ms).collect::<Vec<_>>(), vec![PAUSE_MS]);
    sim.advance_to(1_000);
    sim.apply(drop_script("chen")).expect("chen exists");
    assert_eq!(drops(&sim), vec![(1_000, "chen".to_owned(), vec![PAUSE_MS])]);
}

/// A drop is an intervention like the others: applied live, replayed by `Sim::replay`, sought
/// back and forth on a timeline, it gives the same trace hash, and the same script ahead.
#[test]
fn a_drop_replays_bit_for_bit() {
    let config = zombie();
    let plan = vec![
        at(19_000, resume("chen")),
        at(19_000, drop_script("chen")),
        at(25_000, drop_script("lin")),
        at(40_000, Command::Pause { node: "chen".into(), for_ms: Some(5_000) }),
    ];
    let shown = live(&config, &plan);
    let mut replayed = Sim::replay(config.clone(), &plan).expect("valid");
    replayed.run_to_end();
    assert_eq!(replayed.trace_hash(), shown.trace_hash());
    assert_eq!(replayed.trace(), shown.trace());

    let mut timeline = Timeline::new(config.clone()).expect("valid");
    // Acted on in an order that forks: a drop in the future first, then the plan from the start.
    timeline.intervene(50_000, drop_script("chen")).expect("valid");
    for i in &plan {
        timeline.intervene(i.at_ms, i.command.clone()).expect("valid");
    }
    assert_eq!(timeline.interventions(), plan.as_slice(), "the later drop was discarded by the fork");
    let end = config.until_ms;
    for t in [end, 0, 19_000, PAUSE_MS, 70_000, 5_000, end, 19_500, end] {
        let seek = timeline.seek(t);
        let upto: Vec<ScheduledCommand> = plan.iter().filter(|i| i.at_ms <= t).cloned().collect();
        let mut replay = Sim::replay(config.clone(), &upto).expect("valid");
        replay.advance_to(t);
        assert_eq!(seek.trace_hash(), replay.trace_hash(), "t = {t}");
        assert_eq!(seek.script_ahead(), replay.script_ahead(), "t = {t}");
    }
    assert_eq!(timeline.seek(end).trace_hash(), shown.trace_hash());
    // Stepping one engine event at a time gives the same run.
    let mut stepped = timeline.seek(0);
    while timeline.step(&mut stepped) > 0 {}
    assert_eq!(stepped.trace_hash(), shown.trace_hash());
}

/// The share link, the exported file and a scenario file carry the drop, and replay to the same
/// trace.
#[test]
fn the_link_the_export_and_the_file_carry_it() {
    let config = zombie();
    let plan = vec![at(19_000, resume("chen")), at(19_000, drop_script("chen"))];
    let shown = live(&config, &plan).trace_hash();

    let text = link::encode(&plan).expect("a page command");
    assert_eq!(text, "19000.r.chen,19000.o.chen");
    let back = link::decode(&text).expect("reads back");
    assert_eq!(back, plan);
    let mut from_link = Sim::replay(config.clone(), &back).expect("valid");
    from_link.run_to_end();
    assert_eq!(from_link.trace_hash(), shown);

    let source = library::FILES.iter().find(|(id, _)| *id == "harbor-zombie").expect("built in").1;
    let exported = with_interventions(source, &plan).expect("exports");
    assert!(exported.contains(r#"{"at_ms":19000,"do":"drop_script","node":"chen"}"#), "{exported}");
    let scenario = parse(&exported);
    assert_eq!(scenario.config.interventions, plan);
    assert_eq!(run(&scenario).trace_hash(), shown);
    let out = runner(&["run", "--compact", "-"], &exported);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("\"trace_hash\":\"{shown}\"")));

    // Written by hand in `events`: the scripted drop at 19 s sets aside the steps after it.
    let file = parse(
        r#"{"format": "leaselab.scenario/1", "nodes": [{"id": "chen"}, {"id": "lin"}], "events": [
            {"at_ms": 19000, "do": "drop_script", "node": "chen"},
            {"at_ms": 20000, "do": "pause", "node": "chen"}]}"#,
    );
    assert_eq!(file.config.events[0], at(19_000, drop_script("chen")));
    assert_eq!(drops(&run(&file)), vec![(19_000, "chen".to_owned(), vec![PAUSE_MS])]);
}

/// Broken drops say what is wrong and where, and change nothing.
#[test]
fn bad_drops_are_refused_with_clear_errors() {
    let err = |entry: &str| {
        let json =
            format!(r#"{{"format": "leaselab.scenario/1", "nodes": [{{"id": "chen"}}], "interventions": [{entry}]}}"#);
        leaselab::scenario::parse(&json).expect_err(entry)
    };
    let e = err(r#"{"at_ms": 1, "do": "drop_script"}"#);
    assert_eq!(
        (e.path.as_str(), e.message.as_str()),
        ("interventions[0].node", "is required by \"do\": \"drop_script\"")
    );
    let e = err(r#"{"at_ms": 1, "do": "drop_script", "node": "ghost"}"#);
    assert_eq!((e.path.as_str(), e.message.as_str()), ("interventions[0].node", "unknown node \"ghost\""));
    let e = err(r#"{"at_ms": 1, "do": "drop_script", "node": "chen", "for_ms": 5}"#);
    assert_eq!(
        (e.path.as_str(), e.message.as_str()),
        ("interventions[0].for_ms", "does not apply to \"do\": \"drop_script\"")
    );
    let e = err(r#"{"at_ms": 1, "do": "drop_script", "node": 7}"#);
    assert_eq!(e.path, "interventions[0].node");
    let e = err(r#"{"do": "drop_script", "node": "chen"}"#);
    assert_eq!(e.path, "interventions[0].at_ms");

    // Live: an unknown node is refused and the run is untouched.
    let mut sim = Sim::new(zombie()).expect("valid");
    sim.advance_to(5_000);
    let hash = sim.trace_hash();
    let e = sim.apply(drop_script("ghost")).expect_err("no such node");
    assert_eq!((e.path.as_str(), e.message.as_str()), ("node", "unknown node \"ghost\""));
    assert_eq!(sim.trace_hash(), hash);
    assert!(sim.interventions().is_empty());
    assert_eq!(sim.script_ahead().len(), 2);
    let mut timeline = Timeline::new(zombie()).expect("valid");
    assert!(timeline.intervene(5_000, drop_script("ghost")).is_err());
    assert!(timeline.interventions().is_empty());

    // The link: a drop names exactly one node.
    for (value, item) in [("5.o", 1), ("5.o.chen.1", 1), ("1.r.chen,5.o.ch en", 2)] {
        assert_eq!(link::decode(value).map_err(|e| e.item), Err(item), "{value}");
    }
}

/// A pause with `for_ms` that has already applied is not ahead: dropping the script afterwards
/// leaves its own wake-up in place.
#[test]
fn a_timed_pause_already_applied_still_ends_by_itself() {
    let scenario = parse(
        r#"{"format": "leaselab.scenario/1", "until_ms": 60000, "nodes": [{"id": "chen"}, {"id": "lin"}],
            "events": [{"at_ms": 20000, "do": "pause", "node": "chen", "for_ms": 10000},
                       {"at_ms": 40000, "do": "pause", "node": "chen"}]}"#,
    );
    let sim = live(&scenario.config, &[at(25_000, drop_script("chen"))]);
    assert_eq!(pauses_and_resumes(&sim, "chen"), (vec![PAUSE_MS], vec![30_000]));
    assert_eq!(drops(&sim), vec![(25_000, "chen".to_owned(), vec![40_000])]);
}
