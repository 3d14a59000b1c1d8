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

use crate::actions::Action;
use crate::engine::Command;
use crate::scenario::lesson::Element;
use crate::story::i18n::Ui;
use crate::story::markup::{within, Markup};
use crate::story::{fill, Cast};
use crate::vocab::Lang;

use super::crew::story_state;
use super::state::AppState;
use super::{coord, said, seconds, tr};
use crate::fables::Word;

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
    /// The figure's code in its hit area's `data-figure`: `node:{id}`, `timer`, `gate`.
    fn code(&self) -> String {
        match self {
            Figure::Node(id) => format!("node:{id}"),
            Figure::Timer => "timer".to_owned(),
            Figure::Gate => "gate".to_owned(),
        }
    }

    /// The figure a [`code`](Self::code) names.
    fn from_code(code: &str) -> Option<Figure> {
        match code {
            "timer" => Some(Figure::Timer),
            "gate" => Some(Figure::Gate),
            _ => code.strip_prefix("node:").map(|id| Figure::Node(id.to_owned())),
        }
    }

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
/// this layer is the group of its buttons. Written as markup with one handler for the clicks
/// and one for Enter and Space: a reactive view per figure costs page size and buys nothing.
pub(crate) fn hands(app: AppState, place: super::lesson::PlaceFn, timer: Element) -> impl IntoView {
    // Only what the hit areas show: where each figure is, its name and a node's role. The same
    // markup from frame to frame while nothing of it changes, so it is not set again.
    let markup = Memo::new(move |_| {
        let lang = app.lang.get();
        app.fable.track();
        let roles: Vec<(String, &'static str)> =
            app.snapshot.with(|s| s.nodes.iter().map(|n| (n.id.clone(), n.role.as_str())).collect());
        let nodes = roles.into_iter().map(|(id, role)| (Figure::Node(id.clone()), Element::Node(id), Some(role)));
        let mut out = Markup::new();
        for (figure, element, role) in
            nodes.chain([(Figure::Timer, timer.clone(), None), (Figure::Gate, Element::Resource, None)])
        {
            let Some(((x, y, w, h), _)) = app.picture.with_untracked(|p| place(p, &element)) else { continue };
            let name = figure_name(app, &figure, lang);
            out.tag("g")
                .lit("class", "hand")
                .lit("role", "button")
                .lit("tabindex", "0")
                .lit("aria-haspopup", "dialog")
                .attr("data-testid", &figure.testid())
                .attr("data-figure", &figure.code())
                .attr_opt("data-role", role)
                .attr("aria-label", &fill(Ui::FigureActions.text(lang), &[("name", &name)]))
                .open();
            out.tag("rect").num("x", x).num("y", y).num("width", w).num("height", h).lit("rx", "16").close();
            out.end("g");
        }
        out.into_string()
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some((figure, el)) = figure_under(ev.target()) {
            open_menu(app, figure, Some(el));
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if !matches!(ev.key().as_str(), "Enter" | " ") {
            return;
        }
        if let Some((figure, el)) = figure_under(ev.target()) {
            ev.prevent_default();
            open_menu(app, figure, Some(el));
        }
    };
    view! {
        <svg
            class="hands-layer"
            data-testid="hands"
            viewBox="0 0 1200 640"
            preserveAspectRatio="xMidYMid meet"
            role="group"
            aria-label=tr(app, Ui::FiguresLabel)
            on:click=on_click
            on:keydown=on_key
            inner_html=move || markup.get()
        ></svg>
    }
}

/// The figure whose hit area holds `target`, and that hit area.
fn figure_under(target: Option<web_sys::EventTarget>) -> Option<(Figure, web_sys::Element)> {
    let el = target?.dyn_into::<web_sys::Element>().ok()?.closest(".hand").ok()??;
    let figure = Figure::from_code(&el.get_attribute("data-figure")?)?;
    Some((figure, el))
}

/// What the figure is called in the fable shown: a node's name, the hourglass (the tablet), the
/// flag-verifier (the granary keeper).
fn figure_name(app: AppState, figure: &Figure, lang: Lang) -> String {
    match figure {
        Figure::Node(id) => app.cast.with(|c| c.name(id, lang)),
        Figure::Timer => said(app, Word::FigureTimer, lang).to_owned(),
        Figure::Gate => said(app, Word::FigureGate, lang).to_owned(),
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
            (within(left, 4.0, (vw - MENU_W - 4.0).max(4.0)), within(r.top(), 4.0, (vh - MENU_H).max(4.0)))
        }
        None => ((vw - MENU_W) / 2.0, vh / 3.0),
    };
    let Some(menu) = menu() else { return };
    // Where it stands and which figure it is for, set once as it opens (no reactive attributes).
    let style = menu.style();
    let _ = style.set_property("left", &format!("{}px", coord(left)));
    let _ = style.set_property("top", &format!("{}px", coord(top)));
    let _ = menu.set_attribute("data-figure", &figure.testid());
    let _ = menu.set_attribute("aria-label", &figure_name(app, &figure, app.lang.get_untracked()));
    app.figure.set(Some(figure));
    if !menu.matches(":popover-open").unwrap_or(false) {
        let _ = menu.show_popover();
    }
    // Once the menu is drawn for this figure: the focus on its first action.
    super::focus::hand_to(&[&format!("#{MENU_ID} button:not(:disabled)")]);
}

/// The page's one figure menu.
fn menu() -> Option<web_sys::HtmlElement> {
    document().get_element_by_id(MENU_ID)?.dyn_into::<web_sys::HtmlElement>().ok()
}

/// What the figure menu shows: the figure's state in words and its actions, each `(act, label,
/// enabled, test id)`.
#[derive(Default)]
struct MenuModel {
    title: String,
    lines: Vec<String>,
    actions: Vec<(String, &'static str, bool, String)>,
    /// `data-on` of the fencing action: whether fencing is on now.
    fencing: Option<bool>,
}

/// The menu for `figure` as the run stands.
fn menu_model(app: AppState, figure: &Figure, lang: Lang) -> MenuModel {
    let title = figure_name(app, figure, lang);
    let fable = app.fable.get();
    let say = |ui: Ui| ui.text(lang);
    let word = |w: Word| fable.word(w, lang);
    super::act::watch(app, |m| {
        // Each action offered: its code, its words as the run stands, whether it can be taken.
        let offer = |action: Action, testid: String| {
            let label = action.words(m).map_or("", |w| w.text(fable, lang));
            (action.code().unwrap_or_default(), label, action.enabled(m), testid)
        };
        let s = m.snapshot;
        match figure {
            Figure::Node(id) => {
                let Some(n) = s.nodes.iter().find(|n| &n.id == id) else {
                    return MenuModel { title, ..MenuModel::default() };
                };
                let lines = story_state(n, s.lease.newest_granted, fable, lang);
                let actions = [
                    (Action::Sleep(id.clone()), format!("node-{id}-pause")),
                    (Action::Crash(id.clone()), format!("node-{id}-crash")),
                    (Action::CutOff(id.clone()), format!("node-{id}-partition")),
                ]
                .into_iter()
                .map(|(a, testid)| offer(a, testid))
                .collect();
                MenuModel { title, lines, actions, fencing: None }
            }
            Figure::Timer => {
                // Whether the lease runs is the engine's one judgement (`Liveness`).
                let line = match (&s.lease.holder_identity, s.lease.liveness) {
                    (Some(holder), crate::engine::Liveness::Live { remaining_ms }) => {
                        let name = app.cast.with(|c| c.name(holder, lang));
                        fill(word(Word::FigureTimerLeft), &[("name", &name), ("s", &seconds(remaining_ms))])
                    }
                    _ => word(Word::FigureTimerIdle).to_owned(),
                };
                MenuModel {
                    title,
                    lines: vec![line],
                    actions: vec![offer(Action::RevokeLease, "act-revoke".to_owned())],
                    fencing: None,
                }
            }
            Figure::Gate => {
                let on = s.resource.fencing;
                let tokens = s.store_kind.rules().issues_tokens();
                let line = if !tokens {
                    say(Ui::FencingNoToken).to_owned()
                } else if on {
                    fill(word(Word::FigureGateOn), &[("n", &s.resource.high_water.to_string())])
                } else {
                    word(Word::FigureGateOff).to_owned()
                };
                MenuModel {
                    title,
                    lines: vec![line],
                    actions: vec![offer(Action::Fencing, "act-fencing".to_owned())],
                    fencing: Some(on),
                }
            }
        }
    })
}

/// The page's one figure menu: a popover beside the figure last opened, with its name, how it
/// is doing and what can be done to it. Light-dismissed (a click elsewhere, Esc), as popovers
/// are; the focus goes back to the figure. Written as markup with one click handler.
#[component]
pub fn FigureMenu(app: AppState) -> impl IntoView {
    // The menu as markup, set again only when what it shows changes.
    let markup = Memo::new(move |_| {
        let mut out = Markup::new();
        let Some(figure) = app.figure.get() else { return String::new() };
        let m = menu_model(app, &figure, app.lang.get());
        out.tag("h2").text(&m.title);
        out.tag("ul").lit("class", "story-state").open();
        for line in &m.lines {
            out.tag("li").text(line);
        }
        out.end("ul");
        out.tag("div").lit("class", "buttons").open();
        for (act, label, enabled, testid) in &m.actions {
            let tag = out.tag("button").attr("data-act", act).attr("data-testid", testid);
            let tag = match m.fencing {
                Some(on) if act == "fencing" => tag.lit("data-on", if on { "true" } else { "false" }),
                _ => tag,
            };
            let tag = if *enabled { tag } else { tag.lit("disabled", "") };
            tag.text(label);
        }
        out.end("div");
        out.into_string()
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(code) = super::stage::act_of(&ev) else { return };
        if !super::act::perform_code(app, &code) {
            return;
        }
        // The learner watches what the action did.
        if let Some(menu) = menu() {
            let _ = menu.hide_popover();
        }
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
            super::focus::now(&el);
        }
    };
    view! {
        <div
            id=MENU_ID
            class="menu figure-menu"
            popover="auto"
            role="dialog"
            data-testid="figure-menu"
            on:toggle=on_toggle
            on:click=on_click
            inner_html=move || markup.get()
        ></div>
    }
}

/// A scripted step in words: who, and what the script does to them, as the buttons say it
/// (e.g. "Old Chen: Put to sleep"); faults the page has no button for are named plainly.
pub(crate) fn script_step(command: &Command, cast: &Cast, lang: Lang) -> String {
    let fable = cast.fable();
    let say = |ui: Ui| ui.text(lang).to_owned();
    let word = |w: Word| fable.word(w, lang).to_owned();
    let who = command.node().map(|id| cast.name(id, lang));
    let what = match command {
        Command::Pause { .. } => say(Ui::Sleep),
        Command::Resume { .. } => say(Ui::Wake),
        Command::Crash { .. } => word(Word::Crash),
        Command::Restart { .. } => word(Word::Restart),
        Command::Partition { .. } => word(Word::CutOff),
        Command::Heal { .. } => word(Word::Reconnect),
        Command::RevokeLease => word(Word::Revoke),
        Command::SetFencing { on: true } => word(Word::FigureFencingOn),
        Command::SetFencing { on: false } => word(Word::FigureFencingOff),
        Command::DelayNextWrite { .. } => say(Ui::ScriptDelay),
        Command::RawWrite { .. } => say(Ui::ScriptRawWrite),
        Command::RollbackIssuer { .. } => say(Ui::ScriptRollback),
        Command::RestoreResource { .. } => say(Ui::ScriptRestore),
        Command::RestartResource { .. } => say(Ui::ScriptRestartResource),
        Command::ClockJump { .. } | Command::ClockRate { .. } => say(Ui::ScriptClock),
        Command::DropScript { .. } => say(Ui::ScriptDropStep),
        Command::StoreFailover { .. } => say(Ui::ScriptFailover),
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
    let markup = Memo::new(move |_| {
        let Some(notice) = app.script_notice.get() else { return String::new() };
        let lang = app.lang.get();
        // Up to date with the run (a step may have happened since, or been dropped).
        app.snapshot.track();
        let steps = script_ahead_for(app, &notice.node, lang);
        let Some((at, what)) = steps.first() else { return String::new() };
        let name = app.cast.with(|c| c.name(&notice.node, lang));
        let text = fill(
            if steps.len() == 1 { Ui::ScriptAheadOne } else { Ui::ScriptAhead }.text(lang),
            &[("name", &name), ("what", what), ("s", &seconds(*at)), ("n", &steps.len().to_string())],
        );
        let mut out = Markup::new();
        out.tag("p").text(&text);
        out.tag("div").lit("class", "buttons").open();
        out.tag("button")
            .lit("class", "primary")
            .attr("data-act", &super::act::code(Action::DropScript(notice.node.clone())))
            .lit("data-testid", "script-drop")
            .text(&fill(Ui::ScriptDrop.text(lang), &[("name", &name)]));
        out.tag("button")
            .attr("data-act", &super::act::code(Action::KeepScript))
            .lit("data-testid", "script-keep")
            .text(Ui::ScriptKeep.text(lang));
        out.end("div");
        out.into_string()
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        // Either answer (drop the script's steps, or keep them) closes the notice.
        if super::stage::act_of(&ev).is_some_and(|code| super::act::perform_code(app, &code)) {
            app.script_notice.set(None);
        }
    };
    view! {
        <div
            class="script-notice"
            data-testid="script-notice"
            role="status"
            hidden=move || markup.with(String::is_empty)
            on:click=on_click
            inner_html=move || markup.get()
        ></div>
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
