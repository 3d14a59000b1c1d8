//! The oracle: a safety checker that looks at every judged write.
//!
//! It knows what no single actor knows: the newest token the coordinator granted, the largest
//! token the resource ever accepted (even if the resource has since forgotten it), and every
//! operation that already took effect. So it can say when the resource obeyed a deposed leader,
//! went backwards, or applied a retried write twice. With fencing on and no fault, a stale write
//! can only pass while the resource has not yet seen the newer term (seed `002`: issuance informs
//! no one by itself); with fencing off it is the collision the harbor fable warns about.

use std::collections::BTreeSet;

use super::resource::Judgement;
use super::token::WireToken;
use super::trace::{Violation, WriteOutcome};

/// What the oracle remembers across writes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Oracle {
    /// The largest valid token the resource ever accepted.
    highest_accepted: u64,
    /// Every op id that took effect.
    applied: BTreeSet<String>,
}

impl Oracle {
    /// The violations this judged write caused, in a fixed order: stale, regression, duplicate,
    /// invalid.
    pub fn check_write(
        &mut self,
        judgement: &Judgement,
        token: &WireToken,
        newest_granted: Option<u64>,
        op_id: &str,
        from: Option<&str>,
    ) -> Vec<Violation> {
        if judgement.outcome != WriteOutcome::Accepted {
            return Vec::new();
        }
        let from = from.map(str::to_owned);
        let mut found = Vec::new();
        match token.valid() {
            Some(t) => {
                if let Some(newest) = newest_granted.filter(|newest| t < *newest) {
                    found.push(Violation::StaleWriteAccepted {
                        op_id: op_id.to_owned(),
                        from: from.clone(),
                        token: t,
                        newest_granted: newest,
                        resource_had_seen_newer: judgement.high_water_before > t,
                    });
                }
                if t < self.highest_accepted {
                    found.push(Violation::TokenRegression {
                        op_id: op_id.to_owned(),
                        from: from.clone(),
                        token: t,
                        highest_before: self.highest_accepted,
                    });
                }
                self.highest_accepted = self.highest_accepted.max(t);
            }
            None => found.push(Violation::InvalidTokenAccepted {
                op_id: op_id.to_owned(),
                from: from.clone(),
                token: token.clone(),
            }),
        }
        if !self.applied.insert(op_id.to_owned()) {
            found.push(Violation::DuplicateSideEffect { op_id: op_id.to_owned(), from });
        }
        found
    }
}
