//! The exports for other tools (`leaselab export`): a ShiViz log whose vector clocks follow
//! Fidge/Mattern and ShiViz's file layout, and a Jepsen-style history whose operations match
//! what the engine did, for every built-in.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{builtin, report, run};
use leaselab::engine::{Endpoint, TraceEvent, WriteOutcome};
use leaselab::scenario::interop::{history, shiviz, SHIVIZ_REGEX, STORE_HOST};

type Clock = BTreeMap<String, u64>;

/// `(event line, host, clock)` of every event of a ShiViz log, after checking its two header
/// lines (the parsing expression, then an empty delimiter line).
fn shiviz_events(log: &str) -> Vec<(String, String, Clock)> {
    let mut lines = log.lines();
    assert_eq!(lines.next(), Some(SHIVIZ_REGEX));
    assert_eq!(lines.next(), Some(""), "no delimiter: one execution");
    let rest: Vec<&str> = lines.collect();
    assert_eq!(rest.len() % 2, 0, "two lines per event");
    rest.chunks(2)
        .map(|pair| {
            let (host, clock) = pair[1].split_once(' ').expect("host {clock}");
            assert!(!host.is_empty() && !host.contains(char::is_whitespace));
            (pair[0].to_owned(), host.to_owned(), serde_json::from_str(clock).expect("the clock is JSON"))
        })
        .collect()
}

#[test]
fn every_run_exports_a_shiviz_log_with_sound_vector_clocks() {
    for id in leaselab::scenario::library::ids() {
        let sim = run(&builtin(id));
        let events = shiviz_events(&shiviz(sim.trace()));
        let mut own: BTreeMap<String, u64> = BTreeMap::new();
        let mut last: BTreeMap<String, Clock> = BTreeMap::new();
        let mut send_clock: BTreeMap<u64, Clock> = BTreeMap::new();
        let mut received: BTreeSet<u64> = BTreeSet::new();
        for (what, host, clock) in &events {
            // ShiViz: a host's own entry starts at 1 and grows by one per event of that host; and
            // no entry of a host's clock ever goes back.
            let n = own.entry(host.clone()).or_default();
            *n += 1;
            assert_eq!(clock.get(host), Some(&*n), "{id}: {host} {what}");
            if let Some(prev) = last.get(host) {
                assert!(prev.iter().all(|(h, v)| clock.get(h).is_some_and(|c| c >= v)), "{id}: {host} went back");
            }
            last.insert(host.clone(), clock.clone());
            if let Some(rest) = what.split_once(" ms: ").map(|(_, r)| r) {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(rest) {
                    if v["type"] == "message_sent" {
                        send_clock.insert(v["id"].as_u64().expect("an id"), clock.clone());
                    }
                }
                if let Some(m) = rest.strip_prefix("received message ") {
                    let m: u64 = m.split(' ').next().and_then(|n| n.parse().ok()).expect("a message id");
                    assert!(received.insert(m), "{id}: message {m} received twice");
                    let sent = send_clock.get(&m).expect("sent before it is received");
                    assert!(sent.iter().all(|(h, v)| clock.get(h).is_some_and(|c| c >= v)), "{id}: {m} lost causality");
                }
            }
        }
        // Every message that was not lost and arrived by the end is received, at its addressee.
        let end = sim.trace().last().map_or(0, |e| e.at_ms);
        let dropped: BTreeSet<u64> = sim
            .trace()
            .iter()
            .filter_map(|e| match e.event {
                TraceEvent::MessageDropped { id, .. } => Some(id),
                _ => None,
            })
            .collect();
        for e in sim.trace() {
            if let TraceEvent::MessageSent { id: m, to, arrive_ms, .. } = &e.event {
                let expected = !dropped.contains(m) && *arrive_ms <= end && *to != Endpoint::Outside;
                assert_eq!(received.contains(m), expected, "{id}: message {m}");
            }
        }
        assert!(events.iter().any(|(_, h, _)| h == STORE_HOST) || builtin(id).config.nodes.is_empty(), "{id}");
    }
}

/// One line of the history: `(type, f, value, process, node)`.
fn ops(history: &str) -> Vec<(String, String, String, u64, String)> {
    history
        .lines()
        .map(|l| {
            let field = |key: &str| {
                let rest = l.split_once(&format!(":{key} ")).unwrap_or_else(|| panic!("{key} in {l}")).1;
                rest.split([',', '}']).next().unwrap_or_default().trim().to_owned()
            };
            (
                field("type"),
                field("f"),
                field("value"),
                field("process").parse().expect("a process number"),
                field("node").trim_matches('"').to_owned(),
            )
        })
        .collect()
}

#[test]
fn every_run_exports_a_history_that_matches_what_happened() {
    for id in leaselab::scenario::library::ids() {
        let s = builtin(id);
        let nodes: Vec<String> = s.config.nodes.iter().map(|n| n.id.clone()).collect();
        let sim = run(&s);
        let h = ops(&history(sim.trace(), &nodes));
        // Jepsen's rules: a process does one operation at a time, and none after an `:info`.
        let mut open: BTreeMap<u64, String> = BTreeMap::new();
        let mut crashed: BTreeSet<u64> = BTreeSet::new();
        for (kind, f, _, p, _) in &h {
            assert!(!crashed.contains(p), "{id}: process {p} reused after :info");
            match kind.as_str() {
                ":invoke" => assert!(open.insert(*p, f.clone()).is_none(), "{id}: process {p} invoked twice"),
                done => {
                    assert_eq!(open.remove(p).as_deref(), Some(f.as_str()), "{id}: {done} {f} without its invoke");
                    if done == ":info" {
                        crashed.insert(*p);
                    }
                }
            }
        }
        assert!(open.is_empty(), "{id}: every operation ends");
        // Acquires that came back :ok carry the tokens the store granted that node.
        let r = report(&s);
        for (_, _, value, _, node) in h.iter().filter(|(k, f, ..)| k == ":ok" && f == ":acquire") {
            let token: u64 = value.parse().expect("a token");
            assert!(
                r.grants.iter().any(|g| g.node == *node && g.token == token)
                    || sim.trace().iter().any(|e| matches!(&e.event, TraceEvent::LeaseReacquired { node: n, token: t, .. } if n == node && *t == token)),
                "{id}: {node} got {token}"
            );
        }
        // Every write a node's message carried and the resource accepted is an :ok write.
        let accepted = r.writes.iter().filter(|w| w.from.is_some() && w.outcome == WriteOutcome::Accepted).count();
        let ok_writes = h.iter().filter(|(k, f, ..)| k == ":ok" && f == ":write").count();
        assert_eq!(ok_writes, accepted, "{id}");
    }
}

/// The stray DEL on etcd, as a history: after A's release deleted Smith Wang's key, every renewal
/// of his comes back :ok, while Auntie Zhou's acquire succeeds too.
#[test]
fn the_history_shows_the_renewals_that_never_learn() {
    let s = builtin("lock-late-del-etcd");
    let nodes: Vec<String> = s.config.nodes.iter().map(|n| n.id.clone()).collect();
    let h = ops(&history(run(&s).trace(), &nodes));
    let c_ok = h.iter().position(|(k, f, _, _, n)| k == ":ok" && f == ":acquire" && n == "c").expect("C acquires");
    let b_renewals: Vec<&String> =
        h[c_ok..].iter().filter(|(k, f, _, _, n)| f == ":renew" && n == "b" && k != ":invoke").map(|x| &x.0).collect();
    assert!(b_renewals.len() >= 3 && b_renewals.iter().all(|k| *k == ":ok"), "{b_renewals:?}");
}
