//! Two fenced resources, each with its own high-water mark (`resources`, `nodes[i].writes_to`):
//! a stale token is refused where the newer term has already written and accepted where it has
//! not (seed 002: a stale token passes until the resource has seen a newer one; Kleppmann, "How to
//! do distributed locking"). One-resource runs are exactly what they were.

mod common;

use common::{builtin, parse, report, run};
use leaselab::engine::{Command, Sim, TraceEvent, Violation, WriteOutcome};
use leaselab::scenario::{self, Scenario};
use leaselab::story::{narrate::narrate, Cast};
use leaselab::vocab::Lang;

/// `(arrived_ms, op_id, resource, outcome, high_water_after)` of Chen's writes in the report.
fn chen_writes(s: &Scenario) -> Vec<(u64, String, Option<String>, WriteOutcome, u64)> {
    report(s)
        .writes
        .iter()
        .filter(|w| w.from.as_deref() == Some("chen"))
        .map(|w| (w.arrived_ms, w.op_id.clone(), w.resource.clone(), w.outcome, w.high_water_after))
        .collect()
}

/// The documented outcome of `two-resources`: Lin (8) writes only to db; Chen wakes at 60 s with
/// his prepared round of 7, refused at db and accepted at blobs.
#[test]
fn the_zombie_is_refused_at_db_and_accepted_at_blobs() {
    let s = builtin("two-resources");
    let r = report(&s);
    let grants: Vec<(&str, u64)> = r.grants.iter().map(|g| (g.node.as_str(), g.token)).collect();
    assert_eq!(grants, [("chen", 7), ("lin", 8)]);
    assert!(r.writes.iter().filter(|w| w.from.as_deref() == Some("lin")).all(|w| w.resource.as_deref() == Some("db")));
    let woken: Vec<_> = chen_writes(&s).into_iter().filter(|w| w.0 >= 60_000).collect();
    assert_eq!(
        woken,
        [
            (60_032, "chen-16".to_owned(), Some("blobs".to_owned()), WriteOutcome::Accepted, 7),
            (60_061, "chen-15".to_owned(), Some("db".to_owned()), WriteOutcome::RejectedStale, 8),
        ]
    );
    assert_eq!(r.violations.len(), 1, "{:?}", r.violations);
    let v = &r.violations[0];
    assert_eq!((v.at_ms, v.resource.as_deref()), (60_032, Some("blobs")));
    assert!(matches!(
        &v.violation,
        Violation::StaleWriteAccepted { token: 7, newest_granted: 8, resource_had_seen_newer: false, .. }
    ));
    let marks: Vec<(&str, u64)> = r.final_state.resources.iter().map(|m| (m.name.as_str(), m.high_water)).collect();
    assert_eq!(marks, [("db", 8), ("blobs", 7)]);
    assert_eq!(r.final_state.resources[1].value.as_deref(), Some("chen#16"), "the zombie's value stands at blobs");
}

/// The fix: the epoch barrier raises both marks in the grant of 8, so the round is refused at both.
#[test]
fn the_epoch_barrier_fences_both_resources() {
    let s = builtin("two-resources-barrier");
    let sim = run(&s);
    let raised: Vec<(Option<String>, u64)> = sim
        .trace()
        .iter()
        .filter_map(|e| match &e.event {
            TraceEvent::EpochBarrierRaised { token: 8, high_water_after, resource, .. } => {
                Some((resource.clone(), *high_water_after))
            }
            _ => None,
        })
        .collect();
    assert_eq!(raised, [(Some("db".to_owned()), 8), (Some("blobs".to_owned()), 8)]);
    let woken: Vec<_> = chen_writes(&s).into_iter().filter(|w| w.0 >= 60_000).map(|w| (w.2, w.3)).collect();
    assert_eq!(
        woken,
        [(Some("blobs".into()), WriteOutcome::RejectedStale), (Some("db".into()), WriteOutcome::RejectedStale)]
    );
    let r = report(&s);
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert!(r.final_state.resources.iter().all(|m| m.high_water == 8));
    // The barrier is the only difference: the same run without it is `two-resources`.
    let mut without = s.config.clone();
    without.resource.epoch_barrier = false;
    let mut sim = Sim::new(without).expect("valid");
    sim.run_to_end();
    assert_eq!(sim.trace_hash(), run(&builtin("two-resources")).trace_hash());
}

