//! The lantern of Nantang, drawn in SVG from [`Lantern`](crate::story::lantern::Lantern): the town
//! entrance with the stone pillar and its iron lantern, the wooden tablet, the brass clasp and the
//! timed wick; the flagstone lane with one borrower per node; the granary keeper at his door with
//! his sign and latest verdicts; the irrigation ditch. Requests and errands in flight move as far
//! along their paths as the engine's latency says; nothing moves on its own.
//!
//! Same frame, size (a 1200 × 640 view box) and figures as the harbor ([`super::scene`]), by night.
//!
//! Each part of the picture is written as SVG markup from its slice of the picture (a [`Memo`]),
//! and set as the part's `innerHTML` when that slice changes: the page stays small (no per-element
//! view code) and every text is escaped ([`esc`]).

use std::fmt::Write as _;

use leptos::prelude::*;

use crate::scenario::lesson::Element;

use crate::engine::{MessageKind, WriteOutcome};
use crate::story::harbor::Verdict;
use crate::story::i18n::Ui;
use crate::story::lantern::{
    Borrower, Clasp, Errand, Face, Fall, Granary, Keeper, Posture, Tablet, Way, Wick, WickState,
};
use crate::story::technical::escape_html as esc;
use crate::story::violations::Highlight;
use crate::story::{fill, Cast, Lang};

use super::scene::{bezier, coat_colour, fit, fit_font, outcome_name};
use super::state::AppState;
use super::{coord, lit, seconds, tr};

/// Where the borrowers stand on the lane (feet).
const LANE_Y: f64 = 470.0;
const BORROWERS_FROM: f64 = 400.0;
const BORROWERS_TO: f64 = 790.0;
/// Where requests reach the tablet.
const TABLET_EDGE: (f64, f64) = (300.0, 190.0);
/// Where errands reach the keeper.
const KEEPER_HAND: (f64, f64) = (910.0, 392.0);
/// Where errands from outside come from.
const OUTSIDE: (f64, f64) = (1200.0, 150.0);
/// The keeper's verdict tags hang on a rope along the granary wall.
const TAG_X0: f64 = 1004.0;
const TAG_STEP: f64 = 64.0;
/// The wick's fuse, burning from its right end towards the left.
const FUSE_X0: f64 = 44.0;
const FUSE_X1: f64 = 304.0;
const FUSE_Y: f64 = 420.0;

/// What never changes: the night, the town, the lane, the gate, the pillar, the tablet's board, the
/// clasp's body, the granary, the keeper's sign board, the ditch.
const STATIC_ART: &str = r##"<defs><linearGradient id="night" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#161d36"/><stop offset="1" stop-color="#34446a"/></linearGradient><radialGradient id="glow"><stop offset="0" stop-color="#ffd98a" stop-opacity="0.85"/><stop offset="1" stop-color="#ffd98a" stop-opacity="0"/></radialGradient><linearGradient id="water" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2d5670"/><stop offset="1" stop-color="#17324a"/></linearGradient></defs>
<rect width="1200" height="640" fill="url(#night)"/>
<g class="stars"><circle cx="420" cy="60" r="2"/><circle cx="520" cy="110" r="2"/><circle cx="610" cy="48" r="2"/><circle cx="700" cy="132" r="2"/><circle cx="880" cy="40" r="2"/><circle cx="940" cy="150" r="2"/><circle cx="380" cy="150" r="2"/></g>
<circle cx="790" cy="86" r="34" class="moon"/>
<path class="roofs" d="M330 430L330 330Q360 318 392 300L440 300Q470 318 500 330L500 430ZM500 430L500 352Q530 340 560 322L610 322Q640 340 672 352L672 430ZM672 430L672 318Q706 304 740 286L792 286Q826 304 860 318L860 430Z"/>
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

fn f(v: f64) -> String {
    coord(v)
}

