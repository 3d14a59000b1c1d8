//! The lock store ([`Store`]): the coordinator (the Lease record and the token issuer,
//! [`coordinator`](super::coordinator)), the clock its expiry is measured on, and what it keeps for
//! itself (the phase of its periodic expiry checks, the expiry it has reported, its recent states
//! for a fail-over), as one value; and the store's side of the protocol, answering acquire, renew
//! and release requests on its own clock and checking expiry when it scheduled itself to.

use std::collections::VecDeque;

use super::clock::Clock;
use super::coordinator::{AcquireResult, Coordinator, StoreNow};
use super::network::{Body, Record};
use super::profile::FailoverRule;
use super::{profile, Config, Item, Protocol, ReleaseOutcome, Sim, TraceEvent, Violation};

/// The lock store of a run, with all of its state: cloned with the [`Sim`] (a timeline's
/// checkpoints), and like it deterministic. Its rules are its profile's
/// ([`Coordinator::rules`], from [`profile::StoreKind::rules`]).
#[derive(Clone, Debug, Hash)]
pub(super) struct Store {
    /// The Lease or lock record and the fencing-token issuer.
    pub(super) coordinator: Coordinator,
    /// The store's own clock: the one its expiry is measured on (a monotonic one under etcd,
    /// which a step of the wall clock does not move).
    clock: Clock,
    /// Steps of the store's wall clock its expiry does not follow (etcd), in ms: shown with the
    /// store's clock, never used for expiry.
    wall_shift_ms: i64,
    /// Where the store deletes expired keys at periodic checks (etcd's lessor), the checks'
    /// phase on its clock, in ms ([`profile::lessor_phase_ms`]); 0 otherwise.
    expiry_check_phase_ms: u64,
    /// The `renewTime` (true ms) whose expiry was already reported, so it is reported once.
    expiry_reported_for: Option<u64>,
    /// The store's recent states, each with the true ms it began, oldest first: what an
    /// asynchronous replica may still have when it is promoted
    /// ([`Command::StoreFailover`](super::Command::StoreFailover)); kept for
    /// [`profile::MAX_FAILOVER_LAG_MS`].
    history: VecDeque<(u64, Coordinator)>,
    /// Whether `history` is kept: only a fail-over to an asynchronous replica reads it (Redis,
    /// [`FailoverRule::AsyncReplica`]), and a search that knows no fail-over can come drops it
    /// ([`Store::forget_history`]).
    keeps_history: bool,
}

impl Store {
    /// The store of a run of `config` (a checked one), before anything was written to it.
    pub(super) fn new(config: &Config) -> Self {
        let coordinator = Self::fresh_record(config);
        let expiry_check_phase_ms =
            coordinator.rules.expiry_check_every_ms.map_or(0, |every| profile::lessor_phase_ms(config.seed, every));
        Self {
            coordinator,
            clock: Clock::new(config.store_clock),
            wall_shift_ms: 0,
            expiry_check_phase_ms,
            expiry_reported_for: None,
            history: VecDeque::new(),
            keeps_history: matches!(config.store_kind.failover(), FailoverRule::AsyncReplica),
        }
    }

    /// The record of a run of `config` before anything was written to it: the profile's rules,
    /// the run's `lease.expiry`, the lease's duration and first token; re-entrant under the lease
    /// protocol (a Redis `SET NX` refuses even its own holder); the lock's lock-delay.
    fn fresh_record(config: &Config) -> Coordinator {
        let mut c = Coordinator::with_profile(config.lease.duration_ms, config.issuer.first_token, config.store_kind);
        c.expiry = config.lease.expiry;
        c.reentrant = config.protocol == Protocol::Lease;
        c.lock_delay_ms = config.lock.lock_delay_ms;
        c
    }

    /// What the store's clock reads at true time `true_ms`, in ms: what its expiry is measured on.
    pub(super) fn clock_ms(&self, true_ms: u64) -> i64 {
        self.clock.read(true_ms)
    }

