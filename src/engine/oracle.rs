//! The oracle: a safety checker that looks at every judged write.
//!
//! It knows what no single actor knows: the newest token the coordinator granted, the largest
//! token the resource ever accepted (even if the resource has since forgotten it), and every
//! operation that already took effect. So it can say when the resource obeyed a deposed leader,
//! went backwards, or applied a retried write twice. With fencing on and no fault, a stale write
//! can only pass while the resource has not yet seen the newer term (seed `002`: issuance informs
//! no one by itself); with fencing off it is the collision the harbor fable warns about.

use super::resource::Judgement;
use super::token::WireToken;
use super::trace::{Violation, WriteOutcome};

/// What the oracle remembers across writes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Oracle {
    /// The largest valid token the resource ever accepted.
    highest_accepted: u64,
    /// Every op id that took effect.
    applied: super::queue::Names,
}

impl Oracle {
    /// The violations this judged write caused, in a fixed order: stale, regression (or
    /// invalid, or foreign), then duplicate. `foreign_lock` names the lock that issued the token
    /// when it is not the one guarding the resource.
    pub fn check_write(
        &mut self,
        judgement: &Judgement,
        token: &WireToken,
        newest_granted: Option<u64>,
        op_id: &str,
        from: Option<&str>,
        foreign_lock: Option<&str>,
    ) -> Vec<Violation> {
        if judgement.outcome != WriteOutcome::Accepted {
            return Vec::new();
        }
        let from = from.map(str::to_owned);
        let mut found = Vec::new();
        match (token.valid(), foreign_lock) {
            // Another lock's token says nothing about this lock's terms: accepting it at all is
            // the violation (C23).
            (Some(t), Some(lock)) => found.push(Violation::ForeignTokenAccepted {
                op_id: op_id.to_owned(),
                from: from.clone(),
                token: t,
                lock: lock.to_owned(),
            }),
            (None, _) => found.push(Violation::InvalidTokenAccepted {
                op_id: op_id.to_owned(),
                from: from.clone(),
                token: token.clone(),
            }),
            (Some(t), None) => {
                if let Some(newest) = newest_granted.filter(|newest| t < *newest) {
                    found.push(Violation::StaleWriteAccepted {
                        op_id: op_id.to_owned(),
                        from: from.clone(),
                        token: t,
                        newest_granted: newest,
                        resource_had_seen_newer: judgement.high_water_before > t,
                        resource_forgot_newer: judgement.high_water_before <= t && self.highest_accepted > t,
                    });
                }
                if t < self.highest_accepted {
                    found.push(Violation::TokenRegression {
                        op_id: op_id.to_owned(),
                        from: from.clone(),
                        token: t,
                        highest_before: self.highest_accepted,
                    });
                }
                self.highest_accepted = self.highest_accepted.max(t);
            }
        }
        if !self.applied.insert(op_id) {
            found.push(Violation::DuplicateSideEffect { op_id: op_id.to_owned(), from });
        }
        found
    }
}

/// A stretch of time with no leader at work: no running node believes it leads (a frozen
/// believer does no work). Measured from the first leadership on, so the first election is not
/// counted. The liveness cost of a lease (seed `001`: after a crash the system waits up to one
/// TTL before recovering; a longer TTL, a longer wait).
///
/// No leader is not the same as nobody acting: a node that stepped down but whose work goes on
/// (`work.stops_with_lease: false`, kubernetes/kubernetes#82960) may still be writing with its old
/// token. Such a gap names those nodes in `stale_work` and counts the writes the resource accepted
/// meanwhile: the dangerous kind of gap, where old work lands with nobody leading.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct LeaderGap {
    pub from_ms: u64,
    /// When a running node next believed it led, or the end of the run (`open`).
    pub to_ms: u64,
    pub length_ms: u64,
    /// True when the run ended before anyone led again.
    pub open: bool,
    /// Nodes that no longer believed they led but kept working (not frozen) during the gap, in
    /// the order they were first seen at it; left out of the report when none did.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stale_work: Vec<String>,
    /// Writes the resource accepted during the gap (from such nodes, or from outside); left out
    /// of the report when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub writes_accepted: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What a gap still open has seen so far.
#[derive(Default)]
struct OpenGap {
    from_ms: u64,
    stale_work: Vec<String>,
    writes_accepted: u64,
}

