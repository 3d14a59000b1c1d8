//! Reading the start settings from the address:
//! `?scenario=ID&fable=harbor|lantern&lang=en|zh&speed=N&autoplay=1&view=k8s|redis|etcd&theme=auto|light|dark`.
//!
//! Every value is untrusted. Unknown values fall back to the defaults and are reported as
//! [`UrlIssue`]s, which the page shows (as text, never as markup).

use crate::scenario::link::{self, LINK_VERSION};
use crate::scenario::{library, Fable, Scenario};
use crate::story::technical::View;
use crate::story::theme::Theme;
use crate::story::Lang;

use super::state::{SPEED_LOG2_MAX, SPEED_LOG2_MIN};

/// Longest piece of a bad value echoed back on the page, in characters.
const ECHO_CHARS: usize = 40;

/// Something in the address that was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UrlIssue {
    UnknownScenario { value: String },
    BrokenScenario { value: String, error: String },
    BadLang { value: String },
    BadSpeed { value: String },
    /// A speed between the slider's steps, rounded to the nearest step `used` (e.g. `4×`).
    SpeedRounded { value: String, used: String },
    BadAutoplay { value: String },
    /// `view` is not one of the technical view's codes.
    BadView { value: String },
    /// An unknown fable; the scenario's own is told.
    BadFable { value: String },
    /// A share link's interventions could not be read or applied; the scenario plays without them.
    BadLink { error: String },
    /// A share link written by a newer LeaseLab (`v` above [`LINK_VERSION`]).
    NewerLink { value: String },
    /// `t` is not a whole number of ms.
    BadTime { value: String },
    /// `theme` is not `auto`, `light` or `dark`; the system's theme is followed.
    BadTheme { value: String },
    /// The scenario a link carries whole (`s=`) could not be read or is not valid.
    BadScenarioLink { error: String },
}

/// What the page starts with.
pub struct Start {
    /// The scenario to show; `Err` (in English) only if not even the built-ins load.
    pub scenario: Result<Scenario, String>,
    /// The JSON of a scenario the link carries whole (`s=`), validated as a file.
    pub source: Option<String>,
    /// The fable asked for; `None` tells the scenario's own.
    pub fable: Option<Fable>,
    pub lang: Lang,
    pub speed_log2: i32,
    pub autoplay: bool,
    /// The technical view to show first.
    pub view: View,
    /// The colour theme asked for; `None`: the one kept from the last visit, else the system's.
    pub theme: Option<Theme>,
    /// A share link's interventions, in order.
    pub interventions: Vec<crate::engine::ScheduledCommand>,
    /// A share link's playhead, in ms.
    pub at_ms: Option<u64>,
    pub issues: Vec<UrlIssue>,
}

/// A bad value as it may be shown back: at most [`ECHO_CHARS`] characters, no control characters
/// and no direction controls.
fn echo(value: &str) -> String {
    let shown = |c: &char| !c.is_control() && !is_bidi_control(*c);
    let mut out: String = value.chars().filter(shown).take(ECHO_CHARS).collect();
    if value.chars().filter(shown).count() > ECHO_CHARS {
        out.push('…');
    }
    out
}

/// Unicode's invisible direction controls (embeddings, overrides, isolates, marks): echoed, they
/// would reverse the page's own words around them.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Reads the current page's query string.
/// The built-in the address names (`scenario=`, trimmed) if it is one, else the default: the
/// file to fetch before the page is drawn.
pub fn wanted_builtin() -> String {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()
        .and_then(|p| p.get("scenario"))
        .map(|raw| raw.trim().to_owned())
        .filter(|id| library::builtin(id).is_some())
        .unwrap_or_else(|| library::DEFAULT_ID.to_owned())
}

pub fn read() -> Start {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok();
    let get = |key: &str| params.as_ref().and_then(|p| p.get(key));
    let mut start = parse(get("scenario"), get("lang"), get("speed"), get("autoplay"), get("fable"));
    start.view = parse_view(get("view"), &mut start.issues);
    start.theme = parse_theme(get("theme"), &mut start.issues);
    if let Some(raw) = get("s") {
        parse_scenario_link(&raw, &mut start);
    }
    parse_link(get("v"), get("do"), get("t"), &mut start);
    start
}

/// A share link's version, interventions and playhead. A link from a newer version, or
/// interventions that cannot be read, leave the scenario to play without them, with an issue.
pub fn parse_link(version: Option<String>, actions: Option<String>, t: Option<String>, start: &mut Start) {
    if let Some(raw) = version {
        if raw.trim().parse::<u32>().map_or(true, |v| v > LINK_VERSION || v == 0) {
            start.issues.push(UrlIssue::NewerLink { value: echo(&raw) });
            return;
        }
    }
    if let Some(raw) = t {
        match raw.trim().parse::<u64>() {
            Ok(ms) => start.at_ms = Some(ms),
            Err(_) => start.issues.push(UrlIssue::BadTime { value: echo(&raw) }),
        }
    }
    if let Some(raw) = actions {
        match link::decode(&raw) {
            Ok(list) => start.interventions = list,
            Err(e) => start.issues.push(UrlIssue::BadLink { error: echo(&e.to_string()) }),
        }
    }
}

