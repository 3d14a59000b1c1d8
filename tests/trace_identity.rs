//! The engine's behaviour, pinned bit for bit: every built-in scenario (the menu of
//! `scenario::library`, and the page's opening scenario), each of them again with every
//! comparison setting that applies to it flipped (`engine::compare::Setting`), and each again
//! with two other seeds (other latencies, jitter and lessor phases), run to its end, must give the final [`Sim::trace_hash`] and trace length recorded in
//! `tests/fixtures/trace_hashes.json`.
//!
//! The fixture was taken at commit a00e025e22ca78a9241978ace03c2b740e4eefe6 (branch `main`), before the refactor of
//! issue 29 that gathers each store rule into one place ("every rule decided in one place"). It
//! guards that refactors keep the engine's behaviour identical: a refactor must not change a
//! single hash. A deliberate change of behaviour, or an edit of a scenario file, is the only
//! reason to write it again, with
//! `LEASELAB_WRITE_TRACE_FIXTURE=1 cargo test -p leaselab --test trace_identity -- --ignored`,
//! and the commit message then says why (and this comment names the new commit).
//!
//! A built-in scenario that is not in the fixture yet (added after it was taken) is run but not
//! compared; every scenario the fixture names must still exist, with exactly the runs it lists.

use std::collections::BTreeMap;
use std::path::PathBuf;

use leaselab::engine::compare::Setting;
use leaselab::engine::{Config, Sim};
use leaselab::scenario::{library, opening};
use serde_json::{json, Value};

/// Where the fixture lives.
fn fixture_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/trace_hashes.json")
}

/// One run to its end: its trace hash and trace length.
fn run(config: &Config) -> (String, usize) {
    let mut sim = Sim::new(config.clone()).expect("a built-in configuration is valid");
    sim.run_to_end();
    (sim.trace_hash(), sim.trace().len())
}

/// Every run the fixture covers, by scenario, in menu order: `(scenario, run name, config)`,
/// the run named `plain` for the scenario as written, `flip:SETTING` for a setting flipped,
/// `seed+N` for its seed plus N.
fn runs() -> Vec<(String, String, Config)> {
    let mut scenarios: Vec<(String, Config)> = vec![("opening".to_owned(), opening::opening().config)];
    for id in library::ids() {
        let s = library::get(id).expect("listed").expect("a built-in parses");
        scenarios.push((id.to_owned(), s.config));
    }
    let mut out = Vec::new();
    for (id, config) in scenarios {
        for setting in Setting::ALL {
            if setting.applies(&config) {
                out.push((id.clone(), format!("flip:{setting:?}"), setting.flipped(&config)));
            }
        }
        for n in 1..=2u64 {
            let mut reseeded = config.clone();
            reseeded.seed = reseeded.seed.wrapping_add(n);
            out.push((id.clone(), format!("seed+{n}"), reseeded));
        }
        out.push((id, "plain".to_owned(), config));
    }
    out
}

/// The fixture as `scenario -> run -> (trace_hash, trace_len)`.
fn read_fixture() -> BTreeMap<String, BTreeMap<String, (String, usize)>> {
    let text = std::fs::read_to_string(fixture_path()).expect("tests/fixtures/trace_hashes.json");
    let value: Value = serde_json::from_str(&text).expect("the fixture is JSON");
    let mut out: BTreeMap<String, BTreeMap<String, (String, usize)>> = BTreeMap::new();
    for row in value["runs"].as_array().expect("a list of runs") {
        let field = |k: &str| row[k].as_str().unwrap_or_else(|| panic!("{k} in {row}")).to_owned();
        let len = row["trace_len"].as_u64().and_then(|n| usize::try_from(n).ok()).expect("trace_len");
        out.entry(field("scenario")).or_default().insert(field("run"), (field("trace_hash"), len));
    }
    out
}

#[test]
fn every_built_in_run_keeps_its_trace_hash() {
    let fixture = read_fixture();
    assert!(fixture.len() > 40, "the fixture covers {} scenarios", fixture.len());
    let mut actual: BTreeMap<String, BTreeMap<String, (String, usize)>> = BTreeMap::new();
    for (id, name, config) in runs() {
        actual.entry(id).or_default().insert(name, run(&config));
    }
    let mut differences = Vec::new();
    for (id, expected) in &fixture {
        let Some(got) = actual.get(id) else {
            differences.push(format!("{id}: no longer a built-in scenario"));
            continue;
        };
        for (name, want) in expected {
            match got.get(name) {
                Some(have) if have == want => {}
                Some(have) => differences.push(format!("{id} {name}: {have:?}, the fixture says {want:?}")),
                None => differences.push(format!("{id} {name}: no longer run (the setting no longer applies)")),
            }
        }
        for name in got.keys().filter(|n| !expected.contains_key(*n)) {
            differences.push(format!("{id} {name}: a run the fixture does not have (a setting now applies)"));
        }
    }
    let new: Vec<&String> = actual.keys().filter(|id| !fixture.contains_key(*id)).collect();
    if !new.is_empty() {
        eprintln!("not in the fixture (added after it was taken), run but not compared: {new:?}");
    }
    assert!(differences.is_empty(), "the engine's behaviour changed:\n{}", differences.join("\n"));
}

/// Writes the fixture from the code as it is. Only with `LEASELAB_WRITE_TRACE_FIXTURE=1`, and only
/// when the engine's behaviour is meant to change (see the module's documentation).
#[test]
#[ignore = "writes tests/fixtures/trace_hashes.json; run only to take the fixture again"]
fn write_the_fixture() {
    if std::env::var("LEASELAB_WRITE_TRACE_FIXTURE").as_deref() != Ok("1") {
        eprintln!("set LEASELAB_WRITE_TRACE_FIXTURE=1 to write the fixture");
        return;
    }
    let rows: Vec<Value> = runs()
        .into_iter()
        .map(|(id, name, config)| {
            let (hash, len) = run(&config);
            json!({ "scenario": id, "run": name, "trace_hash": hash, "trace_len": len })
        })
        .collect();
    let text = serde_json::to_string_pretty(&json!({ "runs": rows })).expect("serializable");
    let path = fixture_path();
    std::fs::create_dir_all(path.parent().expect("tests/fixtures")).expect("the folder");
    std::fs::write(&path, text + "\n").expect("the fixture is written");
}
