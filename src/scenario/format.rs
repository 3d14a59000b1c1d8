//! Reading `leaselab.scenario/1` files.
//!
//! A file is read into a [`serde_json::Value`] and then walked by hand ([`Obj`]), not with derived
//! deserializers: the page carries one small reader instead of a visitor per type (about 7 KB of
//! brotli, issue 4's page budget), and every error knows its exact field path. Lesson files
//! (`super::lesson`) are read the same way.

use serde_json::{Map, Value};

use super::{Localized, Scenario, ScenarioError};
use crate::engine::{
    ClockConfig, Command, Config, EqualTokenPolicy, Expiry, IssuerConfig, LeaseConfig, Link, LockConfig, MessageFault,
    MessageKind, NetworkConfig, NodeConfig, NodeLease, ObserverDuration, Protocol, ReleaseCheck, RenewPolicy,
    ResourceConfig, ScheduledCommand, StoreKind, TimerClock, TokenCheck, TokenScope, WireToken, WorkConfig,
    RATE_ONE_PPM,
};
use crate::vocab::Fable;

/// The format tag every scenario file must carry.
pub const FORMAT: &str = "leaselab.scenario/1";

/// Largest scenario file accepted, in bytes.
const MAX_BYTES: usize = 1 << 20;
/// Most events a scenario may schedule.
const MAX_EVENTS: usize = 10_000;

pub(crate) fn error(path: impl Into<String>, message: impl Into<String>) -> ScenarioError {
    ScenarioError { path: path.into(), message: message.into(), line_column: None }
}

/// One JSON object of a file being read, with its field path for errors.
pub(crate) struct Obj<'a> {
    path: String,
    map: &'a Map<String, Value>,
}

impl<'a> Obj<'a> {
    /// `value` as an object at `path` (`""`: the document), holding only the fields in `known`.
    pub(crate) fn new(value: &'a Value, path: String, known: &[&str]) -> Result<Self, ScenarioError> {
        let Value::Object(map) = value else {
            return Err(error(if path.is_empty() { ".".into() } else { path }, "must be an object { … }"));
        };
        if let Some(key) = map.keys().find(|k| !known.contains(&k.as_str())) {
            let at = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
            return Err(error(at, format!("unknown field `{key}`, expected one of {}", known.join(", "))));
        }
        Ok(Self { path, map })
    }

    /// The path of field `key`.
    pub(crate) fn at(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    pub(crate) fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }

    pub(crate) fn required(&self, key: &str) -> Result<&'a Value, ScenarioError> {
        self.get(key).ok_or_else(|| error(self.at(key), "is required"))
    }

    /// Field `key` as an object with only the fields in `known`, if present.
    pub(crate) fn obj(&self, key: &str, known: &[&str]) -> Result<Option<Obj<'a>>, ScenarioError> {
        self.get(key).map(|v| Obj::new(v, self.at(key), known)).transpose()
    }

    pub(crate) fn str(&self, key: &str) -> Result<Option<&'a str>, ScenarioError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(error(self.at(key), "must be a string")),
        }
    }

    pub(crate) fn required_str(&self, key: &str) -> Result<&'a str, ScenarioError> {
        self.str(key)?.ok_or_else(|| error(self.at(key), "is required"))
    }

    /// A boolean, `or` when absent.
    pub(crate) fn bool(&self, key: &str, or: bool) -> Result<bool, ScenarioError> {
        match self.get(key) {
            None => Ok(or),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(error(self.at(key), "must be true or false")),
        }
    }

    /// A whole number of 0 or more. The error names only what the type requires: the field's own
    /// range (`until_ms` from 1 to 24 h, say) is checked, and named, by `Config::check`.
    pub(crate) fn u64(&self, key: &str) -> Result<Option<u64>, ScenarioError> {
        self.get(key)
            .map(|v| {
                v.as_u64().ok_or_else(|| {
                    let why = match v {
                        Value::Number(n) if n.is_i64() => "must be 0 or more",
                        Value::Number(n) if n.is_f64() && n.as_f64().is_some_and(|f| f.fract() == 0.0 && f > 0.0) => {
                            "is too large (at most 18446744073709551615)"
                        }
                        _ => "must be a whole number of 0 or more",
                    };
                    error(self.at(key), why)
                })
            })
            .transpose()
    }

    /// A whole number, negative or not (the field's own range is checked by `Config::check`).
    pub(crate) fn i64(&self, key: &str) -> Result<Option<i64>, ScenarioError> {
        self.get(key)
            .map(|v| {
                v.as_i64().ok_or_else(|| {
                    let why = match v {
                        Value::Number(n) if n.is_u64() => "is too large (at most 9223372036854775807)",
                        _ => "must be a whole number",
                    };
                    error(self.at(key), why)
                })
            })
            .transpose()
    }

    pub(crate) fn f64(&self, key: &str) -> Result<Option<f64>, ScenarioError> {
        self.get(key).map(|v| v.as_f64().ok_or_else(|| error(self.at(key), "must be a number"))).transpose()
    }

    /// A word naming one of `T`'s values, read by name as `T` declares its names (its serde
    /// names, the same words the reports write: `"per_lock"` for [`TokenScope::PerLock`]), so
    /// that each choice's words are written in one place, beside its values. `None` when the
    /// field is absent; an error naming the words there are when it names none.
    pub(crate) fn named<T: serde::de::DeserializeOwned>(&self, key: &str) -> Result<Option<T>, ScenarioError> {
        use serde::de::value::{Error, StrDeserializer};
        let Some(s) = self.str(key)? else { return Ok(None) };
        T::deserialize(StrDeserializer::<Error>::new(s)).map(Some).map_err(|e| error(self.at(key), e.to_string()))
    }

    pub(crate) fn array(&self, key: &str) -> Result<&'a [Value], ScenarioError> {
        match self.get(key) {
            None => Ok(&[]),
            Some(Value::Array(a)) => Ok(a),
            Some(_) => Err(error(self.at(key), "must be an array [ … ]")),
        }
    }

    /// A text in both languages: `{"en": …, "zh": …}`, strings. `limit`: each non-empty and at
    /// most this many characters (lessons); `None`: any strings (scenario files).
    pub(crate) fn text(&self, key: &str, limit: Option<usize>) -> Result<Option<Localized>, ScenarioError> {
        let Some(t) = self.obj(key, &["en", "zh"])? else { return Ok(None) };
        let mut pair = [String::new(), String::new()];
        for (slot, lang) in pair.iter_mut().zip(["en", "zh"]) {
            let s = t.required_str(lang)?;
            if let Some(max) = limit {
                if s.trim().is_empty() {
                    return Err(error(
                        t.at(lang),
                        "must not be empty: every text is given in English and Simplified Chinese",
                    ));
                }
                if s.chars().count() > max {
                    return Err(error(t.at(lang), format!("is longer than {max} characters")));
                }
            }
            *slot = s.to_owned();
        }
        let [en, zh] = pair;
        Ok(Some(Localized { en, zh }))
    }
}

