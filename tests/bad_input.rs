//! Broken scenario files: each gets exit code 2 and a message naming the field; none panics.

mod common;

use std::process::{Command, Output, Stdio};

fn run_cli(json: &str) -> Output {
    common::runner(&["run", "-"], json)
}

const F: &str = r#""format": "leaselab.scenario/1""#;

#[test]
fn broken_files_name_the_field_and_exit_2() {
    let cases: Vec<(String, &str)> = vec![
        // Not JSON at all, or cut short.
        ("".into(), "one JSON object"),
        ("not json".into(), "one JSON object"),
        ("{ \"format\": ".into(), "line 1"),
        (format!("{{{F}, \"seed\": 3"), "line 1"),
        (format!("{{{F}}} trailing"), "line 1"),
        (format!("{{{F}}}{{{F}}}"), "line 1"),
        (format!("[{{{F}}}]"), "one JSON object"),
        ("\"leaselab.scenario/1\"".into(), "one JSON object"),
        // The format tag.
        ("{}".into(), "format"),
        (r#"{"format": "leaselab.scenario/2"}"#.into(), "format"),
        (r#"{"format": 1}"#.into(), "format"),
        // Wrong types.
        (format!("{{{F}, \"seed\": \"seven\"}}"), "seed"),
        (format!("{{{F}, \"until_ms\": -5}}"), "until_ms"),
        (format!("{{{F}, \"nodes\": {{\"id\": \"a\"}}}}"), "nodes"),
        (format!("{{{F}, \"resource\": {{\"fencing\": \"yes\"}}}}"), "resource.fencing"),
        (format!("{{{F}, \"resource\": {{\"equal_token\": \"maybe\"}}}}"), "resource.equal_token"),
        (format!("{{{F}, \"fable\": \"castle\"}}"), "fable"),
        // Unknown fields, at every depth.
        (format!("{{{F}, \"sed\": 3}}"), "sed"),
        (format!("{{{F}, \"lease\": {{\"duration\": 3000}}}}"), "lease"),
        (format!("{{{F}, \"nodes\": [{{\"id\": \"a\", \"role\": \"leader\"}}]}}"), "nodes[0]"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"pause\", \"node\": \"chen\", \"when\": 3}}]}}"), "events[0]"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"explode\"}}]}}"), "events[0].do"),
        // Impossible durations.
        (format!("{{{F}, \"lease\": {{\"duration_ms\": 0}}}}"), "lease.duration_ms"),
        (format!("{{{F}, \"lease\": {{\"duration_ms\": 10000, \"renew_deadline_ms\": 10000}}}}"), "lease.renew_deadline_ms"),
        (format!("{{{F}, \"lease\": {{\"retry_every_ms\": 0}}}}"), "lease.retry_every_ms"),
        (format!("{{{F}, \"work\": {{\"every_ms\": 0}}}}"), "work.every_ms"),
        (format!("{{{F}, \"network\": {{\"latency_ms\": {{\"min\": 90, \"max\": 10}}}}}}"), "network.latency_ms.min"),
        (format!("{{{F}, \"until_ms\": 0}}"), "until_ms"),
        (format!("{{{F}, \"until_ms\": 86400001}}"), "until_ms"),
        (format!("{{{F}, \"issuer\": {{\"first_token\": 0}}}}"), "issuer.first_token"),
        // Store profiles: an unknown store, and what etcd cannot do.
        (format!("{{{F}, \"store\": {{\"kind\": \"zookeeper\"}}}}"), "store.kind"),
        (format!("{{{F}, \"store\": {{\"type\": \"etcd\"}}}}"), "store"),
        (format!("{{{F}, \"store\": {{\"kind\": \"etcd\"}}, \"lease\": {{\"duration_ms\": 2500}}}}"), "lease.duration_ms"),
        (format!("{{{F}, \"store\": {{\"kind\": \"etcd\"}}, \"lease\": {{\"duration_ms\": 1000}}}}"), "lease.duration_ms"),
        (format!("{{{F}, \"store\": {{\"kind\": \"etcd\"}}, \"issuer\": {{\"first_token\": 7}}}}"), "issuer"),
        (format!("{{{F}, \"store\": {{\"kind\": \"etcd\"}}, \"lease\": {{\"expiry\": \"observer\"}}}}"), "lease.expiry"),
        // Nodes.
        (format!("{{{F}, \"nodes\": [{{\"id\": \"a\"}}, {{\"id\": \"a\"}}]}}"), "nodes[1].id"),
        (format!("{{{F}, \"nodes\": [{}]}}", (0..9).map(|i| format!("{{\"id\": \"n{i}\"}}")).collect::<Vec<_>>().join(",")), "nodes"),
        (format!("{{{F}, \"nodes\": [{{\"id\": \"\"}}]}}"), "nodes[0].id"),
        (format!("{{{F}, \"nodes\": [{{\"id\": \"<script>\"}}]}}"), "nodes[0].id"),
        // Events.
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"pause\", \"node\": \"ghost\"}}]}}"), "events[0].node"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"crash\"}}]}}"), "events[0].node"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"set_fencing\"}}]}}"), "events[0].on"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"revoke_lease\", \"node\": \"chen\"}}]}}"), "events[0].node"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"pause\", \"node\": \"chen\", \"for_ms\": 0}}]}}"), "events[0].for_ms"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"raw_write\", \"token\": 3}}]}}"), "events[0].value"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 90000000, \"do\": \"revoke_lease\"}}]}}"), "events[0].at_ms"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"rollback_issuer\"}}]}}"), "events[0].next_token"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"rollback_issuer\", \"next_token\": 0}}]}}"), "events[0].next_token"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"restart_resource\", \"high_water\": 3}}]}}"), "events[0].high_water"),
        (format!("{{{F}, \"resource\": {{\"persist_high_water\": 1}}}}"), "resource.persist_high_water"),
        (format!("{{{F}, \"resource\": {{\"token_check\": \"same\"}}}}"), "resource.token_check"),
        // The real protocols: protocol, lock, expiry, clocks, identities, barriers.
        (format!("{{{F}, \"protocol\": \"paxos\"}}"), "protocol"),
        (format!("{{{F}, \"lock\": {{\"release_check\": \"maybe\"}}}}"), "lock.release_check"),
        (format!("{{{F}, \"lock\": {{\"hold_ms\": 3000}}}}"), "lock.hold_ms"),
        (format!("{{{F}, \"protocol\": \"lock\", \"lock\": {{\"hold_ms\": 0}}}}"), "lock.hold_ms"),
        (format!("{{{F}, \"lock\": {{\"name\": \"\"}}}}"), "lock.name"),
        (format!("{{{F}, \"lease\": {{\"expiry\": \"whenever\"}}}}"), "lease.expiry"),
        (format!("{{{F}, \"protocol\": \"lock\", \"store\": {{\"kind\": \"etcd\"}}, \"lease\": {{\"expiry\": \"observer\"}}}}"), "lease.expiry"),
        // client-go: renewDeadline must exceed 1.2 × retryPeriod (10 000 ms ≤ 1.2 × 9 000 ms).
        (format!("{{{F}, \"lease\": {{\"expiry\": \"observer\", \"retry_every_ms\": 9000}}}}"), "lease.renew_deadline_ms"),
        (format!("{{{F}, \"store_clock\": {{\"rate\": 0}}}}"), "store_clock.rate"),
        (format!("{{{F}, \"store_clock\": {{\"rate\": 11}}}}"), "store_clock.rate"),
        (format!("{{{F}, \"store_clock\": {{\"offset_ms\": 90000000}}}}"), "store_clock.offset_ms"),
        (format!("{{{F}, \"nodes\": [{{\"id\": \"a\", \"clock\": {{\"rate\": -1}}}}]}}"), "nodes[0].clock.rate"),
        (format!("{{{F}, \"nodes\": [{{\"id\": \"a\", \"clock\": {{\"speed\": 2}}}}]}}"), "nodes[0].clock"),
        (format!("{{{F}, \"nodes\": [{{\"id\": \"store\"}}]}}"), "nodes[0].id"),
        (format!("{{{F}, \"nodes\": [{{\"id\": \"a\", \"identity\": \"\"}}]}}"), "nodes[0].identity"),
        (format!("{{{F}, \"resource\": {{\"epoch_barrier\": true, \"equal_token\": \"reject\"}}}}"), "resource.epoch_barrier"),
        (format!("{{{F}, \"resource\": {{\"token_scope\": \"everywhere\"}}}}"), "resource.token_scope"),
        (format!("{{{F}, \"work\": {{\"stops_with_lease\": \"no\"}}}}"), "work.stops_with_lease"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"clock_jump\", \"target\": \"store\"}}]}}"), "events[0].by_ms"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"clock_jump\", \"target\": \"store\", \"by_ms\": 0}}]}}"), "events[0].by_ms"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"clock_jump\", \"target\": \"moon\", \"by_ms\": 5}}]}}"), "events[0].target"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"clock_rate\", \"rate\": 2}}]}}"), "events[0].target"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"clock_rate\", \"node\": \"chen\", \"target\": \"store\", \"rate\": 2}}]}}"), "events[0].target"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"clock_rate\", \"node\": \"chen\", \"rate\": 0.01}}]}}"), "events[0].rate"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"delay_next_write\", \"node\": \"chen\", \"by_ms\": -5}}]}}"), "events[0].by_ms"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"pause\", \"node\": \"chen\", \"rate\": 2}}]}}"), "events[0].rate"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"raw_write\", \"value\": \"v\", \"lock\": \"\"}}]}}"), "events[0].lock"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"partition\", \"node\": \"chen\", \"from\": \"moon\"}}]}}"), "events[0].from"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"heal\", \"node\": \"chen\", \"from\": \"all\"}}]}}"), "events[0].from"),
        // Huge numbers.
        (format!("{{{F}, \"seed\": 18446744073709551616}}"), "seed: is too large (at most 18446744073709551615)"),
        (format!("{{{F}, \"until_ms\": 1e30}}"), "until_ms"),
        (format!("{{{F}, \"lease\": {{\"duration_ms\": 99999999999999999999999}}}}"), "lease.duration_ms"),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"delay_next_write\", \"node\": \"chen\", \"by_ms\": 100000000000}}]}}"), "events[0].by_ms"),
    ];
    for (json, field) in cases {
        let out = run_cli(&json);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{json}\nstderr: {stderr}");
        assert!(stderr.contains(field), "message for {json} should name `{field}`, got: {stderr}");
        assert!(!stderr.contains("panicked"), "{json} panicked: {stderr}");
        assert!(out.stdout.is_empty(), "no report for a broken file");
    }
}

