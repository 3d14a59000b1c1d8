//! Store profiles and client libraries: which real lock store a run's coordinator behaves like
//! (`store.kind` in a scenario), which client library its nodes behave like, and the rules that
//! follow from them, each decided here and nowhere else: the store's in [`StoreKind::rules`]
//! and [`StoreKind::failover`], the client's in [`ClientKind::rules`], who judges expiry in
//! [`StoreRules::judges_expiry`], which client a run has in [`ClientKind::of`].
//!
//! The rules come from the servers themselves, and `cargo xtask conform` replays the built-in
//! scenarios against Debian's `redis-server` 7.0 and `etcd` 3.4 to check them:
//!
//! | rule | Redis 7.0 | etcd 3.4 | Kubernetes Lease (client-go) |
//! |---|---|---|---|
//! | who judges expiry ([`ExpiryJudges`]) | the store; a scenario may have the candidates judge (`lease.expiry`: `observer`; a record compare-and-swapped on its version, `WATCH`/`MULTI`) | the store only (an etcd lease is expired by etcd itself) | each candidate, `observedTime + leaseDurationSeconds` on its own clock; the API server only compare-and-swaps on `resourceVersion` |
//! | a key at its expiry millisecond | still live (`expireIfNeeded`: expired only when `now > when`) | the lease has expired (`Lease.Remaining() <= 0`) | expired (`isLeaseValid`: `observedTime + d` must be *after* now) |
//! | when an expired key goes | at once, lazily, on the next access | at the lessor's next check (every 500 ms, `RevokeExpiredLeases`) | never by itself: a candidate takes the record over |
//! | TTL | any number of ms (`PX`) | whole seconds, at least ceil(1.5 × election timeout) = 2 s by default | `leaseDurationSeconds`: whole seconds |
//! | a renewal checks | the key's value (a compare-and-`PEXPIRE` script) | only the lease (`LeaseKeepAlive` names a lease id, not a key) | the holder, by a compare-and-swap `Update` on `resourceVersion` |
//! | a refused renewal | ends the hold (redis-py `LockNotOwnedError`) | ends the session | is retried every `RetryPeriod` until `RenewDeadline` (`renew()`'s `PollImmediateUntil`) |
//! | fencing token | a per-lock counter (`INCR`), first value chosen | the key's create revision: a global counter bumped by every write, the first is 2 | none (`leaseTransitions` counts holder changes and is not one) |
//! | expiry measured on | the wall clock (`mstime()`: a clock step expires keys) | a monotonic clock (Go's `time.Now` monotonic reading) | the candidate's monotonic clock (`time.Now`, `clock.Since`) |
//! | its client ([`StoreRules::client`]: a scenario's `lease.renew_policy` and `lock.session_check` default to that client's) | redis-py's `Lock` | etcd's `clientv3/concurrency` | client-go's leader election |
//! | a fail-over of the store ([`StoreKind::failover`]) | an asynchronous replica is promoted without the primary's last writes | the new leader's lessor `Promote`s every lease: a full TTL plus the election timeout from the promotion | none: the Lease is an etcd key behind the API server; a leader change loses no committed write, and nothing at the store judges expiry |
//! | **Compare with → Store** ([`StoreKind::compared_with`]) | etcd | Redis | none |
//! | the conformance suite replays it on ([`StoreRules::replayed_on`]) | Redis 7.0 | etcd 3.4 | Redis (only its resource's writes: no API server runs there) |
//! | lock-delay (`lock.lock_delay_ms`) | none: a freed key can be set again at once | none: a revoked lease's key can be created again at once | none |
//!
//! The clients ([`ClientKind::rules`]; election.rs reads the run's row, [`ClientKind::of`]: the
//! store's own client where the store judges expiry, else client-go for a lease and the DynamoDB
//! lock client for a lock):
//!
//! | rule | client-go leader election | etcd `clientv3/concurrency` | redis-py `Lock` | AWS DynamoDB lock client |
//! |---|---|---|---|---|
//! | judges an observed lease expired ([`ObservedExpiry`]) | at `observedTime + leaseDuration` (`isLeaseValid`) | never: etcd expires it | never: Redis expires it | only after it (`now - lookupTime > leaseDuration`, `LockItem.isExpired`) |
//! | waits between acquire attempts | `RetryPeriod` plus up to 1.2 × more (`wait.JitterUntil`, `JitterFactor`) | `retry_every_ms` (a model of `Mutex`'s `waitDeletes`) | `sleep`, fixed (0.1 s by default) | `refreshPeriod`, fixed |
//! | a refused renewal ([`RenewPolicy`]) | retried every `RetryPeriod` until `RenewDeadline` (`renew()`) | ends the session (`Session.Done()`) | ends the hold (`Lock.extend`: `LockNotOwnedError`) | ends the hold (`sendHeartbeat`: "will stop heartbeating") |
//! | a grant that comes back late (`lock.session_check`) | (no locks) | refused: `Mutex.Lock` returns `ErrSessionExpired` (etcd ≥ 3.5) | taken: `Lock.acquire` returns `True`, the lease counted from the reply | the lease counts from before the put |
//!
//! Lock-delay is Consul's (`LockDelay` of a session, 15 s by default, at most 60 s) and Chubby's
//! (Burrows, "The Chubby lock service", 2006, §2.4: up to a minute). Neither Redis nor etcd has
//! it; a scenario that sets it asks what such a store would do, and the conformance suite skips
//! its store side.

