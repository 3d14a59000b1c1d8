//! The controls around the stage: the transport bar under the scene (play, step back, step,
//! reset, speed, the time bar with the script's steps marked on it, the clock), the scenario and
//! fable pickers in the header, and the tools menu one click away (share, embed, files, the
//! world's levers: fencing, running the sand out, the store's clock).

use leptos::prelude::*;

use crate::actions::Action;
use crate::engine::Command;
use crate::scenario::library;
use crate::story::fill;
use crate::story::i18n::{Later, Ui};
use crate::vocab::Fable;

use super::act::ActButton;
use super::state::{AppState, SPEED_LOG2_MAX, SPEED_LOG2_MIN};
use super::{localized, seconds, tr};
use crate::fables::{Said, Word};

/// `0.25×`, `0.5×`, `1×` … `64×`.
pub(crate) fn speed_label(log2: i32) -> String {
    match log2.clamp(SPEED_LOG2_MIN, SPEED_LOG2_MAX) {
        -2 => "0.25×".to_owned(),
        -1 => "0.5×".to_owned(),
        k => format!("{}×", 1u32 << k.clamp(0, 31)),
    }
}

const PLAY: &str = "M4 2 L14 8 L4 14 Z";
const PAUSE: &str = "M3 2h4v12H3z M9 2h4v12H9z";
const STEP: &str = "M2 2 L10 8 L2 14 Z M11 2h3v12h-3z";
const STEP_BACK: &str = "M14 2 L6 8 L14 14 Z M2 2h3v12H2z";
const RESET: &str = "M8 2.5A5.5 5.5 0 1 0 13.5 8H11.5A3.5 3.5 0 1 1 8 4.5V7L12 3.5 8 0Z";

/// Selects a read-only field's whole text when it gets the focus, ready to copy.
fn select_all(ev: leptos::ev::FocusEvent) {
    if let Some(input) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok()) {
        input.select();
    }
}

/// The transport bar under the scene: play/pause, step back, step, reset, speed, the time bar
/// (with the scenario's scripted steps marked ahead of time), story or true time, and the clock
/// in seconds. Its buttons are the registry's ([`ActButton`]); Play and Back are the focus's
/// anchors ([`super::focus::Anchors`]).
#[component]
pub fn Transport(app: AppState) -> impl IntoView {
    let anchors = app.anchors;
    let now = move || app.snapshot.with(|s| s.now_ms);
    let until = move || app.snapshot.with(|s| s.until_ms);
    let playing = Signal::derive(move || app.playing.get());
    let of = move || fill(Ui::ClockOf.text(app.lang.get()), &[("s", &seconds(until()))]);
    // Any moment of the run, back or forth (a bad value is ignored).
    let on_scrub = move |ev: leptos::ev::Event| {
        if let Ok(v) = event_target_value(&ev).trim().parse::<u64>() {
            app.seek(v);
        }
    };
    let page = Said::Page;
    view! {
        <nav class="transport controls" data-testid="transport" aria-label=tr(app, Ui::TransportLabel)>
            // Play and Step are disabled at the end, Back at 0 s: each hands the focus on first.
            <ActButton
                app
                action=Action::PlayPause
                class="big play"
                testid="play-toggle"
                label=Signal::derive(move || page(if playing.get() { Ui::Pause } else { Ui::Play }))
                title=page(Ui::PlayHint)
                icon=Signal::derive(move || if playing.get() { PAUSE } else { PLAY })
                state=("playing", playing)
                node_ref=anchors.play
                hand_to=anchors.step_back
            />
            <ActButton
                app
                action=Action::StepBack
                class="step-back icon-only"
                testid="step-back"
                label=page(Ui::StepBack)
                title=page(Ui::StepBackHint)
                icon=STEP_BACK
                icon_only=true
                node_ref=anchors.step_back
                hand_to=anchors.play
            />
            <ActButton
                app
                action=Action::Step
                class="icon-only"
                testid="step"
                label=page(Ui::Step)
                title=page(Ui::StepHint)
                icon=STEP
                icon_only=true
                hand_to=anchors.step_back
            />
            <ActButton
                app
                action=Action::Reset
                class="icon-only"
                testid="reset"
                label=page(Ui::Reset)
                title=page(Ui::ResetHint)
                icon=RESET
                icon_only=true
            />
            <div class="scrub">
                <input
                    type="range"
                    data-testid="scrubber"
                    min="0"
                    step="100"
                    title=tr(app, Ui::ScrubHint)
                    aria-label=tr(app, Ui::Scrub)
                    max=move || until().to_string()
                    // Where it stands when drawn (a picture of the page, `ui::first_frame`, has no
                    // properties); then the moment as it moves.
                    value=untrack(now).to_string()
                    prop:value=move || now().to_string()
                    // A screen reader says the moment as the clock shows it, not a count of ms.
                    aria-valuetext=move || format!("{} {} {}", seconds(now()), Ui::SecondsUnit.text(app.lang.get()), of())
                    on:input=on_scrub
                />
                <div class="script-marks" aria-hidden="true">
                    <super::later::Later app part=super::later::Part::ScriptMarks />
                </div>
            </div>
            <super::later::Later app part=super::later::Part::Pace />
            <div class="clock" title=tr(app, Ui::VirtualTime)>
                <span class="clock-value" data-testid="sim-time" data-ms=move || now().to_string() data-hash=app.trace_hash>
                    {move || seconds(now())}
                </span>
                <span class="clock-unit">{tr(app, Ui::SecondsUnit)}</span>
                <span class="clock-of">{of}</span>
            </div>
        </nav>
    }
}

