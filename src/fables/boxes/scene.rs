//! Boxes and arrows, drawn in SVG from the shared [`Picture`]: the lease store as a box with the
//! record (holder, fencing token, the compare-and-swap being decided, the TTL as a bar that
//! empties, the renewals), one box per node with what it believes, the fenced resource as a box
//! with its high-water mark, its recent verdicts and what it accepted last, and the messages as
//! cards moving along the lines between the boxes, as far as the engine's latency says.
//!
//! It brings its own style sheet (in [`STATIC_ART`], scoped to `.boxes-scene`), so the fable
//! needs nothing from the page's sheets.

use super::Says;
use crate::draw::{
    bezier, coat_colour, f, fitted, flight, judged, marks_line, sign_board, slip, Align, Drawing, Judged, Layer, Look,
    Place,
};
use crate::engine::{MessageKind, Role};
use crate::fables::Word;
use crate::scenario::lesson::Element;
use crate::story::i18n::seconds;
use crate::story::markup::{fit_font, text_width, Markup};
use crate::story::picture::{message_word, Actor, Flight, Picture, Posture, Route, TimerState};
use crate::story::violations::Highlight;
use crate::story::{fill, Cast};

/// The boxes-and-arrows drawing: the layers back to front.
pub(crate) const DRAWING: Drawing = Drawing {
    layers: &[
        Layer::Fixed("", STATIC_ART),
        Layer::Drawn("boxes-links", links_svg),
        Layer::Drawn("boxes-store", store_svg),
        Layer::Drawn("boxes-resource", resource_svg),
        Layer::Drawn("boxes-nodes", nodes_svg),
        Layer::Drawn("travels", messages_svg),
    ],
    class: "boxes-scene",
    // No sky: a diagram looks the same all run long.
    sky: |_| "boxes",
    place: place_of,
    timer: Element::Ttl,
};

/// The store's box, the resource's box (x, y, width, height in view-box units).
const STORE: (f64, f64, f64, f64) = (30.0, 24.0, 470.0, 330.0);
const RESOURCE: (f64, f64, f64, f64) = (700.0, 24.0, 470.0, 330.0);
/// Where the nodes' boxes stand: their tops, height, and the room along the row.
const NODES_TOP: f64 = 440.0;
const NODE_HEIGHT: f64 = 180.0;
const NODES_FROM: f64 = 30.0;
const NODES_TO: f64 = 1170.0;
/// The widest a node's box is drawn.
const NODE_WIDTH: f64 = 300.0;
/// The TTL bar inside the store's box.
const BAR: (f64, f64, f64, f64) = (56.0, 264.0, 418.0, 30.0);
/// The left edge of the words inside the store's box.
const STORE_TEXT_X: f64 = 54.0;
/// Where writes from outside the cast come from.
const OUTSIDE: (f64, f64) = (1200.0, 400.0);

