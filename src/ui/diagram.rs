//! The space-time diagram under the scene: the story layer's [`Diagram`] drawn as SVG markup for
//! a window of time that follows the playhead. Click anywhere on it to move the run there; point
//! at or step through (←/→ with the keyboard) its elements for their details.
//!
//! Drawing is split so that playing costs little: the markup (the expensive part: parsing, style,
//! layout) is rebuilt only when [`AppState::diagram_now`] moves, at most every
//! [`super::state::DIAGRAM_REDRAW_MS`] of real time ([`super::state::CATCH_UP_MS`] at speed),
//! and is drawn ahead of the playhead (bars that last run on to the right edge of what is
//! drawn). Between rebuilds, each frame only slides it
//! (`transform`) and uncovers it up to the playhead (the width of a nested `<svg>` viewport, which
//! clips): two attributes.

use leptos::prelude::*;

use crate::engine::{MessageKind, WriteOutcome};
use crate::fables::Word;
use crate::scenario::lesson::Element;
use crate::story::diagram::{diagram, lanes as lane_keys, Arrow, Bar, BarKind, Diagram, Fate, LaneKey, MarkKind};
use crate::story::i18n::{Later, Ui};
use crate::story::markup::Markup;
use crate::story::picture::message_word;
use crate::story::{fill, Cast};
use crate::vocab::Lang;

use super::state::AppState;
use super::{coord as f, seconds, seconds_in, tr};
use crate::draw::{fitted, Align};

/// View-box width.
const W: f64 = 1200.0;
/// Left margin for the lane names.
const LEFT: f64 = 104.0;
const RIGHT: f64 = 12.0;
const LANE_H: f64 = 30.0;
const TOP: f64 = 8.0;
const AXIS_H: f64 = 26.0;

/// The window spans the picker offers, in ms (0: the whole run).
const SPANS: [u64; 4] = [30_000, 60_000, 300_000, 0];

/// The window `[from, from + span)` shown for `now` in a run of `until` ms: the playhead stays
/// at three quarters of the width while the run plays.
fn window(now: u64, until: u64, span_ms: u64) -> (u64, u64) {
    if span_ms == 0 || span_ms >= until {
        return (0, until.max(1));
    }
    let from = now.saturating_sub(span_ms * 3 / 4).min(until.saturating_sub(span_ms));
    (from, span_ms)
}

/// Width of the plotting area, in view-box units.
const PLOT_W: f64 = W - LEFT - RIGHT;

/// What one rebuild draws: times `origin..=end` at `scale` view-box units per ms, with x = 0 at
/// `origin` (the plotting area's own coordinates).
#[derive(Clone, Copy, PartialEq)]
struct Frame {
    origin: u64,
    end: u64,
    scale: f64,
}

impl Frame {
    fn x(&self, t: u64) -> f64 {
        (t.clamp(self.origin, self.end) - self.origin) as f64 * self.scale
    }

    fn visible(&self, a: u64, b: u64) -> bool {
        b >= self.origin && a <= self.end
    }
}

/// One element of the drawing with its details, for pointing and the keyboard.
#[derive(Clone, PartialEq)]
struct Item {
    /// The moment a click or Enter moves the run to, in ms.
    at_ms: u64,
    /// The sentence the details line shows.
    detail: String,
}

/// A rebuilt drawing: its frame, its time axis, its markup, and its items (`data-i` indexes them).
#[derive(Clone, PartialEq)]
struct Drawn {
    frame: Frame,
    ticks: Markup,
    markup: Markup,
    items: Vec<Item>,
}

fn lane_y(lane: usize) -> f64 {
    TOP + lane as f64 * LANE_H
}

fn lane_name(key: &LaneKey, cast: &Cast, lang: Lang) -> String {
    match key {
        LaneKey::Node(id) => cast.name(id, lang),
        LaneKey::Store => cast.fable().word(Word::DiagramStore, lang).to_owned(),
        LaneKey::Resource => cast.fable().word(Word::DiagramResource, lang).to_owned(),
    }
}