/// The field path (`events[1].node`, `lease`, `.` for the document) of the place where
/// serde_json stopped reading malformed JSON, at 1-based `line` and byte `column` of `json`: the
/// key of every object and the index of every array still open there, and the key whose value was
/// being read.
fn path_at(json: &str, line: usize, column: usize) -> String {
    enum Open {
        /// An object, the key most recently read in it, and whether a value is expected next.
        Object(Option<String>, bool),
        Array(usize),
    }
    let line_start =
        if line <= 1 { 0 } else { json.match_indices('\n').nth(line - 2).map_or(json.len(), |(i, _)| i + 1) };
    let end = line_start.saturating_add(column).min(json.len());
    let bytes = &json.as_bytes()[..end];
    let mut open: Vec<Open> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => open.push(Open::Object(None, false)),
            b'[' => open.push(Open::Array(0)),
            b'}' | b']' => {
                open.pop();
            }
            b':' => {
                if let Some(Open::Object(_, value)) = open.last_mut() {
                    *value = true;
                }
            }
            b',' => match open.last_mut() {
                Some(Open::Array(n)) => *n += 1,
                Some(Open::Object(key, value)) => {
                    *key = None;
                    *value = false;
                }
                None => {}
            },
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if let Some(Open::Object(key, false)) = open.last_mut() {
                    *key = json.get(start..i.min(bytes.len())).map(str::to_owned);
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for o in &open {
        match o {
            Open::Object(Some(key), _) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Open::Object(None, _) => {}
            Open::Array(n) => {
                path.push('[');
                path.push_str(&n.to_string());
                path.push(']');
            }
        }
    }
    if path.is_empty() {
        path.push('.');
    }
    path
}

/// Reads `json` (at most `max_bytes`, a leading byte-order mark ignored) as one JSON object.
/// Malformed JSON is an error with its line and column and the path where reading stopped;
/// `not_an_object` is the message when the text does not start with `{`. Shared by scenario and
/// lesson files.
pub(crate) fn read(json: &str, max_bytes: usize, not_an_object: &str) -> Result<Value, ScenarioError> {
    if json.len() > max_bytes {
        return Err(error(".", format!("the file is {} bytes; at most {max_bytes} are accepted", json.len())));
    }
    // A byte-order mark is how some editors start a UTF-8 file; it is not part of the JSON.
    let json = json.strip_prefix('\u{feff}').unwrap_or(json);
    if !json.trim_start().starts_with('{') {
        return Err(error(".", not_an_object));
    }
    json_value(json).map_err(|inner| {
        let line_column = (inner.line() > 0).then(|| (inner.line(), inner.column()));
        // serde_json appends " at line L column C"; the position is reported separately.
        let message = inner.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message).to_owned();
        ScenarioError { path: path_at(json, inner.line(), inner.column()), message, line_column }
    })
}

