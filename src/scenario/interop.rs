//! A run exported for other tools, so a lesson can go on there (`leaselab export`):
//!
//! - [`shiviz`]: a ShiViz log. Every process (each node, the store `#store`, the fenced resource
//!   `#resource`) gets a vector clock; sending a message is an event of its sender, receiving it
//!   an event of its receiver that first takes the larger of each entry of both clocks, as
//!   Fidge and Mattern define them. The file's first line is the parsing regular expression
//!   ShiViz applies to it, the second the (empty) delimiter of several executions, as ShiViz's
//!   "upload a log" expects; then two lines per event: what happened, and `host {clock}`.
//! - [`history`]: a Jepsen-style history, one EDN map per line: every operation a node begins
//!   (`:acquire`, `:renew`, `:write`, `:release`) as an `:invoke` and then its completion, `:ok`
//!   or `:fail`, or `:info` when the node never learns the outcome (a message lost or still in
//!   flight when the run ends). A reply is matched to its request by the trace's `reply_to`.
//!   `:time` is in nanoseconds of virtual time, as Jepsen's is; a process runs one operation at a
//!   time, so a node with two operations in flight uses two process numbers, and a process whose
//!   operation ended in `:info` is not used again (Jepsen's rule for a crashed client).

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::{Endpoint, MessageKind, ReleaseOutcome, TraceEntry, TraceEvent, WireToken, WriteOutcome};

/// ShiViz's default parsing expression: an event line, then the host and its clock.
pub const SHIVIZ_REGEX: &str = r"(?<event>.*)\n(?<host>\S*) (?<clock>{.*})";

/// The ShiViz host of the store (`#` never appears in a node id).
pub const STORE_HOST: &str = "#store";
/// The ShiViz host of the fenced resource.
pub const RESOURCE_HOST: &str = "#resource";

fn endpoint_host(e: &Endpoint) -> Option<String> {
    match e {
        Endpoint::Node(id) => Some(id.clone()),
        Endpoint::Coordinator => Some(STORE_HOST.to_owned()),
        Endpoint::Resource => Some(RESOURCE_HOST.to_owned()),
        Endpoint::Outside => None,
    }
}

/// The process an event happens at; `None` for what no process does (the oracle's findings,
/// an ignored command, the run's end, a message lost on the way).
fn host(event: &TraceEvent) -> Option<String> {
    use TraceEvent as E;
    let store = || Some(STORE_HOST.to_owned());
    match event {
        E::MessageSent { from, .. } => endpoint_host(from),
        E::LeaseGranted { .. }
        | E::LeaseReacquired { .. }
        | E::AcquireRefused { .. }
        | E::AcquireDelayed { .. }
        | E::StoreFailedOver { .. }
        | E::LeaseRenewed { .. }
        | E::RenewRefused { .. }
        | E::LeaseExpired { .. }
        | E::LeaseRevoked { .. }
        | E::EpochBarrierRaised { .. }
        | E::IssuerRolledBack { .. }
        | E::LockReleased { .. } => store(),
        E::WriteJudged { .. } | E::ResourceRestored { .. } | E::ResourceRestarted { .. } | E::FencingSet { .. } => {
            Some(RESOURCE_HOST.to_owned())
        }
        E::ClockJumped { target, .. } | E::ClockRateSet { target, .. } => {
            if target == crate::engine::command::STORE {
                store()
            } else {
                Some(target.clone())
            }
        }
        E::NodeStarted { node }
        | E::BecameLeader { node, .. }
        | E::SteppedDown { node, .. }
        | E::WorkContinues { node, .. }
        | E::WorkStopped { node, .. }
        | E::WriteRetried { node, .. }
        | E::RecordObserved { node, .. }
        | E::WritePrepared { node, .. }
        | E::Paused { node }
        | E::Resumed { node }
        | E::Crashed { node }
        | E::Restarted { node }
        | E::Partitioned { node, .. }
        | E::PartitionedFrom { node, .. }
        | E::Healed { node }
        | E::WriteDelayArmed { node, .. }
        | E::MessageFaultArmed { node, .. }
        | E::ScriptDropped { node, .. }
        | E::ReplyIgnored { node, .. } => Some(node.clone()),
        E::MessageDropped { .. }
        | E::MessageDuplicated { .. }
        | E::MessageHeldBack { .. }
        | E::ViolationFound { .. }
        | E::CommandIgnored { .. }
        | E::RunEnded
        | E::TraceLimitReached { .. } => None,
    }
}

