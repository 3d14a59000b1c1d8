//! The space-time diagram under the scene: the story layer's [`Diagram`] drawn as SVG markup for
//! a window of time that follows the playhead. Click anywhere on it to move the run there.

use std::fmt::Write;

use leptos::prelude::*;

use crate::engine::{MessageKind, WriteOutcome};
use crate::story::diagram::{diagram, Arrow, Bar, BarKind, Diagram, Fate, LaneKey, MarkKind};
use crate::story::i18n::Ui;
use crate::story::technical::escape_html as esc;
use crate::story::{fill, Cast, Lang};

use super::state::AppState;
use super::{coord as f, seconds, tr};

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

struct Frame {
    from: u64,
    span: u64,
}

impl Frame {
    fn x(&self, t: u64) -> f64 {
        let t = t.clamp(self.from, self.from + self.span);
        LEFT + (t - self.from) as f64 / self.span as f64 * (W - LEFT - RIGHT)
    }

    fn visible(&self, a: u64, b: u64) -> bool {
        b >= self.from && a <= self.from + self.span
    }
}

fn lane_y(lane: usize) -> f64 {
    TOP + lane as f64 * LANE_H
}

fn lane_name(key: &LaneKey, cast: &Cast, lang: Lang) -> String {
    match key {
        LaneKey::Node(id) => cast.name(id, lang),
        LaneKey::Store => Ui::DiagramStore.told(cast.fable()).text(lang).to_owned(),
        LaneKey::Resource => Ui::DiagramResource.told(cast.fable()).text(lang).to_owned(),
    }
}