/// The background and the style sheet.
const STATIC_ART: &str = r##"<style>
.boxes-scene{--bx-bg:light-dark(#f4f6f8,#161b22);--bx-box:light-dark(#ffffff,#1f2630);--bx-ink:light-dark(#1f2933,#e6edf3);--bx-soft:light-dark(#52606d,#9aa7b4);--bx-line:light-dark(#9aa5b1,#4b5663);--bx-accent:light-dark(#2b6cb0,#79b8ff);--bx-ok:light-dark(#2f855a,#6fd39a);--bx-bad:light-dark(#c53030,#ff8a80);--bx-warn:light-dark(#b7791f,#f6c26b)}
.scene.boxes-scene{background:var(--bx-bg);border-color:light-dark(#52606d,#4b5663)}
.boxes-scene text{font-family:var(--ui-font);fill:var(--bx-ink)}
.boxes-scene .box{fill:var(--bx-box);stroke:var(--bx-soft);stroke-width:3}
.boxes-scene .box.lit,.boxes-scene [data-highlight] .box{stroke:var(--bx-warn);stroke-width:6}
.boxes-scene .title{font-weight:700}
.boxes-scene .rule{stroke:var(--bx-line);stroke-width:2}
.boxes-scene .soft{fill:var(--bx-soft)}
.boxes-scene .bar-back{fill:none;stroke:var(--bx-soft);stroke-width:2}
.boxes-scene .bar{fill:var(--bx-accent)}
.boxes-scene .bar.out{fill:var(--bx-bad)}
.boxes-scene .struck{stroke:var(--bx-bad);stroke-width:3}
.boxes-scene .token{font-weight:800;fill:var(--bx-accent)}
.boxes-scene .stale,.boxes-scene .bad{fill:var(--bx-bad)}
.boxes-scene .good{fill:var(--bx-ok)}
.boxes-scene .link{fill:none;stroke:var(--bx-line);stroke-width:2}
.boxes-scene .link.cut{stroke:var(--bx-bad);stroke-dasharray:6 6}
.boxes-scene .node .box{stroke-width:4}
.boxes-scene .node[data-role=leader] .box{stroke:var(--bx-accent)}
.boxes-scene .node[data-role=crashed] .box,.boxes-scene .node[data-role=not_started] .box{stroke-dasharray:8 6;opacity:.6}
.boxes-scene .node[data-role=paused] .box{stroke:var(--bx-warn)}
.boxes-scene .sign{fill:var(--bx-bg);stroke:var(--bx-line);stroke-width:2}
.boxes-scene .sign-text{font-weight:700}
.boxes-scene .in-flight rect,.boxes-scene .in-flight .cloth{fill:var(--bx-box);stroke:var(--bx-accent);stroke-width:2}
.boxes-scene .in-flight.reply rect{stroke:var(--bx-ok)}
.boxes-scene .in-flight text{fill:var(--bx-ink);font-weight:700}
.boxes-scene .verdict .cloth{fill:var(--bx-box);stroke:var(--bx-ok);stroke-width:2}
.boxes-scene .verdict.void .cloth{stroke:var(--bx-bad)}
.boxes-scene .verdict .cross line{stroke:var(--bx-bad);stroke-width:3}
.boxes-scene .verdict text{fill:var(--bx-ink)!important;stroke:none}
.boxes-scene .verdict .verdict-word{fill:var(--bx-ok)!important;font-weight:700}
.boxes-scene .verdict.void .verdict-word{fill:var(--bx-bad)!important}
.boxes-scene .verdict .verdict-who{fill:var(--bx-soft)!important}
.boxes-scene .cas{fill:var(--bx-accent)}
.boxes-scene .cas.refused{fill:var(--bx-bad)}
.boxes-scene .cas-word{font-weight:700;fill:var(--bx-accent)}
.boxes-scene .cas-word.refused{fill:var(--bx-bad)}
.boxes-scene .coat{stroke:none}
</style>
<rect width="1200" height="640" fill="var(--bx-bg)"/>"##;

/// Where node `index` of `count` has its box: its left edge and width.
fn node_box(index: usize, count: usize) -> (f64, f64) {
    let room = (NODES_TO - NODES_FROM) / count.max(1) as f64;
    let width = (room - 24.0).min(NODE_WIDTH);
    (NODES_FROM + room * index as f64 + (room - width) / 2.0, width)
}

/// The middle of a node's box's top edge.
fn node_top(index: usize, count: usize) -> (f64, f64) {
    let (x, w) = node_box(index, count);
    (x + w / 2.0, NODES_TOP)
}

/// The middle of a box's bottom edge.
fn bottom_of((x, y, w, h): (f64, f64, f64, f64)) -> (f64, f64) {
    (x + w / 2.0, y + h)
}

/// The control point of the curve between a node's box and a box above it.
fn bend(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0 - 24.0)
}

/// Where a lesson's element is in the diagram, for the pointing overlay.
fn place_of(p: &Picture, e: &Element) -> Option<Place> {
    let (sx, sy, sw, sh) = STORE;
    let (rx, ry, rw, rh) = RESOURCE;
    let label = Some((sx + sw + 16.0, sy + 20.0));
    Some(match e {
        Element::Holder => ((sx + 10.0, sy + 74.0, sw - 20.0, 42.0), Some((sx + sw + 16.0, sy + 100.0))),
        Element::Token => ((sx + 10.0, sy + 120.0, sw - 20.0, 48.0), Some((sx + sw + 16.0, sy + 150.0))),
        Element::Clasp => ((sx + 10.0, sy + 170.0, sw - 20.0, 36.0), Some((sx + sw + 16.0, sy + 192.0))),
        Element::Ttl => ((BAR.0 - 8.0, BAR.1 - 40.0, BAR.2 + 16.0, BAR.3 + 48.0), Some((sx + sw + 16.0, BAR.1 + 20.0))),
        Element::Renewals => ((sx + 10.0, sy + sh - 40.0, sw - 20.0, 36.0), Some((sx + sw + 16.0, sy + sh))),
        Element::Store => ((sx - 6.0, sy - 6.0, sw + 12.0, sh + 12.0), label),
        Element::Resource => ((rx - 6.0, ry - 6.0, rw + 12.0, rh + 12.0), Some((rx - 180.0, ry + 20.0))),
        Element::Outcome | Element::Shared => {
            ((rx + 10.0, ry + rh - 62.0, rw - 20.0, 58.0), Some((rx - 180.0, ry + rh)))
        }
        Element::Node(id) => {
            let index = p.actors.iter().position(|a| &a.id == id)?;
            let (x, w) = node_box(index, p.actors.len());
            ((x - 6.0, NODES_TOP - 6.0, w + 12.0, NODE_HEIGHT + 12.0), None)
        }
        _ => return None,
    })
}

/// A box's frame with its title, lit when a violation involves it.
fn frame(out: &mut Markup, (x, y, w, h): (f64, f64, f64, f64), title: &str, lit: bool, look: Look) {
    out.tag("rect")
        .num("x", x)
        .num("y", y)
        .num("width", w)
        .num("height", h)
        .lit("rx", "12")
        .lit("class", if lit { "box lit" } else { "box" })
        .close();
    fitted(
        out,
        (x + w / 2.0, y + 38.0),
        w - 28.0,
        look.fit(30.0, 16.0),
        "title",
        "middle",
        Align::Middle,
        title,
        |t| t,
    );
    out.tag("line")
        .num("x1", x + 14.0)
        .num("y1", y + 60.0)
        .num("x2", x + w - 14.0)
        .num("y2", y + 60.0)
        .lit("class", "rule")
        .close();
}

/// The lines from each node's box to the store's and to the resource's: dashed where a partition
/// cuts the node off.
fn links_svg(p: &Picture, _: &Cast, _: Option<&Highlight>, _: Look) -> Markup {
    let mut out = Markup::new();
    let n = p.actors.len();
    for (i, a) in p.actors.iter().enumerate() {
        let from = node_top(i, n);
        let class = if a.cut_off { "link cut" } else { "link" };
        for to in [bottom_of(STORE), bottom_of(RESOURCE)] {
            let c = bend(from, to);
            out.tag("path")
                .attr("d", &format!("M{} {} Q{} {} {} {}", f(from.0), f(from.1), f(c.0), f(c.1), f(to.0), f(to.1)))
                .lit("class", class)
                .close();
        }
    }
    out
}

/// The store's box: who holds the lease (struck through once its TTL ran out), its fencing token,
/// the compare-and-swap being decided, the TTL left as a bar, the renewals of this term.
fn store_svg(p: &Picture, cast: &Cast, _: Option<&Highlight>, look: Look) -> Markup {
    let lang = look.lang;
    let mut out = Markup::new();
    let (x, y, w, h) = STORE;
    let room = w - 2.0 * (STORE_TEXT_X - x);
    out.tag("g").lit("data-testid", "boxes-store").open();
    frame(&mut out, STORE, Says::Store.text(lang), false, look);
    let r = &p.record;
    let (holder, struck) = match &r.holder {
        Some(id) => (cast.name(id, lang), !r.liveness.is_live()),
        None => (look.word(Word::RecordFree).to_owned(), false),
    };
    let line = fill(Says::Holder.text(lang), &[("name", &holder)]);
    let holder_id = r.holder.clone().unwrap_or_default();
    let fit = fitted(
        &mut out,
        (STORE_TEXT_X, y + 96.0),
        room,
        look.fit(28.0, 14.0),
        "",
        "start",
        Align::Middle,
        &line,
        |t| t.lit("data-testid", "boxes-holder").attr("data-node", &holder_id).lit("data-lease", r.liveness.code()),
    );
    if struck {
        let wide = fit.lines.iter().map(|l| text_width(l, fit.font)).fold(0.0, f64::max).min(room);
        let at = y + 96.0 - 0.3 * fit.font;
        out.tag("line")
            .num("x1", STORE_TEXT_X)
            .num("y1", at)
            .num("x2", STORE_TEXT_X + wide)
            .num("y2", at)
            .lit("class", "struck")
            .close();
    }
    let token = r.token.map_or_else(|| "–".to_owned(), |t| t.to_string());
    let line = fill(Says::Token.text(lang), &[("n", &token)]);
    fitted(
        &mut out,
        (STORE_TEXT_X, y + 146.0),
        room,
        look.fit(32.0, 15.0),
        "token",
        "start",
        Align::Middle,
        &line,
        |t| t.lit("data-testid", "boxes-token"),
    );
    // The compare-and-swap being decided: a mark and whose it is, in its own row.
    if let Some(cas) = &p.cas {
        let (words, class, word_class) = if cas.won {
            (Says::CasWon, "cas", "cas-word")
        } else {
            (Says::CasRefused, "cas refused", "cas-word refused")
        };
        let said = fill(words.text(lang), &[("name", &cast.name(&cas.node, lang))]);
        out.tag("rect")
            .num("x", x + 14.0)
            .num("y", y + 176.0)
            .lit("width", "8")
            .lit("height", "28")
            .lit("rx", "3")
            .lit("class", class)
            .lit("data-testid", "boxes-cas")
            .attr("data-by", &cas.node)
            .close();
        fitted(
            &mut out,
            (STORE_TEXT_X, y + 190.0),
            room,
            look.fit(20.0, 11.0),
            word_class,
            "start",
            Align::Middle,
            &said,
            |t| t,
        );
    }
    // The TTL: a bar that empties on the store's clock, and its words over it.
    let t = &p.timer;
    let (bx, by, bw, bh) = BAR;
    let (word, ms) = t.line();
    let said = match ms {
        Some(ms) => fill(look.word(word), &[("s", &seconds(ms))]),
        None => look.word(word).to_owned(),
    };
    out.tag("text")
        .num("x", bx)
        .num("y", by - 10.0)
        .lit("class", "soft")
        .font(fit_font(&said, bw, 22.0, 11.0))
        .text(&said);
    out.tag("rect")
        .num("x", bx)
        .num("y", by)
        .num("width", bw)
        .num("height", bh)
        .lit("rx", "5")
        .lit("class", "bar-back")
        .close();
    let class = if t.state == TimerState::Out { "bar out" } else { "bar" };
    let filled = if t.state == TimerState::Running { bw * t.left } else { 0.0 };
    out.tag("rect")
        .num("x", bx)
        .num("y", by)
        .num("width", filled)
        .num("height", bh)
        .lit("rx", "5")
        .lit("class", class)
        .lit("data-testid", "boxes-ttl")
        .lit("data-state", t.state.code())
        .close();
    let renewals = fill(look.word(Word::Renewals), &[("n", &r.renewals.to_string())]);
    out.tag("text")
        .num("x", STORE_TEXT_X)
        .num("y", y + h - 16.0)
        .lit("class", "soft minor")
        .font(fit_font(&renewals, room, 20.0, 11.0))
        .text(&renewals);
    out.end("g");
    out
}

/// The resource's box: its fencing check and high-water mark, its recent verdicts, and what it
/// accepted last (or the stale write it accepted after a newer one).
fn resource_svg(p: &Picture, cast: &Cast, lit: Option<&Highlight>, look: Look) -> Markup {
    let mut out = Markup::new();
    let (x, y, w, h) = RESOURCE;
    let g = &p.gate;
    out.tag("g").lit("data-testid", "boxes-resource").lit("data-state", if g.on_duty { "on" } else { "off" }).open();
    frame(&mut out, RESOURCE, look.word(Word::Gate), lit.is_some_and(|h| h.resource), look);
    let (word, n) = g.sign();
    let sign = match n {
        Some(n) => fill(look.word(word), &[("n", &n.to_string())]),
        None => look.word(word).to_owned(),
    };
    let board = (x + 24.0, y + 76.0, w - 48.0, 50.0);
    let (_, over) =
        sign_board(&mut out, y + 109.0, board, look.fit(26.0, 13.0), &sign, |t| t.lit("data-testid", "boxes-sign"));
    if !g.on_duty {
        let second = look.word(Word::GateLetsAll);
        out.tag("text")
            .num("x", x + w / 2.0)
            .num("y", y + 150.0)
            .lit("class", "soft minor")
            .lit("text-anchor", "middle")
            .font(fit_font(second, w - 48.0, 18.0, 11.0))
            .text(second);
    }
    marks_line(&mut out, g, (x + w / 2.0, over), w - 48.0, "soft", look);
    judged(&mut out, &g.recent, &VERDICTS, cast, look);
    let o = &p.outcome;
    let (status, class) = match (&o.collision, &o.last_token) {
        (Some(_), _) => (look.word(Word::Collision).to_owned(), "bad"),
        (None, Some(t)) => (fill(look.word(Word::OutcomeLast), &[("n", t)]), "good"),
        (None, None) => (look.word(Word::OutcomeIdle).to_owned(), "soft"),
    };
    let at = (x + w / 2.0, y + h - 40.0);
    fitted(&mut out, at, w - 32.0, look.fit(24.0, 13.0), class, "middle", Align::Middle, &status, |t| {
        t.lit("data-testid", "boxes-outcome").lit("data-state", if o.collision.is_some() { "collided" } else { "ok" })
    });
    if let Some(c) = &o.collision {
        let why = fill(look.word(Word::CollisionWhy), &[("old", &c.token.to_string()), ("new", &c.newer.to_string())]);
        out.tag("text")
            .num("x", at.0)
            .num("y", y + h - 12.0)
            .lit("class", "bad")
            .lit("text-anchor", "middle")
            .font(fit_font(&why, w - 32.0, 18.0, 11.0))
            .text(&why);
    }
    out.end("g");
    out
}

/// How the resource's box hangs its recent verdicts: cards in a row under its sign.
const VERDICTS: Judged = Judged {
    at: (RESOURCE.0 + 30.0, RESOURCE.1 + 160.0),
    step: 142.0,
    room: 134.0,
    faded: "0.7",
    cloth: r#"<g class="grow"><rect x="0" y="0" width="126" height="44" rx="7" class="cloth"/>"#,
    cross: r#"<g class="cross"><line x1="8" y1="8" x2="118" y2="36"/></g>"#,
    middle: 63.0,
    number: (32.0, 110.0, 28.0, 12.0),
    word: (68.0, 20.0, 11.0),
    who: (90.0, 17.0, 11.0),
};

/// One box per node: its name, its role, and what it believes (the token it leads with, and
/// the store's newer one when its own is stale).
fn nodes_svg(p: &Picture, cast: &Cast, lit: Option<&Highlight>, look: Look) -> Markup {
    let lang = look.lang;
    let mut out = Markup::new();
    let n = p.actors.len();
    for (i, a) in p.actors.iter().enumerate() {
        let (x, w) = node_box(i, n);
        let tag = out.tag("g").lit("class", "node").attr("data-node", &a.id).lit("data-role", a.role.as_str());
        let tag = if lit.is_some_and(|h| h.lights_node(&a.id)) { tag.lit("data-highlight", "true") } else { tag };
        tag.lit("data-testid", "boxes-node").open();
        out.tag("rect")
            .num("x", x)
            .num("y", NODES_TOP)
            .num("width", w)
            .num("height", NODE_HEIGHT)
            .lit("rx", "12")
            .lit("class", "box")
            .close();
        out.tag("rect")
            .num("x", x)
            .num("y", NODES_TOP)
            .lit("width", "12")
            .num("height", NODE_HEIGHT)
            .lit("rx", "6")
            .attr("fill", coat_colour(i))
            .lit("class", "coat")
            .close();
        // The words from the top down, each below the last however many lines it took.
        let (middle, room) = (x + w / 2.0 + 6.0, w - 36.0);
        let mut y = NODES_TOP + 40.0;
        let mut say =
            |out: &mut Markup, text: &str, (max, min): (f64, f64), class: &'static str, token: Option<u64>| {
                let fit = fitted(out, (middle, y), room, look.fit(max, min), class, "middle", Align::Top, text, |t| {
                    t.attr_opt("data-token", token.map(|n| n.to_string()).as_deref())
                });
                y += fit.font * (1.15 * fit.lines.len() as f64) + 6.0;
            };
        say(&mut out, &cast.name(&a.id, lang), (28.0, 14.0), "title", None);
        say(&mut out, &role_words(a, look), (20.0, 11.0), "soft", None);
        if let Some(token) = a.belief.filter(|_| a.posture != Posture::Down) {
            let class = if a.stale { "stale" } else { "token" };
            let held = fill(look.word(Word::ActorHolds), &[("n", &token.to_string())]);
            say(&mut out, &held, (22.0, 12.0), class, Some(token));
            if let (true, Some(newest)) = (a.stale, p.record.newest) {
                let stale = fill(look.word(Word::ActorStale), &[("n", &newest.to_string())]);
                say(&mut out, &stale, (18.0, 11.0), "stale", None);
            }
        }
        out.end("g");
    }
    out
}

/// What a node's box says it is: its role, or the fable's word for a node crashed, not yet
/// started or cut off.
fn role_words(a: &Actor, look: Look) -> String {
    let lang = look.lang;
    if a.cut_off {
        return look.word(Word::ActorCutOff).to_owned();
    }
    match (a.posture, a.role) {
        (Posture::Down, _) => look.word(Word::ActorGone).to_owned(),
        (Posture::NotYet, _) => look.word(Word::ActorNotYet).to_owned(),
        (Posture::Asleep, _) => Says::Paused.text(lang).to_owned(),
        (_, Role::Leader) => Says::Leader.text(lang).to_owned(),
        _ => Says::Candidate.text(lang).to_owned(),
    }
}

/// Where a message is drawn now: on its way along the line between a node's box and the store's
/// or the resource's.
fn place(t: &Flight, actors: &[Actor]) -> Option<(f64, f64)> {
    let n = actors.len();
    let at = |node: &str| actors.iter().position(|a| a.id == node).map(|i| node_top(i, n));
    let (a, b) = match &t.route {
        Route::ToRecord { node } => (at(node)?, bottom_of(STORE)),
        Route::FromRecord { node } => (bottom_of(STORE), at(node)?),
        Route::ToGate { node: Some(node) } => (at(node)?, bottom_of(RESOURCE)),
        Route::ToGate { node: None } => (OUTSIDE, bottom_of(RESOURCE)),
    };
    Some(bezier(a, bend(a, b), b, t.progress))
}

/// The messages in flight: requests and replies to and from the store as slips, writes as cards
/// with their token.
fn messages_svg(p: &Picture, _: &Cast, _: Option<&Highlight>, look: Look) -> Markup {
    let mut out = Markup::new();
    for t in &p.flights {
        let Some(at) = place(t, &p.actors) else { continue };
        let title = look.word(message_word(t.kind));
        if t.kind == MessageKind::Write {
            let label = t.token.clone().unwrap_or_default();
            flight(&mut out, t, at, "in-flight write", title, |out| {
                out.push_raw(r#"<rect x="-28" y="-18" width="56" height="36" rx="6" class="cloth"/>"#);
                out.tag("text")
                    .lit("x", "0")
                    .lit("y", "8")
                    .lit("text-anchor", "middle")
                    .font(fit_font(&label, 48.0, 22.0, 9.0))
                    .text(&label);
            });
        } else {
            slip(&mut out, t, at, title);
        }
    }
    out
}