/// A `<text>` at (`x`, `y`) with `attrs` (already markup), holding `text` (escaped here).
fn text(out: &mut String, x: f64, y: f64, attrs: &str, content: &str) {
    let _ = write!(out, r#"<text x="{}" y="{}" {attrs}>{}</text>"#, f(x), f(y), esc(content));
}

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

/// The parts of the picture, each set as one group's markup.
#[derive(Clone, Copy)]
enum Part {
    /// The words painted on the scene: the gate's lintel, the granary, the ditch.
    Labels,
    Tablet,
    Clasp,
    Wick,
    Granary,
    Borrowers,
    Errands,
}

/// The markup of `part` now, in the current language (reactive: it tracks what it reads).
fn part_html(app: AppState, part: Part) -> impl Fn() -> String + Copy + Send + Sync + 'static {
    move || {
        let lang = app.lang.get();
        app.cast.with(|cast| {
            app.lantern.with(|l| match part {
                Part::Labels => labels_svg(lang),
                Part::Tablet => tablet_svg(&l.tablet, cast, lang),
                Part::Clasp => clasp_svg(&l.clasp, cast, lang),
                Part::Wick => wick_svg(&l.wick, l.tablet.renewals, lang),
                Part::Granary => granary_svg(&l.keeper, &l.granary, cast, lang),
                Part::Borrowers => app.highlight.with(|h| borrowers_svg(&l.borrowers, h.as_ref(), cast, lang)),
                Part::Errands => {
                    let ids: Vec<String> = l.borrowers.iter().map(|b| b.id.clone()).collect();
                    errands_svg(&l.errands, &ids, lang)
                }
            })
        })
    }
}

#[component]
pub fn LanternScene(app: AppState) -> impl IntoView {
    let part = move |p| part_html(app, p);
    view! {
        <div class="scene lantern-scene" data-testid="scene-lantern">
            <svg
                viewBox="0 0 1200 640"
                role="img"
                aria-label=tr(app, Ui::SceneLabel)
                preserveAspectRatio="xMidYMid meet"
            >
                <g inner_html=STATIC_ART></g>
                <g inner_html=part(Part::Labels)></g>
                <g class="gate" inner_html=part(Part::Tablet)></g>
                <g inner_html=part(Part::Clasp)></g>
                <g inner_html=part(Part::Wick)></g>
                <g class="granary" data-highlight=lit(app, |h| h.resource) inner_html=part(Part::Granary)></g>
                <g class="borrowers" inner_html=part(Part::Borrowers)></g>
                <g class="travels" inner_html=part(Part::Errands)></g>
                {super::lesson::pointers(app, &element_place)}
            </svg>
            {super::hands::hands(app, &element_place, Element::Store)}
        </div>
    }
}

/// Where a lesson's element is in the lantern's scene (view-box units), for the pointing
/// overlay: the tablet's parts are labelled to the gate's right.
fn element_place(app: AppState, e: &Element) -> Option<super::lesson::Place> {
    Some(match e {
        Element::Holder => ((134.0, 110.0, 168.0, 56.0), Some((352.0, 132.0))),
        Element::Ttl => ((134.0, 166.0, 168.0, 30.0), Some((352.0, 186.0))),
        Element::Token => ((134.0, 196.0, 168.0, 80.0), Some((352.0, 240.0))),
        Element::Clasp => ((178.0, 268.0, 80.0, 94.0), Some((352.0, 300.0))),
        Element::Renewals => ((36.0, 432.0, 276.0, 32.0), Some((352.0, 456.0))),
        Element::Store => ((126.0, 102.0, 184.0, 180.0), Some((352.0, 84.0))),
        Element::Resource => ((784.0, 226.0, 214.0, 240.0), Some((790.0, 216.0))),
        Element::Outcome => ((960.0, 160.0, 240.0, 478.0), Some((964.0, 150.0))),
        // The lantern itself: on its pillar, or with the borrower whose wick is lit.
        Element::Shared => {
            let (carrier, count) = app.lantern.with_untracked(|l| {
                let carrier = (!l.tablet.lantern_on_pillar()).then(|| l.borrowers.iter().position(|b| b.lit)).flatten();
                (carrier, l.borrowers.len())
            });
            match carrier {
                Some(index) => {
                    let x = borrower_x(index, count);
                    ((x - 64.0, 286.0, 128.0, 196.0), Some((x - 60.0, 278.0)))
                }
                None => ((80.0, 124.0, 56.0, 76.0), Some((352.0, 150.0))),
            }
        }
        Element::Node(id) => {
            let (index, count) =
                app.lantern.with_untracked(|l| (l.borrowers.iter().position(|b| &b.id == id), l.borrowers.len()));
            let x = borrower_x(index?, count);
            ((x - 64.0, 286.0, 128.0, 196.0), None)
        }
        _ => return None,
    })
}

