//! Workshop mode (issue 5): keyboard shortcuts for everything a presenter does live, the `?`
//! overlay that lists them, and presenter mode (large type and strokes, the controls hidden
//! until wanted, full screen).
//!
//! One `keydown` listener on the window. It never fires while the learner types in a field
//! (`input`, `select`, `textarea`, anything editable), nor with Ctrl, Alt or Meta held (the
//! browser's own shortcuts). Presenter remotes send Page Down and Page Up: the next and previous
//! lesson step.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::engine::{Command, Role};
use crate::scenario::library;
use crate::story::i18n::Ui;
use crate::story::markup::Markup;

use crate::story::tour::Input;

use super::lesson;
use super::state::{AppState, SPEED_LOG2_MAX, SPEED_LOG2_MIN};

/// The shortcuts as the overlay lists them: the keys and what they do.
pub const SHORTCUTS: &[(&str, Ui)] = &[
    ("Space, K", Ui::KeyPlay),
    ("→ .", Ui::KeyStep),
    ("← ,", Ui::KeyStepBack),
    ("+ −", Ui::KeySpeed),
    ("P", Ui::KeyPauseLeader),
    ("S", Ui::KeyRunSandOut),
    ("F", Ui::KeyFencing),
    ("T", Ui::KeyPacing),
    ("N, Page Down", Ui::KeyNextStep),
    ("B, Page Up", Ui::KeyPrevStep),
    ("R", Ui::KeyReset),
    ("1 … 9", Ui::KeyScenario),
    ("W", Ui::KeyPresenter),
    ("C", Ui::KeyControls),
    ("?", Ui::KeyHelp),
    ("Esc", Ui::KeyClose),
];

/// Whether the key went to a field the learner is typing in.
fn typing(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else { return false };
    // A slider or a checkbox takes no text: the shortcuts still work there (the arrows move a
    // slider itself, which handles them first).
    let kind = el.get_attribute("type").unwrap_or_default();
    let input = el.tag_name() == "INPUT" && !matches!(kind.as_str(), "range" | "checkbox" | "button");
    input || matches!(el.tag_name().as_str(), "SELECT" | "TEXTAREA") || el.is_content_editable()
}

/// Pauses the node that believes it leads, or wakes the one asleep (the harbor's Old Chen).
fn pause_or_wake_leader(app: AppState) {
    let (asleep, leader) = app.snapshot.with_untracked(|s| {
        let asleep = s.nodes.iter().find(|n| n.role == Role::Paused).map(|n| n.id.clone());
        let leader = s.nodes.iter().find(|n| n.role == Role::Leader).map(|n| n.id.clone());
        (asleep, leader)
    });
    match (asleep, leader) {
        (Some(node), _) => app.act_on_node(Command::Resume { node }),
        (None, Some(node)) => app.act_on_node(Command::Pause { node, for_ms: None }),
        (None, None) => {}
    }
}

/// Presenter mode on or off; on, the page asks for full screen (the key press allows it).
pub fn toggle_presenter(app: AppState) {
    let on = !app.presenter.get_untracked();
    app.presenter.set(on);
    let doc = document();
    if on {
        if let Some(root) = doc.document_element() {
            let _ = root.request_fullscreen();
        }
    } else if doc.fullscreen_element().is_some() {
        doc.exit_fullscreen();
    }
}

/// Carries out the shortcut for `key`; `false` if the key is not one.
fn shortcut(app: AppState, key: &str) -> bool {
    let (holding, in_lesson, step) = app.tutor.0.with_untracked(|t| (t.holds_run(), t.lesson().is_some(), t.step()));
    match key {
        // While the audience thinks, the run waits: the play keys reveal, and the keys that
        // would move or change the run do nothing.
        " " | "Enter" | "k" | "K" if holding => lesson::send(app, Input::Reveal),
        "ArrowRight" | "." | "ArrowLeft" | "," | "p" | "P" | "s" | "S" | "f" | "F" if holding => {}
        " " | "k" | "K" => app.playing.update(|p| *p = !*p),
        "ArrowRight" | "." => app.step(),
        "ArrowLeft" | "," => app.step_back(),
        "+" | "=" => app.speed_log2.update(|s| *s = (*s + 1).min(SPEED_LOG2_MAX)),
        "-" | "_" => app.speed_log2.update(|s| *s = (*s - 1).max(SPEED_LOG2_MIN)),
        "p" | "P" => pause_or_wake_leader(app),
        "s" | "S" => app.apply(Command::RevokeLease),
        // (A store without fencing tokens refuses it: `Sim::apply`.)
        "f" | "F" => {
            let on = app.snapshot.with_untracked(|s| s.resource.fencing);
            app.apply(Command::SetFencing { on: !on });
        }
        "t" | "T" => {
            app.true_time.update(|t| *t = !*t);
            app.share_url.set(None);
        }
        "n" | "N" | "PageDown" => lesson::send(app, Input::Next),
        "b" | "B" | "PageUp" => lesson::send(app, Input::Back),
        "r" | "R" if in_lesson => lesson::send(app, Input::Go(step)),
        "r" | "R" => app.reset(),
        "w" | "W" => toggle_presenter(app),
        "c" | "C" => app.show_controls.update(|c| *c = !*c),
        "?" => app.help.update(|h| *h = !*h),
        "Escape" => {
            app.help.set(false);
            if app.presenter.get_untracked() && document().fullscreen_element().is_none() {
                app.presenter.set(false);
            }
        }
        _ => {
            let Some(k) = key.parse::<usize>().ok().filter(|k| (1..=9).contains(k)) else { return false };
            if let Some(b) = library::MENU.get(k - 1) {
                if in_lesson {
                    lesson::leave(app);
                }
                app.choose_scenario(b.id);
            }
        }
    }
    true
}

