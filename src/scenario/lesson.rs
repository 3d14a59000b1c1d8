//! Guided lessons (`leaselab.lesson/1`, issue 5): a sequence of steps over built-in scenarios.
//!
//! Each step has narration in English and Simplified Chinese, may switch the scenario or act on
//! the run (`do`, the same actions as a scenario's `events`), and moves on when an *engine event*
//! happens (`until`: a pattern matched against the trace entries that come after the step began,
//! as `leaselab trace` prints them), never after a fixed delay. A step may ask the learner to
//! predict what happens (`ask`) before the run shows it, point at elements of the scene and the
//! space-time diagram (`point`), and show the lesson's metaphor table (`metaphors`).
//!
//! [`plan`] plays the lesson on the engine and gives every step's exact starting state (the
//! scenario, the interventions so far with their times, the moment): the page restores it when the
//! learner goes back or opens a step link, and the runner (`leaselab lesson FILE`) checks with it
//! that every step's awaited event really happens. The format is documented field by field in
//! `docs/lesson-format.md`.

use serde_json::{Map, Value};

use super::format::{error, event, read, EventFile, Obj};
use super::live::{Bound, Piece, MAX_BOUNDS};
use super::{Localized, Pacing, Scenario, ScenarioError};
use crate::engine::search::{Goal, Space};
use crate::engine::sweep::Knob;
use crate::engine::{ScheduledCommand, Sim, TraceEntry, TraceEvent};
use crate::vocab::Fable;

/// The format tag every lesson file must carry.
pub const LESSON_FORMAT: &str = "leaselab.lesson/1";

/// Largest lesson file accepted, in bytes.
const MAX_BYTES: usize = 256 * 1024;
/// Most steps a lesson may have.
pub const MAX_STEPS: usize = 60;
/// Most actions one step may take.
const MAX_ACTIONS: usize = 20;
/// Fewest and most choices of a question.
const CHOICES: std::ops::RangeInclusive<usize> = 2..=6;
/// Longest text of one language in a lesson, in characters.
const MAX_TEXT_CHARS: usize = 2_000;
/// Longest count-down of an audience question, in seconds.
const MAX_COUNTDOWN_S: u32 = 600;

/// Event types of the trace (`"type"` of a trace entry's `event`, as `leaselab trace` prints
/// them): what an `until` pattern may wait for. A test checks that every type the built-ins'
/// traces hold is here.
pub const EVENT_TYPES: &[&str] = &[
    "node_started",
    "message_sent",
    "message_dropped",
    "message_duplicated",
    "message_held_back",
    "reply_ignored",
    "lease_granted",
    "lease_reacquired",
    "acquire_refused",
    "lease_renewed",
    "renew_refused",
    "lease_expired",
    "lease_revoked",
    "became_leader",
    "stepped_down",
    "work_continues",
    "work_stopped",
    "write_retried",
    "lock_released",
    "epoch_barrier_raised",
    "record_observed",
    "clock_jumped",
    "clock_rate_set",
    "write_prepared",
    "issuer_rolled_back",
    "resource_restored",
    "resource_restarted",
    "write_judged",
    "violation_found",
    "paused",
    "resumed",
    "crashed",
    "restarted",
    "partitioned",
    "partitioned_from",
    "healed",
    "fencing_set",
    "write_delay_armed",
    "script_dropped",
    "command_ignored",
    "run_ended",
    "trace_limit_reached",
    "acquire_delayed",
    "store_failed_over",
];

/// An element of the scene or the page a step can point at and a metaphor row stands for. The
/// names are the concepts, so one lesson points at the right picture in either fable: `ttl` is
/// the harbor's hourglass and the lantern's return hour.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Element {
    /// The name on the plaque / the tablet (`holderIdentity`).
    Holder,
    /// The number on the plaque / the wick's number (the fencing token).
    Token,
    /// The hourglass / the return hour (`leaseDurationSeconds`, the TTL).
    Ttl,
    /// The marks on the wall / the trips back to the tablet (`renewTime`, renewals).
    Renewals,
    /// The dockmaster's plaque / the tablet: the lease record or lock store as a whole.
    Store,
    /// The brass clasp (compare-and-swap); in the harbor, the dockmaster's plaque.
    Clasp,
    /// The flag-verifier / the granary keeper: the fenced resource and its high-water mark.
    Resource,
    /// The boat / the granary and the ditch: what the resource's writes do.
    Outcome,
    /// The shared thing in use, as the fable pictures it (seeds `000`, `001`): the boat / the
    /// lantern, on its pillar or in the hand of the borrower who holds it.
    Shared,
    /// One flag-bearer / borrower (a node, by id).
    Node(String),
    /// The space-time diagram as a whole.
    Diagram,
    /// One lane of the diagram: a node id, `store` or `resource`.
    Lane(String),
    /// The event log.
    Log,
    /// The oracle's violations.
    Violations,
}

