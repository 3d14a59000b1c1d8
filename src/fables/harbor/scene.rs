//! The harbor, drawn in SVG from the shared [`Picture`] as the harbor tells it
//! ([`super`]): the dockmaster's hut with the plaque, the hourglass and the marks on
//! the wall; the breakwater with one flag-bearer per node; the flag-verifier at its end; the boat
//! in the narrow channel; the sun going down over the day of the run. Slips and flags in flight
//! move as far along their paths as the engine's latency says.
//!
//! Coordinates are in a fixed 1200 × 640 view box; the SVG scales to its column. Each part is
//! written as [`Markup`] from its slice of the picture ([`DRAWING`]'s layers), the same way as
//! every fable's scene (see [`crate::draw`]).

use super::{mast_flag, plaque_name_struck, shown_flag, Says};
use crate::draw::{
    bezier, coat_colour, f, fitted, flight, judged, marks_line, sign_board, slip, Align, Drawing, Judged, Layer, Look,
    Place,
};
use crate::fables::Word;
use crate::scenario::lesson::Element;
use crate::story::i18n::seconds;
use crate::story::markup::{fit_font, text_width, Markup};
use crate::story::picture::{message_word, Actor, Flight, Picture, Posture, Route, TimerState};
use crate::story::violations::Highlight;
use crate::story::{fill, Cast};

/// The harbor's drawing: the layers back to front, as the page draws them.
pub(crate) const DRAWING: Drawing = Drawing {
    layers: &[
        Layer::Fixed("", STATIC_ART),
        Layer::Drawn("", sky_svg),
        Layer::Fixed("", SEA_AND_LAND),
        Layer::Drawn("", labels_svg),
        Layer::Drawn("hut", plaque_svg),
        Layer::Drawn("hut", glass_svg),
        Layer::Drawn("breakwater", rope_svg),
        Layer::Drawn("channel", channel_svg),
        Layer::Drawn("", verifier_svg),
        Layer::Drawn("bearers", bearers_svg),
        Layer::Drawn("travels", travels_svg),
    ],
    class: "",
    // The day of the run: the caption's evening at its end is the sky's too.
    sky: |p| if p.over { "evening" } else { "day" },
    place: place_of,
    timer: Element::Ttl,
};

const PIER_TOP: f64 = 430.0;
/// Where the flag-bearers may stand along the breakwater (clear of the verifier's name plate).
const BEARERS_FROM: f64 = 350.0;
const BEARERS_TO: f64 = 780.0;
const VERIFIER_X: f64 = 930.0;
/// Where slips reach the dockmaster's hut.
const HUT_DOOR: (f64, f64) = (292.0, 176.0);
/// Where flags reach the verifier.
const VERIFIER_HAND: (f64, f64) = (962.0, 366.0);
/// Where flags from outside come from.
const OUTSIDE: (f64, f64) = (1200.0, 200.0);
/// Verdict flags hang on a line from the verifier to a piling.
const VERDICT_X0: f64 = 972.0;
const VERDICT_STEP: f64 = 66.0;
const BOAT_AT: (f64, f64) = (1060.0, 575.0);

/// Where flag-bearer `index` of `count` stands (x of his feet).
fn bearer_x(index: usize, count: usize) -> f64 {
    let step = if count > 1 { ((BEARERS_TO - BEARERS_FROM) / (count - 1) as f64).min(130.0) } else { 0.0 };
    let span = step * count.saturating_sub(1) as f64;
    let start = (BEARERS_FROM + BEARERS_TO) / 2.0 - span / 2.0;
    start + step * index as f64
}

/// Room for one bearer's name plate, in view-box units.
fn name_room(count: usize) -> f64 {
    if count > 1 {
        ((BEARERS_TO - BEARERS_FROM) / (count - 1) as f64).min(130.0) - 8.0
    } else {
        180.0
    }
}

