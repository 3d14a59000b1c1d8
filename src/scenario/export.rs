//! A run from the page as a scenario file (issue 4): the scenario's own file plus the learner's
//! interventions, written into its `interventions` list at their times, in the public format
//! ([`super::FORMAT`]). The runner plays that file to the same trace, bit for bit: an entry of
//! `interventions` applies after everything else at its millisecond, as the page applied it
//! live (see [`crate::engine::Config::interventions`]; tested in `tests/export.rs`).
//!
//! Also the scenario carried whole by a share link (`s=`): its JSON, compact, in base64url.

use super::{parse, Scenario, ScenarioError};
use crate::engine::{Command, Link, MessageFault, ScheduledCommand, WireToken, RATE_ONE_PPM};

/// Longest `s=` value a share link may carry, in characters (about 36 KB of JSON).
pub const MAX_LINK_SCENARIO_CHARS: usize = 48_000;

fn whole(message: impl Into<String>) -> ScenarioError {
    ScenarioError { path: ".".into(), message: message.into(), line_column: None }
}

/// `source` (a valid scenario file) with `interventions` added to its `interventions` list, as
/// a scenario file. Those at or after the run's end are left out: the run has ended by then and
/// they change nothing. At the same millisecond, the file's own interventions come first, then
/// the new ones in their order (as on the page, where the file's apply while time advances).
/// The rest of the file stays as it was written, byte for byte.
///
/// # Errors
/// `source`'s own [`ScenarioError`]; or, if the result does not read back, that error.
pub fn with_interventions(source: &str, interventions: &[ScheduledCommand]) -> Result<String, ScenarioError> {
    let base = parse(source)?.config;
    let mut list = base.interventions;
    list.extend(interventions.iter().filter(|i| i.at_ms < base.until_ms).cloned());
    // Stable: equal times keep their order.
    crate::engine::queue::sort_by_keys(&mut list, |i| (i.at_ms, 0));
    let mut text = source.strip_prefix('\u{feff}').unwrap_or(source).trim_end().to_owned();
    if let Some((from, to)) = member(&text, "interventions") {
        // Take the member out with the comma that joined it to its neighbour.
        let after = text[to..].trim_start();
        let (from, to) = match (after.strip_prefix(','), text[..from].trim_end().strip_suffix(',')) {
            (Some(rest), _) => (from, text.len() - rest.len()),
            (None, Some(before)) => (before.len(), to),
            (None, None) => (from, to),
        };
        text.replace_range(from..to, "");
    }
    if !list.is_empty() {
        let close = text.trim_end().len().saturating_sub(1);
        let body = text[..close].trim_end();
        let comma = if body.ends_with('{') { "" } else { "," };
        let items: Vec<String> = list.iter().map(event).collect();
        text = format!("{body}{comma}\n  \"interventions\": [\n    {}\n  ]\n}}", items.join(",\n    "));
    }
    text.push('\n');
    parse(&text)?;
    Ok(text)
}

/// The byte span of the top-level member `"key": value` of a valid JSON object (no commas).
fn member(json: &str, key: &str) -> Option<(usize, usize)> {
    let (mut depth, mut in_str, mut escaped, mut expect_key) = (0usize, false, false, false);
    let (mut string_at, mut found) = (0, None);
    for (i, c) in json.bytes().enumerate() {
        if in_str {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_str = false;
                if depth == 1 && expect_key && found.is_none() && json.get(string_at + 1..i) == Some(key) {
                    found = Some(string_at);
                }
            }
            continue;
        }
        let end = || Some((found?, json[..i].trim_end().len()));
        match c {
            b'"' => (in_str, string_at) = (true, i),
            b'{' | b'[' => {
                depth += 1;
                expect_key = depth == 1;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 && found.is_some() {
                    return end();
                }
            }
            b':' if depth == 1 => expect_key = false,
            b',' if depth == 1 => {
                if found.is_some() {
                    return end();
                }
                expect_key = true;
            }
            _ => {}
        }
    }
    None
}

