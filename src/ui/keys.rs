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

use crate::actions::{Action, BINDINGS};
use crate::story::i18n::{Later, Ui};

use super::state::AppState;
use super::tr;

/// Whether the key went to a field the learner is typing in.
fn typing(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else { return false };
    // A slider or a checkbox takes no text: the shortcuts still work there (the arrows move a
    // slider itself, which handles them first).
    let kind = el.get_attribute("type").unwrap_or_default();
    let input = el.tag_name() == "INPUT" && !matches!(kind.as_str(), "range" | "checkbox" | "button");
    input || matches!(el.tag_name().as_str(), "SELECT" | "TEXTAREA") || el.is_content_editable()
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

/// Carries out the shortcut for `key` (see [`crate::actions::BINDINGS`]); `false` if the key is
/// not one. A shortcut whose action cannot be taken now does nothing (and is still the page's).
fn shortcut(app: AppState, key: &str) -> bool {
    let holding = app.tutor.0.with_untracked(|t| t.holds_run());
    match Action::from_key(key, holding) {
        Some(action) => {
            super::act::perform(app, action);
            true
        }
        None => false,
    }
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

/// The `?` overlay: every shortcut and what it does, in the page's language, with a button that
/// closes it. Its layer stays on the page; the list is drawn in it while it is open.
#[component]
pub fn Help(app: AppState) -> impl IntoView {
    let list = move || {
        app.help.get().then(|| {
            let rows = BINDINGS
                .iter()
                .map(|binding| {
                    view! {
                        <dt>
                            <kbd>{binding.shown}</kbd>
                        </dt>
                        <dd>{move || binding.does.text(app.lang.get())}</dd>
                    }
                })
                .collect_view();
            view! {
                <div class="help" data-testid="help" role="dialog" aria-modal="true" aria-labelledby="help-title">
                    <h2 id="help-title">{tr(app, Later::KeysTitle)}</h2>
                    <dl>{rows}</dl>
                    <button data-testid="help-close" node_ref=app.anchors.help_close on:click=move |_| app.help.set(false)>
                        {tr(app, Ui::Dismiss)}
                    </button>
                </div>
            }
        })
    };
    // Where the focus goes as the list opens and closes is `focus`'s (`lesson::keep_focus` says
    // when it is open): it takes the focus, so Escape and Tab stay in it, and gives it back to
    // what had it (nothing, when it was opened by `?` with nothing focused: the shortcuts go on
    // working then, Space included).
    view! { <div class="help-layer">{list}</div> }
}
