//! A run from the page as a scenario file (issue 4): the scenario's own file plus the learner's
//! interventions, written into its `interventions` list at their times, in the public format
//! ([`super::FORMAT`]). The runner plays that file to the same trace, bit for bit: an entry of
//! `interventions` applies after everything else at its millisecond, as the page applied it
//! live (see [`crate::engine::Config::interventions`]; tested in `tests/export.rs`).
//!
//! Also the scenario carried whole by a share link (`s=`): its JSON, compact, in base64url.

use serde_json::{Map, Value};

use super::{parse, Scenario, ScenarioError};
use crate::engine::{Command, ScheduledCommand};

/// Longest `s=` value a share link may carry, in characters (about 36 KB of JSON).
pub const MAX_LINK_SCENARIO_CHARS: usize = 48_000;

fn whole(message: impl Into<String>) -> ScenarioError {
    ScenarioError { path: ".".into(), message: message.into(), line_column: None }
}

/// `source` (a valid scenario file) with `interventions` added to its `interventions` list, as
/// a scenario file. Those at or after the run's end are left out: the run has ended by then and
/// they change nothing. At the same millisecond, the file's own interventions come first, then
/// the new ones in their order (as on the page, where the file's apply while time advances).
///
/// # Errors
/// `source`'s own [`ScenarioError`]; or, if the result does not read back (an intervention the
/// format cannot hold), that error.
pub fn with_interventions(source: &str, interventions: &[ScheduledCommand]) -> Result<String, ScenarioError> {
    let until = parse(source)?.config.until_ms;
    let mut file = object(source)?;
    let mut list = match file.remove("interventions") {
        Some(Value::Array(items)) => items,
        _ => Vec::new(),
    };
    list.extend(interventions.iter().filter(|i| i.at_ms < until).map(event));
    // Stable: equal times keep their order.
    list.sort_by_key(|e| e.get("at_ms").and_then(Value::as_u64).unwrap_or(0));
    if !list.is_empty() {
        file.insert("interventions".into(), Value::Array(list));
    }
    let text = layout(&file);
    parse(&text)?;
    Ok(text)
}

/// A scenario file as a JSON object.
fn object(source: &str) -> Result<Map<String, Value>, ScenarioError> {
    serde_json::from_str(source.strip_prefix('\u{feff}').unwrap_or(source)).map_err(|e| whole(e.to_string()))
}

/// One command as an entry of `events` / `interventions`.
fn event(i: &ScheduledCommand) -> Value {
    let mut v = match serde_json::to_value(&i.command) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    // Absent optional fields are written as absent, not null (a null token means something).
    v.retain(|_, x| !x.is_null());
    match &i.command {
        Command::ClockRate { rate_ppm, .. } => {
            v.remove("rate_ppm");
            v.insert("rate".into(), Value::from(*rate_ppm as f64 / crate::engine::RATE_ONE_PPM as f64));
        }
        Command::RawWrite { token, .. } => {
            v.remove("token");
            if let Some(t) = super::report::token_json(token) {
                v.insert("token".into(), t);
            }
        }
        _ => {}
    }
    v.insert("at_ms".into(), Value::from(i.at_ms));
    Value::Object(v)
}

/// The file laid out for reading: `format` first, one field per line, one list item per line.
fn layout(file: &Map<String, Value>) -> String {
    let compact = |v: &Value| serde_json::to_string(v).unwrap_or_default();
    let format = file.get_key_value("format");
    let fields: Vec<_> = format.into_iter().chain(file.iter().filter(|(k, _)| *k != "format")).collect();
    let mut out = String::from("{\n");
    for (n, (key, value)) in fields.iter().enumerate() {
        out.push_str("  ");
        out.push_str(&compact(&Value::String((*key).clone())));
        out.push_str(": ");
        match value {
            Value::Array(items) if !items.is_empty() => {
                out.push_str("[\n");
                for (k, item) in items.iter().enumerate() {
                    out.push_str("    ");
                    out.push_str(&compact(item));
                    out.push_str(if k + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str("  ]");
            }
            other => out.push_str(&compact(other)),
        }
        out.push_str(if n + 1 < fields.len() { ",\n" } else { "\n" });
    }
    out.push_str("}\n");
    out
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `source` (a valid scenario file) for a share link's `s=`: compact JSON in base64url (RFC 4648
/// §5, no padding).
///
/// # Errors
/// `source`'s own [`ScenarioError`], or a scenario too large for a link.
pub fn to_link(source: &str) -> Result<String, ScenarioError> {
    parse(source)?;
    let json = serde_json::to_string(&object(source)?).map_err(|e| whole(e.to_string()))?;
    let mut out = String::with_capacity(json.len() * 4 / 3 + 3);
    for chunk in json.as_bytes().chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (k, b)| n | u32::from(*b) << (16 - 8 * k));
        for k in 0..=chunk.len() {
            out.push(char::from(B64[(n >> (18 - 6 * k) & 63) as usize]));
        }
    }
    if out.len() > MAX_LINK_SCENARIO_CHARS {
        return Err(whole(format!("the scenario is too large for a link ({} characters; at most {MAX_LINK_SCENARIO_CHARS})", out.len())));
    }
    Ok(out)
}

/// Reads a share link's `s=`: the scenario, validated exactly as a file, and its JSON text.
///
/// # Errors
/// A value that is too long, not base64url (with the position of the first bad character), not
/// UTF-8, or not a valid scenario (its [`ScenarioError`], field path and all).
pub fn from_link(value: &str) -> Result<(Scenario, String), ScenarioError> {
    let value = value.trim();
    if value.len() > MAX_LINK_SCENARIO_CHARS {
        return Err(whole(format!("the scenario in the link is {} characters long; at most {MAX_LINK_SCENARIO_CHARS} are read", value.len())));
    }
    let mut bytes = Vec::with_capacity(value.len() * 3 / 4);
    let (mut n, mut bits) = (0u32, 0u32);
    for (k, c) in value.bytes().enumerate() {
        let Some(d) = B64.iter().position(|b| *b == c) else {
            return Err(whole(format!("the scenario in the link is not base64url (character {})", k + 1)));
        };
        n = n << 6 | d as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push((n >> bits) as u8);
            n &= (1 << bits) - 1;
        }
    }
    let json = String::from_utf8(bytes).map_err(|_| whole("the scenario in the link is not UTF-8 text"))?;
    let scenario = parse(&json)?;
    Ok((scenario, json))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scenario_survives_the_link() {
        for (id, json) in super::super::library::FILES {
            let link = to_link(json).expect(id);
            assert!(link.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{id}: {link}");
            let (back, _) = from_link(&link).expect(id);
            assert_eq!(back, parse(json).expect(id), "{id}");
        }
    }

    #[test]
    fn a_broken_link_scenario_says_what_is_wrong() {
        assert!(from_link("eyJ*").unwrap_err().message.contains("character 4"));
        assert!(from_link(&"A".repeat(MAX_LINK_SCENARIO_CHARS + 1)).unwrap_err().message.contains("at most"));
        // {"format":"x"} in base64url: read, then refused by the format's own check.
        let e = from_link("eyJmb3JtYXQiOiJ4In0").unwrap_err();
        assert_eq!(e.path, "format");
        // Invalid UTF-8 (0xff 0xfe).
        assert!(from_link("__4").unwrap_err().message.contains("UTF-8"));
    }
}
