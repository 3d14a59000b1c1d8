//! One log line per trace event, told twice: in the fable's words and in the field's terms.
//! (Placeholder texts; the full table is being written.)

use serde::Serialize;

use super::cast::Cast;
use super::i18n::Lang;
use crate::engine::TraceEntry;

/// How a line should feel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tone {
    Info,
    Good,
    Warn,
    Bad,
}

/// A narrated trace event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Narration {
    /// Stable kebab-case kind, used as `data-kind` on log rows (e.g. `write-rejected-stale`).
    pub kind: &'static str,
    /// The fable's words.
    pub story: String,
    /// The same event in technical terms.
    pub technical: String,
    pub tone: Tone,
    /// Routine events (renewals, refused retries, messages) a compact log may hide.
    pub minor: bool,
}

/// Narrate one trace entry; `None` for events not worth a log line (messages being sent).
pub fn narrate(entry: &TraceEntry, cast: &Cast, lang: Lang) -> Option<Narration> {
    let _ = (entry, cast, lang);
    None
}
