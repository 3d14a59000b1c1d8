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
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
