//! Reading the start settings from the address:
//! `?scenario=ID&fable=harbor|lantern&lang=en|zh&speed=N&autoplay=1&view=k8s|redis|etcd&theme=auto|light|dark&pacing=story|true`,
//! and for an embedded scene `&embed=1&diagram=1&controls=none|play|full&origin=ORIGIN` (`docs/embed.md`).
//!
//! Every value is untrusted. Unknown values fall back to the defaults and are reported as
//! [`UrlIssue`]s, which the page shows (as text, never as markup).

use crate::scenario::embed::{self, Allowed, Controls, ECHO_CHARS};
use crate::scenario::link::{self, LINK_VERSION};
use crate::scenario::{library, Pacing, Scenario};
use crate::story::technical::View;
use crate::story::theme::Theme;
use crate::vocab::Fable;
use crate::vocab::Lang;

use super::state::{SPEED_LOG2_MAX, SPEED_LOG2_MIN};

/// Something in the address that was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UrlIssue {
    UnknownScenario {
        value: String,
    },
    BrokenScenario {
        value: String,
        error: String,
    },
    BadLang {
        value: String,
    },
    BadSpeed {
        value: String,
    },
    /// A speed between the slider's steps, rounded to the nearest step `used` (e.g. `4×`).
    SpeedRounded {
        value: String,
        used: String,
    },
    BadAutoplay {
        value: String,
    },
    /// `view` is not one of the technical view's codes.
    BadView {
        value: String,
    },
    /// An unknown fable; the scenario's own is told.
    BadFable {
        value: String,
    },
    /// A share link's interventions could not be read or applied; the scenario plays without them.
    BadLink {
        error: crate::scenario::link::LinkError,
    },
    /// A share link written by a newer LeaseLab (`v` above [`LINK_VERSION`]).
    NewerLink {
        value: String,
    },
    /// `v` is not a link version at all (not a whole number from 1).
    BadVersion {
        value: String,
    },
    /// `t` is not a whole number of ms.
    BadTime {
        value: String,
    },
    /// `t` lies after the scenario's `until_ms` (`end`, in seconds); the playhead is at the end.
    TimeAfterEnd {
        value: String,
        end: String,
    },
    /// `theme` is not `auto`, `light` or `dark`; the system's theme is followed.
    BadTheme {
        value: String,
    },
    /// `pacing` is not `story` or `true`; story time is played.
    BadPacing {
        value: String,
    },
    /// The scenario a link carries whole (`s=`) could not be read or is not valid.
    BadScenarioLink {
        error: String,
    },
    /// `embed`, `diagram`: not 1 or 0 (`name` is the parameter).
    BadFlag {
        name: &'static str,
        value: String,
    },
    /// `controls` is not `none`, `play` or `full`.
    BadControls {
        value: String,
    },
    /// An `origin` value that is not an exact origin such as `https://docs.example.org`.
    BadOrigin {
        value: String,
    },
    /// `lesson` names no built-in lesson.
    BadLesson {
        value: String,
    },
    /// `step` is not a step number (1, 2, …).
    BadStep {
        value: String,
    },
    /// A one-value parameter given more than once (`t=5000&t=9000`); the first, `value`, is used.
    Repeated {
        name: &'static str,
        value: String,
    },
}

/// How an embedded scene shows itself and whom it talks to (`?embed=1`).
pub struct EmbedStart {
    pub controls: Controls,
    /// Show the space-time diagram under the scene.
    pub diagram: bool,
    /// Who may send commands and receive events.
    pub allowed: Allowed,
    /// The embedding page's origin, when the browser tells it (`location.ancestorOrigins`).
    pub parent: Option<String>,
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
    /// Story time (the default) or true time (`pacing=`).
    pub pacing: Pacing,
    /// A share link's interventions, in order.
    pub interventions: Vec<crate::engine::ScheduledCommand>,
    /// A share link's playhead, in ms.
    pub at_ms: Option<u64>,
    pub issues: Vec<UrlIssue>,
    /// `Some` for `?embed=1`: the compact scene for documentation pages.
    pub embed: Option<EmbedStart>,
    /// `?lesson=ID&step=N`: the built-in lesson to open, and its step (from 0; `None`: where the
    /// learner left off).
    pub lesson: Option<(String, Option<usize>)>,
    /// `?presenter=1`: presenter mode from the start.
    pub presenter: bool,
}

/// A bad value as it may be shown back (short, without control or direction characters).
fn echo(value: &str) -> String {
    embed::echo(value, ECHO_CHARS)
}

/// Whether the address asks for nothing in particular (no scenario, lesson, link, frame or
/// autoplay): a first visit, which the landing card greets.
pub fn bare_address() -> bool {
    query().is_none_or(|q| {
        ["scenario", "s", "lesson", "embed", "do", "t", "autoplay", "presenter"].iter().all(|k| !q.has(k))
    })
}

