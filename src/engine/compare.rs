//! Comparing two runs (issue 4): the same configuration, seed and live interventions with one
//! setting flipped, and the first moment their traces part.
//!
//! Both traces are deterministic, so the first entry where they differ is exactly where the
//! setting first mattered. Every judged write records whether fencing was on
//! ([`TraceEvent::WriteJudged`]'s `fencing`); that echo of the setting itself is not a
//! difference, what the resource did with the write is.

use super::profile::COMPARED_STORES;
use super::{
    Config, ConfigError, EqualTokenPolicy, Expiry, ExpiryJudges, LeaseConfig, Protocol, ReleaseCheck, RenewPolicy,
    ScheduledCommand, Sim, TraceEntry, TraceEvent, WriteOutcome,
};

/// A setting a comparison flips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setting {
    /// `resource.fencing`: whether the resource checks tokens (a live `set_fencing` still
    /// applies at its time in both runs).
    Fencing,
    /// `resource.epoch_barrier`: whether a grant raises the resource's mark (KAFKA-6082).
    EpochBarrier,
    /// `lock.release_check`: owner-checked release or a plain `DEL` (lock protocol only).
    ReleaseCheck,
    /// `lease.expiry`: the store's clock or each candidate's observation (lease protocol only).
    Expiry,
    /// `store.kind`: the same run on Redis and on etcd ([`COMPARED_STORES`], the profile's rule),
    /// where the run is valid on both (etcd's TTLs are whole seconds, at least 2 s, and it judges
    /// expiry itself).
    Store,
    /// `lease.renew_policy`: client-go's renewal (every `RetryPeriod`, a refusal retried until
    /// `RenewDeadline`) against giving up on the first refusal with a renewal every third of the
    /// lease (the other renewal settings follow the policy, as a scenario's defaults do).
    RenewPolicy,
}

impl Setting {
    /// Every setting, in menu order.
    pub const ALL: [Setting; 6] = [
        Setting::Fencing,
        Setting::EpochBarrier,
        Setting::ReleaseCheck,
        Setting::Expiry,
        Setting::Store,
        Setting::RenewPolicy,
    ];

    /// Whether flipping it can change a run of `config` and gives a valid one (release checks
    /// exist only for locks, observer expiry only for leases, and the epoch barrier needs equal
    /// tokens accepted: turning it on under another policy would not be a configuration).
    pub fn applies(self, config: &Config) -> bool {
        match self {
            Setting::Fencing => self.flipped(config).check().is_ok(),
            // Offered where flipping back gives the run again (a renewal interval other than
            // the policy's own is not one the flip could restore).
            Setting::RenewPolicy => {
                let other = self.flipped(config);
                other.check().is_ok() && self.flipped(&other) == *config
            }
            Setting::EpochBarrier => {
                config.resource.epoch_barrier || config.resource.equal_token == EqualTokenPolicy::Accept
            }
            Setting::ReleaseCheck => config.protocol == Protocol::Lock,
            // Where the store lets either judge (Redis): etcd judges alone, a Kubernetes Lease's
            // candidates alone.
            Setting::Expiry => {
                config.protocol == Protocol::Lease
                    && config.store_kind.rules().expiry_judges == ExpiryJudges::StoreOrCandidates
            }
            Setting::Store => config.store_kind.compared_with().is_some() && self.flipped(config).check().is_ok(),
        }
    }

    /// Whether the setting is on in `config` (fencing on, the barrier on, owner-checked release,
    /// observer expiry, the second of [`COMPARED_STORES`] (etcd), client-go's renewal).
    pub fn is_on(self, config: &Config) -> bool {
        match self {
            Setting::Fencing => config.resource.fencing,
            Setting::EpochBarrier => config.resource.epoch_barrier,
            Setting::ReleaseCheck => config.lock.release_check == ReleaseCheck::Owner,
            Setting::Expiry => config.lease.expiry == Expiry::Observer,
            Setting::Store => config.store_kind == COMPARED_STORES[1],
            Setting::RenewPolicy => config.lease.renew_policy == RenewPolicy::Retry,
        }
    }

