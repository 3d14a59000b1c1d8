//! Interventions: what a scenario schedules and what a learner does from the page.
//!
//! A run is fully described by its [`Config`](super::Config) (which includes the scheduled
//! commands) plus the commands applied live, each stamped with the virtual time it took effect;
//! replaying both gives the same trace, bit for bit.

use serde::{Deserialize, Serialize};

use super::token::WireToken;
use super::trace::MessageKind;

/// A command to apply at a virtual time.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ScheduledCommand {
    /// When it applies, in ms of virtual time.
    pub at_ms: u64,
    pub command: Command,
}

/// Longest pause, delay or partition a command may ask for: 24 h in ms.
pub const MAX_COMMAND_MS: u64 = 24 * 60 * 60 * 1000;

/// The clock target that names the store (coordinator) rather than a node.
pub const STORE: &str = "store";

/// Which of a node's links a partition cuts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Link {
    /// Every link: it sends and receives nothing.
    #[default]
    All,
    /// Only its link to the coordinator (the store).
    Coordinator,
    /// Only its link to the fenced resource.
    Resource,
    /// One way only: the store's replies to the node are lost, its requests still arrive and
    /// take effect (a grant or a renewal applied at the store that the node never hears of, so
    /// it believes the call failed: a response lost on its way back, as after a client-side
    /// timeout; redis/redis-py#1031's retried `SET NX` is refused by its own key).
    CoordinatorReplies,
    /// One way only: the node's requests to the store are lost (the store hears nothing from
    /// it); there would be replies to carry back, but no request arrives to cause one.
    CoordinatorRequests,
}

/// What the network does to one message ([`Command::NextMessage`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageFault {
    /// It never arrives (recorded as dropped when sent).
    Lose,
    /// It arrives `by_ms` later than its drawn latency (1 ..= 86 400 000), so later messages
    /// may overtake it.
    Hold { by_ms: u64 },
    /// It arrives twice: the copy gets its own id and latency. The store and the resource act
    /// on both; the node takes the first reply to a call.
    Copy,
}

/// Something done to the world from outside the protocol.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Command {
    /// Freeze a node completely (a stop-the-world GC pause, SIGSTOP): no timers fire and incoming
    /// messages wait. If it believes it leads, it has just checked its belief and prepared a
    /// write, which it sends first thing on resume. With `for_ms` it resumes by itself.
    Pause { node: String, for_ms: Option<u64> },
    /// Unfreeze a paused node.
    Resume { node: String },
    /// Kill a node: it loses all volatile state, its timers and queued messages.
    Crash { node: String },
    /// Start a crashed node again as a fresh candidate.
    Restart { node: String },
    /// Cut a node off until healed: from everything, or only from the coordinator (its acquire,
    /// renew and release requests and their replies are lost, as when every request to the store
    /// times out: kubernetes/kubernetes#82960) or only from the resource (its writes are lost),
    /// or one way only ([`Link::CoordinatorReplies`], [`Link::CoordinatorRequests`]). Nodes
    /// never talk to each other (every message has the store or the resource at one end), so
    /// there is no cut between two nodes to choose: it would change nothing, unlike in Raft.
    Partition { node: String, from: Link },
    /// Reconnect a partitioned node.
    Heal { node: String },
    /// The coordinator strikes the holder's name now (the dockmaster; "run the sand out").
    RevokeLease,
    /// Turn the resource's token check on or off.
    SetFencing { on: bool },
    /// The next write this node sends is held up for `by_ms` more than its drawn latency.
    DelayNextWrite { node: String, by_ms: u64 },
    /// The network loses, holds back or copies the next message of `kind` between `node` and
    /// the store or the resource (sent by the node, or a reply sent to it), whenever that is
    /// sent: one message, chosen by what it is rather than by its id, so a learner or a search
    /// can say "Lin's next renewal reply is lost". The faults a network may do to any message
    /// (Jepsen's nemeses; the random copies and hold-backs of [`super::NetworkConfig`] are the
    /// same faults drawn from the seed). A later fault for the same node and kind replaces it.
    NextMessage { node: String, kind: MessageKind, fault: MessageFault },
    /// A write injected from outside, straight into the resource (arrives at once); how the
    /// checks of seed `002` are replayed. The token may be anything a JSON field can hold.
    /// `lock` names the lock that issued the token (`None`: the lock guarding the resource), so
    /// a token of another lock can be shown refused, or passing under a global scope (C23).
    ///
    /// `resource` names the resource it goes to, one of [`Config::resources`](super::Config::resources)
    /// (`None`: the first).
    RawWrite {
        token: WireToken,
        value: String,
        op_id: Option<String>,
        lock: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        resource: Option<String>,
    },
    /// The coordinator's token counter is restored from an old backup: the next grant gets
    /// `next_token`, possibly smaller than tokens already issued (etcd-io/etcd#16028: a snapshot
    /// restore without `--bump-revision`). ≥ 1.
    RollbackIssuer { next_token: u64 },
    /// The resource is restored from a backup whose high-water mark was `high_water` (0: none),
    /// so older tokens may pass again (seed `004`: the mark must survive restores).
    /// `resource` names which one (`None`: the first).
    RestoreResource {
        high_water: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        resource: Option<String>,
    },
    /// The resource process restarts. With `resource.persist_high_water` the mark survives;
    /// without it the mark (kept in memory only) starts again from 0 (oxia-db/oxia#87).
    /// `resource` names which one (`None`: the first); the others run on.
    RestartResource {
        #[serde(skip_serializing_if = "Option::is_none")]
        resource: Option<String>,
    },
    /// Step a clock by `by_ms` (negative: backwards): a node's, or the store's when `target` is
    /// [`STORE`] (NTP stepping a server's wall clock: valkey-io/valkey#2651, redis/redis#416).
    /// Within ±24 h, not 0.
    ClockJump { target: String, by_ms: i64 },
    /// Make a clock run at `rate_ppm` parts per million of true time from now on (a node's, or
    /// the store's with [`STORE`]); 100 000 ..= 10 000 000 (0.1× to 10×).
    ClockRate { target: String, rate_ppm: u64 },
    /// Set the scenario's script for `node` aside: from now on, the scripted events
    /// ([`Config::events`](super::Config::events)) still ahead whose [`Command::node`] is `node`
    /// do not happen, so that what a learner does to the node is not overruled later. Other nodes'
    /// steps, steps that target no node, and recorded interventions
    /// ([`Config::interventions`](super::Config::interventions)) stay. Which steps are still
    /// ahead is decided in [`super::script`].
    DropScript { node: String },
    /// The lock store's primary (leader) fails and another server takes over, by the rule of the
    /// run's store profile ([`StoreKind::failover`](super::profile::StoreKind::failover)): on
    /// etcd the new leader extends every lease (`Promote`); on Redis an asynchronous replica is
    /// promoted without the writes of the last `lag_ms` (0 ..= 60 000; etcd keeps every committed
    /// write, so there it changes nothing).
    StoreFailover { lag_ms: u64 },
}