impl Element {
    /// The element's code, as lesson files write it (see [`Element::from_code`]).
    pub fn code(&self) -> String {
        match self {
            Element::Holder => "holder".into(),
            Element::Token => "token".into(),
            Element::Ttl => "ttl".into(),
            Element::Renewals => "renewals".into(),
            Element::Store => "store".into(),
            Element::Clasp => "clasp".into(),
            Element::Resource => "resource".into(),
            Element::Outcome => "outcome".into(),
            Element::Shared => "shared".into(),
            Element::Node(id) => format!("node:{id}"),
            Element::Diagram => "diagram".into(),
            Element::Lane(id) => format!("lane:{id}"),
            Element::Log => "log".into(),
            Element::Violations => "violations".into(),
        }
    }

    /// Reads an element's code: `holder`, `token`, `ttl`, `renewals`, `store`, `clasp`,
    /// `resource`, `outcome`, `shared`, `node:<id>`, `diagram`, `lane:<id>` (`lane:store`,
    /// `lane:resource`), `log` or `violations`. Node ids are checked against the scenario by
    /// [`plan`].
    pub fn from_code(code: &str) -> Option<Element> {
        let id = |rest: &str| (!rest.is_empty() && rest.len() <= 64).then(|| rest.to_owned());
        Some(match code {
            "holder" => Element::Holder,
            "token" => Element::Token,
            "ttl" => Element::Ttl,
            "renewals" => Element::Renewals,
            "store" => Element::Store,
            "clasp" => Element::Clasp,
            "resource" => Element::Resource,
            "outcome" => Element::Outcome,
            "shared" => Element::Shared,
            "diagram" => Element::Diagram,
            "log" => Element::Log,
            "violations" => Element::Violations,
            _ => {
                if let Some(rest) = code.strip_prefix("node:") {
                    Element::Node(id(rest)?)
                } else if let Some(rest) = code.strip_prefix("lane:") {
                    Element::Lane(id(rest)?)
                } else {
                    return None;
                }
            }
        })
    }
}

/// A parsed, validated lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// Short id, e.g. `harbor-replaced` (what `?lesson=` names).
    pub id: String,
    pub title: Localized,
    pub summary: Option<Localized>,
    /// The fable every step is told in; `None`: each scenario's own.
    pub fable: Option<Fable>,
    pub steps: Vec<Step>,
    /// The fable's elements and the concepts they stand for, shown by steps with `metaphors`.
    pub metaphors: Vec<Metaphor>,
}

/// One step of a lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub title: Localized,
    /// The narration.
    pub text: Localized,
    /// A built-in scenario to start afresh at 0 ms; `None`: go on from where the last step ended.
    pub scenario: Option<String>,
    /// What the step does to the run as it begins, in order (`at_ms` is 0 here; [`plan`] gives
    /// the real times).
    pub actions: Vec<ScheduledCommand>,
    /// Playing speed as a power of two (−2 ..= 6: 0.25× to 64×); `None`: keep the speed.
    pub speed_log2: Option<i32>,
    /// How the clock plays this step (story time or true time); `None`: the page's setting.
    pub pacing: Option<Pacing>,
    /// The engine event that ends the step; `None`: the learner moves on.
    pub until: Option<Until>,
    /// After the awaited event the run pauses and the step stays until the learner moves on,
    /// instead of the lesson moving on by itself (always so for a step that asks).
    pub hold: bool,
    pub ask: Option<Ask>,
    /// What the step points at while it is shown (after the answer, for a question).
    pub point: Vec<Element>,
    /// Whether the step shows the lesson's metaphor table.
    pub metaphors: bool,
    /// A "show me a run where …" button: the engine searches for the shortest such run.
    pub witness: Option<Witness>,
    /// The numbers the reader sets in the text (`{name}`), whose outcome numbers (`{=figure}`)
    /// the engine computes ([`super::live`]) from a whole run of the step's scenario, from 0 ms
    /// with its own script (the lesson's `do` left out); empty: the text is plain.
    pub live: Vec<Bound>,
}

