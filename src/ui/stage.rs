//! The stage: the scene, the line of the story it is telling (the caption) and the transport
//! bar, always together on the first screen. Over the scene: the landing card on a first visit
//! (what to do first), the notice when the script will act again on a node the learner just
//! acted on, and at the end of the run what happened in it.

use leptos::prelude::*;

use crate::actions::Action;
use crate::fables::{Said, Word};
use crate::scenario::library;
use crate::story::i18n::{Later, Ui};
use crate::vocab::Fable;

use super::act::ActButton;
use super::later::{Later, Part};
use super::state::AppState;
use super::{localized, tr};

#[component]
pub fn Stage(app: AppState) -> impl IntoView {
    let room = super::draw::measured_room();
    // One slot per fable. Each scene is built once: the default fable's at once, with the one
    // drawing the first module holds (its style is in the first style sheet); another's the first
    // time it is shown, with its drawing from the later parts, once they and their style sheet
    // are here. Only the fable shown is visible and kept up to date (another's picture stands
    // still, see `draw::part`); switching never rebuilds a view, and the run goes on untouched.
    let scenes = Fable::all()
        .map(|fable| {
            let first = (fable == Fable::DEFAULT).then_some(crate::fables::DEFAULT_DRAWING);
            let built = RwSignal::new(first);
            super::effect(move || {
                if built.with_untracked(Option::is_none) && app.fable.get() == fable {
                    if let Some(drawing) = app.later.drawing(fable) {
                        built.set(Some(drawing));
                    }
                }
            });
            view! {
                <div class="fable-scene" data-fable=fable.code() hidden=move || app.fable.get() != fable>
                    <Later app part=Part::ThisRunLabel />
                    {move || built.get().map(|drawing| view! { <super::scene::Scene app fable drawing /> })}
                </div>
            }
        })
        .collect_view();
    view! {
        <section
            class="stage"
            class:comparing=move || app.other_picture.with(Option::is_some)
            data-testid="stage"
            aria-label=tr(app, Ui::StageLabel)
        >
            <div class="scene-wrap" node_ref=room>
                {scenes}
                {app.later.other_scene(app)}
                <Landing app />
                <Later app part=Part::Recap />
                <Later app part=Part::ScriptNotice />
            </div>
            <super::log::Caption app />
            <super::controls::Transport app />
            <Later app part=Part::Narrator />
        </section>
    }
}

/// The landing card: on a first visit, what to do first (a lesson, or a story to play, in each
/// fable). It never tells the story's ending.
#[component]
fn Landing(app: AppState) -> impl IntoView {
    // Once the run has moved (the time bar, a step, a key, the embed API), the card has been
    // passed: it would otherwise stay over the scene, under the end's card.
    super::effect(move || {
        if app.landing.get() && app.snapshot.with(|s| s.now_ms > 0) {
            app.landing.set(false);
        }
    });
    // A story or "explore" takes the card away with its button: the focus goes to the transport
    // bar first (a lesson gives it to its step; see `act::perform`).
    let offered = |id: &str| library::lessons::MENU.iter().any(|l| l.id == id);
    let fables = move || {
        Fable::all()
            .map(|fable| {
                let offer = fable.def().landing;
                // Each telling's offer in its own words, whichever fable is shown.
                let lesson = offered(offer.lesson).then(|| {
                    view! {
                        <ActButton
                            app
                            action=Action::OpenLesson(offer.lesson.into())
                            class="primary"
                            testid=format!("landing-{}-lesson", fable.code())
                            label=Said::Told(fable, Word::LandingLesson)
                        />
                    }
                });
                view! {
                    <div class="landing-fable" data-fable=fable.code()>
                        <h3>{move || fable.word(Word::LandingName, app.lang.get())}</h3>
                        {lesson}
                        <ActButton
                            app
                            action=Action::PlayStory(fable, offer.story.into())
                            testid=format!("landing-{}-story", fable.code())
                            label=Said::Told(fable, Word::LandingPlay)
                        />
                    </div>
                }
            })
            .collect_view()
    };
    view! {
        <div class="landing-layer">
            {move || {
                app.landing.get().then(|| {
                    view! {
                <div class="landing" data-testid="landing" role="region" aria-labelledby="landing-title">
                    <h2 id="landing-title">{tr(app, Ui::LandingTitle)}</h2>
                    <p class="landing-lead">{tr(app, Ui::LandingLead)}</p>
                    <div class="landing-choices">{fables()}</div>
                    <ActButton
                        app
                        action=Action::CloseLanding
                        class="landing-close"
                        testid="landing-close"
                        label=Said::Page(Ui::LandingExplore)
                    />
                </div>
                    }
                })
            }}
        </div>
    }
}

/// At the end of the run (outside a lesson, which says it in its own words): the scenario's
/// summary, what happened in it; put away to look at the last picture.
#[component]
pub(crate) fn Recap(app: AppState) -> impl IntoView {
    // A new run (a reset, another scenario) shows it again at its end.
    super::effect(move || {
        if !app.finished.get() {
            app.recap_put_away.set(false);
        }
    });
    // A run the learner changed (an action, a dropped script step) need not end as the
    // scenario's summary tells: the card says so instead of telling the written ending.
    let summary = move || {
        if !app.finished.get() || app.recap_put_away.get() || app.tutor.active() {
            return None;
        }
        let lang = app.lang.get();
        let summary = if app.changed() {
            Later::RecapChanged.text(lang).to_owned()
        } else {
            app.scenario.with(|s| localized(s.summary.as_ref(), lang, ""))
        };
        (!summary.is_empty()).then_some(summary)
    };
    view! {
        <div class="recap-layer">
            {move || {
                summary()
                    .map(|summary| {
                        view! {
                            <div class="recap" data-testid="recap" role="status">
                                <h2>{tr(app, Later::RecapTitle)}</h2>
                                <p class="summary" data-testid="scenario-summary">{summary}</p>
                                <div class="buttons">
                                    <ActButton
                                        app
                                        action=Action::Again
                                        class="primary"
                                        testid="recap-again"
                                        label=Said::Page(Ui::Reset)
                                    />
                                    <ActButton app action=Action::PutAwayRecap testid="recap-close" label=Said::Page(Ui::Dismiss) />
                                </div>
                            </div>
                        }
                    })
            }}
        </div>
    }
}
