//! Fencing tokens as they travel on the wire.
//!
//! The coordinator only ever issues positive integers, but the resource must judge whatever
//! arrives: seed `002` and the Q&A in seed `004` require that a missing or malformed token is
//! refused, never treated as "no check" (compare Hazelcast's `INVALID_FENCE = 0`).

use serde::Serialize;

/// The token field of a write, as received.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "raw")]
pub enum WireToken {
    /// A non-negative integer that fits in `u64`. Only values ≥ 1 are valid tokens.
    Number(u64),
    /// The field was absent.
    Missing,
    /// Anything else (null, a string, a boolean, a fraction, a negative number, a number larger
    /// than `u64`, an array, an object), kept as its JSON text for the report.
    Malformed(String),
}

impl WireToken {
    /// The token, if it is a valid fencing token (an integer ≥ 1).
    pub fn valid(&self) -> Option<u64> {
        match self {
            WireToken::Number(n) if *n >= 1 => Some(*n),
            _ => None,
        }
    }

    /// Short, language-neutral text for labels: the number, `∅` for an absent token, or the raw JSON.
    pub fn label(&self) -> String {
        match self {
            WireToken::Number(n) => n.to_string(),
            WireToken::Missing => "∅".to_owned(),
            WireToken::Malformed(raw) => raw.clone(),
        }
    }
}
