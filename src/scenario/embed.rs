//! The embed protocol (issue 4): how a documentation page that shows LeaseLab in an `<iframe>`
//! (`?embed=1`) drives the scene and hears what happens, by `postMessage`. This module is the pure
//! part (message shapes, validation, which origins may talk, when to report the state), so it is
//! tested natively; the browser glue is `ui::embed`. The protocol is documented with every message
//! shape in `docs/embed.md`.
//!
//! Every message, both ways, is a plain object with `"leaselab": 1` and a `"type"`. An inbound
//! object without a `leaselab` field is not meant for LeaseLab and is ignored; one with it that is
//! malformed is answered with an `error` event saying what and why. Nothing from a message is ever
//! put into the page as markup. The page reads the posted object field by field ([`Field`]) and
//! writes events field by field ([`Json`]), so it carries no general JSON reader or writer for
//! this.

use crate::engine::trace::Violation;
use crate::engine::{Command, TraceEntry, TraceEvent, WireToken};
use crate::scenario::{library, link, Scenario};
use crate::vocab::Fable;
use crate::vocab::Lang;
use serde::Serialize;

/// The protocol's version: the value of `leaselab` in every message.
pub const PROTOCOL: u64 = 1;

/// Longest scenario object read, in UTF-16 units of its JSON text (a scenario file is at most
/// 1 MiB). A longer one is refused unread.
pub const MAX_SCENARIO_CHARS: u32 = 1 << 20;

/// Most origins an embedder may list in `origin=`.
pub const MAX_ORIGINS: usize = 8;

/// Least real time between two `state` events that differ only in the virtual time, in ms.
/// Anything else that changes (holder, token, mark, playing, …) is reported at once.
pub const STATE_EVERY_MS: f64 = 250.0;

/// Most `write` and `violation` events sent for one update; a seek far ahead sends only the
/// newest ones.
pub const MAX_BURST: usize = 50;

/// Longest piece of a value echoed back in an error or on the page, in characters.
pub const ECHO_CHARS: usize = 40;

