//! Acting on the figures themselves: every flag-bearer (borrower), the hourglass (the tablet)
//! and the flag-verifier (the granary keeper) in the scene is a button. Clicking, tapping or
//! pressing Enter on one opens a small menu beside it with what can be done to it (put to sleep
//! or wake, send home or bring back, cut off or reconnect; run the sand out; turn fencing off or
//! on), in the fable's words and the page's language.
//!
//! The hit areas are drawn over each scene from the same `place` function that the lesson
//! pointers use, so a third fable gets them with its drawing. When the learner acts on a node
//! the scenario's script will act on later, a notice says so and offers to drop the script's
//! remaining steps for that node: the learner is never silently overruled.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::engine::Command;
use crate::scenario::lesson::Element;
use crate::story::i18n::Ui;
use crate::story::{fill, Cast, Lang};

use super::crew::{story_state, NodeActions};
use super::lesson::Place;
use super::state::AppState;
use super::{coord, seconds, told, tr};

/// A figure in the scene that the learner can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Figure {
    /// A flag-bearer (borrower): a node, by id.
    Node(String),
    /// The lease's timer: the hourglass by the plaque (the tablet's return hour).
    Timer,
    /// What judges writes: the flag-verifier (the granary keeper).
    Gate,
}

impl Figure {
    /// The figure's `data-testid`: `node-{id}`, `figure-timer`, `figure-gate`.
    fn testid(&self) -> String {
        match self {
            Figure::Node(id) => format!("node-{id}"),
            Figure::Timer => "figure-timer".to_owned(),
            Figure::Gate => "figure-gate".to_owned(),
        }
    }
}

/// The id of the page's one figure menu (a popover).
const MENU_ID: &str = "figure-menu";
/// The menu's width in CSS px (as in the style sheet), for placing it beside its figure.
const MENU_W: f64 = 280.0;
/// Room kept for the menu's height when placing it, in CSS px.
const MENU_H: f64 = 230.0;

/// A scene's hit areas, in an SVG laid exactly over the scene's own (the same 1200 × 640 view
/// box): one per node (its figure), the timer (`timer`: the element that stands for it in this
/// scene) and the gate ([`Element::Resource`]). The picture stays an image for screen readers;
/// this layer is the group of its buttons.
pub(crate) fn hands(
    app: AppState,
    place: &'static (dyn Fn(AppState, &Element) -> Option<Place> + Send + Sync),
    timer: Element,
) -> impl IntoView {
    let figures = Memo::new(move |_| {
        // Where figures stand changes with the scenario (how many) and the fable shown.
        app.fable.track();
        app.scenario.with(|s| {
            let nodes = s.config.nodes.iter().map(|n| (Figure::Node(n.id.clone()), Element::Node(n.id.clone())));
            nodes
                .chain([(Figure::Timer, timer.clone()), (Figure::Gate, Element::Resource)])
                .filter_map(|(figure, element)| place(app, &element).map(|(rect, _)| (figure, rect)))
                .collect::<Vec<_>>()
        })
    });
    view! {
        <svg
            class="hands-layer"
            data-testid="hands"
            viewBox="0 0 1200 640"
            preserveAspectRatio="xMidYMid meet"
            role="group"
            aria-label=tr(app, Ui::FiguresLabel)
        >
            <For each=move || figures.get() key=|(figure, rect)| (figure.testid(), coord(rect.0), coord(rect.1)) let((figure, rect))>
                <Hand app figure rect />
            </For>
        </svg>
    }
}

