//! How the scenes are drawn: plain Rust that turns the fable-neutral
//! [`Picture`](crate::story::picture::Picture) into SVG markup, compiled and tested natively. A
//! fable's [`Drawing`] is a list of [`Layer`]s, fixed art or parts drawn from the picture by a
//! [`Draw`] function; the page sets each part as its group's `innerHTML` when it changes
//! (`ui::scene`), a compared run's scene and the first frame in `index.html` are the whole of it
//! ([`whole`]).
//!
//! What the drawings share is here too: text set to fit its room (shrunk or on two lines, never
//! cut), signs, messages in flight on their curves, the resource's recent verdicts.

pub mod plot;

use crate::fables::{Fable, Word};
use crate::scenario::lesson::Element;
use crate::story::i18n::{fill, Ui};
use crate::story::markup::{coord, fit_font, fit_lines, Fitted, Markup, Tag};
use crate::story::picture::{kind_code, Flight, Gate, Picture, Verdict};
use crate::story::violations::Highlight;
use crate::story::Cast;
use crate::vocab::Lang;

/// A fable's drawing of the picture, in a 1200 × 640 view box.
pub struct Drawing {
    /// Its layers, back to front.
    pub layers: &'static [Layer],
    /// The class its `.scene` element has besides `scene` (its style sheet's hook), e.g.
    /// `lantern-scene`; may be empty.
    pub class: &'static str,
    /// The sky for `data-sky` at the picture's moment (its style sheet colours it): the harbor's
    /// `day` and `evening`, the lantern's `night` and `dawn`.
    pub sky: fn(&Picture) -> &'static str,
    /// Where a lesson's element is in the drawing (pointers, the figures' hit areas), if it shows
    /// it.
    pub place: fn(&Picture, &Element) -> Option<Place>,
    /// The element whose figure stands for the lease's timer (its hit area opens the timer's
    /// menu): the harbor's hourglass is `ttl`, the lantern's tablet `store`.
    pub timer: Element,
}

/// One layer of a drawing.
pub enum Layer {
    /// Art that never changes, in a group with this class (may be empty).
    Fixed(&'static str, &'static str),
    /// A part drawn from the picture, in a group with this class (may be empty).
    Drawn(&'static str, Draw),
}

/// Where a lesson's element is in a scene: its box `(x, y, width, height)` in view-box units,
/// and where its label goes (`None`: under the box).
pub type Place = ((f64, f64, f64, f64), Option<(f64, f64)>);

/// The whole of `drawing` drawn from `p`: what the page draws part by part, at once (a compared
/// run's scene, the first frame in `index.html`).
pub fn whole(drawing: &Drawing, p: &Picture, cast: &Cast, lit: Option<&Highlight>, look: Look) -> Markup {
    let mut out = Markup::new();
    for layer in drawing.layers {
        let (class, part) = match layer {
            Layer::Fixed(class, art) => (*class, Markup::raw(art)),
            Layer::Drawn(class, draw) => (*class, draw(p, cast, lit, look)),
        };
        if class.is_empty() {
            out.tag("g").open();
        } else {
            out.tag("g").lit("class", class).open();
        }
        out.push(&part);
        out.end("g");
    }
    out
}

/// The coats of the nodes' figures, by node index (a node's card wears its colour too).
const COATS: [&str; 8] = ["#b5523b", "#3d6b8c", "#6f7f2f", "#8c5a8c", "#c0872b", "#3f7f6f", "#9a4f2d", "#5a5a8c"];

/// The coat colour of the node at `index`, the same in every fable and on its card.
pub fn coat_colour(index: usize) -> &'static str {
    COATS.get(index % COATS.len()).copied().unwrap_or("#b5523b")
}

/// How a scene draws one of its parts from the picture, the cast, what is lit and the look.
pub type Draw = fn(&Picture, &Cast, Option<&Highlight>, Look) -> Markup;

/// How a scene is drawn besides what it shows: the fable whose words it says, the language, and
/// the smallest size its words may have to stay readable at the size the scene is shown
/// (view-box units, measured by the page: `ui::draw`), which text set to fit its room must not
/// go under (it takes two lines instead).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Look {
    pub fable: Fable,
    pub lang: Lang,
    /// The smallest readable word, in view-box units (0: no floor).
    pub floor: f64,
}

