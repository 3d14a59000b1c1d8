//! Time travel: seek anywhere in a run and fork it by intervening in the past.
//!
//! A [`Timeline`] holds a run's configuration and the live interventions, and keeps
//! checkpoints (clones of the [`Sim`]) on a fixed grid of virtual time, built lazily as far as
//! anyone has looked. Seeking to `t` clones the last checkpoint at or before `t` and plays the
//! rest, so a seek costs one clone plus at most one grid interval of simulation, never a replay
//! from zero. Intervening at `t` forks the run: interventions after `t` and checkpoints after `t`
//! are discarded, and the new future is computed from the new intervention.
//!
//! Memory: a checkpoint holds the state without its trace, and the timeline keeps one trace, the
//! furthest checkpoint's, of which every earlier checkpoint's is a prefix (its length is kept).
//! A run near the trace limit (500 000 entries) once took 64 copies of its trace, gigabytes that
//! crashed the page; now it takes one, plus the copy a seek hands out. The configuration (with
//! the scenario's scripted steps) is shared the same way: the timeline and every checkpoint hold
//! one `Arc<Config>`, never a copy each.
//!
//! Exactness: a checkpoint at `T` is the state after every intervention before `T` and every
//! event at or before `T`, and before any intervention at exactly `T`. Playing on from it applies
//! the remaining interventions exactly as [`Sim::replay`] does (advance to the intervention's
//! time, then apply), and advancing in two steps processes the same events in the same order as
//! advancing in one (the queue is ordered by time, then insertion). So a seek gives the state
//! [`Sim::replay`] gives, bit for bit: same trace, same `trace_hash` (tested).

use std::sync::Arc;

use super::{Command, Config, ConfigError, ScheduledCommand, Sim, TraceEntry};

/// Most checkpoints kept; the grid widens for long runs so memory stays bounded.
pub const MAX_CHECKPOINTS: u64 = 64;

/// Finest checkpoint grid, in ms of virtual time.
pub const MIN_CHECKPOINT_EVERY_MS: u64 = 5_000;

/// A run that can be sought and forked.
#[derive(Clone, Debug)]
pub struct Timeline {
    /// The one copy of the configuration, shared with every checkpoint.
    config: Arc<Config>,
    /// Live interventions in the order they apply (non-decreasing `at_ms`).
    interventions: Vec<ScheduledCommand>,
    /// Checkpoint grid, in ms.
    every_ms: u64,
    /// `checkpoints[k]` is the state at `k * every_ms` (see the module docs), without its trace,
    /// and the length of its trace.
    checkpoints: Vec<(Sim, usize)>,
    /// The last checkpoint's trace; every checkpoint's trace is a prefix of it.
    trace: Vec<TraceEntry>,
}

impl Timeline {
    /// A timeline of `config` with no live interventions. The checkpoint grid is the finer of
    /// [`MIN_CHECKPOINT_EVERY_MS`] and `until_ms / MAX_CHECKPOINTS` (rounded up).
    ///
    /// # Errors
    /// The configuration's [`ConfigError`].
    pub fn new(config: Config) -> Result<Self, ConfigError> {
        config.check()?;
        Ok(Self::from_checked(config))
    }

