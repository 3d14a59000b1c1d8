//! Lessons (issue 5): every built-in lesson is valid and every step's awaited event really
//! happens on the engine; the harbor lesson's steps end at the fable's moments (seed 000: Chen
//! holds 7, Lin is granted 8 when the sand runs out, Chen's 7 is refused by the verifier, and
//! with nobody checking it is obeyed); a step's start is exactly what the page restores; broken
//! lesson files name the field.

mod common;

use std::collections::BTreeSet;

use common::runner;
use leaselab::engine::timeline::Timeline;
use leaselab::engine::{Sim, TraceEvent, WireToken, WriteOutcome};
use leaselab::scenario::lesson::{self, Element, EVENT_TYPES};
use leaselab::scenario::{library, Pacing};

#[test]
fn every_builtin_lesson_is_valid_and_its_awaited_events_happen() {
    assert!(!library::lessons::MENU.is_empty());
    for entry in library::lessons::MENU {
        let lesson = library::lessons::get(entry.id).expect("listed").unwrap_or_else(|e| panic!("{}: {e}", entry.id));
        assert_eq!(lesson.id, entry.id);
        let plan = lesson::plan(&lesson, library::get).unwrap_or_else(|e| panic!("{}: {e}", entry.id));
        assert_eq!(plan.len(), lesson.steps.len());
        for (i, (step, planned)) in lesson.steps.iter().zip(&plan).enumerate() {
            assert_eq!(step.until.is_some(), planned.until.is_some(), "{} step {i}", entry.id);
            // A question is answered by what the run then shows: it waits for an event.
            if step.ask.is_some() {
                assert!(step.until.is_some(), "{} step {i} asks but awaits nothing", entry.id);
            }
        }
        // The runner agrees, and names every step.
        let out = runner(&["lesson", "--builtin", entry.id], "");
        assert!(out.status.success(), "{}: {}", entry.id, String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("every awaited event happens"), "{text}");
        let witnesses = lesson.steps.iter().filter(|s| s.witness.is_some()).count();
        let live = lesson.steps.iter().filter(|s| !s.live.is_empty()).count();
        assert_eq!(text.lines().count(), lesson.steps.len() + 1 + witnesses + live, "{text}");
        assert_eq!(text.matches("witness at step").count(), witnesses, "{text}");
        assert_eq!(text.matches("live numbers at step").count(), live, "{text}");
    }
}

/// The awaited entry of the step titled `title` (English), in a fresh run of its start.
fn awaited(id: &str, title: &str) -> (u64, TraceEvent) {
    let lesson = library::lessons::get(id).expect("built-in").expect("valid");
    let plan = lesson::plan(&lesson, library::get).expect("plays");
    let i = lesson.steps.iter().position(|s| s.title.en == title).unwrap_or_else(|| panic!("no step {title:?}"));
    let (t, seq) = plan[i].until.expect("the step awaits an event");
    let start = &plan[i].start;
    let scenario = library::get(&start.scenario).expect("built-in").expect("valid");
    let mut sim = Sim::replay(scenario.config, &start.interventions).expect("replays");
    sim.advance_to(t);
    let entry = sim.trace().iter().find(|e| e.seq == seq).expect("the awaited entry is in the trace").clone();
    assert_eq!(entry.at_ms, t);
    (t, entry.event)
}

#[test]
fn the_harbor_lesson_follows_the_fable() {
    // Seed 000: Chen takes the post with 7.
    match awaited("harbor-replaced", "One flag at a time").1 {
        TraceEvent::BecameLeader { node, token } => assert_eq!((node.as_str(), token), ("chen", 7)),
        other => panic!("{other:?}"),
    }
    // "The dockmaster followed the old rule: struck his name, put young Lin on duty, and the
    // number on the plaque jumped from 7 to 8."
    let (granted_ms, event) = awaited("harbor-replaced", "The sand runs out");
    match event {
        TraceEvent::LeaseGranted { node, token, lease_transitions, .. } => {
            assert_eq!((node.as_str(), token, lease_transitions), ("lin", 8, 1));
        }
        other => panic!("{other:?}"),
    }
    // harbor-zombie pauses Chen at 20 s with a 15 s lease renewed at most 5 s before: the sand
    // cannot run out before 30 s.
    assert!((30_000..=35_000).contains(&granted_ms), "{granted_ms}");
    // "The number it carried was the already-invalid 7 — the verifier ... treating it as void."
    match awaited("harbor-replaced", "Chen wakes and waves").1 {
        TraceEvent::WriteJudged { from, token, outcome, high_water_before, .. } => {
            assert_eq!(from.as_deref(), Some("chen"));
            assert_eq!(token, WireToken::Number(7));
            assert_eq!(outcome, WriteOutcome::RejectedStale);
            assert_eq!(high_water_before, 8);
        }
        other => panic!("{other:?}"),
    }
    // With nobody checking numbers, the stale 7 is obeyed after 8 was seen.
    match awaited("harbor-replaced", "Without the flag-verifier").1 {
        TraceEvent::ViolationFound { violation, .. } => {
            let json = serde_json::to_value(&violation).expect("serializes");
            assert_eq!(json["kind"], "stale_write_accepted", "{json}");
            assert_eq!(json["token"], 7, "{json}");
            assert_eq!(json["resource_had_seen_newer"], true, "{json}");
        }
        other => panic!("{other:?}"),
    }
}