/// The log and its technical line name the resource that judged, in both languages.
#[test]
fn the_log_names_the_resource() {
    let s = builtin("two-resources");
    let cast = Cast::new(&s);
    let sim = run(&s);
    let woken: Vec<_> = sim
        .trace()
        .iter()
        .filter(|e| {
            e.at_ms >= 60_000 && matches!(&e.event, TraceEvent::WriteJudged { from: Some(f), .. } if f == "chen")
        })
        .collect();
    assert_eq!(woken.len(), 2);
    for (entry, res) in woken.iter().zip(["blobs", "db"]) {
        let en = narrate(entry, &cast, Lang::En).expect("told");
        let zh = narrate(entry, &cast, Lang::Zh).expect("told");
        assert!(en.technical.starts_with(&format!("Resource {res}: ")), "{}", en.technical);
        assert!(en.story.starts_with(&format!("At {res}: ")), "{}", en.story);
        assert!(zh.technical.starts_with(&format!("资源 {res}：")), "{}", zh.technical);
        assert!(zh.story.starts_with(&format!("在 {res}：")), "{}", zh.story);
    }
    let violation = sim.trace().iter().find(|e| matches!(e.event, TraceEvent::ViolationFound { .. })).expect("found");
    assert!(narrate(violation, &cast, Lang::En).expect("told").technical.starts_with("Resource blobs: "));
    // A run with one resource names none.
    let plain = builtin("harbor-zombie");
    let cast = Cast::new(&plain);
    for e in run(&plain).trace() {
        if let Some(n) = narrate(e, &cast, Lang::En) {
            assert!(!n.technical.starts_with("Resource ") && !n.story.starts_with("At "), "{}", n.technical);
        }
    }
}

/// Existing scenarios behave exactly as before: the trace of a run without `resources` names no
/// resource and hashes as it did before resources had names; naming its one resource changes
/// nothing but the names.
#[test]
fn one_resource_runs_are_unchanged() {
    let plain = builtin("harbor-zombie");
    let sim = run(&plain);
    // The hash the engine gave this built-in before `resources` existed.
    assert_eq!(sim.trace_hash(), "905dfc980455c30a");
    assert_eq!(run(&builtin("fencing-checks")).trace_hash(), "59be12e68d19a80b");
    let json = |sim: &Sim| -> Vec<serde_json::Value> {
        sim.trace().iter().map(|e| serde_json::to_value(e).expect("plain data")).collect()
    };
    let before = json(&sim);
    assert!(before.iter().all(|e| e["event"].get("resource").is_none()));
    let mut named = plain.config.clone();
    named.resources = vec!["db".into()];
    let mut named = Sim::new(named).expect("valid");
    named.run_to_end();
    let mut after = json(&named);
    for e in &mut after {
        if let Some(event) = e["event"].as_object_mut() {
            assert!(
                event.get("type").and_then(|t| t.as_str()) != Some("write_judged")
                    || event.get("resource").and_then(|r| r.as_str()) == Some("db"),
                "{event:?}"
            );
            event.remove("resource");
        }
    }
    assert_eq!(before, after);
    let r = report(&plain);
    assert!(r.final_state.resources.is_empty());
    assert!(!serde_json::to_string(&r).expect("json").contains("\"resource\""));
}

/// Raw writes, restores and restarts name their resource; the others are untouched, and each
/// mark climbs on its own.
#[test]
fn faults_and_raw_writes_act_on_the_named_resource() {
    let s = parse(
        r#"{"format":"leaselab.scenario/1","until_ms":5000,"nodes":[],"resources":["db","blobs"],
          "resource":{"persist_high_water":false},
          "events":[{"at_ms":1,"do":"raw_write","token":5,"value":"a"},
                    {"at_ms":2,"do":"raw_write","token":3,"value":"b","resource":"blobs"},
                    {"at_ms":3,"do":"raw_write","token":4,"value":"c","resource":"db"},
                    {"at_ms":4,"do":"raw_write","token":4,"value":"d","resource":"blobs"},
                    {"at_ms":5,"do":"restart_resource","resource":"db"},
                    {"at_ms":6,"do":"raw_write","token":2,"value":"e"},
                    {"at_ms":7,"do":"restore_resource","high_water":9,"resource":"blobs"},
                    {"at_ms":8,"do":"raw_write","token":4,"value":"f","resource":"blobs"}]}"#,
    );
    let got: Vec<(Option<String>, WriteOutcome, u64)> =
        report(&s).writes.iter().map(|w| (w.resource.clone(), w.outcome, w.high_water_after)).collect();
    let db = || Some("db".to_owned());
    let blobs = || Some("blobs".to_owned());
    assert_eq!(
        got,
        [
            (db(), WriteOutcome::Accepted, 5),
            (blobs(), WriteOutcome::Accepted, 3),
            (db(), WriteOutcome::RejectedStale, 5),
            (blobs(), WriteOutcome::Accepted, 4),
            // db's mark was in memory: lost on its restart; blobs kept its own.
            (db(), WriteOutcome::Accepted, 2),
            (blobs(), WriteOutcome::RejectedStale, 9),
        ]
    );
    // The oracle judges each resource by what it accepted: 3 at blobs after 5 at db is no
    // regression; 2 at db after its lost 5 is.
    let r = report(&s);
    let regressions: Vec<Option<&str>> = r
        .violations
        .iter()
        .filter(|v| matches!(v.violation, Violation::TokenRegression { .. }))
        .map(|v| v.resource.as_deref())
        .collect();
    assert_eq!(regressions, [Some("db")]);
    let v = r.violations.iter().find(|v| matches!(v.violation, Violation::TokenRegression { .. })).expect("one");
    assert_eq!(v.earlier_writes, [0], "the write that set db's mark, not blobs'");
    // A live command naming no such resource is refused, the world unchanged.
    let mut sim = Sim::new(s.config.clone()).expect("valid");
    let err = sim.apply(Command::RestartResource { resource: Some("cache".into()) }).expect_err("unknown");
    assert_eq!(err.path, "resource");
}

