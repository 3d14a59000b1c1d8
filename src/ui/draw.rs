//! What the page adds to the drawings of `crate::draw`: each part of a scene redrawn from the
//! picture only while its fable is shown, and the scenes kept readable at the size they are shown.

use leptos::prelude::*;

use crate::draw::{grow, Draw, Look, COMPACT_BELOW_PX, SMALLEST_WORD_PX};
use crate::vocab::Fable;

use super::state::AppState;

/// How `fable`'s scene is drawn on this page now (tracks the language and the readable floor).
pub(crate) fn look(app: AppState, fable: Fable) -> Look {
    Look { fable, lang: app.lang.get(), floor: app.floor.get() }
}

/// One part of `fable`'s scene as markup for its group's `innerHTML`: redrawn when the picture,
/// the cast, the highlight or the language change while `fable` is shown; standing still (no work)
/// while another fable is. The memo's equality check keeps the DOM still when nothing changed.
pub(crate) fn part(app: AppState, fable: Fable, draw: Draw) -> Memo<String> {
    Memo::new(move |previous: Option<&String>| match previous {
        Some(p) if app.fable.get() != fable => p.clone(),
        _ => {
            let look = look(app, fable);
            app.cast.with(|cast| {
                app.highlight.with(|lit| app.picture.with(|p| draw(p, cast, lit.as_ref(), look).into_string()))
            })
        }
    })
}

/// The frame of a scene (`node_ref` of its `.scene` element), kept readable at any size by
/// [`keep_readable`] once it is on the page; it writes the size it measures to `app.floor`.
pub(crate) fn readable_frame(app: AppState) -> NodeRef<leptos::html::Div> {
    let frame = NodeRef::<leptos::html::Div>::new();
    super::effect(move || {
        if let Some(el) = frame.get() {
            keep_readable(&el, app.floor);
        }
    });
    frame
}

/// Keeps a scene's words readable at any size: the scene's drawing is 1200 units wide, shown
/// as wide as the page allows, so its words shrink with it. Each time the scene `el` is resized
/// this sets, in view-box units, `--floor` (the smallest word: [`SMALLEST_WORD_PX`] on screen),
/// `--grow` and `--floor-in` (how much the messages and flags grow, and the smallest word inside
/// them), and `data-compact` under [`COMPACT_BELOW_PX`]; the stylesheet does the rest.
fn keep_readable(el: &web_sys::Element, floor_signal: super::plain::Plain<f64>) {
    on_resize(el, move |target, width, _| {
        // Hidden (the other fable's scene): nothing to size.
        if width < 1.0 {
            return;
        }
        // In half units, so a window dragged wider redraws the scene now and then, not each pixel.
        let floor = (SMALLEST_WORD_PX * 1200.0 / width * 2.0).ceil() / 2.0;
        let grow = grow(floor);
        if floor_signal.get_untracked() != floor {
            floor_signal.set(floor);
        }
        let c = crate::story::markup::coord;
        let style = format!("--floor:{}px;--grow:{};--floor-in:{}px", c(floor), c(grow), c(floor / grow));
        let _ = target.set_attribute("style", &style);
        let _ = target.set_attribute("data-compact", if width < COMPACT_BELOW_PX { "true" } else { "false" });
    });
}

/// The room the scenes have (`node_ref` of the stage's `.scene-wrap`), written on it in CSS px as
/// `--wrap-w` and `--wrap-h` each time it is resized, for the stylesheet to size the scene from.
///
/// The stylesheet could read the room in container units (`100cqw`, `100cqh`), and does until
/// this has measured it (the first frame, the picture `index.html` shows): but Chromium works a
/// length in container units out again each time anything inside the container changes, which
/// while the run plays is every frame, and then lays the whole scene out anew (measured at 64×
/// with the CPU slowed 4×: about a fifth fewer frames drawn, issue 14).
pub(crate) fn measured_room() -> NodeRef<leptos::html::Div> {
    let wrap = NodeRef::<leptos::html::Div>::new();
    super::effect(move || {
        if let Some(el) = wrap.get() {
            on_resize(&el, |target, width, height| {
                let c = crate::story::markup::coord;
                let _ = target.set_attribute("style", &format!("--wrap-w:{}px;--wrap-h:{}px", c(width), c(height)));
            });
        }
    });
    wrap
}

/// Calls `then(element, width, height)` (its content box, CSS px) each time `el` is resized,
/// for as long as the page lives (a `ResizeObserver`).
fn on_resize(el: &web_sys::Element, then: impl Fn(&web_sys::Element, f64, f64) + 'static) {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    let on_resize = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
        for entry in entries.iter() {
            let Ok(entry) = entry.dyn_into::<web_sys::ResizeObserverEntry>() else { continue };
            let rect = entry.content_rect();
            then(&entry.target(), rect.width(), rect.height());
        }
    });
    if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        observer.observe(el);
    }
    // The observer lives as long as the page; so does its callback.
    on_resize.forget();
}