/// A witness question (issue 30): a button at the step that has the engine search the runs of
/// the step's scenario, from 0 ms, for the shortest one that meets `goal`, and opens it in the
/// player at the moment it does. The search is [`crate::engine::search`] (breadth first by the
/// number of interventions, so the run shown uses as few as any run can); its bounds come from
/// [`Witness::space`] only, the same in the page and in `leaselab lesson`, which checks that a
/// run is found.
#[derive(Clone, Debug, PartialEq)]
pub struct Witness {
    /// What the run must show: any goal of the search, a witness (`zombie_write_fenced`, …) or
    /// a counterexample (`stale_write_accepted`, …).
    pub goal: Goal,
    /// The most interventions the engine may choose: 1 to [`MAX_WITNESS_INTERVENTIONS`].
    pub max_interventions: usize,
    /// Whether the scenario's own script still happens; `false` (the default): every node's
    /// script is set aside and the engine chooses all that happens to the nodes.
    pub scripted: bool,
    /// The button's words; `None`: "Show me a run: " and the goal's name.
    pub label: Option<Localized>,
}

/// Most interventions a lesson's witness may ask for (the Ask tab offers as many).
pub const MAX_WITNESS_INTERVENTIONS: usize = 3;

impl Witness {
    /// The search's bounds: the default [`Space`] (a 1 s grid; pauses of 5, 10 and 20 s, a 10 s
    /// cut, a 10 s held-up write, crashes) with this witness's depth and script.
    pub fn space(&self) -> Space {
        Space { max_interventions: self.max_interventions, scripted: self.scripted, ..Space::default() }
    }
}

/// A question asked before the run shows the answer ("Will the boat obey Chen's flag?").
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    pub question: Localized,
    pub choices: Vec<Choice>,
    /// Index into `choices` of what really happens.
    pub answer: usize,
    /// Why it happens, shown after the run has shown it.
    pub why: Localized,
    /// Shows the question big, with a count-down of this many seconds, before it may be
    /// revealed (an audience predicting in a workshop).
    pub countdown_s: Option<u32>,
}

/// One answer a learner can give.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub id: String,
    pub text: Localized,
}

/// A row of the metaphor table: an element of the fable and the concept it stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct Metaphor {
    /// What a click on the row lights up.
    pub element: Element,
    /// The fable's element, in the fable's words.
    pub story: Localized,
    /// The concept, in the field's terms.
    pub concept: Localized,
}

/// An awaited engine event: a JSON object whose fields must all be present, with equal values,
/// in a trace entry's `event` (nested objects compare the same way, field by field).
#[derive(Clone, Debug, PartialEq)]
pub struct Until {
    pattern: Map<String, Value>,
}

impl Until {
    /// The pattern, as written.
    pub fn pattern(&self) -> &Map<String, Value> {
        &self.pattern
    }

    /// Whether `event` is what the step waits for.
    pub fn matches(&self, event: &TraceEvent) -> bool {
        // The event as `leaselab trace` prints it. Serializing a trace event cannot fail.
        let Ok(actual) = serde_json::to_string(event).and_then(|text| super::json_value(&text)) else {
            return false;
        };
        self.pattern.iter().all(|(key, want)| actual.get(key).is_some_and(|got| contains(got, want)))
    }
}

/// Whether `got` holds `want`: objects field by field (extra fields in `got` are fine), anything
/// else by equality.
fn contains(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => w.iter().all(|(k, v)| g.get(k).is_some_and(|gv| contains(gv, v))),
        _ => got == want,
    }
}

/// A lesson text: both languages, each non-empty and at most [`MAX_TEXT_CHARS`] characters.
fn text(o: &Obj, key: &str) -> Result<Option<Localized>, ScenarioError> {
    o.text(key, Some(MAX_TEXT_CHARS))
}

fn required_text(o: &Obj, key: &str) -> Result<Localized, ScenarioError> {
    text(o, key)?.ok_or_else(|| error(o.at(key), "is required: { \"en\": …, \"zh\": … }"))
}

