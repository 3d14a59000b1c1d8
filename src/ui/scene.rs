//! The harbor, drawn in SVG from [`Harbor`](crate::story::harbor::Harbor): the dockmaster's hut
//! with the plaque, the hourglass and the marks on the wall; the breakwater with one
//! flag-bearer per node; the flag-verifier at its end; the boat in the narrow channel. Slips and
//! flags in flight move as far along their paths as the engine's latency says.
//!
//! Coordinates are in a fixed 1200 × 640 view box; the SVG scales to its column.

use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;

use crate::scenario::lesson::Element;

use crate::engine::MessageKind;
use crate::engine::WriteOutcome;
use crate::story::harbor::{Bearer, Posture, Route, Travel, Verdict};
use crate::story::i18n::Ui;
use crate::story::{fill, Lang};

use super::state::AppState;
use super::{coord, lit, seconds, tr};

const PIER_TOP: f64 = 430.0;
/// Where the flag-bearers may stand along the breakwater.
const BEARERS_FROM: f64 = 350.0;
const BEARERS_TO: f64 = 800.0;
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

const COATS: [&str; 8] = ["#b5523b", "#3d6b8c", "#6f7f2f", "#8c5a8c", "#c0872b", "#3f7f6f", "#9a4f2d", "#5a5a8c"];

/// The coat colour of the flag-bearer at `index` (shared with his card).
pub(crate) fn coat_colour(index: usize) -> &'static str {
    COATS.get(index % COATS.len()).copied().unwrap_or("#b5523b")
}

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

/// Rough width of `text` at `font` px: CJK and other wide characters count 1 em, ASCII 0.64 em
/// (bold sans, generously).
fn text_width(text: &str, font: f64) -> f64 {
    text.chars().map(|c| if c.is_ascii() { 0.64 } else { 1.0 }).sum::<f64>() * font
}

