//! Exporting a run (issue 4): the scenario file plus the learner's interventions, merged into its
//! `interventions` at their times, plays to the trace the page showed, bit for bit, natively and
//! through the runner; and an exported file can be imported, played on and exported again.

mod common;

use common::*;
use leaselab::engine::timeline::Timeline;
use leaselab::engine::{Command, Link, MessageFault, MessageKind, Sim, TraceEvent};
use leaselab::scenario::export::with_interventions;
use leaselab::scenario::library;

/// Interventions the page can make, at the moments of trace entries (a learner who stepped to an
/// event and acted there, at the same millisecond as what the run did), made on a timeline as
/// the page makes them; plus one in the past that forks.
fn intervene(timeline: &mut Timeline) {
    let config = timeline.config().clone();
    let Some(first) = config.nodes.first().map(|n| n.id.clone()) else { return };
    let last = config.nodes.last().map(|n| n.id.clone()).unwrap_or_else(|| first.clone());
    let run = timeline.seek(config.until_ms);
    let moments: Vec<u64> = run.trace().iter().map(|e| e.at_ms).filter(|t| *t > 0).collect();
    let at = |k: usize| moments.get(moments.len() * k / 10).copied().unwrap_or(config.until_ms / 2);
    let plan = [
        (at(1), Command::Pause { node: first.clone(), for_ms: Some(7_000) }),
        (at(1), Command::Partition { node: last.clone(), from: Link::Resource }),
        (at(3), Command::SetFencing { on: false }),
        (at(4), Command::Heal { node: last.clone() }),
        (at(4), Command::RevokeLease),
        (at(5), Command::DelayNextWrite { node: last.clone(), by_ms: 900 }),
        (
            at(5),
            Command::NextMessage {
                node: first.clone(),
                kind: MessageKind::RenewRequest,
                fault: MessageFault::Hold { by_ms: 1_500 },
            },
        ),
        (at(5), Command::NextMessage { node: last.clone(), kind: MessageKind::Write, fault: MessageFault::Copy }),
        (
            at(6),
            Command::NextMessage { node: last.clone(), kind: MessageKind::AcquireReply, fault: MessageFault::Lose },
        ),
        (at(6), Command::ClockJump { target: "store".into(), by_ms: 4_000 }),
        (at(7), Command::ClockRate { target: first.clone(), rate_ppm: 1_500_000 }),
        (at(8), Command::Crash { node: first.clone() }),
        (at(9), Command::Restart { node: first.clone() }),
    ];
    let tokens = timeline.config().store_kind.rules().issues_tokens();
    for (t, command) in plan {
        timeline.intervene(t, command).expect("a page command");
    }
    // Back in time and a different future: only what is before it stays. (A store without
    // fencing tokens refuses to turn a fence on: there is nothing to check.)
    let again = if tokens { Command::SetFencing { on: true } } else { Command::RevokeLease };
    timeline.intervene(at(6), again).expect("a page command");
    if !tokens {
        assert!(timeline.intervene(at(6), Command::SetFencing { on: true }).is_err());
    }
}

/// The run the page shows at its end, with the timeline's interventions.
fn page_hash(timeline: &mut Timeline) -> String {
    let until = timeline.config().until_ms;
    timeline.seek(until).trace_hash()
}

#[test]
fn every_builtin_with_interventions_exports_to_the_same_trace() {
    for (id, json) in library::FILES {
        let s = builtin(id);
        let mut timeline = Timeline::new(s.config.clone()).expect("valid");
        intervene(&mut timeline);
        assert!(!timeline.interventions().is_empty() || s.config.nodes.is_empty(), "{id}");
        let shown = page_hash(&mut timeline);
        let exported = with_interventions(json, timeline.interventions()).unwrap_or_else(|e| panic!("{id}: {e}"));
        let back = parse(&exported);
        assert_eq!(back.id, s.id);
        assert_eq!(back.config.events, s.config.events, "{id}: the file's own events stay as they were");
        assert_eq!(back.config.interventions, timeline.interventions().to_vec(), "{id}");
        assert_eq!(run(&back).trace_hash(), shown, "{id}");
        // And the same as a replay from zero of the live commands.
        let mut replay = Sim::replay(s.config.clone(), timeline.interventions()).expect("valid");
        replay.run_to_end();
        assert_eq!(replay.trace_hash(), shown, "{id}");
    }
}

