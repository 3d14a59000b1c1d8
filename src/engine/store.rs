//! The store's side of the protocol: the coordinator (the Lease record and the token issuer,
//! [`coordinator`](super::coordinator)) answering acquire, renew and release requests on the
//! store's own clock, and the expiry checks it schedules for itself.

use super::coordinator::{AcquireResult, Coordinator, StoreNow};
use super::network::{Body, Record};
use super::profile::FailoverRule;
use super::{profile, Item, ReleaseOutcome, Sim, TraceEvent, Violation};

impl Sim {
    /// The moment as the store handles a request: true time and its own clock's reading.
    fn store_now(&self) -> StoreNow {
        StoreNow { true_ms: self.now_ms, local_ms: self.store_clock.read(self.now_ms) }
    }

    /// When the lease as the record stands now runs out, in true ms; `None` while nobody holds
    /// it. The one rule for the lease's expiry time: the trace (a grant's, a renewal's, a
    /// refusal's `expires_ms`), the store's own expiry check and the snapshot all read it.
    ///
    /// Where the store judges expiry: `renewTime + leaseDuration` on the store's clock
    /// ([`Coordinator::expires_local_ms`](super::coordinator::Coordinator::expires_local_ms)), at
    /// the first true time, no earlier than now, at which the store's clock reads it, so a lease
    /// already past it (a forward jump of the store's clock) is due now. Under observer expiry,
    /// where nobody acts on it: `renewTime + leaseDuration` on true time, for display only.
    pub(super) fn lease_expires_ms(&self) -> Option<u64> {
        let c = &self.coordinator;
        if self.store_judges_expiry() {
            c.expires_local_ms().map(|e| self.store_clock.when_reads(e, self.now_ms))
        } else {
            c.holder.as_ref().and(c.renew_time_ms).map(|t| t.saturating_add(c.duration_ms))
        }
    }