/// The transport bar's pace: the speed, and story or true time. Drawn with the later parts (the
/// first scene plays at the address's speed; these come a moment after it).
#[component]
pub(crate) fn Pace(app: AppState) -> impl IntoView {
    let speed = move || speed_label(app.speed_log2.get());
    let on_speed = move |ev: leptos::ev::Event| {
        if let Ok(v) = event_target_value(&ev).trim().parse::<i32>() {
            app.speed_log2.set(v.clamp(SPEED_LOG2_MIN, SPEED_LOG2_MAX));
        }
    };
    let page = Said::Page;
    view! {
            <label class="speed" title=tr(app, Ui::SpeedHint)>
                <span class="sr-only">{tr(app, Ui::Speed)}</span>
                <input
                    type="range"
                    data-testid="speed"
                    min=SPEED_LOG2_MIN
                    max=SPEED_LOG2_MAX
                    step="1"
                    prop:value=move || app.speed_log2.get().to_string()
                    aria-valuetext=speed
                    on:input=on_speed
                />
                <output class="speed-value">{speed}</output>
            </label>
            // Story time holds each message in flight long enough to be seen; true time is plain.
            <ActButton
                app
                action=Action::Pacing
                class="pacing"
                testid="pacing-toggle"
                label=page(Ui::TrueTime)
                title=Said::Later(Later::KeyPacing)
                pressed=Signal::derive(move || app.true_time.get())
            />
    }
}

