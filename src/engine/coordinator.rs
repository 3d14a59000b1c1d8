//! The coordinator (the dockmaster): the Lease record and the fencing-token issuer.
//!
//! Field names follow Kubernetes `coordination.k8s.io/v1` Lease (`holderIdentity`,
//! `leaseDurationSeconds`, `acquireTime`, `renewTime`, `leaseTransitions`). Unlike client-go,
//! where candidates judge expiry on their own clocks and the record carries no fencing token,
//! this coordinator judges expiry on its own clock and issues a token with every new term, as a
//! lock service does (etcd's revision, ZooKeeper's zxid, Chubby's sequencer; Kleppmann's
//! "How to do distributed locking"). Tokens come only from here, never from clients.

use serde::Serialize;

use super::config::{Expiry, ReleaseCheck};
use super::profile::{StoreKind, StoreRules, TokenSource};
use super::trace::ReleaseOutcome;

/// The moment a request is handled: true time (for the trace and the picture) and the store's
/// own clock reading (which alone judges expiry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StoreNow {
    pub true_ms: u64,
    pub local_ms: i64,
}

impl StoreNow {
    /// A store whose clock reads true time.
    pub fn at(ms: u64) -> Self {
        Self { true_ms: ms, local_ms: i64::try_from(ms).unwrap_or(i64::MAX) }
    }
}

/// The Lease record plus the token counter.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Coordinator {
    /// `holderIdentity`: `None` before the first grant, after a revoke or a release.
    pub holder: Option<String>,
    /// `leaseDurationSeconds`, in ms.
    pub duration_ms: u64,
    /// `acquireTime` of the current term, in true ms.
    pub acquire_time_ms: Option<u64>,
    /// `renewTime`, in true ms.
    pub renew_time_ms: Option<u64>,
    /// `renewTime` as the record stores it: the store's clock reading, in ms.
    pub renew_local_ms: Option<i64>,
    /// `leaseTransitions`: changes of holder (0 after the first grant, as in Kubernetes).
    pub lease_transitions: u32,
    /// The token of the current (or last) term.
    pub token: Option<u64>,
    /// The token the next new term will get. Grows by one per term; only `rollback_issuer`
    /// moves it back.
    pub next_token: u64,
    /// The identity of the last holder, kept after a revoke to count transitions.
    pub last_holder: Option<String>,
    /// The record's version (Kubernetes `resourceVersion`, etcd `mod_revision`): grows on every
    /// change; what an observer compare-and-swaps on.
    pub version: u64,
    /// The run's `lease.expiry` setting: with the profile's `rules`, what decides whether the
    /// store judges expiry ([`Coordinator::judges_expiry`]).
    pub expiry: Expiry,
    /// Whether the holder asking again while it holds keeps its term (Lease semantics, Consul and
    /// Hazelcast re-entrancy). A Redis `SET NX` refuses even its own holder.
    pub reentrant: bool,
    /// The store profile's rules: expiry at the boundary, who deletes an expired key, what a
    /// renewal checks, where tokens come from ([`StoreKind::rules`]).
    pub rules: StoreRules,
    /// A lease that lives on after a plain `DEL` removed its key, where a renewal checks only the
    /// lease (etcd): its holder's keepalives still succeed, and it never learns.
    pub detached: Option<DetachedLease>,
    /// Lock-delay, in ms of the store's clock (`lock.lock_delay_ms`; 0: none, as on Redis and
    /// etcd): after a holder's term ends by expiry or invalidation (not a clean release), every
    /// acquire is refused for this long. Consul's session `LockDelay` (default 15 s, 0 to 60 s),
    /// Chubby's lock-delay (Burrows 2006, §2.4: up to a minute).
    pub lock_delay_ms: u64,
    /// When the last term that ended by expiry or invalidation ended, on the store's clock, in
    /// ms: where the lock-delay counts from ([`Coordinator::lock_delay_until_local_ms`]).
    pub invalidated_local_ms: Option<i64>,
}