    /// As [`Timeline::new`], for a configuration already known to pass [`Config::check`] (see
    /// [`Sim::from_checked`]).
    pub(crate) fn from_checked(config: Config) -> Self {
        let mut start = Sim::from_checked(config);
        let config = start.shared_config();
        let trace = start.take_trace();
        let every_ms = config.until_ms.div_ceil(MAX_CHECKPOINTS).max(MIN_CHECKPOINT_EVERY_MS);
        Self { config, interventions: Vec::new(), every_ms, checkpoints: vec![(start, trace.len())], trace }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The live interventions, in the order they apply.
    pub fn interventions(&self) -> &[ScheduledCommand] {
        &self.interventions
    }

    /// The checkpoint grid, in ms.
    pub fn every_ms(&self) -> u64 {
        self.every_ms
    }

    /// How many checkpoints exist so far.
    pub fn checkpoints(&self) -> usize {
        self.checkpoints.len()
    }

    /// The run at `t_ms` (capped at `until_ms`): every event at or before it processed, every
    /// intervention at or before it applied.
    pub fn seek(&mut self, t_ms: u64) -> Sim {
        let t = t_ms.min(self.config.until_ms);
        let k = usize::try_from(t / self.every_ms).unwrap_or(usize::MAX);
        self.build_checkpoints_to(k);
        let k = k.min(self.checkpoints.len() - 1);
        let from = self.checkpoint_ms(k);
        let mut sim = self.restore(k);
        self.play(&mut sim, from, t, true);
        sim
    }

    /// Checkpoint `k` with its trace (a copy of the shared trace's prefix).
    fn restore(&self, k: usize) -> Sim {
        let (sim, len) = &self.checkpoints[k];
        let mut sim = sim.clone();
        sim.put_trace(self.trace.get(..*len).unwrap_or(&self.trace).to_vec());
        sim
    }

    /// Fork at `at_ms`: discard the interventions after it (and the checkpoints that saw them),
    /// apply `command` after those at or before `at_ms`, and return the run at `at_ms`.
    ///
    /// # Errors
    /// A command that names an unknown node or has bad arguments; the timeline is unchanged.
    pub fn intervene(&mut self, at_ms: u64, command: Command) -> Result<Sim, ConfigError> {
        let at = at_ms.min(self.config.until_ms);
        let mut sim = self.seek(at);
        sim.apply(command.clone())?;
        self.interventions.retain(|i| i.at_ms <= at);
        self.interventions.push(ScheduledCommand { at_ms: at, command });
        // Checkpoint k holds interventions before k × every, so the one at `at` itself stays.
        let keep = usize::try_from(at / self.every_ms).unwrap_or(usize::MAX).saturating_add(1);
        self.checkpoints.truncate(keep.max(1));
        let len = self.checkpoints.last().map_or(0, |(_, len)| *len);
        self.trace.truncate(len);
        Ok(sim)
    }

    /// Play `sim`, which has applied every intervention up to its own time, on to `to_ms`:
    /// the interventions after its time and at or before `to_ms` apply at their times (playing
    /// forward after a seek back replays the future that was not discarded).
    pub fn advance(&self, sim: &mut Sim, to_ms: u64) -> usize {
        let before = sim.trace().len();
        let now = sim.now_ms();
        for i in self.interventions.iter().filter(|i| i.at_ms > now && i.at_ms <= to_ms) {
            sim.advance_to(i.at_ms);
            let _ = sim.apply(i.command.clone());
        }
        sim.advance_to(to_ms);
        sim.trace().len() - before
    }

    /// One engine event forward (the step button): `sim`'s next trace entry, or, when an
    /// intervention is due first, everything at its millisecond and then the intervention. Never
    /// steps past an intervention still ahead, so stepping gives the run the interventions
    /// define, entry for entry. Returns the number of entries added.
    pub fn step(&self, sim: &mut Sim) -> usize {
        match self.next_intervention_ms(sim.now_ms()) {
            Some(at) => match sim.step_before(at) {
                0 => self.advance(sim, at),
                n => n,
            },
            None => sim.step(),
        }
    }

    /// The time of the first intervention after `after_ms`, if any.
    pub fn next_intervention_ms(&self, after_ms: u64) -> Option<u64> {
        self.interventions.iter().map(|i| i.at_ms).find(|at| *at > after_ms)
    }

    fn checkpoint_ms(&self, k: usize) -> u64 {
        (k as u64).saturating_mul(self.every_ms)
    }

    /// Extend the checkpoints up to index `k` (never past `until_ms`).
    fn build_checkpoints_to(&mut self, k: usize) {
        while self.checkpoints.len() <= k {
            let last = self.checkpoints.len() - 1;
            let from = self.checkpoint_ms(last);
            let to = self.checkpoint_ms(last + 1);
            if from >= self.config.until_ms {
                break;
            }
            // The shared trace is exactly the last checkpoint's: lent to it, not copied.
            let mut sim = self.checkpoints[last].0.clone();
            sim.put_trace(std::mem::take(&mut self.trace));
            self.play(&mut sim, from, to, false);
            self.trace = sim.take_trace();
            self.checkpoints.push((sim, self.trace.len()));
        }
    }

    /// Play `sim` (which is at `from_ms`, before any intervention at exactly `from_ms`) to
    /// `to_ms`: interventions at or after `from_ms` and before `to_ms` (or at it, when
    /// `through` is set) are applied at their times, as [`Sim::replay`] does.
    fn play(&self, sim: &mut Sim, from_ms: u64, to_ms: u64, through: bool) {
        for i in &self.interventions {
            let due = if through { i.at_ms <= to_ms } else { i.at_ms < to_ms };
            if i.at_ms < from_ms || !due {
                continue;
            }
            sim.advance_to(i.at_ms);
            // Checked when it was first applied; a failure here cannot happen and would only
            // skip the command.
            let _ = sim.apply(i.command.clone());
        }
        sim.advance_to(to_ms);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::Timeline;

    #[test]
    fn the_timeline_and_every_checkpoint_share_one_config() {
        let scenario = crate::scenario::library::get("harbor-zombie").expect("built in").expect("parses");
        let mut timeline = Timeline::new(scenario.config).expect("valid");
        let sim = timeline.seek(timeline.config().until_ms);
        assert!(timeline.checkpoints() > 2);
        assert!(timeline.checkpoints.iter().all(|(c, _)| Arc::ptr_eq(&c.shared_config(), &timeline.config)));
        assert!(Arc::ptr_eq(&sim.shared_config(), &timeline.config), "a seek hands out the same config too");
    }
}