/// The scenario's own scripted steps, at their places on the time bar: a learner sees what the
/// script will do before it does it. A step the learner dropped is shown struck out.
#[component]
pub(crate) fn ScriptMarks(app: AppState) -> impl IntoView {
    // Each mark as `(at_ms, dropped from the script, made on the run, where, what it says)`: a
    // memo, so that the marks are drawn again only when one of them changes, not with every
    // frame of the run.
    let marks = Memo::new(move |_| {
        app.snapshot.track();
        let lang = app.lang.get();
        let ahead = app.script_ahead(None);
        let (now, until) = app.snapshot.with(|s| (s.now_ms, s.until_ms.max(1)));
        let events = app.scenario.with(|s| s.config.events.clone());
        let left = |at_ms: u64| format!("left:{}%", super::coord(at_ms as f64 * 100.0 / until as f64));
        let said = |c: &crate::engine::Command| app.cast.with(|cast| super::hands::script_step(c, cast, lang));
        // The steps set aside so far (the trace says which, by node and time): a step dropped
        // stays dropped once the run has passed its time.
        let interventions = app.interventions();
        let set_aside = match interventions.iter().any(|i| matches!(i.command, Command::DropScript { .. })) {
            true => app.script_dropped(),
            false => Vec::new(),
        };
        let scripted = events.into_iter().filter(|e| e.at_ms <= until).map(|e| {
            let gone = e.command.node().is_some_and(|n| set_aside.iter().any(|(node, ms)| node == n && *ms == e.at_ms));
            let dropped = gone || (e.at_ms > now && !ahead.contains(&e));
            let template = if dropped { Ui::ScriptMarkDropped } else { Ui::ScriptMark };
            let title = fill(template.text(lang), &[("what", &said(&e.command)), ("s", &seconds(e.at_ms))]);
            (e.at_ms, dropped, false, left(e.at_ms), title)
        });
        // The run's own interventions (the learner's, a link's, a search's answer's) under the
        // same track; a script set aside is said by the script's marks.
        let made = interventions
            .into_iter()
            .filter(|i| i.at_ms <= until && !matches!(i.command, Command::DropScript { .. }))
            .map(|i| {
                let title =
                    fill(Later::InterventionMark.text(lang), &[("what", &said(&i.command)), ("s", &seconds(i.at_ms))]);
                (i.at_ms, false, true, left(i.at_ms), title)
            });
        // Marks that would cover one another (within half a percent of the track) stand side by
        // side: each one's place among them, from 0.
        let mut marks: Vec<_> = scripted.chain(made).map(|m| (m, 0usize)).collect();
        let spot = |at_ms: u64| at_ms * 200 / until;
        for k in 1..marks.len() {
            marks[k].1 = marks[..k].iter().filter(|((at, ..), _)| spot(*at) == spot(marks[k].0 .0)).count();
        }
        marks
    });
    move || {
        marks
            .get()
            .into_iter()
            .map(|((at_ms, dropped, made, left, title), beside)| {
                let class = match (dropped, made) {
                    (true, _) => "script-mark dropped",
                    (false, true) => "script-mark made",
                    (false, false) => "script-mark",
                };
                view! {
                    <span
                        class=class
                        data-testid=if made { "intervention-mark" } else { "script-mark" }
                        data-ms=at_ms
                        data-dropped=if dropped { "true" } else { "false" }
                        style=format!("{left};--beside:{beside}")
                        title=title
                    ></span>
                }
            })
            .collect_view()
    }
}

/// The scenario picker (in the header): the built-ins, and an imported scenario first.
#[component]
pub fn ScenarioPicker(app: AppState) -> impl IntoView {
    let on_scenario = move |ev| {
        app.landing.set(false);
        app.choose_scenario(&event_target_value(&ev));
    };
    // An imported scenario is listed first, as itself, even when it reuses a built-in's id; the
    // scenario shown is the one selected (again when it or the language changes).
    let options = move || {
        let lang = app.lang.get();
        let custom = app.source.with(Option::is_some);
        let (id_now, title_now) = app.scenario.with(|s| (s.id.clone(), localized(s.title.as_ref(), lang, &s.id)));
        let imported = custom.then(|| {
            view! { <option value="" selected=true>{fill(Later::Imported.text(lang), &[("title", &title_now)])}</option> }
        });
        let builtins = library::ids()
            .enumerate()
            .map(|(i, id)| {
                let title = crate::story::packs::get(lang, crate::story::packs::scenario_title_index(i));
                let title = if title.is_empty() { id } else { title };
                view! { <option value=id selected=!custom && id == id_now>{title}</option> }
            })
            .collect_view();
        (imported, builtins)
    };
    view! {
        <label class="scenario picker">
            <span>{tr(app, Later::Scenario)}</span>
            <select data-testid="scenario-picker" title=tr(app, Later::Scenario) on:change=on_scenario>
                {options}
            </select>
        </label>
    }
}

