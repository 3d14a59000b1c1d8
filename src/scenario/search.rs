//! The answers to the engine's questions: a search (`leaselab.search/1`) and a sweep
//! (`leaselab.sweep/1`): what `leaselab search` and `leaselab sweep` print and what the page's
//! search worker posts, one shape for both, so the two can be compared byte for byte.
//!
//! ```json
//! {"format":"leaselab.search/1","scenario":"harbor-no-fencing","goals":["stale_write_accepted"],
//!  "space":{…},"result":"found","found":{"goal":…,"interventions":[…],"at_ms":…,"trace_hash":…},
//!  "progress":{"states":…,"runs":…,"depth":…,"queued":…},"link":"p.chen.20000"}
//! ```
//!
//! `link` is the found run's interventions in the share link's `do=` form
//! ([`super::link::encode`]): `?scenario=ID&v=1&do=LINK` replays it in the page, to the same
//! trace hash.

use serde::Serialize;

use crate::engine::search::{Goal, Outcome, Space};
use crate::engine::sweep::{Point, SweepSpec};

/// The answer format's name and version.
pub const SEARCH_FORMAT: &str = "leaselab.search/1";

/// A search's answer, for printing or posting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Answer {
    pub format: &'static str,
    /// The scenario's id.
    pub scenario: String,
    pub goals: Vec<Goal>,
    pub space: Space,
    #[serde(flatten)]
    pub outcome: Outcome,
    /// The found run's interventions as a share link's `do=` value; absent when nothing was
    /// found (or, never for the search's own choices, a command a link cannot carry).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

impl Answer {
    /// The answer for `outcome`, a search of scenario `scenario` for `goals` within `space`.
    pub fn new(scenario: &str, goals: &[Goal], space: &Space, outcome: Outcome) -> Self {
        let link = match &outcome {
            Outcome::Found { found, .. } => super::link::encode(&found.interventions),
            _ => None,
        };
        Self {
            format: SEARCH_FORMAT,
            scenario: scenario.to_owned(),
            goals: goals.to_vec(),
            space: space.clone(),
            outcome,
            link,
        }
    }
}

/// The sweep format's name and version.
pub const SWEEP_FORMAT: &str = "leaselab.sweep/1";

/// A sweep's answer: the scenario, what was turned, and one point per setting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SweepAnswer {
    pub format: &'static str,
    /// The scenario's id.
    pub scenario: String,
    /// The scenario's own seed: the first of each point's seeds.
    pub first_seed: u64,
    pub spec: SweepSpec,
    pub points: Vec<Point>,
}

impl SweepAnswer {
    /// The answer for a sweep of scenario `scenario` (whose seed is `first_seed`).
    pub fn new(scenario: &str, first_seed: u64, spec: SweepSpec, points: Vec<Point>) -> Self {
        Self { format: SWEEP_FORMAT, scenario: scenario.to_owned(), first_seed, spec, points }
    }
}