impl Look {
    /// The fable's word for `word`, in the look's language.
    pub fn word(self, word: Word) -> &'static str {
        self.fable.word(word, self.lang)
    }

    /// A fitted text's largest and smallest font (view-box units), neither under the floor.
    pub fn fit(self, max: f64, min: f64) -> (f64, f64) {
        (max.max(self.floor), min.max(self.floor))
    }

    /// Whether `text`, drawn at `font` or the floor, fits `room` (view-box units).
    pub fn fits(self, text: &str, font: f64, room: f64) -> bool {
        crate::story::markup::text_width(text, font.max(self.floor)) <= room
    }

    /// Whether `text`, drawn at `font` or the floor inside a message or flag, fits `room`.
    pub fn fits_in(self, text: &str, font: f64, room: f64) -> bool {
        crate::story::markup::text_width(text, font.max(self.inner_floor())) <= room
    }

    /// The same for a text inside a message or flag, which grows as a whole (`--grow`).
    pub fn fit_in(self, max: f64, min: f64) -> (f64, f64) {
        let inner = self.inner_floor();
        (max.max(inner), min.max(inner))
    }

    /// Whether the scene is compact (narrower than [`COMPACT_BELOW_PX`] on screen), where the
    /// stylesheet hides its minor words and their room is free.
    pub fn compact(self) -> bool {
        self.floor > SMALLEST_WORD_PX * 1200.0 / COMPACT_BELOW_PX
    }

    /// The smallest word inside a message or flag before it grows (view-box units): the floor
    /// divided by how much it grows, as the stylesheet's `--floor-in`.
    fn inner_floor(self) -> f64 {
        self.floor / grow(self.floor)
    }
}

/// How much a scene's messages and flags grow for a floor (view-box units): at least 1.
pub fn grow(floor: f64) -> f64 {
    (floor / GROW_FROM).max(1.0)
}

/// Where a block of lines sits against its `y`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// `y` is the first line's baseline; more lines go below.
    Top,
    /// The block is centred on `y` (a single line's baseline is `y`).
    Middle,
}

/// `text` set to fit `width` (fonts from `max` down to `min`, then two lines), as a `<text>` at
/// (`x`, `y`) with `class` and `anchor`; `more` adds attributes (test ids, data). Returns the
/// fit: the font used and the lines.
#[allow(clippy::too_many_arguments)]
pub fn fitted(
    out: &mut Markup,
    (x, y): (f64, f64),
    width: f64,
    (max, min): (f64, f64),
    class: &'static str,
    anchor: &'static str,
    align: Align,
    text: &str,
    more: impl for<'t> FnOnce(Tag<'t>) -> Tag<'t>,
) -> Fitted {
    let fit = fit_lines(text, width, max, min);
    draw_fitted(out, (x, y), &fit, class, anchor, align, text, more);
    fit
}

/// The scene's width in view-box units (its `viewBox` is 1200 × 640).
const SCENE_WIDTH: f64 = 1200.0;

/// Where a text fitted as `fit` and centred on `x` (in the scene's own coordinates, not in a
/// moved group) is drawn so that none of it falls past the scene's left or right edge: words
/// drawn large to stay readable (a phone) can be wider than the room they were placed in. A text
/// wider than the scene keeps `x`.
pub fn inside_scene(x: f64, fit: &Fitted) -> f64 {
    let wide = fit.lines.iter().map(|l| crate::story::markup::text_width(l, fit.font)).fold(0.0, f64::max);
    let half = wide / 2.0 + 4.0;
    if half * 2.0 >= SCENE_WIDTH {
        return x;
    }
    crate::story::markup::within(x, half, SCENE_WIDTH - half)
}

/// `text` as [`fitted`] draws it, with a fit already made (a caller that places the text by its
/// fit).
#[allow(clippy::too_many_arguments)]
pub fn draw_fitted(
    out: &mut Markup,
    (x, y): (f64, f64),
    fit: &Fitted,
    class: &'static str,
    anchor: &'static str,
    align: Align,
    text: &str,
    more: impl for<'t> FnOnce(Tag<'t>) -> Tag<'t>,
) {
    let tag = out.tag("text").num("x", x).num("y", y).lit("class", class).lit("text-anchor", anchor);
    more(tag.font(fit.font)).open();
    // The rest is the same for every caller: not generic, so written once in the page.
    text_lines(out, x, align, text, &fit.lines);
}

