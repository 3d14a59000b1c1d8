//! The lantern of Nantang, drawn in SVG from the shared [`Picture`] as the lantern tells it
//! ([`super`]): the town entrance with the stone pillar and its iron lantern, the
//! wooden tablet, the brass clasp and the timed wick; the flagstone lane with one borrower per node;
//! the granary keeper at his door with his sign and latest verdicts; the irrigation ditch; the night
//! growing light towards dawn at the end of the run. Requests and errands in flight move as far
//! along their paths as the engine's latency says; nothing moves on its own.
//!
//! Same frame, size (a 1200 × 640 view box), figures and way of drawing as every fable's scene
//! ([`crate::draw`]): each part is [`Markup`] from its slice of the picture ([`DRAWING`]'s layers).

use super::{borrower_state, carrier, clasp, face, flare, in_ditch, Face, Says};
use crate::draw::{
    bezier, coat_colour, draw_fitted, f, fitted, flight, inside_scene, judged, marks_line, sign_board, slip, Align,
    Drawing, Judged, Layer, Look, Place,
};
use crate::engine::MessageKind;
use crate::fables::Word;
use crate::scenario::lesson::Element;
use crate::story::i18n::seconds;
use crate::story::markup::{fit_font, fit_lines, Markup};
use crate::story::picture::{message_word, Actor, Collision, Flight, Picture, Posture, Route, TimerState};
use crate::story::violations::Highlight;
use crate::story::{fill, Cast};

/// The lantern's drawing: the layers back to front, as the page draws them.
pub(crate) const DRAWING: Drawing = Drawing {
    layers: &[
        Layer::Fixed("", STATIC_ART),
        Layer::Drawn("", sky_svg),
        Layer::Fixed("", TOWN),
        Layer::Drawn("", labels_svg),
        Layer::Drawn("gate", tablet_svg),
        Layer::Drawn("", clasp_svg),
        Layer::Drawn("", wick_svg),
        Layer::Drawn("", granary_svg),
        Layer::Drawn("borrowers", borrowers_svg),
        Layer::Drawn("travels", errands_svg),
    ],
    class: "lantern-scene",
    // The night of the run: the caption's dawn at its end is the sky's too.
    sky: |p| if p.over { "dawn" } else { "night" },
    place: place_of,
    timer: Element::Store,
};

/// Where the borrowers stand on the lane (feet), clear of the keeper's name plate.
const LANE_Y: f64 = 470.0;
const BORROWERS_FROM: f64 = 410.0;
const BORROWERS_TO: f64 = 720.0;
const KEEPER_X: f64 = 890.0;
/// Where requests reach the tablet: beside the gate, clear of the tablet's writing.
const TABLET_EDGE: (f64, f64) = (350.0, 196.0);
/// Where errands reach the keeper.
const KEEPER_HAND: (f64, f64) = (910.0, 392.0);
/// Where errands from outside come from.
const OUTSIDE: (f64, f64) = (1200.0, 150.0);
/// Whoever fell in lies here in the ditch.
const IN_DITCH: (f64, f64) = (1010.0, 590.0);
/// The keeper's verdict tags hang on a rope along the granary wall.
const TAG_X0: f64 = 1004.0;
const TAG_STEP: f64 = 64.0;
/// The wick's fuse, burning from its right end towards the left.
const FUSE_X0: f64 = 44.0;
const FUSE_X1: f64 = 304.0;
const FUSE_Y: f64 = 420.0;

/// What never changes: the night, the town, the lane, the gate, the pillar, the tablet's board, the
/// clasp's body, the granary, the keeper's sign board, the ditch.
const STATIC_ART: &str = r##"<defs><linearGradient id="night" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#161d36"/><stop offset="1" stop-color="#34446a"/></linearGradient><linearGradient id="dawn" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5b6f9c" stop-opacity="0"/><stop offset="0.55" stop-color="#c98f7a" stop-opacity="0.7"/><stop offset="1" stop-color="#f2c27c"/></linearGradient><radialGradient id="glow"><stop offset="0" stop-color="#ffd98a" stop-opacity="0.85"/><stop offset="1" stop-color="#ffd98a" stop-opacity="0"/></radialGradient><linearGradient id="water" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2d5670"/><stop offset="1" stop-color="#17324a"/></linearGradient></defs>
<rect width="1200" height="640" fill="url(#night)"/>"##;