/// One figure's hit area: a transparent rounded rectangle that shows a ring under the pointer
/// and the keyboard focus.
#[component]
fn Hand(app: AppState, figure: Figure, rect: (f64, f64, f64, f64)) -> impl IntoView {
    let (x, y, w, h) = rect;
    let role = {
        let figure = figure.clone();
        move || match &figure {
            Figure::Node(id) => app.snapshot.with(|s| s.nodes.iter().find(|n| &n.id == id).map(|n| n.role.as_str())),
            _ => None,
        }
    };
    let label = {
        let figure = figure.clone();
        move || {
            let lang = app.lang.get();
            let name = figure_name(app, &figure, lang);
            fill(Ui::FigureActions.text(lang), &[("name", &name)])
        }
    };
    let open = {
        let figure = figure.clone();
        move |target: Option<web_sys::EventTarget>| {
            let anchor = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok());
            open_menu(app, figure.clone(), anchor);
        }
    };
    let on_click = {
        let open = open.clone();
        move |ev: leptos::ev::MouseEvent| open(ev.current_target())
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if matches!(ev.key().as_str(), "Enter" | " ") {
            ev.prevent_default();
            open(ev.current_target());
        }
    };
    view! {
        <g
            class="hand"
            role="button"
            tabindex="0"
            aria-haspopup="dialog"
            data-testid=figure.testid()
            data-role=role
            aria-label=label
            on:click=on_click
            on:keydown=on_key
        >
            <rect x=coord(x) y=coord(y) width=coord(w) height=coord(h) rx="16" />
        </g>
    }
}

/// What the figure is called in the fable shown: a node's name, the hourglass (the tablet), the
/// flag-verifier (the granary keeper).
fn figure_name(app: AppState, figure: &Figure, lang: Lang) -> String {
    match figure {
        Figure::Node(id) => app.cast.with(|c| c.name(id, lang)),
        Figure::Timer => told(app, Ui::FigureTimer, lang).to_owned(),
        Figure::Gate => told(app, Ui::FigureGate, lang).to_owned(),
    }
}

/// Opens the figure menu for `figure` beside `anchor` (its hit area), and moves the focus into it.
fn open_menu(app: AppState, figure: Figure, anchor: Option<web_sys::Element>) {
    let Some(window) = web_sys::window() else { return };
    let (vw, vh) = (
        window.inner_width().ok().and_then(|v| v.as_f64()).unwrap_or(1280.0),
        window.inner_height().ok().and_then(|v| v.as_f64()).unwrap_or(720.0),
    );
    // Beside the figure where there is room (right, else left), never off the screen.
    let (left, top) = match anchor.map(|a| a.get_bounding_client_rect()) {
        Some(r) => {
            let left = if r.right() + 8.0 + MENU_W <= vw { r.right() + 8.0 } else { r.left() - 8.0 - MENU_W };
            (left.clamp(4.0, (vw - MENU_W - 4.0).max(4.0)), r.top().clamp(4.0, (vh - MENU_H).max(4.0)))
        }
        None => ((vw - MENU_W) / 2.0, vh / 3.0),
    };
    app.figure.set(Some(figure));
    app.figure_at.set((left, top));
    let Some(menu) = document().get_element_by_id(MENU_ID).and_then(|m| m.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return;
    };
    if !menu.matches(":popover-open").unwrap_or(false) {
        let _ = menu.show_popover();
    }
    // Once the menu is drawn for this figure: the focus on its first action.
    request_animation_frame(move || {
        if let Ok(Some(first)) = menu.query_selector("button:not(:disabled)") {
            if let Ok(first) = first.dyn_into::<web_sys::HtmlElement>() {
                let _ = first.focus();
            }
        }
    });
}

/// Closes the figure menu (after an action: the learner watches what it did).
fn close_menu() {
    if let Some(menu) = document().get_element_by_id(MENU_ID).and_then(|m| m.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = menu.hide_popover();
    }
}

