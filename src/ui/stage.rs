//! The stage: the scene, the line of the story it is telling (the caption) and the transport
//! bar, always together on the first screen. Over the scene: the landing card on a first visit
//! (what to do first), the notice when the script will act again on a node the learner just
//! acted on, and at the end of the run what happened in it.

use leptos::prelude::*;

use crate::actions::Action;
use crate::fables::Word;
use crate::scenario::library;
use crate::story::i18n::Ui;
use crate::vocab::Fable;

use crate::story::markup::Markup;

use super::act::code;
use super::later::{Later, Part};
use super::state::AppState;
use super::{localized, tr};

#[component]
pub fn Stage(app: AppState) -> impl IntoView {
    let room = super::draw::measured_room();
    // Which fable's scene shows, and whether a compared run's is beside it: set by one effect
    // rather than a reactive attribute each (issue 14).
    super::effect(move || {
        let fable = app.fable.get();
        let comparing = app.other_picture.with(Option::is_some);
        let doc = document();
        if let Some(stage) = doc.query_selector("[data-testid=stage]").ok().flatten() {
            let _ = stage.class_list().toggle_with_force("comparing", comparing);
        }
        for shown in Fable::all() {
            let at = format!("[data-testid=stage] .fable-scene[data-fable={}]", shown.code());
            if let Some(el) = doc.query_selector(&at).ok().flatten() {
                let _ = el.toggle_attribute_with_force("hidden", fable != shown);
            }
        }
    });
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
                <div class="fable-scene" data-fable=fable.code() hidden=fable != Fable::DEFAULT>
                    <Later app part=Part::ThisRunLabel />
                    {move || built.get().map(|drawing| view! { <super::scene::Scene app fable drawing /> })}
                </div>
            }
        })
        .collect_view();
    view! {
        <section class="stage" data-testid="stage" aria-label=tr(app, Ui::StageLabel)>
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

/// What a click inside `ev`'s target asks for: the `data-act` of the nearest element that has
/// one (cards and bars written as markup use one click handler for all their buttons), unless
/// that control is disabled (a click on an icon inside a disabled button still reaches it).
pub(crate) fn act_of(ev: &leptos::ev::MouseEvent) -> Option<String> {
    use wasm_bindgen::JsCast;
    let el = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let control = el.closest("[data-act]").ok()??;
    (!control.has_attribute("disabled")).then(|| control.get_attribute("data-act")).flatten()
}

/// The landing card: on a first visit, what to do first (a lesson, or a story to play, in each
/// fable). It never tells the story's ending. Written as markup with one click handler: a card
/// shown once does not need a reactive view of its own.
#[component]
fn Landing(app: AppState) -> impl IntoView {
    // Once the run has moved (the time bar, a step, a key, the embed API), the card has been
    // passed: it would otherwise stay over the scene, under the end's card.
    super::effect(move || {
        if app.landing.get() && app.snapshot.with(|s| s.now_ms > 0) {
            app.landing.set(false);
        }
    });
    let markup = move || {
        if !app.landing.get() {
            return String::new();
        }
        let lang = app.lang.get();
        let offered = |id: &str| library::lessons::MENU.iter().any(|l| l.id == id);
        let mut out = Markup::new();
        out.tag("div")
            .lit("class", "landing")
            .lit("data-testid", "landing")
            .lit("role", "region")
            .lit("aria-labelledby", "landing-title")
            .open();
        out.tag("h2").lit("id", "landing-title").text(Ui::LandingTitle.text(lang));
        out.tag("p").lit("class", "landing-lead").text(Ui::LandingLead.text(lang));
        out.tag("div").lit("class", "landing-choices").open();
        for fable in Fable::all() {
            let offer = fable.def().landing;
            let word = |w: Word| fable.word(w, lang);
            out.tag("div").lit("class", "landing-fable").attr("data-fable", fable.code()).open();
            out.tag("h3").text(word(Word::LandingName));
            if offered(offer.lesson) {
                out.tag("button")
                    .lit("class", "primary")
                    .attr("data-act", &code(Action::OpenLesson(offer.lesson.into())))
                    .attr("data-testid", &format!("landing-{}-lesson", fable.code()))
                    .text(word(Word::LandingLesson));
            }
            out.tag("button")
                .attr("data-act", &code(Action::PlayStory(fable, offer.story.into())))
                .attr("data-testid", &format!("landing-{}-story", fable.code()))
                .text(word(Word::LandingPlay));
            out.end("div");
        }
        out.end("div");
        out.tag("button")
            .lit("class", "landing-close")
            .attr("data-act", &code(Action::CloseLanding))
            .lit("data-testid", "landing-close")
            .text(Ui::LandingExplore.text(lang));
        out.end("div");
        out.into_string()
    };
    // A story or "explore" takes the card away with its button: the focus goes to the transport
    // bar first (a lesson gives it to its step; see `act::perform`).
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(code) = act_of(&ev) {
            super::act::perform_code(app, &code);
        }
    };
    view! { <div class="landing-layer" on:click=on_click inner_html=markup></div> }
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
    let markup = move || {
        if !app.finished.get() || app.recap_put_away.get() || app.tutor.active() {
            return String::new();
        }
        let lang = app.lang.get();
        // A run the learner changed (an action, a dropped script step) need not end as the
        // scenario's summary tells: the card says so instead of telling the written ending.
        let summary = if app.changed() {
            Ui::RecapChanged.text(lang).to_owned()
        } else {
            app.scenario.with(|s| localized(s.summary.as_ref(), lang, ""))
        };
        if summary.is_empty() {
            return String::new();
        }
        let mut out = Markup::new();
        out.tag("div").lit("class", "recap").lit("data-testid", "recap").lit("role", "status").open();
        out.tag("h2").text(Ui::RecapTitle.text(lang));
        out.tag("p").lit("class", "summary").lit("data-testid", "scenario-summary").text(&summary);
        out.tag("div").lit("class", "buttons").open();
        out.tag("button")
            .lit("class", "primary")
            .attr("data-act", &code(Action::Again))
            .lit("data-testid", "recap-again")
            .text(Ui::Reset.text(lang));
        out.tag("button")
            .attr("data-act", &code(Action::PutAwayRecap))
            .lit("data-testid", "recap-close")
            .text(Ui::Dismiss.text(lang));
        out.end("div").end("div");
        out.into_string()
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(code) = act_of(&ev) {
            super::act::perform_code(app, &code);
        }
    };
    view! { <div class="recap-layer" on:click=on_click inner_html=markup></div> }
}
