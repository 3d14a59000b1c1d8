//! A small exhaustive explorer: breadth-first over interventions placed on a coarse time grid.
//!
//! For a configuration, a set of candidate commands and a bound on how many may be applied, it
//! finds the shortest sequence of interventions (fewest commands, then earliest) after which the
//! run contains a violation the caller is looking for, or reports that none exists within the
//! bound. Each candidate sequence is replayed with [`Sim::replay`] and played to the end.
//! Deterministic: the same question always gets the same answer.

use super::{Command, Config, ConfigError, ScheduledCommand, Sim, TraceEvent, Violation};

/// The question to explore.
#[derive(Clone, Debug)]
pub struct Bounds {
    /// Interventions happen only at multiples of this, in ms (> 0).
    pub grid_ms: u64,
    /// The most interventions in one sequence.
    pub max_interventions: usize,
    /// The commands the explorer may choose from (each may be used any number of times).
    pub candidates: Vec<Command>,
    /// Stop after this many runs have been examined (a safety net for large questions).
    pub max_states: usize,
}

/// The explorer's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The shortest sequence found, with the violation it produced; `None` if none exists within
    /// the bounds (or the state budget ran out: see `exhausted`).
    pub found: Option<(Vec<ScheduledCommand>, Violation)>,
    /// Runs examined (each a distinct intervention sequence played to the end).
    pub states_visited: usize,
    /// True when every sequence within the bounds was examined.
    pub exhausted: bool,
}

/// Explore `config` (its own scheduled events included) for a violation accepted by `wanted`.
///
/// # Errors
/// The configuration's [`ConfigError`], or a candidate command that names an unknown node.
pub fn shortest_violation(
    config: &Config,
    bounds: &Bounds,
    wanted: impl Fn(&Violation) -> bool,
) -> Result<Outcome, ConfigError> {
    let grid = bounds.grid_ms.max(1);
    let until = config.until_ms;
    Sim::new(config.clone())?;
    let mut visited = 0usize;
    let find = |sim: &Sim| {
        sim.trace().iter().find_map(|e| match &e.event {
            TraceEvent::ViolationFound { violation, .. } if wanted(violation) => Some(violation.clone()),
            _ => None,
        })
    };
    // Level k holds the sequences of exactly k interventions. Only the sequences are kept: a
    // state is rebuilt by replaying its sequence (a few hundred microseconds), which keeps memory
    // flat however wide a level grows.
    let mut level: Vec<Vec<ScheduledCommand>> = vec![Vec::new()];
    for depth in 0..=bounds.max_interventions {
        let mut next = Vec::new();
        for sequence in &level {
            if visited >= bounds.max_states {
                return Ok(Outcome { found: None, states_visited: visited, exhausted: false });
            }
            let sim = Sim::replay(config.clone(), sequence)?;
            let mut end = sim.clone();
            end.run_to_end();
            visited += 1;
            if let Some(v) = find(&end) {
                return Ok(Outcome { found: Some((sequence.clone(), v)), states_visited: visited, exhausted: false });
            }
            if depth == bounds.max_interventions {
                continue;
            }
            // Later interventions come at or after the last one, on the grid.
            let mut at = sim.now_ms().div_ceil(grid) * grid;
            while at < until {
                for command in &bounds.candidates {
                    let mut seq = sequence.clone();
                    seq.push(ScheduledCommand { at_ms: at, command: command.clone() });
                    next.push(seq);
                }
                at += grid;
            }
        }
        level = next;
    }
    Ok(Outcome { found: None, states_visited: visited, exhausted: true })
}
