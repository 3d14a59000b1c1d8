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

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::actions::Action;
use crate::engine::Command;
use crate::scenario::lesson::Element;
use crate::story::i18n::{Later, Ui};
use crate::story::markup::within;
use crate::story::{fill, Cast};
use crate::vocab::Lang;

use super::crew::story_state;
use super::state::AppState;
use super::{coord, said, seconds, tr};
use crate::fables::Word;

/// A figure in the scene that the learner can act on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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

    /// What can be done to it, each action with its button's `data-testid`.
    fn actions(&self) -> Vec<(Action, String)> {
        match self {
            Figure::Node(id) => vec![
                (Action::Sleep(id.clone()), format!("node-{id}-pause")),
                (Action::Crash(id.clone()), format!("node-{id}-crash")),
                (Action::CutOff(id.clone()), format!("node-{id}-partition")),
            ],
            Figure::Timer => vec![(Action::RevokeLease, "act-revoke".to_owned())],
            Figure::Gate => vec![(Action::Fencing, "act-fencing".to_owned())],
        }
    }
}

/// The id of the page's one figure menu (a popover).
const MENU_ID: &str = "figure-menu";
/// The menu's width in CSS px (as in the style sheet), for placing it beside its figure.
const MENU_W: f64 = 280.0;
/// Room kept for the menu's height when placing it, in CSS px.
const MENU_H: f64 = 230.0;

thread_local! {
    /// The hit area the figure menu was last opened from: the focus goes back to it as the menu
    /// closes.
    static OPENER: RefCell<Option<web_sys::Element>> = const { RefCell::new(None) };
}

/// A figure's hit area as the run stands.
#[derive(Clone, PartialEq)]
struct Hit {
    figure: Figure,
    /// A node's role (`data-role`).
    role: Option<&'static str>,
    /// Where it is in the scene's view box: x, y, width, height.
    at: (f64, f64, f64, f64),
    /// Its accessible name: what it is, and that it offers actions.
    label: String,
}

/// What `read` finds on the hit area of `figure` in `hits` (the default once it has gone).
fn on_hit<T: Default>(hits: Memo<Vec<Hit>>, figure: &Figure, read: impl Fn(&Hit) -> T) -> T {
    hits.with(|h| h.iter().find(|h| h.figure == *figure).map(read).unwrap_or_default())
}