fn bar_svg(out: &mut Markup, items: &mut Vec<Item>, b: &Bar, fr: &Frame, lanes: &[LaneKey], cast: &Cast, lang: Lang) {
    // A bar that still lasts runs on to the end of what is drawn; the viewport uncovers it up to
    // the playhead frame by frame.
    let to = if b.open { fr.end } else { b.to_ms };
    if !fr.visible(b.from_ms, to) {
        return;
    }
    let (x0, x1) = (fr.x(b.from_ms), fr.x(to));
    // A state (asleep, crashed, cut off) is a thin strip above the belief bar, so a frozen
    // believer still shows its belief.
    let state = matches!(b.kind, BarKind::Paused | BarKind::Crashed | BarKind::Cut);
    let (y, h) = if state { (lane_y(b.lane) + 1.0, 6.0) } else { (lane_y(b.lane) + 9.0, 15.0) };
    let (class, label, title) = match &b.kind {
        BarKind::Believes { token } => (
            "bar believes",
            token.to_string(),
            fill(Later::DiagramBelieves.text(lang), &[("token", &token.to_string())]),
        ),
        BarKind::Zombie { token } => {
            ("bar zombie", token.to_string(), fill(Later::DiagramZombie.text(lang), &[("token", &token.to_string())]))
        }
        BarKind::Paused => ("bar paused", "z".to_owned(), Later::DiagramPaused.text(lang).to_owned()),
        BarKind::Crashed => ("bar crashed", "✕".to_owned(), Later::DiagramCrashed.text(lang).to_owned()),
        BarKind::Cut => ("bar cut", String::new(), Later::DiagramCut.text(lang).to_owned()),
        BarKind::Holds { holder, token } => {
            let name = cast.name(holder, lang);
            let title = fill(Later::DiagramHolds.text(lang), &[("name", &name), ("token", &token.to_string())]);
            ("bar holds", format!("{name} · {token}"), title)
        }
    };
    let until = if b.open { "…".to_owned() } else { seconds_in(b.to_ms, lang) };
    let who = match &b.kind {
        BarKind::Holds { .. } => String::new(),
        _ => match lanes.get(b.lane) {
            Some(LaneKey::Node(id)) => format!("{}: ", cast.name(id, lang)),
            _ => String::new(),
        },
    };
    let detail = format!("{who}{title} ({} – {until})", seconds_in(b.from_ms, lang));
    out.tag("g").lit("class", class).lit("data-kind", &class[4..]).int("data-i", items.len() as u64).open();
    out.tag("title").text(&detail);
    out.tag("rect").num("x", x0).num("y", y).num("width", (x1 - x0).max(1.0)).num("height", h).lit("rx", "2").close();
    // A holder's bar starts at its grant's circle: its label starts after it.
    let pad = if matches!(b.kind, BarKind::Holds { .. }) { 12.0 } else { 4.0 };
    if !state && x1 - x0 > 9.0 * label.chars().count() as f64 + 2.0 + pad {
        out.tag("text").num("x", x0 + pad).num("y", y + 11.5).text(&label);
    }
    out.end("g");
    items.push(Item { at_ms: b.from_ms, detail });
}

