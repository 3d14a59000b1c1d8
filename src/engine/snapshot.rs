//! A plain-data picture of the world at one instant. The story layer and the UI read only this
//! (and trace events); they never reach into engine internals.

use serde::Serialize;

use super::config::{EqualTokenPolicy, Expiry, Protocol, TokenScope};
use super::profile::StoreKind;
use super::token::WireToken;
use super::trace::{Endpoint, MessageKind};

/// The world at `now_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Snapshot {
    /// Virtual time, in ms.
    pub now_ms: u64,
    /// The run ends at this time, in ms.
    pub until_ms: u64,
    pub protocol: Protocol,
    /// Which real store the coordinator behaves like.
    pub store_kind: StoreKind,
    /// Who judges expiry (always the store under the lock protocol).
    pub expiry: Expiry,
    /// What the store's own clock reads now, in ms (its offset and jumps included).
    pub store_clock_ms: i64,
    pub lease: LeaseView,
    /// In scenario order.
    pub nodes: Vec<NodeView>,
    /// The first (or only) fenced resource.
    pub resource: ResourceView,
    /// The second and later resources of a run with named resources (`resources`), in order;
    /// empty for a run with one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub more_resources: Vec<ResourceView>,
    /// Messages sent and not yet arrived or dropped, in send order.
    pub in_flight: Vec<MessageView>,
}

/// The coordinator's Lease record (Kubernetes `coordination.k8s.io/v1` field names).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeaseView {
    /// `holderIdentity`: the name on the plaque; `None` before the first grant or after a revoke.
    pub holder_identity: Option<String>,
    /// `leaseDurationSeconds`, in ms.
    pub lease_duration_ms: u64,
    /// `acquireTime` of the current term, in ms.
    pub acquire_time_ms: Option<u64>,
    /// `renewTime`: the last successful renewal (or the grant), in ms.
    pub renew_time_ms: Option<u64>,
    /// `leaseTransitions`: how many times the holder changed.
    pub lease_transitions: u32,
    /// The fencing token of the current (or last) term; `None` before the first grant.
    pub token: Option<u64>,
    /// The newest token the coordinator has ever granted.
    pub newest_granted: Option<u64>,
    /// `renewTime + leaseDuration`, in ms: when the sand runs out.
    pub expires_ms: Option<u64>,
    /// True once the coordinator's clock passed `expires_ms` (the name is still on the plaque until
    /// someone else takes the lease, as in Kubernetes). Never set under observer expiry: there
    /// the store does not judge.
    pub expired: bool,
    /// The record's version (Kubernetes `resourceVersion`, etcd `mod_revision`): grows on every
    /// change of the record.
    pub version: u64,
    /// The lock's name (the Redis key, the etcd key prefix).
    pub lock_name: String,
    /// `renewTime` as the record stores it, on the store's clock, in ms.
    pub renew_time_store_ms: Option<i64>,
    /// Whether the lease is live now: the one judgement every view reads. Not in reports (they
    /// carry `expires_ms` and `expired`, from which it follows).
    #[serde(skip)]
    pub liveness: Liveness,
}

/// Whether the lease is live at a snapshot's moment: the engine's one judgement of it, made by
/// [`Liveness::judge`] when the snapshot is taken, which every view reads (the harbor's plaque
/// and hourglass, the lantern's tablet, the lease panel, the technical view).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Liveness {
    /// Nobody's name is on the record: never granted, revoked or released.
    #[default]
    Free,
    /// A holder's term runs, `remaining_ms` more until `renewTime + leaseDuration` (0 in its
    /// last millisecond, on a store that keeps a key through it: Redis).
    Live { remaining_ms: u64 },
    /// The holder's name is still on the record but the term ran out at `since_ms` and nobody has
    /// taken the lease since (Kubernetes keeps `holderIdentity`; Redis and etcd have deleted the key).
    Lapsed { since_ms: u64 },
}

impl Liveness {
    /// Judges a record at `now_ms`: free without a holder; otherwise live while its term runs and
    /// lapsed after. Where the store judges expiry, the term runs exactly as long as the store
    /// says (`expired`: [`super::coordinator::Coordinator::lease_live`] on the store's clock,
    /// with its profile's rule for the last millisecond; a store-clock jump ends it early).
    /// Under client-go's observer expiry the store never judges, and the record's own term ends
    /// at `renewTime + leaseDuration` (`expires_ms`, exclusive), which is what `kubectl` shows.
    pub fn judge(holder: bool, expires_ms: Option<u64>, expired: bool, store_judges: bool, now_ms: u64) -> Liveness {
        if !holder {
            return Liveness::Free;
        }
        match expires_ms {
            Some(e) if !expired && (store_judges || now_ms < e) => {
                Liveness::Live { remaining_ms: e.saturating_sub(now_ms) }
            }
            e => Liveness::Lapsed { since_ms: e.unwrap_or(now_ms).min(now_ms) },
        }
    }

    /// Live now.
    pub fn is_live(self) -> bool {
        matches!(self, Liveness::Live { .. })
    }

    /// Time left in the term (0 unless live), in ms.
    pub fn remaining_ms(self) -> u64 {
        match self {
            Liveness::Live { remaining_ms } => remaining_ms,
            _ => 0,
        }
    }

    /// `free`, `live` or `lapsed` (the scenes' `data-lease`).
    pub fn code(self) -> &'static str {
        match self {
            Liveness::Free => "free",
            Liveness::Live { .. } => "live",
            Liveness::Lapsed { .. } => "lapsed",
        }
    }
}