/// A sign's words on its board: `board` is the board the scene's art draws (x, y, width,
/// height in view-box units), the words centred on it at baseline `y`, fitted as [`fitted`] does
/// (two lines rather than past its edges). Words drawn large to stay readable (a phone, a
/// compared run) may still not fit: a board grown to hold them is then drawn over the art's.
/// Returns the fit and the baseline for a line of small words over the board as drawn (its
/// descenders clear of the board, at the smallest of `fonts` or larger).
pub fn sign_board(
    out: &mut Markup,
    y: f64,
    (bx, by, bw, bh): (f64, f64, f64, f64),
    fonts: (f64, f64),
    text: &str,
    more: impl for<'t> FnOnce(Tag<'t>) -> Tag<'t>,
) -> (Fitted, f64) {
    let (cx, room) = (bx + bw / 2.0, bw - 16.0);
    let mut words = Markup::new();
    let fit = fitted(&mut words, (cx, y), room, fonts, "sign-text", "middle", Align::Middle, text, more);
    let wide = fit.lines.iter().map(|l| crate::story::markup::text_width(l, fit.font)).fold(0.0, f64::max);
    let spread = fit.half_spread();
    let top = (y - spread - fit.font).min(by);
    let bottom = (y + spread + 0.35 * fit.font).max(by + bh);
    if wide > room || top < by || bottom > by + bh {
        let w = (wide + 20.0).max(bw);
        out.tag("rect")
            .num("x", cx - w / 2.0)
            .num("y", top)
            .num("width", w)
            .num("height", bottom - top)
            .lit("rx", "8")
            .lit("class", "sign")
            .close();
    }
    out.push(&words);
    (fit, top - 4.0 - 0.3 * fonts.1)
}

/// The content of a fitted text: its line, or its lines as `tspan`s spaced in ems (a word drawn
/// larger than fitted, to stay readable, keeps its lines apart); then the end tag.
fn text_lines(out: &mut Markup, x: f64, align: Align, text: &str, lines: &[String]) {
    if let [one] = lines {
        out.push_text(one);
    } else {
        let first = match align {
            Align::Top => "0",
            Align::Middle => "-0.55em",
        };
        // The space a line break took stays at the end of its line, so the text reads whole.
        let spaced = lines.concat() != text;
        for (i, line) in lines.iter().enumerate() {
            let dy = if i == 0 { first } else { "1.1em" };
            out.tag("tspan").num("x", x).lit("dy", dy).open();
            out.push_text(line);
            if spaced && i + 1 < lines.len() {
                out.push_text(" ");
            }
            out.end("tspan");
        }
    }
    out.end("text");
}

/// A point on the quadratic Bézier from `a` via `c` to `b` at `t`.
pub fn bezier(a: (f64, f64), c: (f64, f64), b: (f64, f64), t: f64) -> (f64, f64) {
    let t = crate::story::markup::within(t, 0.0, 1.0);
    let u = 1.0 - t;
    (u * u * a.0 + 2.0 * u * t * c.0 + t * t * b.0, u * u * a.1 + 2.0 * u * t * c.1 + t * t * b.1)
}

/// A coordinate for an attribute written by hand (a path, a transform).
pub fn f(v: f64) -> String {
    coord(v)
}