/// In front of the sky.
const TOWN: &str = r##"<path class="roofs" d="M330 430L330 330Q360 318 392 300L440 300Q470 318 500 330L500 430ZM500 430L500 352Q530 340 560 322L610 322Q640 340 672 352L672 430ZM672 430L672 318Q706 304 740 286L792 286Q826 304 860 318L860 430Z"/>
<g class="windows"><rect x="400" y="360" width="18" height="22"/><rect x="570" y="376" width="18" height="22"/><rect x="752" y="350" width="18" height="22"/></g>
<rect y="430" width="1200" height="210" class="lane"/><line x1="0" y1="432" x2="1200" y2="432" class="lane-edge"/>
<path class="flagstone" d="M330 432L300 560M410 432L380 560M454 432L424 560M534 432L504 560M578 432L548 560M658 432L628 560M702 432L672 560M782 432L752 560M826 432L796 560M330 500L860 500"/>
<path d="M552 640L580 558L1200 558L1200 640Z" class="ditch-water"/><path d="M580 558L1200 558" class="ditch-bank"/>
<g class="ripples"><path d="M660 596q14 -7 28 0t28 0"/><path d="M820 616q14 -7 28 0t28 0"/><path d="M1120 604q14 -7 28 0t28 0"/></g>
<rect x="14" y="60" width="18" height="412" class="gate-post"/><rect x="316" y="60" width="18" height="412" class="gate-post"/>
<path d="M2 66Q174 40 346 66L340 96L8 96Z" class="lintel"/><rect x="32" y="96" width="284" height="376" class="gate-wall"/>
<rect x="44" y="112" width="28" height="360" rx="3" class="pillar"/><path d="M58 122L108 122L108 134" class="hook-arm"/>
<rect x="132" y="108" width="172" height="168" rx="8" class="tablet-board"/><line x1="146" y1="196" x2="290" y2="196" class="tablet-rule"/>
<rect x="196" y="298" width="44" height="34" rx="6" class="clasp-body"/><circle cx="218" cy="312" r="4" class="keyhole"/>
<line x1="44" y1="420" x2="304" y2="420" class="fuse-burnt"/>
<path d="M968 212L1080 170L1200 212Z" class="granary-roof"/><rect x="984" y="212" width="216" height="220" class="granary-wall"/><rect x="1128" y="330" width="52" height="102" rx="4" class="granary-door"/>
<line x1="814" y1="298" x2="814" y2="440" class="post"/><line x1="966" y1="298" x2="966" y2="440" class="post"/><rect x="794" y="236" width="192" height="64" rx="8" class="sign"/>
<line x1="992" y1="236" x2="1196" y2="236" class="verdict-line"/>"##;

/// An iron lantern on its pillar's hook.
const PILLAR_LANTERN: &str = r#"<g transform="translate(108,136)" class="iron-lantern" data-testid="pillar-lantern"><line x1="0" y1="0" x2="0" y2="8" class="lantern-ring"/><path d="M-12 8L12 8L16 16L-16 16Z" class="lantern-cap"/><rect x="-13" y="16" width="26" height="30" rx="3" class="lantern-glass"/><path d="M-4 16L-4 46M4 16L4 46" class="lantern-bar"/><path d="M-16 46L16 46L12 52L-12 52Z" class="lantern-cap"/></g>"#;

/// The keeper at his post (local coordinates: feet at the origin).
const KEEPER: &str = r##"<path d="M-6 0L-3 -28M6 0L3 -28M12 -62L22 -78" class="limb"/><rect x="-15" y="-70" width="30" height="44" rx="8" fill="#5b4636" stroke="#1e2236" stroke-width="2"/><circle cx="0" cy="-82" r="13" fill="#f0c9a0" stroke="#1e2236" stroke-width="2"/><path d="M-15 -88Q0 -104 15 -88Z" fill="#2b2b2b"/><rect x="-22" y="-58" width="22" height="28" rx="2" fill="#f4efe4" stroke="#1e2236" stroke-width="2"/>"##;

/// The keeper's empty stool.
const STOOL: &str = r##"<g class="stool"><rect x="-16" y="-30" width="32" height="6" fill="#6b4a2b"/><path d="M-12 -24L-14 0M12 -24L14 0" class="limb"/></g>"##;

/// Someone in the ditch (local coordinates: the splash at the origin).
const SPLASH: &str = r##"<ellipse rx="46" ry="9" class="splash"/><path d="M-10 -6L-26 -30M10 -6L26 -32" class="limb"/><circle cy="-14" r="11" fill="#f0c9a0" stroke="#1e2236" stroke-width="2"/>"##;

/// Where borrower `index` of `count` stands (x of their feet).
fn borrower_x(index: usize, count: usize) -> f64 {
    let step = if count > 1 { ((BORROWERS_TO - BORROWERS_FROM) / (count - 1) as f64).min(170.0) } else { 0.0 };
    let span = step * count.saturating_sub(1) as f64;
    let start = (BORROWERS_FROM + BORROWERS_TO) / 2.0 - span / 2.0;
    start + step * index as f64
}

