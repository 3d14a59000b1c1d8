//! Engine configuration: the validated, typed form of a scenario.
//!
//! The scenario layer ([`crate::scenario`]) parses JSON, applies defaults and reports errors with
//! field paths; the engine re-checks the invariants it relies on in [`Config::check`] so that it
//! can never be driven into a panic by a hand-built `Config`.

use serde::{Deserialize, Serialize};

use super::clock::ClockConfig;
use super::command::ScheduledCommand;
use super::profile::{ClientKind, ExpiryJudges, RenewPolicy, StoreKind, TimerClock};

/// Most nodes a scenario may have (the scene has room for eight flag-bearers).
pub const MAX_NODES: usize = 8;
/// Longest run a scenario may ask for: 24 h of virtual time, in milliseconds.
pub const MAX_UNTIL_MS: u64 = 24 * 60 * 60 * 1000;
/// Most fenced resources a scenario may declare (`resources`): a database and an object store,
/// a few shards.
pub const MAX_RESOURCES: usize = 4;

/// Everything the engine needs to start a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Config {
    /// Seed of the single PRNG every random draw (message latency) comes from.
    pub seed: u64,
    /// Which protocol the coordinator speaks.
    pub protocol: Protocol,
    /// Which real store the coordinator behaves like (`store.kind`): its expiry, renewal and
    /// token rules ([`StoreKind::rules`]).
    pub store_kind: StoreKind,
    /// The lock protocol's settings (and the name tokens are scoped to, for both protocols).
    pub lock: LockConfig,
    /// The store's (coordinator's) clock: it judges expiry under [`Expiry::Coordinator`] and the
    /// lock protocol.
    pub store_clock: ClockConfig,
    /// The run ends at this virtual time, in ms (1 ..= [`MAX_UNTIL_MS`]).
    pub until_ms: u64,
    /// The candidates, in display order. Ids are unique, 0 ..= [`MAX_NODES`] of them (a run with
    /// none exercises only the resource, through raw writes).
    pub nodes: Vec<NodeConfig>,
    pub lease: LeaseConfig,
    pub network: NetworkConfig,
    /// The policy of every fenced resource (fencing, equal tokens, durability, barrier, scope).
    pub resource: ResourceConfig,
    /// The names of the fenced resources, in order (`resources` in a scenario), when a leader's
    /// work writes to more than the one unnamed resource: 1 ..= [`MAX_RESOURCES`] unique names of
    /// 1 to 32 ASCII letters, digits, `-`, `_`, `.`. Each is a resource of its own, with its own
    /// high-water mark, value, counts and oracle, all under the one policy of `resource`: a
    /// stale token passes at a resource until that resource has seen a newer one (seed `002`),
    /// whatever another resource has seen. Empty (the default): one resource with no name, and
    /// the trace names none, exactly as before resources had names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    pub work: WorkConfig,
    pub issuer: IssuerConfig,
    /// Scheduled interventions; at the same millisecond they apply in this order, before
    /// anything else the run does at that millisecond.
    pub events: Vec<ScheduledCommand>,
    /// Interventions recorded on the page (an exported run): each applies *after* everything
    /// else the run does at its `at_ms` (and after the `events` there), exactly as
    /// [`super::Sim::apply`] applied it live, so the file replays the page's trace bit for bit.
    /// At the same millisecond they apply in this order.
    pub interventions: Vec<ScheduledCommand>,
}

/// One candidate (a flag-bearer in the harbor).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeConfig {
    /// Unique id of the process (how scenarios, the page and the trace name it).
    pub id: String,
    /// The Lease's `holderIdentity` it claims; usually its id. Two processes with the same identity
    /// both believe they hold the lease (kubernetes/kubernetes#30015: two masters named
    /// "localhost"), which is why client-go tells users to make identities unique.
    pub identity: String,
    /// When the process starts and makes its first acquire attempt, in ms.
    pub start_ms: u64,
    /// Its local clock (timers, renew deadline, observed expiry are measured on it).
    pub clock: ClockConfig,
    /// Whether its timers follow the wall clock (a `clock_jump` moves them) or a monotonic one
    /// (a jump changes only what the wall reads); `nodes[i].timers` in a scenario. Default: the
    /// store profile's ([`super::StoreRules::node_timers`]).
    pub timers: TimerClock,
    /// Its own `LeaseDuration` and `RenewDeadline`, in ms, when they differ from `lease`'s
    /// (candidates configured differently: kubernetes/kubernetes#47671). Only under observer
    /// expiry, where each holder writes its own `leaseDurationSeconds` into the record.
    pub lease: Option<NodeLease>,
    /// The resources its work writes to, by name (from [`Config::resources`]), in this order:
    /// each round of work sends one write to each, every write with its own operation id. Empty
    /// (the default): every resource, in the order of `resources`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub writes_to: Vec<String>,
}