use serde::{Deserialize, Serialize};

use super::config::{Expiry, Protocol};

/// What the lock store is (`store.kind`; default [`StoreKind::Redis`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoreKind {
    /// Redis 7.0: `SET key value NX PX ttl`, renewal by a compare-and-`PEXPIRE` script, tokens
    /// from `INCR` on a per-lock counter. Under the lease protocol the same key is taken again
    /// by its holder (a compare-and-`PEXPIRE` script again); under observer expiry it holds a
    /// record that clients compare-and-swap on its version (`WATCH`/`MULTI`), with no TTL.
    #[default]
    Redis,
    /// etcd 3.4: a key attached to a lease (`Txn` on `create_revision == 0`, `Put` with the
    /// lease id), renewed by `LeaseKeepAlive`, tokens from the key's create revision.
    Etcd,
    /// A Kubernetes `coordination.k8s.io/v1` Lease driven by client-go's leader election: the
    /// API server stores the record and compare-and-swaps on its `resourceVersion`; candidates
    /// judge expiry on their own monotonic clocks; the leader renews every `RetryPeriod` and
    /// retries a failed renewal until `RenewDeadline`; no fencing token exists
    /// (`leaderelection` package doc: "does not guarantee that only one client is acting as a
    /// leader (a.k.a. fencing)").
    Kubernetes,
}

/// Where fencing tokens come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenSource {
    /// A counter of this lock's own: each new term takes the next integer (Redis `INCR`,
    /// Chubby's lock generation number).
    Counter,
    /// The store's revision: one counter for every write to the store (the lock's keys, the
    /// resource's own keys, deletes by expiry), so a term's token is larger than the last but
    /// not by one (etcd's `create_revision`).
    Revision,
    /// No fencing token at all (a Kubernetes Lease). LeaseLab still numbers the terms, so that
    /// the oracle can tell a deposed leader's write, but nothing in the system carries that
    /// number: a resource cannot check it, so `resource.fencing` must be off.
    None,
}