impl OpenGap {
    fn close(self, to_ms: u64, open: bool) -> LeaderGap {
        LeaderGap {
            from_ms: self.from_ms,
            to_ms,
            length_ms: to_ms - self.from_ms,
            open,
            stale_work: self.stale_work,
            writes_accepted: self.writes_accepted,
        }
    }
}

/// A stretch of time in which two or more nodes believed they led at once (a frozen believer
/// included: it will act on waking). Not a violation by itself: with fencing, the older
/// believer's writes are refused (seed `000`: Old Chen waking up).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct DualBelief {
    pub from_ms: u64,
    pub to_ms: u64,
    pub length_ms: u64,
    /// Every node that believed it led at some moment of the stretch, in the order they began.
    pub nodes: Vec<String>,
    /// True when the run ended while it lasted.
    pub open: bool,
}

/// The leader gaps and dual beliefs of a trace, in time order. A pure function of the trace, so
/// the report, the UI and the tests all see the same intervals.
pub fn intervals(trace: &[super::TraceEntry]) -> (Vec<LeaderGap>, Vec<DualBelief>) {
    use super::TraceEvent as E;
    let mut gaps = Vec::new();
    let mut duals: Vec<DualBelief> = Vec::new();
    let mut believers: Vec<String> = Vec::new();
    let mut frozen = super::queue::Names::default();
    // Nodes whose work outlived their leadership (`WorkContinues`), until they lead again, crash or
    // finish a bounded shutdown (`WorkStopped`).
    let mut zombies = super::queue::Names::default();
    let mut ever_led = false;
    let mut gap: Option<OpenGap> = None;
    let mut dual: Option<DualBelief> = None;
    let mut end = 0;
    for (i, entry) in trace.iter().enumerate() {
        let t = entry.at_ms;
        end = t;
        match &entry.event {
            E::BecameLeader { node, .. } => {
                ever_led = true;
                zombies.remove(node);
                if !believers.contains(node) {
                    believers.push(node.clone());
                }
            }
            E::SteppedDown { node, .. } => believers.retain(|b| b != node),
            E::WorkContinues { node, .. } => {
                zombies.insert(node);
            }
            E::WorkStopped { node, .. } => {
                zombies.remove(node);
            }
            E::WriteJudged { outcome: super::WriteOutcome::Accepted, .. } => {
                if let Some(g) = gap.as_mut() {
                    g.writes_accepted += 1;
                }
            }
            E::Crashed { node } => {
                believers.retain(|b| b != node);
                frozen.remove(node);
                zombies.remove(node);
            }
            E::Paused { node } => {
                frozen.insert(node);
            }
            E::Resumed { node } => {
                frozen.remove(node);
            }
            _ => {}
        }
        // Judge the state once per millisecond, after all of that millisecond's events: a belief
        // gained and lost within the same millisecond is no leader at work.
        if trace.get(i + 1).is_some_and(|next| next.at_ms == t) {
            continue;
        }
        let at_work = believers.iter().any(|b| !frozen.contains(b));
        match (gap.take(), at_work) {
            (None, false) if ever_led => gap = Some(OpenGap { from_ms: t, ..OpenGap::default() }),
            (Some(g), true) => gaps.push(g.close(t, false)),
            (g, _) => gap = g,
        }
        if let Some(g) = gap.as_mut() {
            for z in zombies.iter().filter(|z| !frozen.contains(z)) {
                if !g.stale_work.contains(z) {
                    g.stale_work.push(z.clone());
                }
            }
        }
        match (&mut dual, believers.len() >= 2) {
            (None, true) => {
                dual = Some(DualBelief { from_ms: t, to_ms: t, length_ms: 0, nodes: believers.clone(), open: false })
            }
            (Some(d), true) => {
                for b in &believers {
                    if !d.nodes.contains(b) {
                        d.nodes.push(b.clone());
                    }
                }
            }
            (Some(_), false) => {
                if let Some(mut d) = dual.take() {
                    d.to_ms = t;
                    d.length_ms = t - d.from_ms;
                    duals.push(d);
                }
            }
            (None, false) => {}
        }
    }
    if let Some(g) = gap {
        gaps.push(g.close(end, true));
    }
    if let Some(mut d) = dual {
        d.to_ms = end;
        d.length_ms = end - d.from_ms;
        d.open = true;
        duals.push(d);
    }
    (gaps, duals)
}
