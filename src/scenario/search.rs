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

/// A request to the page's search worker (`src/bin/leaselab-worker.rs`), one JSON object with
/// `"leaselab": 1` and a `"type"`:
///
/// - `{"leaselab":1,"type":"search","scenario":{…},"goals":["stale_write_accepted"],"space":{…}}`:
///   `scenario` is a scenario file's object (`leaselab.scenario/1`), `space` any of
///   [`Space`]'s fields (the rest default);
/// - `{"leaselab":1,"type":"sweep","scenario":{…},"knob":"pause_ms","from":1000,"to":40000,
///   "points":20,"seeds":50}`;
/// - `{"leaselab":1,"type":"stop"}`: stop the job under way (its last progress is the answer).
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    Search { scenario: Box<super::Scenario>, goals: Vec<Goal>, space: Space },
    Sweep { scenario: Box<super::Scenario>, spec: SweepSpec },
    Stop,
}

/// Reads a request, or says what is wrong with it and where (`goals[1]: "x" is not a goal`).
///
/// # Errors
/// The field and the problem, in words a page can show.
pub fn parse_request(text: &str) -> Result<Request, String> {
    use serde_json::Value;
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let object = value.as_object().ok_or("a request is a JSON object")?;
    if object.get("leaselab") != Some(&Value::from(1)) {
        return Err("leaselab: must be 1".into());
    }
    let kind = object.get("type").and_then(Value::as_str).ok_or("type: missing (search, sweep or stop)")?;
    let scenario = || -> Result<Box<super::Scenario>, String> {
        let source = object.get("scenario").ok_or("scenario: missing (a scenario file's object)")?;
        super::parse(&source.to_string()).map(Box::new).map_err(|e| format!("scenario: {e}"))
    };
    match kind {
        "stop" => Ok(Request::Stop),
        "search" => {
            let names = object.get("goals").and_then(Value::as_array).ok_or("goals: missing (a list of goal names)")?;
            let mut goals = Vec::with_capacity(names.len());
            for (i, name) in names.iter().enumerate() {
                let code = name.as_str().unwrap_or_default();
                goals.push(Goal::from_code(code).ok_or_else(|| {
                    let all: Vec<&str> = Goal::ALL.iter().map(|g| g.code()).collect();
                    format!("goals[{i}]: {name} is not a goal; there are {}", all.join(", "))
                })?);
            }
            let space = match object.get("space") {
                None => Space::default(),
                Some(s) => serde_json::from_value(s.clone()).map_err(|e| format!("space: {e}"))?,
            };
            space.check().map_err(|e| format!("space.{e}"))?;
            Ok(Request::Search { scenario: scenario()?, goals, space })
        }
        "sweep" => {
            let knob = object.get("knob").and_then(Value::as_str).ok_or("knob: missing (a knob's name)")?;
            let number = |field: &str| {
                object
                    .get(field)
                    .and_then(Value::as_u64)
                    .ok_or_else(|| format!("{field}: missing or not a whole number"))
            };
            let count =
                |field: &str| number(field).and_then(|n| u32::try_from(n).map_err(|_| format!("{field}: too large")));
            let text = format!("{knob}={}..{}/{}", number("from")?, number("to")?, count("points")?);
            let spec = crate::engine::sweep::SweepSpec::parse(&text, count("seeds")?).map_err(|e| e.to_string())?;
            Ok(Request::Sweep { scenario: scenario()?, spec })
        }
        other => Err(format!(
            "type: \"{}\" is not search, sweep or stop",
            super::embed::echo(other, super::embed::ECHO_CHARS)
        )),
    }
}

/// A search or a sweep under way in the worker, done a slice at a time.
#[derive(Debug)]
pub enum Job {
    Search { searcher: Box<crate::engine::search::Searcher>, scenario: String, goals: Vec<Goal>, space: Space },
    Sweep { config: Box<crate::engine::Config>, scenario: String, spec: SweepSpec, points: Vec<Point> },
}

/// Where a job stands after a slice.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum JobStep {
    /// A search's counts so far.
    Progress { progress: crate::engine::search::Progress },
    /// A sweep's points so far (the newest last) and how many there will be.
    Points { points: Vec<Point>, of: u32 },
    /// A search's answer: what `leaselab search` prints.
    Answer { answer: Box<Answer> },
    /// A sweep's answer: what `leaselab sweep` prints.
    Swept { answer: SweepAnswer },
    /// The job could not go on (a setting the scenario refuses).
    Failed { message: String },
}

impl Job {
    /// Starts the job a request asks for (`None` for a stop).
    ///
    /// # Errors
    /// What the engine refuses in the request.
    pub fn start(request: Request) -> Result<Option<Job>, String> {
        match request {
            Request::Stop => Ok(None),
            Request::Search { scenario, goals, space } => {
                let searcher = crate::engine::search::Searcher::new(scenario.config, &goals, &space)
                    .map_err(|e| format!("cannot search: {e}"))?;
                Ok(Some(Job::Search { searcher: Box::new(searcher), scenario: scenario.id, goals, space }))
            }
            Request::Sweep { scenario, spec } => {
                spec.check().map_err(|e| e.to_string())?;
                Ok(Some(Job::Sweep {
                    config: Box::new(scenario.config),
                    scenario: scenario.id,
                    spec,
                    points: Vec::new(),
                }))
            }
        }
    }

    /// Goes on for about `budget` states of a search, or one point of a sweep, and says where
    /// it stands; an answer or a failure ends the job.
    pub fn step(&mut self, budget: u64) -> JobStep {
        match self {
            Job::Search { searcher, scenario, goals, space } => match searcher.run(budget) {
                crate::engine::search::Status::Running(progress) => JobStep::Progress { progress },
                crate::engine::search::Status::Done(outcome) => {
                    JobStep::Answer { answer: Box::new(Answer::new(scenario, goals, space, outcome)) }
                }
            },
            Job::Sweep { config, scenario, spec, points } => {
                let values = spec.values();
                let Some(&value) = values.get(points.len()) else {
                    return JobStep::Swept {
                        answer: SweepAnswer::new(scenario, config.seed, *spec, std::mem::take(points)),
                    };
                };
                match crate::engine::sweep::sweep_point(config, spec.knob, value, spec.seeds) {
                    Ok(point) => {
                        points.push(point);
                        if points.len() == values.len() {
                            JobStep::Swept {
                                answer: SweepAnswer::new(scenario, config.seed, *spec, std::mem::take(points)),
                            }
                        } else {
                            JobStep::Points { points: points.clone(), of: spec.points }
                        }
                    }
                    Err(e) => JobStep::Failed { message: e.to_string() },
                }
            }
        }
    }
}
