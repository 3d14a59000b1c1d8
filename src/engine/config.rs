//! Engine configuration: the validated, typed form of a scenario.
//!
//! The scenario layer ([`crate::scenario`]) parses JSON, applies defaults and reports errors with
//! field paths; the engine re-checks the invariants it relies on in [`Config::check`] so that it
//! can never be driven into a panic by a hand-built `Config`.

use serde::Serialize;

use super::command::ScheduledCommand;

/// Most nodes a scenario may have (the scene has room for eight flag-bearers).
pub const MAX_NODES: usize = 8;
/// Longest run a scenario may ask for: 24 h of virtual time, in milliseconds.
pub const MAX_UNTIL_MS: u64 = 24 * 60 * 60 * 1000;

/// Everything the engine needs to start a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Config {
    /// Seed of the single PRNG every random draw (message latency) comes from.
    pub seed: u64,
    /// The run ends at this virtual time, in ms (1 ..= [`MAX_UNTIL_MS`]).
    pub until_ms: u64,
    /// The candidates, in display order. Ids are unique, 0 ..= [`MAX_NODES`] of them (a run with
    /// none exercises only the resource, through raw writes).
    pub nodes: Vec<NodeConfig>,
    pub lease: LeaseConfig,
    pub network: NetworkConfig,
    pub resource: ResourceConfig,
    pub work: WorkConfig,
    pub issuer: IssuerConfig,
    /// Scheduled interventions; at the same millisecond they apply in this order.
    pub events: Vec<ScheduledCommand>,
}

/// One candidate (a flag-bearer in the harbor).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeConfig {
    /// Unique identity, used as the Lease's `holderIdentity`.
    pub id: String,
    /// When the process starts and makes its first acquire attempt, in ms.
    pub start_ms: u64,
}

/// Lease timing, named after client-go's `LeaderElectionConfig`.
///
/// Defaults ([`LeaseConfig::default`]) are Kubernetes' recommended ones: `LeaseDuration` 15 s,
/// `RenewDeadline` 10 s, `RetryPeriod` 2 s, and a renewal every third of the lease (the lantern
/// fable's TTL / 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LeaseConfig {
    /// `leaseDurationSeconds`, kept in ms: the coordinator treats the lease as expired once
    /// `renewTime + duration_ms` has passed on its clock. > 0.
    pub duration_ms: u64,
    /// How often a leader sends a renewal, in ms. > 0.
    pub renew_every_ms: u64,
    /// A leader steps down when it has had no successful renewal for this long on its own clock
    /// (client-go `RenewDeadline`), in ms. 0 < renew_deadline_ms < duration_ms.
    pub renew_deadline_ms: u64,
    /// How often a candidate asks to acquire (client-go `RetryPeriod`), in ms. > 0.
    pub retry_every_ms: u64,
}

impl Default for LeaseConfig {
    fn default() -> Self {
        Self::with_duration(15_000)
    }
}

impl LeaseConfig {
    /// Kubernetes' defaults scaled to a lease of `duration_ms`: renew every third, give up after
    /// two thirds, retry every 2 s (capped at the renew interval).
    pub fn with_duration(duration_ms: u64) -> Self {
        let renew_every_ms = (duration_ms / 3).max(1);
        Self {
            duration_ms,
            renew_every_ms,
            renew_deadline_ms: (duration_ms / 3 * 2).max(1),
            retry_every_ms: 2_000.min(renew_every_ms),
        }
    }
}

/// Message latency, drawn uniformly from `min_ms ..= max_ms` for every message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct NetworkConfig {
    pub latency_min_ms: u64,
    pub latency_max_ms: u64,
}

impl Default for NetworkConfig {
    fn default() -> Self {
        Self { latency_min_ms: 20, latency_max_ms: 80 }
    }
}

/// What the fenced resource does with a write whose token equals its high-water mark.
///
/// Seed `002`: a leader usually writes many times in one term, so rejecting equal tokens would
/// let it write only once; deduplication by operation id is a separate, explicit policy (fencing
/// is not idempotency).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EqualTokenPolicy {
    /// Accept: the same term may write many times (Kleppmann: reject only lower tokens).
    #[default]
    Accept,
    /// Reject: every write needs a strictly newer token.
    Reject,
    /// Accept, but an operation id that was already applied returns `duplicate` and applies
    /// nothing (a retried write takes effect once).
    Dedupe,
}

/// How the resource compares a token with its high-water mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenCheck {
    /// Tokens are ordered: below the mark is stale, above it starts a newer term (Kleppmann).
    #[default]
    Ordered,
    /// Only the first token ever accepted passes, as when lease ids are compared for equality
    /// (etcd-io/etcd#11788, etcd's `contrib/lock` example): stale holders are refused, but so is
    /// every newer legitimate holder. A lease id is not an ordered token.
    Equality,
}

/// The fenced resource (the flag-verifier and the boat).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ResourceConfig {
    /// Whether the resource checks tokens at all. Off, it obeys every write.
    pub fencing: bool,
    pub equal_token: EqualTokenPolicy,
    /// Whether the high-water mark (and, under `dedupe`, the applied op ids) is durable and so
    /// survives a resource restart. Seed `002`: the mark must be stored durably with the data.
    pub persist_high_water: bool,
    /// How tokens are compared with the mark.
    pub token_check: TokenCheck,
}

