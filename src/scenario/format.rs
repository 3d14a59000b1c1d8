//! Reading `leaselab.scenario/1` files.

use serde::Deserialize;
use serde_json::Value;

use super::{Fable, Localized, Scenario, ScenarioError};
use crate::engine::{
    ClockConfig, Command, Config, Link, EqualTokenPolicy, Expiry, IssuerConfig, LeaseConfig, LockConfig, NetworkConfig,
    NodeConfig, Protocol, ReleaseCheck, ResourceConfig, ScheduledCommand, TokenCheck, TokenScope, WireToken,
    WorkConfig, RATE_ONE_PPM,
};

/// The format tag every scenario file must carry.
pub const FORMAT: &str = "leaselab.scenario/1";

/// Largest scenario file accepted, in bytes.
const MAX_BYTES: usize = 1 << 20;
/// Most events a scenario may schedule.
const MAX_EVENTS: usize = 10_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    #[serde(default = "default_id")]
    id: String,
    #[serde(default)]
    fable: Fable,
    #[serde(default)]
    protocol: ProtocolFile,
    #[serde(default)]
    lock: LockFile,
    store_clock: Option<ClockFile>,
    title: Option<Localized>,
    summary: Option<Localized>,
    #[serde(default = "default_seed")]
    seed: u64,
    #[serde(default = "default_until")]
    until_ms: u64,
    #[serde(default = "default_nodes")]
    nodes: Vec<NodeFile>,
    #[serde(default)]
    lease: LeaseFile,
    #[serde(default)]
    network: NetworkFile,
    #[serde(default)]
    resource: ResourceFile,
    #[serde(default)]
    work: WorkFile,
    #[serde(default)]
    issuer: IssuerFile,
    #[serde(default)]
    events: Vec<EventFile>,
    /// Interventions recorded on the page: same entries as `events`, applied after everything
    /// else at their millisecond ([`Config::interventions`]).
    #[serde(default)]
    interventions: Vec<EventFile>,
}

