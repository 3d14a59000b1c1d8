//! Carries out a learner's [`Action`] on the page: the one place every control, figure menu,
//! lesson panel, shortcut, remote and embed request ends up (the registry itself, with its
//! keys, its words, when each action can be taken and the command each becomes, is
//! [`crate::actions`]).

use leptos::prelude::*;

use crate::actions::{Action, Moment};
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

/// Carries out `action` if it can be taken now; one that cannot does nothing.
pub(crate) fn perform(app: AppState, action: Action) {
    let Some(command) = at(app, |m| action.enabled(m).then(|| action.command(m))) else { return };
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
        Action::Again => match app.tutor.0.with_untracked(|t| t.lesson().is_some().then(|| t.step())) {
            Some(step) => lesson::send(app, Input::Go(step)),
            None => {
                // From the end's card, which goes: Back has the focus, and hands it to Play
                // once the reset has brought the run to 0 s (`controls::set_disabled`).
                super::focus::hand_out_of(".recap", &["step-back"]);
                app.reset();
            }
        },
        Action::Pacing => {
            app.true_time.update(|t| *t = !*t);
            app.share_url.set(None);
        }
        Action::Faster => app.speed_log2.update(|s| *s = (*s + 1).min(SPEED_LOG2_MAX)),
        Action::Slower => app.speed_log2.update(|s| *s = (*s - 1).max(SPEED_LOG2_MIN)),
        Action::Lesson(input) => {
            if matches!(input, Input::Go(_)) {
                // A step chosen in the contents: the list closes behind it.
                app.contents.set(false);
            }
            if matches!(input, Input::Leave) {
                // The panel goes with its button: the focus goes to the transport bar's Play
                // (or Back, at the run's end).
                super::focus::hand_now(&["play-toggle", "step-back"]);
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
        Action::OpenLesson(id) => {
            app.landing.set(false);
            lesson::open(app, id, Some(0));
        }
        Action::PlayStory(fable, id) => {
            // The card goes with its button: the focus to the transport bar first.
            super::focus::hand_out_of(".landing", &["play-toggle"]);
            app.landing.set(false);
            app.play_builtin(&id, fable);
        }
        // The notice goes (below, with every answer to it); the script stays as it is.
        Action::KeepScript => {}
        Action::CloseLanding => {
            super::focus::hand_out_of(".landing", &["play-toggle"]);
            app.landing.set(false);
        }
        Action::PutAwayRecap => {
            // At the end Play is disabled: Back has the focus.
            super::focus::hand_out_of(".recap", &["step-back"]);
            app.recap_put_away.set(true);
        }
        Action::ShareLink => leptos::task::spawn_local(async move {
            let url = app.share_link().await;
            if let (Some(url), Some(window)) = (url.as_ref(), web_sys::window()) {
                // The address bar follows, so a reload replays the same run too.
                if let Ok(history) = window.history() {
                    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
                }
            }
            // No link can carry it (an imported scenario too large for an address): the field
            // says so instead.
            app.share_url.set(Some(url.unwrap_or_else(|| too_large(app))));
        }),
        Action::EmbedCode => leptos::task::spawn_local(async move {
            let snippet = app.embed_snippet().await.unwrap_or_else(|| too_large(app));
            app.share_url.set(Some(snippet));
        }),
        Action::Close => {
            app.help.set(false);
            if app.presenter.get_untracked() && document().fullscreen_element().is_none() {
                app.presenter.set(false);
            }
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
    }
}

/// What the share field says when no link can carry the run.
fn too_large(app: AppState) -> String {
    crate::story::i18n::Ui::ShareTooLarge.text(app.lang.get_untracked()).to_owned()
}

/// The `data-act` a control that offers `action` carries (see [`Action::code`]).
pub(crate) fn code(action: Action) -> String {
    action.code().unwrap_or_default()
}

/// Carries out the action a control's `data-act` names (see [`Action::from_code`]); `false`
/// when it names none.
pub(crate) fn perform_code(app: AppState, code: &str) -> bool {
    match Action::from_code(code) {
        Some(action) => {
            perform(app, action);
            true
        }
        None => false,
    }
}