impl Default for ResourceConfig {
    fn default() -> Self {
        Self {
            fencing: true,
            equal_token: EqualTokenPolicy::Accept,
            persist_high_water: true,
            token_check: TokenCheck::Ordered,
        }
    }
}

/// The leader's work loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WorkConfig {
    /// While it believes it leads, a node sends one write this often, in ms. > 0.
    pub every_ms: u64,
}

impl Default for WorkConfig {
    fn default() -> Self {
        Self { every_ms: 3_000 }
    }
}

/// The coordinator's token counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct IssuerConfig {
    /// The token of the first grant; each later grant of a new term gets the next integer. ≥ 1
    /// (0 is the "no token" value, as Hazelcast's `INVALID_FENCE`).
    pub first_token: u64,
}

impl Default for IssuerConfig {
    fn default() -> Self {
        Self { first_token: 1 }
    }
}

/// Why the engine refused a configuration. The scenario layer reports the same rules with the
/// JSON field path; these are the engine's last line of defence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// Dotted path of the offending field, e.g. `lease.renew_deadline_ms` or `events[3].node`.
    pub path: String,
    /// What is wrong, in English.
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for ConfigError {}

fn err(path: impl Into<String>, message: impl Into<String>) -> ConfigError {
    ConfigError { path: path.into(), message: message.into() }
}

impl Config {
    /// Checks every invariant the engine relies on.
    ///
    /// # Errors
    /// The first broken rule, with its field path: zero durations, `renew_deadline_ms` not below
    /// `duration_ms`, `latency.min > max`, more than [`MAX_NODES`], duplicate or empty
    /// ids, `until_ms` of 0 or above [`MAX_UNTIL_MS`], an event that names an unknown node.
    pub fn check(&self) -> Result<(), ConfigError> {
        if self.until_ms == 0 || self.until_ms > MAX_UNTIL_MS {
            return Err(err("until_ms", format!("must be between 1 and {MAX_UNTIL_MS} (24 h)")));
        }
        if self.nodes.len() > MAX_NODES {
            return Err(err("nodes", format!("has {} nodes; at most {MAX_NODES} are allowed", self.nodes.len())));
        }
        for (i, node) in self.nodes.iter().enumerate() {
            if node.id.is_empty() || node.id.len() > 32 {
                return Err(err(format!("nodes[{i}].id"), "must be 1 to 32 characters"));
            }
            if !node.id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
                return Err(err(format!("nodes[{i}].id"), "may hold only ASCII letters, digits, '-' and '_'"));
            }
            if self.nodes[..i].iter().any(|other| other.id == node.id) {
                return Err(err(format!("nodes[{i}].id"), format!("duplicate node id \"{}\"", node.id)));
            }
            if node.start_ms > MAX_UNTIL_MS {
                return Err(err(format!("nodes[{i}].start_ms"), "is beyond 24 h"));
            }
        }
        let l = &self.lease;
        for (name, v) in [
            ("lease.duration_ms", l.duration_ms),
            ("lease.renew_every_ms", l.renew_every_ms),
            ("lease.renew_deadline_ms", l.renew_deadline_ms),
            ("lease.retry_every_ms", l.retry_every_ms),
            ("work.every_ms", self.work.every_ms),
        ] {
            if v == 0 {
                return Err(err(name, "must be greater than 0"));
            }
            if v > MAX_UNTIL_MS {
                return Err(err(name, "is beyond 24 h"));
            }
        }
        if l.renew_deadline_ms >= l.duration_ms {
            return Err(err(
                "lease.renew_deadline_ms",
                format!("must be below lease.duration_ms ({} ms), or the old leader could still act after the lease is given away", l.duration_ms),
            ));
        }
        if self.network.latency_min_ms > self.network.latency_max_ms {
            return Err(err("network.latency_ms.min", "must not be above network.latency_ms.max"));
        }
        if self.network.latency_max_ms > 600_000 {
            return Err(err("network.latency_ms.max", "must be at most 600000 (10 minutes)"));
        }
        if self.issuer.first_token == 0 {
            return Err(err("issuer.first_token", "must be at least 1 (0 means \"no token\")"));
        }
        if self.issuer.first_token > u64::MAX / 2 {
            return Err(err("issuer.first_token", "is too large to leave room for later tokens"));
        }
        if let Some(i) = self
            .events
            .iter()
            .position(|e| matches!(e.command, super::Command::RollbackIssuer { next_token } if next_token > u64::MAX / 2))
        {
            return Err(err(format!("events[{i}].next_token"), "is too large to leave room for later tokens"));
        }
        for (i, ev) in self.events.iter().enumerate() {
            if ev.at_ms > MAX_UNTIL_MS {
                return Err(err(format!("events[{i}].at_ms"), "is beyond 24 h"));
            }
            if let Some(node) = ev.command.node() {
                if !self.nodes.iter().any(|n| n.id == node) {
                    return Err(err(format!("events[{i}].node"), format!("unknown node \"{node}\"")));
                }
            }
            ev.command.check().map_err(|(field, message)| err(format!("events[{i}].{field}"), message))?;
        }
        Ok(())
    }
}