use super::focus::GIVEN_BACK;

/// Whether the key went to a control that acts on Space and Enter itself (a button, a link, a
/// disclosure): those keys are the control's, not shortcuts. One exception: Space on the control
/// the overlay has just given the focus back to ([`GIVEN_BACK`]) plays and pauses. A presenter
/// who clicked `?`, read and pressed Escape would otherwise open the overlay again with the Space
/// meant for the run; a learner who moves to the `?` button and presses Space opens it.
fn on_control(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return false };
    if ev.key() == " " && el.has_attribute(GIVEN_BACK) {
        return false;
    }
    matches!(el.tag_name().as_str(), "BUTTON" | "A" | "SUMMARY")
        || el.get_attribute("role").as_deref() == Some("button")
}

/// Listens for the shortcuts for the life of the page.
pub fn listen(app: AppState) {
    // The mark of a control given the focus back goes when the focus goes elsewhere.
    let _ = window_event_listener(leptos::ev::focusin, |ev| {
        let target = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        if target.as_ref().is_some_and(|t| t.has_attribute(GIVEN_BACK)) {
            return;
        }
        if let Ok(Some(marked)) = document().query_selector(&format!("[{GIVEN_BACK}]")) {
            let _ = marked.remove_attribute(GIVEN_BACK);
        }
    });
    let _ = window_event_listener(leptos::ev::keydown, move |ev| {
        // Ctrl, Alt and Meta are the browser's; a key a field or the diagram has handled
        // (its ← → Enter) is theirs.
        if ev.ctrl_key()
            || ev.alt_key()
            || ev.meta_key()
            || ev.default_prevented()
            || (ev.key() != "Escape" && typing(&ev))
        {
            return;
        }
        if matches!(ev.key().as_str(), " " | "Enter") && on_control(&ev) {
            return;
        }
        // The arrows move a focused slider (the Time slider, the speed).
        let slider = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| el.get_attribute("type").as_deref() == Some("range"));
        if slider && ev.key().starts_with("Arrow") {
            return;
        }
        // Escape with a menu open (a popover: the tools, a figure's actions) is the browser's:
        // it closes that menu and nothing else.
        if ev.key() == "Escape" {
            if document().query_selector(":popover-open").ok().flatten().is_none() {
                shortcut(app, "Escape");
            }
            return;
        }
        // Space and the arrows would also scroll the page, or press a focused button twice.
        if shortcut(app, &ev.key()) {
            ev.prevent_default();
        }
    });
}

/// The `?` overlay: every shortcut and what it does, in the page's language.
#[component]
pub fn Help(app: AppState) -> impl IntoView {
    let markup = move || {
        if !app.help.get() {
            return String::new();
        }
        let lang = app.lang.get();
        let mut out = Markup::new();
        out.tag("div")
            .lit("class", "help")
            .lit("data-testid", "help")
            .lit("role", "dialog")
            .lit("aria-modal", "true")
            .lit("aria-labelledby", "help-title")
            .open();
        out.tag("h2").lit("id", "help-title").text(Ui::KeysTitle.text(lang));
        out.push_raw("<dl>");
        for (keys, what) in SHORTCUTS {
            out.push_raw("<dt>");
            out.tag("kbd").text(keys);
            out.push_raw("</dt>");
            out.tag("dd").text(what.text(lang));
        }
        out.push_raw("</dl>");
        out.tag("button").lit("data-testid", "help-close").lit("data-close", "1").text(Ui::Dismiss.text(lang));
        out.end("div");
        out.into_string()
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let close = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| el.has_attribute("data-close"));
        if close {
            app.help.set(false);
        }
    };
    // Where the focus goes as the list opens and closes is `focus`'s (`lesson::keep_focus` says
    // when it is open): it takes the focus, so Escape and Tab stay in it, and gives it back to
    // what had it (nothing, when it was opened by `?` with nothing focused: the shortcuts go on
    // working then, Space included).
    view! { <div class="help-layer" on:click=on_click inner_html=markup></div> }
}