/// An id: 1 to 64 of `A–Z a–z 0–9 - _`.
fn id(o: &Obj, key: &str) -> Result<String, ScenarioError> {
    let id = o.required_str(key)?;
    let good = (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !good {
        return Err(error(o.at(key), "must be 1 to 64 letters, digits, - or _"));
    }
    Ok(id.to_owned())
}

/// An element code at `path`.
fn element(value: &Value, path: String) -> Result<Element, ScenarioError> {
    let code = value.as_str().ok_or_else(|| error(path.clone(), "must be a string"))?;
    Element::from_code(code).ok_or_else(|| {
        error(path, format!("\"{code}\" is not an element: holder, token, ttl, renewals, store, clasp, resource, outcome, shared, node:<id>, diagram, lane:<id>, log or violations"))
    })
}

const LESSON_FIELDS: &[&str] = &["format", "id", "title", "summary", "fable", "steps", "metaphors"];
const STEP_FIELDS: &[&str] = &[
    "title",
    "text",
    "scenario",
    "do",
    "speed",
    "pacing",
    "until",
    "hold",
    "ask",
    "point",
    "metaphors",
    "witness",
    "live",
];
const BOUND_FIELDS: &[&str] = &["name", "knob", "value", "min", "max", "step", "label"];
const WITNESS_FIELDS: &[&str] = &["goal", "max_interventions", "script", "label"];
const ASK_FIELDS: &[&str] = &["question", "choices", "answer", "why", "countdown_s"];

/// Parse and validate a lesson file. Scenario ids, node ids and whether every awaited event
/// happens are checked by [`plan`], which needs the scenarios.
///
/// # Errors
/// A [`ScenarioError`] naming the field: malformed JSON (with line and column), a wrong type, an
/// unknown field, a wrong `format`, a text missing in a language, a first step without a
/// scenario, an action with fields its `do` does not take, a speed that is not 0.25, 0.5, 1, 2 …
/// 64, a pacing that is not `story` or `true`, an `until` that is not an object with a known `type`, a question whose `answer` is not
/// one of its 2 to 6 choices, an unknown element in `point` or `metaphors`.
pub fn parse(json: &str) -> Result<Lesson, ScenarioError> {
    let root: Value =
        read(json, MAX_BYTES, "a lesson file holds one JSON object: { \"format\": \"leaselab.lesson/1\", … }")?;
    let file = Obj::new(&root, String::new(), LESSON_FIELDS)?;
    let format = file.required_str("format")?;
    if format != LESSON_FORMAT {
        return Err(error("format", format!("must be \"{LESSON_FORMAT}\", found \"{format}\"")));
    }
    let id = id(&file, "id")?;
    let title = required_text(&file, "title")?;
    let summary = text(&file, "summary")?;
    let fable = match file.str("fable")? {
        None => None,
        Some(code) => Some(Fable::from_code(code).ok_or_else(|| error("fable", "must be \"harbor\" or \"lantern\""))?),
    };
    let raw_steps = file.array("steps")?;
    if raw_steps.is_empty() || raw_steps.len() > MAX_STEPS {
        return Err(error("steps", format!("must hold 1 to {MAX_STEPS} steps, found {}", raw_steps.len())));
    }
    let mut steps = Vec::with_capacity(raw_steps.len());
    for (i, raw) in raw_steps.iter().enumerate() {
        steps.push(step(raw, i)?);
    }
    let mut metaphors = Vec::new();
    for (i, raw) in file.array("metaphors")?.iter().enumerate() {
        let m = Obj::new(raw, format!("metaphors[{i}]"), &["element", "story", "concept"])?;
        metaphors.push(Metaphor {
            element: element(m.required("element")?, m.at("element"))?,
            story: required_text(&m, "story")?,
            concept: required_text(&m, "concept")?,
        });
    }
    if metaphors.is_empty() && steps.iter().any(|s| s.metaphors) {
        return Err(error("metaphors", "is empty, but a step shows the metaphor table"));
    }
    Ok(Lesson { id, title, summary, fable, steps, metaphors })
}

/// Step `i` of a lesson file.
fn step(raw: &Value, i: usize) -> Result<Step, ScenarioError> {
    let s = Obj::new(raw, format!("steps[{i}]"), STEP_FIELDS)?;
    let title = required_text(&s, "title")?;
    let text = required_text(&s, "text")?;
    let scenario = s.str("scenario")?.map(str::to_owned);
    if i == 0 && scenario.is_none() {
        return Err(error(
            s.at("scenario"),
            "is required in the first step: the built-in scenario the lesson starts on",
        ));
    }
    let raw_actions = s.array("do")?;
    if raw_actions.len() > MAX_ACTIONS {
        return Err(error(
            s.at("do"),
            format!("has {} actions; at most {MAX_ACTIONS} are accepted", raw_actions.len()),
        ));
    }
    let list = s.at("do");
    let mut actions = Vec::with_capacity(raw_actions.len());
    for (k, a) in raw_actions.iter().enumerate() {
        // An action is read as a scenario's event is (the same fields, the same checks).
        actions.push(event(&EventFile::read(a, format!("{list}[{k}]"))?, false)?);
    }
    let speed_log2 = match s.get("speed") {
        None => None,
        Some(v) => {
            let x = v.as_f64();
            Some(
                (-2..=6)
                    .find(|k: &i32| Some(2f64.powi(*k)) == x)
                    .ok_or_else(|| error(s.at("speed"), "must be 0.25, 0.5, 1, 2, 4, 8, 16, 32 or 64"))?,
            )
        }
    };
    let pacing = match s.str("pacing")? {
        None => None,
        Some(code) => {
            Some(Pacing::from_code(code).ok_or_else(|| error(s.at("pacing"), "must be \"story\" or \"true\""))?)
        }
    };
    let hold = s.bool("hold", false)?;
    let until = match s.get("until") {
        None => None,
        Some(Value::Object(pattern)) => {
            match pattern.get("type") {
                Some(Value::String(t)) if EVENT_TYPES.contains(&t.as_str()) => {}
                Some(Value::String(t)) => {
                    return Err(error(
                        s.at("until.type"),
                        format!("\"{t}\" is not an event of the trace (see `leaselab trace` or docs/lesson-format.md)"),
                    ))
                }
                _ => {
                    return Err(error(
                        s.at("until.type"),
                        "is required: the trace event to wait for, e.g. \"lease_expired\"",
                    ))
                }
            }
            Some(Until { pattern: pattern.clone() })
        }
        Some(_) => {
            return Err(error(
                s.at("until"),
                "must be an object such as { \"type\": \"lease_granted\", \"node\": \"lin\" }",
            ))
        }
    };
    if hold && until.is_none() {
        return Err(error(
            s.at("hold"),
            "needs \"until\": a step without an awaited event always waits for the learner",
        ));
    }
    let ask = match s.get("ask") {
        None => None,
        Some(raw) => Some(ask(&Obj::new(raw, s.at("ask"), ASK_FIELDS)?)?),
    };
    // The answer is revealed when the awaited event happens: without one it never would be.
    if ask.is_some() && until.is_none() {
        return Err(error(s.at("ask"), "needs \"until\": the answer is revealed when the awaited event happens"));
    }
    let mut point = Vec::new();
    for (k, code) in s.array("point")?.iter().enumerate() {
        point.push(element(code, format!("{}[{k}]", s.at("point")))?);
    }
    let metaphors = s.bool("metaphors", false)?;
    let witness = match s.get("witness") {
        None => None,
        Some(raw) => Some(witness(&Obj::new(raw, s.at("witness"), WITNESS_FIELDS)?)?),
    };
    let mut live = Vec::new();
    for (k, raw) in s.array("live")?.iter().enumerate() {
        let bound = bound(&Obj::new(raw, format!("{}[{k}]", s.at("live")), BOUND_FIELDS)?)?;
        if live.iter().any(|b: &Bound| b.name == bound.name) {
            return Err(error(
                format!("{}[{k}].name", s.at("live")),
                format!("\"{}\" is used by another bound number", bound.name),
            ));
        }
        live.push(bound);
    }
    if live.len() > MAX_BOUNDS {
        return Err(error(
            s.at("live"),
            format!("holds {} bound numbers; at most {MAX_BOUNDS} are accepted", live.len()),
        ));
    }
    if !live.is_empty() {
        for (lang, said) in [("en", &text.en), ("zh", &text.zh)] {
            let at = format!("{}.{lang}", s.at("text"));
            let pieces = super::live::pieces(said, &live).map_err(|e| error(at.clone(), e))?;
            for (k, b) in live.iter().enumerate() {
                if !pieces.contains(&Piece::Bound(k)) {
                    return Err(error(
                        at.clone(),
                        format!("does not hold {{{}}}: every bound number is in the text", b.name),
                    ));
                }
            }
        }
    }
    Ok(Step { title, text, scenario, actions, speed_log2, pacing, until, hold, ask, point, metaphors, witness, live })
}

/// A bound number of a step's `live`.
fn bound(b: &Obj) -> Result<Bound, ScenarioError> {
    let name = id(b, "name")?;
    let code = b.required_str("knob")?;
    let knob = Knob::from_code(code).ok_or_else(|| {
        let all: Vec<&str> = Knob::ALL.iter().map(|k| k.code()).collect();
        error(b.at("knob"), format!("\"{code}\" is not a knob: {}", all.join(", ")))
    })?;
    let number = |key: &str| {
        b.required(key)?
            .as_u64()
            .ok_or_else(|| error(b.at(key), "must be a whole number, in the knob's unit (ms, or ppm)"))
    };
    let (value, min, max, step) = (number("value")?, number("min")?, number("max")?, number("step")?);
    if step == 0 || min > max {
        return Err(error(b.at("step"), format!("must be at least 1, with min ≤ max (min {min}, max {max})")));
    }
    if !(min..=max).contains(&value) || (value - min) % step != 0 {
        return Err(error(
            b.at("value"),
            format!("must be min plus a whole number of steps, up to max ({min} + k × {step} ≤ {max})"),
        ));
    }
    if knob != Knob::ClockRatePpm && (min % 100 != 0 || step % 100 != 0) {
        return Err(error(
            b.at("step"),
            "a time is shown in seconds: min and step must be whole tenths of a second (multiples of 100 ms)",
        ));
    }
    let label = required_text(b, "label")?;
    Ok(Bound { name, knob, value, min, max, step, label })
}

/// A step's witness question.
fn witness(w: &Obj) -> Result<Witness, ScenarioError> {
    let code = w.required_str("goal")?;
    let goal = Goal::from_code(code).ok_or_else(|| {
        let all: Vec<&str> = Goal::ALL.iter().map(|g| g.code()).collect();
        error(w.at("goal"), format!("\"{code}\" is not a goal of the search: {}", all.join(", ")))
    })?;
    let max_interventions = match w.get("max_interventions") {
        None => 2,
        Some(v) => v
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .filter(|n| (1..=MAX_WITNESS_INTERVENTIONS).contains(n))
            .ok_or_else(|| error(w.at("max_interventions"), format!("must be 1 to {MAX_WITNESS_INTERVENTIONS}")))?,
    };
    let scripted = w.bool("script", false)?;
    let label = text(w, "label")?;
    Ok(Witness { goal, max_interventions, scripted, label })
}

/// A step's question.
fn ask(a: &Obj) -> Result<Ask, ScenarioError> {
    let question = required_text(a, "question")?;
    let why = required_text(a, "why")?;
    let raw_choices = a.array("choices")?;
    if !CHOICES.contains(&raw_choices.len()) {
        return Err(error(a.at("choices"), format!("must hold 2 to 6 choices, found {}", raw_choices.len())));
    }
    let mut choices: Vec<Choice> = Vec::with_capacity(raw_choices.len());
    for (k, raw) in raw_choices.iter().enumerate() {
        let c = Obj::new(raw, format!("{}[{k}]", a.at("choices")), &["id", "text"])?;
        let id = id(&c, "id")?;
        if choices.iter().any(|earlier| earlier.id == id) {
            return Err(error(c.at("id"), format!("\"{id}\" is used by another choice")));
        }
        choices.push(Choice { id, text: required_text(&c, "text")? });
    }
    let wanted = a.required_str("answer")?;
    let answer = choices
        .iter()
        .position(|c| c.id == wanted)
        .ok_or_else(|| error(a.at("answer"), format!("\"{wanted}\" is not the id of one of the choices")))?;
    let countdown_s = match a.get("countdown_s") {
        None => None,
        Some(v) => Some(
            v.as_u64().and_then(|c| u32::try_from(c).ok()).filter(|c| (1..=MAX_COUNTDOWN_S).contains(c)).ok_or_else(
                || error(a.at("countdown_s"), format!("must be a whole number of seconds from 1 to {MAX_COUNTDOWN_S}")),
            )?,
        ),
    };
    Ok(Ask { question, choices, answer, why, countdown_s })
}

/// Where a step begins: enough to rebuild the run exactly (a share link's ingredients).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepStart {
    /// The built-in scenario.
    pub scenario: String,
    /// Every intervention on it so far, with its time, the step's own actions included.
    pub interventions: Vec<ScheduledCommand>,
    /// The moment the step begins, in ms: the run stands there, everything at or before it done.
    pub at_ms: u64,
    /// How many trace entries the run holds then: the awaited event is a later one.
    pub trace_len: usize,
}

