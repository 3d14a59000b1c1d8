//! The run report (`leaselab.report/1`): what the runner prints and tests assert on.

use serde::Serialize;
use serde_json::Value;

use super::Scenario;
use crate::engine::oracle::{intervals, DualBelief, LeaderGap};
use crate::engine::{Blocked, ReleaseOutcome, Sim, TraceEvent, Violation, WireToken, WriteOutcome};

/// The format tag of every report.
pub const REPORT_FORMAT: &str = "leaselab.report/1";

/// A run's outcome.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub format: &'static str,
    pub scenario: String,
    pub seed: u64,
    /// Virtual time the run reached, in ms.
    pub until_ms: u64,
    /// Each new term the coordinator granted.
    pub grants: Vec<Grant>,
    /// Every write that reached the resource, in arrival order.
    pub writes: Vec<Write>,
    /// Lock protocol: every release the store handled, in order (empty under the lease protocol).
    pub releases: Vec<Release>,
    #[serde(rename = "final")]
    pub final_state: Final,
    pub violations: Vec<ViolationRecord>,
    /// Stretches with no leader at work (no running node believed it led).
    pub leader_gaps: Vec<LeaderGap>,
    /// Stretches in which two or more nodes believed they led (not violations by themselves).
    pub dual_beliefs: Vec<DualBelief>,
    /// Number of trace entries.
    pub trace_len: usize,
    /// FNV-1a hash of the whole trace: equal hashes mean identical runs.
    pub trace_hash: String,
}

/// A grant of a new term.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Grant {
    pub at_ms: u64,
    pub node: String,
    pub token: u64,
    pub lease_transitions: u32,
}

/// A write as the resource judged it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Write {
    /// The sending node, or `null` for a raw write from outside.
    pub from: Option<String>,
    /// The token exactly as sent; the field is absent when the write carried none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<Value>,
    pub value: String,
    pub op_id: String,
    pub sent_ms: u64,
    pub arrived_ms: u64,
    pub outcome: WriteOutcome,
    pub high_water_after: u64,
    /// The lock that issued the token, when it is not the one guarding the resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lock: Option<String>,
    /// Present when the refusal shut out the lock's rightful term (a liveness failure, not a
    /// violation): `{"kind": "issuer_behind"}` or `{"kind": "foreign_mark", "lock": …}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked: Option<Blocked>,
    /// The resource that judged it (a name in `resources`); absent for the one unnamed resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
}

/// A lock release as the store handled it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Release {
    pub at_ms: u64,
    pub node: String,
    /// The token of the term the releaser believed it held.
    pub token: u64,
    /// `released` | `not_owner` | `deleted_others` | `already_free`, with the holder involved.
    pub outcome: ReleaseOutcome,
}

/// The world when the run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Final {
    /// `holderIdentity` (still set after expiry until someone else takes the lease).
    pub holder: Option<String>,
    pub token: Option<u64>,
    pub lease_transitions: u32,
    /// The first (or only) resource's high-water mark and value.
    pub high_water: u64,
    pub value: Option<String>,
    /// With named resources (`resources`): every resource's name, mark and value, in order;
    /// absent for the one unnamed resource.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<FinalResource>,
    pub nodes: Vec<FinalNode>,
}

/// A named resource when the run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FinalResource {
    pub name: String,
    pub high_water: u64,
    pub value: Option<String>,
}

/// A node when the run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FinalNode {
    pub id: String,
    /// `leader` | `candidate` | `paused` | `crashed`.
    pub role: &'static str,
}

/// A violation with the time it was found and what it involves, so a view can point at them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ViolationRecord {
    pub at_ms: u64,
    #[serde(flatten)]
    pub violation: Violation,
    /// Index in `writes` of the write that caused it; `null` for a violation no write caused
    /// (`lock_deleted_by_non_owner`: see `release`).
    pub write: Option<usize>,
    /// Index in `releases` of the release that caused it, if a release did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release: Option<usize>,
    /// Indices in `writes` of earlier writes involved: for `duplicate_side_effect`, the first
    /// application of the same op id; for `token_regression`, the write that set the higher mark.
    pub earlier_writes: Vec<usize>,
    /// Indices in `grants` of the terms involved: the write's own token and the newer one.
    pub grants: Vec<usize>,
    /// The resource whose write it concerns, in a run with named resources (`resources`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
}

pub(crate) fn token_json(token: &WireToken) -> Option<Value> {
    match token {
        WireToken::Number(n) => Some(Value::from(*n)),
        WireToken::Missing => None,
        WireToken::Malformed(raw) => Some(super::json_value(raw).unwrap_or_else(|_| Value::String(raw.clone()))),
    }
}