/// A value as it may be shown back: at most `max` characters, no control characters and no
/// direction controls (which would reverse the words around them).
pub fn echo(value: &str, max: usize) -> String {
    let shown = |c: &char| {
        !c.is_control()
            && !matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    let mut out: String = value.chars().filter(shown).take(max).collect();
    if value.chars().filter(shown).count() > max {
        out.push('…');
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Options from the address

/// Which controls an embedded scene shows (`controls=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Controls {
    /// None: the host page drives it (or it autoplays).
    None,
    /// Play/pause, step and reset.
    #[default]
    Play,
    /// Those, step back, the speed, the time slider and the clock.
    Full,
}

impl Controls {
    /// Reads `none`, `play` or `full` (case and spaces ignored).
    pub fn from_code(code: &str) -> Option<Controls> {
        match code.trim().to_ascii_lowercase().as_str() {
            "none" => Some(Controls::None),
            "play" => Some(Controls::Play),
            "full" => Some(Controls::Full),
            _ => None,
        }
    }
}

/// Which origins may send commands and receive events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Allowed {
    /// `origin=*`, asked for explicitly: any origin (events are posted with target `*`).
    Any,
    /// These exact origins (`https://docs.example.org`); empty: the API is off.
    Only(Vec<String>),
}

impl Allowed {
    /// Whether a message from `origin` (a `MessageEvent`'s `origin`) is accepted.
    pub fn accepts(&self, origin: &str) -> bool {
        match self {
            Allowed::Any => true,
            Allowed::Only(list) => list.iter().any(|o| o == origin),
        }
    }
}

/// The origins `origin=` allows: each value may list several, separated by spaces or commas.
/// Without any value, `parent` (the embedding page's origin, when known) is the only one.
///
/// `origin` reads one item as an exact origin the way browsers serialize a `MessageEvent`'s
/// `origin` (`scheme://host[:port]`), or refuses it; the page passes the browser's own `URL`
/// parser (`ui::url::origin`), so case, default ports and internationalized hosts are read as
/// the browser reads them.
///
/// # Errors
/// The allowed origins that could be read, and each value that is not an exact origin (echoed
/// for the page to show), or a note that too many were given.
pub fn allowed_origins(
    values: &[String],
    parent: Option<String>,
    origin: impl Fn(&str) -> Option<String>,
) -> (Allowed, Vec<String>) {
    let mut bad = Vec::new();
    let mut list = Vec::new();
    let mut any = false;
    for item in values.iter().flat_map(|v| v.split([' ', ','])).filter(|s| !s.is_empty()) {
        if item == "*" {
            any = true;
        } else if let Some(o) = origin(item) {
            if list.len() >= MAX_ORIGINS {
                bad.push(format!("{}: more than {MAX_ORIGINS} origins", echo(item, ECHO_CHARS)));
            } else if !list.contains(&o) {
                list.push(o);
            }
        } else {
            bad.push(echo(item, ECHO_CHARS));
        }
    }
    if any {
        return (Allowed::Any, bad);
    }
    if values.is_empty() || (list.is_empty() && !bad.is_empty()) {
        // None given, or none usable: the embedding page only.
        return (Allowed::Only(parent.into_iter().collect()), bad);
    }
    (Allowed::Only(list), bad)
}

// ---------------------------------------------------------------------------------------------
// Inbound commands

/// A command from the host page.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// `{"leaselab":1,"type":"play"}`: let virtual time run.
    Play,
    /// `{"leaselab":1,"type":"pause"}`.
    Pause,
    /// `{"leaselab":1,"type":"seek","t_ms":31000}`: go to that virtual time (capped at the end).
    Seek { t_ms: u64 },
    /// `{"leaselab":1,"type":"load","scenario":{…}}`: a whole scenario object, with an optional
    /// `"fable"`; the run starts again, paused.
    Load { scenario: Box<Scenario>, fable: Option<Fable> },
    /// `{"leaselab":1,"type":"load","scenario":"lantern-ankle"}`: a built-in by id (the page
    /// fetches its file, then starts it like [`Request::Load`]).
    LoadBuiltin { id: &'static str, fable: Option<Fable> },
    /// `{"leaselab":1,"type":"intervene","do":"p.chen.30000"}`: one intervention now, in the
    /// share link's `do=` code without its time (see [`crate::scenario::link`]).
    Intervene { command: Command },
    /// `{"leaselab":1,"type":"lang","lang":"zh"}`.
    Lang { lang: Lang },
}

impl Request {
    /// The message type, as the host wrote it.
    pub fn kind(&self) -> &'static str {
        match self {
            Request::Play => "play",
            Request::Pause => "pause",
            Request::Seek { .. } => "seek",
            Request::Load { .. } | Request::LoadBuiltin { .. } => "load",
            Request::Intervene { .. } => "intervene",
            Request::Lang { .. } => "lang",
        }
    }
}

/// Why an inbound message was refused: sent back as an `error` event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    /// The message's `type` (echoed, shortened), or `message` when even that is unknown.
    pub what: String,
    /// What is wrong, in English.
    pub why: String,
}