/// The page's one figure menu: a popover beside the figure last opened, with its name, how it
/// is doing and what can be done to it. Light-dismissed (a click elsewhere, Esc), as popovers
/// are; the focus goes back to the figure.
#[component]
pub fn FigureMenu(app: AppState) -> impl IntoView {
    let title = move || app.figure.with(|f| f.as_ref().map(|f| figure_name(app, f, app.lang.get())));
    let body = move || {
        let figure = app.figure.get()?;
        let lang = app.lang.get();
        Some(match figure {
            Figure::Node(id) => {
                let lines = app.snapshot.with(|s| {
                    let token = s.lease.newest_granted;
                    s.nodes.iter().find(|n| n.id == id).map(|n| story_state(n, token, app.fable.get(), lang))
                });
                let lines = lines.unwrap_or_default().into_iter().map(|l| view! { <li>{l}</li> }).collect::<Vec<_>>();
                view! {
                    <ul class="story-state">{lines}</ul>
                    <div on:click=move |_| close_menu()>
                        <NodeActions app id prefix="node" />
                    </div>
                }
                .into_any()
            }
            Figure::Timer => {
                let line = move || {
                    let lang = app.lang.get();
                    app.snapshot.with(|s| match (&s.lease.holder_identity, s.lease.expires_ms) {
                        (Some(holder), Some(expires)) if !s.lease.expired && expires > s.now_ms => {
                            let name = app.cast.with(|c| c.name(holder, lang));
                            fill(
                                told(app, Ui::FigureTimerLeft, lang),
                                &[("name", &name), ("s", &seconds(expires - s.now_ms))],
                            )
                        }
                        _ => told(app, Ui::FigureTimerIdle, lang).to_owned(),
                    })
                };
                let no_holder = move || app.snapshot.with(|s| s.lease.holder_identity.is_none());
                view! {
                    <p class="figure-state">{line}</p>
                    <div class="buttons">
                        <button
                            data-testid="act-revoke"
                            title=tr(app, Ui::RevokeHint)
                            disabled=move || app.finished.get() || no_holder()
                            on:click=move |_| {
                                app.apply(Command::RevokeLease);
                                close_menu();
                            }
                        >
                            {tr(app, Ui::RevokeLease)}
                        </button>
                    </div>
                }
                .into_any()
            }
            Figure::Gate => {
                let fencing = move || app.snapshot.with(|s| s.resource.fencing);
                let line = move || {
                    let lang = app.lang.get();
                    let (on, mark) = app.snapshot.with(|s| (s.resource.fencing, s.resource.high_water));
                    if on {
                        fill(told(app, Ui::FigureGateOn, lang), &[("n", &mark.to_string())])
                    } else {
                        told(app, Ui::FigureGateOff, lang).to_owned()
                    }
                };
                view! {
                    <p class="figure-state">{line}</p>
                    <div class="buttons">
                        <button
                            data-testid="act-fencing"
                            data-on=move || fencing().to_string()
                            title=tr(app, Ui::FencingHint)
                            disabled=move || app.finished.get()
                            on:click=move |_| {
                                app.apply(Command::SetFencing { on: !fencing() });
                                close_menu();
                            }
                        >
                            {move || told(app, if fencing() { Ui::FigureFencingOff } else { Ui::FigureFencingOn }, app.lang.get())}
                        </button>
                    </div>
                }
                .into_any()
            }
        })
    };
    // The focus goes back to the figure the menu was opened from.
    let on_toggle = move |ev: web_sys::Event| {
        let open = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|m| m.matches(":popover-open").unwrap_or(false));
        if open {
            return;
        }
        let figure = app.figure.get_untracked();
        if let Some(el) =
            figure.and_then(|f| document().query_selector(&format!("[data-testid=\"{}\"]", f.testid())).ok().flatten())
        {
            if let Ok(el) = el.dyn_into::<web_sys::SvgElement>() {
                let _ = el.focus();
            }
        }
    };
    view! {
        <div
            id=MENU_ID
            class="menu figure-menu"
            popover="auto"
            role="dialog"
            aria-label=title
            data-testid="figure-menu"
            data-figure=move || app.figure.with(|f| f.as_ref().map(Figure::testid))
            style:left=move || format!("{}px", coord(app.figure_at.get().0))
            style:top=move || format!("{}px", coord(app.figure_at.get().1))
            on:toggle=on_toggle
        >
            <h2>{title}</h2>
            {body}
        </div>
    }
}