/// Room for one borrower's name, in view-box units.
fn name_room(count: usize) -> f64 {
    if count > 1 {
        ((BORROWERS_TO - BORROWERS_FROM) / (count - 1) as f64).min(170.0) - 10.0
    } else {
        180.0
    }
}

/// Where borrower `index` of `count` is drawn: on the lane, or in the ditch.
fn spot(a: &Actor, index: usize, count: usize) -> (f64, f64) {
    if in_ditch(a) {
        IN_DITCH
    } else {
        (borrower_x(index, count), LANE_Y)
    }
}

/// Where a lesson's element is in the lantern's scene (view-box units), for the pointing
/// overlay: the tablet's parts are labelled to the gate's right.
fn place_of(p: &Picture, e: &Element) -> Option<Place> {
    Some(match e {
        Element::Holder => ((134.0, 110.0, 168.0, 56.0), Some((352.0, 132.0))),
        Element::Ttl => ((134.0, 166.0, 168.0, 30.0), Some((352.0, 186.0))),
        Element::Token => ((134.0, 196.0, 168.0, 80.0), Some((352.0, 240.0))),
        Element::Clasp => ((178.0, 268.0, 80.0, 94.0), Some((352.0, 300.0))),
        Element::Renewals => ((36.0, 432.0, 276.0, 32.0), Some((352.0, 456.0))),
        Element::Store => ((126.0, 102.0, 184.0, 180.0), Some((352.0, 84.0))),
        Element::Resource => ((784.0, 226.0, 214.0, 240.0), Some((790.0, 216.0))),
        Element::Outcome => ((960.0, 160.0, 240.0, 478.0), Some((964.0, 150.0))),
        // The lantern itself: on its pillar, or with the borrower out with it.
        Element::Shared => {
            let at = carrier(p).map(|i| spot(&p.actors[i], i, p.actors.len()));
            match at {
                Some((x, y)) => ((x - 64.0, y - 184.0, 128.0, 196.0), Some((x - 60.0, y - 192.0))),
                None => ((80.0, 124.0, 56.0, 76.0), Some((352.0, 150.0))),
            }
        }
        Element::Node(id) => {
            let (x, y) = p.actors.iter().position(|b| &b.id == id).map(|i| spot(&p.actors[i], i, p.actors.len()))?;
            ((x - 64.0, y - 184.0, 128.0, 196.0), None)
        }
        _ => return None,
    })
}

