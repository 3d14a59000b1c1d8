//! Numbers in the prose (issue 30, `scenario::live`): a step's text with bound numbers and the
//! engine's outcome numbers. The outcome numbers are the report's (`leaselab run --set` prints
//! the same run); they follow what the seeds say of leases and pauses; bad `live` fields and
//! texts name the field.

mod common;

use common::{builtin, runner};
use leaselab::engine::sweep::Knob;
use leaselab::scenario::lesson;
use leaselab::scenario::live::{self, Bound, Figure, Piece};
use leaselab::scenario::{Localized, Report};

fn bound(name: &str, knob: Knob, value: u64, min: u64, max: u64, step: u64) -> Bound {
    let label = Localized { en: name.into(), zh: name.into() };
    Bound { name: name.into(), knob, value, min, max, step, label }
}

fn harbor_bounds() -> Vec<Bound> {
    vec![
        bound("lease", Knob::LeaseDurationMs, 15_000, 5_000, 60_000, 1_000),
        bound("pause", Knob::PauseMs, 40_000, 1_000, 60_000, 1_000),
    ]
}

#[test]
fn a_live_text_is_read_into_text_bound_numbers_and_outcome_numbers() {
    let b = harbor_bounds();
    let pieces = live::pieces("With {lease} s and {pause} s: {=stale_writes} stale.", &b).expect("reads");
    assert_eq!(
        pieces,
        vec![
            Piece::Text("With ".into()),
            Piece::Bound(0),
            Piece::Text(" s and ".into()),
            Piece::Bound(1),
            Piece::Text(" s: ".into()),
            Piece::Figure(Figure::StaleWrites),
            Piece::Text(" stale.".into()),
        ]
    );
    for (text, words) in [
        ("{leese} s", "{leese} is not a bound number of this step (lease, pause)"),
        ("{=stale} writes", "{=stale} is not an outcome number (stale_writes"),
        ("a {lease", "is not closed"),
    ] {
        let e = live::pieces(text, &b).expect_err(text);
        assert!(e.contains(words), "{text}: {e}");
    }
}

#[test]
fn a_bound_number_is_shown_in_seconds_and_held_to_its_steps() {
    let lease = bound("lease", Knob::LeaseDurationMs, 15_000, 5_000, 60_000, 1_000);
    assert_eq!(lease.shown(15_000), "15");
    assert_eq!(lease.shown(1_500), "1.5");
    assert_eq!(lease.read("20"), Some(20_000));
    assert_eq!(lease.read(" 20.4 "), Some(20_000), "the nearest step");
    assert_eq!(lease.read("2"), Some(5_000), "held to min");
    assert_eq!(lease.read("-5"), Some(5_000), "a negative number held to min too");
    assert_eq!(lease.read("900"), Some(60_000), "held to max");
    assert_eq!(lease.read("fifteen"), None);
    assert_eq!(lease.read("NaN"), None);
    let rate = bound("rate", Knob::ClockRatePpm, 1_000_000, 500_000, 1_500_000, 50_000);
    // A clock rate reads as a multiple of true speed.
    assert_eq!(rate.shown(1_000_000), "1");
    assert_eq!(rate.shown(550_000), "0.55");
    assert_eq!(rate.read("1.02"), Some(1_000_000), "the nearest step");
    assert_eq!(rate.read("1.03"), Some(1_050_000));
}