/// Going back to a step, or opening its link, rebuilds its start from the scenario, the
/// interventions and the moment, through the page's own timeline: it must be the very state the
/// lesson reached by playing forward.
#[test]
fn a_step_start_rebuilt_through_the_timeline_is_the_state_played_forward() {
    for entry in library::lessons::MENU {
        let lesson = library::lessons::get(entry.id).expect("listed").expect("valid");
        let plan = lesson::plan(&lesson, library::get).expect("plays");
        for (i, planned) in plan.iter().enumerate() {
            let start = &planned.start;
            let scenario = library::get(&start.scenario).expect("built-in").expect("valid");
            let mut forward = Sim::replay(scenario.config.clone(), &start.interventions).expect("replays");
            forward.advance_to(start.at_ms);
            assert_eq!(forward.trace().len(), start.trace_len, "{} step {i}", entry.id);
            let mut timeline = Timeline::new(scenario.config).expect("valid");
            for intervention in &start.interventions {
                timeline.intervene(intervention.at_ms, intervention.command.clone()).expect("accepted");
            }
            let rebuilt = timeline.seek(start.at_ms);
            assert_eq!(rebuilt.trace_hash(), forward.trace_hash(), "{} step {i}", entry.id);
            assert_eq!(rebuilt.trace().len(), start.trace_len, "{} step {i}", entry.id);
        }
    }
}

#[test]
fn every_event_type_of_the_traces_can_be_awaited() {
    let mut seen = BTreeSet::new();
    for id in library::ids() {
        let scenario = library::get(id).expect("listed").expect("valid");
        let mut sim = Sim::new(scenario.config).expect("valid");
        sim.run_to_end();
        for entry in sim.trace() {
            let json = serde_json::to_value(&entry.event).expect("serializes");
            seen.insert(json["type"].as_str().expect("every event has a type").to_owned());
        }
    }
    for t in &seen {
        assert!(EVENT_TYPES.contains(&t.as_str()), "\"{t}\" is missing from lesson::EVENT_TYPES");
    }
    assert!(seen.len() >= 25, "the built-ins cover most event types: {seen:?}");
}