fn arrow_svg(out: &mut Markup, items: &mut Vec<Item>, a: &Arrow, fr: &Frame, now: u64, cast: &Cast, lang: Lang) {
    let end = if a.fate == Fate::InFlight { now } else { a.end_ms };
    if !fr.visible(a.sent_ms, end) {
        return;
    }
    let (x0, x1) = (fr.x(a.sent_ms), fr.x(end));
    let (y0, y1) = (lane_y(a.from_lane) + 15.0, lane_y(a.to_lane) + 15.0);
    let write = a.kind == MessageKind::Write;
    let verdict = match (a.outcome, a.violation) {
        (_, true) => "violation",
        (Some(WriteOutcome::Accepted), _) => "accepted",
        (Some(WriteOutcome::Duplicate), _) => "duplicate",
        (Some(_), _) => "refused",
        (None, _) => "",
    };
    let fate = match a.fate {
        Fate::InFlight => "in-flight",
        Fate::Arrived => "arrived",
        Fate::Lost => "lost",
    };
    // In the words of the fable shown (the tablet's answer, not the dockmaster's).
    let kind = cast.fable().word(message_word(a.kind), lang);
    let mut title = format!("{kind} · {} → {}", seconds_in(a.sent_ms, lang), seconds_in(end, lang));
    if let Some(t) = &a.token {
        title.push_str(" · ");
        title.push_str(t);
    }
    if a.fate == Fate::Lost {
        title.push_str(" · ");
        title.push_str(Later::DiagramLost.text(lang));
    }
    if !verdict.is_empty() {
        let word = match verdict {
            "violation" => Later::DiagramViolation,
            "accepted" => Later::DiagramAccepted,
            "duplicate" => Later::DiagramDuplicate,
            _ if a.blocked => Later::DiagramBlocked,
            _ => Later::DiagramRefused,
        };
        title.push_str(" · ");
        title.push_str(word.text(lang));
    }
    let class = match (write, a.blocked) {
        (true, true) => "arrow write blocked",
        (true, false) => "arrow write",
        _ => "arrow control",
    };
    out.tag("g")
        .attr("class", &format!("{class} {fate} {verdict}"))
        .lit("data-kind", if write { "write" } else { "control" })
        .lit("data-fate", fate)
        .lit("data-verdict", verdict)
        .attr("data-token", a.token.as_deref().unwrap_or_default())
        .int("data-i", items.len() as u64)
        .open();
    out.tag("title").text(&title);
    out.tag("line").num("x1", x0).num("y1", y0).num("x2", x1).num("y2", y1).close();
    if write {
        if let Some(t) = &a.token {
            out.tag("text").num("x", x0 + 3.0).num("y", y0 - 3.0).lit("class", "token").text(t);
        }
        // The verdict at the arrow's head, as a shape as well as a colour.
        let head = head(verdict);
        if !head.is_empty() && a.fate == Fate::Arrived {
            out.tag("text").num("x", x1 - 5.0).num("y", y1 + 5.0).lit("class", "head").text(head);
        }
    }
    if a.fate == Fate::Lost {
        out.tag("text").num("x", x1 - 5.0).num("y", (y0 + y1) / 2.0 + 4.0).lit("class", "head lost").text("✕");
    }
    out.end("g");
    // A click goes to where the message's story ends: its verdict, its loss, or now.
    items.push(Item { at_ms: end, detail: title });
}

/// A write's verdict as a shape, so that it never rests on colour alone: ⊘ refused, ● accepted,
/// ◐ a duplicate (reported, not applied again), ! a violation.
fn head(verdict: &str) -> &'static str {
    match verdict {
        "refused" => "⊘",
        "violation" => "!",
        "accepted" => "●",
        "duplicate" => "◐",
        _ => "",
    }
}

/// Hatching for a zombie's belief and a cut-off strip (coloured by the stylesheet), so those bars
/// differ from the others by pattern as well as by colour.
const HATCHES: &str = r#"<defs><pattern id="st-zombie" class="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><path d="M0 0V6"/></pattern><pattern id="st-cut" class="hatch" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><path d="M0 0V4"/></pattern></defs>"#;

/// The lanes' names and lines (and the hatch patterns): they stand still while the drawing slides.
/// A long name is set smaller or on two lines, never cut.
fn lanes_svg(lanes: &[LaneKey], cast: &Cast, lang: Lang) -> Markup {
    let mut out = Markup::raw(HATCHES);
    for (i, lane) in lanes.iter().enumerate() {
        let y = lane_y(i);
        let kind = match lane {
            LaneKey::Node(_) => "lane node",
            LaneKey::Store => "lane store",
            LaneKey::Resource => "lane resource",
        };
        out.tag("g").lit("class", kind).open();
        out.tag("line").num("x1", LEFT).num("y1", y + 15.0).num("x2", W - RIGHT).num("y2", y + 15.0).close();
        let name = lane_name(lane, cast, lang);
        fitted(&mut out, (4.0, y + 19.0), LEFT - 10.0, (13.0, 10.0), "lane-name", "start", Align::Middle, &name, |t| t);
        out.end("g");
    }
    out
}