    /// What the store's wall clock shows at true time `true_ms`, in ms: its clock plus the wall
    /// steps its expiry does not follow (etcd). For the snapshot and the trace, never for expiry.
    pub(super) fn shown_clock_ms(&self, true_ms: u64) -> i64 {
        self.clock.read(true_ms).saturating_add(self.wall_shift_ms)
    }

    /// The first true time, no earlier than `now_ms`, at which the store's clock reads `local_ms`.
    pub(super) fn when_reads(&self, local_ms: i64, now_ms: u64) -> u64 {
        self.clock.when_reads(local_ms, now_ms)
    }

    /// The moment as the store handles a request at true time `now_ms`: true time and its own
    /// clock's reading.
    pub(super) fn now(&self, now_ms: u64) -> StoreNow {
        StoreNow { true_ms: now_ms, local_ms: self.clock.read(now_ms) }
    }

    /// When the lease as the record stands runs out, in true ms, seen at true time `now_ms`;
    /// `None` while nobody holds it. The one rule for the lease's expiry time: the trace (a
    /// grant's, a renewal's, a refusal's `expires_ms`), the store's own expiry check and the
    /// snapshot all read it.
    ///
    /// Where the store judges expiry: `renewTime + leaseDuration` on the store's clock
    /// ([`Coordinator::expires_local_ms`]), at the first true time, no earlier than now, at which
    /// the store's clock reads it, so a lease already past it (a forward jump of the store's
    /// clock) is due now. Under observer expiry, where nobody acts on it: `renewTime +
    /// leaseDuration` on true time, for display only.
    pub(super) fn lease_expires_ms(&self, now_ms: u64) -> Option<u64> {
        let c = &self.coordinator;
        if c.judges_expiry() {
            c.expires_local_ms().map(|e| self.clock.when_reads(e, now_ms))
        } else {
            c.holder.as_ref().and(c.renew_time_ms).map(|t| t.saturating_add(c.duration_ms))
        }
    }

    /// When a lease that has already run out by true time `now_ms` ended, in true ms:
    /// `renewTime + leaseDuration` on true time, or now if a step of the store's clock ended it
    /// sooner.
    pub(super) fn lease_ended_ms(&self, now_ms: u64) -> u64 {
        let c = &self.coordinator;
        c.renew_time_ms.unwrap_or(now_ms).saturating_add(c.duration_ms).min(now_ms)
    }

    /// The token of the lease live on the store's clock at true time `now_ms`, where the store
    /// judges expiry; `None` when no lease is live or the store does not judge (the invariants'
    /// "one holder at a time").
    pub(super) fn live_token(&self, now_ms: u64) -> Option<u64> {
        let c = &self.coordinator;
        c.token.filter(|_| c.judges_expiry() && c.is_live(self.clock.read(now_ms)))
    }

    /// Where the store judges expiry, when to check the lease again once it has run out, as
    /// `(true ms, renewTime of the term checked)`: on Redis at the first millisecond of its clock
    /// past the TTL (an expired key is gone at once); on etcd at the lessor's first check at or
    /// after the TTL's end, which deletes the key. `None` when nothing is to be checked.
    pub(super) fn next_expiry_check(&self, now_ms: u64) -> Option<(u64, u64)> {
        let c = &self.coordinator;
        if !c.judges_expiry() {
            return None;
        }
        let (Some(expired_from), Some(renew_time_ms)) = (c.expired_from_local_ms(), c.renew_time_ms) else {
            return None;
        };
        let at_local = match c.rules.expiry_check_every_ms {
            Some(every) => profile::next_check_ms(expired_from, every, self.expiry_check_phase_ms),
            None => expired_from,
        };
        Some((self.clock.when_reads(at_local, now_ms), renew_time_ms))
    }

    /// A scheduled expiry check at true time `now_ms`: once the store's clock has passed the
    /// expiry of the term renewed at `renew_time_ms` (and nobody renewed it since), the expiry is
    /// due to be reported, once: returns its holder and token. Where the store deletes expired
    /// keys itself (etcd's lessor), the check deletes the key, which takes a revision.
    pub(super) fn check_expiry(&mut self, now_ms: u64, renew_time_ms: u64) -> Option<(String, u64)> {
        let local_ms = self.clock.read(now_ms);
        let c = &self.coordinator;
        if c.renew_time_ms != Some(renew_time_ms)
            || c.lease_live(local_ms)
            || self.expiry_reported_for == Some(renew_time_ms)
        {
            return None;
        }
        let (Some(holder), Some(token)) = (c.holder.clone(), c.token) else { return None };
        self.expiry_reported_for = Some(renew_time_ms);
        if self.coordinator.rules.expiry_check_every_ms.is_some() {
            self.coordinator.invalidate(local_ms);
        }
        Some((holder, token))
    }