/// What a field given twice in one object is told (its path names it).
pub(crate) const TWICE: &str = "is given twice in the same object; give each field once";

/// A JSON value read as serde_json's own [`Value`] is, except that an object naming a field twice
/// is an error ([`TWICE`]) rather than the last one silently winning. serde_json places the error
/// just after the second name, so [`path_at`] names the field.
struct Strict(Value);

/// `text` read as one JSON value, an object naming a field twice refused (see [`Strict`]). The
/// crate reads every JSON text through this one reader rather than serde_json's own `Value`
/// reader beside it: one parser fewer in the page (issue 4's budget).
pub(crate) fn json_value(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str(text).map(|Strict(value)| value)
}

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if fields.contains_key(&key) {
                return Err(serde::de::Error::custom(TWICE));
            }
            let Strict(value) = map.next_value()?;
            fields.insert(key, value);
        }
        Ok(Value::Object(fields))
    }
}

const FILE_FIELDS: &[&str] = &[
    "format",
    "id",
    "fable",
    "protocol",
    "store",
    "lock",
    "store_clock",
    "title",
    "summary",
    "seed",
    "until_ms",
    "nodes",
    "lease",
    "network",
    "resource",
    "resources",
    "work",
    "issuer",
    "events",
    "interventions",
    "knobs",
];
const CLOCK_FIELDS: &[&str] = &["offset_ms", "rate"];

/// Field `key` of `o` as a non-empty array of resource names (`resources`, `nodes[i].writes_to`),
/// if present. Which names are allowed is [`Config::check`]'s to say.
fn names(o: &Obj, key: &str) -> Result<Option<Vec<String>>, ScenarioError> {
    if o.get(key).is_none() {
        return Ok(None);
    }
    let items = o.array(key)?;
    if items.is_empty() {
        return Err(error(o.at(key), "must name at least one resource; leave the field out for the default"));
    }
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::String(name) => out.push(name.clone()),
            _ => return Err(error(format!("{}[{i}]", o.at(key)), "must be a string")),
        }
    }
    Ok(Some(out))
}

use crate::engine::sweep::Knob;