/// The words painted on the scene itself: the gate's lintel, the granary, the ditch.
fn labels_svg(lang: Lang) -> String {
    let mut out = String::new();
    text(&mut out, 174.0, 88.0, r#"class="roof-label" text-anchor="middle""#, Ui::LanternTownGate.text(lang));
    text(&mut out, 1084.0, 205.0, r#"class="granary-label" text-anchor="middle""#, Ui::Granary.text(lang));
    text(&mut out, 1190.0, 632.0, r#"class="ditch-label" text-anchor="end""#, Ui::Ditch.text(lang));
    out
}

/// The tablet's face (holder or free, return hour, wick number) and the lantern on its pillar.
fn tablet_svg(t: &Tablet, cast: &Cast, lang: Lang) -> String {
    let mut out = String::new();
    if t.lantern_on_pillar() {
        out.push_str(PILLAR_LANTERN);
    } else {
        out.push_str(r#"<circle cx="108" cy="138" r="4" class="empty-hook"/>"#);
    }
    let holder = t.holder.as_deref().unwrap_or("");
    let (name, class) = match (&t.holder, t.face) {
        (Some(id), Face::Taken) => (cast.name(id, lang), "tablet-name"),
        _ => (Ui::TabletFree.text(lang).to_owned(), "tablet-name free"),
    };
    // A long name is written smaller, and cut only if it still does not fit.
    let size = fit_font(&name, 152.0, 26.0, 15.0);
    let name = fit(&name, 152.0, size);
    let attrs = format!(
        r#"class="{class}" text-anchor="middle" font-size="{}" data-testid="tablet-holder" data-state="{}" data-node="{}""#,
        f(size),
        t.face.as_str(),
        esc(holder)
    );
    let _ = write!(out, r#"<g data-testid="tablet" data-state="{}">"#, t.face.as_str());
    text(&mut out, 218.0, 146.0, &attrs, &name);
    // Once the hour has passed the name is still written, struck through: it counts as free.
    if let (Some(id), Face::HourPassed) = (&t.holder, t.face) {
        text(
            &mut out,
            218.0,
            166.0,
            r#"class="tablet-struck" text-anchor="middle""#,
            &fit(&cast.name(id, lang), 130.0, 15.0),
        );
    }
    let back = match (t.face, t.return_ms) {
        (Face::Taken, Some(ms)) => fill(Ui::TabletReturnBy.text(lang), &[("s", &seconds(ms))]),
        (Face::HourPassed, _) => Ui::TabletHourPassed.text(lang).to_owned(),
        _ if !t.ever_borrowed => Ui::TabletNotYet.text(lang).to_owned(),
        _ => String::new(),
    };
    let attrs = format!(
        r#"class="tablet-return" text-anchor="middle" font-size="{}" data-testid="tablet-return""#,
        f(fit_font(&back, 150.0, 16.0, 10.0))
    );
    text(&mut out, 218.0, 186.0, &attrs, &back);
    if let Some(n) = t.wick_number {
        let label = fill(Ui::WickNumber.text(lang), &[("n", &n.to_string())]);
        text(&mut out, 218.0, 214.0, r#"class="tablet-small" text-anchor="middle""#, &label);
    }
    let number = t.wick_number.map_or_else(|| "–".to_owned(), |n| n.to_string());
    let attrs = format!(
        r#"class="tablet-token" text-anchor="middle" font-size="{}" data-testid="tablet-token""#,
        f(fit_font(&number, 130.0, 54.0, 16.0))
    );
    text(&mut out, 218.0, 264.0, &attrs, &number);
    out.push_str("</g>");
    out
}

/// The brass clasp: its shackle latched or open, and who was a step too late.
fn clasp_svg(c: &Clasp, cast: &Cast, lang: Lang) -> String {
    let mut out = String::new();
    let (state, label, turn) = if c.latched {
        ("latched", Ui::ClaspLatched, "")
    } else {
        ("open", Ui::ClaspOpen, r#" transform="translate(0,-10) rotate(-28 232 300)""#)
    };
    let _ = write!(
        out,
        r#"<g class="clasp {state}" data-testid="clasp" data-state="{state}" data-by="{}"><path d="M204 300L204 288A14 14 0 0 1 232 288L232 300" class="shackle"{turn}/>"#,
        esc(c.by.as_deref().unwrap_or(""))
    );
    text(&mut out, 218.0, 352.0, r#"class="clasp-label" text-anchor="middle""#, label.text(lang));
    if let Some(t) = &c.too_late {
        let line = fill(Ui::ClaspTooLate.text(lang), &[("name", &cast.name(&t.node, lang))]);
        let attrs = format!(
            r#"class="too-late" text-anchor="middle" font-size="{}" data-testid="clasp-too-late" data-node="{}""#,
            f(fit_font(&line, 270.0, 16.0, 10.0)),
            esc(&t.node)
        );
        text(&mut out, 174.0, 372.0, &attrs, &line);
    }
    out.push_str("</g>");
    out
}

/// The timed wick: a fuse burning from its right end; what is left is the lease's remaining time
/// on the coordinator's clock. It flares when lit or renewed in person.
fn wick_svg(w: &Wick, renewals: u32, lang: Lang) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<g class="wick" data-testid="wick" data-state="{}" data-left-ms="{}">"#,
        w.state.as_str(),
        w.remaining_ms
    );
    let end = FUSE_X0 + (FUSE_X1 - FUSE_X0) * w.left;
    if w.state == WickState::Burning {
        let _ = write!(
            out,
            r#"<line x1="{x0}" y1="{y}" x2="{}" y2="{y}" class="fuse"/><g transform="translate({},{y}) scale({})"><circle r="16" fill="url(#glow)"/><path d="M0 -13Q7 -4 0 4Q-7 -4 0 -13Z" class="flame"/></g>"#,
            f(end),
            f(end),
            f(1.0 + 0.6 * w.flare),
            x0 = f(FUSE_X0),
            y = f(FUSE_Y),
        );
    }
    let (label, class) = match w.state {
        WickState::Burning => (fill(Ui::WickLeft.text(lang), &[("s", &seconds(w.remaining_ms))]), "wick-label"),
        WickState::Out => (Ui::WickBurntOut.text(lang).to_owned(), "wick-label out"),
        WickState::Unlit => (Ui::WickUnlit.text(lang).to_owned(), "wick-label"),
    };
    text(&mut out, 174.0, 400.0, &format!(r#"class="{class}" text-anchor="middle""#), &label);
    let renewed = fill(Ui::RenewedInPerson.text(lang), &[("n", &renewals.to_string())]);
    text(&mut out, 174.0, 454.0, r#"class="renewals" text-anchor="middle""#, &renewed);
    out.push_str("</g>");
    out
}

/// The keeper (or his stool), his sign, his latest verdicts, the granary's last errand and the
/// ditch with whoever fell into it.
fn granary_svg(k: &Keeper, g: &Granary, cast: &Cast, lang: Lang) -> String {
    let mut out = String::new();
    let sign = if !k.on_duty {
        Ui::KeeperAway.text(lang).to_owned()
    } else if k.only_counts == 0 {
        Ui::KeeperNoNumber.text(lang).to_owned()
    } else {
        fill(Ui::KeeperOnlyCounts.text(lang), &[("n", &k.only_counts.to_string())])
    };
    let state = if k.on_duty { "on" } else { "off" };
    let attrs = format!(
        r#"class="sign-text" text-anchor="middle" font-size="{}" data-testid="keeper-sign" data-state="{state}""#,
        f(fit_font(&sign, 180.0, 28.0, 11.0))
    );
    text(&mut out, 890.0, if k.on_duty { 278.0 } else { 264.0 }, &attrs, &sign);
    if !k.on_duty {
        let second = Ui::KeeperLetsAll.text(lang);
        let attrs = format!(
            r#"class="sign-text small" text-anchor="middle" font-size="{}""#,
            f(fit_font(second, 180.0, 16.0, 9.0))
        );
        text(&mut out, 890.0, 290.0, &attrs, second);
    }
    for (age, v) in k.recent.iter().rev().enumerate() {
        verdict_tag(&mut out, v, age, cast, lang);
    }
    let _ = write!(out, r#"<g transform="translate(890,{})" data-testid="keeper" data-state="{state}">"#, f(LANE_Y));
    out.push_str(if k.on_duty { KEEPER } else { STOOL });
    text(
        &mut out,
        0.0,
        34.0,
        r#"class="name-plate" text-anchor="middle""#,
        &fit(Ui::GranaryKeeper.text(lang), 176.0, 18.0),
    );
    out.push_str("</g>");
    let status = match (&g.fall, &g.last_token) {
        (Some(_), _) => Ui::IntoTheDitch.text(lang).to_owned(),
        (None, Some(t)) => fit(&fill(Ui::GranaryLastErrand.text(lang), &[("n", t)]), 250.0, 19.0),
        (None, None) => Ui::GranaryIdle.text(lang).to_owned(),
    };
    let class = if g.fall.is_some() { "granary-status bad" } else { "granary-status" };
    text(
        &mut out,
        1190.0,
        520.0,
        &format!(r#"class="{class}" text-anchor="end" data-testid="granary-status""#),
        &status,
    );
    ditch_svg(&mut out, g.fall.as_ref(), cast, lang);
    out
}

/// One judged errand's tag on the keeper's rope; `age` 0 is the newest (nearest the door).
fn verdict_tag(out: &mut String, v: &Verdict, age: usize, cast: &Cast, lang: Lang) {
    let x = TAG_X0 + age as f64 * TAG_STEP;
    let (word, class) = match v.outcome {
        WriteOutcome::Accepted => (Ui::LetThrough, "verdict obeyed"),
        WriteOutcome::Duplicate => (Ui::AlreadyDone, "verdict duplicate"),
        WriteOutcome::RejectedStale | WriteOutcome::RejectedInvalid | WriteOutcome::RejectedForeignLock => {
            (Ui::TurnedBack, "verdict void")
        }
    };
    let who = match &v.from {
        Some(id) => cast.name(id, lang),
        None => Ui::Stranger.text(lang).to_owned(),
    };
    let _ = write!(
        out,
        r#"<g class="{class}" opacity="{}" data-outcome="{}" transform="translate({},236)"><line x1="24" y1="0" x2="24" y2="8" class="tag-string"/><rect x="0" y="8" width="48" height="36" rx="4" class="cloth"/>"#,
        if age == 0 { "1" } else { "0.8" },
        outcome_name(v.outcome),
        f(x)
    );
    if matches!(
        v.outcome,
        WriteOutcome::RejectedStale | WriteOutcome::RejectedInvalid | WriteOutcome::RejectedForeignLock
    ) {
        out.push_str(
            r#"<g class="cross"><line x1="-3" y1="6" x2="51" y2="46"/><line x1="51" y1="6" x2="-3" y2="46"/></g>"#,
        );
    }
    let attrs =
        format!(r#"class="flag-number" text-anchor="middle" font-size="{}""#, f(fit_font(&v.token, 40.0, 22.0, 9.0)));
    text(out, 24.0, 33.0, &attrs, &v.token);
    // Fit each word to less than the gap between tags, so neighbours never run together.
    text(out, 24.0, 62.0, r#"class="verdict-word" text-anchor="middle""#, &fit(word.text(lang), 54.0, 12.0));
    text(out, 24.0, 78.0, r#"class="verdict-who" text-anchor="middle""#, &fit(&who, 58.0, 12.0));
    out.push_str("</g>");
}

/// Whoever fell into the ditch, and why.
fn ditch_svg(out: &mut String, fall: Option<&Fall>, cast: &Cast, lang: Lang) {
    let state = if fall.is_some() { "fallen" } else { "clear" };
    let _ = write!(out, r#"<g class="ditch {state}" data-testid="ditch" data-state="{state}">"#);
    if let Some(a) = fall {
        let who = match &a.from {
            Some(id) => cast.name(id, lang),
            None => Ui::Stranger.text(lang).to_owned(),
        };
        out.push_str(r##"<g class="fallen-borrower" transform="translate(1010,590)"><ellipse rx="46" ry="9" class="splash"/><path d="M-10 -6L-26 -30M10 -6L26 -32" class="limb"/><circle cy="-14" r="11" fill="#f0c9a0" stroke="#1e2236" stroke-width="2"/>"##);
        text(out, -70.0, -2.0, r#"class="ditch-who" text-anchor="end""#, &fit(&who, 160.0, 16.0));
        out.push_str("</g>");
        let why = fill(Ui::IntoTheDitchWhy.text(lang), &[("old", &a.token.to_string()), ("new", &a.newer.to_string())]);
        text(out, 1190.0, 546.0, r#"class="ditch-why" text-anchor="end""#, &why);
    }
    out.push_str("</g>");
}

/// Every borrower on their spot along the lane.
/// The borrowers; `lit` is what the violation under the pointer involves.
fn borrowers_svg(borrowers: &[Borrower], lit: Option<&Highlight>, cast: &Cast, lang: Lang) -> String {
    let mut out = String::new();
    let count = borrowers.len();
    for (index, b) in borrowers.iter().enumerate() {
        let highlight = if lit.is_some_and(|h| h.lights_node(&b.id)) { r#" data-highlight="true""# } else { "" };
        let _ = write!(
            out,
            r#"<g class="borrower"{highlight} data-testid="borrower-{id}" data-state="{}" data-role="{}" data-lost="{}" data-lantern="{}" data-too-late="{}" transform="translate({},{})">"#,
            b.state(),
            b.role.as_str(),
            b.lost,
            b.lantern.map(|n| n.to_string()).unwrap_or_default(),
            b.too_late,
            f(borrower_x(index, count)),
            f(LANE_Y),
            id = esc(&b.id),
        );
        figure(&mut out, b, coat_colour(index), lang);
        if b.lost {
            out.push_str(r#"<g class="dark-lanes"><ellipse cx="-6" cy="-66" rx="46" ry="34"/><ellipse cx="20" cy="-34" rx="40" ry="30"/><ellipse cx="-10" cy="-104" rx="34" ry="24"/></g>"#);
        }
        text(
            &mut out,
            0.0,
            34.0,
            r#"class="name-plate" text-anchor="middle""#,
            &fit(&cast.name(&b.id, lang), name_room(count), 20.0),
        );
        out.push_str("</g>");
    }
    out
}

/// A lantern carrying wick number `n`, lit or dead; `x`, `y` its glass's top-left corner.
fn small_lantern(out: &mut String, n: u64, lit: bool, x: f64, y: f64) {
    let label = n.to_string();
    let class = if lit { "hand-lantern lit" } else { "hand-lantern dead" };
    let _ = write!(out, r#"<g class="{class}" transform="translate({},{})">"#, f(x), f(y));
    if lit {
        out.push_str(r#"<circle cx="15" cy="18" r="44" fill="url(#glow)"/>"#);
    }
    out.push_str(r#"<rect width="30" height="36" rx="5" class="lantern-glass"/>"#);
    let attrs =
        format!(r#"class="lantern-number" text-anchor="middle" font-size="{}""#, f(fit_font(&label, 26.0, 16.0, 7.0)));
    text(out, 15.0, 24.0, &attrs, &label);
    out.push_str("</g>");
}

/// One borrower in their state (local coordinates: feet at the origin).
fn figure(out: &mut String, b: &Borrower, coat: &str, lang: Lang) {
    let body = |out: &mut String, opacity: &str| {
        let _ = write!(
            out,
            r##"<g opacity="{opacity}"><path d="M-6 0L-3 -26M6 0L3 -26M9 -54L12 -52" class="limb"/><rect x="-13" y="-64" width="26" height="40" rx="9" fill="{coat}" stroke="#1e2236" stroke-width="2"/><circle cx="0" cy="-76" r="12" fill="#f0c9a0" stroke="#1e2236" stroke-width="2"/><path d="M-12 -82Q0 -96 12 -82Z" class="headscarf"/></g>"##
        );
    };
    match b.posture {
        Posture::Hurt => {
            // Sitting on the flagstones, holding a twisted ankle.
            let _ = write!(
                out,
                r##"<g class="hurt"><g opacity="0.8"><path d="M-4 -6L26 -4M-4 -2L24 2M2 -30L22 -6" class="limb"/><rect x="-18" y="-44" width="26" height="40" rx="9" fill="{coat}" stroke="#1e2236" stroke-width="2"/><circle cx="-5" cy="-56" r="12" fill="#f0c9a0" stroke="#1e2236" stroke-width="2"/></g><path d="M28 -12l4 6l7 -2l-4 6l4 6l-7 -2l-4 6l-1 -7l-7 -2l7 -3Z" class="ankle-star"/></g>"##
            );
        }
        Posture::Dozing => {
            out.push_str(r#"<g class="dozing"><g transform="rotate(-72)">"#);
            body(out, "1");
            out.push_str("</g>");
            if let Some(n) = b.lantern.or(b.prepared) {
                small_lantern(out, n, b.lit, 10.0, -36.0);
            }
            text(out, -64.0, -44.0, r#"class="snore""#, Ui::Snore.text(lang));
            out.push_str("</g>");
        }
        Posture::Afoot => {
            out.push_str(r#"<g class="afoot">"#);
            if let Some(n) = b.lantern {
                out.push_str(r#"<path d="M12 -52L30 -104L30 -96" class="pole"/>"#);
                small_lantern(out, n, b.lit, 15.0, -96.0);
            }
            body(out, "1");
            out.push_str("</g>");
        }
        Posture::NotYet => {
            out.push_str(r#"<g class="not-yet">"#);
            body(out, "0.4");
            out.push_str("</g>");
        }
    }
}

/// Where an errand is drawn now.
fn place(e: &Errand, borrowers: &[String]) -> Option<(f64, f64)> {
    let n = borrowers.len();
    let at = |node: &str| borrowers.iter().position(|b| b == node).map(|i| borrower_x(i, n));
    let (a, b, c) = match &e.way {
        Way::ToTablet { node } => {
            let x = at(node)?;
            ((x - 20.0, LANE_Y - 110.0), TABLET_EDGE, ((x + TABLET_EDGE.0) / 2.0, 120.0))
        }
        Way::FromTablet { node } => {
            let x = at(node)?;
            (TABLET_EDGE, (x - 20.0, LANE_Y - 110.0), ((x + TABLET_EDGE.0) / 2.0, 140.0))
        }
        Way::ToKeeper { node: Some(node) } => {
            let x = at(node)? + 30.0;
            ((x, LANE_Y - 110.0), KEEPER_HAND, ((x + KEEPER_HAND.0) / 2.0, 250.0))
        }
        Way::ToKeeper { node: None } => (OUTSIDE, KEEPER_HAND, (1080.0, 160.0)),
    };
    Some(bezier(a, c, b, e.progress))
}

/// Requests to and from the tablet (slips), errands to the keeper (small lit lanterns with their
/// wick number), each as far along its way as its latency says.
fn errands_svg(errands: &[Errand], borrowers: &[String], lang: Lang) -> String {
    let mut out = String::new();
    for e in errands {
        let Some((x, y)) = place(e, borrowers) else { continue };
        let (title, kind) = match e.kind {
            MessageKind::AcquireRequest => (Ui::LanternMsgAcquire, "acquire-request"),
            MessageKind::AcquireReply => (Ui::LanternMsgAcquireReply, "acquire-reply"),
            MessageKind::RenewRequest => (Ui::LanternMsgRenew, "renew-request"),
            MessageKind::RenewReply => (Ui::LanternMsgRenewReply, "renew-reply"),
            MessageKind::Write => (Ui::LanternMsgWrite, "write"),
            MessageKind::ReleaseRequest => (Ui::LanternMsgRelease, "release-request"),
        };
        let label = match (e.kind, &e.token) {
            (MessageKind::AcquireRequest, _) => "?".to_owned(),
            (MessageKind::AcquireReply, None) => "✗".to_owned(),
            (_, Some(t)) => t.clone(),
            (_, None) => String::new(),
        };
        let reply = matches!(e.kind, MessageKind::AcquireReply | MessageKind::RenewReply);
        let class = match (e.kind, reply) {
            (MessageKind::Write, _) => "in-flight errand",
            (_, true) => "in-flight slip reply",
            (_, false) => "in-flight slip",
        };
        let _ = write!(
            out,
            r#"<g class="{class}" data-kind="{kind}" transform="translate({},{})"><title>{}</title>"#,
            f(x),
            f(y),
            esc(title.text(lang))
        );
        if e.kind == MessageKind::Write {
            out.push_str(r#"<circle r="24" fill="url(#glow)"/><rect x="-14" y="-17" width="28" height="32" rx="5" class="lantern-glass"/>"#);
            let attrs = format!(
                r#"class="lantern-number" text-anchor="middle" font-size="{}""#,
                f(fit_font(&label, 24.0, 15.0, 7.0))
            );
            text(&mut out, 0.0, 5.0, &attrs, &label);
        } else {
            out.push_str(r#"<rect x="-17" y="-12" width="34" height="24" rx="3"/>"#);
            let attrs = format!(r#"text-anchor="middle" font-size="{}""#, f(fit_font(&label, 28.0, 16.0, 8.0)));
            text(&mut out, 0.0, 6.0, &attrs, &label);
        }
        out.push_str("</g>");
    }
    out
}
