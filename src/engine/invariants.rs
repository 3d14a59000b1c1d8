//! The engine's own invariants, checked after every step in debug builds (as TigerBeetle's
//! simulator checks its state after every tick): a broken one is a bug in the engine, never a
//! finding about the scenario. The oracle ([`oracle`](super::oracle)) judges what the modelled
//! system did wrong; these check that the model itself keeps its rules.
//!
//! - Fencing tokens only climb: each new grant's token is above the previous grant's, unless a
//!   fault rolled the issuer back since ([`Command::RollbackIssuer`](super::Command::RollbackIssuer),
//!   etcd-io/etcd#16028). After such a fault the issuer may also run out of numbers at
//!   `u64::MAX` and repeat it; that too is the fault's doing.
//! - Each resource's high-water mark never falls, unless a fault lost that resource's mark in
//!   that very step ([`Command::RestoreResource`](super::Command::RestoreResource) from an older
//!   backup, [`Command::RestartResource`](super::Command::RestartResource) of a mark kept in
//!   memory). A fault at one resource excuses no other: each mark is checked on its own.
//! - Where the store judges expiry ([`Sim::store_judges_expiry`]), at most one holder at a time
//!   in the store's own view: the store grants a new term only once the previous lease is no
//!   longer live on its own clock (expired, released or revoked). A fail-over
//!   ([`Command::StoreFailover`](super::Command::StoreFailover)) replaces that view with the
//!   promoted server's: on Redis a replica that lost the last grant lets a second client acquire
//!   while the first still holds, so outside the store "one holder" holds only where no
//!   fail-over was injected; and a lost `INCR` may repeat a token, as an issuer rollback does. Under client-go's observer expiry the store judges nothing,
//!   and a takeover while the old holder still believes is the point of the lesson.
//!
//! A step is one queued item processed ([`Sim::advance_to`], [`Sim::step`]) or one live command
//! applied ([`Sim::apply`]). The checks read the state before and after the step and the trace
//! entries it added; once the run has ended (also at the trace limit, where entries are left
//! out) nothing is checked.

use super::{Sim, TraceEvent};

/// What the checks carry from one step to the next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Invariants {
    /// A fault rolled the issuer back since the last grant: the next grant may carry a token at
    /// or below the previous one.
    issuer_rolled_back: bool,
}

/// The state a step starts from, as the checks compare it.
pub(super) struct StepStart {
    /// Trace entries before the step.
    trace_len: usize,
    /// The newest token granted before the step (the previous grant's).
    newest_granted: Option<u64>,
    /// Each resource's high-water mark before the step, by index.
    high_water: Vec<u64>,
    /// The token of the lease live on the store's clock as the step begins, where the store
    /// judges expiry; `None` when no lease is live or the store does not judge.
    live_token: Option<u64>,
}

impl Sim {
    /// Runs one step; in debug builds, checks the invariants after it. In every build the
    /// store's state after it is remembered for a later fail-over ([`Sim::remember_store_state`]).
    pub(super) fn checked_step(&mut self, step: impl FnOnce(&mut Self)) {
        if cfg!(debug_assertions) {
            let start = self.step_start();
            step(self);
            self.invariants = self.check_invariants(&start);
        } else {
            step(self);
        }
        self.remember_store_state();
    }

    fn step_start(&self) -> StepStart {
        StepStart {
            trace_len: self.trace.len(),
            newest_granted: self.store.coordinator.newest_granted(),
            high_water: self.resources.iter().map(|r| r.high_water).collect(),
            live_token: self.store.live_token(self.now_ms),
        }
    }

    /// Panics (`debug_assert!`) when the step that began at `start` broke an invariant; returns
    /// what the next step's check carries over.
    fn check_invariants(&self, start: &StepStart) -> Invariants {
        let mut carried = self.invariants;
        if self.ended {
            return carried;
        }
        let mut previous = start.newest_granted;
        let mut live = start.live_token;
        // The resources whose mark a fault lost in this step, by name (`None`: the unnamed one).
        let mut high_water_lost: Vec<Option<String>> = Vec::new();
        for entry in self.trace.get(start.trace_len..).unwrap_or_default() {
            match entry.event {
                TraceEvent::IssuerRolledBack { .. } => carried.issuer_rolled_back = true,
                TraceEvent::ResourceRestored { ref resource, .. }
                | TraceEvent::ResourceRestarted { ref resource, .. } => high_water_lost.push(resource.clone()),
                TraceEvent::StoreFailedOver { next_token_before, next_token, .. } => {
                    // A promoted replica may lack the last grant and its `INCR` (Redis): the
                    // store's view restarts from the replica's, like an issuer rolled back.
                    if next_token < next_token_before {
                        carried.issuer_rolled_back = true;
                    }
                    previous = self.store.coordinator.newest_granted();
                    live = self.store.live_token(self.now_ms);
                }
                TraceEvent::LeaseGranted { token, .. } => {
                    debug_assert!(
                        carried.issuer_rolled_back || previous.is_none_or(|p| token > p || p == u64::MAX),
                        "invariant: fencing tokens only climb, but token {token} was granted after {previous:?} \
                         with no issuer rollback since (at {} ms)",
                        self.now_ms
                    );
                    debug_assert!(
                        live.is_none(),
                        "invariant: one holder at a time, but token {token} was granted while the lease of \
                         token {live:?} was still live on the store's clock (at {} ms)",
                        self.now_ms
                    );
                    previous = Some(token);
                    live = self.store_judges_expiry().then_some(token);
                    carried.issuer_rolled_back = false;
                }
                _ => {}
            }
        }
        debug_assert_eq!(
            self.store.coordinator.newest_granted(),
            previous,
            "invariant: the newest token the store granted is the last grant the trace records (at {} ms)",
            self.now_ms
        );
        for (r, before) in self.resources.iter().zip(&start.high_water) {
            debug_assert!(
                high_water_lost.contains(&r.name) || r.high_water >= *before,
                "invariant: the high-water mark never falls, but resource {:?}'s fell from {before} to {} \
                 with no fault that loses it (at {} ms)",
                r.name,
                r.high_water,
                self.now_ms
            );
        }
        carried
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Command, Sim, TraceEvent};