/// A candidate's own lease timing (client-go's `LeaseDuration` and `RenewDeadline`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct NodeLease {
    /// The `leaseDurationSeconds` it writes into the record when it holds, in ms. > 0.
    pub duration_ms: u64,
    /// Its `RenewDeadline`, in ms. 0 < renew_deadline_ms < duration_ms.
    pub renew_deadline_ms: u64,
}

/// Under observer expiry, which lease duration a candidate waits out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObserverDuration {
    /// The record's `leaseDurationSeconds`, written by its holder (client-go since
    /// kubernetes/kubernetes PR #114872).
    #[default]
    Record,
    /// Its own configured `LeaseDuration`, as client-go did before that fix: a candidate
    /// configured with a shorter lease takes over early (kubernetes/kubernetes#47671).
    Own,
}

/// Which protocol the coordinator speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Protocol {
    /// Leader election on a Lease record (the harbor; Kubernetes `coordination.k8s.io/v1`): the
    /// leader holds until it stops renewing.
    #[default]
    Lease,
    /// A lock with a TTL (the lantern; Redis `SET key value NX PX ttl`, an etcd key on a lease):
    /// acquire is a compare-and-swap on the key, renew extends the TTL for the owner only, a
    /// borrower releases when done (compare-and-delete, or a plain `DEL` without
    /// [`ReleaseCheck::Owner`]), and the store's own clock judges expiry.
    Lock,
}

/// Who judges that a lease (or a lock) has expired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expiry {
    /// The coordinator, on its own clock (a lock service: etcd leases, Chubby, Consul sessions).
    #[default]
    Coordinator,
    /// Each candidate, on its own clock, `leaseDuration` after it *observed* the record change
    /// (Kubernetes client-go `tryAcquireOrRenew`: `observedTime + leaseDuration`); the store only
    /// compare-and-swaps on the record's version. The nodes then run client-go's leader election
    /// ([`ClientKind::ClientGo`]), or under `"protocol": "lock"` the AWS DynamoDB lock client
    /// ([`ClientKind::DynamoDbLockClient`]): how each judges and retries is its row of
    /// [`ClientKind::rules`]. Allowed where the store profile lets the candidates judge
    /// ([`StoreRules::allows_expiry`](super::StoreRules::allows_expiry)).
    Observer,
}

/// What a lock release checks before it deletes the key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReleaseCheck {
    /// Compare-and-delete: only the owner's own value is deleted (Redis' documented Lua script,
    /// redis-py's `LuaLock`, etcd's transaction on the key's create revision).
    #[default]
    Owner,
    /// A plain `DEL`: whoever holds the key loses it (abelaska/jedis-lock#2, redis/redis-py#1031).
    None,
}

/// Lock protocol settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LockConfig {
    /// The lock's name (`/locks/NAME`, the Redis key). Tokens are scoped to it: a resource with
    /// [`TokenScope::PerLock`] compares only tokens of this lock (Chubby's sequencer carries the
    /// lock name). 1 to 32 characters.
    pub name: String,
    pub release_check: ReleaseCheck,
    /// A borrower releases the lock this long after it got it, on its own clock, in ms; `None`
    /// keeps it until it fails (a leader that never finishes).
    pub hold_ms: Option<u64>,
    /// Whether a client checks that its own session is still live when an acquire reply reaches
    /// it (etcd's `concurrency.Mutex` since etcd-io/etcd#11456 returns `ErrSessionExpired`).
    /// Off, it starts counting its lease from the reply, as the old client did. Default: the
    /// store's client's ([`ClientRules::session_check`](super::ClientRules::session_check)).
    pub session_check: bool,
    /// Lock-delay, in ms of the store's clock (0 ..= [`MAX_LOCK_DELAY_MS`]; 0: none, as on Redis
    /// and etcd): after a holder's term ends by expiry or invalidation (not a clean release), the
    /// store refuses every acquire of the lock for this long, so the old holder's work in flight
    /// lands before anyone else starts. Consul's session `LockDelay` (default 15 s, at most
    /// 60 s); Chubby's lock-delay (Burrows 2006, §2.4: up to a minute).
    pub lock_delay_ms: u64,
}