/// A step as the engine plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedStep {
    pub start: StepStart,
    /// The awaited trace entry's time and position (`None` for a step without `until`); the next
    /// step begins at that time.
    pub until: Option<(u64, u64)>,
}

/// Plays `lesson` on the engine: every step's exact start and, for a step with `until`, when its
/// awaited event happens. `scenario(id)` gives a built-in by id (`None`: no such built-in).
///
/// A step with a `scenario` starts it afresh at 0 ms; its actions then apply at the step's
/// moment, after everything else at that millisecond, as a learner's would. A step with `until`
/// plays on to the first later trace entry that matches, and the next step begins at its time; a
/// step without one leaves the run where it stands.
///
/// # Errors
/// A [`ScenarioError`] naming the step's field: an unknown scenario (or one that does not load),
/// an action the engine refuses (an unknown node), an element naming an unknown node, or an
/// awaited event that never happens before the run ends.
pub fn plan(
    lesson: &Lesson,
    mut scenario: impl FnMut(&str) -> Option<Result<Scenario, ScenarioError>>,
) -> Result<Vec<PlannedStep>, ScenarioError> {
    let mut out = Vec::with_capacity(lesson.steps.len());
    let mut current: Option<(String, Vec<String>, Sim)> = None;
    for (i, step) in lesson.steps.iter().enumerate() {
        let at = |field: &str| format!("steps[{i}].{field}");
        if let Some(id) = &step.scenario {
            let loaded = match scenario(id) {
                None => {
                    return Err(error(
                        at("scenario"),
                        format!("\"{id}\" is not a built-in scenario (see `leaselab list`)"),
                    ))
                }
                Some(Err(e)) => return Err(error(at("scenario"), format!("\"{id}\" does not load: {e}"))),
                Some(Ok(s)) => s,
            };
            let nodes = loaded.config.nodes.iter().map(|n| n.id.clone()).collect();
            let mut sim = Sim::new(loaded.config)
                .map_err(|e| error(at("scenario"), format!("\"{id}\" is refused by the engine: {e}")))?;
            sim.advance_to(0);
            current = Some((id.clone(), nodes, sim));
        }
        // The first step has a scenario (checked by `parse`); a hand-made lesson might not.
        let Some((id, nodes, sim)) = current.as_mut() else {
            return Err(error(at("scenario"), "is required in the first step"));
        };
        for (k, action) in step.actions.iter().enumerate() {
            sim.apply(action.command.clone()).map_err(|e| error(format!("steps[{i}].do[{k}]"), e.message))?;
        }
        for (k, e) in step.point.iter().enumerate() {
            if let Element::Node(n) | Element::Lane(n) = e {
                let known = nodes.iter().any(|x| x == n)
                    || (matches!(e, Element::Lane(_)) && (n == "store" || n == "resource"));
                if !known {
                    return Err(error(format!("steps[{i}].point[{k}]"), format!("\"{n}\" is not a node of \"{id}\"")));
                }
            }
        }
        let start = StepStart {
            scenario: id.clone(),
            interventions: sim.interventions().to_vec(),
            at_ms: sim.now_ms(),
            trace_len: sim.trace().len(),
        };
        let until = match &step.until {
            None => None,
            Some(until) => {
                let found = play_until(sim, start.trace_len, until);
                let Some((t, seq)) = found else {
                    return Err(error(
                        at("until"),
                        format!(
                            "no trace entry after {} ms matches {}: the run ends at {} ms",
                            start.at_ms,
                            Value::Object(until.pattern.clone()),
                            sim.config().until_ms
                        ),
                    ));
                };
                // The next step stands after everything at that millisecond.
                sim.advance_to(t);
                Some((t, seq))
            }
        };
        out.push(PlannedStep { start, until });
    }
    for (i, m) in lesson.metaphors.iter().enumerate() {
        if let Element::Node(n) = &m.element {
            let known = current.as_ref().is_some_and(|(_, nodes, _)| nodes.iter().any(|x| x == n));
            if !known {
                return Err(error(
                    format!("metaphors[{i}].element"),
                    format!("\"{n}\" is not a node of the lesson's last scenario"),
                ));
            }
        }
    }
    Ok(out)
}

