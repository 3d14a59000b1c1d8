//! What the scenes and the diagram draw alike, as [`Markup`]: text set to fit its room (shrunk or
//! on two lines, never cut).

use crate::story::markup::{fit_lines, Markup, Tag};

/// Where a block of lines sits against its `y`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
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