/// Vector clocks of every host, and the lines written so far.
#[derive(Default)]
struct ShiViz {
    clocks: BTreeMap<String, BTreeMap<String, u64>>,
    out: String,
}

impl ShiViz {
    /// An event at `host`, after merging `received` into its clock; returns its clock.
    fn event(&mut self, host: &str, what: &str, received: Option<&BTreeMap<String, u64>>) -> BTreeMap<String, u64> {
        let clock = self.clocks.entry(host.to_owned()).or_default();
        for (h, n) in received.into_iter().flatten() {
            let mine = clock.entry(h.clone()).or_default();
            *mine = (*mine).max(*n);
        }
        *clock.entry(host.to_owned()).or_default() += 1;
        let entries: Vec<String> = clock.iter().map(|(h, n)| format!("{}:{n}", edn_str(h))).collect();
        let json = format!("{{{}}}", entries.join(","));
        self.out.push_str(what);
        self.out.push('\n');
        self.out.push_str(host);
        self.out.push(' ');
        self.out.push_str(&json);
        self.out.push('\n');
        clock.clone()
    }
}

/// The ids of the messages the run lost.
fn dropped_ids(trace: &[TraceEntry]) -> BTreeSet<u64> {
    trace
        .iter()
        .filter_map(|e| match e.event {
            TraceEvent::MessageDropped { id, .. } => Some(id),
            _ => None,
        })
        .collect()
}

/// A message sent and not lost, waiting to be received.
struct InFlight {
    arrive_ms: u64,
    id: u64,
    to: String,
    kind: MessageKind,
}

/// The run's trace as a ShiViz log (see the module documentation).
pub fn shiviz(trace: &[TraceEntry]) -> String {
    let dropped = dropped_ids(trace);
    let mut log = ShiViz { out: format!("{SHIVIZ_REGEX}\n\n"), ..ShiViz::default() };
    let mut sent: BTreeMap<u64, BTreeMap<String, u64>> = BTreeMap::new();
    let mut flying: Vec<InFlight> = Vec::new();
    // Receives every message due by `upto_ms` (to `host` only, when given), earliest first.
    let receive = |log: &mut ShiViz,
                   flying: &mut Vec<InFlight>,
                   sent: &mut BTreeMap<u64, BTreeMap<String, u64>>,
                   upto_ms: u64,
                   host: Option<&str>| {
        let mut due: Vec<InFlight> = Vec::new();
        let mut i = 0;
        while i < flying.len() {
            if flying[i].arrive_ms <= upto_ms && host.is_none_or(|h| flying[i].to == h) {
                due.push(flying.remove(i));
            } else {
                i += 1;
            }
        }
        due.sort_by_key(|m| (m.arrive_ms, m.id));
        for m in due {
            let clock = sent.remove(&m.id);
            let what = format!("{} ms: received message {} ({})", m.arrive_ms, m.id, m.kind.code());
            log.event(&m.to, &what, clock.as_ref());
        }
    };
    for entry in trace {
        let t = entry.at_ms;
        // Everything due before this millisecond has arrived; of this millisecond's, what goes
        // to the process acting now.
        receive(&mut log, &mut flying, &mut sent, t.saturating_sub(1), None);
        let Some(h) = host(&entry.event) else { continue };
        receive(&mut log, &mut flying, &mut sent, t, Some(&h));
        let what = format!("{t} ms: {}", serde_json::to_string(&entry.event).unwrap_or_default());
        let clock = log.event(&h, &what, None);
        if let TraceEvent::MessageSent { id, kind, to, arrive_ms, .. } = &entry.event {
            if let (false, Some(to)) = (dropped.contains(id), endpoint_host(to)) {
                sent.insert(*id, clock);
                flying.push(InFlight { arrive_ms: *arrive_ms, id: *id, to, kind: *kind });
            }
        }
    }
    let end = trace.last().map_or(0, |e| e.at_ms);
    receive(&mut log, &mut flying, &mut sent, end, None);
    log.out
}

