//! The stage: the scene, the line of the story it is telling (the caption) and the transport
//! bar, always together on the first screen. Over the scene: the landing card on a first visit
//! (what to do first), the notice when the script will act again on a node the learner just
//! acted on, and at the end of the run what happened in it.

use leptos::prelude::*;

use crate::scenario::{library, Fable};
use crate::story::i18n::Ui;

use crate::story::technical::escape_html as esc;

use super::state::AppState;
use super::{localized, tr};

/// The built-in lessons and stories the landing card offers, per fable.
const HARBOR_LESSON: &str = "harbor-replaced";
const HARBOR_STORY: &str = "harbor-zombie";
const LANTERN_LESSON: &str = "lantern-return-hour";
const LANTERN_STORY: &str = "lantern-ankle";

#[component]
pub fn Stage(app: AppState) -> impl IntoView {
    view! {
        <section class="stage" data-testid="stage" aria-label=tr(app, Ui::StageLabel)>
            <div class="scene-wrap">
                // Both scenes are built once; only the fable shown is visible and kept up to date
                // (the other's picture stands still, see `AppState::harbor`). Switching never
                // rebuilds a view; the run goes on untouched.
                <div class="fable-scene" hidden=move || app.fable.get() != Fable::Harbor>
                    <super::scene::Scene app />
                </div>
                <div class="fable-scene" hidden=move || app.fable.get() != Fable::Lantern>
                    <super::lantern::LanternScene app />
                </div>
                <Landing app />
                <Recap app />
                <super::hands::ScriptNoticeBar app />
            </div>
            <super::log::Caption app />
            <super::controls::Transport app />
            <super::log::Narrator app />
        </section>
    }
}

/// Plays built-in `id` told as `fable` from its start.
fn play_story(app: AppState, id: &'static str, fable: Fable) {
    app.landing.set(false);
    app.choose_fable(fable);
    app.play_builtin(id);
}

/// Opens built-in lesson `id` from its first step.
fn start_lesson(app: AppState, id: &'static str) {
    app.landing.set(false);
    super::lesson::open(app, id.to_owned(), Some(0));
}

/// What a click inside `ev`'s target asks for: the `data-act` of the nearest element that has
/// one (cards written as markup use one click handler for all their buttons).
pub(crate) fn act_of(ev: &leptos::ev::MouseEvent) -> Option<String> {
    use wasm_bindgen::JsCast;
    let el = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    el.closest("[data-act]").ok()??.get_attribute("data-act")
}

/// The landing card: on a first visit, what to do first (a lesson, or a story to play, in each
/// fable). It never tells the story's ending. Written as markup with one click handler: a card
/// shown once does not need a reactive view of its own.
#[component]
fn Landing(app: AppState) -> impl IntoView {
    let markup = move || {
        if !app.landing.get() {
            return String::new();
        }
        let lang = app.lang.get();
        let t = |ui: Ui| esc(ui.text(lang));
        let offered = |id: &str| library::lessons::MENU.iter().any(|l| l.id == id);
        let lesson = |id: &str, act: &str, ui: Ui| {
            if offered(id) {
                format!(r#"<button class="primary" data-act="{act}" data-testid="landing-{act}">{}</button>"#, t(ui))
            } else {
                String::new()
            }
        };
        format!(
            r#"<div class="landing" data-testid="landing" role="region" aria-labelledby="landing-title"><h2 id="landing-title">{}</h2><p class="landing-lead">{}</p><div class="landing-choices"><div class="landing-fable"><h3>{}</h3>{}<button data-act="harbor-story" data-testid="landing-harbor-story">{}</button></div><div class="landing-fable"><h3>{}</h3>{}<button data-act="lantern-story" data-testid="landing-lantern-story">{}</button></div></div><button class="landing-close" data-act="close" data-testid="landing-close">{}</button></div>"#,
            t(Ui::LandingTitle),
            t(Ui::LandingLead),
            t(Ui::LandingHarborName),
            lesson(HARBOR_LESSON, "harbor-lesson", Ui::LandingHarborLesson),
            t(Ui::LandingPlayHarbor),
            t(Ui::LandingLanternName),
            lesson(LANTERN_LESSON, "lantern-lesson", Ui::LandingLanternLesson),
            t(Ui::LandingPlayLantern),
            t(Ui::LandingExplore),
        )
    };
    let on_click = move |ev: leptos::ev::MouseEvent| match act_of(&ev).as_deref() {
        Some("harbor-lesson") => start_lesson(app, HARBOR_LESSON),
        Some("lantern-lesson") => start_lesson(app, LANTERN_LESSON),
        Some("harbor-story") => play_story(app, HARBOR_STORY, Fable::Harbor),
        Some("lantern-story") => play_story(app, LANTERN_STORY, Fable::Lantern),
        Some("close") => app.landing.set(false),
        _ => {}
    };
    view! { <div class="landing-layer" on:click=on_click inner_html=markup></div> }
}

/// At the end of the run (outside a lesson, which says it in its own words): the scenario's
/// summary, what happened in it; put away to look at the last picture.
#[component]
fn Recap(app: AppState) -> impl IntoView {
    let put_away = RwSignal::new(false);
    // A new run (a reset, another scenario) shows it again at its end.
    Effect::new(move |_| {
        if !app.finished.get() {
            put_away.set(false);
        }
    });
    let summary = move || {
        let lang = app.lang.get();
        app.scenario.with(|s| localized(s.summary.as_ref(), lang, ""))
    };
    let shown = move || app.finished.get() && !put_away.get() && !app.tutor.active() && !summary().is_empty();
    view! {
        <Show when=shown>
            <div class="recap" data-testid="recap" role="status">
                <h2>{tr(app, Ui::RecapTitle)}</h2>
                <p class="summary" data-testid="scenario-summary">{summary}</p>
                <div class="buttons">
                    <button class="primary" data-testid="recap-again" on:click=move |_| app.reset()>
                        {tr(app, Ui::Reset)}
                    </button>
                    <button data-testid="recap-close" on:click=move |_| put_away.set(true)>
                        {tr(app, Ui::Dismiss)}
                    </button>
                </div>
            </div>
        </Show>
    }
}