/// A witness question's answer, as `leaselab lesson` reports it: the step (from 0) and what
/// the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessFound {
    pub step: usize,
    pub goal: Goal,
    pub found: crate::engine::search::Found,
    /// Distinct engine states the search explored.
    pub states: u64,
}

/// Searches every step's witness question on the step's scenario (`plan` gives each step's)
/// and gives what each found, in step order.
///
/// # Errors
/// A [`ScenarioError`] naming `steps[i].witness`: the scenario does not load, the search is
/// refused, or no run within its bounds meets the goal (the count of states said).
pub fn find_witnesses(
    lesson: &Lesson,
    plan: &[PlannedStep],
    mut scenario: impl FnMut(&str) -> Option<Result<Scenario, ScenarioError>>,
) -> Result<Vec<WitnessFound>, ScenarioError> {
    use crate::engine::search::{Outcome, Searcher};
    let mut out = Vec::new();
    for (i, (step, planned)) in lesson.steps.iter().zip(plan).enumerate() {
        let Some(w) = &step.witness else { continue };
        let at = format!("steps[{i}].witness");
        let id = &planned.start.scenario;
        let loaded = match scenario(id) {
            Some(Ok(s)) => s,
            _ => return Err(error(at, format!("\"{id}\" does not load"))),
        };
        let mut searcher = Searcher::new(loaded.config, &[w.goal], &w.space())
            .map_err(|e| error(at.clone(), format!("the search is refused: {e}")))?;
        match searcher.finish() {
            Outcome::Found { found, progress } => {
                out.push(WitnessFound { step: i, goal: w.goal, found: *found, states: progress.states })
            }
            Outcome::NoneWithinBounds { progress } | Outcome::BudgetSpent { progress } => {
                return Err(error(
                    at,
                    format!(
                        "no run of \"{id}\" with at most {} interventions meets {} ({} states explored)",
                        w.max_interventions,
                        w.goal.code(),
                        progress.states
                    ),
                ))
            }
        }
    }
    Ok(out)
}

