//! The public scenario format (`leaselab.scenario/1`), the report format (`leaselab.report/1`)
//! and the built-in scenario library.
//!
//! A scenario is a JSON file written by lesson authors: every field but `format` has a
//! documented default, unknown fields are errors, and every error names the field path
//! (`lease.renew_deadline_ms`, `events[2].node`) so a typo never passes silently. The format is
//! documented field by field in `docs/scenario-format.md`.

pub mod embed;
pub mod export;
mod format;
pub mod interop;
pub mod lesson;
pub mod library;
pub mod link;
pub mod live;
pub mod opening;
pub mod report;
pub mod search;

use serde::Serialize;

use crate::engine::Config;
use crate::vocab::Fable;

pub(crate) use format::json_value;
pub use format::{parse, FORMAT};
pub use report::{Report, REPORT_FORMAT};

/// Text in both of the app's languages.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Localized {
    pub en: String,
    pub zh: String,
}

/// How the page's clock turns real time into virtual time while playing (see
/// `story::pacing`). Only the telling changes: the run, its trace and its hash are the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Pacing {
    /// Story time: every message in flight stays on screen long enough to be followed, the beats
    /// of a key moment are held, quiet stretches may pass faster (up to 4×; halved at 8×; plain
    /// from 16×).
    #[default]
    Story,
    /// True time: virtual time moves at the chosen speed, linearly.
    True,
}

impl Pacing {
    /// Both pacings.
    pub const ALL: [Pacing; 2] = [Pacing::Story, Pacing::True];

    /// The name used in lesson files and URLs: `story` or `true`.
    pub fn code(self) -> &'static str {
        match self {
            Pacing::Story => "story",
            Pacing::True => "true",
        }
    }

    /// Reads a pacing's code (surrounding spaces and case ignored); anything else is `None`.
    pub fn from_code(code: &str) -> Option<Pacing> {
        let code = code.trim();
        Pacing::ALL.into_iter().find(|p| p.code().eq_ignore_ascii_case(code))
    }
}

/// A parsed, validated scenario: engine configuration plus the words around it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Scenario {
    /// Short id, e.g. `harbor-zombie`.
    pub id: String,
    pub fable: Fable,
    /// Title and short explanation, if the file gives them.
    pub title: Option<Localized>,
    pub summary: Option<Localized>,
    /// Display names of the nodes, in node order (`None`: show the id).
    pub node_names: Vec<Option<Localized>>,
    pub config: Config,
}

/// What is wrong with a scenario file, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Field path such as `lease.duration_ms` or `events[1].node`; `.` for the whole document.
    pub path: String,
    /// What is wrong, in English.
    pub message: String,
    /// 1-based line and column when the JSON itself could not be read there.
    pub line_column: Option<(usize, usize)>,
}

impl std::fmt::Display for ScenarioError {
    /// `path: message (line L, column C)`; the document itself (`.`) is written `top level`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = if self.path == "." { "top level" } else { self.path.as_str() };
        match self.line_column {
            Some((line, column)) => write!(f, "{path}: {} (line {line}, column {column})", self.message),
            None => write!(f, "{path}: {}", self.message),
        }
    }
}

impl std::error::Error for ScenarioError {}
