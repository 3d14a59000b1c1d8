//! What the scenes and the diagram draw alike, as [`Markup`]: a scene's parts redrawn from the
//! picture only while its fable is shown, text set to fit its room (shrunk or on two lines, never
//! cut), and messages in flight on their curves.

use leptos::prelude::*;

use crate::scenario::Fable;
use crate::story::markup::{coord, fit_font, fit_lines, Markup, Tag};
use crate::story::picture::{kind_code, Flight, Picture};
use crate::story::violations::Highlight;
use crate::story::{Cast, Lang};

use super::state::AppState;

/// How a scene draws one of its parts from the picture, the cast, what is lit and the language.
pub(crate) type Draw = fn(&Picture, &Cast, Option<&Highlight>, Lang) -> Markup;

/// One part of `fable`'s scene as markup for its group's `innerHTML`: redrawn when the picture,
/// the cast, the highlight or the language change while `fable` is shown; standing still (no work)
/// while the other fable is. The memo's equality check keeps the DOM still when nothing changed.
pub(crate) fn part(app: AppState, fable: Fable, draw: Draw) -> Memo<String> {
    Memo::new(move |previous: Option<&String>| match previous {
        Some(p) if app.fable.get() != fable => p.clone(),
        _ => {
            let lang = app.lang.get();
            app.cast.with(|cast| {
                app.highlight.with(|lit| app.picture.with(|p| draw(p, cast, lit.as_ref(), lang).into_string()))
            })
        }
    })
}

/// Where a block of lines sits against its `y`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    /// `y` is the first line's baseline; more lines go below.
    Top,
    /// The block is centred on `y` (a single line's baseline is `y`).
    Middle,
}

/// `text` set to fit `width` (fonts from `max` down to `min`, then two lines), as a `<text>` at
/// (`x`, `y`) with `class` and `anchor`; `more` adds attributes (test ids, data). Returns the
/// font used.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fitted(
    out: &mut Markup,
    (x, y): (f64, f64),
    width: f64,
    (max, min): (f64, f64),
    class: &'static str,
    anchor: &'static str,
    align: Align,
    text: &str,
    more: impl for<'t> FnOnce(Tag<'t>) -> Tag<'t>,
) -> f64 {
    let fit = fit_lines(text, width, max, min);
    let gap = fit.font * 1.1;
    let first = match align {
        Align::Top => y,
        Align::Middle => y - gap * (fit.lines.len() as f64 - 1.0) / 2.0,
    };
    let tag = out.tag("text").num("x", x).num("y", first).lit("class", class).lit("text-anchor", anchor);
    let tag = more(tag.font(fit.font));
    match fit.lines.as_slice() {
        [one] => tag.text(one),
        lines => {
            tag.open();
            for (i, line) in lines.iter().enumerate() {
                let dy = if i == 0 { 0.0 } else { gap };
                out.tag("tspan").num("x", x).num("dy", dy).text(line);
            }
            out.end("text");
        }
    }
    fit.font
}

/// A point on the quadratic Bézier from `a` via `c` to `b` at `t`.
pub(crate) fn bezier(a: (f64, f64), c: (f64, f64), b: (f64, f64), t: f64) -> (f64, f64) {
    let t = t.clamp(0.0, 1.0);
    let u = 1.0 - t;
    (u * u * a.0 + 2.0 * u * t * c.0 + t * t * b.0, u * u * a.1 + 2.0 * u * t * c.1 + t * t * b.1)
}

/// A coordinate for an attribute written by hand (a path, a transform).
pub(crate) fn f(v: f64) -> String {
    coord(v)
}

/// A message in flight at `at`, drawn by `body` in its own coordinates, with its title (what it
/// is, in the fable's words) and the hooks every scene gives it: `data-testid="flight"`,
/// `data-from` (a node id, `store` or `outside`), `data-kind` and `data-token`.
pub(crate) fn flight(
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
    body(out);
    out.end("g");
}

/// A slip to or from the record: `?` asking for it, `✗` refused, else the token it carries.
pub(crate) fn slip(out: &mut Markup, t: &Flight, at: (f64, f64), title: &str) {
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
            .num("font-size", fit_font(label, 28.0, 16.0, 8.0))
            .text(label);
    });
}