/// A holder's lease whose key someone else deleted (etcd: the key is gone, the lease is not).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct DetachedLease {
    pub identity: String,
    pub token: u64,
    /// Its last keepalive, on the store's clock, in ms.
    pub renew_local_ms: i64,
}

/// The answer to an acquire request.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AcquireResult {
    /// A new term: the lease was free or expired; `token` is fresh.
    Granted { token: u64, lease_transitions: u32 },
    /// The requester already holds a live lease (same identity): same term, same token,
    /// `renewTime` moved.
    Reacquired { token: u64 },
    /// Someone else holds a live lease.
    Refused { holder: String },
    /// Nobody holds it, but the lock-delay after the last holder's term ended by expiry or
    /// invalidation still runs, until `until_local_ms` on the store's clock.
    Delayed { until_local_ms: i64 },
}

impl Coordinator {
    /// A coordinator with no holder whose first grant will carry `first_token`.
    pub fn new(duration_ms: u64, first_token: u64) -> Self {
        Self {
            holder: None,
            duration_ms,
            acquire_time_ms: None,
            renew_time_ms: None,
            renew_local_ms: None,
            lease_transitions: 0,
            token: None,
            next_token: first_token,
            last_holder: None,
            version: 0,
            expiry: Expiry::Coordinator,
            reentrant: true,
            rules: StoreKind::default().rules(),
            detached: None,
            lock_delay_ms: 0,
            invalidated_local_ms: None,
        }
    }

    /// A coordinator of store profile `kind` with no holder; its first grant carries
    /// `first_token` unless the profile fixes the first token (etcd's revision 2).
    pub fn with_profile(duration_ms: u64, first_token: u64, kind: StoreKind) -> Self {
        let rules = kind.rules();
        Self { rules, ..Self::new(duration_ms, rules.first_token.unwrap_or(first_token)) }
    }

    /// Whether this store judges expiry on its clock (a lock service, Redis, etcd), as
    /// [`StoreRules::judges_expiry`] decides from its rules and the run's `lease.expiry`. `false`
    /// under client-go's observer expiry: the store only compare-and-swaps on `version`.
    pub fn judges_expiry(&self) -> bool {
        self.rules.judges_expiry(self.expiry)
    }

    /// `renewTime + leaseDuration` on the store's clock, in ms.
    pub fn expires_local_ms(&self) -> Option<i64> {
        self.holder.as_ref()?;
        let d = i64::try_from(self.duration_ms).unwrap_or(i64::MAX);
        self.renew_local_ms.map(|t| t.saturating_add(d))
    }

    /// Whether a TTL that runs out at `expires_local_ms` is still running when the store's clock
    /// reads `local_ms`: through its last millisecond on Redis (`now > when` expires), up to it on
    /// etcd (`Remaining() <= 0` has expired).
    fn ttl_running(&self, expires_local_ms: i64, local_ms: i64) -> bool {
        if self.rules.live_at_expiry_ms {
            local_ms <= expires_local_ms
        } else {
            local_ms < expires_local_ms
        }
    }

    /// Whether the key is there for an acquire or a release when the store's clock reads
    /// `local_ms`. Where expired keys go at once (Redis) that is while the holder's TTL runs;
    /// where the store deletes them at a periodic check (etcd), until that check. Without expiry
    /// judging, a held record stays until someone takes it over.
    pub fn is_live(&self, local_ms: i64) -> bool {
        if !self.judges_expiry() || self.rules.expiry_check_every_ms.is_some() {
            return self.holder.is_some();
        }
        self.lease_live(local_ms)
    }

    /// Whether the holder's lease (its TTL) is still running when the store's clock reads
    /// `local_ms`: what a renewal needs. Without expiry judging, while someone holds the record.
    pub fn lease_live(&self, local_ms: i64) -> bool {
        if !self.judges_expiry() {
            return self.holder.is_some();
        }
        self.expires_local_ms().is_some_and(|e| self.ttl_running(e, local_ms))
    }