/// A profile's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct StoreRules {
    /// Whether a key is still live at the very millisecond its TTL runs out (Redis: yes).
    pub live_at_expiry_ms: bool,
    /// How often the store looks for expired leases and deletes their keys, in ms of its own
    /// clock; `None` when an expired key is gone at once (Redis' lazy expiry on access). The
    /// checks' phase is drawn from the run's seed ([`lessor_phase_ms`]).
    pub expiry_check_every_ms: Option<u64>,
    /// TTLs are whole multiples of this, in ms (etcd's TTL is in seconds).
    pub ttl_unit_ms: u64,
    /// The shortest TTL, in ms (etcd: ceil(1.5 × the 1 s default election timeout)).
    pub ttl_min_ms: u64,
    /// Whether a renewal checks that the renewer still owns the key (Redis' compare-and-
    /// `PEXPIRE`) or only keeps its lease alive (etcd's keepalive: after a plain `DEL` removed
    /// the key, the keepalives still succeed and the holder never learns).
    pub renew_checks_owner: bool,
    pub tokens: TokenSource,
    /// The first token, when the store fixes it (etcd: the first write of a fresh store is
    /// revision 2); `None` when the scenario chooses (`issuer.first_token`).
    pub first_token: Option<u64>,
    /// Whether the store's expiry follows its wall clock, so that stepping it expires keys
    /// (redis/redis#416), or a monotonic clock that a step does not move (etcd).
    pub expiry_on_wall_clock: bool,
    /// Who may judge expiry on this store: the store alone (etcd), the store unless the scenario
    /// has the candidates judge (Redis), or the candidates alone (a Kubernetes Lease). Whether the
    /// store judges in a given run is decided by [`StoreRules::judges_expiry`].
    pub expiry_judges: ExpiryJudges,
    /// The client library usually run against this store ([`ClientKind`]): a scenario's
    /// `lease.renew_policy` and `lock.session_check` default to its row of [`ClientKind::rules`]
    /// (redis-py's `Lock` on Redis, etcd's `concurrency` package on etcd, client-go on a Kubernetes
    /// Lease), whichever client the run's nodes then behave like ([`ClientKind::of`]).
    pub client: ClientKind,
    /// The store profile whose real server `cargo xtask conform` replays this profile's runs on
    /// (`conform/src/plan.rs`, `profile_of`): its own where one runs there (Redis 7.0, etcd
    /// 3.4). A Kubernetes Lease's runs go to Redis: no API server runs there, the Lease's store
    /// side is never replayed (the candidates judge expiry on their own clocks), and its
    /// resource's writes go to the Redis fence like any other.
    pub replayed_on: StoreKind,
    /// Which clock the nodes' timers run on by default (`nodes[i].timers`): monotonic on a
    /// Kubernetes Lease (client-go measures on Go's monotonic clock), the wall clock on Redis and
    /// etcd (a scenario on etcd that wants its Go client's monotonic clock says so).
    pub node_timers: TimerClock,
}

/// What a leader does when a renewal is refused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RenewPolicy {
    /// The first refusal ends the leadership at once; renewals go every `lease.renew_every_ms`
    /// and the hold ends `renew_deadline_ms` after the last confirmed send. A Redis lock's
    /// extend failing (redis-py `LockNotOwnedError`), an etcd session's keepalive stream ending,
    /// and the Consul client of hashicorp/consul#912, which gave up on the first error.
    #[default]
    GiveUp,
    /// client-go's `renew()`: every `RetryPeriod` a round starts with an immediate try and
    /// retries every `RetryPeriod` until `RenewDeadline` from the round's start; a refusal is one
    /// failed try, not the end (the node goes on believing it leads, and working, until the
    /// deadline: kubernetes/kubernetes#23731). So the leader gives up at most
    /// `RetryPeriod + RenewDeadline` after its last good renewal (12 s with the defaults).
    Retry,
}

/// Which clock a node's timers, renew deadline and observed expiry run on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimerClock {
    /// The wall clock: a `clock_jump` moves every timer (a client measuring with
    /// `gettimeofday`, as the original Redlock implementation did).
    #[default]
    Wall,
    /// A monotonic clock: a `clock_jump` changes what the wall clock reads and nothing else; a
    /// `clock_rate` still bends it (client-go and etcd's Go client use Go's monotonic reading).
    Monotonic,
}

/// The client library a run's nodes behave like. Its rules are one row of [`ClientKind::rules`],
/// the client's table beside the store's ([`StoreKind::rules`]); which row a run has is decided by
/// [`ClientKind::of`], from its store and who judges expiry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientKind {
    /// client-go's leader election over a Kubernetes Lease (`k8s.io/client-go/tools/leaderelection`,
    /// `leaderelection.go`: `LeaderElector.acquire`, `renew`, `tryAcquireOrRenew`): each candidate
    /// judges expiry on its own clock from when it saw the record change, retries every
    /// `RetryPeriod` with jitter, and the leader retries a refused renewal until `RenewDeadline`.
    ClientGo,
    /// etcd's `clientv3/concurrency` package: a `Session` whose lease a keepalive stream renews,
    /// and a `Mutex` (or `Election`) on a key attached to that lease; etcd expires the lease.
    EtcdConcurrency,
    /// redis-py's `Lock` (`redis/lock.py`): `SET key token NX PX ttl` to acquire, a
    /// compare-and-`PEXPIRE` script to extend, a compare-and-delete script to release; Redis
    /// expires the key.
    RedisPy,
    /// The AWS DynamoDB lock client (awslabs/amazon-dynamodb-lock-client,
    /// `AmazonDynamoDBLockClient`): a borrower that finds the lock held waits the item's lease
    /// duration on its own clock from that first read, then takes the lock with a put conditional
    /// on the record version number (RVN) it read, which every heartbeat changes; a free or
    /// released lock is taken at once; a release is a delete conditional on the owner's RVN. Under
    /// `"protocol": "lock"` with `lease.expiry` `observer`.
    DynamoDbLockClient,
}