/// A scenario carried whole by a link (`s=`, see `scenario::export`): it replaces `scenario=`;
/// one that cannot be read leaves the page on the scenario it had, with an issue.
pub fn parse_scenario_link(raw: &str, start: &mut Start) {
    match crate::scenario::export::from_link(raw) {
        Ok((scenario, json)) => {
            start.scenario = Ok(scenario);
            start.source = Some(json);
        }
        Err(e) => start.issues.push(UrlIssue::BadScenarioLink { error: echo_long(&e.to_string()) }),
    }
}

/// An error message as it may be shown back: like [`echo`], up to 200 characters.
fn echo_long(value: &str) -> String {
    value.chars().filter(|c| !c.is_control() && !is_bidi_control(*c)).take(200).collect()
}

/// The technical view named by `raw` (`k8s`, `redis`, `etcd`), else the default with an issue.
pub fn parse_view(raw: Option<String>, issues: &mut Vec<UrlIssue>) -> View {
    match raw {
        None => View::default(),
        Some(raw) => View::from_code(&raw).unwrap_or_else(|| {
            issues.push(UrlIssue::BadView { value: echo(&raw) });
            View::default()
        }),
    }
}

/// The theme named by `raw` (`auto`, `light`, `dark`); a bad one gives `auto` with an issue.
pub fn parse_theme(raw: Option<String>, issues: &mut Vec<UrlIssue>) -> Option<Theme> {
    let raw = raw?;
    Some(Theme::from_code(&raw).unwrap_or_else(|| {
        issues.push(UrlIssue::BadTheme { value: echo(&raw) });
        Theme::Auto
    }))
}

/// The defaults and the issues for the given raw parameter values.
pub fn parse(
    scenario: Option<String>,
    lang: Option<String>,
    speed: Option<String>,
    autoplay: Option<String>,
    fable: Option<String>,
) -> Start {
    let mut issues = Vec::new();

    let chosen = scenario.and_then(|raw| {
        let id = raw.trim();
        match super::catalog::get(id) {
            Some(Ok(s)) => Some(s),
            Some(Err(e)) => {
                issues.push(UrlIssue::BrokenScenario { value: echo(id), error: echo(&e.to_string()) });
                None
            }
            None => {
                issues.push(UrlIssue::UnknownScenario { value: echo(id) });
                None
            }
        }
    });
    let scenario = match chosen {
        Some(s) => Ok(s),
        None => fallback_scenario(),
    };

    let lang = match lang {
        None => Lang::En,
        Some(raw) => Lang::from_code(&raw).unwrap_or_else(|| {
            issues.push(UrlIssue::BadLang { value: echo(&raw) });
            Lang::En
        }),
    };

    let speed_log2 = match speed {
        None => 0,
        Some(raw) => match decimal(raw.trim()) {
            Some(x) if (0.25..=64.0).contains(&x) => {
                let log2 = (x.log2().round() as i32).clamp(SPEED_LOG2_MIN, SPEED_LOG2_MAX);
                if 2f64.powi(log2) != x {
                    issues.push(UrlIssue::SpeedRounded { value: echo(&raw), used: super::controls::speed_label(log2) });
                }
                log2
            }
            _ => {
                issues.push(UrlIssue::BadSpeed { value: echo(&raw) });
                0
            }
        },
    };

    let autoplay = match autoplay.as_deref().map(str::trim) {
        None => false,
        Some("1" | "true" | "yes" | "on") => true,
        Some("0" | "false" | "no" | "off" | "") => false,
        Some(other) => {
            issues.push(UrlIssue::BadAutoplay { value: echo(other) });
            false
        }
    };

    let fable = fable.and_then(|raw| {
        let chosen = Fable::from_code(&raw);
        if chosen.is_none() {
            issues.push(UrlIssue::BadFable { value: echo(&raw) });
        }
        chosen
    });

    Start {
        scenario,
        source: None,
        fable,
        lang,
        speed_log2,
        autoplay,
        view: View::default(),
        theme: None,
        interventions: Vec::new(),
        at_ms: None,
        issues,
    }
}

/// A plain decimal such as `4`, `0.25` or `.5` (at most 12 digits); anything else is `None`.
/// (Hand-written so the page does not carry a general float parser.)
fn decimal(text: &str) -> Option<f64> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = int.len() + frac.len();
    if digits == 0 || digits > 12 || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut value = 0.0;
    for b in int.bytes() {
        value = value * 10.0 + f64::from(b - b'0');
    }
    let mut scale = 0.1;
    for b in frac.bytes() {
        value += f64::from(b - b'0') * scale;
        scale /= 10.0;
    }
    Some(value)
}

/// The default scenario, else the first built-in that loads.
fn fallback_scenario() -> Result<Scenario, String> {
    let mut last_error = String::from("no built-in scenarios");
    for id in std::iter::once(library::DEFAULT_ID).chain(library::ids()) {
        match super::catalog::get(id) {
            Some(Ok(s)) => return Ok(s),
            Some(Err(e)) => last_error = e.to_string(),
            None => {}
        }
    }
    Err(last_error)
}