/// A step's live numbers as `leaselab lesson` reports them: the step (from 0) and the outcome
/// numbers of the scenario's own settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveChecked {
    pub step: usize,
    /// Every outcome number its text shows (English), with its value, in order.
    pub figures: Vec<(super::live::Figure, String)>,
}

/// Checks every step's live numbers (played on the step's scenario, `plan` gives it, from 0 ms
/// with its own script and none of the lesson's `do`): each bound's `value` is the scenario's own setting (setting
/// it changes nothing in the run), and the engine accepts the knob at `min` and at `max`.
///
/// # Errors
/// A [`ScenarioError`] naming `steps[i].live[k]`.
pub fn check_live(
    lesson: &Lesson,
    plan: &[PlannedStep],
    mut scenario: impl FnMut(&str) -> Option<Result<Scenario, ScenarioError>>,
) -> Result<Vec<LiveChecked>, ScenarioError> {
    use super::live::{self, Figure};
    let mut out = Vec::new();
    for (i, (step, planned)) in lesson.steps.iter().zip(plan).enumerate() {
        if step.live.is_empty() {
            continue;
        }
        let id = planned.start.scenario.as_str();
        let Some(Ok(loaded)) = scenario(id) else {
            return Err(error(format!("steps[{i}].scenario"), format!("\"{id}\" does not load")));
        };
        let own =
            super::report::Report::run(&loaded).map_err(|e| error(format!("steps[{i}].scenario"), e.to_string()))?;
        let values: Vec<u64> = step.live.iter().map(|b| b.value).collect();
        for (k, b) in step.live.iter().enumerate() {
            let at = format!("steps[{i}].live[{k}]");
            for v in [b.min, b.max] {
                let mut set = values.clone();
                set[k] = v;
                live::report(&loaded, &step.live, &set).map_err(|e| error(at.clone(), format!("at {v}: {e}")))?;
            }
        }
        let report =
            live::report(&loaded, &step.live, &values).map_err(|e| error(format!("steps[{i}].live"), e.to_string()))?;
        if report.trace_hash != own.trace_hash {
            return Err(error(
                format!("steps[{i}].live"),
                format!("the values given change the run of \"{id}\": each must be the scenario's own setting"),
            ));
        }
        let pieces = live::pieces(&step.text.en, &step.live).map_err(|e| error(format!("steps[{i}].text.en"), e))?;
        let figures = pieces
            .iter()
            .filter_map(|p| match p {
                live::Piece::Figure(f) => Some((*f, f.of(&report))),
                _ => None,
            })
            .collect::<Vec<(Figure, String)>>();
        out.push(LiveChecked { step: i, figures });
    }
    Ok(out)
}

