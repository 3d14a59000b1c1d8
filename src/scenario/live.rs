//! Numbers in the prose (issue 30): a lesson step's text can hold numbers bound to the
//! scenario's knobs, which the reader drags or types, and outcome numbers, which the engine
//! computes by playing the step's scenario to its end with the knobs set so. "With a lease of
//! {lease} s and a pause of {pause} s, {=stale_writes} stale writes reach the verifier" reads,
//! with the scenario's own settings, "With a lease of [15] s and a pause of [20] s, 1 stale
//! writes…", and the 1 is the engine's, replayed at every change.
//!
//! The knobs are the sweeps' ([`Knob`], [`Knob::apply`]); the outcome numbers are read from the
//! run's [`Report`], the very report `leaselab run --set KNOB=VALUE` prints for the same settings
//! (the browser test compares them). In a lesson file: the step's `live` (bounds) and `{name}` /
//! `{=figure}` in its text, documented in `docs/lesson-format.md` and checked by `leaselab
//! lesson`.

use crate::engine::sweep::Knob;
use crate::engine::{ConfigError, Violation, WriteOutcome};

use super::report::Report;
use super::Scenario;

/// Most bound numbers one step may hold.
pub const MAX_BOUNDS: usize = 4;

/// A number in the text that the reader sets: a knob of the step's scenario, between `min` and
/// `max` in steps of `step` from `min`, starting at `value` (the scenario's own setting:
/// `leaselab lesson` checks that setting it changes nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    /// What the text calls it: `{lease}`.
    pub name: String,
    pub knob: Knob,
    /// In the knob's own unit (ms, or ppm for `clock_rate_ppm`).
    pub value: u64,
    pub min: u64,
    pub max: u64,
    pub step: u64,
    /// What the number is, for a screen reader ("the lease duration, in seconds").
    pub label: super::Localized,
}

/// A knob's `value` as a person reads it: a time in seconds with the decimals it needs
/// ([`crate::story::i18n::span`]: `15`, `0.5`), a clock rate as a multiple of true speed
/// (`500000` ppm: `0.5`).
pub fn shown(knob: Knob, value: u64) -> String {
    if knob.in_seconds() {
        crate::story::i18n::span(value)
    } else {
        let (whole, frac) = (value / PPM, value % PPM);
        match frac {
            0 => whole.to_string(),
            _ => format!("{whole}.{}", format!("{frac:06}").trim_end_matches('0')),
        }
    }
}

/// Parts per million in one: a clock rate of 1 is true speed.
const PPM: u64 = 1_000_000;

/// A number a person typed in the unit [`shown`], in the knob's own unit (ms or ppm), not yet
/// rounded and possibly below 0. `None`: not a finite number.
pub fn read(knob: Knob, text: &str) -> Option<f64> {
    let x: f64 = text.trim().parse::<f64>().ok().filter(|x| x.is_finite())?;
    Some(if knob.in_seconds() { x * 1000.0 } else { x * PPM as f64 })
}

impl Bound {
    /// `value` as the reader sees it ([`shown`]).
    pub fn shown(&self, value: u64) -> String {
        shown(self.knob, value)
    }

    /// A number the reader typed or dragged to, in the unit shown, as the knob's value: rounded
    /// to the nearest step from `min` and held within `min ..= max` (`None`: not a number).
    pub fn read(&self, text: &str) -> Option<u64> {
        read(self.knob, text).map(|raw| self.snap(raw))
    }

    /// `raw` (in the knob's unit) on the nearest step, within the bounds.
    pub fn snap(&self, raw: f64) -> u64 {
        let (min, max, step) = (self.min as f64, self.max as f64, self.step.max(1) as f64);
        let steps = ((raw.clamp(min, max) - min) / step).round();
        (min + steps * step).clamp(min, max) as u64
    }
}

/// An outcome number the engine computes: `{=stale_writes}` in the text. Each is read from the
/// run's [`Report`] as `leaselab run` prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// Violations of kind `stale_write_accepted` (Kleppmann's zombie write that got through).
    StaleWrites,
    /// Every violation the oracle found.
    Violations,
    /// Writes the resource refused: `rejected_stale` (fenced off by the high-water mark).
    FencedWrites,
    /// Terms granted (`grants`).
    Grants,
    /// Time with no leader at work, summed over the run's `leader_gaps`, in seconds (one decimal).
    LeaderlessS,
    /// `leaseTransitions` when the run ended.
    LeaseTransitions,
}