/// The moon and stars fade and the horizon warms towards dawn, over the last part of the run.
fn sky_svg(p: &Picture, _: &Cast, _: Option<&Highlight>, _: Look) -> Markup {
    let mut out = Markup::new();
    let dawn = crate::story::markup::within((p.day - 0.75) / 0.25, 0.0, 1.0);
    out.tag("rect")
        .lit("class", "dawn")
        .lit("width", "1200")
        .lit("height", "440")
        .lit("fill", "url(#dawn)")
        .num("opacity", dawn)
        .close();
    out.tag("g").num("opacity", 1.0 - 0.8 * dawn).open();
    out.push_raw(r#"<g class="stars"><circle cx="420" cy="60" r="2"/><circle cx="520" cy="110" r="2"/><circle cx="610" cy="48" r="2"/><circle cx="700" cy="132" r="2"/><circle cx="880" cy="40" r="2"/><circle cx="940" cy="150" r="2"/><circle cx="380" cy="150" r="2"/></g>"#);
    out.tag("circle").lit("class", "moon").lit("cx", "790").num("cy", 86.0 + 120.0 * dawn).lit("r", "34").close();
    out.end("g");
    out
}

/// The words painted on the scene itself: the gate's lintel, the granary, the ditch.
fn labels_svg(_: &Picture, _: &Cast, _: Option<&Highlight>, look: Look) -> Markup {
    let lang = look.lang;
    let mut out = Markup::new();
    let gate = Says::TownGate.text(lang);
    out.tag("text")
        .lit("x", "174")
        .lit("y", "88")
        .lit("class", "roof-label")
        .lit("text-anchor", "middle")
        .font(fit_font(gate, 300.0, 22.0, 12.0))
        .text(gate);
    out.tag("text")
        .lit("x", "1084")
        .lit("y", "205")
        .lit("class", "granary-label minor")
        .lit("text-anchor", "middle")
        .text(Says::Granary.text(lang));
    out.tag("text")
        .lit("x", "1190")
        .lit("y", "632")
        .lit("class", "ditch-label minor")
        .lit("text-anchor", "end")
        .text(Says::Ditch.text(lang));
    out
}

/// The tablet's face (holder or free, return hour, wick number) and the lantern on its pillar
/// while nobody is out with it.
fn tablet_svg(p: &Picture, cast: &Cast, _: Option<&Highlight>, look: Look) -> Markup {
    let lang = look.lang;
    let mut out = Markup::new();
    if carrier(p).is_none() {
        out.push_raw(PILLAR_LANTERN);
    } else {
        out.push_raw(r#"<circle cx="108" cy="138" r="4" class="empty-hook"/>"#);
    }
    let r = &p.record;
    let face = face(r);
    let holder = r.holder.clone().unwrap_or_default();
    let (name, class) = match (&r.holder, face) {
        (Some(id), Face::Taken) => (cast.name(id, lang), "tablet-name"),
        _ => (look.word(Word::RecordFree).to_owned(), "tablet-name free"),
    };
    out.tag("g").lit("data-testid", "tablet").lit("data-state", face.as_str()).open();
    // A long name is written smaller, or on two lines: never cut. Two lines of a compact scene's
    // large words would reach the lintel; there the return hour (a minor word) is left out, so
    // they move down into its room.
    let (max, min) = look.fit(26.0, 13.0);
    let fit = fit_lines(&name, 152.0, max, min);
    let y = if fit.lines.len() > 1 && look.compact() { 146.0 + (1.3 * fit.font - 28.0).max(0.0) } else { 146.0 };
    draw_fitted(&mut out, (218.0, y), &fit, class, "middle", Align::Middle, &name, |t| {
        t.lit("data-testid", "tablet-holder")
            .lit("data-state", face.as_str())
            .attr("data-node", &holder)
            .lit("data-lease", r.liveness.code())
    });
    // Once the hour has passed the name is still written, struck through: it counts as free.
    if let (Some(id), Face::HourPassed) = (&r.holder, face) {
        fitted(
            &mut out,
            (218.0, 168.0),
            140.0,
            look.fit(15.0, 10.0),
            "tablet-struck",
            "middle",
            Align::Middle,
            &cast.name(id, lang),
            |t| t,
        );
    }
    let back = match (face, r.expires_ms) {
        (Face::Taken, Some(ms)) => fill(Says::TabletReturnBy.text(lang), &[("s", &seconds(ms))]),
        (Face::HourPassed, _) => Says::TabletHourPassed.text(lang).to_owned(),
        _ if !r.ever_granted() => Says::TabletNotYet.text(lang).to_owned(),
        _ => String::new(),
    };
    // Two lines rather than past the tablet's edges ("no one has borrowed yet" drawn readable).
    let back_fit = fitted(
        &mut out,
        (218.0, 188.0),
        150.0,
        look.fit(16.0, 10.0),
        "tablet-return minor",
        "middle",
        Align::Top,
        &back,
        |t| t.lit("data-testid", "tablet-return"),
    );
    // The wick's number in words, over the large number; left out when the return hour takes
    // two lines and would run into it (the large number still says it).
    if let Some(n) = r.token.filter(|_| back_fit.lines.len() < 2) {
        let label = fill(Says::WickNumber.text(lang), &[("n", &n.to_string())]);
        out.tag("text")
            .lit("x", "218")
            .lit("y", "214")
            .lit("class", "tablet-small minor")
            .lit("text-anchor", "middle")
            .text(&label);
    }
    let number = r.token.map_or_else(|| "–".to_owned(), |n| n.to_string());
    out.tag("text")
        .lit("x", "218")
        .lit("y", "264")
        .lit("class", "tablet-token")
        .lit("text-anchor", "middle")
        .font(fit_font(&number, 130.0, 54.0, 16.0))
        .lit("data-testid", "tablet-token")
        .text(&number);
    out.end("g");
    out
}

/// The brass clasp: latched while a compare-and-swap is being decided (by whom, and whether it
/// won), open otherwise; and who was a step too late at the latest race.
fn clasp_svg(p: &Picture, cast: &Cast, _: Option<&Highlight>, look: Look) -> Markup {
    let lang = look.lang;
    let mut out = Markup::new();
    let cas = clasp(p);
    let (state, label) = if cas.is_some() { ("latched", Says::ClaspLatched) } else { ("open", Says::ClaspOpen) };
    out.tag("g")
        .lit("class", if cas.is_some() { "clasp latched" } else { "clasp open" })
        .lit("data-testid", "clasp")
        .lit("data-state", state)
        .attr("data-by", cas.map_or("", |c| c.node.as_str()))
        .lit("data-cas", cas.map_or("", |c| if c.won { "won" } else { "refused" }))
        .open();
    if cas.is_some() {
        out.push_raw(r#"<path d="M204 300L204 288A14 14 0 0 1 232 288L232 300" class="shackle"/>"#);
    } else {
        out.push_raw(r#"<path d="M204 300L204 288A14 14 0 0 1 232 288L232 300" class="shackle" transform="translate(0,-10) rotate(-28 232 300)"/>"#);
    }
    let said = match cas {
        Some(c) => {
            let word = if c.won { label } else { Says::ClaspTried };
            fill(word.text(lang), &[("name", &cast.name(&c.node, lang))])
        }
        None => label.text(lang).to_owned(),
    };
    // Words drawn large to stay readable (a phone, a compared run) leave the tablet room for two
    // lines under the clasp: a grant that came too late says more than who took the clasp.
    let crowded = p.too_late.is_some() && look.floor > 16.0;
    // Near the scene's left edge: words drawn larger than their room move right rather than off
    // the scene.
    if !crowded {
        let (max, min) = look.fit(14.0, 10.0);
        let fit = fit_lines(&said, 276.0, max, min);
        let x = inside_scene(174.0, &fit);
        draw_fitted(&mut out, (x, 352.0), &fit, "clasp-label", "middle", Align::Middle, &said, |t| t);
    }
    if let Some(t) = &p.too_late {
        let line = fill(Says::ClaspTooLate.text(lang), &[("name", &cast.name(&t.node, lang))]);
        let (max, min) = look.fit(16.0, 10.0);
        let fit = fit_lines(&line, 270.0, max, min);
        let x = inside_scene(174.0, &fit);
        draw_fitted(
            &mut out,
            (x, if crowded { 346.0 } else { 374.0 }),
            &fit,
            "too-late",
            "middle",
            Align::Middle,
            &line,
            |tag| tag.lit("data-testid", "clasp-too-late").attr("data-node", &t.node),
        );
    }
    out.end("g");
    out
}

/// The timed wick: a fuse burning from its right end; what is left is the lease's remaining time
/// on the coordinator's clock. It flares when lit or renewed in person.
fn wick_svg(p: &Picture, _: &Cast, _: Option<&Highlight>, look: Look) -> Markup {
    let mut out = Markup::new();
    let w = &p.timer;
    let state = match w.state {
        TimerState::Unset => "unlit",
        TimerState::Running => "burning",
        TimerState::Out => "out",
    };
    out.tag("g")
        .lit("class", "wick")
        .lit("data-testid", "wick")
        .lit("data-state", state)
        .int("data-left-ms", w.remaining_ms)
        .open();
    let end = FUSE_X0 + (FUSE_X1 - FUSE_X0) * w.left;
    if w.state == TimerState::Running {
        out.tag("line")
            .num("x1", FUSE_X0)
            .num("y1", FUSE_Y)
            .num("x2", end)
            .num("y2", FUSE_Y)
            .lit("class", "fuse")
            .close();
        out.tag("g")
            .attr("transform", &format!("translate({},{}) scale({})", f(end), f(FUSE_Y), f(1.0 + 0.6 * flare(p))))
            .open();
        out.push_raw(r#"<circle r="16" fill="url(#glow)"/><path d="M0 -13Q7 -4 0 4Q-7 -4 0 -13Z" class="flame"/>"#);
        out.end("g");
    }
    let (word, ms) = w.line();
    let line = match ms {
        Some(ms) => fill(look.word(word), &[("s", &seconds(ms))]),
        None => look.word(word).to_owned(),
    };
    let class = if w.state == TimerState::Out { "wick-label out" } else { "wick-label" };
    // On a compact scene the renewals line under the wick is left out (a minor word): the wick's
    // line takes its place, which leaves the clasp's words room for two lines above the wick.
    let y = if look.compact() { 458.0 } else { 400.0 };
    out.tag("text").lit("x", "174").num("y", y).lit("class", class).lit("text-anchor", "middle").text(&line);
    let renewed = fill(look.word(Word::Renewals), &[("n", &p.record.renewals.to_string())]);
    out.tag("text")
        .lit("x", "174")
        .lit("y", "454")
        .lit("class", "renewals minor")
        .lit("text-anchor", "middle")
        .text(&renewed);
    out.end("g");
    out
}

/// The keeper (or his empty stool, unnamed), his sign, his latest verdicts, the granary's last
/// errand, and the ditch: why someone fell in, and a stranger who did.
fn granary_svg(p: &Picture, cast: &Cast, lit: Option<&Highlight>, look: Look) -> Markup {
    let mut out = Markup::new();
    let k = &p.gate;
    let tag = out.tag("g").lit("class", if k.on_duty { "granary" } else { "granary away" });
    let tag = if lit.is_some_and(|h| h.resource) { tag.lit("data-highlight", "true") } else { tag };
    tag.open();
    let (word, n) = k.sign();
    let sign = match n {
        Some(n) => fill(look.word(word), &[("n", &n.to_string())]),
        None => look.word(word).to_owned(),
    };
    let state = if k.on_duty { "on" } else { "off" };
    // The board the art draws.
    let (_, over) = sign_board(
        &mut out,
        if k.on_duty { 278.0 } else { 264.0 },
        (KEEPER_X - 96.0, 236.0, 192.0, 64.0),
        look.fit(28.0, 11.0),
        &sign,
        |t| t.lit("data-testid", "keeper-sign").lit("data-state", state),
    );
    if !k.on_duty && look.fits(look.word(Word::GateLetsAll), 9.0, 180.0) {
        let second = look.word(Word::GateLetsAll);
        out.tag("text")
            .num("x", KEEPER_X)
            .lit("y", "290")
            .lit("class", "sign-text small minor")
            .lit("text-anchor", "middle")
            .font(fit_font(second, 180.0, 16.0, 9.0))
            .text(second);
    }
    // Over the sign, in the night sky: light letters.
    marks_line(&mut out, k, (KEEPER_X, over), 180.0, "granary-status", look);
    judged(&mut out, &k.recent, &TAGS, cast, look);
    out.tag("g").at(KEEPER_X, LANE_Y).lit("data-testid", "keeper").lit("data-state", state).open();
    if k.on_duty {
        out.push_raw(KEEPER);
        fitted(
            &mut out,
            (0.0, 34.0),
            150.0,
            look.fit(18.0, 11.0),
            "name-plate",
            "middle",
            Align::Top,
            look.word(Word::Gate),
            |t| t,
        );
    } else {
        out.push_raw(STOOL);
    }
    out.end("g");
    let o = &p.outcome;
    let status = match (&o.collision, &o.last_token) {
        (Some(_), _) => look.word(Word::Collision).to_owned(),
        (None, Some(t)) => fill(look.word(Word::OutcomeLast), &[("n", t)]),
        (None, None) => look.word(Word::OutcomeIdle).to_owned(),
    };
    // On a compact scene the last errand is left to the newest tag, which carries its number;
    // a fall into the ditch is always told.
    let class = if o.collision.is_some() { "granary-status bad" } else { "granary-status minor" };
    fitted(&mut out, (1190.0, 520.0), 250.0, look.fit(19.0, 11.0), class, "end", Align::Middle, &status, |t| {
        t.lit("data-testid", "granary-status")
    });
    out.end("g");
    ditch_svg(&mut out, o.collision.as_ref(), p, look);
    out
}

/// The keeper's judged errands, a tag each on his rope (each word fits less than the gap
/// between tags; a name too long for one line goes on two).
const TAGS: Judged = Judged {
    at: (TAG_X0, 236.0),
    step: TAG_STEP,
    room: TAG_STEP - 6.0,
    faded: "0.8",
    // The tag and its words grow (on a small scene) from where it hangs.
    cloth: r#"<g class="grow" style="transform-origin:24px 0"><line x1="24" y1="0" x2="24" y2="8" class="tag-string"/><rect x="0" y="8" width="48" height="36" rx="4" class="cloth"/>"#,
    cross: r#"<g class="cross"><line x1="-3" y1="6" x2="51" y2="46"/><line x1="51" y1="6" x2="-3" y2="46"/></g>"#,
    middle: 24.0,
    number: (33.0, 40.0, 22.0, 9.0),
    word: (62.0, 12.0, 9.0),
    who: (78.0, 12.0, 9.0),
};

/// Why someone fell into the ditch; a stranger who fell in lies there (a borrower who did is drawn
/// there with the borrowers, once).
fn ditch_svg(out: &mut Markup, fall: Option<&Collision>, p: &Picture, look: Look) {
    let state = if fall.is_some() { "fallen" } else { "clear" };
    out.tag("g")
        .lit("class", if fall.is_some() { "ditch fallen" } else { "ditch clear" })
        .lit("data-testid", "ditch")
        .lit("data-state", state)
        .open();
    if let Some(a) = fall {
        if a.from.is_none() {
            out.tag("g").lit("class", "fallen-borrower").at(IN_DITCH.0, IN_DITCH.1).open();
            out.push_raw(SPLASH);
            out.tag("text")
                .lit("x", "-70")
                .lit("y", "-2")
                .lit("class", "ditch-who")
                .lit("text-anchor", "end")
                .text(look.word(Word::Outsider));
            out.end("g");
        } else if !p.actors.iter().any(in_ditch) {
            // They have climbed out since: the splash stays.
            out.tag("g").at(IN_DITCH.0, IN_DITCH.1).open();
            out.push_raw(r#"<ellipse rx="46" ry="9" class="splash"/>"#);
            out.end("g");
        }
        let why = fill(look.word(Word::CollisionWhy), &[("old", &a.token.to_string()), ("new", &a.newer.to_string())]);
        out.tag("text").lit("x", "1190").lit("y", "546").lit("class", "ditch-why").lit("text-anchor", "end").text(&why);
    }
    out.end("g");
}

/// The borrowers, each on their spot (on the lane, or in the ditch); `lit` is what the violation
/// under the pointer involves. Names shrink or go on two lines, never cut.
fn borrowers_svg(p: &Picture, cast: &Cast, lit: Option<&Highlight>, look: Look) -> Markup {
    let lang = look.lang;
    let mut out = Markup::new();
    let count = p.actors.len();
    for (index, b) in p.actors.iter().enumerate() {
        let (x, y) = spot(b, index, count);
        let tag = out.tag("g").lit("class", "borrower");
        let tag = if lit.is_some_and(|h| h.lights_node(&b.id)) { tag.lit("data-highlight", "true") } else { tag };
        tag.attr("data-testid", &format!("borrower-{}", b.id))
            .attr("data-node", &b.id)
            .lit("data-state", borrower_state(b))
            .lit("data-role", b.role.as_str())
            .lit("data-lost", if b.cut_off { "true" } else { "false" })
            .attr("data-lantern", &b.belief.map(|n| n.to_string()).unwrap_or_default())
            .lit("data-too-late", if b.too_late { "true" } else { "false" })
            .at(x, y)
            .open();
        let name = cast.name(&b.id, lang);
        if in_ditch(b) {
            out.push_raw(r#"<g class="fallen-borrower">"#);
            out.push_raw(SPLASH);
            out.push_raw("</g>");
            fitted(
                &mut out,
                (-70.0, -2.0),
                200.0,
                look.fit(16.0, 11.0),
                "ditch-who",
                "end",
                Align::Middle,
                &name,
                |t| t,
            );
        } else {
            figure(&mut out, b, coat_colour(index), look);
            if b.cut_off {
                out.push_raw(r#"<g class="dark-lanes"><ellipse cx="-6" cy="-66" rx="46" ry="34"/><ellipse cx="20" cy="-34" rx="40" ry="30"/><ellipse cx="-10" cy="-104" rx="34" ry="24"/></g>"#);
            }
            fitted(
                &mut out,
                (0.0, 34.0),
                name_room(count),
                look.fit(20.0, 11.0),
                "name-plate",
                "middle",
                Align::Top,
                &name,
                |t| t,
            );
        }
        out.end("g");
    }
    out
}

/// A lantern carrying wick number `n`, lit or dead; `x`, `y` its glass's top-left corner.
fn small_lantern(out: &mut Markup, n: u64, lit: bool, x: f64, y: f64) {
    let label = n.to_string();
    out.tag("g").lit("class", if lit { "hand-lantern lit" } else { "hand-lantern dead" }).at(x, y).open();
    if lit {
        out.push_raw(r#"<circle cx="15" cy="18" r="44" fill="url(#glow)"/>"#);
    }
    out.push_raw(r#"<g class="grow" style="transform-origin:15px 0"><rect width="30" height="36" rx="5" class="lantern-glass"/>"#);
    out.tag("text")
        .lit("x", "15")
        .lit("y", "24")
        .lit("class", "lantern-number")
        .lit("text-anchor", "middle")
        .font(fit_font(&label, 26.0, 16.0, 7.0))
        .text(&label);
    out.push_raw("</g>");
    out.end("g");
}

/// One borrower in their state (local coordinates: feet at the origin).
fn figure(out: &mut Markup, b: &Actor, coat: &'static str, look: Look) {
    let body = |out: &mut Markup, opacity: &'static str| {
        out.tag("g").lit("opacity", opacity).open();
        out.push_raw(r#"<path d="M-6 0L-3 -26M6 0L3 -26M9 -54L12 -52" class="limb"/>"#);
        out.tag("rect")
            .lit("x", "-13")
            .lit("y", "-64")
            .lit("width", "26")
            .lit("height", "40")
            .lit("rx", "9")
            .lit("fill", coat)
            .lit("stroke", "#1e2236")
            .lit("stroke-width", "2")
            .close();
        out.push_raw(r##"<circle cx="0" cy="-76" r="12" fill="#f0c9a0" stroke="#1e2236" stroke-width="2"/><path d="M-12 -82Q0 -96 12 -82Z" class="headscarf"/>"##);
        out.end("g");
    };
    match b.posture {
        Posture::Down => {
            // Sitting on the flagstones, holding a twisted ankle.
            out.push_raw(
                r#"<g class="hurt"><g opacity="0.8"><path d="M-4 -6L26 -4M-4 -2L24 2M2 -30L22 -6" class="limb"/>"#,
            );
            out.tag("rect")
                .lit("x", "-18")
                .lit("y", "-44")
                .lit("width", "26")
                .lit("height", "40")
                .lit("rx", "9")
                .lit("fill", coat)
                .lit("stroke", "#1e2236")
                .lit("stroke-width", "2")
                .close();
            out.push_raw(r##"<circle cx="-5" cy="-56" r="12" fill="#f0c9a0" stroke="#1e2236" stroke-width="2"/></g><path d="M28 -12l4 6l7 -2l-4 6l4 6l-7 -2l-4 6l-1 -7l-7 -2l7 -3Z" class="ankle-star"/></g>"##);
        }
        Posture::Asleep => {
            out.push_raw(r#"<g class="dozing"><g transform="rotate(-72)">"#);
            body(out, "1");
            out.push_raw("</g>");
            if let Some(n) = b.belief.or(b.prepared) {
                small_lantern(out, n, b.live, 10.0, -36.0);
            }
            out.tag("text").lit("x", "-64").lit("y", "-44").lit("class", "snore").text(look.word(Word::Asleep));
            out.push_raw("</g>");
        }
        Posture::Up => {
            out.push_raw(r#"<g class="afoot">"#);
            if let Some(n) = b.belief {
                out.push_raw(r#"<path d="M12 -52L30 -104L30 -96" class="pole"/>"#);
                small_lantern(out, n, b.live, 15.0, -96.0);
            }
            body(out, "1");
            out.push_raw("</g>");
        }
        Posture::NotYet => {
            out.push_raw(r#"<g class="not-yet">"#);
            body(out, "0.4");
            out.push_raw("</g>");
        }
    }
}

/// Where an errand is drawn now.
fn place(e: &Flight, actors: &[Actor]) -> Option<(f64, f64)> {
    let n = actors.len();
    let at = |node: &str| actors.iter().position(|b| b.id == node).map(|i| spot(&actors[i], i, n));
    let (a, b, c) = match &e.route {
        Route::ToRecord { node } => {
            let (x, y) = at(node)?;
            ((x - 20.0, y - 110.0), TABLET_EDGE, ((x + TABLET_EDGE.0) / 2.0, 120.0))
        }
        Route::FromRecord { node } => {
            let (x, y) = at(node)?;
            (TABLET_EDGE, (x - 20.0, y - 110.0), ((x + TABLET_EDGE.0) / 2.0, 140.0))
        }
        Route::ToGate { node: Some(node) } => {
            let (x, y) = at(node)?;
            ((x + 30.0, y - 110.0), KEEPER_HAND, ((x + 30.0 + KEEPER_HAND.0) / 2.0, 250.0))
        }
        Route::ToGate { node: None } => (OUTSIDE, KEEPER_HAND, (1080.0, 160.0)),
    };
    Some(bezier(a, c, b, e.progress))
}

/// Requests to and from the tablet (slips), errands to the keeper (small lit lanterns with their
/// wick number), each as far along its way as its latency says.
fn errands_svg(p: &Picture, _: &Cast, _: Option<&Highlight>, look: Look) -> Markup {
    let mut out = Markup::new();
    for e in &p.flights {
        let Some(at) = place(e, &p.actors) else { continue };
        let title = look.word(message_word(e.kind));
        if e.kind == MessageKind::Write {
            let label = e.token.clone().unwrap_or_default();
            flight(&mut out, e, at, "in-flight errand", title, |out| {
                out.push_raw(r#"<circle r="24" fill="url(#glow)"/><rect x="-14" y="-17" width="28" height="32" rx="5" class="lantern-glass"/>"#);
                out.tag("text")
                    .lit("x", "0")
                    .lit("y", "5")
                    .lit("class", "lantern-number")
                    .lit("text-anchor", "middle")
                    .font(fit_font(&label, 24.0, 15.0, 7.0))
                    .text(&label);
            });
        } else {
            slip(&mut out, e, at, title);
        }
    }
    out
}