fn default_id() -> String {
    "custom".into()
}
fn default_seed() -> u64 {
    1
}
fn default_until() -> u64 {
    60_000
}
fn default_nodes() -> Vec<NodeFile> {
    ["chen", "lin"].iter().map(|id| NodeFile { id: (*id).into(), identity: None, start_ms: 0, name: None, clock: None }).collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeFile {
    id: String,
    /// `holderIdentity`; defaults to the id.
    identity: Option<String>,
    #[serde(default)]
    start_ms: u64,
    name: Option<Localized>,
    clock: Option<ClockFile>,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum ProtocolFile {
    #[default]
    Lease,
    Lock,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
struct ClockFile {
    #[serde(default)]
    offset_ms: i64,
    /// Times the speed of true time (0.1 ..= 10).
    #[serde(default = "one")]
    rate: f64,
}

fn one() -> f64 {
    1.0
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct LockFile {
    name: Option<String>,
    #[serde(default)]
    release_check: ReleaseCheckFile,
    hold_ms: Option<u64>,
    session_check: Option<bool>,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum ReleaseCheckFile {
    #[default]
    Owner,
    None,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum ExpiryFile {
    #[default]
    Coordinator,
    Observer,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum LinkFile {
    All,
    Coordinator,
    Resource,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum TokenScopeFile {
    #[default]
    PerLock,
    Global,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct LeaseFile {
    duration_ms: Option<u64>,
    renew_every_ms: Option<u64>,
    renew_deadline_ms: Option<u64>,
    retry_every_ms: Option<u64>,
    #[serde(default)]
    expiry: ExpiryFile,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct NetworkFile {
    latency_ms: Option<LatencyFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LatencyFile {
    min: u64,
    max: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResourceFile {
    #[serde(default = "yes")]
    fencing: bool,
    #[serde(default)]
    equal_token: EqualTokenPolicyFile,
    #[serde(default = "yes")]
    persist_high_water: bool,
    #[serde(default)]
    token_check: TokenCheckFile,
    #[serde(default)]
    epoch_barrier: bool,
    #[serde(default)]
    token_scope: TokenScopeFile,
}

impl Default for ResourceFile {
    fn default() -> Self {
        Self {
            fencing: true,
            equal_token: EqualTokenPolicyFile::Accept,
            persist_high_water: true,
            token_check: TokenCheckFile::Ordered,
            epoch_barrier: false,
            token_scope: TokenScopeFile::PerLock,
        }
    }
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum TokenCheckFile {
    #[default]
    Ordered,
    Equality,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum EqualTokenPolicyFile {
    #[default]
    Accept,
    Reject,
    Dedupe,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorkFile {
    #[serde(default = "default_work_every")]
    every_ms: u64,
    #[serde(default = "yes")]
    stops_with_lease: bool,
}

fn default_work_every() -> u64 {
    WorkConfig::default().every_ms
}

impl Default for WorkFile {
    fn default() -> Self {
        Self { every_ms: default_work_every(), stops_with_lease: true }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IssuerFile {
    first_token: u64,
}

impl Default for IssuerFile {
    fn default() -> Self {
        Self { first_token: IssuerConfig::default().first_token }
    }
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
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
}

/// One entry of a scenario's `events` or `interventions` (and of a lesson step's `do`, which has
/// no `at_ms`: its actions happen when the step begins).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EventFile {
    at_ms: Option<u64>,
    #[serde(rename = "do")]
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
    from: Option<LinkFile>,
    on: Option<bool>,
    /// Any JSON value; `Some(Value::Null)` is an explicit null, `None` an absent field.
    #[serde(default, deserialize_with = "present")]
    token: Option<Value>,
    value: Option<String>,
    op_id: Option<String>,
    next_token: Option<u64>,
    high_water: Option<u64>,
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

pub(crate) fn error(path: impl Into<String>, message: impl Into<String>) -> ScenarioError {
    ScenarioError { path: path.into(), message: message.into(), line_column: None }
}

/// The field path (`events[1].node`, `lease`, `.` for the document) of the place where
/// serde_json stopped reading, at 1-based `line` and byte `column` of `json`: the key of every
/// object and the index of every array still open there, and the key whose value was being read.
///
/// serde_json reports an unknown field just after its key, a wrong type just after the value,
/// and a missing field just after the closing brace of its object; each gives the path a reader
/// expects (the key itself, or the object lacking a field). Doing this with a scan of the text
/// instead of a path-tracking deserializer keeps the page about 15 KB smaller (issue 4's budget).
fn path_at(json: &str, line: usize, column: usize) -> String {
    enum Open {
        /// An object, the key most recently read in it, and whether a value is expected next.
        Object(Option<String>, bool),
        Array(usize),
    }
    let line_start = if line <= 1 {
        0
    } else {
        json.match_indices('\n').nth(line - 2).map_or(json.len(), |(i, _)| i + 1)
    };
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

/// Reads one JSON object of type `T` from `json` (at most `max_bytes`, a leading byte-order mark
/// ignored), with errors that name the field path where reading stopped ([`path_at`]) and, for
/// malformed JSON, the line and column. `not_an_object` is the message when the text does not
/// start with `{`. Shared by scenario and lesson files.
pub(crate) fn read<T: serde::de::DeserializeOwned>(json: &str, max_bytes: usize, not_an_object: &str) -> Result<T, ScenarioError> {
    if json.len() > max_bytes {
        return Err(error(".", format!("the file is {} bytes; at most {max_bytes} are accepted", json.len())));
    }
    // A byte-order mark is how some editors start a UTF-8 file; it is not part of the JSON.
    let json = json.strip_prefix('\u{feff}').unwrap_or(json);
    if !json.trim_start().starts_with('{') {
        return Err(error(".", not_an_object));
    }
    let json_error = |path: String, inner: serde_json::Error| {
        let line_column = (inner.line() > 0).then(|| (inner.line(), inner.column()));
        // serde_json appends " at line L column C"; the position is reported separately.
        let message = inner.to_string();
        let mut message = message.split(" at line ").next().unwrap_or(&message).to_owned();
        // Without arbitrary precision, an integer beyond 64 bits reads as a float.
        if message.contains("floating point") && message.contains("expected u64") {
            message.push_str(" (expected a whole number from 0 to 18446744073709551615)");
        }
        ScenarioError { path, message, line_column }
    };
    let de = &mut serde_json::Deserializer::from_str(json);
    let value: T = serde::Deserialize::deserialize(&mut *de).map_err(|e| {
        let path = path_at(json, e.line(), e.column());
        json_error(path, e)
    })?;
    // Anything after the object (a second object, stray text) is an error, not ignored.
    de.end().map_err(|e| json_error(".".into(), e))?;
    Ok(value)
}

/// Parse and validate a scenario file.
///
/// # Errors
/// A [`ScenarioError`] naming the field: malformed JSON (with line and column), a wrong type, an
/// unknown field, a missing or wrong `format`, an event field that does not belong to its action,
/// or a broken rule of [`Config::check`] (zero durations, `renew_deadline_ms` not below
/// `duration_ms`, unknown or duplicate node ids, more than 8 nodes, `until_ms` above 24 h).
pub fn parse(json: &str) -> Result<Scenario, ScenarioError> {
    let file: File = read(json, MAX_BYTES, "a scenario file holds one JSON object: { \"format\": \"leaselab.scenario/1\", … }")?;
    if file.format != FORMAT {
        return Err(error("format", format!("must be \"{FORMAT}\", found \"{}\"", file.format)));
    }
    if file.id.is_empty() || file.id.len() > 64 {
        return Err(error("id", "must be 1 to 64 characters"));
    }
    if file.events.len() + file.interventions.len() > MAX_EVENTS {
        let n = file.events.len() + file.interventions.len();
        return Err(error("events", format!("has {n} events and interventions; at most {MAX_EVENTS} are accepted")));
    }
    let clock = |path: String, c: Option<ClockFile>| -> Result<ClockConfig, ScenarioError> {
        let Some(c) = c else { return Ok(ClockConfig::default()) };
        let rate_ppm = rate_ppm(c.rate).map_err(|m| error(format!("{path}.rate"), m))?;
        let config = ClockConfig { offset_ms: c.offset_ms, rate_ppm };
        config.check().map_err(|(field, m)| error(format!("{path}.{field}"), m))?;
        Ok(config)
    };
    let store_clock = clock("store_clock".into(), file.store_clock)?;
    let mut nodes = Vec::with_capacity(file.nodes.len());
    for (i, n) in file.nodes.iter().enumerate() {
        nodes.push(NodeConfig {
            id: n.id.clone(),
            identity: n.identity.clone().unwrap_or_else(|| n.id.clone()),
            start_ms: n.start_ms,
            clock: clock(format!("nodes[{i}].clock"), n.clock)?,
        });
    }
    let defaults = LeaseConfig::with_duration(file.lease.duration_ms.unwrap_or(LeaseConfig::default().duration_ms));
    let lease = LeaseConfig {
        duration_ms: defaults.duration_ms,
        renew_every_ms: file.lease.renew_every_ms.unwrap_or(defaults.renew_every_ms),
        renew_deadline_ms: file.lease.renew_deadline_ms.unwrap_or(defaults.renew_deadline_ms),
        retry_every_ms: file.lease.retry_every_ms.unwrap_or(defaults.retry_every_ms),
        expiry: match file.lease.expiry {
            ExpiryFile::Coordinator => Expiry::Coordinator,
            ExpiryFile::Observer => Expiry::Observer,
        },
    };
    let network = match file.network.latency_ms {
        Some(l) => NetworkConfig { latency_min_ms: l.min, latency_max_ms: l.max },
        None => NetworkConfig::default(),
    };
    let equal_token = match file.resource.equal_token {
        EqualTokenPolicyFile::Accept => EqualTokenPolicy::Accept,
        EqualTokenPolicyFile::Reject => EqualTokenPolicy::Reject,
        EqualTokenPolicyFile::Dedupe => EqualTokenPolicy::Dedupe,
    };
    let events = file.events.into_iter().enumerate().map(|(i, e)| event("events", i, e, true)).collect::<Result<Vec<_>, _>>()?;
    let interventions =
        file.interventions.into_iter().enumerate().map(|(i, e)| event("interventions", i, e, true)).collect::<Result<Vec<_>, _>>()?;
    let node_names = file.nodes.iter().map(|n| n.name.clone()).collect();
    let lock_defaults = LockConfig::default();
    let config = Config {
        seed: file.seed,
        protocol: match file.protocol {
            ProtocolFile::Lease => Protocol::Lease,
            ProtocolFile::Lock => Protocol::Lock,
        },
        lock: LockConfig {
            name: file.lock.name.unwrap_or(lock_defaults.name),
            release_check: match file.lock.release_check {
                ReleaseCheckFile::Owner => ReleaseCheck::Owner,
                ReleaseCheckFile::None => ReleaseCheck::None,
            },
            hold_ms: file.lock.hold_ms,
            session_check: file.lock.session_check.unwrap_or(lock_defaults.session_check),
        },
        store_clock,
        until_ms: file.until_ms,
        nodes,
        lease,
        network,
        resource: ResourceConfig {
            fencing: file.resource.fencing,
            equal_token,
            persist_high_water: file.resource.persist_high_water,
            token_check: match file.resource.token_check {
                TokenCheckFile::Ordered => TokenCheck::Ordered,
                TokenCheckFile::Equality => TokenCheck::Equality,
            },
            epoch_barrier: file.resource.epoch_barrier,
            token_scope: match file.resource.token_scope {
                TokenScopeFile::PerLock => TokenScope::PerLock,
                TokenScopeFile::Global => TokenScope::Global,
            },
        },
        work: WorkConfig { every_ms: file.work.every_ms, stops_with_lease: file.work.stops_with_lease },
        issuer: IssuerConfig { first_token: file.issuer.first_token },
        events,
        interventions,
    };
    config.check().map_err(|e| error(e.path, e.message))?;
    Ok(Scenario { id: file.id, fable: file.fable, title: file.title, summary: file.summary, node_names, config })
}

/// Turn one event entry into a command, checking that it carries exactly the fields its action
/// takes. `timed`: the entry must give `at_ms` (a scenario's lists); otherwise it must not (a
/// lesson step's `do`, whose actions happen when the step begins: their `at_ms` is 0 here).
pub(crate) fn event(list: &str, i: usize, e: EventFile, timed: bool) -> Result<ScheduledCommand, ScenarioError> {
    let at = |field: &str| format!("{list}[{i}].{field}");
    let at_ms = match (e.at_ms, timed) {
        (Some(t), true) => t,
        (None, false) => 0,
        (None, true) => return Err(error(at("at_ms"), "is required: the virtual time of the event, in ms")),
        (Some(_), false) => return Err(error(at("at_ms"), "does not apply here: a step's actions happen when the step begins")),
    };
    let given: [(&str, bool); 13] = [
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
        Action::RawWrite => ("raw_write", &["value"], &["token", "op_id", "lock"]),
        Action::RollbackIssuer => ("rollback_issuer", &["next_token"], &[]),
        Action::RestoreResource => ("restore_resource", &[], &["high_water"]),
        Action::RestartResource => ("restart_resource", &[], &[]),
        Action::ClockJump => ("clock_jump", &["target", "by_ms"], &[]),
        // The issue's wording names the node; `target` also reaches the store.
        Action::ClockRate => ("clock_rate", &["rate"], &["node", "target"]),
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
        return Err(error(at("target"), "\"do\": \"clock_rate\" takes either \"node\" or \"target\" (a node id or \"store\")"));
    }
    let delay = |by: Option<i64>| -> Result<u64, ScenarioError> {
        u64::try_from(by.unwrap_or(0)).map_err(|_| error(at("by_ms"), "must not be negative for \"delay_next_write\""))
    };
    let node = || e.node.clone().unwrap_or_default();
    let command = match e.action {
        Action::Pause => Command::Pause { node: node(), for_ms: e.for_ms },
        Action::Resume => Command::Resume { node: node() },
        Action::Crash => Command::Crash { node: node() },
        Action::Restart => Command::Restart { node: node() },
        Action::Partition => Command::Partition {
            node: node(),
            from: match e.from {
                None | Some(LinkFile::All) => Link::All,
                Some(LinkFile::Coordinator) => Link::Coordinator,
                Some(LinkFile::Resource) => Link::Resource,
            },
        },
        Action::Heal => Command::Heal { node: node() },
        Action::RevokeLease => Command::RevokeLease,
        Action::SetFencing => Command::SetFencing { on: e.on.unwrap_or(true) },
        Action::DelayNextWrite => Command::DelayNextWrite { node: node(), by_ms: delay(e.by_ms)? },
        Action::RawWrite => Command::RawWrite {
            token: wire_token(e.token.as_ref()),
            value: e.value.clone().unwrap_or_default(),
            op_id: e.op_id.clone(),
            lock: e.lock.clone(),
        },
        Action::RollbackIssuer => Command::RollbackIssuer { next_token: e.next_token.unwrap_or(1) },
        Action::RestoreResource => Command::RestoreResource { high_water: e.high_water.unwrap_or(0) },
        Action::RestartResource => Command::RestartResource,
        Action::ClockJump => Command::ClockJump { target: e.target.clone().unwrap_or_default(), by_ms: e.by_ms.unwrap_or(0) },
        Action::ClockRate => Command::ClockRate {
            target: e.target.clone().or_else(|| e.node.clone()).unwrap_or_default(),
            rate_ppm: rate_ppm(e.rate.unwrap_or(1.0)).map_err(|m| error(at("rate"), m))?,
        },
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
        assert_eq!((e.path.as_str(), e.line_column.map(|l| l.0)), ("events[1].for_ms", Some(4)));
        let e = parse("{\"format\": \"leaselab.scenario/1\", \"lease\": {\"duration_ms\": 5, \"x\": 1}}").expect_err("unknown");
        assert_eq!(e.path, "lease.x");
        let e = parse("{\"format\": \"leaselab.scenario/1\", \"network\": {\"latency_ms\": {\"min\": 1}}}").expect_err("missing");
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