/// The drawing's markup for `fr`: time axis, bars, arrows and marks (`d.now_ms` is the moment
/// the trace reaches), with the first difference from the compared run marked at `diverge`.
/// Only this run's drawing (`main`) carries test ids.
/// A step of the scenario's script still to be drawn ahead of time, or one of the run's own
/// interventions (`made`: the learner's, a link's, a search's answer's, before and after the
/// playhead): when, on whose lane (`None`: the store's, for a step on no node), and what it does
/// in words.
struct ScriptStep {
    at_ms: u64,
    node: Option<String>,
    title: String,
    made: bool,
}

fn draw(
    d: &Diagram,
    fr: Frame,
    cast: &Cast,
    lang: Lang,
    diverge: Option<u64>,
    main: bool,
    script: &[ScriptStep],
) -> Drawn {
    let mut out = Markup::new();
    let mut items = Vec::new();
    let lanes_h = d.lanes.len() as f64 * LANE_H;
    // Time axis: about eight ticks per window at a round step.
    let per_window = PLOT_W / fr.scale.max(f64::MIN_POSITIVE);
    let step = [1_000u64, 2_000, 5_000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000]
        .into_iter()
        .find(|s| per_window / (*s as f64) <= 8.0)
        .unwrap_or(3_600_000);
    let axis_y = TOP + lanes_h + 4.0;
    let unit = Ui::SecondsValue.text(lang);
    let mut ticks = Markup::new();
    let mut t = fr.origin.div_ceil(step) * step;
    while t <= fr.end {
        let x = fr.x(t);
        // A label at the right edge ends there rather than straddling it (the axis overhangs
        // only by `RIGHT`).
        ticks.push_raw(if x > PLOT_W - 16.0 { r#"<g class="tick end">"# } else { r#"<g class="tick">"# });
        ticks.tag("line").num("x1", x).num("y1", TOP).num("x2", x).num("y2", axis_y).close();
        ticks.tag("text").num("x", x).num("y", axis_y + 14.0).text(&fill(unit, &[("s", &(t / 1000).to_string())]));
        ticks.push_raw("</g>");
        t += step;
    }
    // The script's steps, ahead of the playhead too (the axis layer is not clipped at it): a peg
    // at the top of the lane of the node the step acts on.
    for step in script.iter().filter(|s| fr.visible(s.at_ms, s.at_ms)) {
        let lane = step.node.as_deref().and_then(|n| d.node_lane(n)).unwrap_or(d.lanes.len().saturating_sub(2));
        let (x, y) = (fr.x(step.at_ms), lane_y(lane) + 1.0);
        let (class, testid) = match step.made {
            true => ("script-step made", "diagram-intervention-mark"),
            false => ("script-step", "diagram-script-mark"),
        };
        ticks.tag("g").lit("class", class).lit("data-testid", testid).int("data-ms", step.at_ms).open();
        ticks.tag("title").text(&step.title);
        ticks
            .tag("path")
            .attr("d", &format!("M{} {}L{} {}L{} {}Z", f(x - 6.0), f(y), f(x + 6.0), f(y), f(x), f(y + 9.0)))
            .close();
        ticks.end("g");
    }
    for b in &d.bars {
        bar_svg(&mut out, &mut items, b, &fr, &d.lanes, cast, lang);
    }
    for a in &d.arrows {
        arrow_svg(&mut out, &mut items, a, &fr, d.now_ms, cast, lang);
    }
    for m in &d.marks {
        if !fr.visible(m.at_ms, m.at_ms) {
            continue;
        }
        let x = fr.x(m.at_ms);
        let y = lane_y(m.lane) + 15.0;
        let (class, label, title) = match &m.kind {
            MarkKind::Grant { token } => (
                "mark grant",
                token.to_string(),
                fill(Later::DiagramGrant.text(lang), &[("token", &token.to_string())]),
            ),
            // A plain letter: the hourglass glyph is missing from many systems' fonts.
            MarkKind::Expired => ("mark expired", "E".to_owned(), Later::DiagramExpired.text(lang).to_owned()),
            MarkKind::Revoked => ("mark revoked", "✂".to_owned(), Later::DiagramRevoked.text(lang).to_owned()),
            MarkKind::Released { by_other: false } => {
                ("mark released", "↩".to_owned(), Later::DiagramReleased.text(lang).to_owned())
            }
            MarkKind::Released { by_other: true } => {
                ("mark deleted", "!".to_owned(), Later::DiagramDeleted.text(lang).to_owned())
            }
            MarkKind::RawWrite { token, outcome, violation, blocked } => {
                let (class, word) = match (outcome, violation) {
                    (_, true) => ("mark raw violation", Later::DiagramViolation),
                    (WriteOutcome::Accepted, _) => ("mark raw accepted", Later::DiagramAccepted),
                    (WriteOutcome::Duplicate, _) => ("mark raw duplicate", Later::DiagramDuplicate),
                    _ if *blocked => ("mark raw refused blocked", Later::DiagramBlocked),
                    _ => ("mark raw refused", Later::DiagramRefused),
                };
                let outsider = cast.fable().word(Word::Outsider, lang);
                (class, token.clone(), format!("{outsider} · {token} · {}", word.text(lang)))
            }
        };
        let detail = format!("{title} ({})", seconds_in(m.at_ms, lang));
        out.tag("g").lit("class", class).int("data-i", items.len() as u64).open();
        out.tag("title").text(&detail);
        out.tag("circle").num("cx", x).num("cy", y).lit("r", "8").close();
        out.tag("text").num("x", x).num("y", y + 4.0).text(&label);
        // A raw write's verdict beside its circle, as on a write arrow's head.
        if let Some(verdict) = class.strip_prefix("mark raw ").and_then(|v| v.split(' ').next()) {
            out.tag("text").num("x", x + 9.0).num("y", y + 5.0).lit("class", "head").text(head(verdict));
        }
        out.end("g");
        items.push(Item { at_ms: m.at_ms, detail });
    }
    if let Some(t) = diverge.filter(|t| fr.visible(*t, *t)) {
        let x = fr.x(t);
        let tag = out.tag("g").lit("class", "diverge");
        let tag = if main { tag.lit("data-testid", "diagram-diverge") } else { tag };
        tag.int("data-ms", t).open();
        out.tag("title").text(&format!("{} ({})", Later::DiagramDiverge.text(lang), seconds_in(t, lang)));
        out.tag("line").num("x1", x).num("y1", TOP).num("x2", x).num("y2", TOP + lanes_h + 6.0).close();
        // Beside the line, inside the drawing (above it the glyph was clipped) and clear of the
        // playhead when the run stands on the difference.
        out.tag("text").num("x", x + 4.0).num("y", TOP + 10.0).text("≠");
        out.end("g");
    }
    Drawn { frame: fr, ticks, markup: out, items }
}

/// The element index (`data-i`) under an event's target, if any.
fn item_under(ev: &web_sys::Event) -> Option<usize> {
    let target = ev.target()?;
    let el = wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(target).ok()?;
    el.closest("[data-i]").ok()??.get_attribute("data-i")?.parse().ok()
}

#[component]
pub fn SpaceTime(app: AppState) -> impl IntoView {
    let span = RwSignal::new(SPANS[1]);
    let lanes = move || app.scenario.with(|s| s.config.nodes.len() + 2);
    let height = move || TOP + lanes() as f64 * LANE_H + AXIS_H;
    let lanes_markup = move || {
        let lang = app.lang.get();
        let ids: Vec<String> = app.scenario.with(|s| s.config.nodes.iter().map(|n| n.id.clone()).collect());
        let keys = lane_keys(&ids);
        app.cast.with(|cast| lanes_svg(&keys, cast, lang).into_string())
    };
    // The lanes a lesson points at: a dashed ring around each, over its whole width.
    let lane_pointers = move || {
        let ids: Vec<String> = app.scenario.with(|s| s.config.nodes.iter().map(|n| n.id.clone()).collect());
        let keys = lane_keys(&ids);
        let mut out = Markup::new();
        app.pointed.with(|pointed| {
            for e in pointed {
                let Element::Lane(id) = e else { continue };
                let at = keys.iter().position(|k| match k {
                    LaneKey::Node(n) => n == id,
                    LaneKey::Store => id == "store",
                    LaneKey::Resource => id == "resource",
                });
                if let Some(i) = at {
                    out.tag("rect")
                        .lit("class", "pointer-ring")
                        .attr("data-element", &e.code())
                        .lit("x", "2")
                        .num("y", lane_y(i) + 1.0)
                        .num("width", W - 4.0)
                        .num("height", LANE_H - 2.0)
                        .lit("rx", "8")
                        .close();
                }
            }
        });
        out.into_string()
    };
    // The expensive part, rebuilt when `diagram_now` moves: drawn from the window's left edge to
    // well past its right edge, so that the frames until the next rebuild only slide it.
    let drawn = Memo::new(move |_| {
        let lang = app.lang.get();
        let now = app.diagram_now.get();
        let span = span.get();
        let diverge = app.divergence.with(|d| d.as_ref().and_then(|d| d.as_ref().map(|d| d.at_ms)));
        let until = app.snapshot.with_untracked(|s| s.until_ms);
        let (from, width) = window(now, until, span);
        let speed = AppState::speed_factor(app.speed_log2.get_untracked());
        // Ahead: at least half a window, and what a second of real time plays at this speed.
        // `as` saturates: no speed can overflow.
        let ahead = if span == 0 || width >= until { 0 } else { (width / 2).max((speed * 1000.0) as u64) };
        let end = (from + width).saturating_add(ahead).min(until.max(1));
        let fr = Frame { origin: from, end, scale: PLOT_W / width.max(1) as f64 };
        // The playhead may go a quarter of a window further before the window leaves the drawing.
        app.set_diagram_horizon(if ahead == 0 { u64::MAX } else { end.saturating_sub(width / 4) });
        app.cast.with(|cast| {
            app.with_trace(|trace, ids, now, store_judges| {
                // The script's steps still ahead (a dropped step is gone from the drawing), and
                // the run's interventions (a script set aside is not drawn: its steps go).
                let peg = |s: &crate::engine::ScheduledCommand, said: &str, made: bool| ScriptStep {
                    at_ms: s.at_ms,
                    node: s.command.node().map(str::to_owned),
                    title: fill(
                        said,
                        &[("s", &seconds(s.at_ms)), ("what", &super::hands::script_step(&s.command, cast, lang))],
                    ),
                    made,
                };
                let ahead = app.script_ahead(None);
                let made = app.interventions();
                let script: Vec<ScriptStep> = ahead
                    .iter()
                    .map(|s| peg(s, Ui::ScriptMark.text(lang), false))
                    .chain(
                        made.iter()
                            .filter(|i| !matches!(i.command, crate::engine::Command::DropScript { .. }))
                            .map(|i| peg(i, Later::InterventionMark.text(lang), true)),
                    )
                    .collect();
                draw(&diagram(trace, ids, now, store_judges), fr, cast, lang, diverge, true, &script)
            })
        })
    });
    // The compared run's drawing, on the same frame (so the same slide and playhead).
    let other = Memo::new(move |_| {
        if app.compare.with(Option::is_none) {
            return String::new();
        }
        let lang = app.lang.get();
        let fr = drawn.with(|d| d.frame);
        let diverge = app.divergence.with(|d| d.as_ref().and_then(|d| d.as_ref().map(|d| d.at_ms)));
        app.cast.with(|cast| {
            app.with_trace(|_, ids, now, store_judges| {
                // Whether the other run's store judges expiry: the one rule, on the other run's configuration.
                let judges = app.compare.with(|c| {
                    c.map_or(store_judges, |s| {
                        app.scenario.with_untracked(|sc| s.flipped(&sc.config).store_judges_expiry())
                    })
                });
                app.with_other_trace(now, |t: &[crate::engine::TraceEntry]| {
                    draw(&diagram(t, ids, now, judges), fr, cast, lang, diverge, false, &[]).markup.into_string()
                })
            })
        })
    });
    // Every frame: where the window is now, relative to the drawing.
    let now = move || app.snapshot.with(|s| s.now_ms);
    let slide = move || {
        let fr = drawn.with(|d| d.frame);
        let (from, _) = app.snapshot.with(|s| window(s.now_ms, s.until_ms, span.get()));
        format!("translate({} 0)", f((fr.origin as f64 - from as f64) * fr.scale))
    };
    let past_w = move || {
        let fr = drawn.with(|d| d.frame);
        let (from, _) = app.snapshot.with(|s| window(s.now_ms, s.until_ms, span.get()));
        crate::story::markup::within((now().saturating_sub(from)) as f64 * fr.scale, 0.0, PLOT_W) + 1.0
    };
    let markup = move || drawn.with(|d| d.markup.as_str().to_owned());
    let ticks = move || drawn.with(|d| d.ticks.as_str().to_owned());
    // The element under the pointer or stepped to with the keyboard: (its moment, its details).
    let chosen: RwSignal<Option<Item>> = RwSignal::new(None);
    let detail = move || {
        chosen
            .with(|c| c.as_ref().map(|i| i.detail.clone()))
            .unwrap_or_else(|| Later::DiagramHint.text(app.lang.get()).to_owned())
    };
    let on_span = move |ev| {
        if let Ok(v) = event_target_value(&ev).trim().parse::<u64>() {
            if SPANS.contains(&v) {
                span.set(v);
            }
        }
    };
    let on_hover = move |ev: leptos::ev::MouseEvent| {
        if let Some(item) = item_under(&ev).and_then(|i| drawn.with_untracked(|d| d.items.get(i).cloned())) {
            if chosen.with_untracked(|c| c.as_ref() != Some(&item)) {
                chosen.set(Some(item));
            }
        }
    };
    // A click on an element moves the run to its moment; elsewhere, to the moment under the pointer.
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(at) = item_under(&ev).and_then(|i| drawn.with_untracked(|d| d.items.get(i).map(|it| it.at_ms))) {
            app.seek(at);
            return;
        }
        // Measured against the whole drawing, whichever lane is under the pointer.
        let Some(rect) = ev
            .current_target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .map(|el| el.get_bounding_client_rect())
            .filter(|r| r.width() > 0.0)
        else {
            return;
        };
        let x = (f64::from(ev.client_x()) - rect.left()) / rect.width() * W;
        let (from, span) = app.snapshot.with_untracked(|s| window(s.now_ms, s.until_ms, span.get_untracked()));
        let frac = crate::story::markup::within((x - LEFT) / PLOT_W, 0.0, 1.0);
        // `as` saturates: no value can panic.
        let t = from.saturating_add((frac * span as f64).round() as u64);
        app.seek(t);
    };
    // The keyboard: ←/→ step through the elements in time order, Enter goes to the one chosen.
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let key = ev.key();
        // The next element in time order (ties by drawing order), without sorting: a scan.
        let pick = |forward: bool| {
            let now = app.snapshot.with_untracked(|s| s.now_ms);
            let current = chosen.with_untracked(|c| c.clone());
            drawn.with_untracked(|d| {
                let pos = current.as_ref().and_then(|c| d.items.iter().position(|i| i == c));
                let here = match (pos, &current) {
                    (Some(p), Some(c)) => (c.at_ms, p),
                    // Nothing chosen yet: start from the playhead.
                    _ if forward => (now, usize::MAX),
                    _ => (now, 0),
                };
                let keyed = d.items.iter().enumerate().map(|(i, it)| ((it.at_ms, i), it));
                let next = if forward {
                    keyed.filter(|(k, _)| *k > here || (pos.is_none() && k.0 >= here.0)).min_by_key(|(k, _)| *k)
                } else {
                    keyed.filter(|(k, _)| *k < here || (pos.is_none() && k.0 <= here.0)).max_by_key(|(k, _)| *k)
                };
                next.map(|(_, it)| it.clone())
            })
        };
        match key.as_str() {
            "ArrowRight" | "ArrowLeft" => {
                ev.prevent_default();
                if let Some(item) = pick(key == "ArrowRight") {
                    chosen.set(Some(item));
                }
            }
            "Enter" | " " => {
                ev.prevent_default();
                if let Some(at) = chosen.with_untracked(|c| c.as_ref().map(|i| i.at_ms)) {
                    app.seek(at);
                }
            }
            // The first and the last element drawn.
            "Home" | "End" => {
                ev.prevent_default();
                let end = key == "End";
                let item = drawn.with_untracked(|d| {
                    let keyed = d.items.iter().enumerate().map(|(i, it)| ((it.at_ms, i), it));
                    if end { keyed.max_by_key(|(k, _)| *k) } else { keyed.min_by_key(|(k, _)| *k) }
                        .map(|(_, it)| it.clone())
                });
                if let Some(item) = item {
                    chosen.set(Some(item));
                }
            }
            "Escape" => chosen.set(None),
            _ => {}
        }
    };
    // The spans as markup, the chosen one selected (rewritten when the language or the span
    // changes).
    let options = move || {
        let lang = app.lang.get();
        let chosen = span.get();
        let mut out = Markup::new();
        for s in SPANS {
            let label = match s {
                0 => Later::DiagramWholeRun.text(lang).to_owned(),
                s => fill(Ui::SecondsValue.text(lang), &[("s", &(s / 1000).to_string())]),
            };
            out.option(&s.to_string(), &label, s == chosen);
        }
        out.into_string()
    };
    let playhead_x = move || f(LEFT + past_w() - 1.0);
    view! {
        <section class="spacetime" data-testid="space-time" data-highlight=move || app.pointed.with(|p| p.contains(&Element::Diagram)).then_some("true")>
            <div class="spacetime-head">
                <h2>{tr(app, Later::DiagramTitle)}</h2>
                <button
                    class="diagram-enlarge"
                    data-testid="diagram-enlarge"
                    aria-pressed=move || if app.diagram_big.get() { "true" } else { "false" }
                    on:click=move |_| app.diagram_big.update(|b| *b = !*b)
                >
                    {move || if app.diagram_big.get() { Later::DiagramShrink } else { Later::DiagramEnlarge }.text(app.lang.get())}
                </button>
                <label>
                    <span>{tr(app, Later::DiagramSpan)}</span>
                    <select data-testid="diagram-span" on:change=on_span inner_html=options></select>
                </label>
                <super::compare::CompareBar app />
            </div>
            <svg
                viewBox=move || format!("0 0 {} {}", f(W), f(height()))
                tabindex="0"
                role="group"
                aria-label=tr(app, Later::DiagramTitle)
                aria-describedby="diagram-detail"
                data-testid="diagram"
                on:click=on_click
                on:mouseover=on_hover
                on:keydown=on_key
            >
                // The axis overhangs the plotting area a little, so the labels at its ends show.
                <svg x=f(LEFT - 24.0) y="0" width=f(PLOT_W + 36.0) height=move || f(height())>
                    <g transform="translate(24 0)">
                        <g transform=slide inner_html=ticks></g>
                    </g>
                </svg>
                <g inner_html=lanes_markup></g>
                <g class="pointers" data-testid="lane-pointers" inner_html=lane_pointers></g>
                <svg x=f(LEFT) y="0" width=move || f(past_w()) height=move || f(height())>
                    <g transform=slide inner_html=markup></g>
                </svg>
                <line
                    class="playhead"
                    data-testid="diagram-playhead"
                    data-ms=move || now().to_string()
                    x1=playhead_x
                    x2=playhead_x
                    y1=f(TOP - 4.0)
                    y2=move || f(height() - AXIS_H + 6.0)
                />
            </svg>
            <p class="diagram-detail" id="diagram-detail" data-testid="diagram-detail" aria-live="polite" title=detail>{detail}</p>
            <Show when=move || app.compare.with(Option::is_some)>
                <h3 class="other-run">{tr(app, Later::CompareDiagram)}</h3>
                <svg
                    class="other"
                    data-testid="other-diagram"
                    viewBox=move || format!("0 0 {} {}", f(W), f(height()))
                    role="img"
                    aria-label=tr(app, Later::CompareDiagram)
                    on:click=on_click
                >
                    <g inner_html=lanes_markup></g>
                    <svg x=f(LEFT) y="0" width=move || f(past_w()) height=move || f(height())>
                        <g transform=slide inner_html=move || other.get()></g>
                    </svg>
                    <line class="playhead" x1=playhead_x x2=playhead_x y1=f(TOP - 4.0) y2=move || f(height() - AXIS_H + 6.0) />
                </svg>
            </Show>
        </section>
    }
}