/// What a node is doing, as the report names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Believes it leads.
    Leader,
    /// Wants the lease, or has not started yet.
    Candidate,
    /// Frozen (GC pause, SIGSTOP).
    Paused,
    /// Dead until restarted.
    Crashed,
}

impl Role {
    /// The lowercase name used in reports and `data-role`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Leader => "leader",
            Role::Candidate => "candidate",
            Role::Paused => "paused",
            Role::Crashed => "crashed",
        }
    }
}

/// One node (flag-bearer).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeView {
    pub id: String,
    /// The `holderIdentity` it claims (its id unless the scenario says otherwise).
    pub identity: String,
    /// What its own clock reads now, in ms.
    pub clock_ms: i64,
    /// How fast its clock runs, in parts per million of true time (1 000 000 = true speed).
    pub clock_rate_ppm: u64,
    /// Observer expiry: the true time at which this candidate will judge the holder it last
    /// observed expired (on its own clock), if it is waiting for one.
    pub observed_expires_ms: Option<u64>,
    /// It stopped leading but its work still writes with this token (`work.stops_with_lease`
    /// false).
    pub zombie_token: Option<u64>,
    pub role: Role,
    /// Whether the node believes it leads (also while paused: a frozen leader still believes it).
    pub believes_leader: bool,
    /// The token it holds (believes in), if any.
    pub token: Option<u64>,
    /// Cut off by a partition.
    pub partitioned: bool,
    /// Which links the partition cuts (`all`, `coordinator`, `resource`), when partitioned.
    pub cut_from: Option<super::command::Link>,
    /// Has the process started yet (`start_ms` reached)?
    pub started: bool,
    /// When the node last had a renewal confirmed, in ms (the send time of that request).
    pub last_renew_ok_ms: Option<u64>,
    /// When it will give up on its own clock if no renewal succeeds, in ms.
    pub renew_deadline_ms: Option<u64>,
    /// The write it prepared just before a pause, sent first on resume.
    pub prepared_write: Option<PreparedWrite>,
    /// Extra delay armed for its next write, in ms.
    pub next_write_delay_ms: Option<u64>,
    /// Writes it has sent so far.
    pub writes_sent: u64,
}

/// A write a paused leader is holding.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct PreparedWrite {
    pub op_id: String,
    pub token: u64,
    pub value: String,
    /// Which resource it goes to: an index into the run's resources (0: the first, or only).
    #[serde(skip_serializing_if = "is_first")]
    pub resource: usize,
}

fn is_first(index: &usize) -> bool {
    *index == 0
}

/// The fenced resource.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ResourceView {
    /// Its name (`resources`); `None` for the one unnamed resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub fencing: bool,
    pub equal_token: EqualTokenPolicy,
    /// Whether a new term raises the mark before its holder works.
    pub epoch_barrier: bool,
    pub token_scope: TokenScope,
    /// The durable high-water mark: the largest valid token it has accepted (0 = none yet).
    pub high_water: u64,
    /// The value of the last accepted write.
    pub value: Option<String>,
    /// Who sent the last accepted write (`None` for an outside write or none yet).
    pub value_from: Option<String>,
    /// The token the last accepted write carried.
    pub value_token: Option<WireToken>,
    pub accepted: u64,
    pub rejected: u64,
}

/// A message on its way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageView {
    pub id: u64,
    pub kind: MessageKind,
    pub from: Endpoint,
    pub to: Endpoint,
    pub sent_ms: u64,
    pub arrive_ms: u64,
    /// The token it carries (writes, renewals, grants).
    pub token: Option<WireToken>,
}

#[cfg(test)]
mod tests {
    use super::Liveness;

    /// Free without a name. Where the store judges (`store_judges`), live exactly until the
    /// store says the TTL ran out (through the last millisecond on Redis, whose key is gone only
    /// once `now > when`: `expired` still false at 15 062), and lapsed at once when it judged it
    /// over early (a store-clock jump). Under observer expiry, live strictly before
    /// `renewTime + leaseDuration`.
    #[test]
    fn the_lease_is_judged_once_by_whoever_judges_expiry() {
        let judge = Liveness::judge;
        assert_eq!(judge(false, None, false, true, 5), Liveness::Free);
        assert_eq!(judge(true, Some(15_062), false, true, 15_061), Liveness::Live { remaining_ms: 1 });
        assert_eq!(judge(true, Some(15_062), false, true, 15_062), Liveness::Live { remaining_ms: 0 });
        assert_eq!(judge(true, Some(15_062), true, true, 15_063), Liveness::Lapsed { since_ms: 15_062 });
        assert_eq!(judge(true, Some(15_062), true, true, 3_000), Liveness::Lapsed { since_ms: 3_000 });
        assert_eq!(judge(true, None, false, true, 3_000), Liveness::Lapsed { since_ms: 3_000 });
        assert_eq!(judge(true, Some(15_062), false, false, 15_061), Liveness::Live { remaining_ms: 1 });
        assert_eq!(judge(true, Some(15_062), false, false, 15_062), Liveness::Lapsed { since_ms: 15_062 });
        assert_eq!(judge(true, Some(15_062), false, false, 90_000), Liveness::Lapsed { since_ms: 15_062 });
        assert!(Liveness::Live { remaining_ms: 3 }.is_live() && !Liveness::Free.is_live());
    }
}
