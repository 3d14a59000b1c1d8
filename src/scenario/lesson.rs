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

use serde::Deserialize;
use serde_json::{Map, Value};

use super::format::{error, event, read, EventFile};
use super::{Fable, Localized, Scenario, ScenarioError};
use crate::engine::{ScheduledCommand, Sim, TraceEntry, TraceEvent};

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
    "command_ignored",
    "run_ended",
    "trace_limit_reached",
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
    /// The dockmaster's board / the tablet: the lease record or lock store as a whole.
    Store,
    /// The brass clasp (compare-and-swap); in the harbor, the dockmaster's board.
    Clasp,
    /// The flag-verifier / the granary keeper: the fenced resource and its high-water mark.
    Resource,
    /// The boat / the granary and the ditch: what the resource's writes do.
    Outcome,
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
    /// Reads an element's code: `holder`, `token`, `ttl`, `renewals`, `store`, `clasp`,
    /// `resource`, `outcome`, `node:<id>`, `diagram`, `lane:<id>` (`lane:store`,
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
        let Ok(actual) = serde_json::to_string(event).and_then(|text| serde_json::from_str::<Value>(&text)) else {
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LessonFile {
    format: String,
    id: String,
    title: Localized,
    summary: Option<Localized>,
    fable: Option<Fable>,
    steps: Vec<StepFile>,
    #[serde(default)]
    metaphors: Vec<MetaphorFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepFile {
    title: Localized,
    text: Localized,
    scenario: Option<String>,
    #[serde(default, rename = "do")]
    actions: Vec<EventFile>,
    speed: Option<f64>,
    until: Option<Value>,
    #[serde(default)]
    hold: bool,
    ask: Option<AskFile>,
    #[serde(default)]
    point: Vec<String>,
    #[serde(default)]
    metaphors: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AskFile {
    question: Localized,
    choices: Vec<ChoiceFile>,
    answer: String,
    why: Localized,
    countdown_s: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChoiceFile {
    id: String,
    text: Localized,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MetaphorFile {
    element: String,
    story: Localized,
    concept: Localized,
}

/// Checks that both languages of `text` are there and not too long.
fn text(path: &str, t: &Localized) -> Result<(), ScenarioError> {
    for (lang, s) in [("en", &t.en), ("zh", &t.zh)] {
        if s.trim().is_empty() {
            return Err(error(format!("{path}.{lang}"), "must not be empty: every text is given in English and Simplified Chinese"));
        }
        if s.chars().count() > MAX_TEXT_CHARS {
            return Err(error(format!("{path}.{lang}"), format!("is longer than {MAX_TEXT_CHARS} characters")));
        }
    }
    Ok(())
}

/// An id: 1 to 64 of `A–Z a–z 0–9 - _`.
fn good_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Parse and validate a lesson file. Scenario ids, node ids and whether every awaited event
/// happens are checked by [`plan`], which needs the scenarios.
///
/// # Errors
/// A [`ScenarioError`] naming the field: malformed JSON (with line and column), a wrong type, an
/// unknown field, a wrong `format`, a text missing in a language, a first step without a
/// scenario, an action with fields its `do` does not take, a speed that is not 0.25, 0.5, 1, 2 …
/// 64, an `until` that is not an object with a known `type`, a question whose `answer` is not
/// one of its 2 to 6 choices, an unknown element in `point` or `metaphors`.
pub fn parse(json: &str) -> Result<Lesson, ScenarioError> {
    let file: LessonFile = read(json, MAX_BYTES, "a lesson file holds one JSON object: { \"format\": \"leaselab.lesson/1\", … }")?;
    if file.format != LESSON_FORMAT {
        return Err(error("format", format!("must be \"{LESSON_FORMAT}\", found \"{}\"", file.format)));
    }
    if !good_id(&file.id) {
        return Err(error("id", "must be 1 to 64 letters, digits, - or _"));
    }
    text("title", &file.title)?;
    if let Some(s) = &file.summary {
        text("summary", s)?;
    }
    if file.steps.is_empty() || file.steps.len() > MAX_STEPS {
        return Err(error("steps", format!("must hold 1 to {MAX_STEPS} steps, found {}", file.steps.len())));
    }
    let element = |path: String, code: &str| {
        Element::from_code(code).ok_or_else(|| {
            error(path, format!("\"{code}\" is not an element: holder, token, ttl, renewals, store, clasp, resource, outcome, node:<id>, diagram, lane:<id>, log or violations"))
        })
    };
    let mut steps = Vec::with_capacity(file.steps.len());
    for (i, s) in file.steps.into_iter().enumerate() {
        let at = |field: &str| format!("steps[{i}].{field}");
        text(&at("title"), &s.title)?;
        text(&at("text"), &s.text)?;
        if i == 0 && s.scenario.is_none() {
            return Err(error(at("scenario"), "is required in the first step: the built-in scenario the lesson starts on"));
        }
        if s.actions.len() > MAX_ACTIONS {
            return Err(error(at("do"), format!("has {} actions; at most {MAX_ACTIONS} are accepted", s.actions.len())));
        }
        let list = at("do");
        let actions = s.actions.into_iter().enumerate().map(|(k, a)| event(&list, k, a, false)).collect::<Result<Vec<_>, _>>()?;
        let speed_log2 = match s.speed {
            None => None,
            Some(x) => Some(
                (-2..=6)
                    .find(|k: &i32| 2f64.powi(*k) == x)
                    .ok_or_else(|| error(at("speed"), "must be 0.25, 0.5, 1, 2, 4, 8, 16, 32 or 64"))?,
            ),
        };
        if s.hold && s.until.is_none() {
            return Err(error(at("hold"), "needs \"until\": a step without an awaited event always waits for the learner"));
        }
        let until = match s.until {
            None => None,
            Some(Value::Object(pattern)) => {
                match pattern.get("type") {
                    Some(Value::String(t)) if EVENT_TYPES.contains(&t.as_str()) => {}
                    Some(Value::String(t)) => {
                        return Err(error(at("until.type"), format!("\"{t}\" is not an event of the trace (see `leaselab trace` or docs/lesson-format.md)")))
                    }
                    _ => return Err(error(at("until.type"), "is required: the trace event to wait for, e.g. \"lease_expired\"")),
                }
                Some(Until { pattern })
            }
            Some(_) => return Err(error(at("until"), "must be an object such as { \"type\": \"lease_granted\", \"node\": \"lin\" }")),
        };
        let ask = match s.ask {
            None => None,
            Some(a) => {
                text(&at("ask.question"), &a.question)?;
                text(&at("ask.why"), &a.why)?;
                if !CHOICES.contains(&a.choices.len()) {
                    return Err(error(at("ask.choices"), format!("must hold 2 to 6 choices, found {}", a.choices.len())));
                }
                let mut choices: Vec<Choice> = Vec::with_capacity(a.choices.len());
                for (k, c) in a.choices.into_iter().enumerate() {
                    let path = format!("steps[{i}].ask.choices[{k}]");
                    if !good_id(&c.id) {
                        return Err(error(format!("{path}.id"), "must be 1 to 64 letters, digits, - or _"));
                    }
                    if choices.iter().any(|earlier| earlier.id == c.id) {
                        return Err(error(format!("{path}.id"), format!("\"{}\" is used by another choice", c.id)));
                    }
                    text(&format!("{path}.text"), &c.text)?;
                    choices.push(Choice { id: c.id, text: c.text });
                }
                let answer = choices.iter().position(|c| c.id == a.answer).ok_or_else(|| {
                    error(at("ask.answer"), format!("\"{}\" is not the id of one of the choices", a.answer))
                })?;
                if a.countdown_s.is_some_and(|c| c == 0 || c > MAX_COUNTDOWN_S) {
                    return Err(error(at("ask.countdown_s"), format!("must be 1 to {MAX_COUNTDOWN_S} seconds")));
                }
                Some(Ask { question: a.question, choices, answer, why: a.why, countdown_s: a.countdown_s })
            }
        };
        let point =
            s.point.iter().enumerate().map(|(k, code)| element(format!("steps[{i}].point[{k}]"), code)).collect::<Result<Vec<_>, _>>()?;
        steps.push(Step {
            title: s.title,
            text: s.text,
            scenario: s.scenario,
            actions,
            speed_log2,
            until,
            hold: s.hold,
            ask,
            point,
            metaphors: s.metaphors,
        });
    }
    let mut metaphors = Vec::with_capacity(file.metaphors.len());
    for (i, m) in file.metaphors.into_iter().enumerate() {
        text(&format!("metaphors[{i}].story"), &m.story)?;
        text(&format!("metaphors[{i}].concept"), &m.concept)?;
        metaphors.push(Metaphor { element: element(format!("metaphors[{i}].element"), &m.element)?, story: m.story, concept: m.concept });
    }
    if metaphors.is_empty() && steps.iter().any(|s| s.metaphors) {
        return Err(error("metaphors", "is empty, but a step shows the metaphor table"));
    }
    Ok(Lesson { id: file.id, title: file.title, summary: file.summary, fable: file.fable, steps, metaphors })
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
                None => return Err(error(at("scenario"), format!("\"{id}\" is not a built-in scenario (see `leaselab list`)"))),
                Some(Err(e)) => return Err(error(at("scenario"), format!("\"{id}\" does not load: {e}"))),
                Some(Ok(s)) => s,
            };
            let nodes = loaded.config.nodes.iter().map(|n| n.id.clone()).collect();
            let mut sim = Sim::new(loaded.config).map_err(|e| error(at("scenario"), format!("\"{id}\" is refused by the engine: {e}")))?;
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
                let known = nodes.iter().any(|x| x == n) || (matches!(e, Element::Lane(_)) && (n == "store" || n == "resource"));
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
                return Err(error(format!("metaphors[{i}].element"), format!("\"{n}\" is not a node of the lesson's last scenario")));
            }
        }
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