/// A client library's rules: one row of [`ClientKind::rules`]. `election.rs` reads the row of
/// the run's client ([`Config::client`](super::Config::client)) and nothing else about clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ClientRules {
    /// How the client judges a lease it observed expired, on its own clock from when it saw the
    /// record change; `None` for a client whose store judges expiry (it never watches the
    /// record, and asks for the lease only as the store allows).
    pub observed_expiry: Option<ObservedExpiry>,
    /// How much longer than `lease.retry_every_ms` a candidate may wait between acquire
    /// attempts, in tenths of that period: each wait is the period plus a draw, from the run's one
    /// PRNG, of 0 up to this many tenths of it (client-go's `JitterFactor` 1.2: 12). 0: exactly
    /// the period, and nothing is drawn.
    pub retry_jitter_tenths: u64,
    /// What the client does with a refused renewal. A scenario's `lease.renew_policy` defaults to
    /// that of its store's client ([`StoreRules::client`]).
    pub renewal: RenewPolicy,
    /// Whether the client counts its lease from its request's send and refuses a grant that
    /// reaches it after that lease already ran out (`lock.session_check`, lock protocol only);
    /// otherwise it counts from the reply. A scenario's `lock.session_check` defaults to that of
    /// its store's client.
    pub session_check: bool,
}

/// How a client compares the end of a lease it observed with its own clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ObservedExpiry {
    /// Expired once `observedTime + leaseDuration` is no longer after now (client-go
    /// `isLeaseValid`: `observedTime.Add(leaseDuration).After(now)`).
    AtTheEnd,
    /// Expired only once strictly more than `leaseDuration` has passed since the read (the
    /// DynamoDB lock client's `LockItem.isExpired`: `now - lookupTime > leaseDuration`): a
    /// millisecond later than client-go.
    AfterTheEnd,
}

impl ObservedExpiry {
    /// Whether the lease in `observation` has expired when the observer's clock reads
    /// `local_ms` (ms of its clock), by this rule.
    pub fn expired(self, observation: &super::node::Observation, local_ms: i64) -> bool {
        match self {
            ObservedExpiry::AtTheEnd => observation.expired(local_ms),
            ObservedExpiry::AfterTheEnd => observation.expired(local_ms.saturating_sub(1)),
        }
    }
}

impl ClientKind {
    /// The client a run's nodes behave like, the one place it is decided: where the candidates
    /// judge expiry (`store_judges_expiry` false, from [`StoreRules::judges_expiry`]), client-go's
    /// leader election under the lease protocol and the DynamoDB lock client under the lock
    /// protocol; where the store judges, the store's own client ([`StoreRules::client`]).
    pub fn of(store: StoreKind, protocol: Protocol, store_judges_expiry: bool) -> ClientKind {
        match (store_judges_expiry, protocol) {
            (true, _) => store.rules().client,
            (false, Protocol::Lease) => ClientKind::ClientGo,
            (false, Protocol::Lock) => ClientKind::DynamoDbLockClient,
        }
    }