    /// `config` with this setting flipped, everything else equal.
    pub fn flipped(self, config: &Config) -> Config {
        let mut c = config.clone();
        match self {
            Setting::Fencing => c.resource.fencing = !c.resource.fencing,
            Setting::EpochBarrier => c.resource.epoch_barrier = !c.resource.epoch_barrier,
            Setting::ReleaseCheck => {
                c.lock.release_check =
                    if c.lock.release_check == ReleaseCheck::Owner { ReleaseCheck::None } else { ReleaseCheck::Owner }
            }
            Setting::Expiry => {
                c.lease.expiry = if c.lease.expiry == Expiry::Observer { Expiry::Coordinator } else { Expiry::Observer }
            }
            Setting::Store => {
                if let Some(other) = c.store_kind.compared_with() {
                    c.store_kind = other;
                }
            }
            Setting::RenewPolicy => {
                if c.lease.renew_policy == RenewPolicy::Retry {
                    c.lease.renew_policy = RenewPolicy::GiveUp;
                    c.lease.renew_every_ms = LeaseConfig::with_duration(c.lease.duration_ms).renew_every_ms;
                } else {
                    c.lease.renew_policy = RenewPolicy::Retry;
                    c.lease.renew_every_ms = c.lease.retry_every_ms;
                }
            }
        }
        c
    }
}

/// Where two traces first part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// Position of the first differing entry (the same in both traces: all before are equal).
    pub index: usize,
    /// Its virtual time in ms: the earlier of the two entries' times (one trace may have ended).
    pub at_ms: u64,
    /// The entry in the first trace (`None`: it ended there).
    pub this: Option<TraceEntry>,
    /// The entry in the second trace (`None`: it ended there).
    pub other: Option<TraceEntry>,
}

/// Whether two entries say the same, the `fencing` flag of a judged write aside.
fn same(a: &TraceEntry, b: &TraceEntry) -> bool {
    if a == b {
        return true;
    }
    match (&a.event, &b.event) {
        (TraceEvent::WriteJudged { fencing: fa, .. }, TraceEvent::WriteJudged { fencing: fb, .. }) if fa != fb => {
            let mut b = b.clone();
            if let TraceEvent::WriteJudged { fencing, .. } = &mut b.event {
                *fencing = *fa;
            }
            *a == b
        }
        _ => false,
    }
}

/// The first entry where `this` and `other` differ, or `None` for traces that say the same.
pub fn first_difference(this: &[TraceEntry], other: &[TraceEntry]) -> Option<Divergence> {
    let index = this.iter().zip(other).position(|(a, b)| !same(a, b)).unwrap_or(this.len().min(other.len()));
    let (a, b) = (this.get(index).cloned(), other.get(index).cloned());
    let at_ms = match (&a, &b) {
        (Some(a), Some(b)) => a.at_ms.min(b.at_ms),
        (Some(e), None) | (None, Some(e)) => e.at_ms,
        (None, None) => return None,
    };
    Some(Divergence { index, at_ms, this: a, other: b })
}

/// Both runs to their end: `config` with `interventions` applied live at their times, and the
/// same with `setting` flipped, and where they first part.
///
/// # Errors
/// The engine's refusal of the configuration or of an intervention (as [`Sim::replay`]).
pub fn compare(
    config: &Config,
    interventions: &[ScheduledCommand],
    setting: Setting,
) -> Result<(Sim, Sim, Option<Divergence>), ConfigError> {
    let mut this = Sim::replay(config.clone(), interventions)?;
    this.run_to_end();
    let mut other = Sim::replay(setting.flipped(config), interventions)?;
    other.run_to_end();
    let divergence = first_difference(this.trace(), other.trace());
    Ok((this, other, divergence))
}
/// The verdicts in `trace`: `[writes accepted, writes refused, violations found]`. A duplicate
/// (applied once, reported) counts as neither accepted nor refused.
pub fn tally(trace: &[TraceEntry]) -> [usize; 3] {
    let mut n = [0; 3];
    for e in trace {
        match &e.event {
            TraceEvent::WriteJudged { outcome: WriteOutcome::Accepted, .. } => n[0] += 1,
            TraceEvent::WriteJudged { outcome: WriteOutcome::Duplicate, .. } => {}
            TraceEvent::WriteJudged { .. } => n[1] += 1,
            TraceEvent::ViolationFound { .. } => n[2] += 1,
            _ => {}
        }
    }
    n
}