/// An exported run with resource-named interventions replays to the same trace.
#[test]
fn exported_interventions_keep_their_resource() {
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/scenarios/two-resources.json"))
        .expect("file");
    let s = scenario::parse(&source).expect("valid");
    let mut live = Sim::new(s.config.clone()).expect("valid");
    live.advance_to(40_000);
    live.apply(Command::RestoreResource { high_water: 0, resource: Some("blobs".into()) }).expect("valid");
    live.apply(Command::RawWrite {
        token: leaselab::engine::WireToken::Number(3),
        value: "x".into(),
        op_id: None,
        lock: None,
        resource: Some("blobs".into()),
    })
    .expect("valid");
    live.run_to_end();
    let exported = scenario::export::with_interventions(&source, live.interventions()).expect("exports");
    assert!(exported.contains(r#""resource":"blobs""#), "{exported}");
    let replayed = run(&scenario::parse(&exported).expect("valid"));
    assert_eq!(replayed.trace_hash(), live.trace_hash());
}

/// Bad `resources`, `writes_to` and event `resource` fields are refused with their path.
#[test]
fn bad_resource_fields_name_the_field() {
    const F: &str = r#""format": "leaselab.scenario/1""#;
    let cases: &[(String, &str, &str)] = &[
        (format!(r#"{{{F}, "resources": "db"}}"#), "resources", "array"),
        (format!(r#"{{{F}, "resources": []}}"#), "resources", "at least one"),
        (format!(r#"{{{F}, "resources": ["db", 7]}}"#), "resources[1]", "string"),
        (format!(r#"{{{F}, "resources": ["db", ""]}}"#), "resources[1]", "1 to 32"),
        (format!(r#"{{{F}, "resources": ["db", "a b"]}}"#), "resources[1]", "ASCII"),
        (format!(r#"{{{F}, "resources": ["db", "db"]}}"#), "resources[1]", "duplicate"),
        (format!(r#"{{{F}, "resources": ["a", "b", "c", "d", "e"]}}"#), "resources", "at most 4"),
        (
            format!(r#"{{{F}, "nodes": [{{"id": "a", "writes_to": ["db"]}}]}}"#),
            "nodes[0].writes_to[0]",
            "unknown resource \"db\"",
        ),
        (
            format!(r#"{{{F}, "resources": ["db"], "nodes": [{{"id": "a", "writes_to": ["blobs"]}}]}}"#),
            "nodes[0].writes_to[0]",
            "unknown resource \"blobs\"",
        ),
        (
            format!(r#"{{{F}, "resources": ["db"], "nodes": [{{"id": "a", "writes_to": ["db", "db"]}}]}}"#),
            "nodes[0].writes_to[1]",
            "twice",
        ),
        (
            format!(r#"{{{F}, "resources": ["db"], "nodes": [{{"id": "a", "writes_to": []}}]}}"#),
            "nodes[0].writes_to",
            "at least one",
        ),
        (
            format!(r#"{{{F}, "resources": ["db"], "nodes": [{{"id": "a", "writes_to": "db"}}]}}"#),
            "nodes[0].writes_to",
            "array",
        ),
        (
            format!(
                r#"{{{F}, "resources": ["db"], "events": [{{"at_ms": 1, "do": "restart_resource", "resource": "blobs"}}]}}"#
            ),
            "events[0].resource",
            "unknown resource",
        ),
        (
            format!(r#"{{{F}, "events": [{{"at_ms": 1, "do": "raw_write", "value": "v", "resource": "db"}}]}}"#),
            "events[0].resource",
            "unknown resource",
        ),
        (
            format!(
                r#"{{{F}, "resources": ["db"], "events": [{{"at_ms": 1, "do": "pause", "node": "chen", "resource": "db"}}]}}"#
            ),
            "events[0].resource",
            "does not apply",
        ),
        (
            format!(
                r#"{{{F}, "resources": ["db"], "events": [{{"at_ms": 1, "do": "restore_resource", "resource": 3}}]}}"#
            ),
            "events[0].resource",
            "string",
        ),
    ];
    for (json, path, words) in cases {
        let e = scenario::parse(json).expect_err(json);
        assert_eq!(e.path, *path, "{json}: {e}");
        assert!(e.message.contains(words), "{json}: {e}");
    }
    // Good ones parse.
    let ok = scenario::parse(&format!(
        r#"{{{F}, "resources": ["db", "blobs"], "nodes": [{{"id": "a", "writes_to": ["blobs", "db"]}}]}}"#
    ))
    .expect("valid");
    assert_eq!(ok.config.node_targets(0), [1, 0]);
}