/// Parse and validate a scenario file.
///
/// # Errors
/// A [`ScenarioError`] naming the field: malformed JSON (with line and column), a wrong type, an
/// unknown field, a missing or wrong `format`, an event field that does not belong to its action,
/// or a broken rule of [`Config::check`] (zero durations, `renew_deadline_ms` not below
/// `duration_ms`, unknown or duplicate node ids, more than 8 nodes, `until_ms` above 24 h).
pub fn parse(json: &str) -> Result<Scenario, ScenarioError> {
    let root =
        read(json, MAX_BYTES, "a scenario file holds one JSON object: { \"format\": \"leaselab.scenario/1\", … }")?;
    // Another format is named before its fields are (a lesson's `steps` are not unknown fields
    // of a scenario: the file is of another kind).
    if let Some(found) = root.get("format").and_then(Value::as_str).filter(|f| *f != FORMAT) {
        let lesson = if found.starts_with("leaselab.lesson/") {
            " (a lesson file: `leaselab lesson FILE` checks it)"
        } else {
            ""
        };
        return Err(error(
            "format",
            format!("must be \"{FORMAT}\", found \"{}\"{lesson}", found.chars().take(64).collect::<String>()),
        ));
    }
    let file = Obj::new(&root, String::new(), FILE_FIELDS)?;
    // Present and a string (its value was checked above).
    file.required_str("format")?;
    let id = file.str("id")?.unwrap_or("custom").to_owned();
    if id.is_empty() || id.len() > 64 {
        return Err(error("id", "must be 1 to 64 characters"));
    }
    let fable = file.named::<Fable>("fable")?.unwrap_or_default();
    let protocol = file.named::<Protocol>("protocol")?.unwrap_or_default();
    let title = file.text("title", None)?;
    let summary = file.text("summary", None)?;
    let seed = file.u64("seed")?.unwrap_or(1);
    let until_ms = file.u64("until_ms")?.unwrap_or(60_000);
    let raw_events = file.array("events")?;
    let raw_interventions = file.array("interventions")?;
    if raw_events.len() + raw_interventions.len() > MAX_EVENTS {
        let n = raw_events.len() + raw_interventions.len();
        return Err(error("events", format!("has {n} events and interventions; at most {MAX_EVENTS} are accepted")));
    }
    let clock = |c: Option<Obj>| -> Result<ClockConfig, ScenarioError> {
        let Some(c) = c else { return Ok(ClockConfig::default()) };
        let rate_ppm = rate_ppm(c.f64("rate")?.unwrap_or(1.0)).map_err(|m| error(c.at("rate"), m))?;
        let config = ClockConfig { offset_ms: c.i64("offset_ms")?.unwrap_or(0), rate_ppm };
        config.check().map_err(|(field, m)| error(c.at(field), m))?;
        Ok(config)
    };
    let store_clock = clock(file.obj("store_clock", CLOCK_FIELDS)?)?;
    let store_kind = match file.obj("store", &["kind"])? {
        None => StoreKind::default(),
        Some(st) => st.named::<StoreKind>("kind")?.unwrap_or_default(),
    };
    let rules = store_kind.rules();
    let mut nodes = Vec::new();
    let mut node_names = Vec::new();
    match file.get("nodes") {
        None => {
            for id in ["chen", "lin"] {
                nodes.push(NodeConfig {
                    id: id.into(),
                    identity: id.into(),
                    start_ms: 0,
                    clock: ClockConfig::default(),
                    timers: rules.node_timers,
                    lease: None,
                    writes_to: Vec::new(),
                });
                node_names.push(None);
            }
        }
        Some(_) => {
            for (i, raw) in file.array("nodes")?.iter().enumerate() {
                let n = Obj::new(
                    raw,
                    format!("nodes[{i}]"),
                    &["id", "identity", "start_ms", "name", "clock", "timers", "lease", "writes_to"],
                )?;
                let id = n.required_str("id")?.to_owned();
                let lease = match n.obj("lease", &["duration_ms", "renew_deadline_ms"])? {
                    None => None,
                    Some(l) => {
                        let need = |key: &str| {
                            l.u64(key)?.ok_or_else(|| error(l.path.clone(), format!("missing field `{key}`")))
                        };
                        Some(NodeLease {
                            duration_ms: need("duration_ms")?,
                            renew_deadline_ms: need("renew_deadline_ms")?,
                        })
                    }
                };
                nodes.push(NodeConfig {
                    identity: n.str("identity")?.map_or_else(|| id.clone(), str::to_owned),
                    id,
                    start_ms: n.u64("start_ms")?.unwrap_or(0),
                    clock: clock(n.obj("clock", CLOCK_FIELDS)?)?,
                    timers: n.named::<TimerClock>("timers")?.unwrap_or(rules.node_timers),
                    lease,
                    writes_to: names(&n, "writes_to")?.unwrap_or_default(),
                });
                node_names.push(n.text("name", None)?);
            }
        }
    }
    let lock_defaults = LockConfig { session_check: rules.client.rules().session_check, ..LockConfig::default() };
    let lock = match file.obj("lock", &["name", "release_check", "hold_ms", "session_check", "lock_delay_ms"])? {
        None => lock_defaults,
        Some(l) => LockConfig {
            name: l.str("name")?.map_or(lock_defaults.name, str::to_owned),
            release_check: l.named::<ReleaseCheck>("release_check")?.unwrap_or_default(),
            hold_ms: l.u64("hold_ms")?,
            session_check: l.bool("session_check", lock_defaults.session_check)?,
            lock_delay_ms: l.u64("lock_delay_ms")?.unwrap_or(0),
        },
    };
    let lease_file = file.obj(
        "lease",
        &[
            "duration_ms",
            "renew_every_ms",
            "renew_deadline_ms",
            "retry_every_ms",
            "expiry",
            "renew_policy",
            "observer_duration",
        ],
    )?;
    let lease = {
        let get = |key: &str| lease_file.as_ref().map_or(Ok(None), |l| l.u64(key));
        let defaults = LeaseConfig::with_duration(get("duration_ms")?.unwrap_or(LeaseConfig::default().duration_ms));
        let expiry = lease_file.as_ref().map_or(Ok(None), |l| l.named::<Expiry>("expiry"))?.unwrap_or(rules.expiry());
        let renew_policy = lease_file
            .as_ref()
            .map_or(Ok(None), |l| l.named::<RenewPolicy>("renew_policy"))?
            .unwrap_or(rules.client.rules().renewal);
        let retry_every_ms = get("retry_every_ms")?.unwrap_or(defaults.retry_every_ms);
        // client-go renews every RetryPeriod.
        let renew_default = if renew_policy == RenewPolicy::Retry { retry_every_ms } else { defaults.renew_every_ms };
        LeaseConfig {
            duration_ms: defaults.duration_ms,
            renew_every_ms: get("renew_every_ms")?.unwrap_or(renew_default),
            renew_deadline_ms: get("renew_deadline_ms")?.unwrap_or(defaults.renew_deadline_ms),
            retry_every_ms,
            expiry,
            renew_policy,
            observer_duration: lease_file
                .as_ref()
                .map_or(Ok(None), |l| l.named::<ObserverDuration>("observer_duration"))?
                .unwrap_or_default(),
        }
    };
    let network_file =
        file.obj("network", &["latency_ms", "duplicate_percent", "reorder_percent", "reorder_hold_ms"])?;
    let mut network = match network_file.as_ref().map(|n| n.obj("latency_ms", &["min", "max"])).transpose()?.flatten() {
        None => NetworkConfig::default(),
        Some(l) => {
            let bound = |key: &str| l.u64(key)?.ok_or_else(|| error(l.path.clone(), format!("missing field `{key}`")));
            NetworkConfig::with_latency(bound("min")?, bound("max")?)
        }
    };
    if let Some(n) = &network_file {
        let percent = |key: &str| -> Result<u8, ScenarioError> {
            let v = n.u64(key)?.unwrap_or(0);
            u8::try_from(v).ok().filter(|p| *p <= 100).ok_or_else(|| error(n.at(key), "must be between 0 and 100"))
        };
        network.duplicate_percent = percent("duplicate_percent")?;
        network.reorder_percent = percent("reorder_percent")?;
        network.reorder_hold_ms = n.u64("reorder_hold_ms")?.unwrap_or(0);
    }
    let r = file.obj(
        "resource",
        &["fencing", "equal_token", "persist_high_water", "token_check", "epoch_barrier", "token_scope"],
    )?;
    let resource = match r {
        None => ResourceConfig::default(),
        Some(r) => ResourceConfig {
            fencing: r.bool("fencing", true)?,
            equal_token: r.named::<EqualTokenPolicy>("equal_token")?.unwrap_or_default(),
            persist_high_water: r.bool("persist_high_water", true)?,
            token_check: r.named::<TokenCheck>("token_check")?.unwrap_or_default(),
            epoch_barrier: r.bool("epoch_barrier", false)?,
            token_scope: r.named::<TokenScope>("token_scope")?.unwrap_or_default(),
        },
    };
    let work = match file.obj("work", &["every_ms", "stops_with_lease", "stops_after_ms", "retry_after_ms"])? {
        None => WorkConfig::default(),
        Some(w) => WorkConfig {
            every_ms: w.u64("every_ms")?.unwrap_or(WorkConfig::default().every_ms),
            stops_with_lease: w.bool("stops_with_lease", true)?,
            stops_after_ms: w.u64("stops_after_ms")?.unwrap_or(0),
            retry_after_ms: w.u64("retry_after_ms")?,
        },
    };
    let issuer_file = file.obj("issuer", &["first_token"])?;
    if let (Some(_), Some(first)) = (&issuer_file, rules.first_token) {
        return Err(error(
            "issuer",
            format!(
                "cannot be chosen on the {} store: its tokens are its revisions, and the first is {first}",
                store_kind.code()
            ),
        ));
    }
    let issuer = match issuer_file {
        None => IssuerConfig::default(),
        Some(i) => IssuerConfig {
            first_token: i.u64("first_token")?.ok_or_else(|| error("issuer", "missing field `first_token`"))?,
        },
    };
    let list = |name: &str, raw: &[Value]| -> Result<Vec<ScheduledCommand>, ScenarioError> {
        raw.iter().enumerate().map(|(i, v)| event(&EventFile::read(v, format!("{name}[{i}]"))?, true)).collect()
    };
    let events = list("events", raw_events)?;
    let interventions = list("interventions", raw_interventions)?;
    let mut config = Config {
        seed,
        protocol,
        store_kind,
        lock,
        store_clock,
        until_ms,
        nodes,
        lease,
        network,
        resource,
        resources: names(&file, "resources")?.unwrap_or_default(),
        work,
        issuer,
        events,
        interventions,
    };
    config.check().map_err(|e| error(e.path, e.message))?;
    // Knobs turned after the rest is read, by the sweeps' own rule (`Knob::apply`): a swept run
    // opened from the page is its built-in file with these set, so its share link replays it.
    let knob_names: Vec<&str> = Knob::ALL.iter().map(|k| k.code()).collect();
    if let Some(knobs) = file.obj("knobs", &knob_names)? {
        for knob in Knob::ALL {
            if let Some(value) = knobs.u64(knob.code())? {
                config = knob.apply(&config, value).map_err(|e| error(knobs.at(knob.code()), e.message))?;
            }
        }
    }
    Ok(Scenario { id, fable, title, summary, node_names, config })
}