/// A message in flight at `at`, drawn by `body` in its own coordinates, with its title (what it
/// is, in the fable's words) and the hooks every scene gives it: `data-testid="flight"`,
/// `data-from` (a node id, `store` or `outside`), `data-kind` and `data-token`.
pub fn flight(
    out: &mut Markup,
    t: &Flight,
    at: (f64, f64),
    class: &'static str,
    title: &str,
    body: impl FnOnce(&mut Markup),
) {
    out.tag("g")
        .lit("class", class)
        .lit("data-testid", "flight")
        .attr("data-from", t.from())
        .lit("data-kind", kind_code(t.kind))
        .attr("data-token", t.token.as_deref().unwrap_or_default())
        .at(at.0, at.1)
        .open();
    out.tag("title").text(title);
    // The message grows (on a small scene) around where it is.
    out.push_raw(r#"<g class="grow">"#);
    body(out);
    out.push_raw("</g>");
    out.end("g");
}

/// A slip to or from the record: `?` asking for it, `✗` refused, else the token it carries.
pub fn slip(out: &mut Markup, t: &Flight, at: (f64, f64), title: &str) {
    use crate::engine::MessageKind;
    let reply = matches!(t.kind, MessageKind::AcquireReply | MessageKind::RenewReply);
    let label = match (t.kind, &t.token) {
        (MessageKind::AcquireRequest, _) => "?",
        (MessageKind::AcquireReply, None) => "✗",
        (_, Some(token)) => token.as_str(),
        (_, None) => "",
    };
    let class = if reply { "in-flight slip reply" } else { "in-flight slip" };
    flight(out, t, at, class, title, |out| {
        out.push_raw(r#"<rect x="-17" y="-12" width="34" height="24" rx="3"/>"#);
        out.tag("text")
            .lit("x", "0")
            .lit("y", "6")
            .lit("text-anchor", "middle")
            .font(fit_font(label, 28.0, 16.0, 8.0))
            .text(label);
    });
}

/// How a scene hangs the resource's recent verdicts (the harbor's flags on the verifier's pole,
/// the lantern's tags on the keeper's rope), in view-box units.
pub struct Judged {
    /// Where the newest hangs; each older one `step` further along.
    pub at: (f64, f64),
    pub step: f64,
    /// The room for an older one's words: less than `step`, so neighbours never run together.
    pub room: f64,
    /// An older one's opacity.
    pub faded: &'static str,
    /// The opening of its growing group and its cloth; the cross drawn under a refused number.
    pub cloth: &'static str,
    pub cross: &'static str,
    /// Its middle (x); the number's baseline, width, largest and smallest font.
    pub middle: f64,
    pub number: (f64, f64, f64, f64),
    /// The verdict word's baseline, largest and smallest font; the sender's top and fonts.
    pub word: (f64, f64, f64),
    pub who: (f64, f64, f64),
}

/// Every named resource's mark on one line over the gate's sign (`db 8 · blobs 7`), centred
/// on `x` at baseline `y`, in `room` units, styled as `class`: a run with one resource draws nothing.
pub fn marks_line(out: &mut Markup, gate: &Gate, (x, y): (f64, f64), room: f64, class: &str, look: Look) {
    if gate.marks.is_empty() {
        return;
    }
    let list = crate::story::picture::marks_text(&gate.marks);
    let line = fill(Ui::ResourceMarks.text(look.lang), &[("list", &list)]);
    out.tag("text")
        .num("x", x)
        .num("y", y)
        .attr("class", class)
        .lit("text-anchor", "middle")
        .lit("data-testid", "resource-marks")
        .font(fit_font(&line, room, 16.0, 9.0))
        .text(&line);
}

/// The recent verdicts, newest first and nearest, as `how` hangs them, in the look's fable's
/// words. Every one says its verdict and its sender while all the words fit beside each other;
/// else only the newest does.
pub fn judged(out: &mut Markup, recent: &[Verdict], how: &Judged, cast: &Cast, look: Look) {
    let lang = look.lang;
    let all_words = recent.iter().all(|v| look.fits_in(look.word(v.word()), how.word.2, how.room));
    for (age, v) in recent.iter().rev().enumerate() {
        let class = match v.outcome {
            crate::engine::WriteOutcome::Accepted => "verdict obeyed",
            crate::engine::WriteOutcome::Duplicate => "verdict duplicate",
            _ => "verdict void",
        };
        out.tag("g")
            .lit("class", class)
            .lit("opacity", if age == 0 { "1" } else { how.faded })
            .lit("data-outcome", v.outcome.code())
            .attr("data-age", &age.to_string())
            .at(how.at.0 + age as f64 * how.step, how.at.1)
            .open();
        out.push_raw(how.cloth);
        // The cross goes under the number: a refused one must still show which number it carried.
        if v.refused() {
            out.push_raw(how.cross);
        }
        let (y, width, max, min) = how.number;
        out.tag("text")
            .num("x", how.middle)
            .num("y", y)
            .lit("class", "flag-number")
            .lit("text-anchor", "middle")
            .font(fit_font(&v.token, width, max, min))
            .text(&v.token);
        if age == 0 || all_words {
            let word = look.word(v.word());
            out.tag("text")
                .num("x", how.middle)
                .num("y", how.word.0)
                .lit("class", "verdict-word")
                .lit("text-anchor", "middle")
                .font(fit_font(word, how.room, how.word.1, how.word.2))
                .text(word);
            let who = match &v.from {
                Some(id) => cast.name(id, lang),
                None => look.word(Word::Outsider).to_owned(),
            };
            // With named resources, each verdict says whose mark judged it.
            let who = match &v.resource {
                Some(res) => fill(Ui::VerdictAt.text(lang), &[("who", &who), ("res", res)]),
                None => who,
            };
            let (top, max, min) = how.who;
            let (x, fit) = (how.middle, look.fit_in(max, min));
            fitted(out, (x, top), how.room, fit, "verdict-who minor", "middle", Align::Top, &who, |t| t);
        }
        out.push_raw("</g>");
        out.end("g");
    }
}

/// The width (CSS px) under which a scene is compact: it leaves out its minor words (a channel's
/// name, the renewal count in words, who sent each judged flag) and keeps the rest readable.
pub const COMPACT_BELOW_PX: f64 = 600.0;

/// The smallest size (CSS px) a scene's words are drawn at, whatever the scene's size.
pub const SMALLEST_WORD_PX: f64 = 10.5;

/// The size (view-box units) a scene's messages and flags are drawn at before they grow.
const GROW_FROM: f64 = 20.0;