/// `text` cut with `…` so that it fits `max_width` at `font` px.
pub(crate) fn fit(text: &str, max_width: f64, font: f64) -> String {
    if text_width(text, font) <= max_width {
        return text.to_owned();
    }
    let mut out = String::new();
    for c in text.chars() {
        let mut next = out.clone();
        next.push(c);
        next.push('…');
        if text_width(&next, font) > max_width {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// The largest font up to `max` (and at least `min`) at which `text` fits `max_width`.
pub(crate) fn fit_font(text: &str, max_width: f64, max: f64, min: f64) -> f64 {
    let at_one = text_width(text, 1.0);
    if at_one <= 0.0 {
        return max;
    }
    (max_width / at_one).clamp(min, max)
}

/// A point on the quadratic Bézier from `a` via `c` to `b` at `t`.
pub(crate) fn bezier(a: (f64, f64), c: (f64, f64), b: (f64, f64), t: f64) -> (f64, f64) {
    let t = t.clamp(0.0, 1.0);
    let u = 1.0 - t;
    (u * u * a.0 + 2.0 * u * t * c.0 + t * t * b.0, u * u * a.1 + 2.0 * u * t * c.1 + t * t * b.1)
}

fn f(v: f64) -> String {
    coord(v)
}

#[component]
pub fn Scene(app: AppState) -> impl IntoView {
    view! {
        <div class="scene" data-testid="scene-harbor">
            <svg
                viewBox="0 0 1200 640"
                role="img"
                aria-label=tr(app, Ui::SceneLabel)
                preserveAspectRatio="xMidYMid meet"
            >
                <Backdrop />
                <Hut app />
                <Breakwater app />
                <Channel app />
                <VerifierView app />
                <BearersView app />
                <Travels app />
                {super::lesson::pointers(app, &element_place)}
            </svg>
            {super::hands::hands(app, &element_place, Element::Ttl)}
        </div>
    }
}

/// Where a lesson's element is in the harbor (view-box units), for the pointing overlay: the
/// hut's parts are labelled to its right, in the sky.
fn element_place(app: AppState, e: &Element) -> Option<super::lesson::Place> {
    Some(match e {
        Element::Holder => ((30.0, 100.0, 160.0, 52.0), Some((330.0, 118.0))),
        Element::Token => ((30.0, 150.0, 160.0, 96.0), Some((330.0, 172.0))),
        Element::Ttl => ((194.0, 98.0, 82.0, 172.0), Some((330.0, 226.0))),
        Element::Renewals => ((28.0, 260.0, 252.0, 72.0), Some((330.0, 296.0))),
        Element::Store | Element::Clasp => ((6.0, 22.0, 300.0, 316.0), Some((330.0, 64.0))),
        Element::Resource => ((864.0, 222.0, 334.0, 236.0), Some((870.0, 212.0))),
        Element::Outcome | Element::Shared => ((986.0, 470.0, 212.0, 168.0), Some((740.0, 626.0))),
        Element::Node(id) => {
            let (index, count) =
                app.harbor.with_untracked(|h| (h.bearers.iter().position(|b| &b.id == id), h.bearers.len()));
            let x = bearer_x(index?, count);
            ((x - 56.0, 262.0, 112.0, 212.0), None)
        }
        _ => return None,
    })
}

/// Sky, sea, the shore: never changes. Their colours are in the stylesheet (`.backdrop`), which
/// gives the dark theme a night sky, a moon and a darker sea.
#[component]
fn Backdrop() -> impl IntoView {
    view! {
        <defs>
            <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
                <stop offset="0" class="sky-top" />
                <stop offset="1" class="sky-low" />
            </linearGradient>
            <linearGradient id="sea" x1="0" y1="0" x2="0" y2="1">
                <stop offset="0" class="sea-top" />
                <stop offset="1" class="sea-low" />
            </linearGradient>
        </defs>
        <g class="backdrop">
            <rect x="0" y="0" width="1200" height="640" fill="url(#sky)" />
            <circle class="sun" cx="1080" cy="110" r="46" />
            <path class="birds" d="M640 120 q 30 -22 60 0 q 30 -22 60 0" />
            <rect x="0" y="300" width="1200" height="340" fill="url(#sea)" />
            <g class="waves" fill="none" stroke-width="3" stroke-linecap="round" opacity="0.55">
                <path d="M330 330 q 20 -10 40 0 t 40 0" />
                <path d="M620 360 q 20 -10 40 0 t 40 0" />
                <path d="M860 320 q 20 -10 40 0 t 40 0" />
                <path d="M420 560 q 20 -10 40 0 t 40 0" />
                <path d="M700 600 q 20 -10 40 0 t 40 0" />
                <path d="M560 530 q 20 -10 40 0 t 40 0" />
            </g>
            // The shore under the hut.
            <path class="shore" d="M0 298 L 300 326 L 300 640 L 0 640 Z" />
            <path class="shore-edge" d="M0 298 L 300 326" stroke-width="4" />
        </g>
    }
}

/// The dockmaster's hut: plaque, hourglass, marks on the wall.
#[component]
fn Hut(app: AppState) -> impl IntoView {
    let harbor = app.harbor;
    let plaque = Memo::new(move |_| harbor.with(|h| h.plaque.clone()));
    let glass = Memo::new(move |_| harbor.with(|h| h.hourglass.clone()));
    let marks = Memo::new(move |_| harbor.with(|h| h.marks));

    let holder_name = move || {
        let lang = app.lang.get();
        plaque.with(|p| match &p.holder {
            Some(id) => fit(&app.cast.with(|c| c.name(id, lang)), 140.0, 24.0),
            None => Ui::PlaqueNobody.text(lang).to_owned(),
        })
    };
    let token_text = move || plaque.with(|p| p.token.map_or_else(|| "–".to_owned(), |t| t.to_string()));
    let token_font = move || f(fit_font(&token_text(), 130.0, 66.0, 18.0));

    // Sand in the top bulb fills up from the neck; its area goes with the square of its height.
    let top_sand = move || {
        glass.with(|g| {
            let h = 54.0 * g.sand.sqrt();
            let w = 26.0 * h / 54.0;
            format!("M{} {} L{} {} L234 168 Z", f(234.0 - w), f(168.0 - h), f(234.0 + w), f(168.0 - h))
        })
    };
    let bottom_heap = move || glass.with(|g| 56.0 * (1.0 - g.sand.sqrt()));
    let bottom_sand = move || {
        let hb = bottom_heap();
        let w = 26.0 * (1.0 - hb / 56.0);
        format!("M208 228 L260 228 L{} {} L{} {} Z", f(234.0 + w), f(228.0 - hb), f(234.0 - w), f(228.0 - hb))
    };
    let running = move || glass.with(|g| g.sand > 0.0);
    // Turning over follows virtual time: half a turn per flip, around the glass's centre.
    let glass_turn = move || glass.with(|g| format!("rotate({} 234 170)", f(180.0 * g.turning)));
    let glass_label = move || {
        let lang = app.lang.get();
        let expired = plaque.with(|p| p.expired || (p.holder.is_some() && !running()));
        glass.with(|g| {
            if g.sand > 0.0 {
                fill(Ui::SecondsValue.text(lang), &[("s", &seconds(g.remaining_ms))])
            } else if expired {
                Ui::SandOut.text(lang).to_owned()
            } else {
                Ui::NotTurned.text(lang).to_owned()
            }
        })
    };
    let glass_label_class = move || {
        if running() {
            "glass-label"
        } else if plaque.with(|p| p.holder.is_some()) {
            "glass-label out"
        } else {
            "glass-label idle"
        }
    };
    let tally = move || {
        let n = marks.get().min(20);
        (0..n)
            .map(|i| {
                let group = i / 5;
                let k = i % 5;
                let gx = 48.0 + group as f64 * 52.0;
                // Four upright strokes, the fifth across them.
                let (x1, y1, x2, y2) = if k < 4 {
                    let x = gx + k as f64 * 9.0;
                    (x, 270.0, x, 298.0)
                } else {
                    (gx - 5.0, 294.0, gx + 32.0, 274.0)
                };
                view! { <line x1=f(x1) y1=f(y1) x2=f(x2) y2=f(y2) class="mark" /> }
            })
            .collect::<Vec<_>>()
    };
    let marks_label = move || fill(Ui::MarksOnWall.text(app.lang.get()), &[("n", &marks.get().to_string())]);

    view! {
        <g class="hut">
            <rect x="22" y="88" width="266" height="244" fill="#b98a57" stroke="#6b4a2b" stroke-width="4" />
            <path d="M8 92 L155 26 L302 92 Z" fill="#8a4b32" stroke="#5a3020" stroke-width="4" stroke-linejoin="round" />
            <text x="155" y="80" class="roof-label" text-anchor="middle">{tr(app, Ui::Dockmaster)}</text>
            // The plaque.
            <rect x="34" y="102" width="152" height="140" rx="10" fill="#edd29c" stroke="#6b4a2b" stroke-width="4" />
            <text
                x="110"
                y="136"
                class="plaque-name"
                text-anchor="middle"
                data-testid="plaque-holder"
                data-node=move || plaque.with(|p| p.holder.clone().unwrap_or_default())
            >
                {holder_name}
            </text>
            <line x1="48" y1="148" x2="172" y2="148" stroke="#b08a55" stroke-width="2" />
            <text
                x="110"
                y="222"
                class="plaque-token"
                text-anchor="middle"
                font-size=token_font
                data-testid="plaque-token"
            >
                {token_text}
            </text>
            // The hourglass.
            <g class="hourglass" transform=glass_turn>
                <rect x="202" y="104" width="64" height="8" rx="3" fill="#6b4a2b" />
                <rect x="202" y="228" width="64" height="8" rx="3" fill="#6b4a2b" />
                <path d="M208 112 L260 112 L236 168 L236 172 L260 228 L208 228 L232 172 L232 168 Z" fill="#f4efe4" stroke="#6b4a2b" stroke-width="3" stroke-linejoin="round" />
                <path d=top_sand fill="#d9a441" />
                <path d=bottom_sand fill="#d9a441" />
                <Show when=running>
                    <line x1="234" y1="168" x2="234" y2=move || f(228.0 - bottom_heap()) stroke="#d9a441" stroke-width="2.5" />
                </Show>
            </g>
            <text x="234" y="260" class=glass_label_class text-anchor="middle">{glass_label}</text>
            // The wall with the marks of this term's renewals.
            <rect x="34" y="264" width="240" height="62" rx="6" fill="#cdb89a" stroke="#8f7a5c" stroke-width="2" />
            <g class="tally">{tally}</g>
            <text x="154" y="320" class="marks-label" text-anchor="middle">{marks_label}</text>
        </g>
    }
}

/// The breakwater, its rope and its name plates.
#[component]
fn Breakwater(app: AppState) -> impl IntoView {
    let harbor = app.harbor;
    let cut = Memo::new(move |_| harbor.with(|h| h.bearers.iter().map(|b| b.cut_off).collect::<Vec<_>>()));
    // The rope from the hut along the posts; a cut-off bearer's rope is broken on both sides.
    let rope = move || {
        cut.with(|cut| {
            let n = cut.len();
            let mut prev = (300.0, 416.0);
            let mut out = Vec::new();
            for i in 0..n {
                let post = (bearer_x(i, n) - 28.0, 416.0);
                let broken =
                    cut.get(i).copied().unwrap_or(false) || (i > 0 && cut.get(i - 1).copied().unwrap_or(false));
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
                let class = if broken { "rope broken" } else { "rope" };
                out.push(view! {
                    <path d=d class=class />
                    <rect x=f(post.0 - 3.0) y="410" width="6" height="22" fill="#6b4a2b" />
                });
                prev = post;
            }
            out
        })
    };
    let stones = (0..15)
        .map(|i| {
            let x = 300.0 + i as f64 * 46.0;
            view! { <line x1=f(x) y1="444" x2=f(x) y2="494" stroke="#766d61" stroke-width="2" /> }
        })
        .collect::<Vec<_>>();
    let _ = app;
    view! {
        <g class="breakwater">
            <path d="M296 430 L 992 430 Q 1004 430 1004 442 L 1004 494 L 296 494 Z" fill="#8f867a" stroke="#5e564c" stroke-width="3" />
            <rect x="296" y="430" width="708" height="14" fill="#a89f92" />
            <line x1="296" y1="468" x2="1004" y2="468" stroke="#766d61" stroke-width="2" />
            {stones}
            {rope}
        </g>
    }
}

/// The flag-bearers, each on his spot.
#[component]
fn BearersView(app: AppState) -> impl IntoView {
    let ids = Memo::new(move |_| {
        app.harbor.with(|h| {
            let n = h.bearers.len();
            h.bearers.iter().enumerate().map(|(i, b)| (i, n, b.id.clone())).collect::<Vec<_>>()
        })
    });
    view! {
        <g class="bearers">
            <For each=move || ids.get() key=|k| k.clone() let((index, count, id))>
                <BearerView app index count id />
            </For>
        </g>
    }
}

#[component]
fn BearerView(app: AppState, index: usize, count: usize, id: String) -> impl IntoView {
    let bearer = Memo::new(move |_| app.harbor.with(|h| h.bearers.get(index).cloned()));
    let x = bearer_x(index, count);
    let coat = coat_colour(index);
    let name = {
        let id = id.clone();
        move || fit(&app.cast.with(|c| c.name(&id, app.lang.get())), name_room(count), 20.0)
    };
    let figure = move || {
        let lang = app.lang.get();
        bearer.with(|b| b.as_ref().map(|b| figure(b, coat, lang)))
    };
    let fog = move || bearer.with(|b| b.as_ref().is_some_and(|b| b.cut_off));
    let role = move || bearer.with(|b| b.as_ref().map_or("candidate", |b| b.role.as_str()));
    let lit = lit(app, move |h| h.lights_node(&id));
    view! {
        <g class="bearer" data-role=role data-highlight=lit transform=format!("translate({},{})", f(x), f(PIER_TOP))>
            {figure}
            <Show when=fog>
                <g class="fog">
                    <ellipse cx="-8" cy="-70" rx="44" ry="30" />
                    <ellipse cx="18" cy="-40" rx="40" ry="32" />
                    <ellipse cx="0" cy="-100" rx="34" ry="26" />
                </g>
            </Show>
            <text x="0" y="34" class="name-plate" text-anchor="middle">{name}</text>
        </g>
    }
}

/// One flag-bearer in his state (local coordinates: feet at the origin).
fn figure(b: &Bearer, coat: &'static str, lang: Lang) -> impl IntoView {
    let body = move |opacity: &'static str| {
        view! {
            <g opacity=opacity>
                <line x1="-6" y1="0" x2="-3" y2="-26" class="limb" />
                <line x1="6" y1="0" x2="3" y2="-26" class="limb" />
                <rect x="-13" y="-64" width="26" height="40" rx="9" fill=coat stroke="#3b2f2a" stroke-width="2" />
                <circle cx="0" cy="-76" r="12" fill="#f0c9a0" stroke="#3b2f2a" stroke-width="2" />
                <ellipse cx="0" cy="-86" rx="17" ry="4.5" fill="#d8b25c" stroke="#3b2f2a" stroke-width="1.5" />
                <line x1="9" y1="-54" x2="16" y2="-62" class="limb" />
            </g>
        }
    };
    let flag_class = if b.stale { "flag stale" } else { "flag" };
    match b.posture {
        Posture::Gone => EitherOf3::A(view! {
            <g class="gone">
                <rect x="-5" y="-34" width="10" height="34" fill="#7a6a55" />
                <g opacity="0.35" fill="none" stroke="#3b2f2a" stroke-width="2" stroke-dasharray="4 4">
                    <rect x="-13" y="-64" width="26" height="40" rx="9" />
                    <circle cx="0" cy="-76" r="12" />
                </g>
            </g>
        }),
        Posture::Asleep => {
            let flag = b.prepared.or(b.flag).map(|n| {
                let label = n.to_string();
                let font = f(fit_font(&label, 34.0, 17.0, 8.0));
                view! {
                    <g class=flag_class>
                        <line x1="6" y1="-2" x2="50" y2="-14" class="pole" />
                        <rect x="14" y="-40" width="40" height="26" class="cloth" />
                        <text x="34" y="-21" class="flag-number" font-size=font text-anchor="middle">{label}</text>
                    </g>
                }
            });
            EitherOf3::B(view! {
                <g class="asleep">
                    <g transform="rotate(-72)">{body("1")}</g>
                    {flag}
                    <text x="-64" y="-44" class="snore">{Ui::Snore.text(lang)}</text>
                </g>
            })
        }
        Posture::Awake | Posture::NotYet => {
            let opacity = if b.posture == Posture::NotYet { "0.4" } else { "1" };
            let flag = match b.flag {
                Some(n) => {
                    let label = n.to_string();
                    let font = f(fit_font(&label, 52.0, 30.0, 12.0));
                    Either::Left(view! {
                        <g class=flag_class>
                            <line x1="16" y1="-16" x2="16" y2="-150" class="pole" />
                            <rect x="16" y="-150" width="60" height="42" class="cloth" />
                            <text x="46" y="-119" class="flag-number" font-size=font text-anchor="middle">{label}</text>
                        </g>
                    })
                }
                None => Either::Right(view! {
                    <g class="flag furled" opacity=opacity>
                        <line x1="16" y1="-16" x2="16" y2="-108" class="pole" />
                        <path d="M16 -106 L 26 -100 L 22 -70 L 16 -72 Z" class="cloth" />
                    </g>
                }),
            };
            EitherOf3::C(view! { <g class="awake">{flag}{body(opacity)}</g> })
        }
    }
}

/// The flag-verifier, his sign ("only 8 counts") and his latest verdicts.
#[component]
fn VerifierView(app: AppState) -> impl IntoView {
    let verifier = Memo::new(move |_| app.harbor.with(|h| h.verifier.clone()));
    let on_duty = move || verifier.with(|v| v.on_duty);
    let sign_line = move || {
        let lang = app.lang.get();
        verifier.with(|v| {
            if !v.on_duty {
                Ui::VerifierAway.text(lang).to_owned()
            } else if v.only_counts == 0 {
                Ui::NoNumberYet.text(lang).to_owned()
            } else {
                fill(Ui::OnlyCounts.text(lang), &[("n", &v.only_counts.to_string())])
            }
        })
    };
    let sign_font = move || f(fit_font(&sign_line(), 220.0, 32.0, 12.0));
    let second_line = move || {
        let lang = app.lang.get();
        if on_duty() {
            String::new()
        } else {
            Ui::EveryFlagObeyed.text(lang).to_owned()
        }
    };
    let second_font = move || f(fit_font(&second_line(), 220.0, 18.0, 10.0));
    let verdicts = move || {
        let lang = app.lang.get();
        verifier.with(|v| {
            v.recent
                .iter()
                .rev()
                .enumerate()
                .map(|(i, verdict)| verdict_flag(app, verdict, i, lang))
                .collect::<Vec<_>>()
        })
    };
    let lit = lit(app, |h| h.resource);
    view! {
        <g class="verifier" class:away=move || !on_duty() data-highlight=lit>
            // The sign on two posts.
            <line x1="884" y1="296" x2="884" y2="430" class="post" />
            <line x1="1104" y1="296" x2="1104" y2="430" class="post" />
            <rect x="874" y="230" width="240" height="70" rx="8" class="sign" />
            <text
                x="994"
                y=move || if on_duty() { "276" } else { "262" }
                class="sign-text"
                text-anchor="middle"
                font-size=sign_font
                data-testid="verifier-sign"
            >
                {sign_line}
            </text>
            <text x="994" y="288" class="sign-text small" text-anchor="middle" font-size=second_font>
                {second_line}
            </text>
            // The verdict line from his post to a piling.
            <line x1="956" y1="326" x2="1190" y2="326" class="verdict-line" />
            <line x1="1190" y1="316" x2="1190" y2="520" class="post" />
            {verdicts}
            // The man himself (or his empty stool).
            <g transform=format!("translate({},{})", f(VERIFIER_X), f(PIER_TOP))>
                <Show
                    when=on_duty
                    fallback=|| {
                        view! {
                            <g class="stool">
                                <rect x="-16" y="-30" width="32" height="6" fill="#6b4a2b" />
                                <line x1="-12" y1="-24" x2="-14" y2="0" class="limb" />
                                <line x1="12" y1="-24" x2="14" y2="0" class="limb" />
                            </g>
                        }
                    }
                >
                    <line x1="-6" y1="0" x2="-3" y2="-28" class="limb" />
                    <line x1="6" y1="0" x2="3" y2="-28" class="limb" />
                    <rect x="-15" y="-70" width="30" height="44" rx="8" fill="#2f4858" stroke="#1e2d38" stroke-width="2" />
                    <circle cx="0" cy="-82" r="13" fill="#f0c9a0" stroke="#3b2f2a" stroke-width="2" />
                    <rect x="-14" y="-100" width="28" height="10" rx="3" fill="#1e2d38" />
                    <rect x="-20" y="-58" width="22" height="28" rx="2" fill="#f4efe4" stroke="#3b2f2a" stroke-width="2" />
                    <line x1="12" y1="-62" x2="30" y2="-86" class="limb" />
                </Show>
                <text x="0" y="34" class="name-plate verifier-name" text-anchor="middle">
                    {move || fit(Ui::FlagVerifier.text(app.lang.get()), 150.0, 18.0)}
                </text>
            </g>
        </g>
    }
}

/// What a message in flight is, as the harbor and the diagram title it.
pub(crate) fn message_title(kind: MessageKind) -> Ui {
    match kind {
        MessageKind::AcquireRequest => Ui::MsgAcquireRequest,
        MessageKind::AcquireReply => Ui::MsgAcquireReply,
        MessageKind::RenewRequest => Ui::MsgRenewRequest,
        MessageKind::RenewReply => Ui::MsgRenewReply,
        MessageKind::Write => Ui::MsgWrite,
        MessageKind::ReleaseRequest => Ui::MsgReleaseRequest,
    }
}

pub(crate) fn outcome_name(o: WriteOutcome) -> &'static str {
    o.code()
}

/// One judged flag on the verdict line; `age` 0 is the newest (nearest the verifier).
fn verdict_flag(app: AppState, v: &Verdict, age: usize, lang: Lang) -> impl IntoView {
    let x = VERDICT_X0 + age as f64 * VERDICT_STEP;
    let font = f(fit_font(&v.token, 46.0, 24.0, 10.0));
    let (word, class) = match v.outcome {
        WriteOutcome::Accepted => (Ui::Obeyed, "verdict obeyed"),
        WriteOutcome::Duplicate => (Ui::AlreadyDone, "verdict duplicate"),
        WriteOutcome::RejectedStale | WriteOutcome::RejectedInvalid | WriteOutcome::RejectedForeignLock => {
            (Ui::Void, "verdict void")
        }
    };
    let who = match &v.from {
        Some(id) => app.cast.with_untracked(|c| c.name(id, lang)),
        None => Ui::Outside.text(lang).to_owned(),
    };
    let who = fit(&who, 70.0, 13.0);
    let voided = !v.obeyed() && v.outcome != WriteOutcome::Duplicate;
    let opacity = if age == 0 { "1" } else { "0.75" };
    view! {
        <g class=class opacity=opacity data-outcome=outcome_name(v.outcome) transform=format!("translate({},326)", f(x))>
            <rect x="0" y="4" width="54" height="38" class="cloth" />
            // The cross goes under the number: a voided flag must still show which number it carried.
            {voided.then(|| view! {
                <g class="cross">
                    <line x1="-4" y1="0" x2="58" y2="46" />
                    <line x1="58" y1="0" x2="-4" y2="46" />
                </g>
            })}
            <text x="27" y="31" class="flag-number" text-anchor="middle" font-size=font>{v.token.clone()}</text>
            <text x="27" y="64" class="verdict-word" text-anchor="middle">{fit(word.text(lang), 66.0, 14.0)}</text>
            <text x="27" y="82" class="verdict-who" text-anchor="middle">{who}</text>
        </g>
    }
}

/// The narrow channel, the rocks and the boat.
#[component]
fn Channel(app: AppState) -> impl IntoView {
    let boat = Memo::new(move |_| app.harbor.with(|h| h.boat.clone()));
    let aground = move || boat.with(|b| b.aground.is_some());
    let boat_transform = move || {
        if aground() {
            "translate(1128,560) rotate(-17)".to_owned()
        } else {
            format!("translate({},{})", f(BOAT_AT.0), f(BOAT_AT.1))
        }
    };
    let mast_flag = move || boat.with(|b| b.obeys_token.clone());
    let mast_font = move || f(fit_font(&mast_flag().unwrap_or_default(), 40.0, 20.0, 9.0));
    let status = move || {
        let lang = app.lang.get();
        boat.with(|b| match (&b.aground, &b.obeys_token) {
            (Some(_), _) => Ui::OnTheRocks.text(lang).to_owned(),
            (None, Some(t)) => fit(&fill(Ui::BoatObeys.text(lang), &[("n", t)]), 260.0, 20.0),
            (None, None) => Ui::BoatWaiting.text(lang).to_owned(),
        })
    };
    let why = move || {
        let lang = app.lang.get();
        boat.with(|b| {
            b.aground.as_ref().map(|a| {
                fill(Ui::OnTheRocksWhy.text(lang), &[("old", &a.token.to_string()), ("new", &a.newer.to_string())])
            })
        })
    };
    let lit = lit(app, |h| h.resource);
    view! {
        <g class="channel" class:wrecked=aground>
            // Channel buoys and the rocks beyond.
            <g class="buoy red"><rect x="1000" y="536" width="12" height="26" rx="3" /></g>
            <path d="M1120 640 L1128 586 L1150 560 L1172 566 L1186 540 L1200 548 L1200 640 Z" class="rock" />
            <path d="M1090 640 L1100 612 L1122 604 L1134 640 Z" class="rock" />
            <path d="M1150 560 L1160 570 L1172 566" class="rock-edge" />
            <text x="1045" y="632" class="channel-label" text-anchor="middle">{tr(app, Ui::Channel)}</text>
            <g class="boat" transform=boat_transform data-highlight=lit>
                <path d="M-62 -8 L62 -8 L46 22 L-46 22 Z" class="hull" />
                <line x1="0" y1="-8" x2="0" y2="-92" class="mast" />
                {move || mast_flag().map(|t| view! {
                    <g class="boat-flag">
                        <rect x="0" y="-92" width="44" height="28" />
                        <text x="22" y="-71" text-anchor="middle" font-size=mast_font()>{t}</text>
                    </g>
                })}
            </g>
            <text x="984" y="548" class="boat-status" class:bad=aground text-anchor="end" data-testid="boat-status">
                {status}
            </text>
            <text x="984" y="576" class="boat-why" text-anchor="end">{why}</text>
        </g>
    }
}

/// Slips to and from the dockmaster, flags to the verifier.
#[component]
fn Travels(app: AppState) -> impl IntoView {
    let ids = Memo::new(move |_| app.harbor.with(|h| h.flags_and_slips.iter().map(|t| t.id).collect::<Vec<_>>()));
    view! {
        <g class="travels">
            <For each=move || ids.get() key=|id| *id let(id)>
                <TravelView app id />
            </For>
        </g>
    }
}

/// Where a message is drawn now, and how.
fn place(t: &Travel, bearers: &[String]) -> Option<(f64, f64)> {
    let n = bearers.len();
    let at = |node: &str| bearers.iter().position(|b| b == node).map(|i| bearer_x(i, n));
    let (a, b, c) = match &t.route {
        Route::ToDockmaster { node } => {
            let x = at(node)?;
            ((x - 34.0, PIER_TOP - 104.0), HUT_DOOR, ((x + HUT_DOOR.0) / 2.0, 110.0))
        }
        Route::FromDockmaster { node } => {
            let x = at(node)?;
            (HUT_DOOR, (x - 34.0, PIER_TOP - 104.0), ((x + HUT_DOOR.0) / 2.0, 130.0))
        }
        Route::ToVerifier { node: Some(node) } => {
            let x = at(node)? + 40.0;
            ((x, PIER_TOP - 130.0), VERIFIER_HAND, ((x + VERIFIER_HAND.0) / 2.0, 230.0))
        }
        Route::ToVerifier { node: None } => (OUTSIDE, VERIFIER_HAND, (1120.0, 240.0)),
    };
    Some(bezier(a, c, b, t.progress))
}

#[component]
fn TravelView(app: AppState, id: u64) -> impl IntoView {
    let travel = Memo::new(move |_| {
        app.harbor.with(|h| {
            let bearers: Vec<String> = h.bearers.iter().map(|b| b.id.clone()).collect();
            h.flags_and_slips
                .iter()
                .find(|t| t.id == id)
                .and_then(|t| place(t, &bearers).map(|(x, y)| (t.kind, t.token.clone(), x, y)))
        })
    });
    move || {
        let lang = app.lang.get();
        travel.with(|t| match t {
            None => EitherOf3::A(()),
            Some((kind, token, x, y)) => {
                let transform = format!("translate({},{})", f(*x), f(*y));
                let title = message_title(*kind).text(lang);
                if *kind == MessageKind::Write {
                    let label = token.clone().unwrap_or_default();
                    let font = f(fit_font(&label, 40.0, 22.0, 9.0));
                    EitherOf3::B(view! {
                        <g class="in-flight flag" transform=transform data-kind="write">
                            <title>{title}</title>
                            <line x1="0" y1="-18" x2="0" y2="22" class="pole" />
                            <rect x="0" y="-18" width="46" height="32" class="cloth" />
                            <text x="23" y="5" class="flag-number" text-anchor="middle" font-size=font>{label}</text>
                        </g>
                    })
                } else {
                    let reply = matches!(kind, MessageKind::AcquireReply | MessageKind::RenewReply);
                    let label = match (kind, token) {
                        (MessageKind::AcquireRequest, _) => "?".to_owned(),
                        (MessageKind::AcquireReply, None) => "✗".to_owned(),
                        (_, Some(t)) => t.clone(),
                        (_, None) => String::new(),
                    };
                    let font = f(fit_font(&label, 28.0, 16.0, 8.0));
                    EitherOf3::C(view! {
                        <g class="in-flight slip" class:reply=reply transform=transform>
                            <title>{title}</title>
                            <rect x="-17" y="-12" width="34" height="24" rx="3" />
                            <text x="0" y="6" text-anchor="middle" font-size=font>{label}</text>
                        </g>
                    })
                }
            }
        })
    }
}