    /// The operator revokes the lease at true time `now_ms` (its session invalidated): the
    /// holder's name is struck and the lock-delay starts. Returns the identity struck.
    pub(super) fn revoke(&mut self, now_ms: u64) -> Option<String> {
        let local_ms = self.clock.read(now_ms);
        self.coordinator.invalidate(local_ms)
    }

    /// The store's wall clock steps by `by_ms` at true time `now_ms`; returns what it then shows.
    /// Where expiry follows the wall clock (Redis' `mstime()`), the step moves expiry too
    /// (redis/redis#416); where it follows a monotonic clock (etcd), only what the wall shows.
    pub(super) fn jump_clock(&mut self, by_ms: i64, now_ms: u64) -> i64 {
        if self.coordinator.rules.expiry_on_wall_clock {
            self.clock.jump(by_ms, now_ms);
        } else {
            self.wall_shift_ms = self.wall_shift_ms.saturating_add(by_ms);
        }
        self.shown_clock_ms(now_ms)
    }

    /// The store's clock runs at `rate_ppm` from true time `now_ms` on.
    pub(super) fn set_clock_rate(&mut self, rate_ppm: u64, now_ms: u64) {
        self.clock.set_rate(rate_ppm, now_ms);
    }

    /// Remembers the store's state after a step that ended at true time `now_ms`, if it changed;
    /// keeps [`profile::MAX_FAILOVER_LAG_MS`] of history (and the state that was current then),
    /// which is all a replica promoted by [`Store::fail_over`] can lag behind.
    pub(super) fn remember(&mut self, now_ms: u64) {
        if !self.keeps_history {
            return;
        }
        if self.history.back().is_none_or(|(_, c)| *c != self.coordinator) {
            self.history.push_back((now_ms, self.coordinator.clone()));
        }
        let horizon = now_ms.saturating_sub(profile::MAX_FAILOVER_LAG_MS);
        while self.history.get(1).is_some_and(|(t, _)| *t <= horizon) {
            self.history.pop_front();
        }
    }

    /// Stops keeping the history a fail-over reads, for a run in which none can happen: what a
    /// search does when neither the scenario nor its choices fail the store over, so that its
    /// clones neither copy nor hash it. Nothing else reads the history, so the run is the same.
    pub(super) fn forget_history(&mut self) {
        self.keeps_history = false;
        self.history.clear();
    }

    /// The store fails over to another server at true time `now_ms` by its profile's `rule`
    /// ([`profile::StoreKind::failover`], the one place it is decided): etcd's new leader
    /// promotes every lease; Redis' promoted replica has the state of `lag_ms` ago (the state of
    /// a fresh store of `config` if it had nothing yet). Returns the holder and token the
    /// fail-over lost, if it lost a term.
    pub(super) fn fail_over(
        &mut self,
        rule: FailoverRule,
        lag_ms: u64,
        now_ms: u64,
        config: &Config,
    ) -> Option<(Option<String>, Option<u64>)> {
        match rule {
            FailoverRule::PromoteLeases { extend_ms } => {
                let now = self.now(now_ms);
                self.coordinator.promote(now, extend_ms);
                None
            }
            FailoverRule::Durable => None,
            FailoverRule::AsyncReplica => {
                let before = (self.coordinator.holder.clone(), self.coordinator.token);
                let as_of = now_ms.saturating_sub(lag_ms);
                let replica = self
                    .history
                    .iter()
                    .rev()
                    .find(|(t, _)| *t <= as_of)
                    .map(|(_, c)| c.clone())
                    .unwrap_or_else(|| Self::fresh_record(config));
                self.coordinator.take_over_from_replica(&replica);
                let after = (self.coordinator.holder.clone(), self.coordinator.token);
                (before.0.is_some() && before != after).then_some(before)
            }
        }
    }
}

