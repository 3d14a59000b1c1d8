//! The fenced resource (the flag-verifier and the boat).
//!
//! Rules from seed `002` and Kleppmann's "How to do distributed locking": the resource keeps a
//! durable high-water mark (the largest token it has accepted) and checks every write against it
//! in the same atomic step that applies the write. Lower tokens are refused; higher tokens are
//! accepted and raise the mark; equal tokens follow an explicit [`EqualTokenPolicy`]; a missing
//! or malformed token is refused and changes nothing. A stale token still passes while the
//! resource has not yet seen a newer one: issuing a token informs no one by itself.

use serde::Serialize;

use super::config::{EqualTokenPolicy, TokenCheck, TokenScope};
use super::token::WireToken;
use super::trace::WriteOutcome;

/// State of the fenced resource.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Resource {
    /// Its name (`resources` in a scenario); `None` for the one unnamed resource of a run that
    /// declares none. Each resource keeps its own mark: what one has seen says nothing to another.
    pub name: Option<String>,
    /// Whether tokens are checked. Off, every write is obeyed.
    pub fencing: bool,
    pub equal_token: EqualTokenPolicy,
    /// Whether the mark survives a restart (see [`Resource::restart`]).
    pub persist_high_water: bool,
    /// How tokens are compared with the mark.
    pub token_check: TokenCheck,
    /// Which lock's tokens are compared.
    pub token_scope: TokenScope,
    /// The largest valid token accepted so far; 0 before any.
    pub high_water: u64,
    /// The lock whose token set the mark, when it is not the one guarding this resource (only
    /// possible under [`TokenScope::Global`], reference case C23). `None` when this lock's own
    /// token, a barrier or a restore set it.
    pub mark_lock: Option<String>,
    /// The mark this lock's own tokens (and barriers, restores) alone would have left: equal to
    /// `high_water` whenever `mark_lock` is `None`.
    own_high_water: u64,
    /// The value of the last accepted write.
    pub value: Option<String>,
    pub value_from: Option<String>,
    pub value_token: Option<WireToken>,
    /// Op ids already applied (kept only under the `dedupe` policy).
    applied_ops: super::queue::Names,
    pub accepted: u64,
    pub rejected: u64,
}

/// The result of one atomic check-and-write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Judgement {
    pub outcome: WriteOutcome,
    pub high_water_before: u64,
    pub high_water_after: u64,
    /// A refusal caused only by another lock's token: against this lock's own tokens the write
    /// would have passed (see [`Resource::mark_lock`]).
    pub foreign_mark: bool,
}

impl Resource {
    pub fn new(fencing: bool, equal_token: EqualTokenPolicy) -> Self {
        Self {
            name: None,
            fencing,
            equal_token,
            persist_high_water: true,
            token_check: TokenCheck::Ordered,
            token_scope: TokenScope::PerLock,
            high_water: 0,
            mark_lock: None,
            own_high_water: 0,
            value: None,
            value_from: None,
            value_token: None,
            applied_ops: super::queue::Names::default(),
            accepted: 0,
            rejected: 0,
        }
    }

    /// Check the token and, if it passes, apply the write: one atomic step.
    pub fn write(&mut self, token: &WireToken, value: &str, op_id: &str, from: Option<&str>) -> Judgement {
        self.write_scoped(token, value, op_id, from, None)
    }

    /// As [`Resource::write`], for a token that comes from `foreign_lock` when that is another
    /// lock than the one guarding this resource: refused under [`TokenScope::PerLock`], compared
    /// as a bare number under [`TokenScope::Global`].
    pub fn write_scoped(
        &mut self,
        token: &WireToken,
        value: &str,
        op_id: &str,
        from: Option<&str>,
        foreign_lock: Option<&str>,
    ) -> Judgement {
        let before = self.high_water;
        let outcome = if foreign_lock.is_some() && self.fencing && self.token_scope == TokenScope::PerLock {
            WriteOutcome::RejectedForeignLock
        } else {
            self.decide(self.high_water, token, op_id)
        };
        let foreign_mark = outcome == WriteOutcome::RejectedStale
            && foreign_lock.is_none()
            && self.mark_lock.is_some()
            && self.decide(self.own_high_water, token, op_id) == WriteOutcome::Accepted;
        if outcome == WriteOutcome::Accepted {
            if let Some(t) = token.valid() {
                // The mark records what was seen even while fencing is off, so turning fencing
                // back on resumes from the truth.
                if t > self.high_water {
                    self.mark_lock = foreign_lock.map(str::to_owned);
                }
                self.high_water = self.high_water.max(t);
                if foreign_lock.is_none() {
                    self.own_high_water = self.own_high_water.max(t);
                }
            }
            self.value = Some(value.to_owned());
            self.value_from = from.map(str::to_owned);
            self.value_token = Some(token.clone());
            if self.equal_token == EqualTokenPolicy::Dedupe {
                self.applied_ops.insert(op_id);
            }
            self.accepted += 1;
        } else {
            self.rejected += 1;
        }
        Judgement { outcome, high_water_before: before, high_water_after: self.high_water, foreign_mark }
    }