    /// The client's rules (see the second table in this module's documentation).
    pub fn rules(self) -> ClientRules {
        match self {
            // client-go `leaderelection.go`: `acquire()` retries `tryAcquireOrRenew` with
            // `wait.JitterUntil(..., RetryPeriod, JitterFactor /* 1.2 */, true, ...)`; `renew()`
            // runs `wait.Until` every `RetryPeriod` of a `wait.PollImmediateUntil(RetryPeriod,
            // tryAcquireOrRenew, RenewDeadline)` round; candidates judge with `isLeaseValid`. It
            // takes no locks, so it has no session to check.
            ClientKind::ClientGo => ClientRules {
                observed_expiry: Some(ObservedExpiry::AtTheEnd),
                retry_jitter_tenths: 12,
                renewal: RenewPolicy::Retry,
                session_check: false,
            },
            // etcd `clientv3/concurrency`: etcd's lessor expires the session's lease; a `Mutex`
            // waits for the keys ahead of it to go (`waitDeletes`), which LeaseLab models as an
            // acquire every `retry_every_ms`, without jitter; the session ends when its keepalive
            // stream does (`Session.Done()`); `Mutex.Lock` returns `ErrSessionExpired` for a grant
            // reaching a session whose lease ran out (etcd ≥ 3.5, etcd-io/etcd#11456).
            ClientKind::EtcdConcurrency => ClientRules {
                observed_expiry: None,
                retry_jitter_tenths: 0,
                renewal: RenewPolicy::GiveUp,
                session_check: true,
            },
            // redis-py `redis/lock.py`: Redis expires the key (`PX`); `Lock.acquire` sleeps a
            // fixed `sleep` (0.1 s by default) between tries; `Lock.extend` raises
            // `LockNotOwnedError` once the key is no longer its token; `acquire` returns `True`
            // however late the `SET NX` reply came.
            ClientKind::RedisPy => ClientRules {
                observed_expiry: None,
                retry_jitter_tenths: 0,
                renewal: RenewPolicy::GiveUp,
                session_check: false,
            },
            // awslabs/amazon-dynamodb-lock-client `AmazonDynamoDBLockClient.java`: `acquireLock`
            // waits the lease duration from its first read, judged by `LockItem.isExpired`, and
            // sleeps exactly `refreshPeriod` between tries; a heartbeat whose conditional update
            // fails "will stop heartbeating" the lock (`sendHeartbeat`); the lease counts from a
            // clock read taken before the put (`putLockItemAndStartSessionMonitor`). No store
            // profile here is DynamoDB, so its `renewal` and `session_check` are never a
            // scenario's defaults.
            ClientKind::DynamoDbLockClient => ClientRules {
                observed_expiry: Some(ObservedExpiry::AfterTheEnd),
                retry_jitter_tenths: 0,
                renewal: RenewPolicy::GiveUp,
                session_check: true,
            },
        }
    }
}

impl ClientRules {
    /// How long a candidate waits, in ms of its clock, before asking for the lease again after
    /// asking now: `retry_every_ms` plus, where the client jitters, a draw from `rng`.
    pub fn retry_wait_ms(&self, retry_every_ms: u64, rng: &mut super::rng::Rng) -> u64 {
        if self.retry_jitter_tenths == 0 {
            return retry_every_ms;
        }
        let most = retry_every_ms.saturating_mul(self.retry_jitter_tenths) / 10;
        retry_every_ms.saturating_add(rng.range_inclusive(0, most))
    }
}

impl StoreKind {
    /// The name a scenario uses (`"redis"`, `"etcd"`, `"kubernetes"`).
    pub fn code(self) -> &'static str {
        match self {
            StoreKind::Redis => "redis",
            StoreKind::Etcd => "etcd",
            StoreKind::Kubernetes => "kubernetes",
        }
    }

    /// Every profile, in the order the page lists them.
    pub const ALL: [StoreKind; 3] = [StoreKind::Redis, StoreKind::Etcd, StoreKind::Kubernetes];

    /// The profile's rules (see the table in this module's documentation).
    pub fn rules(self) -> StoreRules {
        match self {
            StoreKind::Redis => StoreRules {
                live_at_expiry_ms: true,
                expiry_check_every_ms: None,
                ttl_unit_ms: 1,
                ttl_min_ms: 1,
                renew_checks_owner: true,
                tokens: TokenSource::Counter,
                first_token: None,
                expiry_on_wall_clock: true,
                expiry_judges: ExpiryJudges::StoreOrCandidates,
                client: ClientKind::RedisPy,
                replayed_on: StoreKind::Redis,
                node_timers: TimerClock::Wall,
            },
            StoreKind::Etcd => StoreRules {
                live_at_expiry_ms: false,
                expiry_check_every_ms: Some(ETCD_LESSOR_CHECK_MS),
                ttl_unit_ms: 1_000,
                ttl_min_ms: 2_000,
                renew_checks_owner: false,
                tokens: TokenSource::Revision,
                first_token: Some(2),
                expiry_on_wall_clock: false,
                expiry_judges: ExpiryJudges::Store,
                client: ClientKind::EtcdConcurrency,
                replayed_on: StoreKind::Etcd,
                node_timers: TimerClock::Wall,
            },
            StoreKind::Kubernetes => StoreRules {
                live_at_expiry_ms: false,
                expiry_check_every_ms: None,
                ttl_unit_ms: 1_000,
                ttl_min_ms: 1_000,
                renew_checks_owner: true,
                tokens: TokenSource::None,
                first_token: None,
                expiry_on_wall_clock: false,
                expiry_judges: ExpiryJudges::Candidates,
                client: ClientKind::ClientGo,
                replayed_on: StoreKind::Redis,
                node_timers: TimerClock::Monotonic,
            },
        }
    }
}

