//! Sweeps (`engine::sweep`): a knob turned through a range, each setting played with many
//! seeds. The counts agree with the report of each run, follow the seeds' story at the
//! extremes, and are the same every time.

mod common;

use leaselab::engine::sweep::{sweep, sweep_point, Knob, SweepSpec};
use leaselab::scenario::Report;

fn spec(knob: Knob, from: u64, to: u64, points: u32, seeds: u32) -> SweepSpec {
    SweepSpec { knob, from, to, points, seeds }
}

/// Seed 000: with the plaque checked, Old Chen's flag 7 is ignored however long he sleeps;
/// without it, a sleep that outlasts his lease (15 s) lets 7 be obeyed after 8, in every run.
/// A short nap, well inside the lease, breaks nothing either way.
#[test]
fn the_harbors_nap_breaks_safety_only_without_fencing_and_only_when_longer_than_the_lease() {
    let config = common::builtin("harbor-zombie").config;
    assert_eq!(config.lease.duration_ms, 15_000, "the seed's hourglass");
    let short = sweep_point(&config, Knob::PauseMs, 1_000, 20).expect("valid");
    assert_eq!((short.violating_fenced, short.violating_unfenced), (0, 0), "{short:?}");
    let long = sweep_point(&config, Knob::PauseMs, 40_000, 20).expect("valid");
    assert_eq!(long.violating_fenced, 0, "fencing holds: {long:?}");
    assert_eq!(long.violating_unfenced, 20, "every unfenced run obeys the old flag: {long:?}");
    assert!(long.examples[1].is_some_and(|e| !e.fencing));
    assert!(long.examples[0].is_none());
}

/// A longer lease keeps the same nap (40 s, the built-in's) from outliving it: no violation even
/// without fencing once the lease is longer than the nap; and nobody leads for longer when the
/// lease that has to run out first is longer.
#[test]
fn a_lease_longer_than_the_nap_avoids_the_violation_but_costs_leaderless_time() {
    let config = common::builtin("harbor-zombie").config;
    let short = sweep_point(&config, Knob::LeaseDurationMs, 15_000, 10).expect("valid");
    let long = sweep_point(&config, Knob::LeaseDurationMs, 60_000, 10).expect("valid");
    assert_eq!(short.violating_unfenced, 10, "{short:?}");
    assert_eq!(long.violating_unfenced, 0, "{long:?}");
    // With the long lease nobody takes over: the harbor waits out at least the whole nap (20 s
    // to 60 s) with its only leader frozen. With the seed's 15 s lease Lin leads within about
    // 15 s of Chen's last mark, well before he wakes.
    assert!(long.leaderless_mean_ms >= 40_000, "{long:?}");
    assert!(short.leaderless_mean_ms < 16_000, "{short:?}");
}

/// Every count is the reports': each seed's run, built the way the sweep builds it and played
/// by `Report::run` (what `leaselab run` prints), has violations exactly when the sweep counted it.
#[test]
fn a_points_counts_are_what_the_reports_say() {
    let scenario = common::builtin("harbor-zombie");
    let seeds = 12;
    for (knob, value) in [(Knob::PauseMs, 12_000), (Knob::NetworkDelayMs, 3_000), (Knob::ClockRatePpm, 700_000)] {
        let point = sweep_point(&scenario.config, knob, value, seeds).expect("valid");
        let mut fenced = 0;
        let mut unfenced = 0;
        for i in 0..u64::from(seeds) {
            for fencing in [true, false] {
                let mut s = scenario.clone();
                s.config = knob.apply(&scenario.config, value).expect("valid");
                s.config.seed = scenario.config.seed + i;
                s.config.resource.fencing = fencing;
                let report: Report = common::report(&s);
                let json = serde_json::to_value(&report).expect("a report");
                let violated = json["violations"].as_array().is_some_and(|v| !v.is_empty());
                match (violated, fencing) {
                    (true, true) => fenced += 1,
                    (true, false) => unfenced += 1,
                    _ => {}
                }
            }
        }
        assert_eq!((point.violating_fenced, point.violating_unfenced), (fenced, unfenced), "{} = {value}", knob.code());
    }
}

#[test]
fn the_same_sweep_gives_the_same_points() {
    let config = common::builtin("harbor-no-fencing").config;
    let s = spec(Knob::NetworkDelayMs, 50, 4_000, 5, 8);
    let a = sweep(&config, &s, |_| {}).expect("valid");
    let b = sweep(&config, &s, |_| {}).expect("valid");
    assert_eq!(serde_json::to_string(&a).ok(), serde_json::to_string(&b).ok());
    assert_eq!(a.iter().map(|p| p.value).collect::<Vec<_>>(), [50, 1_037, 2_025, 3_012, 4_000]);
}