    /// Raise the mark to `token` without a write (`resource.epoch_barrier`: the new term fences
    /// the resource before its holder works). Never lowers it. Returns the mark before.
    pub fn raise_mark(&mut self, token: u64) -> u64 {
        let before = self.high_water;
        if token > before {
            self.mark_lock = None;
        }
        self.high_water = self.high_water.max(token);
        self.own_high_water = self.own_high_water.max(token);
        before
    }

    /// Restore from a backup whose mark was `high_water`; the op ids applied after that backup
    /// are forgotten too. Returns the mark before.
    pub fn restore(&mut self, high_water: u64) -> u64 {
        let before = self.high_water;
        self.high_water = high_water;
        // The backup records a number, not whose it was.
        self.own_high_water = high_water;
        self.mark_lock = None;
        if high_water < before {
            self.applied_ops.clear();
        }
        before
    }

    /// The resource process restarts: a durable mark survives, one kept in memory starts again
    /// from 0 (and so do the applied op ids). Returns the mark before.
    pub fn restart(&mut self) -> u64 {
        let before = self.high_water;
        if !self.persist_high_water {
            self.high_water = 0;
            self.own_high_water = 0;
            self.mark_lock = None;
            self.applied_ops.clear();
        }
        before
    }

    /// The verdict on `token` against the mark `high_water`.
    fn decide(&self, high_water: u64, token: &WireToken, op_id: &str) -> WriteOutcome {
        if !self.fencing {
            return WriteOutcome::Accepted;
        }
        let Some(t) = token.valid() else {
            return WriteOutcome::RejectedInvalid;
        };
        if t < high_water || (t == high_water && self.equal_token == EqualTokenPolicy::Reject) {
            return WriteOutcome::RejectedStale;
        }
        if self.token_check == TokenCheck::Equality && high_water != 0 && t != high_water {
            return WriteOutcome::RejectedStale;
        }
        if self.equal_token == EqualTokenPolicy::Dedupe && self.applied_ops.contains(op_id) {
            return WriteOutcome::Duplicate;
        }
        WriteOutcome::Accepted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use WriteOutcome::*;

    fn n(t: u64) -> WireToken {
        WireToken::Number(t)
    }

    /// The sequence of checks in seed `002`'s model, step by step.
    #[test]
    fn seed_002_sequence() {
        let mut r = Resource::new(true, EqualTokenPolicy::Accept);
        // Issuance alone has not told the resource about term 2: the old token passes.
        assert_eq!(r.write(&n(1), "arrived-before-new-epoch", "a", None).outcome, Accepted);
        assert_eq!(r.write(&n(2), "from-new-leader", "b", None).outcome, Accepted);
        let j = r.write(&n(1), "must-not-land", "c", None);
        assert_eq!(j.outcome, RejectedStale);
        assert_eq!((j.high_water_after, r.value.as_deref()), (2, Some("from-new-leader")));
        assert_eq!(r.write(&n(2), "second-write-in-same-epoch", "d", None).outcome, Accepted);
        assert_eq!(r.high_water, 2);
        for bad in [
            WireToken::Malformed("null".into()),
            WireToken::Malformed("\"2\"".into()),
            WireToken::Malformed("true".into()),
        ] {
            assert_eq!(r.write(&bad, "must-not-land", "x", None).outcome, RejectedInvalid);
            assert_eq!((r.high_water, r.value.as_deref()), (2, Some("second-write-in-same-epoch")));
        }
        assert_eq!(r.write(&n(3), "newest", "e", None).outcome, Accepted);
        assert_eq!(r.write(&n(2), "must-not-land", "f", None).outcome, RejectedStale);
        assert_eq!((r.high_water, r.value.as_deref()), (3, Some("newest")));
    }

    #[test]
    fn zero_and_missing_tokens_are_invalid_not_unchecked() {
        let mut r = Resource::new(true, EqualTokenPolicy::Accept);
        r.write(&n(42), "v", "a", None);
        assert_eq!(r.write(&n(0), "w", "b", None).outcome, RejectedInvalid);
        assert_eq!(r.write(&WireToken::Missing, "w", "c", None).outcome, RejectedInvalid);
        assert_eq!((r.high_water, r.value.as_deref(), r.rejected), (42, Some("v"), 2));
    }

    #[test]
    fn equal_token_policies() {
        let mut reject = Resource::new(true, EqualTokenPolicy::Reject);
        assert_eq!(reject.write(&n(5), "v", "a", None).outcome, Accepted);
        assert_eq!(reject.write(&n(5), "w", "b", None).outcome, RejectedStale);

        let mut dedupe = Resource::new(true, EqualTokenPolicy::Dedupe);
        assert_eq!(dedupe.write(&n(5), "v", "a", None).outcome, Accepted);
        assert_eq!(dedupe.write(&n(5), "v", "a", None).outcome, Duplicate);
        assert_eq!(dedupe.write(&n(5), "w", "b", None).outcome, Accepted);
        assert_eq!(dedupe.accepted, 2);
    }

    #[test]
    fn a_mark_kept_in_memory_is_lost_on_restart_and_old_tokens_pass_again() {
        let mut durable = Resource::new(true, EqualTokenPolicy::Accept);
        durable.write(&n(5), "v", "a", None);
        assert_eq!(durable.restart(), 5);
        assert_eq!(durable.write(&n(4), "old", "b", None).outcome, RejectedStale);

        let mut volatile = Resource::new(true, EqualTokenPolicy::Accept);
        volatile.persist_high_water = false;
        volatile.write(&n(5), "v", "a", None);
        volatile.restart();
        assert_eq!(volatile.high_water, 0);
        assert_eq!(volatile.write(&n(4), "old", "b", None).outcome, Accepted, "oxia-db/oxia#87");
    }

    /// Reference C4 (etcd-io/etcd#11788): comparing ids for equality refuses the stale holder
    /// and the newer legitimate one alike.
    #[test]
    fn an_equality_check_also_refuses_the_newer_holder() {
        let mut eq = Resource::new(true, EqualTokenPolicy::Accept);
        eq.token_check = TokenCheck::Equality;
        assert_eq!(eq.write(&n(2), "c2", "a", None).outcome, Accepted);
        assert_eq!(eq.write(&n(1), "c1", "b", None).outcome, RejectedStale);
        assert_eq!(eq.write(&n(3), "c3", "c", None).outcome, RejectedStale);
        assert_eq!(eq.write(&n(2), "c2 again", "d", None).outcome, Accepted);
        let mut ordered = Resource::new(true, EqualTokenPolicy::Accept);
        ordered.write(&n(2), "c2", "a", None);
        assert_eq!(ordered.write(&n(3), "c3", "c", None).outcome, Accepted);
    }

    #[test]
    fn a_restore_to_a_lower_mark_lets_older_tokens_pass() {
        let mut r = Resource::new(true, EqualTokenPolicy::Accept);
        r.write(&n(990), "v", "a", None);
        assert_eq!(r.restore(900), 990);
        assert_eq!(r.write(&n(905), "w", "b", None).outcome, Accepted);
        assert_eq!(r.high_water, 905);
    }

    /// Reference C23: a token of another lock is refused by a per-lock resource however large,
    /// and passes (raising the mark over the guarding lock's own holder) when compared globally.
    #[test]
    fn tokens_of_another_lock() {
        let mut per_lock = Resource::new(true, EqualTokenPolicy::Accept);
        per_lock.write(&n(50), "x", "a", None);
        let j = per_lock.write_scoped(&n(51), "y", "b", None, Some("invoices"));
        assert_eq!((j.outcome, per_lock.high_water), (RejectedForeignLock, 50));
        assert_eq!(per_lock.write(&n(50), "x again", "c", None).outcome, Accepted);
        let mut global = Resource::new(true, EqualTokenPolicy::Accept);
        global.token_scope = TokenScope::Global;
        global.write(&n(50), "x", "a", None);
        assert_eq!(global.write_scoped(&n(51), "y", "b", None, Some("invoices")).outcome, Accepted);
        assert_eq!(global.mark_lock.as_deref(), Some("invoices"));
        // The guarding lock's own holder is shut out by the other lock's number...
        let j = global.write(&n(50), "x again", "c", None);
        assert_eq!((j.outcome, j.foreign_mark), (RejectedStale, true));
        // ...while a token that its own mark refuses anyway is an ordinary stale refusal.
        assert!(!global.write(&n(49), "deposed", "d", None).foreign_mark);
        // A newer term of the guarding lock takes the mark back.
        assert_eq!(global.write(&n(52), "x next", "e", None).outcome, Accepted);
        assert_eq!(global.mark_lock, None);
        assert!(!global.write(&n(50), "x old", "f", None).foreign_mark);
    }

    #[test]
    fn a_barrier_raises_the_mark_but_never_lowers_it() {
        let mut r = Resource::new(true, EqualTokenPolicy::Accept);
        assert_eq!(r.raise_mark(8), 0);
        assert_eq!(r.write(&n(7), "old", "a", None).outcome, RejectedStale);
        assert_eq!(r.write(&n(8), "new", "b", None).outcome, Accepted);
        assert_eq!(r.raise_mark(3), 8);
        assert_eq!(r.high_water, 8);
    }

    #[test]
    fn fencing_off_obeys_everything_but_still_records_the_mark() {
        let mut r = Resource::new(false, EqualTokenPolicy::Accept);
        assert_eq!(r.write(&n(8), "lin", "a", Some("lin")).outcome, Accepted);
        assert_eq!(r.write(&n(7), "chen", "b", Some("chen")).outcome, Accepted);
        assert_eq!(r.write(&WireToken::Missing, "x", "c", None).outcome, Accepted);
        assert_eq!(r.high_water, 8);
        r.fencing = true;
        assert_eq!(r.write(&n(7), "chen", "d", Some("chen")).outcome, RejectedStale);
    }
}