/// A field given twice in one object is refused, naming it (issue 13): serde_json alone would
/// keep the last value silently (`"fencing": true, "fencing": false` would run unfenced).
#[test]
fn a_field_given_twice_is_refused_naming_it() {
    let cases: Vec<(String, &str)> = vec![
        (format!("{{{F}, \"until_ms\": 1000, \"until_ms\": 2000}}"), "until_ms"),
        (format!("{{{F}, \"resource\": {{\"fencing\": true, \"fencing\": false}}}}"), "resource.fencing"),
        (format!("{{{F}, {F}}}"), "format"),
        (format!("{{{F}, \"nodes\": [{{\"id\": \"a\"}}, {{\"id\": \"b\", \"id\": \"c\"}}]}}"), "nodes[1].id"),
        (
            format!(
                "{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"pause\", \"node\": \"chen\", \"node\": \"lin\"}}]}}"
            ),
            "events[0].node",
        ),
        (
            format!("{{{F}, \"network\": {{\"latency_ms\": {{\"min\": 1, \"max\": 9, \"min\": 5}}}}}}"),
            "network.latency_ms.min",
        ),
        // The same name written with an escape is the same field.
        (format!("{{{F}, \"seed\": 1, \"se\\u0065d\": 2}}"), "se\\u0065d"),
    ];
    for (json, field) in cases {
        for command in ["run", "trace"] {
            let out = common::runner(&[command, "-"], &json);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{command} {json}\nstderr: {stderr}");
            let says = format!(
                "leaselab: -: invalid scenario at {field}: is given twice in the same object; give each field once (line 1, column "
            );
            assert!(stderr.starts_with(&says), "{command} {json}: should start with {says:?}, got: {stderr}");
            assert!(out.stdout.is_empty(), "no output for a broken file");
        }
    }
    // The same name in different objects is no repetition.
    let out = run_cli(&format!(
        "{{{F}, \"nodes\": [{{\"id\": \"a\"}}, {{\"id\": \"b\"}}], \"events\": [{{\"at_ms\": 1, \"do\": \"pause\", \"node\": \"a\"}}, {{\"at_ms\": 2, \"do\": \"resume\", \"node\": \"a\"}}]}}"
    ));
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_byte_order_mark_is_not_an_error() {
    let out = run_cli("\u{feff}{\"format\": \"leaselab.scenario/1\"}");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_closed_pipe_is_not_a_panic() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(["run", "--builtin", "harbor-zombie"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the runner starts");
    // Close our end of stdout at once, as `| head -0` would.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("the runner finishes");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(out.status.code(), Some(101));
}

#[test]
fn a_missing_file_exits_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_leaselab")).args(["run", "/nonexistent/x.json"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/x.json"));
}