/// The longest lock-delay, in ms: Consul's limit of 60 s.
pub const MAX_LOCK_DELAY_MS: u64 = 60_000;

impl Default for LockConfig {
    fn default() -> Self {
        Self {
            name: "leader".into(),
            release_check: ReleaseCheck::Owner,
            hold_ms: None,
            session_check: true,
            lock_delay_ms: 0,
        }
    }
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
    /// Who judges expiry.
    pub expiry: Expiry,
    /// What a leader does with a refused renewal, and how often it renews
    /// ([`RenewPolicy::Retry`]: every `retry_every_ms`). Default: the store's client's
    /// ([`ClientRules::renewal`](super::ClientRules::renewal)).
    pub renew_policy: RenewPolicy,
    /// Under observer expiry, whose duration a candidate waits out. Default: the record's.
    pub observer_duration: ObserverDuration,
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
            expiry: Expiry::Coordinator,
            renew_policy: RenewPolicy::GiveUp,
            observer_duration: ObserverDuration::Record,
        }
    }
}

/// Message latency, drawn uniformly from `min_ms ..= max_ms` for every message, and the
/// network's faults drawn from the seed ([`super::network`]).
///
/// The faults draw from their own stream derived from the seed, never from the latency's: a run
/// with both percentages at 0 (the default) has the trace it had before they existed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct NetworkConfig {
    pub latency_min_ms: u64,
    pub latency_max_ms: u64,
    /// Chance, in percent (0 ..= 100), that the network delivers a message twice: the copy has
    /// its own id and its own drawn latency, so it may even arrive first. Real networks and
    /// retrying proxies do this (a request retried after a timeout whose first attempt did land:
    /// yugabyte/yugabyte-db#33653); TCP alone does not, but no fence can tell the two apart.
    #[serde(skip_serializing_if = "is_zero_u8")]
    pub duplicate_percent: u8,
    /// Chance, in percent (0 ..= 100), that a message is held back by [`Self::reorder_hold_ms`]
    /// on top of its drawn latency, so later messages on the same link overtake it (a
    /// retransmission after a lost packet, a message routed through a slow path).
    #[serde(skip_serializing_if = "is_zero_u8")]
    pub reorder_percent: u8,
    /// How long a held-back message is held, in ms (0 ..= 600 000). > 0 when
    /// `reorder_percent` > 0.
    #[serde(skip_serializing_if = "is_zero_u64")]
    pub reorder_hold_ms: u64,
}

fn is_zero_u8(v: &u8) -> bool {
    *v == 0
}

fn is_zero_u64(v: &u64) -> bool {
    *v == 0
}

impl Default for NetworkConfig {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl NetworkConfig {
    /// The default latency (20 ..= 80 ms) and no faults.
    pub const DEFAULT: Self =
        Self { latency_min_ms: 20, latency_max_ms: 80, duplicate_percent: 0, reorder_percent: 0, reorder_hold_ms: 0 };

    /// A fault-free network with latency drawn from `min_ms ..= max_ms`.
    pub fn with_latency(min_ms: u64, max_ms: u64) -> Self {
        Self { latency_min_ms: min_ms, latency_max_ms: max_ms, ..Self::DEFAULT }
    }
}

/// What the fenced resource does with a write whose token equals its high-water mark.
///
/// Seed `002`: a leader usually writes many times in one term, so rejecting equal tokens would
/// let it write only once; deduplication by operation id is a separate, explicit policy (fencing
/// is not idempotency).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    /// A new term raises the resource's mark to its token in the same transaction that grants
    /// it, before the holder does any work (Kafka's controller epoch znode bumped with a
    /// conditional multi-op, KAFKA-6082; an etcd transaction that takes the lock key and bumps the
    /// resource's fence key). It closes the window in which an old token still passes because the
    /// resource has not yet seen the newer one (seed `002`).
    pub epoch_barrier: bool,
    /// Which lock's tokens the resource compares.
    pub token_scope: TokenScope,
}

