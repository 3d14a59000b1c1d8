//! The one owner of where the keyboard's focus goes when the page changes under it (issue 29).
//!
//! A dialog opening or closing (the shortcuts list, the audience question), a lesson's step
//! asking for its title, a redrawn control, a figure's menu opening: each asks here, and every
//! hand-over is carried out by one animation-frame callback ([`settle`]), or sooner by the next
//! key pressed if that comes first ([`flush`]), in one fixed order:
//!
//! 1. the page behind an open dialog is made inert, or no longer inert;
//! 2. the first of these that is on the page, can take the focus and is inside the open dialog
//!    (when one is open) gets it: a move asked for with [`hand_to`] (the newest first); the
//!    control that opened a dialog that gives the focus back, once it closes; the first control
//!    of a dialog that has just opened; a control asked to be kept with [`keep`];
//! 3. a focus that fell to the page's body (or into the inert page) goes to the open dialog's
//!    first control, or to the lesson step's title.
//!
//! Before, the shortcuts list and the lesson's focus keeping each scheduled animation frames of
//! their own, one to three deep, and which ran last decided where the focus ended: a keyboard
//! user could lose their place, and a browser test failed on a busy machine.

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Marks the control the shortcuts list gave the focus back to when it closed, until the focus
/// moves on (read by `keys::on_control`: Space there plays rather than opening the list again).
pub(crate) const GIVEN_BACK: &str = "data-given-back";

/// A modal layer over the page.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Dialog {
    /// The `?` shortcuts list (`keys::Help`).
    Help,
    /// The audience question of a lesson in presenter mode (`lesson`).
    Audience,
}

impl Dialog {
    const ALL: [Dialog; 2] = [Dialog::Help, Dialog::Audience];

    /// The class of the layer the dialog is drawn in, a child of `.page`.
    fn layer(self) -> &'static str {
        match self {
            Dialog::Help => "help-layer",
            Dialog::Audience => "audience-layer",
        }
    }

    /// The control that takes the focus when the dialog opens, held by `anchors`.
    fn first_control(self, anchors: Anchors) -> Option<web_sys::Element> {
        let control = match self {
            Dialog::Help => anchors.help_close,
            Dialog::Audience => anchors.audience_reveal,
        };
        control.get_untracked().map(|el| el.into())
    }

    /// Whether closing it gives the focus back to the control that had it when it opened. The
    /// audience question does not: the lesson says where the learner goes next.
    fn gives_back(self) -> bool {
        self == Dialog::Help
    }

    /// The one shown on top when several are open.
    fn top(open: [bool; 2]) -> Option<Dialog> {
        Dialog::ALL.into_iter().zip(open).find_map(|(d, o)| o.then_some(d))
    }
}

/// What has been asked since the last [`settle`].
#[derive(Default)]
struct Handover {
    /// Whether a [`settle`] is waiting for the next frame.
    scheduled: bool,
    /// Which dialogs are open, as last said by [`dialogs`] (in [`Dialog::ALL`]'s order).
    open: [bool; 2],
    /// The page's anchors, as last given to [`dialogs`].
    anchors: Option<Anchors>,
    /// The control that had the focus when a dialog that gives it back opened; or, when the focus
    /// was between a redraw and the [`keep`] that puts it back, that keep's selectors.
    opener: Option<(Option<web_sys::Element>, Vec<String>)>,
    /// Whether the focus goes back to [`Handover::opener`] at the next settle.
    give_back: bool,
    /// A dialog that has just opened.
    opened: Option<Dialog>,
    /// Moves asked for with [`hand_to`], oldest first; each a list of alternatives.
    wanted: Vec<Vec<String>>,
    /// Controls asked to be kept with [`keep`], oldest first.
    kept: Vec<Vec<String>>,
}

thread_local! {
    static HANDOVER: RefCell<Handover> = RefCell::new(Handover::default());
}

fn with<T>(f: impl FnOnce(&mut Handover) -> T) -> T {
    HANDOVER.with(|h| f(&mut h.borrow_mut()))
}