impl Report {
    /// The report of `sim` as it stands (run it to the end first for a full report).
    pub fn new(scenario: &Scenario, sim: &Sim) -> Self {
        let mut grants = Vec::new();
        let mut writes = Vec::new();
        let mut violations = Vec::new();
        let mut releases = Vec::new();
        for entry in sim.trace() {
            match &entry.event {
                TraceEvent::LeaseGranted { node, token, lease_transitions, .. } => grants.push(Grant {
                    at_ms: entry.at_ms,
                    node: node.clone(),
                    token: *token,
                    lease_transitions: *lease_transitions,
                }),
                TraceEvent::WriteJudged {
                    op_id,
                    from,
                    token,
                    value,
                    sent_ms,
                    outcome,
                    high_water_after,
                    lock,
                    blocked,
                    resource,
                    ..
                } => writes.push(Write {
                    from: from.clone(),
                    token: token_json(token),
                    value: value.clone(),
                    op_id: op_id.clone(),
                    sent_ms: *sent_ms,
                    arrived_ms: entry.at_ms,
                    outcome: *outcome,
                    high_water_after: *high_water_after,
                    lock: lock.clone(),
                    blocked: blocked.clone(),
                    resource: resource.clone(),
                }),
                TraceEvent::LockReleased { node, token, outcome } => releases.push(Release {
                    at_ms: entry.at_ms,
                    node: node.clone(),
                    token: *token,
                    outcome: outcome.clone(),
                }),
                TraceEvent::ViolationFound { violation, resource } => {
                    // The oracle reports a violation right after the write (or release) that
                    // caused it.
                    let write = writes.len().saturating_sub(1);
                    let grant_of = |token: u64| grants.iter().position(|g: &Grant| g.token == token);
                    let accepted_before = |pred: &dyn Fn(&Write) -> bool| {
                        // Earlier writes at the same resource: each judges by its own mark.
                        writes[..write]
                            .iter()
                            .position(|w| w.outcome == WriteOutcome::Accepted && w.resource == *resource && pred(w))
                    };
                    let (earlier_writes, grants_involved) = match violation {
                        Violation::StaleWriteAccepted { token, newest_granted, .. } => {
                            (Vec::new(), [grant_of(*token), grant_of(*newest_granted)].into_iter().flatten().collect())
                        }
                        Violation::TokenRegression { token, highest_before, .. } => (
                            accepted_before(&|w| w.token == Some(Value::from(*highest_before))).into_iter().collect(),
                            [grant_of(*token), grant_of(*highest_before)].into_iter().flatten().collect(),
                        ),
                        Violation::DuplicateSideEffect { op_id, .. } => {
                            (accepted_before(&|w| &w.op_id == op_id).into_iter().collect(), Vec::new())
                        }
                        Violation::InvalidTokenAccepted { .. } | Violation::ForeignTokenAccepted { .. } => {
                            (Vec::new(), Vec::new())
                        }
                        Violation::LockDeletedByNonOwner { holder_token, .. } => {
                            (Vec::new(), grant_of(*holder_token).into_iter().collect())
                        }
                    };
                    let by_release = matches!(violation, Violation::LockDeletedByNonOwner { .. });
                    violations.push(ViolationRecord {
                        at_ms: entry.at_ms,
                        violation: violation.clone(),
                        write: (!by_release && !writes.is_empty()).then_some(write),
                        release: by_release.then(|| releases.len().saturating_sub(1)),
                        earlier_writes,
                        grants: grants_involved,
                        resource: resource.clone(),
                    })
                }
                _ => {}
            }
        }
        let snap = sim.snapshot();
        let (leader_gaps, dual_beliefs) = intervals(sim.trace());
        Report {
            format: REPORT_FORMAT,
            scenario: scenario.id.clone(),
            seed: scenario.config.seed,
            until_ms: snap.now_ms,
            grants,
            writes,
            releases,
            final_state: Final {
                holder: snap.lease.holder_identity.clone(),
                token: snap.lease.token,
                lease_transitions: snap.lease.lease_transitions,
                high_water: snap.resource.high_water,
                value: snap.resource.value.clone(),
                resources: if snap.resource.name.is_some() {
                    std::iter::once(&snap.resource)
                        .chain(&snap.more_resources)
                        .map(|r| FinalResource {
                            name: r.name.clone().unwrap_or_default(),
                            high_water: r.high_water,
                            value: r.value.clone(),
                        })
                        .collect()
                } else {
                    Vec::new()
                },
                nodes: snap.nodes.iter().map(|n| FinalNode { id: n.id.clone(), role: n.role.as_str() }).collect(),
            },
            violations,
            leader_gaps,
            dual_beliefs,
            trace_len: sim.trace().len(),
            trace_hash: sim.trace_hash(),
        }
    }

    /// Run `scenario` from the start to its end and report.
    ///
    /// # Errors
    /// The engine's [`crate::engine::ConfigError`] if the configuration is invalid (a parsed
    /// scenario has already passed the same checks).
    pub fn run(scenario: &Scenario) -> Result<Self, crate::engine::ConfigError> {
        let mut sim = Sim::new(scenario.config.clone())?;
        sim.run_to_end();
        Ok(Self::new(scenario, &sim))
    }
}