/// The fable picker (in the header): which fable tells the run; the run goes on untouched.
#[component]
pub fn FablePicker(app: AppState) -> impl IntoView {
    let on_fable = move |ev| {
        if let Some(fable) = Fable::from_code(&event_target_value(&ev)) {
            app.choose_fable(fable);
        }
    };
    let options = move || {
        let lang = app.lang.get();
        let now = app.fable.get();
        Fable::all()
            .map(|fable| view! { <option value=fable.code() selected=fable == now>{fable.word(Word::Name, lang)}</option> })
            .collect_view()
    };
    view! {
        <label class="scenario fable picker" title=tr(app, Later::FablePickerHint)>
            <span>{tr(app, Later::FablePicker)}</span>
            <select data-testid="fable-picker" data-fable=move || app.fable.get().code() on:change=on_fable>
                {options}
            </select>
        </label>
    }
}

/// The menu under the header's "Scenario & tools" button (a popover, closed by a click elsewhere
/// or Esc): the scenario and the fable that tells it, share and embed, the world's levers
/// (fencing, the sand run out, the store's clock: the figures in the scene offer them too), and
/// scenario files in and out.
#[component]
pub fn Tools(app: AppState) -> impl IntoView {
    let fencing = move || app.snapshot.with(|s| s.resource.fencing);
    let tokens = move || app.snapshot.with(|s| s.store_kind.rules().issues_tokens());
    let page = Said::Page;
    // The snippet shows in the same field as the share link: one field, one label.
    let share_field = move || {
        app.share_url.get().map(|url| {
            let label = if url.starts_with('<') { Later::EmbedCodeLabel } else { Later::ShareLinkLabel };
            view! {
                <label class="share-link">
                    <span>{tr(app, label)}</span>
                    <input type="text" readonly data-testid="share-link" prop:value=url on:focus=select_all />
                </label>
            }
        })
    };
    view! {
        <button class="tools-open" data-testid="tools-open" popovertarget="tools-menu" title=tr(app, Later::ToolsHint)>
            {tr(app, Later::Tools)}
        </button>
        <div id="tools-menu" class="menu tools" popover="auto" data-testid="tools-menu">
            <section class="group pickers">
                <h2>{tr(app, Later::ToolsScenario)}</h2>
                <ScenarioPicker app />
                <FablePicker app />
            </section>
            <section class="group share">
                <h2>{tr(app, Later::ToolsShare)}</h2>
                <div class="row-of">
                    <ActButton app action=Action::ShareLink testid="share" label=Said::Later(Later::Share) title=Said::Later(Later::ShareHint) />
                    <ActButton
                        app
                        action=Action::EmbedCode
                        testid="embed-this"
                        label=Said::Later(Later::Embed)
                        title=Said::Later(Later::EmbedHint)
                    />
                </div>
                {share_field}
            </section>
            // The world's levers; which can be pulled now is the registry's.
            <section class="group world">
                <h2>{tr(app, Later::ToolsWorld)}</h2>
                <div class="row-of">
                    <ActButton
                        app
                        action=Action::Fencing
                        class="fencing"
                        testid="fencing-toggle"
                        label=Signal::derive(move || Said::Fable(if fencing() { Word::FencingOn } else { Word::FencingOff }))
                        title=Signal::derive(move || if tokens() { Said::Later(Later::FencingHint) } else { page(Ui::FencingNoToken) })
                        state=("on", Signal::derive(fencing))
                    />
                    <ActButton
                        app
                        action=Action::RevokeLease
                        class="revoke"
                        testid="revoke-lease"
                        label=Said::Fable(Word::Revoke)
                        title=Said::Fable(Word::RevokeHint)
                    />
                    <ActButton
                        app
                        action=Action::StoreClockJump
                        class="store-clock"
                        testid="store-clock-jump"
                        label=Said::Later(Later::StoreClockJump)
                        title=Said::Later(Later::StoreClockJumpHint)
                    />
                </div>
            </section>
            <section class="group files-box">
                <h2>{tr(app, Later::ToolsFiles)}</h2>
                <super::files::Files app />
            </section>
        </div>
    }
}