/// One field of an inbound message, as the browser read it from the posted object (the page
/// reads fields one by one rather than parsing JSON: no JSON reader in the page for this).
#[derive(Clone, Debug, PartialEq)]
pub enum Field {
    Text(String),
    Number(f64),
    /// An object, as JSON text (read only for `scenario`).
    Object(String),
    /// Anything else, named for the error: `null`, `a boolean`, `an array`, `a string of more
    /// than … characters`, ….
    Other(&'static str),
}

/// The message types, in the order the docs list them.
pub const REQUEST_TYPES: &str = "play, pause, seek, load, intervene, lang";

/// Most fields an inbound message may have.
pub const MAX_FIELDS: usize = 8;

/// Longest text field read, in characters (a longer one is refused unread).
pub const MAX_TEXT: u32 = 200;

/// Reads one inbound message from its fields (in any order).
///
/// `Ok(None)`: not for LeaseLab (no `leaselab` field); ignore it.
///
/// # Errors
/// A [`Rejected`] for a message meant for LeaseLab that cannot be obeyed: a wrong `leaselab`
/// version, an unknown `type`, a missing, unknown or mistyped field, too many fields, an unknown
/// scenario or one that fails the scenario format's validation (with its field path), an
/// intervention that is not one `do=` item, an unknown language.
pub fn read(mut fields: Vec<(String, Field)>) -> Result<Option<Request>, Rejected> {
    let mut take = |name: &str| fields.iter().position(|(k, _)| k == name).map(|i| fields.swap_remove(i).1);
    let Some(version) = take("leaselab") else { return Ok(None) };
    let whole = |why: String| Rejected { what: "message".into(), why };
    if version != Field::Number(PROTOCOL as f64) {
        return Err(whole("\"leaselab\" must be 1: this page speaks version 1 of the protocol".into()));
    }
    let kind = match take("type") {
        Some(Field::Text(s)) => s,
        Some(_) => return Err(whole("\"type\" must be a string".into())),
        None => return Err(whole(["\"type\" is missing; one of ", REQUEST_TYPES].concat())),
    };
    let what = echo(&kind, ECHO_CHARS);
    let allowed: &[&str] = match kind.as_str() {
        "play" | "pause" => &[],
        "seek" => &["t_ms"],
        "load" => &["scenario", "fable"],
        "intervene" => &["do"],
        "lang" => &["lang"],
        _ => return Err(Rejected { what, why: ["unknown type; one of ", REQUEST_TYPES].concat() }),
    };
    let fail = |why: String| Rejected { what: what.clone(), why };
    if fields.len() > MAX_FIELDS {
        return Err(fail("too many fields; at most 8".into()));
    }
    if let Some((extra, _)) = fields.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
        return Err(fail(["unknown field \"", &echo(extra, ECHO_CHARS), "\""].concat()));
    }
    let mut take = |name: &str| fields.iter().position(|(k, _)| k == name).map(|i| fields.swap_remove(i).1);
    let mut text = |name: &str| -> Result<String, Rejected> {
        match take(name) {
            Some(Field::Text(s)) => Ok(s),
            Some(Field::Other(what)) if what.starts_with("a string") => {
                Err(fail(["\"", name, "\" is ", what].concat()))
            }
            Some(_) => Err(fail(["\"", name, "\" must be a string"].concat())),
            None => Err(fail(["\"", name, "\" is required"].concat())),
        }
    };
    let request = match kind.as_str() {
        "play" => Request::Play,
        "pause" => Request::Pause,
        "seek" => match take("t_ms") {
            // Whole and exact in a double: up to 2^53 ms, some 285 000 years.
            Some(Field::Number(t)) if (0.0..=9_007_199_254_740_991.0).contains(&t) && t.fract() == 0.0 => {
                Request::Seek { t_ms: t as u64 }
            }
            Some(_) => return Err(fail("\"t_ms\" must be a whole number of ms from 0 to 9007199254740991".into())),
            None => return Err(fail("\"t_ms\" is required".into())),
        },
        "load" => {
            let fable = match take("fable") {
                None => None,
                Some(Field::Text(s)) => Some(Fable::from_code(&s).ok_or_else(|| {
                    fail(["unknown fable \"", &echo(&s, ECHO_CHARS), "\"; harbor or lantern"].concat())
                })?),
                Some(_) => return Err(fail("\"fable\" must be a string: harbor or lantern".into())),
            };
            match take("scenario") {
                Some(Field::Text(id)) => match library::builtin(id.trim()) {
                    Some(b) => Request::LoadBuiltin { id: b.id, fable },
                    None => {
                        return Err(fail(
                            [
                                "no built-in scenario \"",
                                &echo(&id, ECHO_CHARS),
                                "\" (send a scenario object to load your own)",
                            ]
                            .concat(),
                        ))
                    }
                },
                // The same validation as the runner's: field paths, ranges, the engine's rules.
                Some(Field::Object(json)) => {
                    let scenario = crate::scenario::parse(&json).map_err(|mut e| {
                        // Positions in the re-serialized text would mean nothing to the sender.
                        e.line_column = None;
                        fail(["invalid scenario: ", &e.to_string()].concat())
                    })?;
                    Request::Load { scenario: Box::new(scenario), fable }
                }
                Some(other) => {
                    let what = match other {
                        Field::Other(what) => what,
                        _ => "a number",
                    };
                    return Err(fail(["\"scenario\" must be a built-in id or a scenario object, not ", what].concat()));
                }
                None => return Err(fail("\"scenario\" is required".into())),
            }
        }
        "intervene" => {
            let code = text("do")?;
            if code.contains(',') {
                return Err(fail("one intervention per message (no \",\")".into()));
            }
            // A `do=` item without its time: the time is now.
            match link::decode(&format!("0.{code}")) {
                Ok(mut list) if list.len() == 1 => Request::Intervene { command: list.remove(0).command },
                Ok(_) => return Err(fail("\"do\" must hold one intervention".into())),
                Err(e) => return Err(fail(format!("\"do\": {}", e.problem))),
            }
        }
        _ => {
            let code = text("lang")?;
            let lang = Lang::from_code(&code)
                .ok_or_else(|| fail(["unknown language \"", &echo(&code, ECHO_CHARS), "\"; en or zh"].concat()))?;
            Request::Lang { lang }
        }
    };
    Ok(Some(request))
}