/// Who may judge a lease's expiry on a store ([`StoreRules::expiry_judges`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExpiryJudges {
    /// Only the store, on its own clock: an etcd lease is expired by etcd itself (its lessor), so
    /// `lease.expiry` must be `coordinator`.
    Store,
    /// The store, on its own clock (a key's TTL, `PX`), unless the scenario has the candidates
    /// judge (`lease.expiry`: `observer`): then the store keeps a record with no TTL that
    /// clients compare-and-swap on its version (Redis `WATCH`/`MULTI`).
    StoreOrCandidates,
    /// Only the candidates, each on its own clock from when it saw the record change: the
    /// Kubernetes API server stores a Lease and compare-and-swaps on its `resourceVersion`, and
    /// never expires it (client-go `leaderelection.go`, `tryAcquireOrRenew`); `lease.expiry` must
    /// be `observer`.
    Candidates,
}

/// The two stores **Compare with → Store** flips a run between ([`StoreKind::compared_with`]),
/// in the order the compare bar names a run's side: a run on the second has the setting on
/// (`compare::Setting::is_on`). The flip is offered only where the run is valid on both (etcd's
/// TTLs are whole seconds, at least 2 s, and it judges expiry itself). A Kubernetes Lease has no
/// counterpart: on it the candidates judge expiry, which etcd refuses and Redis models with
/// another client.
pub const COMPARED_STORES: [StoreKind; 2] = [StoreKind::Redis, StoreKind::Etcd];

impl StoreKind {
    /// The store a comparison flips a run on this store to: the other of [`COMPARED_STORES`];
    /// `None` for a store that is not one of them.
    pub fn compared_with(self) -> Option<StoreKind> {
        match self {
            k if k == COMPARED_STORES[0] => Some(COMPARED_STORES[1]),
            k if k == COMPARED_STORES[1] => Some(COMPARED_STORES[0]),
            _ => None,
        }
    }
}

impl StoreRules {
    /// Who judges expiry when a scenario's `lease.expiry` does not say: the store, where it can
    /// (Redis's TTL, etcd's lease); otherwise the candidates, each on its own clock from when it
    /// saw the record change (client-go's `LeaderElector` over a Kubernetes `Lease`, whose API
    /// server never expires it).
    pub fn expiry(&self) -> Expiry {
        match self.expiry_judges {
            ExpiryJudges::Store | ExpiryJudges::StoreOrCandidates => Expiry::Coordinator,
            ExpiryJudges::Candidates => Expiry::Observer,
        }
    }

    /// Whether a run's `lease.expiry` setting is one this store allows ([`Config::check`]
    /// refuses any other).
    ///
    /// [`Config::check`]: super::Config::check
    pub fn allows_expiry(&self, expiry: Expiry) -> bool {
        match self.expiry_judges {
            ExpiryJudges::Store => expiry == Expiry::Coordinator,
            ExpiryJudges::StoreOrCandidates => true,
            ExpiryJudges::Candidates => expiry == Expiry::Observer,
        }
    }