impl Sim {
    /// The moment as the store handles a request: true time and its own clock's reading.
    fn store_now(&self) -> StoreNow {
        self.store.now(self.now_ms)
    }

    /// When the lease as the record stands now runs out, in true ms ([`Store::lease_expires_ms`],
    /// the one rule for it); `None` while nobody holds it.
    pub(super) fn lease_expires_ms(&self) -> Option<u64> {
        self.store.lease_expires_ms(self.now_ms)
    }

    /// When a lease that has already run out ended, in true ms ([`Store::lease_ended_ms`]).
    pub(super) fn lease_ended_ms(&self) -> u64 {
        self.store.lease_ended_ms(self.now_ms)
    }

    /// [`Sim::lease_expires_ms`] of a lease someone holds (just granted or renewed, or live and
    /// refusing a request), where it is always known; now if it ever were not.
    fn held_lease_expires_ms(&self) -> u64 {
        self.lease_expires_ms().unwrap_or(self.now_ms)
    }

    /// Under observer expiry each holder writes its own `leaseDurationSeconds` into the record
    /// when it takes or renews it (client-go's `tryAcquireOrRenew`); a store that judges expiry
    /// keeps the scenario's one TTL.
    fn holder_writes_duration(&mut self, node: usize, result: &AcquireResult) {
        if !self.store_judges_expiry() && !matches!(result, AcquireResult::Refused { .. }) {
            self.store.coordinator.duration_ms = self.config.node_lease(node).0;
        }
    }

    /// An acquire request reached the store: grant, re-grant or refuse, and reply with the record.
    pub(super) fn on_acquire(
        &mut self,
        node: usize,
        incarnation: u32,
        (request_id, request_sent_ms): (u64, u64),
        observed_expired: Option<u64>,
    ) {
        let id = self.nodes[node].id.clone();
        let identity = self.nodes[node].identity.clone();
        let now = self.store_now();
        let result = self.store.coordinator.acquire(&identity, now, observed_expired);
        self.holder_writes_duration(node, &result);
        let expires_ms = self.held_lease_expires_ms();
        let token = match result {
            AcquireResult::Granted { token, lease_transitions } => {
                self.record(TraceEvent::LeaseGranted { node: id, token, lease_transitions, expires_ms });
                self.schedule_expiry_check();
                if self.config.resource.epoch_barrier {
                    // The grant's one transaction fences every resource (each its own fence key).
                    for r in 0..self.resources.len() {
                        let res = &mut self.resources[r];
                        let high_water_before = res.raise_mark(token);
                        let (high_water_after, resource) = (res.high_water, res.name.clone());
                        self.record(TraceEvent::EpochBarrierRaised {
                            token,
                            high_water_before,
                            high_water_after,
                            resource,
                        });
                    }
                }
                Some(token)
            }
            AcquireResult::Reacquired { token } => {
                self.record(TraceEvent::LeaseReacquired { node: id, token, expires_ms });
                self.schedule_expiry_check();
                Some(token)
            }
            AcquireResult::Refused { holder } => {
                // Where the store deletes expired keys late (etcd), the lease may have ended
                // already: the refusal says when.
                let expires_ms =
                    if self.store.coordinator.lease_live(now.local_ms) { expires_ms } else { self.lease_ended_ms() };
                self.record(TraceEvent::AcquireRefused { node: id, holder, expires_ms });
                None
            }
            AcquireResult::Delayed { until_local_ms } => {
                let until_ms = self.store.when_reads(until_local_ms, self.now_ms);
                self.record(TraceEvent::AcquireDelayed { node: id, until_ms });
                None
            }
        };
        let c = &self.store.coordinator;
        let record = Record { version: c.version, holder: c.holder.clone(), duration_ms: c.duration_ms };
        self.send_reply(Body::AcquireReply { node, incarnation, request_sent_ms, token, record }, request_id);
    }