// ---------------------------------------------------------------------------------------------
// Outbound events

/// What the embedded scene shows now, sent as a `state` event (its fields by these names).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct State {
    /// Virtual time, in ms.
    pub time_ms: u64,
    /// When the run ends, in ms.
    pub until_ms: u64,
    pub playing: bool,
    /// The run has reached its end.
    pub finished: bool,
    /// `holderIdentity` on the lease record (`None`: free).
    pub holder: Option<String>,
    /// The fencing token of the holder's term.
    pub token: Option<u64>,
    /// Whether the holder's term has run out on the store's clock (the record may still name it).
    pub expired: bool,
    /// The fenced resource's high-water mark (0: none yet).
    pub high_water_mark: u64,
    /// Whether the resource checks tokens.
    pub fencing: bool,
    /// Writes the resource has accepted and refused so far.
    pub accepted: u64,
    pub rejected: u64,
    pub scenario: String,
    pub fable: &'static str,
    pub lang: &'static str,
}

/// An event as the host receives it: the envelope (`{"leaselab":1,"type":…`, always first),
/// then the event's own fields, in the order they are declared.
#[derive(Serialize)]
struct Envelope<'a, T: Serialize> {
    leaselab: u64,
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(flatten)]
    body: T,
}

/// Event `kind` with the fields of `body`, as JSON text (serde_json), made inert wherever it
/// lands: `<`, `>`, `&` and the line separators U+2028 and U+2029 are written as `\u` escapes.
/// JSON has those characters only inside strings, where the escapes mean the same.
fn event(kind: &str, body: impl Serialize) -> String {
    let text = serde_json::to_string(&Envelope { leaselab: PROTOCOL, kind, body }).unwrap_or_default();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// The `ready` event: the protocol version, the scenario shown and every built-in id.
pub fn ready(scenario: &str) -> String {
    #[derive(Serialize)]
    struct Ready<'a> {
        protocol: u64,
        scenario: &'a str,
        scenarios: Vec<&'static str>,
    }
    event("ready", Ready { protocol: PROTOCOL, scenario, scenarios: library::ids().collect() })
}

/// The `state` event: the fields of [`State`], by their names.
pub fn state(s: &State) -> String {
    event("state", s)
}

/// The `error` event for a refused command.
pub fn error(r: &Rejected) -> String {
    #[derive(Serialize)]
    struct Error<'a> {
        what: &'a str,
        why: &'a str,
    }
    event("error", Error { what: &r.what, why: &r.why })
}

/// The `write` event for a judged write, or the `violation` event for a violation the oracle
/// found (`text` tells it in a sentence); `None` for any other trace entry.
pub fn reported(entry: &TraceEntry, text: impl FnOnce(&Violation) -> String) -> Option<String> {
    #[derive(Serialize)]
    struct Write<'a> {
        /// Only a run with named resources says which one judged.
        #[serde(skip_serializing_if = "Option::is_none")]
        resource: Option<&'a str>,
        at_ms: u64,
        from: Option<&'a str>,
        op_id: &'a str,
        token: Option<u64>,
        token_text: String,
        verdict: &'static str,
        high_water_mark: u64,
        fencing: bool,
    }
    #[derive(Serialize)]
    struct Found<'a> {
        at_ms: u64,
        kind: &'static str,
        from: Option<&'a str>,
        text: String,
    }
    match &entry.event {
        TraceEvent::WriteJudged { op_id, from, token, outcome, high_water_after, fencing, resource, .. } => {
            Some(event(
                "write",
                Write {
                    resource: resource.as_deref(),
                    at_ms: entry.at_ms,
                    from: from.as_deref(),
                    op_id,
                    token: match token {
                        WireToken::Number(n) => Some(*n),
                        _ => None,
                    },
                    token_text: token.label(),
                    verdict: outcome.code(),
                    high_water_mark: *high_water_after,
                    fencing: *fencing,
                },
            ))
        }
        TraceEvent::ViolationFound { violation, .. } => Some(event(
            "violation",
            Found { at_ms: entry.at_ms, kind: violation.kind(), from: violation.writer(), text: text(violation) },
        )),
        _ => None,
    }
}

/// Decides when a `state` event is due: at once when anything but the time changed, and while
/// playing at most every [`STATE_EVERY_MS`] of real time for the time alone.
#[derive(Debug, Default)]
pub struct Throttle {
    last: Option<State>,
    last_real_ms: f64,
}