    /// Whether the store judges expiry on its own clock in a run whose `lease.expiry` is `expiry`:
    /// the one place this is decided. Everything else asks here, through
    /// [`Config::store_judges_expiry`](super::Config::store_judges_expiry),
    /// [`Sim::store_judges_expiry`](super::Sim::store_judges_expiry) or
    /// [`Coordinator::judges_expiry`](super::coordinator::Coordinator::judges_expiry): the store's
    /// answers to acquire and renew, its expiry checks, the invariants, the snapshot's liveness and
    /// `expiry`, which client the nodes run, and the space-time diagram. `false` means the
    /// candidates judge it on their own clocks (client-go's observer expiry; under the lock
    /// protocol, the DynamoDB lock client's) and the store only compare-and-swaps on the record's
    /// version.
    pub fn judges_expiry(&self, expiry: Expiry) -> bool {
        expiry == Expiry::Coordinator && self.expiry_judges != ExpiryJudges::Candidates
    }

    /// Whether the store issues fencing tokens at all.
    pub fn issues_tokens(&self) -> bool {
        self.tokens != TokenSource::None
    }
}

/// What happens to the lock store's state when its primary (leader) fails and another server
/// takes over (`{"do": "store_failover"}`), decided for each profile in [`StoreKind::failover`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailoverRule {
    /// Every write survives (Raft commits a write on a quorum before it is applied), and the new
    /// leader's lessor refreshes every lease: each expires `extend_ms` plus its full TTL after
    /// the promotion, whatever it had left. etcd 3.4 `lease/lessor.go` `Promote(extend)` calls
    /// `l.refresh(extend)`, which sets `expiry = now + extend + RemainingTTL()`, and
    /// `RemainingTTL()` is the whole TTL unless a checkpoint recorded less (lease checkpoints are
    /// off by default in 3.4, `--experimental-enable-lease-checkpoint`); `etcdserver/server.go`
    /// `applyEntryNormal` calls `s.lessor.Promote(s.Cfg.electionTimeout())` on the new leader's
    /// first empty entry of its term. So a crashed holder's lock outlives its TTL: safety is kept,
    /// rivals wait longer.
    PromoteLeases {
        /// The extension, in ms: the election timeout (etcd's default `--election-timeout`
        /// 1000 ms).
        extend_ms: u64,
    },
    /// Replication is asynchronous: the promoted replica has the primary's writes only up to
    /// `lag_ms` before the failure (the command's parameter); a lock key just set with `SET NX`,
    /// and the `INCR` of the token counter with it, may be lost, so a second client acquires the
    /// same lock, possibly with the same token. Redis docs, "Redis replication" ("Redis uses by
    /// default asynchronous replication"; `WAIT` "does not make Redis a strongly consistent
    /// store"); Kleppmann, "How to do distributed locking" (2016).
    AsyncReplica,
    /// Every write survives and nothing at the store judges expiry: a Kubernetes Lease is a key
    /// in an etcd cluster behind the API server, whose leader change loses no committed write;
    /// client-go measures the lease on the candidates' own clocks, which a fail-over does not
    /// touch.
    Durable,
}

/// etcd's default election timeout, in ms (`--election-timeout`): what a new leader's lessor
/// adds to every lease when it promotes them ([`FailoverRule::PromoteLeases`]).
pub const ETCD_ELECTION_TIMEOUT_MS: u64 = 1_000;

/// The longest replication lag a `store_failover` may name, in ms (1 min).
pub const MAX_FAILOVER_LAG_MS: u64 = 60_000;

impl StoreKind {
    /// What a fail-over of this store does to its locks (see [`FailoverRule`]).
    pub fn failover(self) -> FailoverRule {
        match self {
            StoreKind::Redis => FailoverRule::AsyncReplica,
            StoreKind::Etcd => FailoverRule::PromoteLeases { extend_ms: ETCD_ELECTION_TIMEOUT_MS },
            StoreKind::Kubernetes => FailoverRule::Durable,
        }
    }
}

/// etcd's lessor looks for expired leases every 500 ms (`lessor.runLoop`).
pub const ETCD_LESSOR_CHECK_MS: u64 = 500;

/// The phase of a store's periodic expiry check, in ms (0 ≤ phase < `every_ms`): where in its
/// period the store's clock stood when the store started. Drawn from the run's seed, but not from
/// the run's own random stream, so that a profile without periodic checks (and every run made
/// before profiles existed) draws the same latencies as before.
pub fn lessor_phase_ms(seed: u64, every_ms: u64) -> u64 {
    let mut rng = super::rng::Rng::new(seed ^ 0x6c65_7373_6f72_2121);
    rng.range_inclusive(0, every_ms.saturating_sub(1))
}

