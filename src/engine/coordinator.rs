//! The coordinator (the dockmaster): the Lease record and the fencing-token issuer.
//!
//! Field names follow Kubernetes `coordination.k8s.io/v1` Lease (`holderIdentity`,
//! `leaseDurationSeconds`, `acquireTime`, `renewTime`, `leaseTransitions`). Unlike client-go,
//! where candidates judge expiry on their own clocks and the record carries no fencing token,
//! this coordinator judges expiry on its own clock and issues a token with every new term, as a
//! lock service does (etcd's revision, ZooKeeper's zxid, Chubby's sequencer; Kleppmann's
//! "How to do distributed locking"). Tokens come only from here, never from clients.

use serde::Serialize;

/// The Lease record plus the token counter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Coordinator {
    /// `holderIdentity`: `None` before the first grant or after a revoke.
    pub holder: Option<String>,
    /// `leaseDurationSeconds`, in ms.
    pub duration_ms: u64,
    /// `acquireTime` of the current term, in ms.
    pub acquire_time_ms: Option<u64>,
    /// `renewTime`, in ms.
    pub renew_time_ms: Option<u64>,
    /// `leaseTransitions`: changes of holder (0 after the first grant, as in Kubernetes).
    pub lease_transitions: u32,
    /// The token of the current (or last) term.
    pub token: Option<u64>,
    /// The token the next new term will get. Only ever grows.
    pub next_token: u64,
    /// The identity of the last holder, kept after a revoke to count transitions.
    pub last_holder: Option<String>,
}

/// The answer to an acquire request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AcquireResult {
    /// A new term: the lease was free or expired; `token` is fresh.
    Granted { token: u64, lease_transitions: u32 },
    /// The requester already holds a live lease (same identity): same term, same token,
    /// `renewTime` moved. (Consul and Hazelcast re-entrant acquire behave the same way.)
    Reacquired { token: u64 },
    /// Someone else holds a live lease.
    Refused { holder: String },
}

impl Coordinator {
    /// A coordinator with no holder whose first grant will carry `first_token`.
    pub fn new(duration_ms: u64, first_token: u64) -> Self {
        Self {
            holder: None,
            duration_ms,
            acquire_time_ms: None,
            renew_time_ms: None,
            lease_transitions: 0,
            token: None,
            next_token: first_token,
            last_holder: None,
        }
    }

    /// `renewTime + leaseDuration`: when the lease expires on the coordinator's clock, in ms.
    pub fn expires_ms(&self) -> Option<u64> {
        self.holder.as_ref()?;
        self.renew_time_ms.map(|t| t.saturating_add(self.duration_ms))
    }

    /// Whether a holder's lease is live at `now_ms` (expiry is exclusive: at `expires_ms` the
    /// lease is already free).
    pub fn is_live(&self, now_ms: u64) -> bool {
        self.expires_ms().is_some_and(|e| now_ms < e)
    }

    /// The newest token ever granted.
    pub fn newest_granted(&self) -> Option<u64> {
        self.token
    }

    /// Acquire, as one compare-and-swap on the record: succeeds only when the lease is free or
    /// expired by the coordinator's clock. Every new term takes the next token, also when the
    /// same identity takes the lease back after losing it (seed `002`: the issuer must never
    /// reuse or roll back a number). `leaseTransitions` grows when the holder changes.
    pub fn acquire(&mut self, identity: &str, now_ms: u64) -> AcquireResult {
        if self.is_live(now_ms) {
            return match (&self.holder, self.token) {
                (Some(holder), Some(token)) if holder == identity => {
                    self.renew_time_ms = Some(now_ms);
                    AcquireResult::Reacquired { token }
                }
                (holder, _) => AcquireResult::Refused { holder: holder.clone().unwrap_or_default() },
            };
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
        self.acquire_time_ms = Some(now_ms);
        self.renew_time_ms = Some(now_ms);
        AcquireResult::Granted { token, lease_transitions: self.lease_transitions }
    }

    /// Renew: succeeds only for the current holder presenting the current token before expiry,
    /// and moves `renewTime` to `now_ms`. Returns whether it succeeded.
    pub fn renew(&mut self, identity: &str, token: u64, now_ms: u64) -> bool {
        let ok = self.is_live(now_ms) && self.holder.as_deref() == Some(identity) && self.token == Some(token);
        if ok {
            self.renew_time_ms = Some(now_ms);
        }
        ok
    }

    /// Strike the holder's name now. The token counter is untouched, so the next grant is newer.
    /// Returns the identity that was struck.
    pub fn revoke(&mut self) -> Option<String> {
        let holder = self.holder.take();
        if holder.is_some() {
            self.last_holder = holder.clone();
        }
        holder
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_grant_takes_first_token_and_zero_transitions() {
        let mut c = Coordinator::new(15_000, 7);
        assert_eq!(c.acquire("chen", 0), AcquireResult::Granted { token: 7, lease_transitions: 0 });
        assert_eq!(c.holder.as_deref(), Some("chen"));
        assert_eq!(c.expires_ms(), Some(15_000));
    }

    #[test]
    fn compare_and_swap_refuses_while_live_and_grants_after_expiry() {
        let mut c = Coordinator::new(15_000, 7);
        c.acquire("chen", 1_000);
        assert_eq!(c.acquire("lin", 15_999), AcquireResult::Refused { holder: "chen".into() });
        // Expiry is exclusive: at renewTime + duration the lease is free.
        assert_eq!(c.acquire("lin", 16_000), AcquireResult::Granted { token: 8, lease_transitions: 1 });
        assert_eq!(c.acquire_time_ms, Some(16_000));
    }

    #[test]
    fn renew_needs_holder_current_token_and_a_live_lease() {
        let mut c = Coordinator::new(10_000, 41);
        c.acquire("a", 0);
        assert!(!c.renew("b", 41, 1_000), "not the holder");
        assert!(!c.renew("a", 40, 1_000), "not the current token");
        assert!(c.renew("a", 41, 9_000));
        assert_eq!(c.renew_time_ms, Some(9_000));
        assert!(!c.renew("a", 41, 19_000), "expired at 19 000");
    }

    #[test]
    fn same_identity_taking_the_lease_back_gets_a_new_token() {
        let mut c = Coordinator::new(10_000, 1);
        c.acquire("a", 0);
        assert_eq!(c.acquire("a", 10_000), AcquireResult::Granted { token: 2, lease_transitions: 0 });
        c.revoke();
        assert_eq!(c.acquire("a", 10_001), AcquireResult::Granted { token: 3, lease_transitions: 0 });
        assert_eq!(c.acquire("b", 20_001), AcquireResult::Granted { token: 4, lease_transitions: 1 });
    }

    #[test]
    fn live_reacquire_keeps_the_term() {
        let mut c = Coordinator::new(10_000, 5);
        c.acquire("a", 0);
        assert_eq!(c.acquire("a", 4_000), AcquireResult::Reacquired { token: 5 });
        assert_eq!(c.renew_time_ms, Some(4_000));
        assert_eq!(c.next_token, 6);
    }

    #[test]
    fn revoke_frees_at_once_and_counts_the_transition() {
        let mut c = Coordinator::new(10_000, 1);
        c.acquire("a", 0);
        assert_eq!(c.revoke().as_deref(), Some("a"));
        assert!(!c.is_live(1));
        assert!(!c.renew("a", 1, 1));
        assert_eq!(c.acquire("b", 2), AcquireResult::Granted { token: 2, lease_transitions: 1 });
    }
}