impl Throttle {
    /// Whether `state`, seen at real time `real_ms`, should be sent; if so it is remembered.
    pub fn due(&mut self, state: &State, real_ms: f64) -> bool {
        let send = match &self.last {
            None => true,
            Some(last) if last == state => false,
            Some(last) => {
                let only_time = State { time_ms: state.time_ms, ..last.clone() } == *state;
                !only_time
                    || !state.playing
                    || real_ms - self.last_real_ms >= STATE_EVERY_MS
                    || real_ms < self.last_real_ms
            }
        };
        if send {
            self.last = Some(state.clone());
            self.last_real_ms = real_ms;
        }
        send
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Sim;
    use serde_json::Value;

    /// The fields of a posted object as the page reads them (`ui::embed::fields`).
    fn fields(json: &str) -> Option<Vec<(String, Field)>> {
        let Ok(Value::Object(map)) = serde_json::from_str::<Value>(json) else { return None };
        Some(
            map.into_iter()
                .map(|(k, v)| {
                    let field = match v {
                        Value::String(s) if s.encode_utf16().count() > MAX_TEXT as usize => {
                            Field::Other("a string of more than 200 characters")
                        }
                        Value::String(s) => Field::Text(s),
                        Value::Number(n) => Field::Number(n.as_f64().unwrap_or(f64::NAN)),
                        o @ Value::Object(_) if k == "scenario" => Field::Object(o.to_string()),
                        Value::Null => Field::Other("null"),
                        Value::Bool(_) => Field::Other("a boolean"),
                        Value::Array(_) => Field::Other("an array"),
                        Value::Object(_) => Field::Other("an object"),
                    };
                    (k, field)
                })
                .collect(),
        )
    }

    fn request(json: &str) -> Result<Option<Request>, Rejected> {
        match fields(json) {
            Some(f) => read(f),
            None => Ok(None),
        }
    }

    fn rejected(json: &str) -> Rejected {
        request(json).expect_err(json)
    }

    #[test]
    fn every_command_reads() {
        assert_eq!(request(r#"{"leaselab":1,"type":"play"}"#), Ok(Some(Request::Play)));
        assert_eq!(request(r#"{"leaselab":1,"type":"pause"}"#), Ok(Some(Request::Pause)));
        assert_eq!(request(r#"{"leaselab":1,"type":"seek","t_ms":31000}"#), Ok(Some(Request::Seek { t_ms: 31_000 })));
        assert_eq!(
            request(r#"{"leaselab":1,"type":"lang","lang":"zh-CN"}"#),
            Ok(Some(Request::Lang { lang: Lang::Zh }))
        );
        assert_eq!(
            request(r#"{"type":"intervene","do":"p.chen.30000","leaselab":1}"#),
            Ok(Some(Request::Intervene { command: Command::Pause { node: "chen".into(), for_ms: Some(30_000) } }))
        );
        assert_eq!(
            request(r#"{"leaselab":1,"type":"intervene","do":"f.0"}"#),
            Ok(Some(Request::Intervene { command: Command::SetFencing { on: false } }))
        );
        assert_eq!(
            request(r#"{"leaselab":1,"type":"intervene","do":"o.chen"}"#),
            Ok(Some(Request::Intervene { command: Command::DropScript { node: "chen".into() } }))
        );
        let r = request(r#"{"leaselab":1,"type":"load","scenario":"lantern-ankle","fable":"harbor"}"#);
        assert_eq!(r, Ok(Some(Request::LoadBuiltin { id: "lantern-ankle", fable: Fable::from_code("harbor") })));
        assert_eq!(r.map(|r| r.map(|r| r.kind())), Ok(Some("load")));
    }

    #[test]
    fn a_scenario_object_is_validated_like_a_file() {
        let file = r#"{"format":"leaselab.scenario/1","id":"mine","nodes":[{"id":"a"},{"id":"b"}],"until_ms":5000}"#;
        match request(&format!(r#"{{"leaselab":1,"type":"load","scenario":{file}}}"#)) {
            Ok(Some(Request::Load { scenario, fable: None })) => {
                assert_eq!(scenario.id, "mine");
                assert_eq!(scenario.config.nodes.len(), 2);
                assert!(Sim::new(scenario.config.clone()).is_ok());
            }
            other => panic!("{other:?}"),
        }
        // The error names the field, exactly as the runner's would.
        let bad = r#"{"format":"leaselab.scenario/1","lease":{"duration_ms":0}}"#;
        let e = rejected(&format!(r#"{{"leaselab":1,"type":"load","scenario":{bad}}}"#));
        assert_eq!(e.what, "load");
        let runner = crate::scenario::parse(bad).expect_err("duration 0");
        assert!(e.why.contains(&format!("{}: {}", runner.path, runner.message)), "{} should say {runner}", e.why);
        let e = rejected(r#"{"leaselab":1,"type":"load","scenario":{"format":"leaselab.scenario/1","colour":"red"}}"#);
        assert!(e.why.contains("colour"), "{}", e.why);
        // A field given twice (issue 13), as the page passes an object's JSON on.
        let twice = r#"{"format":"leaselab.scenario/1","resource":{"fencing":true,"fencing":false}}"#;
        let e = read(vec![
            ("leaselab".into(), Field::Number(1.0)),
            ("type".into(), Field::Text("load".into())),
            ("scenario".into(), Field::Object(twice.into())),
        ])
        .expect_err("a field given twice");
        assert_eq!(
            e.why, "invalid scenario: resource.fencing: is given twice in the same object; give each field once",
            "without the position in text the sender did not write"
        );
        // What was sent instead is named (the page names a too-large object the same way).
        let e = rejected(r#"{"leaselab":1,"type":"load","scenario":true}"#);
        assert!(e.why.ends_with("not a boolean"), "{}", e.why);
        let too_large = Field::Other("an object of more than 1 MiB of JSON");
        let e = read(vec![
            ("leaselab".into(), Field::Number(1.0)),
            ("type".into(), Field::Text("load".into())),
            ("scenario".into(), too_large),
        ]);
        assert!(e.expect_err("too large").why.contains("more than 1 MiB"));
    }

    #[test]
    fn messages_for_others_are_ignored() {
        for json in [r#"{"type":"play"}"#, r#"{"jsonrpc":"2.0","method":"play"}"#, "{}"] {
            assert_eq!(request(json), Ok(None), "{json}");
        }
    }

    #[test]
    fn bad_shapes_say_what_and_why() {
        let cases = [
            (r#"{"leaselab":2,"type":"play"}"#, "message", "version"),
            (r#"{"leaselab":"1","type":"play"}"#, "message", "must be 1"),
            (r#"{"leaselab":1}"#, "message", "missing"),
            (r#"{"leaselab":1,"type":7}"#, "message", "string"),
            (r#"{"leaselab":1,"type":"jump"}"#, "jump", "unknown type"),
            (r#"{"leaselab":1,"type":"play","speed":2}"#, "play", "unknown field \"speed\""),
            (r#"{"leaselab":1,"type":"seek"}"#, "seek", "required"),
            (r#"{"leaselab":1,"type":"seek","t_ms":-5}"#, "seek", "whole number"),
            (r#"{"leaselab":1,"type":"seek","t_ms":2.5}"#, "seek", "whole number"),
            (r#"{"leaselab":1,"type":"seek","t_ms":1e300}"#, "seek", "whole number"),
            (r#"{"leaselab":1,"type":"seek","t_ms":"31000"}"#, "seek", "whole number"),
            (r#"{"leaselab":1,"type":"seek","t_ms":null}"#, "seek", "whole number"),
            (r#"{"leaselab":1,"type":"load","scenario":"no-such"}"#, "load", "no built-in scenario"),
            (r#"{"leaselab":1,"type":"load","scenario":7}"#, "load", "built-in id or a scenario object"),
            (
                r#"{"leaselab":1,"type":"load","scenario":["harbor-zombie"]}"#,
                "load",
                "built-in id or a scenario object",
            ),
            (r#"{"leaselab":1,"type":"load","scenario":"harbor-zombie","fable":"moon"}"#, "load", "unknown fable"),
            (r#"{"leaselab":1,"type":"intervene","do":"p.chen,r.chen"}"#, "intervene", "one intervention"),
            (r#"{"leaselab":1,"type":"intervene","do":"q.chen"}"#, "intervene", "not an intervention"),
            (r#"{"leaselab":1,"type":"intervene","do":"o"}"#, "intervene", "not with these arguments"),
            (r#"{"leaselab":1,"type":"intervene","do":"p.<script>"}"#, "intervene", "node name"),
            (r#"{"leaselab":1,"type":"intervene","do":"d.chen.99999999999"}"#, "intervene", "by_ms"),
            (r#"{"leaselab":1,"type":"intervene","do":{"pause":"chen"}}"#, "intervene", "must be a string"),
            (r#"{"leaselab":1,"type":"intervene"}"#, "intervene", "required"),
            (r#"{"leaselab":1,"type":"lang","lang":"fr"}"#, "lang", "unknown language"),
        ];
        for (json, what, why) in cases {
            let e = rejected(json);
            assert_eq!(e.what, what, "{json}: {e:?}");
            assert!(e.why.contains(why), "{json}: {:?} should say {why:?}", e.why);
        }
    }

    #[test]
    fn hostile_payloads_are_refused_without_harm() {
        let huge = format!(r#"{{"leaselab":1,"type":"lang","lang":"{}"}}"#, "x".repeat(100_000));
        assert!(rejected(&huge).why.contains("more than 200"));
        let many: String = (0..MAX_FIELDS + 1).map(|i| format!(",\"f{i}\":1")).collect();
        assert!(rejected(&format!(r#"{{"leaselab":1,"type":"play"{many}}}"#))
            .why
            .contains(&format!("at most {MAX_FIELDS}")));
        // A long type with markup, control and direction characters is echoed short and clean.
        let sneaky = format!("<img src=x onerror=alert(1)>\u{202e}\u{0007}{}", "y".repeat(150));
        let e = rejected(&serde_json::json!({"leaselab":1,"type":sneaky}).to_string());
        assert!(e.what.chars().count() <= ECHO_CHARS + 1, "{}", e.what);
        assert!(!e.what.contains('\u{202e}') && !e.what.contains('\u{0007}'));
        // Sent back, the markup is inert JSON text.
        let json = error(&e);
        assert!(!json.contains('<') && !json.contains('>'), "{json}");
        let back: Value = serde_json::from_str(&json).expect("JSON");
        assert_eq!(back["what"].as_str(), Some(e.what.as_str()));
    }

    /// A stand-in for the browser's `URL` in native tests: `https://` and a bare host.
    fn exact(text: &str) -> Option<String> {
        let host = text.strip_prefix("https://")?;
        (!host.is_empty() && host.chars().all(|c| c.is_ascii_alphanumeric() || c == '.')).then(|| text.to_owned())
    }

    #[test]
    fn the_allowed_origins_default_to_the_parent_only() {
        let parent = Some("https://docs.example.org".to_owned());
        assert_eq!(
            allowed_origins(&[], parent.clone(), exact),
            (Allowed::Only(vec!["https://docs.example.org".into()]), vec![])
        );
        assert_eq!(allowed_origins(&[], None, exact), (Allowed::Only(vec![]), vec![]));
        let (allowed, bad) = allowed_origins(&["https://a.org, https://b.org".into()], parent.clone(), exact);
        assert_eq!(allowed, Allowed::Only(vec!["https://a.org".into(), "https://b.org".into()]));
        assert!(bad.is_empty());
        assert!(
            allowed.accepts("https://a.org")
                && !allowed.accepts("https://docs.example.org")
                && !allowed.accepts("null")
        );
        // Nothing usable given: the parent, and the page says what was not understood.
        let (allowed, bad) = allowed_origins(&["https://a.org/path".into()], parent.clone(), exact);
        assert_eq!(allowed, Allowed::Only(vec!["https://docs.example.org".into()]));
        assert_eq!(bad, vec!["https://a.org/path".to_owned()]);
        assert_eq!(allowed_origins(&["*".into()], None, exact).0, Allowed::Any);
        let many: Vec<String> = (0..MAX_ORIGINS + 2).map(|i| format!("https://h{i}.org")).collect();
        let (allowed, bad) = allowed_origins(&many, None, exact);
        assert!(matches!(allowed, Allowed::Only(l) if l.len() == MAX_ORIGINS));
        assert_eq!(bad.len(), 2);
    }

    #[test]
    fn controls_read() {
        assert_eq!(Controls::from_code(" Full "), Some(Controls::Full));
        assert_eq!(Controls::from_code("none"), Some(Controls::None));
        assert_eq!(Controls::from_code("all"), None);
    }

    fn sample(time_ms: u64, playing: bool, token: Option<u64>) -> State {
        State {
            time_ms,
            until_ms: 90_000,
            playing,
            finished: false,
            holder: token.map(|_| "chen".into()),
            token,
            expired: false,
            high_water_mark: 0,
            fencing: true,
            accepted: 0,
            rejected: 0,
            scenario: "harbor-zombie".into(),
            fable: "harbor",
            lang: "en",
        }
    }

    #[test]
    fn state_is_sent_on_change_and_the_time_alone_at_most_every_250_ms() {
        let mut t = Throttle::default();
        assert!(t.due(&sample(0, true, None), 0.0), "the first state goes out");
        assert!(!t.due(&sample(0, true, None), 10.0), "nothing changed");
        assert!(!t.due(&sample(500, true, None), 100.0), "only the time, too soon");
        assert!(t.due(&sample(700, true, Some(7)), 120.0), "a new token goes out at once");
        assert!(!t.due(&sample(900, true, Some(7)), 300.0));
        assert!(t.due(&sample(1100, true, Some(7)), 370.0), "250 ms later the time goes out");
        assert!(t.due(&sample(1100, false, Some(7)), 380.0), "pausing goes out at once");
        assert!(t.due(&sample(5000, false, Some(7)), 390.0), "a seek while paused goes out at once");
    }

    #[test]
    fn events_are_json_with_the_envelope() {
        let json: Value = serde_json::from_str(&state(&sample(1200, false, Some(8)))).expect("JSON");
        assert_eq!((json["leaselab"].as_u64(), json["type"].as_str()), (Some(1), Some("state")));
        assert_eq!(
            (json["token"].as_u64(), json["holder"].as_str(), json["time_ms"].as_u64()),
            (Some(8), Some("chen"), Some(1200))
        );
        assert_eq!(json["playing"], false);
        let json: Value = serde_json::from_str(&state(&sample(0, true, None))).expect("JSON");
        assert!(json["token"].is_null() && json["holder"].is_null());
        let json: Value = serde_json::from_str(&ready("harbor-zombie")).expect("JSON");
        assert_eq!(json["scenarios"].as_array().map(Vec::len), Some(library::ids().count()));
        let tricky =
            Rejected { what: "x".into(), why: "a \"quote\", a \\ backslash, a\nnewline, \u{1} and 中文".into() };
        let json: Value = serde_json::from_str(&error(&tricky)).expect("JSON");
        assert_eq!(json["why"].as_str(), Some(tricky.why.as_str()));
        // The envelope comes first; markup and line separators travel as escapes, and read back.
        assert!(state(&sample(0, true, None)).starts_with(r#"{"leaselab":1,"type":"state","time_ms":0,"#));
        let markup = Rejected { what: "x".into(), why: "<script>a & b</script>\u{2028}\u{2029}".into() };
        let text = error(&markup);
        assert!(!text.contains(['<', '>', '&', '\u{2028}', '\u{2029}']), "{text}");
        assert!(text.contains(r"\u003cscript\u003ea \u0026 b"), "{text}");
        let json: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(json["why"].as_str(), Some(markup.why.as_str()));
    }

    #[test]
    fn the_harbor_reports_its_writes_and_the_unfenced_one_its_violation() {
        let events = |id: &str| {
            let scenario = library::get(id).expect("built-in").expect("loads");
            let mut sim = Sim::new(scenario.config).expect("valid");
            sim.advance_to(u64::MAX);
            sim.trace()
                .iter()
                .filter_map(|e| reported(e, |_| "text".into()))
                .map(|j| serde_json::from_str::<Value>(&j).expect("JSON"))
                .collect::<Vec<_>>()
        };
        let fenced = events("harbor-zombie");
        // The fable: Chen's stale 7 is refused after Lin's 8 raised the mark.
        let stale = fenced.iter().find(|e| e["verdict"] == "rejected_stale").expect("a refused write");
        assert_eq!((stale["token"].as_u64(), stale["from"].as_str()), (Some(7), Some("chen")));
        assert_eq!(stale["high_water_mark"], 8);
        assert!(fenced.iter().all(|e| e["type"] == "write"), "no violation with fencing on");
        let unfenced = events("harbor-no-fencing");
        let v = unfenced.iter().find(|e| e["type"] == "violation").expect("a violation");
        assert_eq!(
            (v["kind"].as_str(), v["from"].as_str(), v["text"].as_str()),
            (Some("stale_write_accepted"), Some("chen"), Some("text"))
        );
        // Raw writes carry tokens that are not numbers: the text says what arrived.
        let raw = events("missing-token");
        assert!(raw.iter().any(|e| e["token"].is_null() && e["token_text"] == "∅"), "{raw:?}");
    }
}