/// What an entry of `events` does (`"do"`), by its name in files (`"revoke_lease"`).
#[derive(Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Action {
    Pause,
    Resume,
    Crash,
    Restart,
    Partition,
    Heal,
    RevokeLease,
    SetFencing,
    DelayNextWrite,
    RawWrite,
    RollbackIssuer,
    RestoreResource,
    RestartResource,
    ClockJump,
    ClockRate,
    DropScript,
    StoreFailover,
    LoseNext,
    HoldNext,
    CopyNext,
}

const EVENT_FIELDS: &[&str] = &[
    "at_ms",
    "do",
    "node",
    "target",
    "for_ms",
    "by_ms",
    "rate",
    "lock",
    "from",
    "on",
    "token",
    "value",
    "op_id",
    "next_token",
    "high_water",
    "lag_ms",
    "resource",
    "message",
];

/// One entry of a scenario's `events` or `interventions` (and of a lesson step's `do`, which has
/// no `at_ms`: its actions happen when the step begins), as written.
pub(crate) struct EventFile {
    /// Its path, for errors.
    path: String,
    at_ms: Option<u64>,
    action: Action,
    node: Option<String>,
    /// A node id or `store` (clock events).
    target: Option<String>,
    for_ms: Option<u64>,
    /// A delay (≥ 1) or, for `clock_jump`, a step that may be negative.
    by_ms: Option<i64>,
    /// Clock rate, times true speed.
    rate: Option<f64>,
    /// The lock that issued a raw write's token.
    lock: Option<String>,
    /// Which link a partition cuts.
    from: Option<Link>,
    on: Option<bool>,
    /// Any JSON value; `Some(Value::Null)` is an explicit null, `None` an absent field.
    token: Option<Value>,
    value: Option<String>,
    op_id: Option<String>,
    next_token: Option<u64>,
    high_water: Option<u64>,
    /// How far behind the promoted replica was (`store_failover`), in ms.
    lag_ms: Option<u64>,
    /// The resource a raw write, a restore or a restart acts on (a name in `resources`).
    resource: Option<String>,
    /// The kind of message `lose_next`, `hold_next` and `copy_next` act on (`renew_reply`, …).
    message: Option<String>,
}