/// A scene's hit areas, in an SVG laid exactly over the scene's own (the same 1200 × 640 view
/// box): one per node (its figure), the timer (`timer`: the element that stands for it in this
/// scene) and the gate ([`Element::Resource`]), each a button that opens the figure's menu on a
/// click, Enter or Space. The picture stays an image for screen readers; this layer is the
/// group of its buttons.
pub(crate) fn hands(app: AppState, place: super::lesson::PlaceFn, timer: Element) -> impl IntoView {
    // Only what the hit areas show: where each figure is, its name and a node's role.
    let hits = Memo::new(move |_| {
        let lang = app.lang.get();
        app.fable.track();
        let roles: Vec<(String, &'static str)> =
            app.snapshot.with(|s| s.nodes.iter().map(|n| (n.id.clone(), n.role.as_str())).collect());
        let nodes = roles.into_iter().map(|(id, role)| (Figure::Node(id.clone()), Element::Node(id), Some(role)));
        nodes
            .chain([(Figure::Timer, timer.clone(), None), (Figure::Gate, Element::Resource, None)])
            .filter_map(|(figure, element, role)| {
                let (at, _) = app.picture.with_untracked(|p| place(p, &element))?;
                let name = figure_name(app, &figure, lang);
                let label = fill(Later::FigureActions.text(lang), &[("name", &name)]);
                Some(Hit { figure, role, at, label })
            })
            .collect::<Vec<_>>()
    });
    // The figures shown: a hit area stays while its figure does.
    let figures = Memo::new(move |_| hits.with(|h| h.iter().map(|h| h.figure.clone()).collect::<Vec<_>>()));
    let area = move |figure: Figure| {
        let read = {
            let figure = figure.clone();
            move |f: fn(&Hit) -> String| {
                let figure = figure.clone();
                move || on_hit(hits, &figure, f)
            }
        };
        let role = {
            let figure = figure.clone();
            move || on_hit(hits, &figure, |h| h.role)
        };
        let on_click = {
            let figure = figure.clone();
            move |ev: leptos::ev::MouseEvent| open_menu(app, figure.clone(), opener(&ev))
        };
        let on_key = {
            let figure = figure.clone();
            move |ev: leptos::ev::KeyboardEvent| {
                if matches!(ev.key().as_str(), "Enter" | " ") {
                    ev.prevent_default();
                    open_menu(app, figure.clone(), opener(&ev));
                }
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
                aria-label=read(|h| h.label.clone())
                on:click=on_click
                on:keydown=on_key
            >
                <rect
                    x=read(|h| coord(h.at.0))
                    y=read(|h| coord(h.at.1))
                    width=read(|h| coord(h.at.2))
                    height=read(|h| coord(h.at.3))
                    rx="16"
                ></rect>
            </g>
        }
    };
    view! {
        <svg
            class="hands-layer"
            data-testid="hands"
            viewBox="0 0 1200 640"
            preserveAspectRatio="xMidYMid meet"
            role="group"
            aria-label=tr(app, Later::FiguresLabel)
        >
            <For each=move || figures.get() key=|f| f.clone() children=area />
        </svg>
    }
}

/// The hit area an event was handled by.
fn opener(ev: &web_sys::Event) -> Option<web_sys::Element> {
    ev.current_target()?.dyn_into::<web_sys::Element>().ok()
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
    let Some(window) = crate::ui::window() else { return };
    let (vw, vh) = (
        window.inner_width().ok().and_then(|v| v.as_f64()).unwrap_or(1280.0),
        window.inner_height().ok().and_then(|v| v.as_f64()).unwrap_or(720.0),
    );
    // Beside the figure where there is room (right, else left), never off the screen.
    let (left, top) = match anchor.as_ref().map(|a| a.get_bounding_client_rect()) {
        Some(r) => {
            let left = if r.right() + 8.0 + MENU_W <= vw { r.right() + 8.0 } else { r.left() - 8.0 - MENU_W };
            (within(left, 4.0, (vw - MENU_W - 4.0).max(4.0)), within(r.top(), 4.0, (vh - MENU_H).max(4.0)))
        }
        None => ((vw - MENU_W) / 2.0, vh / 3.0),
    };
    let Some(menu) = document().get_element_by_id(MENU_ID).and_then(|m| m.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return;
    };
    // Where it stands, set as it opens beside its figure.
    let style = menu.style();
    let _ = style.set_property("left", &format!("{}px", coord(left)));
    let _ = style.set_property("top", &format!("{}px", coord(top)));
    OPENER.with(|o| *o.borrow_mut() = anchor);
    app.figure.set(Some(figure));
    if !menu.matches(":popover-open").unwrap_or(false) {
        let _ = menu.show_popover();
    }
    // Once the menu is drawn for this figure: the focus on its first action.
    super::focus::hand_to(&[&format!("#{MENU_ID} button:not(:disabled)")]);
}

/// What the figure menu shows as the run stands: the figure's state in words, and for each of
/// its actions ([`Figure::actions`], none for a node no longer in the run) its words and whether
/// it can be taken.
#[derive(Clone, Default, PartialEq)]
struct MenuModel {
    lines: Vec<String>,
    offers: Vec<(&'static str, bool)>,
    /// `data-on` of the fencing action: whether fencing is on now.
    fencing: Option<bool>,
}

/// The menu for `figure` as the run stands.
fn menu_model(app: AppState, figure: &Figure, lang: Lang) -> MenuModel {
    let fable = app.fable.get();
    let say = |ui: Ui| ui.text(lang);
    let word = |w: Word| fable.word(w, lang);
    super::act::watch(app, |m| {
        // Each action offered: its words as the run stands, whether it can be taken.
        let offers = || {
            figure
                .actions()
                .into_iter()
                .map(|(action, _)| (action.words(m).map_or("", |w| w.text(fable, lang)), action.enabled(m)))
                .collect()
        };
        let s = m.snapshot;
        match figure {
            Figure::Node(id) => {
                let Some(n) = s.nodes.iter().find(|n| &n.id == id) else { return MenuModel::default() };
                let lines = story_state(n, s.lease.newest_granted, fable, lang);
                MenuModel { lines, offers: offers(), fencing: None }
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
                MenuModel { lines: vec![line], offers: offers(), fencing: None }
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
                MenuModel { lines: vec![line], offers: offers(), fencing: Some(on) }
            }
        }
    })
}

/// The menu's body for `figure`: its name, how it is doing, and a button per action, each
/// enabled as the action registry says; an action taken closes the menu (`hide`).
fn menu_body(app: AppState, figure: Figure, hide: impl Fn() + Copy + Send + Sync + 'static) -> impl IntoView {
    let model = {
        let figure = figure.clone();
        Memo::new(move |_| menu_model(app, &figure, app.lang.get()))
    };
    let offered = Memo::new(move |_| model.with(|m| !m.offers.is_empty()));
    let offer = move |k: usize| model.with(|m| m.offers.get(k).copied().unwrap_or_default());
    let title = {
        let figure = figure.clone();
        move || figure_name(app, &figure, app.lang.get())
    };
    let actions = figure.actions();
    let buttons = move || {
        offered.get().then(|| {
            actions
                .iter()
                .cloned()
                .enumerate()
                .map(|(k, (action, testid))| {
                    let fencing = matches!(action, Action::Fencing);
                    let on = move || {
                        model.with(|m| m.fencing).filter(|_| fencing).map(|on| if on { "true" } else { "false" })
                    };
                    view! {
                        <button
                            data-testid=testid
                            data-on=on
                            disabled=move || !offer(k).1
                            on:click=move |_| {
                                super::act::perform(app, action.clone());
                                // The learner watches what the action did.
                                hide();
                            }
                        >
                            {move || offer(k).0}
                        </button>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <h2>{title}</h2>
        <ul class="story-state">
            {move || model.with(|m| m.lines.clone()).into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
        </ul>
        <div class="buttons">{buttons}</div>
    }
}

/// The page's one figure menu: a popover beside the figure last opened, with its name, how it
/// is doing and what can be done to it. Light-dismissed (a click elsewhere, Esc), as popovers
/// are; the focus goes back to the figure.
#[component]
pub fn FigureMenu(app: AppState) -> impl IntoView {
    let menu = NodeRef::<leptos::html::Div>::new();
    let hide = move || {
        if let Some(menu) = menu.get_untracked() {
            let _ = menu.hide_popover();
        }
    };
    // The focus goes back to the figure the menu was opened from.
    let on_toggle = move |_: web_sys::Event| {
        let open = menu.get_untracked().is_some_and(|m| m.matches(":popover-open").unwrap_or(false));
        if open {
            return;
        }
        if let Some(el) = OPENER.with(|o| o.borrow().clone()).filter(|el| el.is_connected()) {
            super::focus::now(&el);
        }
    };
    let figure = move || app.figure.get();
    view! {
        <div
            id=MENU_ID
            class="menu figure-menu"
            popover="auto"
            role="dialog"
            data-testid="figure-menu"
            data-figure=move || figure().map(|f| f.testid())
            aria-label=move || figure().map(|f| figure_name(app, &f, app.lang.get()))
            node_ref=menu
            on:toggle=on_toggle
        >
            {move || figure().map(|f| menu_body(app, f, hide))}
        </div>
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
        Command::NextMessage { kind, fault, .. } => {
            let said = match fault {
                crate::engine::MessageFault::Lose => Later::ScriptLose,
                crate::engine::MessageFault::Hold { .. } => Later::ScriptHold,
                crate::engine::MessageFault::Copy => Later::ScriptCopy,
            };
            fill(said.text(lang), &[("what", &word(crate::story::picture::message_word(*kind)))])
        }
        Command::RawWrite { .. } => say(Ui::ScriptRawWrite),
        Command::RollbackIssuer { .. } => say(Ui::ScriptRollback),
        Command::RestoreResource { .. } => say(Ui::ScriptRestore),
        Command::RestartResource { .. } => say(Ui::ScriptRestartResource),
        Command::ClockJump { .. } | Command::ClockRate { .. } => say(Ui::ScriptClock),
        Command::DropScript { .. } => say(Ui::ScriptDropStep),
        Command::StoreFailover { .. } => say(Ui::ScriptFailover),
    };
    match who {
        Some(name) => fill(Later::WhoDoes.text(lang), &[("who", &name), ("what", &what)]),
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

/// The notice that the script will act again on the node the learner just acted on (its next
/// step and when), with the offer to drop the script's remaining steps for it or keep them.
#[component]
pub fn ScriptNoticeBar(app: AppState) -> impl IntoView {
    // The node, what the notice says and the drop button's words; `None`: no notice.
    let notice = Memo::new(move |_| {
        let notice = app.script_notice.get()?;
        let lang = app.lang.get();
        // Up to date with the run (a step may have happened since, or been dropped).
        app.snapshot.track();
        let steps = script_ahead_for(app, &notice.node, lang);
        let (at, what) = steps.first()?;
        let name = app.cast.with(|c| c.name(&notice.node, lang));
        let text = fill(
            if steps.len() == 1 { Later::ScriptAheadOne } else { Later::ScriptAhead }.text(lang),
            &[("name", &name), ("what", what), ("s", &seconds(*at)), ("n", &steps.len().to_string())],
        );
        let drop = fill(Later::ScriptDrop.text(lang), &[("name", &name)]);
        Some((notice.node, text, drop))
    });
    let node = Memo::new(move |_| notice.with(|n| n.as_ref().map(|(node, _, _)| node.clone())));
    let text = move || notice.with(|n| n.as_ref().map(|(_, text, _)| text.clone()).unwrap_or_default());
    let drop = move || notice.with(|n| n.as_ref().map(|(_, _, drop)| drop.clone()).unwrap_or_default());
    // Either answer (drop the script's steps, or keep them) closes the notice.
    let answer = move |action: Action| {
        super::act::perform(app, action);
        app.script_notice.set(None);
    };
    let body = move || {
        node.get().map(|node| {
            view! {
                <p>{text}</p>
                <div class="buttons">
                    <button
                        class="primary"
                        data-testid="script-drop"
                        on:click=move |_| answer(Action::DropScript(node.clone()))
                    >
                        {drop}
                    </button>
                    <button data-testid="script-keep" on:click=move |_| answer(Action::KeepScript)>
                        {tr(app, Later::ScriptKeep)}
                    </button>
                </div>
            }
        })
    };
    view! {
        <div class="script-notice" data-testid="script-notice" role="status" hidden=move || notice.with(Option::is_none)>
            {body}
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