impl Figure {
    pub const ALL: [Figure; 6] = [
        Figure::StaleWrites,
        Figure::Violations,
        Figure::FencedWrites,
        Figure::Grants,
        Figure::LeaderlessS,
        Figure::LeaseTransitions,
    ];

    /// Its name in a text: `{=stale_writes}`.
    pub fn code(self) -> &'static str {
        match self {
            Figure::StaleWrites => "stale_writes",
            Figure::Violations => "violations",
            Figure::FencedWrites => "fenced_writes",
            Figure::Grants => "grants",
            Figure::LeaderlessS => "leaderless_s",
            Figure::LeaseTransitions => "lease_transitions",
        }
    }

    pub fn from_code(code: &str) -> Option<Figure> {
        Figure::ALL.into_iter().find(|f| f.code() == code)
    }

    /// The number in `report`, as the text shows it.
    pub fn of(self, report: &Report) -> String {
        let count = |n: usize| n.to_string();
        match self {
            Figure::StaleWrites => count(
                report
                    .violations
                    .iter()
                    .filter(|v| matches!(v.violation, Violation::StaleWriteAccepted { .. }))
                    .count(),
            ),
            Figure::Violations => count(report.violations.len()),
            Figure::FencedWrites => {
                count(report.writes.iter().filter(|w| w.outcome == WriteOutcome::RejectedStale).count())
            }
            Figure::Grants => count(report.grants.len()),
            Figure::LeaderlessS => {
                let ms: u64 = report.leader_gaps.iter().map(|g| g.length_ms).sum();
                crate::story::markup::coord(ms as f64 / 1000.0)
            }
            Figure::LeaseTransitions => report.final_state.lease_transitions.to_string(),
        }
    }
}

/// A piece of a live text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    /// The bound number at this index of the step's bounds.
    Bound(usize),
    Figure(Figure),
}

/// Splits a live text into its pieces: `{name}` is a bound number, `{=figure}` an outcome
/// number, the rest is text.
///
/// # Errors
/// The first thing that is neither, in words: `{leese} is not a bound number of this step
/// (lease, pause)`, `{=stale} is not an outcome number (stale_writes, …)`, an unclosed `{`.
pub fn pieces(text: &str, bounds: &[Bound]) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            out.push(Piece::Text(rest[..open].to_owned()));
        }
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or_else(|| format!("a \"{{\" is not closed: {}", echo(&rest[open..])))?;
        let name = &after[..close];
        let piece = match name.strip_prefix('=') {
            Some(code) => Piece::Figure(Figure::from_code(code).ok_or_else(|| {
                let all: Vec<&str> = Figure::ALL.iter().map(|f| f.code()).collect();
                format!("{{{name}}} is not an outcome number ({})", all.join(", "))
            })?),
            None => Piece::Bound(bounds.iter().position(|b| b.name == name).ok_or_else(|| {
                let all: Vec<&str> = bounds.iter().map(|b| b.name.as_str()).collect();
                format!("{{{}}} is not a bound number of this step ({})", echo(name), all.join(", "))
            })?),
        };
        out.push(piece);
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest.to_owned()));
    }
    Ok(out)
}

/// At most 40 characters of `text`, for an error.
fn echo(text: &str) -> String {
    let cut: String = text.chars().take(40).collect();
    if cut.len() < text.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// The step's scenario with its knobs set to `values` (one per bound, in order).
///
/// # Errors
/// What [`Knob::apply`] refuses (a knob the scenario does not have, such as `pause_ms` in a
/// scenario without a scripted pause), or a count of values that is not the bounds'.
pub fn set(scenario: &Scenario, bounds: &[Bound], values: &[u64]) -> Result<Scenario, ConfigError> {
    if values.len() != bounds.len() {
        return Err(ConfigError {
            path: "live".into(),
            message: format!("{} values for {} bound numbers", values.len(), bounds.len()),
        });
    }
    let mut out = scenario.clone();
    for (bound, &value) in bounds.iter().zip(values) {
        out.config = bound.knob.apply(&out.config, value)?;
    }
    Ok(out)
}

/// The run's report with the knobs set to `values`: what the outcome numbers are read from.
///
/// # Errors
/// See [`set`]; and what the engine refuses in the settings.
pub fn report(scenario: &Scenario, bounds: &[Bound], values: &[u64]) -> Result<Report, ConfigError> {
    Report::run(&set(scenario, bounds, values)?)
}