#[test]
fn a_minimal_file_runs_and_prints_a_report() {
    let out = run_cli(r#"{"format": "leaselab.scenario/1"}"#);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["format"], "leaselab.report/1");
    assert_eq!(report["grants"][0]["token"], 1);
    assert_eq!(report["trace_hash"].as_str().map(str::len), Some(16));
}

#[test]
fn the_same_file_gives_the_same_report_twice() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/scenarios/harbor-zombie.json");
    let run = || Command::new(env!("CARGO_BIN_EXE_leaselab")).args(["run", file]).output().expect("runs").stdout;
    let (a, b) = (run(), run());
    assert!(!a.is_empty());
    assert_eq!(a, b);
}

/// A number of the wrong kind is named for what it is, without claiming a range the field does
/// not have (walkthrough of issue 13: `until_ms: -5` said "from 0 to 18446744073709551615"); the
/// field's own range comes from the engine's check; an event naming a node in a run without any
/// says the run has none.
#[test]
fn wrong_numbers_and_missing_nodes_are_named_for_what_they_are() {
    let said = |json: String| leaselab::scenario::parse(&json).expect_err("invalid").to_string();
    assert!(said(format!("{{{F}, \"until_ms\": -5}}")).contains("until_ms: must be 0 or more"));
    assert!(said(format!("{{{F}, \"until_ms\": 0}}")).contains("until_ms: must be between 1 and 86400000"));
    let text = said(format!("{{{F}, \"lease\": {{\"duration_ms\": \"fifteen\"}}}}"));
    assert!(text.contains("lease.duration_ms: must be a whole number of 0 or more"), "{text}");
    let text =
        said(format!("{{{F}, \"nodes\": [], \"events\": [{{\"at_ms\": 1, \"do\": \"pause\", \"node\": \"chen\"}}]}}"));
    assert!(text.contains("events[0].node: unknown node \"chen\"; `nodes` lists none"), "{text}");
}

/// A word the file format does not know, where one of a few is expected, is refused with the
/// words there are: the choice's own names (`EqualTokenPolicy`'s, the same words the report
/// writes), read by name rather than by a position in a list kept beside it.
#[test]
fn an_unknown_word_is_refused_with_the_words_there_are() {
    for (file, words) in [
        (format!("{{{F}, \"resource\": {{\"equal_token\": \"maybe\"}}}}"), &["accept", "reject", "dedupe"][..]),
        (format!("{{{F}, \"lease\": {{\"renew_policy\": \"pray\"}}}}"), &["give_up", "retry"][..]),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"explode\"}}]}}"), &["pause", "revoke_lease", "store_failover"][..]),
        (format!("{{{F}, \"events\": [{{\"at_ms\": 1, \"do\": \"partition\", \"node\": \"chen\", \"from\": \"moon\"}}]}}"), &["coordinator_replies"][..]),
    ] {
        let out = run_cli(&file);
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = String::from_utf8_lossy(&out.stderr);
        for w in words {
            assert!(err.contains(w), "{file}: the error should name `{w}`: {err}");
        }
    }
}