    /// A renewal reached the store: accepted for the holder with the current token while its
    /// lease is live, refused otherwise; the reply says which.
    pub(super) fn on_renew(
        &mut self,
        node: usize,
        incarnation: u32,
        token: u64,
        (request_id, request_sent_ms): (u64, u64),
    ) {
        let id = self.nodes[node].id.clone();
        let identity = self.nodes[node].identity.clone();
        let now = self.store_now();
        let ok = self.store.coordinator.renew(&identity, token, now);
        if ok {
            self.holder_writes_duration(node, &AcquireResult::Reacquired { token });
            // A keepalive of a lease whose key was deleted (etcd) runs out on its own schedule.
            let until = self.store.coordinator.renewed_until_local_ms(&identity, token);
            let expires_ms = until.map_or(self.now_ms, |e| self.store.when_reads(e, self.now_ms));
            self.record(TraceEvent::LeaseRenewed { node: id, token, expires_ms });
            self.schedule_expiry_check();
        } else {
            let holder = self.store.coordinator.holder.clone();
            self.record(TraceEvent::RenewRefused { node: id, token, holder });
        }
        self.send_reply(Body::RenewReply { node, incarnation, request_sent_ms, token, ok }, request_id);
    }

    /// Lock protocol: delete the key, with or without the owner check.
    pub(super) fn on_release(&mut self, node: usize, token: u64) {
        let id = self.nodes[node].id.clone();
        let identity = self.nodes[node].identity.clone();
        let now = self.store_now();
        let outcome = self.store.coordinator.release(&identity, token, self.config.lock.release_check, now);
        let violation = match &outcome {
            ReleaseOutcome::DeletedOthers { holder, token: holder_token } => Some(Violation::LockDeletedByNonOwner {
                node: id.clone(),
                holder: holder.clone(),
                holder_token: *holder_token,
            }),
            _ => None,
        };
        self.record(TraceEvent::LockReleased { node: id, token, outcome });
        if let Some(violation) = violation {
            self.record(TraceEvent::ViolationFound { violation, resource: None });
        }
    }

    /// Where the store judges expiry, schedules its check of the lease once it has run out
    /// ([`Store::next_expiry_check`]).
    fn schedule_expiry_check(&mut self) {
        if let Some((at, renew_time_ms)) = self.store.next_expiry_check(self.now_ms) {
            self.schedule(at, Item::ExpiryCheck { renew_time_ms });
        }
    }

    /// The store's clock moved: a lease may now expire sooner or later than scheduled. A forward
    /// jump past the expiry ends it at once (redis/redis#416).
    pub(super) fn store_clock_changed(&mut self) {
        self.schedule_expiry_check();
    }

    /// A scheduled expiry check ([`Store::check_expiry`]): an expiry due is recorded, once.
    pub(super) fn check_expiry(&mut self, renew_time_ms: u64) {
        if let Some((holder, token)) = self.store.check_expiry(self.now_ms, renew_time_ms) {
            self.record(TraceEvent::LeaseExpired { holder, token });
        }
    }

    /// Remembers the store's state after a step ([`Store::remember`]), for a later fail-over.
    pub(super) fn remember_store_state(&mut self) {
        self.store.remember(self.now_ms);
    }

    /// The store fails over to another server (`{"do": "store_failover"}`), by its profile's rule
    /// ([`profile::StoreKind::failover`], the one place it is decided; [`Store::fail_over`]).
    pub(super) fn fail_over_store(&mut self, lag_ms: u64) {
        let store = self.config.store_kind;
        let next_token_before = self.store.coordinator.next_token;
        let lost = self.store.fail_over(store.failover(), lag_ms, self.now_ms, &self.config).unwrap_or((None, None));
        let c = &self.store.coordinator;
        let holder = c.holder.clone();
        let token = c.token.filter(|_| holder.is_some());
        let next_token = c.next_token;
        let expires_ms = self.lease_expires_ms();
        self.record(TraceEvent::StoreFailedOver {
            store,
            lag_ms,
            holder,
            token,
            expires_ms,
            lost_holder: lost.0,
            lost_token: lost.1,
            next_token_before,
            next_token,
        });
        self.schedule_expiry_check();
    }
}