    /// Where the store deletes expired keys itself (etcd's lessor): the moment, on the store's
    /// clock, from which a check finds the holder's lease expired.
    pub fn expired_from_local_ms(&self) -> Option<i64> {
        let e = self.expires_local_ms()?;
        Some(if self.rules.live_at_expiry_ms { e.saturating_add(1) } else { e })
    }

    /// A write to the store that is not a grant (a delete, the resource's own keys): where
    /// tokens are the store's revision (etcd), it takes a revision, so the next grant's token
    /// is larger by more than one.
    pub fn store_wrote(&mut self) {
        if self.rules.tokens == TokenSource::Revision {
            self.next_token = self.next_token.saturating_add(1);
        }
    }

    /// The newest token ever granted.
    pub fn newest_granted(&self) -> Option<u64> {
        self.token
    }

    /// Acquire, as one compare-and-swap on the record: succeeds when the lease is free or
    /// expired by the store's clock, or (observer expiry) when the requester saw this very
    /// `version` and judged it expired on its own clock. Every new term takes the next token,
    /// also when the same identity takes the lease back after losing it (seed `002`: the issuer
    /// must never reuse a number). `leaseTransitions` grows when the holder changes.
    pub fn acquire(&mut self, identity: &str, now: StoreNow, observed_expired: Option<u64>) -> AcquireResult {
        if self.is_live(now.local_ms) {
            match (&self.holder, self.token) {
                (Some(holder), Some(token))
                    if holder == identity && self.reentrant && self.lease_live(now.local_ms) =>
                {
                    self.touch(now);
                    return AcquireResult::Reacquired { token };
                }
                (holder, _) => {
                    if self.judges_expiry() || observed_expired != Some(self.version) {
                        return AcquireResult::Refused { holder: holder.clone().unwrap_or_default() };
                    }
                }
            }
        }
        if let Some(until_local_ms) = self.lock_delay_until_local_ms(now.local_ms) {
            return AcquireResult::Delayed { until_local_ms };
        }
        let token = self.next_token;
        self.next_token = self.next_token.saturating_add(1);
        let previous = self.holder.take().or_else(|| self.last_holder.clone());
        if self.token.is_some() && previous.as_deref() != Some(identity) {
            self.lease_transitions = self.lease_transitions.saturating_add(1);
        }
        self.holder = Some(identity.to_owned());
        self.last_holder = Some(identity.to_owned());
        self.token = Some(token);
        self.acquire_time_ms = Some(now.true_ms);
        self.touch(now);
        AcquireResult::Granted { token, lease_transitions: self.lease_transitions }
    }

    /// Renew: succeeds for the current holder presenting the current token while its lease is
    /// live, and moves `renewTime` to now. Where a renewal checks only the lease (etcd), it also
    /// succeeds for a holder whose key someone deleted, while that lease lives
    /// ([`Coordinator::detached`]). Returns whether it succeeded.
    pub fn renew(&mut self, identity: &str, token: u64, now: StoreNow) -> bool {
        let own = self.holder.as_deref() == Some(identity) && self.token == Some(token);
        if own && self.lease_live(now.local_ms) {
            self.touch(now);
            return true;
        }
        match self.detached_until_local_ms(identity, token) {
            Some(until) if self.ttl_running(until, now.local_ms) => {
                if let Some(d) = self.detached.as_mut() {
                    d.renew_local_ms = now.local_ms;
                }
                true
            }
            _ => false,
        }
    }

    /// When the lease of `identity` with `token` whose key was deleted runs out, on the store's
    /// clock, in ms; `None` when there is no such lease ([`Coordinator::detached`]).
    fn detached_until_local_ms(&self, identity: &str, token: u64) -> Option<i64> {
        let d = self.detached.as_ref().filter(|d| d.identity == identity && d.token == token)?;
        Some(d.renew_local_ms.saturating_add(i64::try_from(self.duration_ms).unwrap_or(i64::MAX)))
    }