    /// When a lease that has already run out ended, in true ms: `renewTime + leaseDuration` on
    /// true time, or now if a step of the store's clock ended it sooner.
    pub(super) fn lease_ended_ms(&self) -> u64 {
        let c = &self.coordinator;
        c.renew_time_ms.unwrap_or(self.now_ms).saturating_add(c.duration_ms).min(self.now_ms)
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
            self.coordinator.duration_ms = self.config.node_lease(node).0;
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
        let result = self.coordinator.acquire(&identity, now, observed_expired);
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
                    if self.coordinator.lease_live(now.local_ms) { expires_ms } else { self.lease_ended_ms() };
                self.record(TraceEvent::AcquireRefused { node: id, holder, expires_ms });
                None
            }
            AcquireResult::Delayed { until_local_ms } => {
                let until_ms = self.store_clock.when_reads(until_local_ms, self.now_ms);
                self.record(TraceEvent::AcquireDelayed { node: id, until_ms });
                None
            }
        };
        let c = &self.coordinator;
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
        let ok = self.coordinator.renew(&identity, token, now);
        if ok {
            self.holder_writes_duration(node, &AcquireResult::Reacquired { token });
            // A keepalive of a lease whose key was deleted (etcd) runs out on its own schedule.
            let until = self.coordinator.renewed_until_local_ms(&identity, token);
            let expires_ms = until.map_or(self.now_ms, |e| self.store_clock.when_reads(e, self.now_ms));
            self.record(TraceEvent::LeaseRenewed { node: id, token, expires_ms });
            self.schedule_expiry_check();
        } else {
            let holder = self.coordinator.holder.clone();
            self.record(TraceEvent::RenewRefused { node: id, token, holder });
        }
        self.send_reply(Body::RenewReply { node, incarnation, request_sent_ms, token, ok }, request_id);
    }

    /// Lock protocol: delete the key, with or without the owner check.
    pub(super) fn on_release(&mut self, node: usize, token: u64) {
        let id = self.nodes[node].id.clone();
        let identity = self.nodes[node].identity.clone();
        let now = self.store_now();
        let outcome = self.coordinator.release(&identity, token, self.config.lock.release_check, now);
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

    /// Where the store judges expiry, checks the lease again once it has run out: on Redis at
    /// the first millisecond of its clock past the TTL (an expired key is gone at once); on etcd
    /// at the lessor's first check at or after the TTL's end, which deletes the key.
    fn schedule_expiry_check(&mut self) {
        if !self.store_judges_expiry() {
            return;
        }
        let c = &self.coordinator;
        let (Some(expired_from), Some(renew_time_ms)) = (c.expired_from_local_ms(), c.renew_time_ms) else {
            return;
        };
        let at_local = match c.rules.expiry_check_every_ms {
            Some(every) => profile::next_check_ms(expired_from, every, self.expiry_check_phase_ms),
            None => expired_from,
        };
        let at = self.store_clock.when_reads(at_local, self.now_ms);
        self.schedule(at, Item::ExpiryCheck { renew_time_ms });
    }

    /// The store's clock moved: a lease may now expire sooner or later than scheduled. A forward
    /// jump past the expiry ends it at once (redis/redis#416).
    pub(super) fn store_clock_changed(&mut self) {
        self.schedule_expiry_check();
    }

    /// A scheduled expiry check: once the store's clock has passed the expiry of the term renewed
    /// at `renew_time_ms` (and nobody renewed it since), the expiry is recorded, once. Where the
    /// store deletes expired keys itself (etcd's lessor), the check deletes the key, which takes
    /// a revision.
    pub(super) fn check_expiry(&mut self, renew_time_ms: u64) {
        let c = &self.coordinator;
        if c.renew_time_ms == Some(renew_time_ms)
            && !c.lease_live(self.store_clock.read(self.now_ms))
            && self.expiry_reported_for != Some(renew_time_ms)
        {
            if let (Some(holder), Some(token)) = (c.holder.clone(), c.token) {
                self.expiry_reported_for = Some(renew_time_ms);
                if c.rules.expiry_check_every_ms.is_some() {
                    let local_ms = self.store_clock.read(self.now_ms);
                    self.coordinator.invalidate(local_ms);
                }
                self.record(TraceEvent::LeaseExpired { holder, token });
            }
        }
    }

    /// Remembers the store's state after a step, if it changed, with the true ms it began; keeps
    /// [`profile::MAX_FAILOVER_LAG_MS`] of history (and the state that was current then), which
    /// is all a replica promoted by [`Sim::fail_over_store`] can lag behind.
    pub(super) fn remember_store_state(&mut self) {
        if self.store_history.back().is_none_or(|(_, c)| *c != self.coordinator) {
            self.store_history.push_back((self.now_ms, self.coordinator.clone()));
        }
        let horizon = self.now_ms.saturating_sub(profile::MAX_FAILOVER_LAG_MS);
        while self.store_history.get(1).is_some_and(|(t, _)| *t <= horizon) {
            self.store_history.pop_front();
        }
    }

    /// The store fails over to another server (`{"do": "store_failover"}`), by its profile's rule
    /// ([`profile::StoreKind::failover`], the one place it is decided): etcd's new leader
    /// promotes every lease; Redis' promoted replica has the state of `lag_ms` ago.
    pub(super) fn fail_over_store(&mut self, lag_ms: u64) {
        let store = self.config.store_kind;
        let now = self.store_now();
        let next_token_before = self.coordinator.next_token;
        let before = (self.coordinator.holder.clone(), self.coordinator.token);
        let mut lost = (None, None);
        match store.failover() {
            FailoverRule::PromoteLeases { extend_ms } => {
                self.coordinator.promote(now, extend_ms);
            }
            FailoverRule::Durable => {}
            FailoverRule::AsyncReplica => {
                let as_of = self.now_ms.saturating_sub(lag_ms);
                let replica = self
                    .store_history
                    .iter()
                    .rev()
                    .find(|(t, _)| *t <= as_of)
                    .map(|(_, c)| c.clone())
                    .unwrap_or_else(|| self.fresh_store());
                self.coordinator.take_over_from_replica(&replica);
                let after = (self.coordinator.holder.clone(), self.coordinator.token);
                if before.0.is_some() && before != after {
                    lost = before.clone();
                }
            }
        }
        let holder = self.coordinator.holder.clone();
        let token = self.coordinator.token.filter(|_| holder.is_some());
        let expires_ms = self.lease_expires_ms();
        let next_token = self.coordinator.next_token;
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

    /// The store as it was before anything was written to it.
    fn fresh_store(&self) -> Coordinator {
        let mut c = Coordinator::with_profile(
            self.config.lease.duration_ms,
            self.config.issuer.first_token,
            self.config.store_kind,
        );
        c.expiry = self.coordinator.expiry;
        c.reentrant = self.coordinator.reentrant;
        c.lock_delay_ms = self.coordinator.lock_delay_ms;
        c
    }
}