/// An exported run imported again and played on with more interventions (some at the same
/// millisecond as the file's own) exports to the trace the page then shows.
#[test]
fn an_imported_export_plays_on_and_exports_again() {
    let (_, json) = library::FILES.iter().find(|(id, _)| *id == "harbor-zombie").expect("built-in");
    let mut first = Timeline::new(builtin("harbor-zombie").config).expect("valid");
    intervene(&mut first);
    let once = with_interventions(json, first.interventions()).expect("exports");
    let imported = parse(&once);
    let mut second = Timeline::new(imported.config.clone()).expect("valid");
    let same_ms = imported.config.interventions[0].at_ms;
    second.intervene(same_ms, Command::Pause { node: "lin".into(), for_ms: Some(3_000) }).expect("valid");
    second.intervene(same_ms + 10_000, Command::RevokeLease).expect("valid");
    let shown = page_hash(&mut second);
    let twice = with_interventions(&once, second.interventions()).expect("exports");
    let back = parse(&twice);
    assert_eq!(back.config.interventions.len(), imported.config.interventions.len() + 2);
    assert_eq!(run(&back).trace_hash(), shown);
}

/// Interventions after the run's end change nothing and are left out; an intervention at the
/// very moment of a scheduled event applies after it, as on the page (Chen is paused by the file
/// at 20 s and resumed by the learner in the same millisecond: he is awake afterwards).
#[test]
fn the_order_within_a_millisecond_is_kept() {
    let (_, json) = library::FILES.iter().find(|(id, _)| *id == "harbor-zombie").expect("built-in");
    let s = builtin("harbor-zombie");
    let pause_at = s.config.events[0].at_ms;
    let mut timeline = Timeline::new(s.config.clone()).expect("valid");
    timeline.intervene(pause_at, Command::Resume { node: "chen".into() }).expect("valid");
    let shown = page_hash(&mut timeline);
    let exported = parse(&with_interventions(json, timeline.interventions()).expect("exports"));
    let sim = run(&exported);
    assert_eq!(sim.trace_hash(), shown);
    let at_pause: Vec<&TraceEvent> = sim.trace().iter().filter(|e| e.at_ms == pause_at).map(|e| &e.event).collect();
    let paused = at_pause.iter().position(|e| matches!(e, TraceEvent::Paused { .. })).expect("paused");
    let resumed = at_pause.iter().position(|e| matches!(e, TraceEvent::Resumed { .. })).expect("resumed");
    assert!(paused < resumed, "{at_pause:?}");

    let late = [leaselab::engine::ScheduledCommand { at_ms: s.config.until_ms, command: Command::RevokeLease }];
    let kept = parse(&with_interventions(json, &late).expect("exports"));
    assert!(kept.config.interventions.is_empty());
}

/// The command-line runner prints the trace hash the page showed for the exported file.
#[test]
fn the_runner_plays_an_export_to_the_page_hash() {
    let (_, json) = library::FILES.iter().find(|(id, _)| *id == "lantern-ankle").expect("built-in");
    let mut timeline = Timeline::new(builtin("lantern-ankle").config).expect("valid");
    intervene(&mut timeline);
    let shown = page_hash(&mut timeline);
    let path = std::env::temp_dir().join(format!("leaselab-export-{}.json", std::process::id()));
    std::fs::write(&path, with_interventions(json, timeline.interventions()).expect("exports")).expect("temp file");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(["run", "--compact"])
        .arg(&path)
        .output()
        .expect("runs");
    let _ = std::fs::remove_file(&path);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a report");
    assert_eq!(report["trace_hash"], shown.as_str());
}

/// A broken `interventions` entry is reported with its path, like any event.
#[test]
fn a_bad_intervention_names_its_path() {
    let e = leaselab::scenario::parse(
        r#"{"format":"leaselab.scenario/1","interventions":[{"at_ms":1,"do":"resume","node":"chen"},{"at_ms":2,"do":"pause","node":"nobody"}]}"#,
    )
    .unwrap_err();
    assert_eq!((e.path.as_str(), e.message.as_str()), ("interventions[1].node", "unknown node \"nobody\""));
    let e = leaselab::scenario::parse(r#"{"format":"leaselab.scenario/1","interventions":[{"at_ms":1,"do":"heal"}]}"#)
        .unwrap_err();
    assert_eq!(e.path, "interventions[0].node");
}