fn bar_svg(out: &mut String, b: &Bar, fr: &Frame, cast: &Cast, lang: Lang) {
    if !fr.visible(b.from_ms, b.to_ms) {
        return;
    }
    let (x0, x1) = (fr.x(b.from_ms), fr.x(b.to_ms));
    // A state (asleep, crashed, cut off) is a thin strip above the belief bar, so a frozen
    // believer still shows its belief.
    let state = matches!(b.kind, BarKind::Paused | BarKind::Crashed | BarKind::Cut);
    let (y, h) = if state { (lane_y(b.lane) + 1.0, 6.0) } else { (lane_y(b.lane) + 9.0, 15.0) };
    let (class, label, title) = match &b.kind {
        BarKind::Believes { token } => {
            ("believes", token.to_string(), fill(Ui::DiagramBelieves.text(lang), &[("token", &token.to_string())]))
        }
        BarKind::Zombie { token } => {
            ("zombie", token.to_string(), fill(Ui::DiagramZombie.text(lang), &[("token", &token.to_string())]))
        }
        BarKind::Paused => ("paused", "z".to_owned(), Ui::DiagramPaused.text(lang).to_owned()),
        BarKind::Crashed => ("crashed", "✕".to_owned(), Ui::DiagramCrashed.text(lang).to_owned()),
        BarKind::Cut => ("cut", String::new(), Ui::DiagramCut.text(lang).to_owned()),
        BarKind::Holds { holder, token } => {
            let name = cast.name(holder, lang);
            let title = fill(Ui::DiagramHolds.text(lang), &[("name", &name), ("token", &token.to_string())]);
            ("holds", format!("{name} · {token}"), title)
        }
    };
    let title = format!("{title} ({} s – {} s)", seconds(b.from_ms), seconds(b.to_ms));
    let _ = write!(
        out,
        r#"<g class="bar {class}" data-kind="{class}"><title>{}</title><rect x="{}" y="{}" width="{}" height="{}" rx="2"/>"#,
        esc(&title),
        f(x0),
        f(y),
        f((x1 - x0).max(1.0)),
        f(h)
    );
    if !state && x1 - x0 > 9.0 * label.chars().count() as f64 + 6.0 {
        let _ = write!(out, r#"<text x="{}" y="{}">{}</text>"#, f(x0 + 4.0), f(y + 11.5), esc(&label));
    }
    out.push_str("</g>");
}

fn arrow_svg(out: &mut String, a: &Arrow, fr: &Frame, now: u64, lang: Lang) {
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
    let kind = super::scene::message_title(a.kind);
    let mut title = format!("{} · {} s → {} s", kind.text(lang), seconds(a.sent_ms), seconds(end));
    if let Some(t) = &a.token {
        let _ = write!(title, " · {t}");
    }
    if a.fate == Fate::Lost {
        let _ = write!(title, " · {}", Ui::DiagramLost.text(lang));
    }
    if !verdict.is_empty() {
        let word = match verdict {
            "violation" => Ui::DiagramViolation,
            "accepted" => Ui::DiagramAccepted,
            "duplicate" => Ui::DiagramDuplicate,
            _ => Ui::DiagramRefused,
        };
        let _ = write!(title, " · {}", word.text(lang));
    }
    let class = if write { "arrow write" } else { "arrow control" };
    let _ = write!(
        out,
        r#"<g class="{class} {fate} {verdict}" data-kind="{}" data-fate="{fate}" data-verdict="{verdict}" data-token="{}"><title>{}</title><line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
        if write { "write" } else { "control" },
        esc(a.token.as_deref().unwrap_or_default()),
        esc(&title),
        f(x0),
        f(y0),
        f(x1),
        f(y1)
    );
    if write {
        if let Some(t) = &a.token {
            let _ = write!(out, r#"<text x="{}" y="{}" class="token">{}</text>"#, f(x0 + 3.0), f(y0 - 3.0), esc(t));
        }
        // The verdict at the arrow's head, as a shape as well as a colour.
        let head = match verdict {
            "refused" => "⊘",
            "violation" => "!",
            "accepted" | "duplicate" => "●",
            _ => "",
        };
        if !head.is_empty() && a.fate == Fate::Arrived {
            let _ = write!(out, r#"<text x="{}" y="{}" class="head">{head}</text>"#, f(x1 - 5.0), f(y1 + 5.0));
        }
    }
    if a.fate == Fate::Lost {
        let _ = write!(out, r#"<text x="{}" y="{}" class="head lost">✕</text>"#, f(x1 - 5.0), f((y0 + y1) / 2.0 + 4.0));
    }
    out.push_str("</g>");
}

/// The diagram's markup for the window `fr` at `now`, with the first difference from the
/// compared run marked at `diverge`. Only this run's drawing (`main`) carries test ids.
fn svg(d: &Diagram, fr: &Frame, cast: &Cast, lang: Lang, diverge: Option<u64>, main: bool) -> String {
    let mut out = String::new();
    let height = TOP + d.lanes.len() as f64 * LANE_H + AXIS_H;
    for (i, lane) in d.lanes.iter().enumerate() {
        let y = lane_y(i);
        let kind = match lane {
            LaneKey::Node(_) => "node",
            LaneKey::Store => "store",
            LaneKey::Resource => "resource",
        };
        let _ = write!(
            out,
            r#"<g class="lane {kind}"><line x1="{}" y1="{}" x2="{}" y2="{}"/><text x="4" y="{}">{}</text></g>"#,
            f(LEFT),
            f(y + 15.0),
            f(W - RIGHT),
            f(y + 15.0),
            f(y + 19.0),
            esc(&super::scene::fit(&lane_name(lane, cast, lang), LEFT - 10.0, 13.0))
        );
    }
    // Time axis: about eight ticks at a round step.
    let step = [1_000u64, 2_000, 5_000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000]
        .into_iter()
        .find(|s| fr.span / s <= 8)
        .unwrap_or(3_600_000);
    let axis_y = TOP + d.lanes.len() as f64 * LANE_H + 4.0;
    let mut t = fr.from.div_ceil(step) * step;
    while t <= fr.from + fr.span {
        let x = fr.x(t);
        let _ = write!(
            out,
            r#"<g class="tick"><line x1="{}" y1="{}" x2="{}" y2="{}"/><text x="{}" y="{}">{} s</text></g>"#,
            f(x),
            f(TOP),
            f(x),
            f(axis_y),
            f(x),
            f(axis_y + 14.0),
            t / 1000
        );
        t += step;
    }
    for b in &d.bars {
        bar_svg(&mut out, b, fr, cast, lang);
    }
    for a in &d.arrows {
        arrow_svg(&mut out, a, fr, d.now_ms, lang);
    }
    for m in &d.marks {
        if !fr.visible(m.at_ms, m.at_ms) {
            continue;
        }
        let x = fr.x(m.at_ms);
        let y = lane_y(m.lane) + 15.0;
        let (class, label, title) = match &m.kind {
            MarkKind::Grant { token } => ("grant", token.to_string(), fill(Ui::DiagramGrant.text(lang), &[("token", &token.to_string())])),
            MarkKind::Expired => ("expired", "⌛".to_owned(), Ui::DiagramExpired.text(lang).to_owned()),
            MarkKind::Revoked => ("revoked", "✂".to_owned(), Ui::DiagramRevoked.text(lang).to_owned()),
            MarkKind::Released { by_other: false } => ("released", "↩".to_owned(), Ui::DiagramReleased.text(lang).to_owned()),
            MarkKind::Released { by_other: true } => ("deleted", "!".to_owned(), Ui::DiagramDeleted.text(lang).to_owned()),
            MarkKind::RawWrite { token, outcome, violation } => {
                let (class, word) = match (outcome, violation) {
                    (_, true) => ("raw violation", Ui::DiagramViolation),
                    (WriteOutcome::Accepted, _) => ("raw accepted", Ui::DiagramAccepted),
                    (WriteOutcome::Duplicate, _) => ("raw duplicate", Ui::DiagramDuplicate),
                    _ => ("raw refused", Ui::DiagramRefused),
                };
                (class, token.clone(), format!("{} · {token} · {}", Ui::Outside.text(lang), word.text(lang)))
            }
        };
        let _ = write!(
            out,
            r#"<g class="mark {class}"><title>{} ({} s)</title><circle cx="{}" cy="{}" r="8"/><text x="{}" y="{}">{}</text></g>"#,
            esc(&title),
            seconds(m.at_ms),
            f(x),
            f(y),
            f(x),
            f(y + 4.0),
            esc(&label)
        );
    }
    let bottom = height - AXIS_H + 6.0;
    if let Some(t) = diverge.filter(|t| fr.visible(*t, *t)) {
        let x = f(fr.x(t));
        let _ = write!(
            out,
            r#"<g class="diverge"{} data-ms="{t}"><title>{} ({} s)</title><line x1="{x}" y1="{}" x2="{x}" y2="{}"/><text x="{x}" y="{}">≠</text></g>"#,
            if main { r#" data-testid="diagram-diverge""# } else { "" },
            esc(Ui::DiagramDiverge.text(lang)),
            seconds(t),
            f(TOP),
            f(bottom),
            f(TOP + 2.0)
        );
    }
    let x = fr.x(d.now_ms);
    let _ = write!(
        out,
        r#"<line class="playhead"{} data-ms="{}" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
        if main { r#" data-testid="diagram-playhead""# } else { "" },
        d.now_ms,
        f(x),
        f(TOP - 4.0),
        f(x),
        f(bottom)
    );
    out
}

#[component]
pub fn SpaceTime(app: AppState) -> impl IntoView {
    let span = RwSignal::new(SPANS[1]);
    let lanes = move || app.scenario.with(|s| s.config.nodes.len() + 2);
    let height = move || TOP + lanes() as f64 * LANE_H + AXIS_H;
    // This run's drawing (`main`) or the compared run's, on the same window and playhead.
    let markup = move |main: bool| {
        Memo::new(move |_| {
            let lang = app.lang.get();
            let now = app.diagram_now.get();
            let diverge = app.divergence.with(|d| d.as_ref().and_then(|d| d.as_ref().map(|d| d.at_ms)));
            if !main && app.compare.with(Option::is_none) {
                return String::new();
            }
            let (from, span) = app.snapshot.with_untracked(|s| window(now, s.until_ms, span.get()));
            let fr = Frame { from, span };
            app.cast.with(|cast| {
                app.with_trace(|trace, ids, now, store_judges| {
                    // Flipping who judges expiry flips it for the other run's store lane too.
                    let judges = store_judges
                        ^ (!main && app.compare.with(|c| *c == Some(crate::engine::compare::Setting::Expiry)));
                    let draw = |t: &[crate::engine::TraceEntry]| svg(&diagram(t, ids, now, judges), &fr, cast, lang, diverge, main);
                    if main {
                        draw(trace)
                    } else {
                        app.with_other_trace(now, draw)
                    }
                })
            })
        })
    };
    let (this_run, other_run) = (markup(true), markup(false));
    let on_span = move |ev| {
        if let Ok(v) = event_target_value(&ev).trim().parse::<u64>() {
            if SPANS.contains(&v) {
                span.set(v);
            }
        }
    };
    // A click moves the run to the moment under the pointer.
    let on_click = move |ev: leptos::ev::MouseEvent| {
        // Measured against the whole drawing, whichever lane or arrow is under the pointer.
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
        let frac = ((x - LEFT) / (W - LEFT - RIGHT)).clamp(0.0, 1.0);
        // `as` saturates: no value can panic.
        let t = from.saturating_add((frac * span as f64).round() as u64);
        app.seek(t);
    };
    let options = SPANS
        .iter()
        .map(|s| {
            let label = move || match s {
                0 => Ui::DiagramWholeRun.text(app.lang.get()).to_owned(),
                s => fill(Ui::SecondsValue.text(app.lang.get()), &[("s", &(s / 1000).to_string())]),
            };
            view! { <option value=s.to_string()>{label}</option> }
        })
        .collect::<Vec<_>>();
    view! {
        <section class="spacetime" data-testid="space-time">
            <div class="spacetime-head">
                <h2>{tr(app, Ui::DiagramTitle)}</h2>
                <label>
                    <span>{tr(app, Ui::DiagramSpan)}</span>
                    <select data-testid="diagram-span" prop:value=move || span.get().to_string() on:change=on_span>
                        {options}
                    </select>
                </label>
                <span class="hint">{tr(app, Ui::DiagramHint)}</span>
            </div>
            <svg
                viewBox=move || format!("0 0 {} {}", f(W), f(height()))
                role="img"
                aria-label=tr(app, Ui::DiagramTitle)
                on:click=on_click
                inner_html=move || this_run.get()
            ></svg>
            <super::compare::CompareBar app />
            <Show when=move || app.compare.with(Option::is_some)>
                <h3 class="other-run">{tr(app, Ui::CompareDiagram)}</h3>
                <svg
                    class="other"
                    data-testid="other-diagram"
                    viewBox=move || format!("0 0 {} {}", f(W), f(height()))
                    role="img"
                    aria-label=tr(app, Ui::CompareDiagram)
                    on:click=on_click
                    inner_html=move || other_run.get()
                ></svg>
            </Show>
        </section>
    }
}