/// Says which dialogs are open now (`help`: the shortcuts list; `audience`: the audience
/// question). A dialog that has just opened gets the focus; one that gives it back remembers the
/// control that had it, and gets it back when it closes.
pub(crate) fn dialogs(anchors: Anchors, help: bool, audience: bool) {
    let now = [help, audience];
    let before = with(|h| {
        h.anchors = Some(anchors);
        std::mem::replace(&mut h.open, now)
    });
    for (k, d) in Dialog::ALL.into_iter().enumerate() {
        match (before[k], now[k]) {
            (false, true) => {
                if d.gives_back() {
                    let active = document().active_element().filter(|a| a.tag_name() != "BODY" && a.is_connected());
                    with(|h| {
                        h.opener = match active {
                            Some(a) => Some((Some(a), Vec::new())),
                            // The control was just redrawn and its focus is still to be put back
                            // (this very frame): that control is the one the dialog gives it to.
                            None => h.wanted.last().or(h.kept.last()).map(|k| (None, k.clone())),
                        };
                        h.give_back = false;
                    });
                }
                with(|h| h.opened = Some(d));
            }
            (true, false) if d.gives_back() => with(|h| h.give_back = true),
            _ => {}
        }
    }
    schedule();
}

/// The controls the focus falls back on when the control that had it is disabled or taken away
/// (a card that goes with its button, a panel closed): the transport bar's Play and Back, held by
/// the references their component set.
#[derive(Clone, Copy, Default)]
pub(crate) struct Anchors {
    /// The transport bar's Play/Pause button.
    pub play: NodeRef<leptos::html::Button>,
    /// The transport bar's step back button.
    pub step_back: NodeRef<leptos::html::Button>,
    /// The shortcuts list's Dismiss, its first control.
    pub help_close: NodeRef<leptos::html::Button>,
    /// The audience question's reveal, its first control.
    pub audience_reveal: NodeRef<leptos::html::Button>,
}

/// Hands the focus at once to the first of `controls` that is on the page and enabled: for a
/// control about to be disabled or taken away with its card or panel while it has the focus,
/// which would otherwise fall to the page's body (not at the next frame: by then it has fallen).
pub(crate) fn hand_now(controls: &[NodeRef<leptos::html::Button>]) {
    for control in controls {
        if let Some(el) = control.get_untracked() {
            if el.is_connected() && !el.disabled() {
                let _ = el.focus();
                if document().active_element().is_some_and(|a| a == **el) {
                    return;
                }
            }
        }
    }
}

/// [`hand_now`], only when the focus is inside the part `part` finds (a card that is about to go
/// with the button that had it); a key pressed elsewhere leaves the focus where it is.
pub(crate) fn hand_out_of(part: &str, controls: &[NodeRef<leptos::html::Button>]) {
    let inside = document().active_element().is_some_and(|a| a.closest(part).ok().flatten().is_some());
    if inside {
        hand_now(controls);
    }
}

/// Whether `control` is to be disabled (`off`), handing the focus first to `instead` when
/// `control` has it: read by a control's reactive `disabled` attribute, so the hand-over happens
/// before the attribute is set (Back at 0 s hands it to Play; Play and Step at the end hand it to
/// Back), not after, when the focus has already fallen to the page's body.
pub(crate) fn disabling(
    off: bool,
    control: NodeRef<leptos::html::Button>,
    instead: NodeRef<leptos::html::Button>,
) -> bool {
    let focused = || control.get_untracked().is_some_and(|el| document().active_element().is_some_and(|a| a == **el));
    if off && focused() {
        hand_now(&[instead]);
    }
    off
}

/// Gives the focus at once to `el`: a move the keyboard itself asks for (an arrow key between
/// tabs, a menu closing back onto its figure).
pub(crate) fn now(el: &web_sys::Element) {
    give_focus(el);
}

/// Asks for the focus on the first control that one of `selectors` finds, at the next frame
/// (once the markup asked for has been drawn).
pub(crate) fn hand_to(selectors: &[&str]) {
    with(|h| h.wanted.push(selectors.iter().map(|s| s.to_string()).collect()));
    schedule();
}

/// Asks that the focus go back to the control one of `selectors` finds once the markup has been
/// drawn again: weaker than [`hand_to`] and a dialog's moves.
pub(crate) fn keep(selectors: &[&str]) {
    with(|h| h.kept.push(selectors.iter().map(|s| s.to_string()).collect()));
    schedule();
}

fn schedule() {
    if with(|h| std::mem::replace(&mut h.scheduled, true)) {
        return;
    }
    request_animation_frame(flush);
}