/// Which tokens a resource compares with its mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenScope {
    /// Only tokens of the lock that guards it; a token of another lock is refused, however large
    /// (Chubby's sequencer names the lock; Consul's lock tuple includes the key).
    #[default]
    PerLock,
    /// Tokens are compared as bare numbers whatever lock issued them: a larger number from another
    /// lock passes and raises the mark (case C23 of the reference corpus).
    Global,
}

impl Default for ResourceConfig {
    fn default() -> Self {
        Self {
            fencing: true,
            equal_token: EqualTokenPolicy::Accept,
            persist_high_water: true,
            token_check: TokenCheck::Ordered,
            epoch_barrier: false,
            token_scope: TokenScope::PerLock,
        }
    }
}

/// The leader's work loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WorkConfig {
    /// While it believes it leads, a node sends one write this often, in ms. > 0.
    pub every_ms: u64,
    /// Whether the work stops when the node stops leading. client-go cancels the work's context
    /// when the renew loop gives up, but nothing makes the work obey it: a wedged leader that
    /// neither exits nor renews keeps working (kubernetes/kubernetes#82960, vmware/pinniped#800).
    /// With `false`, the node keeps writing with its old token after it stepped down.
    pub stops_with_lease: bool,
    /// A bounded shutdown, in ms of the node's own clock, 0 … 24 h (only with `stops_with_lease`;
    /// 0, the default, stops the work at once). The process is told to stop when it steps down
    /// but takes this long to drain: until then its work goes on writing with its old token,
    /// then stops (`work_stopped` in the trace). A crash ends the drain at once. Seen in
    /// cilium/cilium#42920 (the operator kept working for a while after losing its lease) and
    /// hashicorp/consul#1843 (a leader's shutdown long enough to overlap the next leader).
    #[serde(skip_serializing_if = "is_zero_u64")]
    pub stops_after_ms: u64,
    /// The work's own client retries: each write it sends is sent once more, with the same
    /// operation id, value and token, this many ms later on the node's clock (`write_retried`
    /// in the trace). The resource has no reply channel, so the model is the plain one: every
    /// write times out on the client's side and is retried once, as a client whose request
    /// timed out does (yugabyte/yugabyte-db#33653). `None` (the default): no retry. 1 … below
    /// `every_ms`, so at most one retry is pending. Only the process ending cancels it (a crash,
    /// or the end of a bounded shutdown): the client library knows nothing of the lease, so a
    /// retry due after the node stepped down goes out with its old token. A retry still
    /// pending when the next write leaves (possible only after a pause) goes out just before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
}

