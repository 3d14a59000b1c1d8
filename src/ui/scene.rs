//! A fable's scene on the page: its drawing ([`crate::draw::Drawing`], plain Rust in the fable's
//! module) set layer by layer as SVG, each drawn part redrawn from the picture only while its
//! fable is shown ([`super::draw::part`]); over it the lesson's pointers and the figures' hit
//! areas, both placed by the drawing. One component for every fable.

use leptos::prelude::*;

use crate::draw::{Drawing, Layer};
use crate::fables::Word;
use crate::vocab::Fable;

use super::draw::{part, readable_frame};
use super::state::AppState;

/// `fable`'s scene, drawn by its `drawing` from `app`'s picture (`data-testid="scene-<code>"`).
#[component]
pub fn Scene(app: AppState, fable: Fable, drawing: &'static Drawing) -> impl IntoView {
    let testid: &'static str = Box::leak(format!("scene-{}", fable.code()).into_boxed_str());
    let sky = move || app.picture.with(|p| (drawing.sky)(p));
    let frame = readable_frame(app);
    let layers = drawing
        .layers
        .iter()
        .map(|layer| match layer {
            Layer::Fixed(class, art) => view! { <g class=*class inner_html=*art></g> }.into_any(),
            Layer::Drawn(class, draw) => view! { <g class=*class inner_html=part(app, fable, *draw)></g> }.into_any(),
        })
        .collect_view();
    let class = if drawing.class.is_empty() { "scene".to_owned() } else { format!("scene {}", drawing.class) };
    view! {
        <div class=class data-testid=testid data-sky=sky node_ref=frame>
            <svg
                viewBox="0 0 1200 640"
                role="img"
                aria-label=move || fable.word(Word::SceneLabel, app.lang.get())
                preserveAspectRatio="xMidYMid meet"
            >
                {layers}
                {super::lesson::pointers(app, testid, drawing.place)}
            </svg>
            {app.later.hands(app, drawing.place, drawing.timer.clone())}
        </div>
    }
}
