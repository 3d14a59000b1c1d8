//! Carries out a learner's [`Action`] on the page: the one place every control, figure menu,
//! lesson panel, shortcut, remote and embed request ends up (the registry itself, with its
//! keys, its words, when each action can be taken and the command each becomes, is
//! [`crate::actions`]).

use leptos::prelude::*;

use crate::actions::{Action, Moment};
use crate::fables::Said;
use crate::scenario::library;
use crate::story::tour::{Input, Tour};

use super::lesson;
use super::state::{AppState, SPEED_LOG2_MAX, SPEED_LOG2_MIN};

/// Reads where the run stands now (without tracking it) and hands it to `f`.
pub(crate) fn at<T>(app: AppState, f: impl FnOnce(Moment<'_>) -> T) -> T {
    let finished = app.finished.get_untracked();
    let holding = app.tutor.0.with_untracked(|t| t.holds_run());
    app.snapshot.with_untracked(|snapshot| f(Moment { snapshot, finished, holding }))
}

/// [`at`], tracking what it reads: for a memo or an effect that draws the actions offered.
pub(crate) fn watch<T>(app: AppState, f: impl FnOnce(Moment<'_>) -> T) -> T {
    let finished = app.finished.get();
    let holding = app.tutor.0.with(|t| t.holds_run());
    app.snapshot.with(|snapshot| f(Moment { snapshot, finished, holding }))
}

/// Carries out `action` if it can be taken now; one that cannot does nothing. The run's own
/// actions (the transport bar, the landing card's stories, the levers that become engine
/// commands) are carried out here at once; the rest (lessons, dialogs, presenter mode, sharing,
/// the scenario keys) by the later parts, which offer them ([`perform_later`]: a lesson opened
/// from the landing card waits for them, as its panel does).
pub(crate) fn perform(app: AppState, action: Action) {
    let Some(command) = at(app, |m| action.enabled(m).then(|| action.command(m))) else { return };
    app.acts.update(|n| *n = n.wrapping_add(1));
    if let Some(command) = command {
        // An act on a node may be contradicted by the script later: the page says so.
        if super::hands::acts_on_node(&command).is_some() {
            app.act_on_node(command);
        } else {
            app.apply(command);
        }
        return;
    }
    match action {
        Action::PlayPause => {
            app.playing.update(|p| *p = !*p);
            app.landing.set(false);
        }
        Action::SetPlaying(on) => app.playing.set(on),
        Action::Step => app.step(),
        Action::StepBack => app.step_back(),
        Action::Reset => app.reset(),
        Action::Again if app.tutor.0.with_untracked(|t| t.lesson().is_none()) => {
            // From the end's card, which goes: Back has the focus, and hands it to Play once the
            // reset has brought the run to 0 s (`focus::disabling`).
            super::focus::hand_out_of(".recap", &[app.anchors.step_back]);
            app.reset();
        }
        Action::Pacing => {
            app.true_time.update(|t| *t = !*t);
            app.share_url.set(None);
        }
        Action::Faster => app.speed_log2.update(|s| *s = (*s + 1).min(SPEED_LOG2_MAX)),
        Action::Slower => app.speed_log2.update(|s| *s = (*s - 1).max(SPEED_LOG2_MIN)),
        Action::PlayStory(fable, id) => {
            // The card goes with its button: the focus to the transport bar first.
            super::focus::hand_out_of(".landing", &[app.anchors.play]);
            app.landing.set(false);
            app.play_builtin(&id, fable);
        }
        Action::CloseLanding => {
            super::focus::hand_out_of(".landing", &[app.anchors.play]);
            app.landing.set(false);
        }
        Action::OpenLesson(_) => {
            app.landing.set(false);
            app.later.perform(app, action);
        }
        // The rest are commands, carried out above (or nothing to act on now).
        Action::Sleep(_)
        | Action::Crash(_)
        | Action::CutOff(_)
        | Action::SleepLeader
        | Action::RevokeLease
        | Action::Fencing
        | Action::StoreClockJump
        | Action::DropScript(_) => {}
        other => app.later.perform(app, other),
    }
}

/// The actions the later parts carry out (see [`perform`]), once the registry has said they can
/// be taken.
pub(crate) fn perform_later(app: AppState, action: Action) {
    match action {
        Action::Again => lesson::send(app, Input::Go(app.tutor.0.with_untracked(Tour::step))),
        Action::Lesson(input) => {
            if matches!(input, Input::Go(_)) {
                // A step chosen in the contents: the list closes behind it.
                app.contents.set(false);
            }
            if matches!(input, Input::Leave) {
                // The panel goes with its button: the focus goes to the transport bar's Play
                // (or Back, at the run's end).
                super::focus::hand_now(&[app.anchors.play, app.anchors.step_back]);
            }
            lesson::send(app, input);
        }
        Action::BackToPath => lesson::send(app, Input::Go(app.tutor.0.with_untracked(Tour::step))),
        Action::Scenario(k) => {
            if let Some(b) = k.checked_sub(1).and_then(|k| library::MENU.get(k)) {
                if app.tutor.0.with_untracked(|t| t.lesson().is_some()) {
                    lesson::leave(app);
                }
                app.choose_scenario(b.id);
            }
        }
        Action::Presenter => super::keys::toggle_presenter(app),
        Action::Controls => app.show_controls.update(|c| *c = !*c),
        Action::Help => app.help.update(|h| *h = !*h),
        Action::Contents => app.contents.update(|c| *c = !*c),
        Action::OpenLesson(id) => lesson::open(app, id, Some(0)),
        // The notice goes (`hands`, with every answer to it); the script stays as it is.
        Action::KeepScript => {}
        Action::PutAwayRecap => {
            // At the end Play is disabled: Back has the focus.
            super::focus::hand_out_of(".recap", &[app.anchors.step_back]);
            app.recap_put_away.set(true);
        }
        Action::ShareLink => share(app, false),
        Action::Search | Action::StopSearch | Action::OpenFound | Action::Witness => super::ask::act(app, action),
        Action::Sweep | Action::OpenSwept(..) => super::sweep::act(app, action),
        Action::EmbedCode => share(app, true),
        Action::Close => {
            app.help.set(false);
            if app.presenter.get_untracked() && document().fullscreen_element().is_none() {
                app.presenter.set(false);
            }
        }
        // Carried out by `perform` itself.
        _ => {}
    }
}

/// A button that offers one learner action from the registry ([`crate::actions`]): a click carries
/// it out ([`perform`]); it is disabled whenever the registry says the action cannot be taken now
/// ([`Action::enabled`]), and says the key that presses it (`aria-keyshortcuts`, from
/// [`Action::shortcut`]). Every button of the page that acts on the run, the lesson or the page
/// is one of these; the figures' menus and the lesson's panel draw theirs the same way.
///
/// - `label`: its words (an icon-only button, `icon_only`, shows its `icon` or its `glyph`, a
///   sign such as `?`, and says its words as its `aria-label`); `title`: its hint, if it has one;
/// - `state`: a class the button has while a setting is on (`playing`, `fencing`), also written
///   as `data-on="true|false"`;
/// - `pressed`: a toggle's `aria-pressed` (true time, presenter mode);
/// - `node_ref`, `hand_to`: the focus's anchors ([`super::focus::Anchors`]): a button about to be
///   disabled while it has the focus hands it to `hand_to` first.
#[component]
pub(crate) fn ActButton(
    app: AppState,
    action: Action,
    #[prop(into)] label: Signal<Said>,
    #[prop(into)] testid: String,
    #[prop(optional)] class: &'static str,
    #[prop(optional, into)] title: Option<Signal<Said>>,
    #[prop(optional, into)] icon: Option<Signal<&'static str>>,
    #[prop(optional)] icon_only: bool,
    #[prop(optional)] glyph: &'static str,
    #[prop(optional)] state: Option<(&'static str, Signal<bool>)>,
    #[prop(optional, into)] pressed: Option<Signal<bool>>,
    #[prop(optional)] node_ref: NodeRef<leptos::html::Button>,
    #[prop(optional)] hand_to: Option<NodeRef<leptos::html::Button>>,
) -> impl IntoView {
    let say = move |said: Signal<Said>| said.get().text(app.fable.get(), app.lang.get());
    let words = move || say(label);
    let shortcut = action.shortcut();
    let off = {
        let action = action.clone();
        move || {
            let off = !watch(app, |m| action.enabled(m));
            match hand_to {
                Some(instead) => super::focus::disabling(off, node_ref, instead),
                None => off,
            }
        }
    };
    let class = move || match state {
        Some((on_class, on)) if on.get() => format!("{class} {on_class}"),
        _ => class.to_owned(),
    };
    let drawn = icon.map(|d| {
        view! {
            <svg class="icon" viewBox="0 0 16 16" aria-hidden="true">
                <path d=d fill="currentColor" />
            </svg>
        }
    });
    view! {
        <button
            class=class
            data-testid=testid
            data-on=move || state.map(|(_, on)| if on.get() { "true" } else { "false" })
            title=move || title.map(say)
            aria-label=move || icon_only.then(words)
            aria-keyshortcuts=shortcut
            aria-pressed=move || pressed.map(|on| if on.get() { "true" } else { "false" })
            disabled=off
            node_ref=node_ref
            on:click=move |_| perform(app, action.clone())
        >
            {drawn}
            // No text node without a glyph (rendered to HTML, an empty one would be a space).
            {(!glyph.is_empty()).then_some(glyph)}
            // The words in a span: a narrow screen may keep them for assistive technology only.
            {(!icon_only).then(|| view! { <span>{words}</span> })}
        </button>
    }
}

/// The click handler of a control that offers `action`: every button of the page is wired to
/// the registry through this one function.
pub(crate) fn on_click(app: AppState, action: Action) -> impl Fn(leptos::ev::MouseEvent) + Clone + 'static {
    move |_| perform(app, action.clone())
}

/// Makes this run's share link (or, `embed`, its `<iframe>` snippet) and shows it in the tools
/// menu's field; the address bar follows the link. Carried out by the later parts, which offer it
/// (`later::Coming::share`).
pub(crate) fn share(app: AppState, embed: bool) {
    leptos::task::spawn_local(async move {
        if embed {
            let snippet = app.embed_snippet().await.unwrap_or_else(|| too_large(app));
            app.share_url.set(Some(snippet));
            return;
        }
        let url = app.share_link().await;
        if let (Some(url), Some(window)) = (url.as_ref(), crate::ui::window()) {
            // The address bar follows, so a reload replays the same run too.
            if let Ok(history) = window.history() {
                let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
            }
        }
        // No link can carry it (an imported scenario too large for an address): the field says
        // so instead.
        app.share_url.set(Some(url.unwrap_or_else(|| too_large(app))));
    });
}

/// What the share field says when no link can carry the run.
fn too_large(app: AppState) -> String {
    crate::story::i18n::Later::ShareTooLarge.text(app.lang.get_untracked()).to_owned()
}