    /// When the lease `identity` renews with `token` runs out, on the store's clock, in ms: the
    /// holder's (`renewTime + duration`), or that of its lease whose key was deleted
    /// ([`Coordinator::detached`]); `None` when it has neither.
    pub fn renewed_until_local_ms(&self, identity: &str, token: u64) -> Option<i64> {
        if self.holder.as_deref() == Some(identity) && self.token == Some(token) {
            return self.expires_local_ms();
        }
        self.detached_until_local_ms(identity, token)
    }

    /// Release (lock protocol): delete the key. With [`ReleaseCheck::Owner`] only the owner's own
    /// term is deleted (compare-and-delete); with [`ReleaseCheck::None`] a plain `DEL` removes
    /// whatever live key is there.
    pub fn release(&mut self, identity: &str, token: u64, check: ReleaseCheck, now: StoreNow) -> ReleaseOutcome {
        if !self.is_live(now.local_ms) {
            return ReleaseOutcome::AlreadyFree;
        }
        let own = self.holder.as_deref() == Some(identity) && self.token == Some(token);
        let outcome = match (own, check, &self.holder, self.token) {
            (true, _, _, _) => ReleaseOutcome::Released,
            (false, ReleaseCheck::Owner, holder, _) => return ReleaseOutcome::NotOwner { holder: holder.clone() },
            (false, ReleaseCheck::None, Some(holder), Some(t)) => {
                ReleaseOutcome::DeletedOthers { holder: holder.clone(), token: t }
            }
            (false, ReleaseCheck::None, _, _) => return ReleaseOutcome::AlreadyFree,
        };
        if let (ReleaseOutcome::DeletedOthers { holder, token }, false, Some(renew_local_ms)) =
            (&outcome, self.rules.renew_checks_owner, self.renew_local_ms)
        {
            self.detached = Some(DetachedLease { identity: holder.clone(), token: *token, renew_local_ms });
        }
        self.revoke();
        outcome
    }

    /// While a lock-delay runs when the store's clock reads `local_ms`, when it ends (on that
    /// clock, in ms); `None` when no delay runs or none is set. It counts from the end of the last
    /// term that ended by expiry or invalidation: the TTL's end where an expired key goes at once
    /// (Redis' lazy expiry), the moment the store deleted it otherwise (etcd's lessor check, a
    /// revoke: [`Coordinator::invalidate`]). A clean release starts none.
    pub fn lock_delay_until_local_ms(&self, local_ms: i64) -> Option<i64> {
        if self.lock_delay_ms == 0 {
            return None;
        }
        let expired_now = self.holder.is_some() && self.judges_expiry() && !self.is_live(local_ms);
        let ended = if expired_now { self.expired_from_local_ms() } else { self.invalidated_local_ms }?;
        let until = ended.saturating_add(i64::try_from(self.lock_delay_ms).unwrap_or(i64::MAX));
        (local_ms < until).then_some(until)
    }

    /// Strike the holder's name because its session was invalidated or its lease ran out (a
    /// revoke, etcd's lessor deleting an expired key), when the store's clock reads `local_ms`:
    /// unlike a clean release, this starts the lock-delay. Returns the identity struck.
    pub fn invalidate(&mut self, local_ms: i64) -> Option<String> {
        let holder = self.revoke();
        if holder.is_some() {
            self.invalidated_local_ms = Some(local_ms);
        }
        holder
    }

    /// A new leader's lessor promotes every lease (etcd's `Promote`,
    /// [`FailoverRule::PromoteLeases`](super::profile::FailoverRule::PromoteLeases)): each one,
    /// the holder's and a lease whose key was deleted, now expires `extend_ms` plus its full TTL
    /// from `now`. Nothing is written: the record's version stays. Returns whether a lease was
    /// extended.
    pub fn promote(&mut self, now: StoreNow, extend_ms: u64) -> bool {
        let extend = i64::try_from(extend_ms).unwrap_or(i64::MAX);
        let mut any = false;
        if self.holder.is_some() && self.renew_local_ms.is_some() {
            self.renew_local_ms = Some(now.local_ms.saturating_add(extend));
            self.renew_time_ms = Some(now.true_ms.saturating_add(extend_ms));
            any = true;
        }
        if let Some(d) = self.detached.as_mut() {
            d.renew_local_ms = now.local_ms.saturating_add(extend);
            any = true;
        }
        any
    }