/// Whether the address has a query at all (anything after `?`): only then is it read (by
/// [`read`], in the reader's chunk); without one the page starts [`Start::plain`].
pub fn has_query() -> bool {
    let search = crate::ui::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    !search.trim_start_matches('?').is_empty()
}

/// The page address's query parameters.
fn query() -> Option<web_sys::UrlSearchParams> {
    let search = crate::ui::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    web_sys::UrlSearchParams::new_with_str(&search).ok()
}

/// The built-in the address names (`scenario=`, trimmed) if it is one, else the default: the
/// file to fetch before the page is drawn.
pub fn wanted_builtin() -> String {
    query()
        .and_then(|p| p.get("scenario"))
        .map(|raw| raw.trim().to_owned())
        .filter(|id| library::builtin(id).is_some())
        .unwrap_or_else(|| library::DEFAULT_ID.to_owned())
}

/// The language the address asks for (`lang=`), else English: the translation pack to load
/// before the page is drawn.
pub fn wanted_lang() -> Lang {
    query().and_then(|p| p.get("lang")).and_then(|raw| Lang::from_code(&raw)).unwrap_or(Lang::En)
}

/// Reads the current page's query string.
pub fn read() -> Start {
    let params = query();
    let get = |key: &str| params.as_ref().and_then(|p| p.get(key));
    let mut start = parse(get("scenario"), get("lang"), get("speed"), get("autoplay"), get("fable"));
    if let Some(p) = &params {
        let keys: Vec<String> = p.keys().into_iter().filter_map(|k| k.ok()?.as_string()).collect();
        for name in link::repeated(keys.iter().map(String::as_str)) {
            let value = echo(&get(name).unwrap_or_default());
            start.issues.push(UrlIssue::Repeated { name, value });
        }
    }
    start.view = parse_view(get("view"), &mut start.issues);
    start.theme = parse_theme(get("theme"), &mut start.issues);
    start.pacing = parse_pacing(get("pacing"), &mut start.issues);
    if let Some(raw) = get("s") {
        parse_scenario_link(&raw, &mut start);
    }
    parse_link(get("v"), get("do"), get("t"), &mut start);
    // A link whose scenario is not here: the default plays, without the link's interventions and
    // moment, which were made for another run.
    let lost = start.issues.iter().any(|i| {
        matches!(
            i,
            UrlIssue::UnknownScenario { .. } | UrlIssue::BrokenScenario { .. } | UrlIssue::BadScenarioLink { .. }
        )
    });
    if lost {
        start.interventions.clear();
        start.at_ms = None;
    }
    start.lesson = parse_lesson(get("lesson"), get("step"), &mut start.issues);
    start.presenter = flag("presenter", get("presenter"), false, &mut start.issues);
    if let Some(raw) = get("embed") {
        // Present at all, the page is most likely in a frame: only a clear "no" turns it off.
        let on = flag("embed", Some(raw), true, &mut start.issues);
        if on {
            let origins =
                params.as_ref().map(|p| p.get_all("origin")).map(|a| a.iter().filter_map(|v| v.as_string()).collect());
            start.embed =
                Some(parse_embed(get("controls"), get("diagram"), origins.unwrap_or_default(), &mut start.issues));
        }
    }
    start
}

/// `1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off`, `` (absent: `false`); anything else is
/// `fallback` with an issue naming the parameter.
fn flag(name: &'static str, raw: Option<String>, fallback: bool, issues: &mut Vec<UrlIssue>) -> bool {
    match raw.as_deref().map(str::trim) {
        None => false,
        Some("1" | "true" | "yes" | "on") => true,
        Some("0" | "false" | "no" | "off" | "") => false,
        Some(other) => {
            issues.push(UrlIssue::BadFlag { name, value: echo(other) });
            fallback
        }
    }
}

/// The embed options. The embedding page's origin comes from `location.ancestorOrigins` (which
/// cannot be forged), else from `document.referrer`; a page that is not in a frame has no host to
/// talk to, so its API stays off.
fn parse_embed(
    controls: Option<String>,
    diagram: Option<String>,
    origins: Vec<String>,
    issues: &mut Vec<UrlIssue>,
) -> EmbedStart {
    let controls = match controls {
        None => Controls::default(),
        Some(raw) => Controls::from_code(&raw).unwrap_or_else(|| {
            issues.push(UrlIssue::BadControls { value: echo(&raw) });
            Controls::default()
        }),
    };
    let diagram = flag("diagram", diagram, false, issues);
    // Read defensively: `ancestorOrigins` is missing in some browsers. (Not in a frame, the API
    // stays off whatever these say; see `ui::embed::listen`.)
    let window = crate::ui::window();
    let ancestor = window
        .as_ref()
        .and_then(|w| js_sys::Reflect::get(&w.location(), &"ancestorOrigins".into()).ok())
        .filter(|l| !l.is_undefined() && !l.is_null())
        .and_then(|l| js_sys::Reflect::get(&l, &"0".into()).ok())
        .and_then(|o| o.as_string());
    let referrer = window.as_ref().and_then(|w| w.document()).map(|d| d.referrer()).unwrap_or_default();
    // The embedding page: `ancestorOrigins[0]` where the browser gives it (it cannot be forged;
    // a sandboxed host's `null` is no origin to trust, whatever the referrer says), else the
    // origin of the page that loaded the frame, else none (the API then stays off unless
    // `origin=` names the host).
    let parent = match ancestor.as_deref() {
        Some(a) => origin(a),
        None => origin_of_address(&referrer),
    };
    let (allowed, bad) = embed::allowed_origins(&origins, parent.clone(), origin);
    issues.extend(bad.into_iter().map(|value| UrlIssue::BadOrigin { value }));
    let parent = ancestor.and(parent);
    EmbedStart { controls, diagram, allowed, parent }
}