#[test]
fn until_matches_fields_and_nested_objects() {
    let lesson_with = |until: &str| {
        format!(
            r#"{{"format": "leaselab.lesson/1", "id": "t", "title": {{"en": "T", "zh": "T"}},
               "steps": [{{"title": {{"en": "a", "zh": "a"}}, "text": {{"en": "b", "zh": "b"}},
                          "scenario": "harbor-zombie", "until": {until}}}]}}"#
        )
    };
    let when = |until: &str| -> Option<u64> {
        let lesson = lesson::parse(&lesson_with(until)).expect("valid");
        lesson::plan(&lesson, library::get).ok().map(|p| p[0].until.expect("awaits").0)
    };
    // Chen's first write (token 7) lands at 147 ms; Lin's first with 8 after the sand ran out.
    let first_7 = when(r#"{"type": "write_judged", "token": {"kind": "number", "raw": 7}}"#).expect("happens");
    let first_8 = when(r#"{"type": "write_judged", "token": {"raw": 8}}"#).expect("happens");
    assert!(first_7 < 1_000 && first_8 > 30_000, "{first_7} {first_8}");
    assert_eq!(when(r#"{"type": "write_judged", "from": "lin", "outcome": "accepted"}"#), Some(first_8));
    // A field the event does not have, or a value it never takes: it never happens.
    assert_eq!(when(r#"{"type": "lease_expired", "holder": "lin"}"#), None);
    assert_eq!(when(r#"{"type": "write_judged", "token": {"raw": 9}}"#), None);
}

#[test]
fn broken_lesson_files_name_the_field() {
    let step = r#"{"title": {"en": "a", "zh": "甲"}, "text": {"en": "b", "zh": "乙"}, "scenario": "harbor-zombie"}"#;
    let lesson = |steps: &str| {
        format!(
            r#"{{"format": "leaselab.lesson/1", "id": "t", "title": {{"en": "T", "zh": "题"}}, "steps": [{steps}]}}"#
        )
    };
    let with = |extra: &str| lesson(&step.replacen('{', &format!("{{{extra}, "), 1));
    let cases: Vec<(String, &str, &str)> = vec![
        ("not json".into(), ".", "one JSON object"),
        (r#"{"format": "leaselab.scenario/1"}"#.into(), "format", "leaselab.lesson/1"),
        (r#"{"format": "leaselab.lesson/1"}"#.into(), "id", "is required"),
        (lesson(step).replace(r#""title": {"en": "T", "zh": "题"}"#, r#""title": "T""#), "title", "must be an object"),
        (lesson(step).replace(r#""steps": ["#, r#""fable": "castle", "steps": ["#), "fable", "harbor"),
        (lesson(step).replace("lesson/1", "lesson/9"), "format", "leaselab.lesson/1"),
        (lesson(step).replace(r#""id": "t""#, r#""id": "a b""#), "id", "letters"),
        (lesson(""), "steps", "1 to 60"),
        (lesson(&step.replace(r#", "scenario": "harbor-zombie""#, "")), "steps[0].scenario", "first step"),
        (lesson(&step.replace(r#""zh": "乙""#, r#""zh": " ""#)), "steps[0].text.zh", "Simplified Chinese"),
        (with(r#""sped": 2"#), "steps[0].sped", "unknown field"),
        (with(r#""speed": 3"#), "steps[0].speed", "0.25"),
        (with(r#""pacing": "slow""#), "steps[0].pacing", "\"story\" or \"true\""),
        (with(r#""pacing": true"#), "steps[0].pacing", "string"),
        (with(r#""until": "lease_expired""#), "steps[0].until", "object"),
        (with(r#""until": {"node": "lin"}"#), "steps[0].until.type", "required"),
        (with(r#""until": {"type": "lease_expiring"}"#), "steps[0].until.type", "not an event"),
        (with(r#""hold": true"#), "steps[0].hold", "until"),
        (with(r#""do": [{"do": "pause"}]"#), "steps[0].do[0].node", "required"),
        (
            with(r#""do": [{"at_ms": 5, "do": "pause", "node": "chen"}]"#),
            "steps[0].do[0].at_ms",
            "when the step begins",
        ),
        (with(r#""point": ["hourglass"]"#), "steps[0].point[0]", "not an element"),
        (
            with(
                r#""ask": {"question": {"en": "q", "zh": "问"}, "choices": [{"id": "a", "text": {"en": "x", "zh": "x"}}, {"id": "b", "text": {"en": "y", "zh": "y"}}], "answer": "a", "why": {"en": "w", "zh": "因"}}"#,
            ),
            "steps[0].ask",
            "needs \"until\"",
        ),
        (
            with(
                r#""ask": {"question": {"en": "q", "zh": "问"}, "choices": [{"id": "a", "text": {"en": "x", "zh": "x"}}], "answer": "a", "why": {"en": "w", "zh": "因"}}"#,
            ),
            "steps[0].ask.choices",
            "2 to 6",
        ),
        (
            with(
                r#""ask": {"question": {"en": "q", "zh": "问"}, "choices": [{"id": "a", "text": {"en": "x", "zh": "x"}}, {"id": "b", "text": {"en": "y", "zh": "y"}}], "answer": "c", "why": {"en": "w", "zh": "因"}}"#,
            ),
            "steps[0].ask.answer",
            "\"c\"",
        ),
        (
            with(
                r#""ask": {"question": {"en": "q", "zh": "问"}, "choices": [{"id": "a", "text": {"en": "x", "zh": "x"}}, {"id": "a", "text": {"en": "y", "zh": "y"}}], "answer": "a", "why": {"en": "w", "zh": "因"}}"#,
            ),
            "steps[0].ask.choices[1].id",
            "another choice",
        ),
        (with(r#""metaphors": true"#), "metaphors", "is empty"),
        (with(r#""hold": "yes", "until": {"type": "lease_expired"}"#), "steps[0].hold", "true or false"),
        (with(r#""do": [{"do": "pause", "node": "chen", "when": 3}]"#), "steps[0].do[0].when", "unknown field"),
        (with(r#""point": [7]"#), "steps[0].point[0]", "string"),
        // A field given twice, at any depth (issue 13).
        (with(r#""speed": 2, "speed": 4"#), "steps[0].speed", "is given twice"),
        (lesson(step).replace(r#""id": "t""#, r#""id": "t", "id": "u""#), "id", "is given twice"),
        (lesson(&step.replace(r#""zh": "乙""#, r#""zh": "乙", "en": "c""#)), "steps[0].text.en", "is given twice"),
    ];
    for (json, path, words) in &cases {
        let error = lesson::parse(json).expect_err(json);
        assert_eq!(error.path, *path, "{json}\n{error}");
        assert!(error.message.contains(words), "{json}\n{error}");
    }
    // A witness question: a goal of the search, 1 to 3 interventions, its own fields only.
    let witness_cases = [
        (r#"{"goal": "zombie_fenced"}"#, "steps[0].witness.goal", "is not a goal of the search"),
        (r#"{"goal": "dual_belief", "max_interventions": 4}"#, "steps[0].witness.max_interventions", "1 to 3"),
        (r#"{"goal": "dual_belief", "max_interventions": 0}"#, "steps[0].witness.max_interventions", "1 to 3"),
        (r#"{"goal": "dual_belief", "depth": 1}"#, "steps[0].witness.depth", "unknown field"),
        (r#"{"goal": "dual_belief", "label": {"en": "Show me"}}"#, "steps[0].witness.label.zh", ""),
        (r#"{"max_interventions": 1}"#, "steps[0].witness.goal", ""),
    ];
    for (witness, path, words) in witness_cases {
        let json = with(&format!(r#""witness": {witness}"#));
        let error = lesson::parse(&json).expect_err(&json);
        assert_eq!(error.path, path, "{json}\n{error}");
        assert!(error.message.contains(words), "{json}\n{error}");
    }
    // What only playing it shows: an unknown scenario or node, an event that never happens.
    let plan_error = |json: String| {
        let parsed = lesson::parse(&json).unwrap_or_else(|e| panic!("{json}\n{e}"));
        lesson::plan(&parsed, library::get).expect_err(&json)
    };
    let e = plan_error(lesson(&step.replace("harbor-zombie", "harbour-zombie")));
    assert_eq!((e.path.as_str(), e.message.contains("not a built-in")), ("steps[0].scenario", true), "{e}");
    let e = plan_error(with(r#""do": [{"do": "crash", "node": "ghost"}]"#));
    assert_eq!(e.path, "steps[0].do[0]", "{e}");
    assert!(e.message.contains("ghost"), "{e}");
    let e = plan_error(with(r#""point": ["node:ghost"]"#));
    assert_eq!(e.path, "steps[0].point[0]", "{e}");
    let e = plan_error(with(r#""until": {"type": "lease_granted", "node": "ghost"}"#));
    assert_eq!(e.path, "steps[0].until", "{e}");
    assert!(e.message.contains("run ends at 90000 ms"), "{e}");
    // The runner: exit 2, the path on stderr.
    let out = runner(&["lesson", "-"], &with(r#""speed": 3"#));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("steps[0].speed"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = runner(&["lesson", "-"], &with(r#""until": {"type": "lease_granted", "node": "ghost"}"#));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("steps[0].until"));
    let out = runner(&["lesson", "-"], &with(r#""hold": true, "hold": false"#));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("leaselab: -: invalid lesson at steps[0].hold: is given twice in the same object; give each field once (line 1, column "), "{stderr}");
}

#[test]
fn element_codes() {
    assert_eq!(Element::from_code("ttl"), Some(Element::Ttl));
    assert_eq!(Element::from_code("node:chen"), Some(Element::Node("chen".into())));
    assert_eq!(Element::from_code("lane:store"), Some(Element::Lane("store".into())));
    assert_eq!(Element::from_code("node:"), None);
    assert_eq!(Element::from_code("Hourglass"), None);
}

#[test]
fn progress_round_trips_and_rejects_what_does_not_fit() {
    use leaselab::scenario::lesson::{decode_progress, encode_progress};
    let answers = vec![None, Some(1), None];
    let text = encode_progress(2, 2, &answers);
    assert_eq!(text, "2 2 - 1 -");
    assert_eq!(decode_progress(&text, 3), Some((2, 2, answers)));
    assert_eq!(decode_progress(&text, 4), None, "a lesson with another number of steps");
    assert_eq!(decode_progress("9 9 - - -", 3), None);
    assert_eq!(decode_progress("1 0 - - -", 3), Some((1, 1, vec![None; 3])), "furthest is at least the step");
    assert_eq!(decode_progress("garbage", 3), None);
    assert_eq!(decode_progress("", 3), None);
}

/// Every element code the format documents reads back as itself, `shared` included (the
/// lantern's metaphor row "Nantang's one night lantern" lights the lantern, not the granary).
#[test]
fn element_codes_round_trip() {
    let codes = [
        "holder",
        "token",
        "ttl",
        "renewals",
        "store",
        "clasp",
        "resource",
        "outcome",
        "shared",
        "node:chen",
        "diagram",
        "lane:store",
        "log",
        "violations",
    ];
    for code in codes {
        assert_eq!(Element::from_code(code).map(|e| e.code()).as_deref(), Some(code));
    }
    assert_eq!(Element::from_code("lantern"), None);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/lessons/lantern-return-hour.json");
    let lantern: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    assert_eq!(lantern["metaphors"][0]["element"], "shared");
}

/// A step may choose story time or true time; without `pacing` it follows the page.
#[test]
fn a_step_chooses_its_pacing() {
    let step = |extra: &str| {
        format!(
            r#"{{"title": {{"en": "a", "zh": "甲"}}, "text": {{"en": "b", "zh": "乙"}}, "scenario": "harbor-zombie"{extra}}}"#
        )
    };
    let steps =
        [step(""), step(r#", "pacing": "true""#), step(r#", "pacing": "story""#), step(r#", "pacing": " True ""#)];
    let json = format!(
        r#"{{"format": "leaselab.lesson/1", "id": "t", "title": {{"en": "T", "zh": "题"}}, "steps": [{}]}}"#,
        steps.join(", ")
    );
    let lesson = lesson::parse(&json).expect("valid");
    let pacings: Vec<Option<Pacing>> = lesson.steps.iter().map(|s| s.pacing).collect();
    assert_eq!(pacings, [None, Some(Pacing::True), Some(Pacing::Story), Some(Pacing::True)]);
}

/// Every built-in lesson asks the engine at least one witness question (issue 30), and what the
/// search finds for it really shows it: replayed from its interventions alone, the run's trace
/// holds the witnessed event at the moment found, with fewer interventions than the bound.
#[test]
fn every_lesson_has_a_witness_question_and_its_run_shows_it() {
    use leaselab::engine::search::Goal;
    for entry in library::lessons::MENU {
        let lesson = library::lessons::get(entry.id).expect("listed").expect("valid");
        let plan = lesson::plan(&lesson, library::get).expect("plays");
        let found =
            lesson::find_witnesses(&lesson, &plan, library::get).unwrap_or_else(|e| panic!("{}: {e}", entry.id));
        assert!(!found.is_empty(), "{} asks no witness question", entry.id);
        for w in found {
            let asked = lesson.steps[w.step].witness.as_ref().expect("the step asks it");
            assert!((1..=asked.max_interventions).contains(&w.found.depth), "{}: {:?}", entry.id, w.found);
            let scenario = library::get(&plan[w.step].start.scenario).expect("built-in").expect("valid");
            let mut sim = Sim::replay(scenario.config, &w.found.interventions).expect("replays");
            sim.advance_to(w.found.at_ms);
            let trace = sim.trace();
            let entry_found = trace.iter().find(|e| e.seq == w.found.entry.seq).expect("the entry is in the replay");
            assert_eq!((entry_found.at_ms, &entry_found.event), (w.found.at_ms, &w.found.entry.event));
            // The event is the one the goal names, read here from the trace, not from the search.
            match (w.goal, &entry_found.event) {
                (Goal::ZombieWriteFenced, TraceEvent::WriteJudged { outcome, from: Some(from), .. }) => {
                    assert_eq!(*outcome, WriteOutcome::RejectedStale, "{}", entry.id);
                    // Its writer had been replaced: someone else was granted the lease before.
                    let replaced = trace.iter().any(|e| {
                        matches!(&e.event, TraceEvent::LeaseGranted { node, .. } if node != from)
                            && e.at_ms <= w.found.at_ms
                    });
                    assert!(replaced, "{}: {from}'s write was fenced, but nobody replaced it", entry.id);
                }
                (Goal::ExpiryWithoutPause, TraceEvent::LeaseExpired { .. }) => {
                    let slept =
                        trace.iter().any(|e| matches!(e.event, TraceEvent::Paused { .. } | TraceEvent::Crashed { .. }));
                    assert!(!slept, "{}: the lease ran out after a pause or a crash", entry.id);
                }
                (Goal::DualBelief, _) => {
                    let leaders = sim.snapshot().nodes.iter().filter(|n| n.believes_leader).count();
                    assert!(leaders >= 2, "{}: {leaders} nodes believe they lead at {} ms", entry.id, w.found.at_ms);
                }
                (goal, event) => panic!("{}: add a check of {goal:?} (found {event:?})", entry.id),
            }
        }
    }
}