    /// A replica whose state is `replica` takes over from this store (Redis' asynchronous
    /// replication, [`FailoverRule::AsyncReplica`](super::profile::FailoverRule::AsyncReplica)):
    /// the key, its TTL and the token counter are the replica's; writes it had not received are
    /// gone. The record's version still grows, so no compare-and-swap on a version seen before
    /// the fail-over succeeds.
    pub fn take_over_from_replica(&mut self, replica: &Coordinator) {
        let version = self.version.saturating_add(1);
        *self = Self { version, rules: self.rules, expiry: self.expiry, ..replica.clone() };
    }

    /// Strike the holder's name now (a delete of the key). The token counter is untouched, so
    /// the next grant is newer; where tokens are revisions the delete itself takes one
    /// ([`Coordinator::store_wrote`]). Returns the identity that was struck.
    pub fn revoke(&mut self) -> Option<String> {
        let holder = self.holder.take();
        if holder.is_some() {
            self.last_holder = holder.clone();
            self.version = self.version.saturating_add(1);
            self.store_wrote();
        }
        holder
    }

    fn touch(&mut self, now: StoreNow) {
        self.renew_time_ms = Some(now.true_ms);
        self.renew_local_ms = Some(now.local_ms);
        self.version = self.version.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_grant_takes_first_token_and_zero_transitions() {
        let mut c = Coordinator::new(15_000, 7);
        assert_eq!(c.acquire("chen", StoreNow::at(0), None), AcquireResult::Granted { token: 7, lease_transitions: 0 });
        assert_eq!(c.holder.as_deref(), Some("chen"));
        assert_eq!(c.expires_local_ms(), Some(15_000));
    }

    #[test]
    fn compare_and_swap_refuses_while_live_and_grants_after_expiry() {
        let mut c = Coordinator::new(15_000, 7);
        c.acquire("chen", StoreNow::at(1_000), None);
        // Redis keeps a key through its expiry millisecond: `SET NX` at renewTime + duration is
        // refused, one millisecond later granted.
        assert_eq!(c.acquire("lin", StoreNow::at(16_000), None), AcquireResult::Refused { holder: "chen".into() });
        assert_eq!(
            c.acquire("lin", StoreNow::at(16_001), None),
            AcquireResult::Granted { token: 8, lease_transitions: 1 }
        );
        assert_eq!(c.acquire_time_ms, Some(16_001));
    }

    #[test]
    fn on_etcd_the_key_stays_until_the_store_deletes_it_but_the_lease_is_over_at_its_end() {
        let mut c = Coordinator::with_profile(5_000, 99, StoreKind::Etcd);
        assert_eq!(c.acquire("a", StoreNow::at(0), None), AcquireResult::Granted { token: 2, lease_transitions: 0 });
        assert!(c.renew("a", 2, StoreNow::at(4_999)));
        assert!(!c.renew("a", 2, StoreNow::at(9_999)), "Remaining() <= 0: the keepalive is refused");
        assert_eq!(c.acquire("b", StoreNow::at(10_200), None), AcquireResult::Refused { holder: "a".into() });
        assert!(c.holder.is_some(), "only the lessor's check deletes the key");
        c.revoke();
        assert_eq!(
            c.acquire("b", StoreNow::at(10_300), None),
            AcquireResult::Granted { token: 4, lease_transitions: 1 },
            "the delete took revision 3"
        );
    }

    #[test]
    fn on_etcd_a_keepalive_checks_the_lease_not_the_key() {
        let mut c = Coordinator::with_profile(5_000, 1, StoreKind::Etcd);
        c.reentrant = false;
        c.acquire("a", StoreNow::at(0), None);
        assert_eq!(
            c.release("b", 0, ReleaseCheck::None, StoreNow::at(1_000)),
            ReleaseOutcome::DeletedOthers { holder: "a".into(), token: 2 }
        );
        assert!(c.renew("a", 2, StoreNow::at(2_000)), "a plain DEL left a's lease alive");
        assert!(c.renew("a", 2, StoreNow::at(6_000)), "and its keepalives keep it so");
        assert!(!c.renew("a", 2, StoreNow::at(11_000)), "until it stops sending them");
        let mut r = Coordinator::new(5_000, 1);
        r.reentrant = false;
        r.acquire("a", StoreNow::at(0), None);
        r.release("b", 0, ReleaseCheck::None, StoreNow::at(1_000));
        assert!(!r.renew("a", 1, StoreNow::at(2_000)), "Redis' compare-and-PEXPIRE finds the key gone");
    }

    #[test]
    fn an_etcd_promotion_gives_every_lease_a_full_ttl_plus_the_extension() {
        // etcd 3.4 `Lease.refresh(extend)`: expiry = now + extend + RemainingTTL (the whole TTL).
        let mut c = Coordinator::with_profile(5_000, 1, StoreKind::Etcd);
        c.acquire("a", StoreNow::at(100), None);
        assert_eq!(c.expires_local_ms(), Some(5_100));
        assert!(c.promote(StoreNow::at(4_000), 1_000));
        assert_eq!(c.expires_local_ms(), Some(10_000));
        assert!(c.lease_live(9_999) && !c.lease_live(10_000));
        let mut free = Coordinator::with_profile(5_000, 1, StoreKind::Etcd);
        assert!(!free.promote(StoreNow::at(4_000), 1_000), "no lease, nothing to extend");
    }

    #[test]
    fn lock_delay_follows_an_expiry_or_a_revoke_but_not_a_release() {
        let mut c = Coordinator::new(5_000, 1);
        c.reentrant = false;
        c.lock_delay_ms = 15_000;
        c.acquire("a", StoreNow::at(0), None);
        // Redis keeps the key through 5 000; it is gone from 5 001, and the delay counts from there.
        assert_eq!(c.acquire("b", StoreNow::at(5_001), None), AcquireResult::Delayed { until_local_ms: 20_001 });
        assert_eq!(
            c.acquire("b", StoreNow::at(20_001), None),
            AcquireResult::Granted { token: 2, lease_transitions: 1 }
        );
        c.invalidate(21_000);
        assert_eq!(c.acquire("a", StoreNow::at(21_000), None), AcquireResult::Delayed { until_local_ms: 36_000 });
        assert!(matches!(c.acquire("a", StoreNow::at(36_000), None), AcquireResult::Granted { token: 3, .. }));
        assert_eq!(c.release("a", 3, ReleaseCheck::Owner, StoreNow::at(37_000)), ReleaseOutcome::Released);
        assert!(matches!(c.acquire("b", StoreNow::at(37_000), None), AcquireResult::Granted { token: 4, .. }));
    }

    #[test]
    fn a_replica_taking_over_keeps_the_profile_and_moves_the_version_on() {
        let mut c = Coordinator::new(5_000, 1);
        let replica = c.clone();
        c.acquire("a", StoreNow::at(0), None);
        let version = c.version;
        c.take_over_from_replica(&replica);
        assert_eq!((c.holder.clone(), c.next_token), (None, 1), "the SET NX and the INCR are lost");
        assert_eq!(c.version, version + 1);
        assert_eq!(c.acquire("b", StoreNow::at(10), None), AcquireResult::Granted { token: 1, lease_transitions: 0 });
    }

    #[test]
    fn renew_needs_holder_current_token_and_a_live_lease() {
        let mut c = Coordinator::new(10_000, 41);
        c.acquire("a", StoreNow::at(0), None);
        assert!(!c.renew("b", 41, StoreNow::at(1_000)), "not the holder");
        assert!(!c.renew("a", 40, StoreNow::at(1_000)), "not the current token");
        assert!(c.renew("a", 41, StoreNow::at(9_000)));
        assert_eq!(c.renew_time_ms, Some(9_000));
        assert!(!c.renew("a", 41, StoreNow::at(19_001)), "expired after 19 000");
    }

    #[test]
    fn same_identity_taking_the_lease_back_gets_a_new_token() {
        let mut c = Coordinator::new(10_000, 1);
        c.acquire("a", StoreNow::at(0), None);
        assert_eq!(
            c.acquire("a", StoreNow::at(10_001), None),
            AcquireResult::Granted { token: 2, lease_transitions: 0 }
        );
        c.revoke();
        assert_eq!(
            c.acquire("a", StoreNow::at(10_001), None),
            AcquireResult::Granted { token: 3, lease_transitions: 0 }
        );
        assert_eq!(
            c.acquire("b", StoreNow::at(20_002), None),
            AcquireResult::Granted { token: 4, lease_transitions: 1 }
        );
    }

    #[test]
    fn live_reacquire_keeps_the_term() {
        let mut c = Coordinator::new(10_000, 5);
        c.acquire("a", StoreNow::at(0), None);
        assert_eq!(c.acquire("a", StoreNow::at(4_000), None), AcquireResult::Reacquired { token: 5 });
        assert_eq!(c.renew_time_ms, Some(4_000));
        assert_eq!(c.next_token, 6);
    }

    #[test]
    fn revoke_frees_at_once_and_counts_the_transition() {
        let mut c = Coordinator::new(10_000, 1);
        c.acquire("a", StoreNow::at(0), None);
        assert_eq!(c.revoke().as_deref(), Some("a"));
        assert!(!c.is_live(1));
        assert!(!c.renew("a", 1, StoreNow::at(1)));
        assert_eq!(c.acquire("b", StoreNow::at(2), None), AcquireResult::Granted { token: 2, lease_transitions: 1 });
    }

    #[test]
    fn observer_takeover_needs_the_very_version_seen_expired() {
        let mut c = Coordinator::new(15_000, 1);
        c.expiry = Expiry::Observer;
        c.acquire("a", StoreNow::at(0), None);
        let seen = c.version;
        // Long after renewTime + duration: the store itself judges nothing.
        assert_eq!(c.acquire("b", StoreNow::at(100_000), None), AcquireResult::Refused { holder: "a".into() });
        assert!(c.renew("a", 1, StoreNow::at(100_001)), "a renews: a new version");
        assert_eq!(c.acquire("b", StoreNow::at(100_002), Some(seen)), AcquireResult::Refused { holder: "a".into() });
        let seen = c.version;
        assert_eq!(
            c.acquire("b", StoreNow::at(100_003), Some(seen)),
            AcquireResult::Granted { token: 2, lease_transitions: 1 }
        );
        assert!(!c.renew("a", 1, StoreNow::at(100_004)), "the old holder's renewal is refused");
    }

    #[test]
    fn a_lock_release_checks_the_owner_unless_told_not_to() {
        let mut c = Coordinator::new(5_000, 1);
        c.reentrant = false;
        c.acquire("a", StoreNow::at(0), None);
        assert_eq!(c.acquire("a", StoreNow::at(10), None), AcquireResult::Refused { holder: "a".into() }, "SET NX");
        c.acquire("b", StoreNow::at(5_001), None);
        assert_eq!(
            c.release("a", 1, ReleaseCheck::Owner, StoreNow::at(6_000)),
            ReleaseOutcome::NotOwner { holder: Some("b".into()) }
        );
        assert_eq!(c.holder.as_deref(), Some("b"));
        assert_eq!(
            c.release("a", 1, ReleaseCheck::None, StoreNow::at(6_001)),
            ReleaseOutcome::DeletedOthers { holder: "b".into(), token: 2 }
        );
        assert_eq!(c.holder, None);
        assert_eq!(c.release("b", 2, ReleaseCheck::Owner, StoreNow::at(6_002)), ReleaseOutcome::AlreadyFree);
        c.acquire("c", StoreNow::at(6_003), None);
        assert_eq!(c.release("c", 3, ReleaseCheck::Owner, StoreNow::at(6_004)), ReleaseOutcome::Released);
        assert!(!c.is_live(6_004));
    }
}