/// The outcome numbers are read from the report, and `leaselab run --set` plays the same run.
#[test]
fn the_outcome_numbers_are_the_runners_report() {
    let s = builtin("harbor-no-fencing");
    let b = harbor_bounds();
    for values in [[15_000, 40_000], [5_000, 20_000], [30_000, 12_000]] {
        let report = live::report(&s, &b, &values).expect("runs");
        let args = [
            "run".to_owned(),
            "--builtin".into(),
            "harbor-no-fencing".into(),
            "--compact".into(),
            format!("--set=lease_duration_ms={}", values[0]),
            format!("--set=pause_ms={}", values[1]),
        ];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = runner(&args, "");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let printed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a report");
        assert_eq!(printed["trace_hash"], report.trace_hash.as_str(), "{values:?}");
        let stale = printed["violations"]
            .as_array()
            .expect("a list")
            .iter()
            .filter(|v| v["kind"] == "stale_write_accepted")
            .count();
        assert_eq!(Figure::StaleWrites.of(&report), stale.to_string(), "{values:?}");
        let gaps: u64 =
            printed["leader_gaps"].as_array().expect("a list").iter().filter_map(|g| g["length_ms"].as_u64()).sum();
        assert_eq!(Figure::LeaderlessS.of(&report), format!("{:.1}", gaps as f64 / 1000.0));
    }
    // With the scenario's own settings the run is the scenario's.
    let own = Report::run(&s).expect("runs");
    assert_eq!(live::report(&s, &b, &[15_000, 40_000]).expect("runs").trace_hash, own.trace_hash);
    // A bad setting on the command line names it.
    let out = runner(&["run", "--builtin", "harbor-no-fencing", "--set", "lease=9"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("\"lease\" is not a knob"));
}

/// What seed 000 and Kleppmann say, read off the live numbers: a stale write needs the lease to
/// run out while its holder sleeps. A nap shorter than the hourglass lets none through; a nap
/// longer lets Chen's flag through with nobody checking (seed 000: the boat obeys it).
#[test]
fn the_live_numbers_follow_the_seeds() {
    let s = builtin("harbor-no-fencing");
    let b = harbor_bounds();
    let stale = |lease: u64, pause: u64| Figure::StaleWrites.of(&live::report(&s, &b, &[lease, pause]).expect("runs"));
    assert_eq!(stale(15_000, 40_000), "1", "the harbor as told: Chen's 7 is obeyed");
    for (lease, pause) in [(15_000, 5_000), (15_000, 10_000), (60_000, 40_000), (30_000, 20_000)] {
        assert_eq!(stale(lease, pause), "0", "a {pause} ms nap within a {lease} ms hourglass");
    }
    // The lantern's long return hour (seed 001): the longer it is, the longer nobody holds the
    // lantern after A-Xiu's fall, and never less than the hour itself minus her 10 s of holding.
    let t = builtin("ttl-too-long");
    let hour = vec![bound("hour", Knob::LeaseDurationMs, 60_000, 5_000, 120_000, 5_000)];
    let mut before = 0.0;
    for ms in (20_000..=120_000).step_by(20_000) {
        let gap: f64 =
            Figure::LeaderlessS.of(&live::report(&t, &hour, &[ms]).expect("runs")).parse().expect("a number");
        assert!(gap >= before, "{ms} ms: {gap} s after {before} s");
        assert!(gap >= (ms as f64 - 10_000.0) / 1000.0, "{ms} ms: {gap} s");
        before = gap;
    }
}

#[test]
fn bad_live_fields_name_the_field() {
    let lesson_with = |live: &str, en: &str, zh: &str| {
        format!(
            r#"{{"format": "leaselab.lesson/1", "id": "t", "title": {{"en": "T", "zh": "题"}}, "steps": [
              {{"title": {{"en": "a", "zh": "甲"}}, "text": {{"en": "{en}", "zh": "{zh}"}},
                "scenario": "harbor-no-fencing", "live": {live}}}]}}"#
        )
    };
    let good = r#"[{"name": "lease", "knob": "lease_duration_ms", "value": 15000, "min": 5000, "max": 60000, "step": 1000, "label": {"en": "l", "zh": "租"}}]"#;
    let ok = lesson::parse(&lesson_with(good, "{lease} s: {=violations}", "{lease} 秒")).expect("valid");
    assert_eq!(ok.steps[0].live.len(), 1);
    let cases = [
        (good.replace("lease_duration_ms", "lease_ms"), "{lease}", "{lease}", "steps[0].live[0].knob", "is not a knob"),
        (good.replace("15000", "15500"), "{lease}", "{lease}", "steps[0].live[0].value", "steps"),
        (good.replace("\"step\": 1000", "\"step\": 0"), "{lease}", "{lease}", "steps[0].live[0].step", "at least 1"),
        (good.replace("\"step\": 1000", "\"step\": 250"), "{lease}", "{lease}", "steps[0].live[0].step", "tenths"),
        (good.replace("\"label\"", "\"lable\""), "{lease}", "{lease}", "steps[0].live[0].lable", "unknown field"),
        (good.to_owned(), "{lease}", "no number", "steps[0].text.zh", "does not hold {lease}"),
        (good.to_owned(), "{lease} {pause}", "{lease}", "steps[0].text.en", "{pause} is not a bound number"),
        (good.to_owned(), "{lease} {=stale}", "{lease}", "steps[0].text.en", "{=stale} is not an outcome number"),
        (
            format!("[{0}, {0}]", &good[1..good.len() - 1]),
            "{lease}",
            "{lease}",
            "steps[0].live[1].name",
            "used by another",
        ),
    ];
    for (live, en, zh, path, words) in cases {
        let json = lesson_with(&live, en, zh);
        let e = lesson::parse(&json).expect_err(&json);
        assert_eq!(e.path, path, "{json}\n{e}");
        assert!(e.message.contains(words), "{json}\n{e}");
    }
    // A value that is not the scenario's own: the sentence would not tell the scene's run.
    let parsed = lesson::parse(&lesson_with(&good.replace("15000", "20000"), "{lease}", "{lease}")).expect("valid");
    let plan = lesson::plan(&parsed, leaselab::scenario::library::get).expect("plays");
    let e = lesson::check_live(&parsed, &plan, leaselab::scenario::library::get).expect_err("not its own");
    assert_eq!(e.path, "steps[0].live");
    assert!(e.message.contains("the scenario's own setting"), "{e}");
    // A knob the scenario does not have (lantern-race has no scripted pause).
    let json = lesson_with(
        r#"[{"name": "p", "knob": "pause_ms", "value": 5000, "min": 1000, "max": 9000, "step": 1000, "label": {"en": "p", "zh": "停"}}]"#,
        "{p}",
        "{p}",
    )
    .replace("harbor-no-fencing", "lantern-race");
    let parsed = lesson::parse(&json).expect("valid");
    let plan = lesson::plan(&parsed, leaselab::scenario::library::get).expect("plays");
    let e = lesson::check_live(&parsed, &plan, leaselab::scenario::library::get).expect_err("no pause");
    assert_eq!(e.path, "steps[0].live[0]", "{e}");
}

/// Every built-in lesson's live numbers start at the scenario's own settings, and at least three
/// steps in all hold them (issue 30).
#[test]
fn three_lesson_steps_compute_their_numbers() {
    let mut steps = 0;
    for entry in leaselab::scenario::library::lessons::MENU {
        let l = leaselab::scenario::library::lessons::get(entry.id).expect("listed").expect("valid");
        let plan = lesson::plan(&l, leaselab::scenario::library::get).expect("plays");
        let checked = lesson::check_live(&l, &plan, leaselab::scenario::library::get).expect("checks");
        for c in &checked {
            assert!(!c.figures.is_empty(), "{} step {}: no outcome number", entry.id, c.step);
        }
        steps += checked.len();
    }
    assert!(steps >= 3, "{steps} steps with live numbers");
}