impl Command {
    /// The node this command targets, if any.
    pub fn node(&self) -> Option<&str> {
        match self {
            Command::Pause { node, .. }
            | Command::Resume { node }
            | Command::Crash { node }
            | Command::Restart { node }
            | Command::Partition { node, .. }
            | Command::Heal { node }
            | Command::DelayNextWrite { node, .. }
            | Command::NextMessage { node, .. }
            | Command::DropScript { node } => Some(node),
            Command::ClockJump { target, .. } | Command::ClockRate { target, .. } => {
                (target != STORE).then_some(target.as_str())
            }
            Command::RevokeLease
            | Command::SetFencing { .. }
            | Command::RawWrite { .. }
            | Command::RollbackIssuer { .. }
            | Command::RestoreResource { .. }
            | Command::RestartResource { .. }
            | Command::StoreFailover { .. } => None,
        }
    }

    /// The resource this command names (`resource`), if any; `None` also when it acts on the
    /// first resource by default.
    pub fn resource(&self) -> Option<&str> {
        match self {
            Command::RawWrite { resource, .. }
            | Command::RestoreResource { resource, .. }
            | Command::RestartResource { resource } => resource.as_deref(),
            _ => None,
        }
    }

    /// Field-level checks of the command's own arguments.
    ///
    /// # Errors
    /// `(field, message)` for a zero or over-long duration, or an over-long value or op id.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        match self {
            Command::Pause { for_ms: Some(ms), .. } if *ms == 0 || *ms > MAX_COMMAND_MS => {
                Err(("for_ms", "must be between 1 and 86400000 (24 h)".into()))
            }
            Command::DelayNextWrite { by_ms, .. }
            | Command::NextMessage { fault: MessageFault::Hold { by_ms }, .. }
                if *by_ms == 0 || *by_ms > MAX_COMMAND_MS =>
            {
                Err(("by_ms", "must be between 1 and 86400000 (24 h)".into()))
            }
            Command::StoreFailover { lag_ms } if *lag_ms > super::profile::MAX_FAILOVER_LAG_MS => {
                Err(("lag_ms", "must be between 0 and 60000 (1 min)".into()))
            }
            Command::RollbackIssuer { next_token: 0 } => {
                Err(("next_token", "must be at least 1 (0 means \"no token\")".into()))
            }
            Command::ClockJump { by_ms, .. } if *by_ms == 0 || by_ms.unsigned_abs() > MAX_COMMAND_MS => {
                Err(("by_ms", "must be between -86400000 and 86400000 (24 h), and not 0".into()))
            }
            Command::ClockRate { rate_ppm, .. } => super::clock::check_rate(*rate_ppm).map_err(|m| ("rate", m)),
            Command::RawWrite { lock: Some(lock), .. }
                if lock.is_empty()
                    || lock.len() > 32
                    || !lock.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c)) =>
            {
                Err((
                    "lock",
                    "must be 1 to 32 characters: ASCII letters, digits, '-', '_', '.', '/' (as lock.name)".into(),
                ))
            }
            Command::RawWrite { value, op_id, .. } => {
                if value.len() > 200 {
                    return Err(("value", "must be at most 200 characters".into()));
                }
                if op_id.as_ref().is_some_and(|id| id.is_empty() || id.len() > 64) {
                    return Err(("op_id", "must be 1 to 64 characters".into()));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}