    /// Two nodes on the harbor's Lease, the store judging expiry; `a` holds from the start and
    /// keeps renewing.
    fn harbor(expiry: &str) -> Sim {
        let json = format!(
            r#"{{"format":"leaselab.scenario/1","seed":3,"until_ms":60000,
              "nodes":[{{"id":"a"}},{{"id":"b","start_ms":1000}}],
              "lease":{{"duration_ms":15000,"renew_every_ms":5000,"renew_deadline_ms":10000,
                        "retry_every_ms":2000,"expiry":"{expiry}"}},
              "network":{{"latency_ms":{{"min":20,"max":80}}}}}}"#
        );
        let scenario = crate::scenario::parse(&json).expect("the test scenario parses");
        let mut sim = Sim::new(scenario.config).expect("valid");
        sim.advance_to(3_000);
        assert_eq!(sim.store.coordinator.holder.as_deref(), Some("a"), "a holds by 3 s");
        sim
    }

    /// The index of node `id`.
    fn node(sim: &Sim, id: &str) -> usize {
        sim.node_index(id).expect("known node")
    }

    fn grants(sim: &Sim) -> Vec<u64> {
        sim.trace()
            .iter()
            .filter_map(|e| match e.event {
                TraceEvent::LeaseGranted { token, .. } => Some(token),
                _ => None,
            })
            .collect()
    }

    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "invariant: fencing tokens only climb")]
    fn a_grant_that_reuses_a_token_without_a_rollback_fires() {
        let mut sim = harbor("coordinator");
        let b = node(&sim, "b");
        sim.apply(Command::RevokeLease).expect("valid");
        sim.checked_step(|s| {
            // The issuer (broken) hands out the number it already gave.
            s.store.coordinator.next_token = s.store.coordinator.next_token.saturating_sub(1);
            let now = s.now_ms;
            s.on_acquire(b, 0, (0, now), None);
        });
    }

    #[test]
    fn a_grant_after_an_issuer_rollback_may_reuse_a_token() {
        let mut sim = harbor("coordinator");
        let first = sim.store.coordinator.token.expect("granted");
        sim.apply(Command::RevokeLease).expect("valid");
        sim.apply(Command::RollbackIssuer { next_token: first }).expect("valid");
        sim.advance_to(10_000);
        assert_eq!(grants(&sim), [first, first], "the rolled-back issuer granted {first} again, unchecked");
    }

    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "invariant: the high-water mark never falls")]
    fn a_high_water_mark_that_falls_without_a_fault_fires() {
        let mut sim = harbor("coordinator");
        assert!(sim.resources[0].high_water > 0, "a wrote with its token");
        sim.checked_step(|s| {
            s.resources[0].restore(0);
        });
    }

    #[test]
    fn a_restore_from_an_old_backup_may_lower_the_high_water_mark() {
        let mut sim = harbor("coordinator");
        sim.apply(Command::RestoreResource { high_water: 0, resource: None }).expect("valid");
        assert_eq!(sim.resources[0].high_water, 0);
    }

    /// Each resource's mark is checked on its own: a fault that lost one resource's mark
    /// excuses no fall of another's.
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "invariant: the high-water mark never falls")]
    fn a_fault_at_one_resource_excuses_no_fall_at_another() {
        let json = r#"{"format":"leaselab.scenario/1","until_ms":5000,"nodes":[],"resources":["db","blobs"],
          "events":[{"at_ms":1,"do":"raw_write","token":5,"value":"a"},
                    {"at_ms":1,"do":"raw_write","token":5,"value":"b","resource":"blobs"}]}"#;
        let mut sim = Sim::new(crate::scenario::parse(json).expect("valid").config).expect("valid");
        sim.advance_to(2);
        assert_eq!((sim.resources[0].high_water, sim.resources[1].high_water), (5, 5));
        sim.checked_step(|s| {
            s.execute(Command::RestoreResource { high_water: 0, resource: Some("db".into()) });
            s.resources[1].restore(0);
        });
    }

    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "invariant: one holder at a time")]
    fn a_grant_while_the_lease_is_live_fires_where_the_store_judges_expiry() {
        let mut sim = harbor("coordinator");
        let b = node(&sim, "b");
        sim.checked_step(|s| {
            // The record (broken) forgets its live holder and grants b a second term at once.
            s.store.coordinator.holder = None;
            let now = s.now_ms;
            s.on_acquire(b, 0, (0, now), None);
        });
    }

    #[test]
    fn under_observer_expiry_a_takeover_is_not_checked_against_the_store() {
        let mut sim = harbor("observer");
        let b = node(&sim, "b");
        let seen = sim.store.coordinator.version;
        // b saw this very version expire on its own clock: the store compare-and-swaps.
        sim.checked_step(|s| {
            let now = s.now_ms;
            s.on_acquire(b, 0, (0, now), Some(seen));
        });
        assert_eq!(sim.store.coordinator.holder.as_deref(), Some("b"));
    }
}