/// An operation a node began and has not seen end.
struct Open {
    process: u64,
    f: &'static str,
    node: String,
}

/// Jepsen-style process numbers: node `i` of `n` uses `i`, `i + n`, `i + 2n`, …; one operation
/// at a time each, and none again after an `:info`.
struct Processes {
    nodes: Vec<String>,
    busy: BTreeSet<u64>,
    retired: BTreeSet<u64>,
}

impl Processes {
    fn take(&mut self, node: &str) -> u64 {
        let n = self.nodes.len().max(1) as u64;
        let i = match self.nodes.iter().position(|x| x == node) {
            Some(i) => i as u64,
            None => {
                self.nodes.push(node.to_owned());
                (self.nodes.len() - 1) as u64
            }
        };
        let mut p = i;
        while self.busy.contains(&p) || self.retired.contains(&p) {
            p += n;
        }
        self.busy.insert(p);
        p
    }
}

fn edn_str(s: &str) -> String {
    // EDN strings escape like JSON's for the characters a trace can hold.
    serde_json::to_string(s).unwrap_or_default()
}

fn token_edn(t: &WireToken) -> String {
    match t.valid() {
        Some(n) => n.to_string(),
        None => edn_str(&t.label()),
    }
}

/// The run's trace as a Jepsen-style history (see the module documentation). `nodes` are the
/// run's node ids in order (they number the processes).
pub fn history(trace: &[TraceEntry], nodes: &[String]) -> String {
    let mut procs = Processes { nodes: nodes.to_vec(), busy: BTreeSet::new(), retired: BTreeSet::new() };
    let mut out = String::new();
    let mut line = |kind: &str, op: &Open, value: &str, at_ms: u64, extra: &str| {
        out.push_str(&format!(
            "{{:type :{kind}, :f :{}, :value {value}, :process {}, :time {}, :node {}{extra}}}\n",
            op.f,
            op.process,
            at_ms.saturating_mul(1_000_000),
            edn_str(&op.node),
        ));
    };
    let dropped = dropped_ids(trace);
    // Requests waiting for their reply (acquire, renew) or verdict (write), by message id.
    let mut open: BTreeMap<u64, Open> = BTreeMap::new();
    // Releases in flight per node, oldest first: the store's `lock_released` ends them.
    let mut releases: BTreeMap<String, Vec<(u64, Open)>> = BTreeMap::new();
    // The store's last verdict per node (`Some(token)` granted or renewed, `None` refused), read
    // by the reply it sends next.
    let mut verdict: BTreeMap<String, Option<u64>> = BTreeMap::new();
    // Completions due when a reply arrives: (arrive_ms, id, kind, op, value).
    let mut due: Vec<(u64, u64, &'static str, Open, String)> = Vec::new();
    // Completes the operations whose reply arrived by `upto` (only `node`'s, when given).
    let flush = |due: &mut Vec<(u64, u64, &'static str, Open, String)>,
                 upto: u64,
                 node: Option<&str>,
                 procs: &mut Processes,
                 line: &mut dyn FnMut(&str, &Open, &str, u64, &str)| {
        due.sort_by_key(|d| (d.0, d.1));
        let mut i = 0;
        while i < due.len() {
            if due[i].0 <= upto && node.is_none_or(|n| due[i].3.node == n) {
                let (at, _, kind, op, value) = due.remove(i);
                procs.busy.remove(&op.process);
                line(kind, &op, &value, at, "");
            } else {
                i += 1;
            }
        }
    };
    for entry in trace {
        let t = entry.at_ms;
        flush(&mut due, t.saturating_sub(1), None, &mut procs, &mut line);
        // A node that acts at the very millisecond a reply reaches it has read the reply first.
        if let TraceEvent::MessageSent { from: Endpoint::Node(node), .. } = &entry.event {
            flush(&mut due, t, Some(node), &mut procs, &mut line);
        }
        match &entry.event {
            TraceEvent::MessageSent { id, kind, from: Endpoint::Node(node), token, .. } => {
                let f = match kind {
                    MessageKind::AcquireRequest => "acquire",
                    MessageKind::RenewRequest => "renew",
                    MessageKind::Write => "write",
                    MessageKind::ReleaseRequest => "release",
                    _ => continue,
                };
                let op = Open { process: procs.take(node), f, node: node.clone() };
                let value = match (f, token) {
                    (_, Some(t)) => token_edn(t),
                    _ => "nil".to_owned(),
                };
                line("invoke", &op, &value, t, "");
                if f == "release" {
                    releases.entry(node.clone()).or_default().push((*id, op));
                } else {
                    open.insert(*id, op);
                }
            }
            TraceEvent::LeaseGranted { node, token, .. }
            | TraceEvent::LeaseReacquired { node, token, .. }
            | TraceEvent::LeaseRenewed { node, token, .. } => {
                verdict.insert(node.clone(), Some(*token));
            }
            TraceEvent::AcquireRefused { node, .. } | TraceEvent::RenewRefused { node, .. } => {
                verdict.insert(node.clone(), None);
            }
            TraceEvent::MessageSent { id, to: Endpoint::Node(node), arrive_ms, reply_to: Some(req), .. } => {
                if let Some(op) = open.remove(req) {
                    let (kind, value) = match verdict.get(node).copied().flatten() {
                        Some(token) => ("ok", token.to_string()),
                        None => ("fail", "nil".to_owned()),
                    };
                    if dropped.contains(id) {
                        // The node never hears: the outcome is unknown to it.
                        procs.retired.insert(op.process);
                        procs.busy.remove(&op.process);
                        line("info", &op, "nil", *arrive_ms, ", :error :reply-lost");
                    } else {
                        due.push((*arrive_ms, *id, kind, op, value));
                    }
                }
            }
            TraceEvent::WriteJudged { message: Some(m), outcome, token, .. } => {
                if let Some(op) = open.remove(m) {
                    procs.busy.remove(&op.process);
                    let value = token_edn(token);
                    match outcome {
                        WriteOutcome::Accepted => line("ok", &op, &value, t, ""),
                        other => line("fail", &op, &value, t, &format!(", :error :{}", other.code().replace('_', "-"))),
                    }
                }
            }
            TraceEvent::LockReleased { node, outcome, .. } => {
                if let Some((_, op)) = releases.get_mut(node).and_then(|q| (!q.is_empty()).then(|| q.remove(0))) {
                    procs.busy.remove(&op.process);
                    match outcome {
                        ReleaseOutcome::Released | ReleaseOutcome::DeletedOthers { .. } => {
                            line("ok", &op, "nil", t, "")
                        }
                        ReleaseOutcome::NotOwner { .. } => line("fail", &op, "nil", t, ", :error :not-owner"),
                        ReleaseOutcome::AlreadyFree => line("fail", &op, "nil", t, ", :error :already-free"),
                    }
                }
            }
            TraceEvent::MessageDropped { id, .. } => {
                // A lost request: its sender waits in vain.
                if let Some(op) = open.remove(id) {
                    procs.busy.remove(&op.process);
                    procs.retired.insert(op.process);
                    line("info", &op, "nil", t, ", :error :request-lost");
                }
                for q in releases.values_mut() {
                    if let Some(i) = q.iter().position(|(r, _)| r == id) {
                        let (_, op) = q.remove(i);
                        procs.busy.remove(&op.process);
                        procs.retired.insert(op.process);
                        line("info", &op, "nil", t, ", :error :request-lost");
                    }
                }
            }
            _ => {}
        }
    }
    let end = trace.last().map_or(0, |e| e.at_ms);
    flush(&mut due, end, None, &mut procs, &mut line);
    // What is still in flight when the run ends: the node does not know.
    let leftover: Vec<Open> = due
        .drain(..)
        .map(|d| d.3)
        .chain(open.into_values())
        .chain(releases.into_values().flatten().map(|(_, op)| op))
        .collect();
    for op in leftover {
        line("info", &op, "nil", end, ", :error :run-ended");
    }
    out
}