/// A command's `resource` field as the file writes it (nothing for the first resource).
fn resource_field(resource: &Option<String>) -> String {
    resource.as_ref().map_or_else(String::new, |r| format!(r#","resource":{}"#, quote(r)))
}

/// A JSON string literal.
fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// One command as an entry of `interventions`, on one line. Rates are written from their parts
/// per million with integer arithmetic (`1.500000`), which reads back to the same rate.
fn event(i: &ScheduledCommand) -> String {
    let node = |n: &str| format!(r#","node":{}"#, quote(n));
    let (what, fields) = match &i.command {
        Command::Pause { node: n, for_ms } => {
            ("pause", node(n) + &for_ms.map(|ms| format!(r#","for_ms":{ms}"#)).unwrap_or_default())
        }
        Command::Resume { node: n } => ("resume", node(n)),
        Command::Crash { node: n } => ("crash", node(n)),
        Command::Restart { node: n } => ("restart", node(n)),
        Command::Partition { node: n, from } => {
            // The link by its own name (as the file reader reads it); every link is the default.
            let from = match from {
                Link::All => String::new(),
                l => format!(r#","from":{}"#, serde_json::to_string(l).unwrap_or_default()),
            };
            ("partition", node(n) + &from)
        }
        Command::Heal { node: n } => ("heal", node(n)),
        Command::RevokeLease => ("revoke_lease", String::new()),
        Command::SetFencing { on } => ("set_fencing", format!(r#","on":{on}"#)),
        Command::DelayNextWrite { node: n, by_ms } => ("delay_next_write", node(n) + &format!(r#","by_ms":{by_ms}"#)),
        Command::NextMessage { node: n, kind, fault } => {
            let message = node(n) + &format!(r#","message":"{}""#, kind.code());
            match fault {
                MessageFault::Lose => ("lose_next", message),
                MessageFault::Hold { by_ms } => ("hold_next", message + &format!(r#","by_ms":{by_ms}"#)),
                MessageFault::Copy => ("copy_next", message),
            }
        }
        Command::RawWrite { token, value, op_id, lock, resource } => {
            let mut f = match token {
                WireToken::Missing => String::new(),
                WireToken::Number(t) => format!(r#","token":{t}"#),
                // The JSON text the file held (how `wire_token` recorded it).
                WireToken::Malformed(raw) => format!(r#","token":{raw}"#),
            };
            f += &format!(r#","value":{}"#, quote(value));
            for (name, v) in [("op_id", op_id), ("lock", lock), ("resource", resource)] {
                if let Some(v) = v {
                    f += &format!(r#","{name}":{}"#, quote(v));
                }
            }
            ("raw_write", f)
        }
        Command::RollbackIssuer { next_token } => ("rollback_issuer", format!(r#","next_token":{next_token}"#)),
        Command::RestoreResource { high_water, resource } => {
            ("restore_resource", format!(r#","high_water":{high_water}"#) + &resource_field(resource))
        }
        Command::RestartResource { resource } => ("restart_resource", resource_field(resource)),
        Command::StoreFailover { lag_ms } => ("store_failover", format!(r#","lag_ms":{lag_ms}"#)),
        Command::ClockJump { target, by_ms } => {
            ("clock_jump", format!(r#","target":{},"by_ms":{by_ms}"#, quote(target)))
        }
        Command::ClockRate { target, rate_ppm } => (
            "clock_rate",
            format!(r#","target":{},"rate":{}.{:06}"#, quote(target), rate_ppm / RATE_ONE_PPM, rate_ppm % RATE_ONE_PPM),
        ),
        Command::DropScript { node: n } => ("drop_script", node(n)),
    };
    format!(r#"{{"at_ms":{},"do":"{what}"{fields}}}"#, i.at_ms)
}

/// `json` without the whitespace between its tokens.
fn minify(json: &str) -> String {
    let (mut in_str, mut escaped) = (false, false);
    json.chars()
        .filter(|c| {
            if in_str {
                (in_str, escaped) = (escaped || *c != '"', !escaped && *c == '\\');
                true
            } else {
                in_str = *c == '"';
                !c.is_whitespace() && *c != '\u{feff}'
            }
        })
        .collect()
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `source` (a valid scenario file) for a share link's `s=`: its JSON without whitespace, in
/// base64url (RFC 4648 §5, no padding).
///
/// # Errors
/// `source`'s own [`ScenarioError`], or a scenario too large for a link.
pub fn to_link(source: &str) -> Result<String, ScenarioError> {
    parse(source)?;
    let json = minify(source);
    let mut out = String::with_capacity(json.len() * 4 / 3 + 3);
    for chunk in json.as_bytes().chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (k, b)| n | u32::from(*b) << (16 - 8 * k));
        for k in 0..=chunk.len() {
            out.push(char::from(B64[(n >> (18 - 6 * k) & 63) as usize]));
        }
    }
    if out.len() > MAX_LINK_SCENARIO_CHARS {
        return Err(whole(format!(
            "the scenario is too large for a link ({} characters; at most {MAX_LINK_SCENARIO_CHARS})",
            out.len()
        )));
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
        return Err(whole(format!(
            "the scenario in the link is {} characters long; at most {MAX_LINK_SCENARIO_CHARS} are read",
            value.len()
        )));
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
    fn every_kind_of_entry_is_written_back_as_it_was_read() {
        let source = r#"{"format": "leaselab.scenario/1", "nodes": [{"id": "a"}], "interventions": [
            {"at_ms": 9, "do": "raw_write", "token": "2", "value": "x\"y", "op_id": "w", "lock": "l/1"},
            {"at_ms": 3, "do": "raw_write", "token": null, "value": "n"},
            {"at_ms": 3, "do": "raw_write", "token": 1.5, "value": "f"},
            {"at_ms": 3, "do": "raw_write", "value": "none"},
            {"at_ms": 4, "do": "clock_rate", "node": "a", "rate": 0.333333},
            {"at_ms": 5, "do": "partition", "node": "a", "from": "coordinator"},
            {"at_ms": 6, "do": "rollback_issuer", "next_token": 3},
            {"at_ms": 7, "do": "restore_resource", "high_water": 2},
            {"at_ms": 8, "do": "restart_resource"},
            {"at_ms": 8, "do": "clock_jump", "target": "store", "by_ms": -5},
            {"at_ms": 2, "do": "drop_script", "node": "a"}
        ], "seed": 3}"#;
        let before = parse(source).expect("valid").config;
        let text = with_interventions(source, &[]).expect("exports");
        let after = parse(&text).expect("reads back").config;
        let mut sorted = before.interventions.clone();
        sorted.sort_by_key(|i| i.at_ms);
        assert_eq!(after.interventions, sorted);
        assert_eq!(after.seed, 3);
        assert_eq!(text.matches("\"interventions\"").count(), 1, "{text}");
    }

    #[test]
    fn members_are_found_at_the_top_level_only() {
        let json = r#"{ "id": "interventions", "a": {"interventions": 1}, "interventions" : [ {"x": "]"} ] , "b": 2 }"#;
        let (from, to) = member(json, "interventions").expect("found");
        assert_eq!(&json[from..to], r#""interventions" : [ {"x": "]"} ]"#);
        assert_eq!(member(r#"{"a": 1}"#, "interventions"), None);
        assert_eq!(minify("{ \"a b\" : [ 1 , \"c\\\" d\" ] }\n"), "{\"a b\":[1,\"c\\\" d\"]}");
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