/// `text` as an exact origin, the way a `MessageEvent` reports one (`https://docs.example.org`,
/// `http://127.0.0.1:8124`), read by the browser's `URL` parser: case folded, a default port
/// dropped, an internationalized host in its ASCII (punycode) form. `None` for anything more or
/// less than `http(s)://host[:port]` with at most a trailing `/`: a path, a query, a fragment,
/// user info, another scheme, or the opaque origin `null` (a sandboxed frame or a file, which
/// anyone can be, so it is never trusted).
pub fn origin(text: &str) -> Option<String> {
    let url = web_sys::Url::new(text).ok()?;
    let bare = url.pathname() == "/" && url.search().is_empty() && url.hash().is_empty() && !text.contains(['?', '#']);
    (bare && web_origin(&url)).then(|| url.origin())
}

/// The origin of a full address (`document.referrer`), or `None` (not http(s), or with user info).
fn origin_of_address(address: &str) -> Option<String> {
    let url = web_sys::Url::new(address).ok()?;
    web_origin(&url).then(|| url.origin())
}

/// An `http:` or `https:` address without user info, whose origin may be trusted.
fn web_origin(url: &web_sys::Url) -> bool {
    matches!(url.protocol().as_str(), "http:" | "https:") && url.username().is_empty() && url.password().is_empty()
}

/// A share link's version, interventions and playhead. A link from a newer version, or
/// interventions that cannot be read, leave the scenario to play without them, with an issue.
pub fn parse_link(version: Option<String>, actions: Option<String>, t: Option<String>, start: &mut Start) {
    if let Some(raw) = version {
        match raw.trim().parse::<u32>() {
            Ok(v) if v > LINK_VERSION => {
                start.issues.push(UrlIssue::NewerLink { value: echo(&raw) });
                return;
            }
            Ok(v) if v >= 1 => {}
            _ => {
                start.issues.push(UrlIssue::BadVersion { value: echo(&raw) });
                return;
            }
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
            Err(error) => start.issues.push(UrlIssue::BadLink { error }),
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
    embed::echo(value, 200)
}

/// `lesson=ID` (a built-in lesson) and `step=N` (from 1). An unknown lesson opens none; a bad
/// step opens the lesson where the learner left it. Both with an issue.
pub fn parse_lesson(
    lesson: Option<String>,
    step: Option<String>,
    issues: &mut Vec<UrlIssue>,
) -> Option<(String, Option<usize>)> {
    let raw = lesson?;
    let id = raw.trim();
    if library::lessons::builtin(id).is_none() {
        issues.push(UrlIssue::BadLesson { value: echo(id) });
        return None;
    }
    let step = step.and_then(|raw| match raw.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Some(n - 1),
        _ => {
            issues.push(UrlIssue::BadStep { value: echo(&raw) });
            None
        }
    });
    Some((id.to_owned(), step))
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

/// The pacing named by `raw` (`story`, `true`); a bad one gives story time with an issue.
pub fn parse_pacing(raw: Option<String>, issues: &mut Vec<UrlIssue>) -> Pacing {
    match raw {
        None => Pacing::default(),
        Some(raw) => Pacing::from_code(&raw).unwrap_or_else(|| {
            issues.push(UrlIssue::BadPacing { value: echo(&raw) });
            Pacing::default()
        }),
    }
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

    Start { fable, lang, speed_log2, autoplay, issues, ..Start::plain(scenario) }
}

impl Start {
    /// The settings of an address that asks for nothing: `scenario`, in English, at 1×, paused.
    pub fn plain(scenario: Result<Scenario, String>) -> Self {
        Start {
            scenario,
            source: None,
            fable: None,
            lang: Lang::En,
            speed_log2: 0,
            autoplay: false,
            view: View::default(),
            theme: None,
            pacing: Pacing::default(),
            interventions: Vec::new(),
            at_ms: None,
            issues: Vec::new(),
            embed: None,
            lesson: None,
            presenter: false,
        }
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