/// What never changes: the sea, the shore, the hut, the breakwater, the channel's rocks and the
/// verifier's posts. Colours of the sky, sea and shore are in the stylesheet (`.backdrop`), which
/// gives the dark theme a night sky, a moon and a darker sea.
const STATIC_ART: &str = r##"<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" class="sky-top"/><stop offset="1" class="sky-low"/></linearGradient><linearGradient id="sea" x1="0" y1="0" x2="0" y2="1"><stop offset="0" class="sea-top"/><stop offset="1" class="sea-low"/></linearGradient><linearGradient id="dusk" x1="0" y1="0" x2="0" y2="1"><stop offset="0" class="dusk-top"/><stop offset="1" class="dusk-low"/></linearGradient></defs>"##;

/// In front of the sky (drawn after the sun, so it sets into the sea).
const SEA_AND_LAND: &str = r##"<g class="backdrop"><rect x="0" y="300" width="1200" height="340" fill="url(#sea)"/><g class="waves" fill="none" stroke-width="3" stroke-linecap="round" opacity="0.55"><path d="M330 330 q 20 -10 40 0 t 40 0"/><path d="M620 360 q 20 -10 40 0 t 40 0"/><path d="M860 320 q 20 -10 40 0 t 40 0"/><path d="M420 560 q 20 -10 40 0 t 40 0"/><path d="M700 600 q 20 -10 40 0 t 40 0"/><path d="M560 530 q 20 -10 40 0 t 40 0"/></g><path class="shore" d="M0 298 L 300 326 L 300 640 L 0 640 Z"/><path class="shore-edge" d="M0 298 L 300 326" stroke-width="4"/></g>
<g class="hut"><rect x="22" y="88" width="266" height="244" fill="#b98a57" stroke="#6b4a2b" stroke-width="4"/><path d="M8 92 L155 26 L302 92 Z" fill="#8a4b32" stroke="#5a3020" stroke-width="4" stroke-linejoin="round"/><rect x="34" y="102" width="152" height="140" rx="10" fill="#edd29c" stroke="#6b4a2b" stroke-width="4"/><line x1="48" y1="148" x2="172" y2="148" stroke="#b08a55" stroke-width="2"/><rect x="34" y="264" width="240" height="62" rx="6" fill="#cdb89a" stroke="#8f7a5c" stroke-width="2"/></g>
<g class="breakwater"><path d="M296 430 L 992 430 Q 1004 430 1004 442 L 1004 494 L 296 494 Z" fill="#8f867a" stroke="#5e564c" stroke-width="3"/><rect x="296" y="430" width="708" height="14" fill="#a89f92"/><line x1="296" y1="468" x2="1004" y2="468" stroke="#766d61" stroke-width="2"/><path d="M300 444V494M346 444V494M392 444V494M438 444V494M484 444V494M530 444V494M576 444V494M622 444V494M668 444V494M714 444V494M760 444V494M806 444V494M852 444V494M898 444V494M944 444V494" stroke="#766d61" stroke-width="2"/></g>
<g class="channel-art"><g class="buoy red"><rect x="1000" y="536" width="12" height="26" rx="3"/></g><path d="M1120 640 L1128 586 L1150 560 L1172 566 L1186 540 L1200 548 L1200 640 Z" class="rock"/><path d="M1090 640 L1100 612 L1122 604 L1134 640 Z" class="rock"/><path d="M1150 560 L1160 570 L1172 566" class="rock-edge"/></g>
<g class="verifier-art"><line x1="884" y1="296" x2="884" y2="430" class="post"/><line x1="1104" y1="296" x2="1104" y2="430" class="post"/><rect x="874" y="230" width="240" height="70" rx="8" class="sign"/><line x1="956" y1="326" x2="1190" y2="326" class="verdict-line"/><line x1="1190" y1="316" x2="1190" y2="520" class="post"/></g>"##;

/// The verifier at his post (local coordinates: feet at the origin).
const VERIFIER: &str = r##"<line x1="-6" y1="0" x2="-3" y2="-28" class="limb"/><line x1="6" y1="0" x2="3" y2="-28" class="limb"/><rect x="-15" y="-70" width="30" height="44" rx="8" fill="#2f4858" stroke="#1e2d38" stroke-width="2"/><circle cx="0" cy="-82" r="13" fill="#f0c9a0" stroke="#3b2f2a" stroke-width="2"/><rect x="-14" y="-100" width="28" height="10" rx="3" fill="#1e2d38"/><rect x="-20" y="-58" width="22" height="28" rx="2" fill="#f4efe4" stroke="#3b2f2a" stroke-width="2"/><line x1="12" y1="-62" x2="30" y2="-86" class="limb"/>"##;