#[test]
fn bad_sweeps_are_refused_with_what_and_where() {
    let parsed = SweepSpec::parse("lease_duration_ms=5000..60000/20", 50).expect("the issue's example");
    assert_eq!(parsed, spec(Knob::LeaseDurationMs, 5_000, 60_000, 20, 50));
    for (text, says) in [
        ("lease=1..2/3", "not a knob"),
        ("pause_ms=1..2", "FROM..TO/POINTS"),
        ("pause_ms=1-2/3", "FROM..TO"),
        ("pause_ms=a..2/3", "not a whole number"),
        ("pause_ms=5..2/3", "above"),
        ("pause_ms=1..2/1", "2 ..="),
    ] {
        let e = SweepSpec::parse(text, 50).expect_err(text);
        assert!(e.to_string().contains(says), "{text}: {e}");
    }
    // A knob the scenario has nothing to turn, and a setting the configuration refuses.
    let lantern = common::builtin("lantern-race").config;
    if !lantern.events.iter().any(|e| matches!(e.command, leaselab::engine::Command::Pause { .. })) {
        let e = Knob::PauseMs.apply(&lantern, 5_000).expect_err("no pause");
        assert!(e.path == "pause_ms=5000" && e.message.contains("pauses nobody"), "{e}");
    }
    let e = Knob::ClockRatePpm.apply(&common::builtin("harbor-zombie").config, 5).expect_err("too slow");
    assert!(e.path.starts_with("clock_rate_ppm=5"), "{e}");
}

/// An end the engine refuses is answered with the nearest setting it takes: the bounds the
/// configuration's rules state (a lease of at most 24 h; a clock between 0.1 and 10 times true
/// speed, `engine::clock`), reached from either side.
#[test]
fn a_refused_end_finds_the_nearest_setting_the_engine_takes() {
    let zombie = common::builtin("harbor-zombie").config;
    let day_ms = 24 * 60 * 60 * 1000;
    assert!(Knob::LeaseDurationMs.apply(&zombie, day_ms + 1).is_err());
    assert_eq!(Knob::LeaseDurationMs.nearest_accepted(&zombie, u64::MAX, 15_000), Some(day_ms));
    assert_eq!(Knob::ClockRatePpm.nearest_accepted(&zombie, 50_000_000, 1_000_000), Some(10_000_000));
    assert_eq!(Knob::ClockRatePpm.nearest_accepted(&zombie, 0, 1_000_000), Some(100_000));
    // A setting it refuses is no place to look from.
    assert_eq!(Knob::ClockRatePpm.nearest_accepted(&zombie, 0, 5), None);
}

/// A knob's setting as a person reads and types it: seconds for times, a multiple of true speed
/// for a clock rate; what is not a number is `None`, and a negative number is read as typed.
#[test]
fn knob_settings_read_as_they_are_shown() {
    use leaselab::scenario::live::{read, shown};
    assert_eq!(shown(Knob::LeaseDurationMs, 15_500), "15.5");
    assert_eq!(shown(Knob::ClockRatePpm, 500_000), "0.5");
    assert_eq!(shown(Knob::ClockRatePpm, 1_000_100), "1.0001");
    assert_eq!(shown(Knob::ClockRatePpm, 2_000_000), "2");
    assert_eq!(read(Knob::ClockRatePpm, " 0.5 "), Some(500_000.0));
    assert_eq!(read(Knob::PauseMs, "0.25"), Some(250.0));
    assert_eq!(read(Knob::PauseMs, "-5"), Some(-5_000.0));
    assert_eq!(read(Knob::NetworkDelayMs, ""), None);
    assert_eq!(read(Knob::NetworkDelayMs, "inf"), None);
}

/// `leaselab sweep` prints the same answer every time.
#[test]
fn the_command_line_sweeps_the_same_every_time() {
    let run = || {
        let args =
            ["sweep", "--builtin", "harbor-zombie", "--knob", "pause_ms=1000..40000/4", "--seeds", "5", "--compact"];
        common::runner(&args, "")
    };
    let (a, b) = (run(), run());
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout);
    let answer: serde_json::Value = serde_json::from_slice(&a.stdout).expect("JSON");
    assert_eq!(answer["format"], "leaselab.sweep/1");
    assert_eq!(answer["points"].as_array().map(Vec::len), Some(4));
    let bad = common::runner(&["sweep", "--builtin", "harbor-zombie", "--knob", "pause=1..2/3"], "");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a knob"), "{}", String::from_utf8_lossy(&bad.stderr));
}