/// Steps `sim` on until a trace entry at position `from` or later matches `until`; its time and
/// position, or `None` if the run ends first.
fn play_until(sim: &mut Sim, from: usize, until: &Until) -> Option<(u64, u64)> {
    let mut checked = from;
    loop {
        if let Some(hit) = first_match(sim.trace().get(checked..).unwrap_or(&[]), until) {
            return Some(hit);
        }
        checked = sim.trace().len();
        if sim.finished() || sim.step() == 0 {
            return None;
        }
    }
}

/// The time and position of the first of `entries` that `until` matches.
pub fn first_match(entries: &[TraceEntry], until: &Until) -> Option<(u64, u64)> {
    entries.iter().find(|e| until.matches(&e.event)).map(|e| (e.at_ms, e.seq))
}

/// A learner's progress through a lesson as the page keeps it (`localStorage`): the step shown,
/// the furthest step reached (both from 0) and the answer given to each step's question (an
/// index into its choices): `step furthest a0 a1 …`, `-` for no answer.
pub fn encode_progress(step: usize, furthest: usize, answers: &[Option<usize>]) -> String {
    let mut out = format!("{step} {furthest}");
    for a in answers {
        out.push(' ');
        match a {
            Some(k) => out.push_str(&k.to_string()),
            None => out.push('-'),
        }
    }
    out
}

/// Progress read back for a lesson of `steps` steps: `(step, furthest, answers)`; anything that
/// does not fit (another version of the lesson, a hand-edited value) is `None`, and the lesson
/// starts from its first step.
pub fn decode_progress(text: &str, steps: usize) -> Option<(usize, usize, Vec<Option<usize>>)> {
    let mut words = text.split(' ');
    let step: usize = words.next()?.parse().ok()?;
    let furthest: usize = words.next()?.parse().ok()?;
    let answers: Vec<Option<usize>> = words.map(|w| w.parse().ok()).collect();
    (step < steps && furthest < steps && answers.len() == steps).then_some((step, furthest.max(step), answers))
}