impl EventFile {
    /// Reads the entry `value` at `path`; which fields its action takes is checked by [`event`].
    pub(crate) fn read(value: &Value, path: String) -> Result<Self, ScenarioError> {
        let e = Obj::new(value, path, EVENT_FIELDS)?;
        let action = e.named::<Action>("do")?.ok_or_else(|| error(e.at("do"), "is required"))?;
        let string = |key: &str| e.str(key).map(|s| s.map(str::to_owned));
        Ok(EventFile {
            at_ms: e.u64("at_ms")?,
            action,
            node: string("node")?,
            target: string("target")?,
            for_ms: e.u64("for_ms")?,
            by_ms: e.i64("by_ms")?,
            rate: e.f64("rate")?,
            lock: string("lock")?,
            from: e.named::<Link>("from")?,
            on: match e.get("on") {
                None => None,
                Some(_) => Some(e.bool("on", false)?),
            },
            token: e.get("token").cloned(),
            value: string("value")?,
            op_id: string("op_id")?,
            next_token: e.u64("next_token")?,
            high_water: e.u64("high_water")?,
            lag_ms: e.u64("lag_ms")?,
            resource: string("resource")?,
            message: string("message")?,
            path: e.path,
        })
    }
}

/// Turn one event entry into a command, checking that it carries exactly the fields its action
/// takes. `timed`: the entry must give `at_ms` (a scenario's lists); otherwise it must not (a
/// lesson step's `do`, whose actions happen when the step begins: their `at_ms` is 0 here).
pub(crate) fn event(e: &EventFile, timed: bool) -> Result<ScheduledCommand, ScenarioError> {
    let at = |field: &str| format!("{}.{field}", e.path);
    let at_ms = match (e.at_ms, timed) {
        (Some(t), true) => t,
        (None, false) => 0,
        (None, true) => return Err(error(at("at_ms"), "is required: the virtual time of the event, in ms")),
        (Some(_), false) => {
            return Err(error(at("at_ms"), "does not apply here: a step's actions happen when the step begins"))
        }
    };

    let given: [(&str, bool); 16] = [
        ("from", e.from.is_some()),
        ("node", e.node.is_some()),
        ("target", e.target.is_some()),
        ("rate", e.rate.is_some()),
        ("lock", e.lock.is_some()),
        ("for_ms", e.for_ms.is_some()),
        ("by_ms", e.by_ms.is_some()),
        ("on", e.on.is_some()),
        ("token", e.token.is_some()),
        ("value", e.value.is_some()),
        ("op_id", e.op_id.is_some()),
        ("next_token", e.next_token.is_some()),
        ("high_water", e.high_water.is_some()),
        ("lag_ms", e.lag_ms.is_some()),
        ("resource", e.resource.is_some()),
        ("message", e.message.is_some()),
    ];
    let (name, required, optional): (&str, &[&str], &[&str]) = match e.action {
        Action::Pause => ("pause", &["node"], &["for_ms"]),
        Action::Resume => ("resume", &["node"], &[]),
        Action::Crash => ("crash", &["node"], &[]),
        Action::Restart => ("restart", &["node"], &[]),
        Action::Partition => ("partition", &["node"], &["from"]),
        Action::Heal => ("heal", &["node"], &[]),
        Action::RevokeLease => ("revoke_lease", &[], &[]),
        Action::SetFencing => ("set_fencing", &["on"], &[]),
        Action::DelayNextWrite => ("delay_next_write", &["node", "by_ms"], &[]),
        // A raw write may omit `token` on purpose: that is the "missing token" check.
        Action::RawWrite => ("raw_write", &["value"], &["token", "op_id", "lock", "resource"]),
        Action::RollbackIssuer => ("rollback_issuer", &["next_token"], &[]),
        Action::RestoreResource => ("restore_resource", &[], &["high_water", "resource"]),
        Action::RestartResource => ("restart_resource", &[], &["resource"]),
        Action::ClockJump => ("clock_jump", &["target", "by_ms"], &[]),
        // The issue's wording names the node; `target` also reaches the store.
        Action::ClockRate => ("clock_rate", &["rate"], &["node", "target"]),
        Action::DropScript => ("drop_script", &["node"], &[]),
        Action::StoreFailover => ("store_failover", &[], &["lag_ms"]),
        Action::LoseNext => ("lose_next", &["node", "message"], &[]),
        Action::HoldNext => ("hold_next", &["node", "message", "by_ms"], &[]),
        Action::CopyNext => ("copy_next", &["node", "message"], &[]),
    };
    for (field, is_given) in given {
        if is_given && !required.contains(&field) && !optional.contains(&field) {
            return Err(error(at(field), format!("does not apply to \"do\": \"{name}\"")));
        }
        if !is_given && required.contains(&field) {
            return Err(error(at(field), format!("is required by \"do\": \"{name}\"")));
        }
    }
    if e.action == Action::ClockRate && e.node.is_some() == e.target.is_some() {
        return Err(error(
            at("target"),
            "\"do\": \"clock_rate\" takes either \"node\" or \"target\" (a node id or \"store\")",
        ));
    }
    let node = || e.node.clone().unwrap_or_default();
    let delay = |by: Option<i64>| -> Result<u64, ScenarioError> {
        u64::try_from(by.unwrap_or(0)).map_err(|_| error(at("by_ms"), format!("must not be negative for \"{name}\"")))
    };
    let next_message = |fault: MessageFault| -> Result<Command, ScenarioError> {
        let code = e.message.as_deref().unwrap_or_default();
        let kind = MessageKind::from_code(code).ok_or_else(|| {
            let known: Vec<&str> = MessageKind::ALL.iter().map(|k| k.code()).collect();
            error(at("message"), format!("\"{code}\" is not a kind of message; one of {}", known.join(", ")))
        })?;
        Ok(Command::NextMessage { node: node(), kind, fault })
    };
    let command = match e.action {
        Action::Pause => Command::Pause { node: node(), for_ms: e.for_ms },
        Action::Resume => Command::Resume { node: node() },
        Action::Crash => Command::Crash { node: node() },
        Action::Restart => Command::Restart { node: node() },
        Action::Partition => Command::Partition { node: node(), from: e.from.unwrap_or_default() },
        Action::Heal => Command::Heal { node: node() },
        Action::RevokeLease => Command::RevokeLease,
        Action::SetFencing => Command::SetFencing { on: e.on.unwrap_or(true) },
        Action::DelayNextWrite => Command::DelayNextWrite { node: node(), by_ms: delay(e.by_ms)? },
        Action::RawWrite => Command::RawWrite {
            token: wire_token(e.token.as_ref()),
            value: e.value.clone().unwrap_or_default(),
            op_id: e.op_id.clone(),
            lock: e.lock.clone(),
            resource: e.resource.clone(),
        },
        Action::RollbackIssuer => Command::RollbackIssuer { next_token: e.next_token.unwrap_or(1) },
        Action::RestoreResource => {
            Command::RestoreResource { high_water: e.high_water.unwrap_or(0), resource: e.resource.clone() }
        }
        Action::RestartResource => Command::RestartResource { resource: e.resource.clone() },
        Action::ClockJump => {
            Command::ClockJump { target: e.target.clone().unwrap_or_default(), by_ms: e.by_ms.unwrap_or(0) }
        }
        Action::ClockRate => Command::ClockRate {
            target: e.target.clone().or_else(|| e.node.clone()).unwrap_or_default(),
            rate_ppm: rate_ppm(e.rate.unwrap_or(1.0)).map_err(|m| error(at("rate"), m))?,
        },
        Action::DropScript => Command::DropScript { node: node() },
        Action::StoreFailover => Command::StoreFailover { lag_ms: e.lag_ms.unwrap_or(0) },
        Action::LoseNext => next_message(MessageFault::Lose)?,
        Action::HoldNext => next_message(MessageFault::Hold { by_ms: delay(e.by_ms)? })?,
        Action::CopyNext => next_message(MessageFault::Copy)?,
    };
    Ok(ScheduledCommand { at_ms, command })
}