/// The plot the page draws (`draw::plot`): a button for every point of its four curves, each
/// opening the class of run its counts say (a violating run where there is one), its numbers in
/// words in both languages, and the same markup for the same sweep.
#[test]
fn the_plot_has_a_button_per_point_that_opens_a_run_of_its_class() {
    use leaselab::draw::plot::{sweep_plot, CLASSES};
    use leaselab::vocab::Lang;
    let config = common::builtin("harbor-no-fencing").config;
    let spec = spec(Knob::PauseMs, 1_000, 40_000, 20, 4);
    let points = sweep(&config, &spec, |_| {}).expect("sweeps");
    let svg = sweep_plot(&spec, &points, Lang::En);
    assert_eq!(svg, sweep_plot(&spec, &points, Lang::En), "the same sweep, the same plot");
    assert_eq!(svg.matches("data-point=").count(), 4 * points.len(), "four curves of {} points", points.len());
    for (k, p) in points.iter().enumerate() {
        let fenced = if p.violating_fenced > 0 { CLASSES[0] } else { CLASSES[2] };
        let unfenced = if p.violating_unfenced > 0 { CLASSES[1] } else { CLASSES[3] };
        for (series, class) in [("s-fenced", fenced), ("s-unfenced", unfenced)] {
            let button = format!(
                "class=\"pt {series}\" tabindex=\"0\" role=\"button\" data-point=\"{k}\" data-class=\"{class}\""
            );
            assert!(svg.contains(&button), "point {k} of {series}: {button}");
        }
    }
    // A short nap breaks nothing; the longest lets every unfenced run through (seed 000).
    assert_eq!(points[0].violating_unfenced, 0);
    assert_eq!(points[19].violating_unfenced, 4);
    assert!(svg.contains("Pause length (s) = 40: 4 of 4 runs without fencing break safety"), "{svg}");
    // Where none broke, the point says so, and opens a safe run.
    assert!(svg.contains("Pause length (s) = 1: none of 4 runs without fencing breaks safety"), "{svg}");
    let zh = sweep_plot(&spec, &points, Lang::Zh);
    assert!(zh.contains("出现安全违规的运行") && zh.contains("暂停时长（秒） = 40："), "{zh}");
    // Progressive: with the first points only, the curves stop there.
    assert_eq!(sweep_plot(&spec, &points[..3], Lang::En).matches("data-point=").count(), 12);
}

/// A scenario file's `knobs` are the sweep's own rule: the file with `knobs` plays the run a
/// sweep plays at that setting; an unknown knob or one the scenario cannot turn names the field.
#[test]
fn a_scenario_files_knobs_turn_it_as_a_sweep_does() {
    use leaselab::scenario::{library, parse};
    let file = library::FILES.iter().find(|(id, _)| *id == "harbor-no-fencing").map(|(_, j)| *j).expect("built-in");
    let mut value: serde_json::Value = serde_json::from_str(file).expect("json");
    value["knobs"] = serde_json::json!({ "lease_duration_ms": 30_000, "pause_ms": 12_000 });
    value["seed"] = serde_json::json!(9);
    let turned = parse(&value.to_string()).expect("valid");
    let base = common::builtin("harbor-no-fencing").config;
    let mut expected =
        Knob::PauseMs.apply(&Knob::LeaseDurationMs.apply(&base, 30_000).expect("ok"), 12_000).expect("ok");
    expected.seed = 9;
    assert_eq!(turned.config, expected);
    for (knobs, path) in [
        (serde_json::json!({ "lease_ms": 1 }), "knobs.lease_ms"),
        (serde_json::json!({ "pause_ms": "long" }), "knobs.pause_ms"),
    ] {
        value["knobs"] = knobs;
        let e = parse(&value.to_string()).expect_err("refused");
        assert_eq!(e.path, path, "{e}");
    }
    // lantern-race has no scripted pause to lengthen.
    let race = library::FILES.iter().find(|(id, _)| *id == "lantern-race").map(|(_, j)| *j).expect("built-in");
    let mut race: serde_json::Value = serde_json::from_str(race).expect("json");
    race["knobs"] = serde_json::json!({ "pause_ms": 5_000 });
    let e = parse(&race.to_string()).expect_err("no pause");
    assert_eq!(e.path, "knobs.pause_ms", "{e}");
}