/// His empty stool.
const STOOL: &str = r##"<g class="stool"><rect x="-16" y="-30" width="32" height="6" fill="#6b4a2b"/><line x1="-12" y1="-24" x2="-14" y2="0" class="limb"/><line x1="12" y1="-24" x2="14" y2="0" class="limb"/></g>"##;

/// The hourglass's frame (the sand is drawn over it).
const GLASS: &str = r##"<rect x="202" y="104" width="64" height="8" rx="3" fill="#6b4a2b"/><rect x="202" y="228" width="64" height="8" rx="3" fill="#6b4a2b"/><path d="M208 112 L260 112 L236 168 L236 172 L260 228 L208 228 L232 172 L232 168 Z" fill="#f4efe4" stroke="#6b4a2b" stroke-width="3" stroke-linejoin="round"/>"##;

/// Where a lesson's element is in the harbor (view-box units), for the pointing overlay: the
/// hut's parts are labelled to its right, in the sky.
fn place_of(p: &Picture, e: &Element) -> Option<Place> {
    Some(match e {
        Element::Holder => ((30.0, 100.0, 160.0, 52.0), Some((330.0, 118.0))),
        Element::Token => ((30.0, 150.0, 160.0, 96.0), Some((330.0, 172.0))),
        Element::Ttl => ((194.0, 98.0, 82.0, 172.0), Some((330.0, 226.0))),
        Element::Renewals => ((28.0, 260.0, 252.0, 72.0), Some((330.0, 296.0))),
        Element::Store | Element::Clasp => ((6.0, 22.0, 300.0, 316.0), Some((330.0, 64.0))),
        Element::Resource => ((864.0, 222.0, 334.0, 236.0), Some((870.0, 212.0))),
        Element::Outcome | Element::Shared => ((986.0, 470.0, 212.0, 168.0), Some((740.0, 626.0))),
        Element::Node(id) => {
            let index = p.actors.iter().position(|b| &b.id == id)?;
            let x = bearer_x(index, p.actors.len());
            ((x - 56.0, 262.0, 112.0, 212.0), None)
        }
        _ => return None,
    })
}