impl Default for WorkConfig {
    fn default() -> Self {
        Self { every_ms: 3_000, stops_with_lease: true, stops_after_ms: 0, retry_after_ms: None }
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

/// Whether `name` may name a resource: 1 to 32 ASCII letters, digits, `-`, `_`, `.`.
fn resource_name_ok(name: &str) -> bool {
    !name.is_empty() && name.len() <= 32 && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

impl Config {
    /// How many fenced resources the run has: 1 without `resources`, else one per name.
    pub fn resource_count(&self) -> usize {
        self.resources.len().max(1)
    }

    /// The index of the resource called `name` (`None`: the first one, the only one of a run
    /// without `resources`); `None` when no resource has that name.
    pub fn resource_index(&self, name: Option<&str>) -> Option<usize> {
        match name {
            None => Some(0),
            Some(n) => self.resources.iter().position(|r| r == n),
        }
    }

    /// The name of resource `index`, `None` for the one unnamed resource.
    pub fn resource_name(&self, index: usize) -> Option<String> {
        self.resources.get(index).cloned()
    }

    /// The resources node `index`'s work writes to each round, as indices, in order. Names
    /// [`Config::check`] accepted; an unknown one (an unchecked `Config`) is left out.
    pub fn node_targets(&self, index: usize) -> Vec<usize> {
        match self.nodes.get(index).map(|n| &n.writes_to) {
            Some(names) if !names.is_empty() => names.iter().filter_map(|n| self.resource_index(Some(n))).collect(),
            _ => (0..self.resource_count()).collect(),
        }
    }

    /// The rules of `resources`, `nodes[i].writes_to` and the `resource` of events.
    fn check_resources(&self) -> Result<(), ConfigError> {
        if self.resources.len() > MAX_RESOURCES {
            return Err(err(
                "resources",
                format!("has {} resources; at most {MAX_RESOURCES} are allowed", self.resources.len()),
            ));
        }
        for (i, name) in self.resources.iter().enumerate() {
            if !resource_name_ok(name) {
                return Err(err(
                    format!("resources[{i}]"),
                    "must be 1 to 32 characters: ASCII letters, digits, '-', '_', '.'",
                ));
            }
            if self.resources[..i].contains(name) {
                return Err(err(format!("resources[{i}]"), "duplicate resource name"));
            }
        }
        // A name must be one of `resources` (a run without them has one unnamed resource).
        let unknown = |path: String, name: &str| {
            err(path, format!("unknown resource \"{name}\"; the names in `resources`: [{}]", self.resources.join(", ")))
        };
        for (i, node) in self.nodes.iter().enumerate() {
            for (j, name) in node.writes_to.iter().enumerate() {
                let path = format!("nodes[{i}].writes_to[{j}]");
                if self.resource_index(Some(name)).is_none() {
                    return Err(unknown(path, name));
                }
                if node.writes_to[..j].contains(name) {
                    return Err(err(path, "names a resource twice"));
                }
            }
        }
        for (list, items) in [("events", &self.events), ("interventions", &self.interventions)] {
            for (i, ev) in items.iter().enumerate() {
                if let Some(name) = ev.command.resource().filter(|n| self.resource_index(Some(n)).is_none()) {
                    return Err(unknown(format!("{list}[{i}].resource"), name));
                }
            }
        }
        Ok(())
    }

    /// Whether the store judges expiry on its own clock in this run: its profile's one rule,
    /// [`StoreRules::judges_expiry`](super::StoreRules::judges_expiry), given `lease.expiry`.
    pub fn store_judges_expiry(&self) -> bool {
        self.store_kind.rules().judges_expiry(self.lease.expiry)
    }

    /// The client library this run's nodes behave like: [`ClientKind::of`](super::ClientKind::of),
    /// the one place it is decided, from the store, the protocol and who judges expiry. Its rules
    /// are [`ClientKind::rules`](super::ClientKind::rules).
    pub fn client(&self) -> ClientKind {
        ClientKind::of(self.store_kind, self.protocol, self.store_judges_expiry())
    }

    /// The lease timing of node `index` (its own, or the scenario's), as `(duration_ms,
    /// renew_deadline_ms)`.
    pub fn node_lease(&self, index: usize) -> (u64, u64) {
        match self.nodes.get(index).and_then(|n| n.lease) {
            Some(l) => (l.duration_ms, l.renew_deadline_ms),
            None => (self.lease.duration_ms, self.lease.renew_deadline_ms),
        }
    }

    /// The rules a store profile, a renewal policy and per-node lease timings add.
    fn check_profile(&self) -> Result<(), ConfigError> {
        let l = &self.lease;
        let rules = self.store_kind.rules();
        if rules.expiry_judges == ExpiryJudges::Candidates {
            let kind = self.store_kind.code();
            if self.protocol == Protocol::Lock {
                return Err(err(
                    "protocol",
                    format!("must be \"lease\" on the {kind} store: it elects a leader and lends no lock"),
                ));
            }
            if l.expiry != Expiry::Observer {
                return Err(err(
                    "lease.expiry",
                    format!("must be \"observer\" on the {kind} store: candidates judge expiry on their own clocks"),
                ));
            }
            if self.resource.fencing {
                return Err(err("resource.fencing", format!("must be false on the {kind} store: it issues no fencing token, so a fenced resource would refuse every write")));
            }
            for (list, items) in [("events", &self.events), ("interventions", &self.interventions)] {
                if let Some(i) = items.iter().position(|e| matches!(e.command, super::Command::SetFencing { on: true }))
                {
                    return Err(err(
                        format!("{list}[{i}].on"),
                        format!("the {kind} store issues no fencing token to check"),
                    ));
                }
            }
        }
        if l.renew_policy == RenewPolicy::Retry && l.renew_every_ms != l.retry_every_ms {
            return Err(err(
                "lease.renew_every_ms",
                format!("must equal lease.retry_every_ms ({} ms) with \"renew_policy\": \"retry\": client-go renews every RetryPeriod", l.retry_every_ms),
            ));
        }
        for (i, node) in self.nodes.iter().enumerate() {
            let Some(own) = node.lease else { continue };
            if l.expiry != Expiry::Observer {
                return Err(err(format!("nodes[{i}].lease"), "needs \"lease.expiry\": \"observer\": only there does each holder write its own duration into the record"));
            }
            if own.duration_ms == 0 || own.duration_ms > MAX_UNTIL_MS {
                return Err(err(format!("nodes[{i}].lease.duration_ms"), "must be between 1 and 86400000 (24 h)"));
            }
            if own.renew_deadline_ms == 0 || own.renew_deadline_ms >= own.duration_ms {
                return Err(err(
                    format!("nodes[{i}].lease.renew_deadline_ms"),
                    format!("must be above 0 and below its duration_ms ({} ms)", own.duration_ms),
                ));
            }
            if u128::from(own.renew_deadline_ms) * 10 <= u128::from(l.retry_every_ms) * 12 {
                return Err(err(
                    format!("nodes[{i}].lease.renew_deadline_ms"),
                    format!(
                        "must be greater than 1.2 × lease.retry_every_ms ({} ms), as client-go requires",
                        l.retry_every_ms
                    ),
                ));
            }
            if rules.ttl_unit_ms > 1 && own.duration_ms % rules.ttl_unit_ms != 0 {
                return Err(err(
                    format!("nodes[{i}].lease.duration_ms"),
                    format!(
                        "must be whole multiples of {} ms: leaseDurationSeconds has no finer unit",
                        rules.ttl_unit_ms
                    ),
                ));
            }
        }
        Ok(())
    }

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
            if node.id == super::command::STORE {
                return Err(err(format!("nodes[{i}].id"), "\"store\" names the store's clock; choose another id"));
            }
            if node.identity.is_empty() || node.identity.len() > 64 || node.identity.chars().any(char::is_control) {
                return Err(err(
                    format!("nodes[{i}].identity"),
                    "must be 1 to 64 characters, none of them control characters",
                ));
            }
            node.clock.check().map_err(|(field, message)| err(format!("nodes[{i}].clock.{field}"), message))?;
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
        if self.work.stops_after_ms > MAX_UNTIL_MS {
            return Err(err("work.stops_after_ms", "is beyond 24 h"));
        }
        if self.work.stops_after_ms > 0 && !self.work.stops_with_lease {
            return Err(err("work.stops_after_ms", "needs work.stops_with_lease true"));
        }
        if let Some(retry) = self.work.retry_after_ms {
            if retry == 0 || retry >= self.work.every_ms {
                return Err(err(
                    "work.retry_after_ms",
                    format!("must be 1 to {} (below work.every_ms)", self.work.every_ms - 1),
                ));
            }
        }
        if l.renew_deadline_ms >= l.duration_ms {
            return Err(err(
                "lease.renew_deadline_ms",
                format!("must be below lease.duration_ms ({} ms), or the old leader could still act after the lease is given away", l.duration_ms),
            ));
        }
        if l.expiry == Expiry::Observer && self.protocol == Protocol::Lease {
            // client-go's NewLeaderElector: LeaseDuration > RenewDeadline > JitterFactor × RetryPeriod.
            if u128::from(l.renew_deadline_ms) * 10 <= u128::from(l.retry_every_ms) * 12 {
                return Err(err(
                    "lease.renew_deadline_ms",
                    format!(
                        "must be greater than 1.2 × lease.retry_every_ms ({} ms), as client-go requires",
                        l.retry_every_ms
                    ),
                ));
            }
        }
        let rules = self.store_kind.rules();
        self.check_profile()?;
        if rules.ttl_unit_ms > 1 || rules.ttl_min_ms > 1 {
            let kind = self.store_kind.code();
            if l.duration_ms % rules.ttl_unit_ms != 0 {
                return Err(err(
                    "lease.duration_ms",
                    format!(
                        "must be whole multiples of {} ms: the {kind} store's TTL has no finer unit",
                        rules.ttl_unit_ms
                    ),
                ));
            }
            if l.duration_ms < rules.ttl_min_ms {
                return Err(err(
                    "lease.duration_ms",
                    format!("must be at least {} ms: the {kind} store raises a shorter TTL to that", rules.ttl_min_ms),
                ));
            }
        }
        if !rules.allows_expiry(l.expiry) {
            let kind = self.store_kind.code();
            return Err(err(
                "lease.expiry",
                format!("\"observer\" needs a store that only compare-and-swaps a record; an {kind} lease is expired by {kind} itself"),
            ));
        }
        self.store_clock.check().map_err(|(field, message)| err(format!("store_clock.{field}"), message))?;
        let name = &self.lock.name;
        if name.is_empty() || name.len() > 32 || !name.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
        {
            return Err(err("lock.name", "must be 1 to 32 characters: ASCII letters, digits, '-', '_', '.', '/'"));
        }
        if let Some(hold) = self.lock.hold_ms {
            if hold == 0 || hold > MAX_UNTIL_MS {
                return Err(err("lock.hold_ms", "must be between 1 and 86400000 (24 h)"));
            }
            if self.protocol != Protocol::Lock {
                return Err(err("lock.hold_ms", "applies to \"protocol\": \"lock\" only"));
            }
        }
        if self.lock.lock_delay_ms > MAX_LOCK_DELAY_MS {
            return Err(err("lock.lock_delay_ms", "must be between 0 and 60000 (Consul's limit: 60 s)"));
        }
        if self.lock.lock_delay_ms > 0 && self.protocol != Protocol::Lock {
            return Err(err("lock.lock_delay_ms", "applies to \"protocol\": \"lock\" only"));
        }
        if self.resource.epoch_barrier && self.resource.equal_token == EqualTokenPolicy::Reject {
            return Err(err(
                "resource.epoch_barrier",
                "needs equal tokens accepted: the barrier raises the mark to the new token, so \"equal_token\": \"reject\" would refuse the new holder's every write",
            ));
        }
        if self.network.latency_min_ms > self.network.latency_max_ms {
            return Err(err("network.latency_ms.min", "must not be above network.latency_ms.max"));
        }
        if self.network.latency_max_ms > 600_000 {
            return Err(err("network.latency_ms.max", "must be at most 600000 (10 minutes)"));
        }
        self.network_faults_check()?;
        self.check_resources()?;
        if self.issuer.first_token == 0 {
            return Err(err("issuer.first_token", "must be at least 1 (0 means \"no token\")"));
        }
        if self.issuer.first_token > u64::MAX / 2 {
            return Err(err("issuer.first_token", "is too large to leave room for later tokens"));
        }
        for (list, items) in [("events", &self.events), ("interventions", &self.interventions)] {
            if let Some(i) = items.iter().position(
                |e| matches!(e.command, super::Command::RollbackIssuer { next_token } if next_token > u64::MAX / 2),
            ) {
                return Err(err(format!("{list}[{i}].next_token"), "is too large to leave room for later tokens"));
            }
        }
        for (list, items) in [("events", &self.events), ("interventions", &self.interventions)] {
            for (i, ev) in items.iter().enumerate() {
                if ev.at_ms > MAX_UNTIL_MS {
                    return Err(err(format!("{list}[{i}].at_ms"), "is beyond 24 h"));
                }
                if let Some(node) = ev.command.node() {
                    if !self.nodes.iter().any(|n| n.id == node) {
                        let (field, hint) = match ev.command {
                            super::Command::ClockJump { .. } | super::Command::ClockRate { .. } => {
                                ("target", " (a clock target is a node id or \"store\")")
                            }
                            _ => ("node", ""),
                        };
                        // A run may have no nodes at all (raw writes only); then say so.
                        let none = if self.nodes.is_empty() { "; `nodes` lists none" } else { "" };
                        return Err(err(
                            format!("{list}[{i}].{field}"),
                            format!("unknown node \"{node}\"{hint}{none}"),
                        ));
                    }
                }
                ev.command.check().map_err(|(field, message)| err(format!("{list}[{i}].{field}"), message))?;
            }
        }
        Ok(())
    }
}