/// A scripted step in words: who, and what the script does to them, as the buttons say it
/// (e.g. "Old Chen: Put to sleep"); faults the page has no button for are named plainly.
pub(crate) fn script_step(command: &Command, cast: &Cast, lang: Lang) -> String {
    let fable = cast.fable();
    let say = |ui: Ui| ui.told(fable).text(lang).to_owned();
    let who = command.node().map(|id| cast.name(id, lang));
    let what = match command {
        Command::Pause { .. } => say(Ui::Sleep),
        Command::Resume { .. } => say(Ui::Wake),
        Command::Crash { .. } => say(Ui::Crash),
        Command::Restart { .. } => say(Ui::Restart),
        Command::Partition { .. } => say(Ui::CutOff),
        Command::Heal { .. } => say(Ui::Reconnect),
        Command::RevokeLease => say(Ui::RevokeLease),
        Command::SetFencing { on: true } => say(Ui::FigureFencingOn),
        Command::SetFencing { on: false } => say(Ui::FigureFencingOff),
        Command::DelayNextWrite { .. } => say(Ui::ScriptDelay),
        Command::RawWrite { .. } => say(Ui::ScriptRawWrite),
        Command::RollbackIssuer { .. } => say(Ui::ScriptRollback),
        Command::RestoreResource { .. } => say(Ui::ScriptRestore),
        Command::RestartResource => say(Ui::ScriptRestartResource),
        Command::ClockJump { .. } | Command::ClockRate { .. } => say(Ui::ScriptClock),
        Command::DropScript { .. } => say(Ui::ScriptDropStep),
    };
    match who {
        Some(name) => format!("{name}: {what}"),
        None => what,
    }
}

/// The scenario's scripted steps still ahead that act on `node`, in time order: `(at_ms, step
/// in words)`.
pub(crate) fn script_ahead_for(app: AppState, node: &str, lang: Lang) -> Vec<(u64, String)> {
    let steps = app.script_ahead(Some(node));
    app.cast.with_untracked(|cast| steps.iter().map(|s| (s.at_ms, script_step(&s.command, cast, lang))).collect())
}

/// What the learner is told after acting on a node the script acts on later: the node and its
/// next scripted step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptNotice {
    pub node: String,
    pub next_at_ms: u64,
}

/// The notice that the script will act again on the node the learner just acted on, with the
/// offer to drop the script's remaining steps for it (or keep them).
#[component]
pub fn ScriptNoticeBar(app: AppState) -> impl IntoView {
    let text = move || {
        let notice = app.script_notice.get()?;
        // Up to date with the run (a step may have happened since, or been dropped).
        app.snapshot.track();
        let lang = app.lang.get();
        let steps = script_ahead_for(app, &notice.node, lang);
        let (at, what) = steps.first().cloned()?;
        let name = app.cast.with(|c| c.name(&notice.node, lang));
        Some(fill(
            Ui::ScriptAhead.text(lang),
            &[("name", &name), ("what", &what), ("s", &seconds(at)), ("n", &steps.len().to_string())],
        ))
    };
    let drop_label = move || {
        let lang = app.lang.get();
        let name = app.script_notice.with(|n| n.as_ref().map(|n| app.cast.with(|c| c.name(&n.node, lang))));
        fill(Ui::ScriptDrop.text(lang), &[("name", &name.unwrap_or_default())])
    };
    view! {
        <div class="script-notice" data-testid="script-notice" role="status" hidden=move || text().is_none()>
            <p>{text}</p>
            <div class="buttons">
                <button
                    class="primary"
                    data-testid="script-drop"
                    on:click=move |_| {
                        if let Some(notice) = app.script_notice.get_untracked() {
                            app.drop_script(&notice.node);
                        }
                        app.script_notice.set(None);
                    }
                >
                    {drop_label}
                </button>
                <button data-testid="script-keep" on:click=move |_| app.script_notice.set(None)>
                    {tr(app, Ui::ScriptKeep)}
                </button>
            </div>
        </div>
    }
}

/// Whether `command` is a learner's act on a node that the script may contradict later.
pub(crate) fn acts_on_node(command: &Command) -> Option<&str> {
    match command {
        Command::Pause { .. }
        | Command::Resume { .. }
        | Command::Crash { .. }
        | Command::Restart { .. }
        | Command::Partition { .. }
        | Command::Heal { .. } => command.node(),
        _ => None,
    }
}