/// The sun sinks over the day of the run and sets at its end, the sky turning to evening.
fn sky_svg(p: &Picture, _: &Cast, _: Option<&Highlight>, _: Look) -> Markup {
    let mut out = Markup::new();
    out.tag("g").lit("class", "backdrop").open();
    out.tag("rect").lit("width", "1200").lit("height", "640").lit("fill", "url(#sky)").close();
    let dusk = crate::story::markup::within((p.day - 0.7) / 0.3, 0.0, 1.0);
    out.tag("rect")
        .lit("class", "dusk")
        .lit("width", "1200")
        .lit("height", "300")
        .lit("fill", "url(#dusk)")
        .num("opacity", dusk)
        .close();
    // From high in the east to the sea's edge, where the sea hides it.
    out.tag("circle")
        .lit("class", "sun")
        .num("cx", 1080.0 - 300.0 * p.day)
        .num("cy", 110.0 + 196.0 * p.day * p.day)
        .lit("r", "46")
        .close();
    out.push_raw(r#"<path class="birds" d="M640 120 q 30 -22 60 0 q 30 -22 60 0"/>"#);
    out.end("g");
    out
}

/// The words painted on the scene itself: the hut's roof and the channel.
fn labels_svg(_: &Picture, _: &Cast, _: Option<&Highlight>, look: Look) -> Markup {
    let lang = look.lang;
    let mut out = Markup::new();
    let roof = Says::Dockmaster.text(lang);
    out.tag("text")
        .lit("x", "155")
        .lit("y", "80")
        .lit("class", "roof-label minor")
        .lit("text-anchor", "middle")
        .font(fit_font(roof, 200.0, 22.0, 12.0))
        .text(roof);
    out.tag("text")
        .lit("x", "1045")
        .lit("y", "632")
        .lit("class", "channel-label minor")
        .lit("text-anchor", "middle")
        .text(Says::Channel.text(lang));
    out
}

/// The plaque: the holder's name (struck through once the sand has run out) and the number.
fn plaque_svg(p: &Picture, cast: &Cast, _: Option<&Highlight>, look: Look) -> Markup {
    let lang = look.lang;
    let mut out = Markup::new();
    let r = &p.record;
    let name = match &r.holder {
        Some(id) => cast.name(id, lang),
        None => look.word(Word::RecordFree).to_owned(),
    };
    let holder = r.holder.clone().unwrap_or_default();
    let font = fitted(
        &mut out,
        (110.0, 134.0),
        140.0,
        look.fit(24.0, 12.0),
        "plaque-name",
        "middle",
        Align::Middle,
        &name,
        |t| t.lit("data-testid", "plaque-holder").attr("data-node", &holder).lit("data-lease", r.liveness.code()),
    )
    .font;
    if plaque_name_struck(p) {
        let half = text_width(&name, font).min(140.0) / 2.0;
        out.tag("line")
            .lit("class", "struck")
            .num("x1", 110.0 - half)
            .lit("y1", "128")
            .num("x2", 110.0 + half)
            .lit("y2", "128")
            .close();
    }
    let number = r.token.map_or_else(|| "–".to_owned(), |t| t.to_string());
    out.tag("text")
        .lit("x", "110")
        .lit("y", "222")
        .lit("class", "plaque-token")
        .lit("text-anchor", "middle")
        .font(fit_font(&number, 130.0, 66.0, 18.0))
        .lit("data-testid", "plaque-token")
        .text(&number);
    out
}

/// The hourglass (turning over in virtual time after each grant and renewal), its line and the
/// marks of this term's renewals.
fn glass_svg(p: &Picture, _: &Cast, _: Option<&Highlight>, look: Look) -> Markup {
    let mut out = Markup::new();
    let t = &p.timer;
    out.tag("g")
        .lit("class", "hourglass")
        .lit("data-testid", "hourglass")
        .lit("data-state", t.state.code())
        .attr("transform", &format!("rotate({} 234 170)", f(180.0 * t.turning)))
        .open();
    out.push_raw(GLASS);
    // Sand in the top bulb fills up from the neck; its area goes with the square of its height.
    let h = 54.0 * t.left.sqrt();
    let w = 26.0 * h / 54.0;
    out.tag("path")
        .attr("d", &format!("M{} {} L{} {} L234 168 Z", f(234.0 - w), f(168.0 - h), f(234.0 + w), f(168.0 - h)))
        .lit("fill", "#d9a441")
        .close();
    let heap = 56.0 * (1.0 - t.left.sqrt());
    let wb = 26.0 * (1.0 - heap / 56.0);
    out.tag("path")
        .attr(
            "d",
            &format!(
                "M208 228 L260 228 L{} {} L{} {} Z",
                f(234.0 + wb),
                f(228.0 - heap),
                f(234.0 - wb),
                f(228.0 - heap)
            ),
        )
        .lit("fill", "#d9a441")
        .close();
    if t.state == TimerState::Running {
        out.tag("line")
            .lit("x1", "234")
            .lit("y1", "168")
            .lit("x2", "234")
            .num("y2", 228.0 - heap)
            .lit("stroke", "#d9a441")
            .lit("stroke-width", "2.5")
            .close();
    }
    out.end("g");
    let (word, ms) = t.line();
    let line = match ms {
        Some(ms) => fill(look.word(word), &[("s", &seconds(ms))]),
        None => look.word(word).to_owned(),
    };
    let class = match t.state {
        TimerState::Running => "glass-label",
        TimerState::Out => "glass-label out",
        TimerState::Unset => "glass-label idle",
    };
    // Under the glass, its first line where a single line stands; a second line (a compact
    // scene's large words, or Chinese) goes below it, clear of the glass, over the tally board
    // (its halo keeps it readable there), whose fourth group of marks it would hide.
    let mut label = Markup::new();
    let fit =
        fitted(&mut label, (230.0, 264.0), 100.0, look.fit(19.0, 11.0), class, "middle", Align::Top, &line, |t| {
            t.lit("data-testid", "glass-label")
        });
    let shown = if fit.lines.len() > 1 { 15 } else { 20 };
    out.push_raw(r#"<g class="tally">"#);
    for i in 0..p.record.renewals.min(shown) {
        let gx = 48.0 + f64::from(i / 5) * 52.0;
        let k = i % 5;
        // Four upright strokes, the fifth across them.
        let (x1, y1, x2, y2) = if k < 4 {
            (gx + f64::from(k) * 9.0, 270.0, gx + f64::from(k) * 9.0, 298.0)
        } else {
            (gx - 5.0, 294.0, gx + 32.0, 274.0)
        };
        out.tag("line").num("x1", x1).num("y1", y1).num("x2", x2).num("y2", y2).lit("class", "mark").close();
    }
    out.push_raw("</g>");
    out.push(&label);
    let marks = fill(look.word(Word::Renewals), &[("n", &p.record.renewals.to_string())]);
    out.tag("text")
        .lit("x", "154")
        .lit("y", "320")
        .lit("class", "marks-label minor")
        .lit("text-anchor", "middle")
        .text(&marks);
    out
}

/// The rope from the hut along the posts; a cut-off bearer's rope is broken on both sides.
fn rope_svg(p: &Picture, _: &Cast, _: Option<&Highlight>, _: Look) -> Markup {
    let mut out = Markup::new();
    let n = p.actors.len();
    let cut = |i: usize| p.actors.get(i).is_some_and(|a| a.cut_off);
    let mut prev = (300.0, 416.0);
    for i in 0..n {
        let post = (bearer_x(i, n) - 28.0, 416.0);
        let broken = cut(i) || (i > 0 && cut(i - 1));
        let mid = ((prev.0 + post.0) / 2.0, 426.0);
        // A broken rope is two loose ends hanging from either post.
        let d = if broken {
            format!(
                "M{} {} Q{} 430 {} 440 M{} {} Q{} 430 {} 444",
                f(prev.0),
                f(prev.1),
                f(prev.0 + 8.0),
                f(mid.0 - 10.0),
                f(post.0),
                f(post.1),
                f(post.0 - 8.0),
                f(mid.0 + 10.0)
            )
        } else {
            format!("M{} {} Q{} {} {} {}", f(prev.0), f(prev.1), f(mid.0), f(mid.1), f(post.0), f(post.1))
        };
        out.tag("path").attr("d", &d).lit("class", if broken { "rope broken" } else { "rope" }).close();
        out.tag("rect")
            .num("x", post.0 - 3.0)
            .lit("y", "410")
            .lit("width", "6")
            .lit("height", "22")
            .lit("fill", "#6b4a2b")
            .close();
        prev = post;
    }
    out
}

/// The flag-bearers, each on his spot with his name plate (shrunk or on two lines, never cut).
fn bearers_svg(p: &Picture, cast: &Cast, lit: Option<&Highlight>, look: Look) -> Markup {
    let lang = look.lang;
    let mut out = Markup::new();
    let count = p.actors.len();
    for (index, b) in p.actors.iter().enumerate() {
        let tag = out.tag("g").lit("class", "bearer").attr("data-node", &b.id).lit("data-role", b.role.as_str());
        let tag = if lit.is_some_and(|h| h.lights_node(&b.id)) { tag.lit("data-highlight", "true") } else { tag };
        tag.at(bearer_x(index, count), PIER_TOP).open();
        figure(&mut out, b, coat_colour(index), look);
        if b.cut_off {
            out.push_raw(r#"<g class="fog"><ellipse cx="-8" cy="-70" rx="44" ry="30"/><ellipse cx="18" cy="-40" rx="40" ry="32"/><ellipse cx="0" cy="-100" rx="34" ry="26"/></g>"#);
        }
        fitted(
            &mut out,
            (0.0, 34.0),
            name_room(count),
            look.fit(20.0, 11.0),
            "name-plate",
            "middle",
            Align::Top,
            &cast.name(&b.id, lang),
            |t| t,
        );
        out.end("g");
    }
    out
}

/// A flag with `n` on a pole; `small` for the one a sleeper holds.
fn flag(out: &mut Markup, n: u64, stale: bool, small: bool) {
    let label = n.to_string();
    out.tag("g").lit("class", if stale { "flag stale" } else { "flag" }).open();
    // The cloth and its number grow (on a small scene) from where they hang on the pole.
    if small {
        out.push_raw(r#"<line x1="6" y1="-2" x2="50" y2="-14" class="pole"/><g class="grow" style="transform-origin:50px -14px"><rect x="14" y="-40" width="40" height="26" class="cloth"/>"#);
        out.tag("text")
            .lit("x", "34")
            .lit("y", "-21")
            .lit("class", "flag-number")
            .font(fit_font(&label, 34.0, 17.0, 8.0))
            .lit("text-anchor", "middle")
            .text(&label);
        out.push_raw("</g>");
    } else {
        out.push_raw(r#"<line x1="16" y1="-16" x2="16" y2="-150" class="pole"/><g class="grow" style="transform-origin:16px -150px"><rect x="16" y="-150" width="60" height="42" class="cloth"/>"#);
        out.tag("text")
            .lit("x", "46")
            .lit("y", "-119")
            .lit("class", "flag-number")
            .font(fit_font(&label, 52.0, 30.0, 12.0))
            .lit("text-anchor", "middle")
            .text(&label);
        out.push_raw("</g>");
    }
    out.end("g");
}

/// One flag-bearer in his state (local coordinates: feet at the origin).
fn figure(out: &mut Markup, b: &Actor, coat: &'static str, look: Look) {
    let body = |out: &mut Markup, opacity: &'static str| {
        out.tag("g").lit("opacity", opacity).open();
        out.push_raw(
            r#"<line x1="-6" y1="0" x2="-3" y2="-26" class="limb"/><line x1="6" y1="0" x2="3" y2="-26" class="limb"/>"#,
        );
        out.tag("rect")
            .lit("x", "-13")
            .lit("y", "-64")
            .lit("width", "26")
            .lit("height", "40")
            .lit("rx", "9")
            .lit("fill", coat)
            .lit("stroke", "#3b2f2a")
            .lit("stroke-width", "2")
            .close();
        out.push_raw(r##"<circle cx="0" cy="-76" r="12" fill="#f0c9a0" stroke="#3b2f2a" stroke-width="2"/><ellipse cx="0" cy="-86" rx="17" ry="4.5" fill="#d8b25c" stroke="#3b2f2a" stroke-width="1.5"/><line x1="9" y1="-54" x2="16" y2="-62" class="limb"/>"##);
        out.end("g");
    };
    match b.posture {
        Posture::Down => out.push_raw(r##"<g class="gone"><rect x="-5" y="-34" width="10" height="34" fill="#7a6a55"/><g opacity="0.35" fill="none" stroke="#3b2f2a" stroke-width="2" stroke-dasharray="4 4"><rect x="-13" y="-64" width="26" height="40" rx="9"/><circle cx="0" cy="-76" r="12"/></g></g>"##),
        Posture::Asleep => {
            out.push_raw(r#"<g class="asleep"><g transform="rotate(-72)">"#);
            body(out, "1");
            out.push_raw("</g>");
            if let Some(n) = shown_flag(b) {
                flag(out, n, b.stale, true);
            }
            out.tag("text").lit("x", "-64").lit("y", "-44").lit("class", "snore").text(look.word(Word::Asleep));
            out.push_raw("</g>")
        }
        Posture::Up | Posture::NotYet => {
            let opacity = if b.posture == Posture::NotYet { "0.4" } else { "1" };
            out.push_raw(r#"<g class="awake">"#);
            match shown_flag(b) {
                Some(n) => flag(out, n, b.stale, false),
                None => {
                    out.tag("g").lit("class", "flag furled").lit("opacity", opacity).open();
                    out.push_raw(r#"<line x1="16" y1="-16" x2="16" y2="-108" class="pole"/><path d="M16 -106 L 26 -100 L 22 -70 L 16 -72 Z" class="cloth"/>"#);
                    out.end("g");
                }
            }
            body(out, opacity);
            out.push_raw("</g>")
        }
    };
}

/// The flag-verifier (or his empty stool, unnamed), his sign ("only 8 counts") and his latest
/// verdicts.
fn verifier_svg(p: &Picture, cast: &Cast, lit: Option<&Highlight>, look: Look) -> Markup {
    let mut out = Markup::new();
    let g = &p.gate;
    let tag = out
        .tag("g")
        .lit("class", if g.on_duty { "verifier" } else { "verifier away" })
        .lit("data-testid", "verifier")
        .lit("data-state", if g.on_duty { "on" } else { "off" });
    let tag = if lit.is_some_and(|h| h.resource) { tag.lit("data-highlight", "true") } else { tag };
    tag.open();
    let (word, n) = g.sign();
    let sign = match n {
        Some(n) => fill(look.word(word), &[("n", &n.to_string())]),
        None => look.word(word).to_owned(),
    };
    // The board the art draws (`SEA_AND_LAND`).
    let (_, over) = sign_board(
        &mut out,
        if g.on_duty { 276.0 } else { 262.0 },
        (874.0, 230.0, 240.0, 70.0),
        look.fit(32.0, 12.0),
        &sign,
        |t| t.lit("data-testid", "verifier-sign"),
    );
    if !g.on_duty && look.fits(look.word(Word::GateLetsAll), 10.0, 220.0) {
        let second = look.word(Word::GateLetsAll);
        out.tag("text")
            .lit("x", "994")
            .lit("y", "288")
            .lit("class", "sign-text small minor")
            .lit("text-anchor", "middle")
            .font(fit_font(second, 220.0, 18.0, 10.0))
            .text(second);
    }
    marks_line(&mut out, g, (994.0, over), 220.0, "sign-text small", look);
    judged(&mut out, &g.recent, &FLAGS, cast, look);
    out.tag("g").at(VERIFIER_X, PIER_TOP).open();
    if g.on_duty {
        out.push_raw(VERIFIER);
        fitted(
            &mut out,
            (0.0, 34.0),
            150.0,
            look.fit(18.0, 11.0),
            "name-plate verifier-name",
            "middle",
            Align::Top,
            look.word(Word::Gate),
            |t| t,
        );
    } else {
        out.push_raw(STOOL);
    }
    out.end("g");
    out.end("g");
    out
}

/// The verifier's judged flags: what each said, and who sent it.
const FLAGS: Judged = Judged {
    at: (VERDICT_X0, 326.0),
    step: VERDICT_STEP,
    room: VERDICT_STEP - 4.0,
    faded: "0.75",
    cloth: r#"<g class="grow"><rect x="0" y="4" width="54" height="38" class="cloth"/>"#,
    cross: r#"<g class="cross"><line x1="-4" y1="0" x2="58" y2="46"/><line x1="58" y1="0" x2="-4" y2="46"/></g>"#,
    middle: 27.0,
    number: (31.0, 46.0, 24.0, 10.0),
    word: (64.0, 14.0, 10.0),
    who: (82.0, 13.0, 10.0),
};

/// The boat in the channel: the flag at its mast, what it obeys, and on the rocks, why.
fn channel_svg(p: &Picture, _: &Cast, lit: Option<&Highlight>, look: Look) -> Markup {
    let mut out = Markup::new();
    let o = &p.outcome;
    let aground = o.collision.is_some();
    let tag = out
        .tag("g")
        .lit("class", if aground { "boat wrecked" } else { "boat" })
        .lit("data-testid", "boat")
        .lit("data-state", if aground { "aground" } else { "afloat" });
    let tag = if lit.is_some_and(|h| h.resource) { tag.lit("data-highlight", "true") } else { tag };
    let tag =
        if aground { tag.lit("transform", "translate(1128,560) rotate(-17)") } else { tag.at(BOAT_AT.0, BOAT_AT.1) };
    tag.open();
    out.push_raw(r#"<path d="M-62 -8 L62 -8 L46 22 L-46 22 Z" class="hull"/><line x1="0" y1="-8" x2="0" y2="-92" class="mast"/>"#);
    if let Some(t) = mast_flag(o) {
        out.tag("g").lit("class", "boat-flag grow").attr("data-token", &t).open();
        out.push_raw(r#"<rect x="0" y="-92" width="44" height="28"/>"#);
        out.tag("text")
            .lit("x", "22")
            .lit("y", "-71")
            .lit("text-anchor", "middle")
            .font(fit_font(&t, 40.0, 20.0, 9.0))
            .text(&t);
        out.end("g");
    }
    out.end("g");
    let status = match (&o.collision, &o.last_token) {
        (Some(_), _) => look.word(Word::Collision).to_owned(),
        (None, Some(t)) => fill(look.word(Word::OutcomeLast), &[("n", t)]),
        (None, None) => look.word(Word::OutcomeIdle).to_owned(),
    };
    // On a compact scene what the boat obeys is left to the flag at its mast; the rocks are always told.
    let class = if aground { "boat-status bad" } else { "boat-status minor" };
    let status = fitted(
        &mut out,
        (984.0, 548.0),
        260.0,
        look.fit(if aground { 28.0 } else { 20.0 }, 12.0),
        class,
        "end",
        Align::Middle,
        &status,
        |t| t.lit("data-testid", "boat-status"),
    );
    if let Some(c) = &o.collision {
        let why = fill(look.word(Word::CollisionWhy), &[("old", &c.token.to_string()), ("new", &c.newer.to_string())]);
        // Under the status line (its last, when it takes two), however large both are drawn to
        // stay readable (`.boat-why` is 16 units, or the floor): 576 on a full-size scene.
        let last = 548.0 + status.half_spread();
        let y = last + status.font * 0.45 + look.floor.max(16.0);
        out.tag("text").lit("x", "984").num("y", y).lit("class", "boat-why").lit("text-anchor", "end").text(&why);
    }
    out
}

/// Where a message is drawn now.
fn place(t: &Flight, actors: &[Actor]) -> Option<(f64, f64)> {
    let n = actors.len();
    let at = |node: &str| actors.iter().position(|b| b.id == node).map(|i| bearer_x(i, n));
    let (a, b, c) = match &t.route {
        Route::ToRecord { node } => {
            let x = at(node)?;
            ((x - 34.0, PIER_TOP - 104.0), HUT_DOOR, ((x + HUT_DOOR.0) / 2.0, 110.0))
        }
        Route::FromRecord { node } => {
            let x = at(node)?;
            (HUT_DOOR, (x - 34.0, PIER_TOP - 104.0), ((x + HUT_DOOR.0) / 2.0, 130.0))
        }
        Route::ToGate { node: Some(node) } => {
            let x = at(node)? + 40.0;
            ((x, PIER_TOP - 130.0), VERIFIER_HAND, ((x + VERIFIER_HAND.0) / 2.0, 230.0))
        }
        Route::ToGate { node: None } => (OUTSIDE, VERIFIER_HAND, (1120.0, 240.0)),
    };
    Some(bezier(a, c, b, t.progress))
}

/// Slips to and from the dockmaster, flags to the verifier.
fn travels_svg(p: &Picture, _: &Cast, _: Option<&Highlight>, look: Look) -> Markup {
    let mut out = Markup::new();
    for t in &p.flights {
        let Some(at) = place(t, &p.actors) else { continue };
        if t.kind == crate::engine::MessageKind::Write {
            let label = t.token.clone().unwrap_or_default();
            flight(&mut out, t, at, "in-flight flag", look.word(message_word(t.kind)), |out| {
                out.push_raw(r#"<line x1="0" y1="-18" x2="0" y2="22" class="pole"/><rect x="0" y="-18" width="46" height="32" class="cloth"/>"#);
                out.tag("text")
                    .lit("x", "23")
                    .lit("y", "5")
                    .lit("class", "flag-number")
                    .lit("text-anchor", "middle")
                    .font(fit_font(&label, 40.0, 22.0, 9.0))
                    .text(&label);
            });
        } else {
            slip(&mut out, t, at, look.word(message_word(t.kind)));
        }
    }
    out
}