/// The first time at or after `from_ms` at which a periodic check with this period and phase
/// runs, on the same clock as `from_ms`.
pub fn next_check_ms(from_ms: i64, every_ms: u64, phase_ms: u64) -> i64 {
    let every = i64::try_from(every_ms.max(1)).unwrap_or(i64::MAX);
    let phase = i64::try_from(phase_ms).unwrap_or(0);
    let k = (from_ms.saturating_sub(phase)).div_euclid(every);
    let at = phase.saturating_add(k.saturating_mul(every));
    if at >= from_ms {
        at
    } else {
        at.saturating_add(every)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lessor_checks_on_its_grid_at_or_after_a_moment() {
        assert_eq!(next_check_ms(15_000, 500, 120), 15_120);
        assert_eq!(next_check_ms(15_120, 500, 120), 15_120, "a check at the very moment counts");
        assert_eq!(next_check_ms(15_121, 500, 120), 15_620);
        assert_eq!(next_check_ms(-30, 500, 120), 120);
        assert_eq!(next_check_ms(-400, 500, 120), -380);
    }

    #[test]
    fn a_run_has_its_stores_client_unless_the_candidates_judge_expiry() {
        for store in StoreKind::ALL {
            assert_eq!(ClientKind::of(store, Protocol::Lease, true), store.rules().client);
            assert_eq!(ClientKind::of(store, Protocol::Lock, true), store.rules().client);
            assert_eq!(ClientKind::of(store, Protocol::Lease, false), ClientKind::ClientGo);
            assert_eq!(ClientKind::of(store, Protocol::Lock, false), ClientKind::DynamoDbLockClient);
        }
        let defaults = |k: StoreKind| (k.rules().client.rules().renewal, k.rules().client.rules().session_check);
        assert_eq!(defaults(StoreKind::Redis), (RenewPolicy::GiveUp, false), "redis-py");
        assert_eq!(defaults(StoreKind::Etcd), (RenewPolicy::GiveUp, true), "etcd's Mutex");
        assert_eq!(defaults(StoreKind::Kubernetes), (RenewPolicy::Retry, false), "client-go");
    }

    #[test]
    fn only_client_go_jitters_its_retries_by_up_to_one_point_two_periods() {
        let mut rng = crate::engine::rng::Rng::new(7);
        let go = ClientKind::ClientGo.rules();
        let waits: Vec<u64> = (0..500).map(|_| go.retry_wait_ms(2_000, &mut rng)).collect();
        assert!(waits.iter().all(|w| (2_000..=4_400).contains(w)));
        assert!(waits.iter().any(|w| *w > 4_000), "up to RetryPeriod × (1 + 1.2)");
        for client in [ClientKind::EtcdConcurrency, ClientKind::RedisPy, ClientKind::DynamoDbLockClient] {
            let before = rng.clone();
            assert_eq!(client.rules().retry_wait_ms(2_000, &mut rng), 2_000, "{client:?}");
            assert_eq!(rng, before, "{client:?} draws nothing");
        }
    }

    #[test]
    fn who_may_judge_expiry_decides_whether_the_store_does() {
        let [redis, etcd, k8s] = StoreKind::ALL.map(StoreKind::rules);
        assert!(redis.judges_expiry(Expiry::Coordinator) && !redis.judges_expiry(Expiry::Observer));
        assert!(etcd.judges_expiry(Expiry::Coordinator) && !etcd.allows_expiry(Expiry::Observer));
        assert!(!k8s.judges_expiry(Expiry::Observer) && !k8s.allows_expiry(Expiry::Coordinator));
        assert_eq!(
            [redis.expiry(), etcd.expiry(), k8s.expiry()],
            [Expiry::Coordinator, Expiry::Coordinator, Expiry::Observer]
        );
    }

    #[test]
    fn the_phase_comes_from_the_seed_and_stays_in_its_period() {
        let phases: Vec<u64> = (0..200).map(|s| lessor_phase_ms(s, 500)).collect();
        assert!(phases.iter().all(|p| *p < 500));
        assert_eq!(lessor_phase_ms(7, 500), lessor_phase_ms(7, 500));
        assert!(phases.iter().any(|p| *p != phases[0]), "different seeds give different phases");
    }
}