/// A clock rate (times true speed) in parts per million.
///
/// # Errors
/// A message for a rate that is not a finite number from 0.1 to 10.
fn rate_ppm(rate: f64) -> Result<u64, String> {
    if !rate.is_finite() || !(0.1..=10.0).contains(&rate) {
        return Err("must be a number from 0.1 to 10 (times the speed of true time)".into());
    }
    // In range, so the product is a small positive number: the cast is exact after rounding.
    Ok((rate * RATE_ONE_PPM as f64).round() as u64)
}

/// Classify a JSON token the way the resource will see it.
pub(crate) fn wire_token(value: Option<&Value>) -> WireToken {
    match value {
        None => WireToken::Missing,
        Some(Value::Number(n)) => match n.as_u64() {
            Some(t) => WireToken::Number(t),
            None => WireToken::Malformed(n.to_string()),
        },
        Some(other) => WireToken::Malformed(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The path where serde_json stopped, for the three kinds of position it reports, across
    /// lines, arrays and strings holding quotes, braces and commas.
    #[test]
    fn error_paths_come_from_the_text() {
        let json = "{\"format\": \"leaselab.scenario/1\",\n \"title\": {\"en\": \"a \\\"{[,\", \"zh\": \"b\"},\n \"events\": [{\"at_ms\": 1, \"do\": \"crash\", \"node\": \"a\"},\n  {\"at_ms\": 2, \"do\": \"pause\", \"for_ms\": true}]}";
        let e = parse(json).expect_err("for_ms is not a number");
        assert_eq!(e.path, "events[1].for_ms");
        // Malformed JSON: the line and column, and the path where reading stopped.
        let e = parse("{\"format\": \"leaselab.scenario/1\",\n \"events\": [{\"at_ms\": 1,\n \"do\": }]}")
            .expect_err("no value");
        assert_eq!((e.path.as_str(), e.line_column.map(|l| l.0)), ("events[0]", Some(3)));
        let e = parse("{\"format\": \"leaselab.scenario/1\", \"lease\": {\"duration_ms\": 5, \"x\": 1}}")
            .expect_err("unknown");
        assert_eq!(e.path, "lease.x");
        let e = parse("{\"format\": \"leaselab.scenario/1\", \"network\": {\"latency_ms\": {\"min\": 1}}}")
            .expect_err("missing");
        assert_eq!(e.path, "network.latency_ms");
        assert!(e.message.contains("max"), "{}", e.message);
        let e = parse("{\"format\": \"leaselab.scenario/1\"} x").expect_err("trailing");
        assert_eq!(e.path, ".");
        // Positions beyond the text or at its very start do not panic.
        assert_eq!(path_at("{\"a\": [1, 2", 9, 99), "a[1]");
        assert_eq!(path_at("{\"a\": [1, 2", 1, 99), "a[1]");
        assert_eq!(path_at("", 0, 0), ".");
    }

    #[test]
    fn minimal_file_gets_kubernetes_defaults() {
        let e = parse(r#"{"format": "leaselab.lesson/1", "steps": [], "metaphors": []}"#).expect_err("a lesson");
        assert_eq!(e.path, "format");
        assert!(e.message.contains("a lesson file"), "{}", e.message);
        let s = parse(r#"{"format": "leaselab.scenario/1"}"#).expect("minimal file");
        let c = &s.config;
        assert_eq!((c.lease.duration_ms, c.lease.renew_deadline_ms, c.lease.retry_every_ms), (15_000, 10_000, 2_000));
        assert_eq!(c.lease.renew_every_ms, 5_000, "renew every third of the lease");
        assert!(c.resource.fencing);
        assert_eq!(c.resource.equal_token, EqualTokenPolicy::Accept);
        assert_eq!(c.issuer.first_token, 1);
        assert_eq!(c.nodes.len(), 2);
    }

    #[test]
    fn tokens_are_classified_as_the_resource_sees_them() {
        let v = |s: &str| serde_json::from_str::<Value>(s).expect("json");
        assert_eq!(wire_token(None), WireToken::Missing);
        assert_eq!(wire_token(Some(&v("8"))), WireToken::Number(8));
        assert_eq!(wire_token(Some(&v("0"))), WireToken::Number(0));
        for bad in ["null", "\"2\"", "true", "1.5", "-3", "18446744073709551616", "[]", "{}"] {
            assert!(matches!(wire_token(Some(&v(bad))), WireToken::Malformed(_)), "{bad}");
            assert_eq!(wire_token(Some(&v(bad))).valid(), None);
        }
    }

    #[test]
    fn event_fields_must_match_the_action() {
        let e = parse(r#"{"format":"leaselab.scenario/1","events":[{"at_ms":1,"do":"pause"}]}"#).unwrap_err();
        assert_eq!(e.path, "events[0].node");
        let e = parse(r#"{"format":"leaselab.scenario/1","events":[{"at_ms":1,"do":"heal","node":"chen","by_ms":3}]}"#)
            .unwrap_err();
        assert_eq!(e.path, "events[0].by_ms");
    }
}