/// Carries out now a hand-over still waiting for its frame, if any. A key pressed between a
/// dialog opening and the next frame would otherwise act on the page behind it: Tab would walk
/// the page (the dialog has not yet taken the focus, nor made the page inert), Enter would press
/// the control behind. The frame can be late on a busy machine, and keys come faster than
/// frames from a presenter's remote or a test's keyboard. Called by [`listen`] before each key
/// reaches anything; the markup asked for is drawn by then (the effects that draw it ran after
/// the event that asked).
fn flush() {
    if with(|h| h.scheduled) {
        settle();
    }
}

/// Listens, for the life of the page, for keys: before any of them acts (in the capture phase,
/// ahead of every other listener and of the browser's own Tab), a hand-over still waiting for
/// its frame is carried out ([`flush`]).
pub(crate) fn listen() {
    let before_key = wasm_bindgen::closure::Closure::<dyn Fn()>::new(flush);
    if let Some(w) = crate::ui::window() {
        let _ = w.add_event_listener_with_callback_and_bool("keydown", before_key.as_ref().unchecked_ref(), true);
    }
    // The listener lives as long as the page does.
    before_key.forget();
}

/// Whether `el` can take the focus now: on the page, not in an inert part, and inside the layer
/// of the open dialog when there is one.
fn can_take(el: &web_sys::Element, top: Option<Dialog>) -> bool {
    el.is_connected()
        && el.closest("[inert], [disabled]").ok().flatten().is_none()
        && top.is_none_or(|d| el.closest(&format!(".{}", d.layer())).ok().flatten().is_some())
}

fn first_of(selectors: &[String], top: Option<Dialog>) -> Option<web_sys::Element> {
    let doc = document();
    selectors.iter().find_map(|s| doc.query_selector(s).ok().flatten().filter(|el| can_take(el, top)))
}

fn give_focus(el: &web_sys::Element) {
    if let Some(el) = el.dyn_ref::<web_sys::HtmlElement>() {
        let _ = el.focus();
    } else if let Some(el) = el.dyn_ref::<web_sys::SvgElement>() {
        let _ = el.focus();
    }
}

/// Carries out everything asked since the last frame, in the order the module's doc gives.
fn settle() {
    let asked = with(|h| {
        let open = h.open;
        let give_back = std::mem::take(&mut h.give_back);
        let opener = if give_back { h.opener.take() } else { None };
        let taken = Handover {
            scheduled: false,
            open,
            anchors: h.anchors,
            opener,
            give_back,
            opened: h.opened.take(),
            wanted: std::mem::take(&mut h.wanted),
            kept: std::mem::take(&mut h.kept),
        };
        h.scheduled = false;
        taken
    });
    let top = Dialog::top(asked.open);
    let doc = document();
    // 1. The page behind an open dialog is inert.
    if let Some(page) = doc.query_selector(".page").ok().flatten() {
        let children = page.children();
        for k in 0..children.length() {
            let Some(child) = children.item(k) else { continue };
            let layer = Dialog::ALL.iter().any(|d| child.class_list().contains(d.layer()));
            if top.is_some() && !layer {
                let _ = child.set_attribute("inert", "");
            } else {
                let _ = child.remove_attribute("inert");
            }
        }
    }
    // 2. The strongest move that can be made.
    let wanted = asked.wanted.iter().rev().find_map(|w| first_of(w, top));
    let given_back = || {
        let (el, again) = asked.opener.clone()?;
        let el = el.filter(|el| can_take(el, top)).or_else(|| first_of(&again, top))?;
        let _ = el.set_attribute(GIVEN_BACK, "");
        Some(el)
    };
    let first_control = |d: Dialog| asked.anchors.and_then(|a| d.first_control(a)).filter(|el| can_take(el, top));
    let opened = || asked.opened.and_then(first_control);
    let kept = || asked.kept.iter().rev().find_map(|k| first_of(k, top));
    if let Some(el) = wanted.or_else(given_back).or_else(opened).or_else(kept) {
        give_focus(&el);
    }
    // 3. A lost focus is found again.
    let lost = doc.active_element().is_none_or(|a| a.tag_name() == "BODY" || !can_take(&a, top));
    if lost {
        let fallback = match top {
            Some(d) => first_control(d),
            None => first_of(&[".lesson:not([hidden]) .step-title".to_string()], top),
        };
        if let Some(el) = fallback {
            give_focus(&el);
        }
    }
}
