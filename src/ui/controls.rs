//! The controls around the stage: the transport bar under the scene (play, step back, step,
//! reset, speed, the time bar with the script's steps marked on it, the clock), the scenario and
//! fable pickers in the header, and the tools menu one click away (share, embed, files, the
//! world's levers: fencing, running the sand out, the store's clock).

use leptos::prelude::*;

use crate::actions::Action;
use crate::scenario::library;
use crate::story::fill;
use crate::story::i18n::Ui;
use crate::story::markup::Markup;
use crate::vocab::Fable;

use super::act::code;
use super::state::{AppState, SPEED_LOG2_MAX, SPEED_LOG2_MIN};
use super::{localized, said, seconds, tr};
use crate::fables::Word;

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

/// A small drawn icon (no font needed), coloured like the button's text.
fn icon(out: &mut Markup, d: &'static str) {
    out.tag("svg").lit("class", "icon").lit("viewBox", "0 0 16 16").lit("aria-hidden", "true").open();
    out.tag("path").lit("d", d).lit("fill", "currentColor").close();
    out.end("svg");
}

/// Selects a read-only field's whole text when it gets the focus, ready to copy.
fn select_all(ev: leptos::ev::FocusEvent) {
    if let Some(input) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok()) {
        input.select();
    }
}

/// The transport bar's words and controls as markup, in `lang`:
/// drawn again only when those change. What moves (the clock, the time bar, play and pause, the
/// speed) is set on these elements by [`Transport`]'s effects, so that the bar costs the page one
/// piece of markup rather than a reactive view per attribute (issue 14: the first load).
fn transport_markup(lang: crate::vocab::Lang) -> String {
    let t = |ui: Ui| ui.text(lang);
    let mut out = Markup::new();
    out.tag("button")
        .lit("class", "big play")
        .lit("data-testid", "play-toggle")
        .attr("data-act", &code(Action::PlayPause))
        .attr("title", t(Ui::PlayHint))
        .lit("aria-keyshortcuts", "Space")
        .open();
    icon(&mut out, PLAY);
    out.tag("span").text("");
    out.end("button");
    for (class, testid, action, hint, label, d) in [
        ("step-back icon-only", "step-back", Action::StepBack, Ui::StepBackHint, Ui::StepBack, STEP_BACK),
        ("icon-only", "step", Action::Step, Ui::StepHint, Ui::Step, STEP),
        ("icon-only", "reset", Action::Reset, Ui::ResetHint, Ui::Reset, RESET),
    ] {
        out.tag("button")
            .lit("class", class)
            .lit("data-testid", testid)
            .attr("data-act", &code(action))
            .attr("title", t(hint))
            .attr("aria-label", t(label))
            .open();
        icon(&mut out, d);
        out.end("button");
    }
    out.tag("label").lit("class", "speed").attr("title", t(Ui::SpeedHint)).open();
    out.tag("span").lit("class", "sr-only").text(t(Ui::Speed));
    out.tag("input")
        .lit("type", "range")
        .lit("data-testid", "speed")
        .attr("min", &SPEED_LOG2_MIN.to_string())
        .attr("max", &SPEED_LOG2_MAX.to_string())
        .lit("step", "1")
        .close();
    out.tag("output").lit("class", "speed-value").text("");
    out.end("label");
    out.tag("div").lit("class", "scrub").open();
    out.tag("input")
        .lit("type", "range")
        .lit("data-testid", "scrubber")
        .lit("min", "0")
        .lit("step", "100")
        .attr("title", t(Ui::ScrubHint))
        .attr("aria-label", t(Ui::Scrub))
        .close();
    out.tag("div").lit("class", "script-marks").lit("aria-hidden", "true").text("");
    out.end("div");
    // Story time holds each message in flight long enough to be seen; true time is plain.
    out.tag("button")
        .lit("class", "pacing")
        .lit("data-testid", "pacing-toggle")
        .attr("data-act", &code(Action::Pacing))
        .lit("aria-keyshortcuts", "T")
        .attr("title", t(Ui::KeyPacing))
        .text(t(Ui::TrueTime));
    out.tag("div").lit("class", "clock").attr("title", t(Ui::VirtualTime)).open();
    out.tag("span").lit("class", "clock-value").lit("data-testid", "sim-time").text("");
    out.tag("span").lit("class", "clock-unit").text(t(Ui::SecondsUnit));
    out.tag("span").lit("class", "clock-of").text("");
    out.end("div");
    out.into_string()
}

/// Disables the control `el` (`off`) or enables it. A disabled control cannot keep the focus:
/// when `el` had it, it goes to the bar's control `instead` (Back at 0 s hands it to Play, Play
/// and Step at the end hand it to Back), not to the page's body, where a keyboard user would
/// have to find the bar again.
fn set_disabled(el: &web_sys::Element, off: bool, instead: &str) {
    let focused = off && document().active_element().is_some_and(|a| a == *el);
    set_attr(el, "disabled", off.then_some(""));
    if focused {
        super::focus::hand_now(&[instead]);
    }
}

/// Sets (`Some`) or removes (`None`) the attribute `name` of `el`.
fn set_attr(el: &web_sys::Element, name: &str, value: Option<&str>) {
    let _ = match value {
        Some(v) => el.set_attribute(name, v),
        None => el.remove_attribute(name),
    };
}

/// Sets the value of the range input `el`.
fn set_value(el: &web_sys::Element, value: &str) {
    if let Some(input) = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlInputElement>(el) {
        input.set_value(value);
    }
}

/// The transport bar under the scene: play/pause, step back, step, reset, speed, the time bar
/// (with the scenario's scripted steps marked ahead of time) and the clock in seconds. Its
/// markup ([`transport_markup`]) is drawn when the language or the fable changes
/// ([`super::drawn_markup`]); three effects set what moves on it, and one click and one input
/// handler serve all of its controls.
#[component]
pub fn Transport(app: AppState) -> impl IntoView {
    // The scenario's own scripted steps, at their places on the time bar: a learner sees what
    // the script will do before it does it. A step the learner dropped is shown struck out.
    let marks = Memo::new(move |_| {
        app.snapshot.track();
        let lang = app.lang.get();
        let ahead = app.script_ahead(None);
        let (now, until) = app.snapshot.with(|s| (s.now_ms, s.until_ms.max(1)));
        let mut out = Markup::new();
        app.scenario.with(|s| {
            for e in s.config.events.iter().filter(|e| e.at_ms <= until) {
                let dropped = e.at_ms > now && !ahead.iter().any(|a| a == e);
                let what = app.cast.with(|c| super::hands::script_step(&e.command, c, lang));
                let template = if dropped { Ui::ScriptMarkDropped } else { Ui::ScriptMark };
                out.tag("span")
                    .lit("class", if dropped { "script-mark dropped" } else { "script-mark" })
                    .lit("data-testid", "script-mark")
                    .int("data-ms", e.at_ms)
                    .lit("data-dropped", if dropped { "true" } else { "false" })
                    .attr("style", &format!("left:{}%", super::coord(e.at_ms as f64 * 100.0 / until as f64)))
                    .attr("title", &fill(template.text(lang), &[("what", &what), ("s", &seconds(e.at_ms))]))
                    .text("");
            }
        });
        out.into_string()
    });
    // The bar's words, drawn when the language or the fable changes; each effect below runs
    // again after that.
    let drawn = super::drawn_markup("[data-testid=transport]", move || transport_markup(app.lang.get()));
    // Playing or not, the end, the speed, the pacing.
    super::effect(move || {
        let (playing, finished, lang) = (app.playing.get(), app.finished.get(), app.lang.get());
        if let Some(play) = drawn.by_id("play-toggle") {
            let _ = play.class_list().toggle_with_force("playing", playing);
            set_disabled(&play, finished, "step-back");
            if let Ok(Some(path)) = play.query_selector("path") {
                let _ = path.set_attribute("d", if playing { PAUSE } else { PLAY });
            }
            if let Ok(Some(label)) = play.query_selector("span") {
                label.set_text_content(Some(if playing { Ui::Pause } else { Ui::Play }.text(lang)));
            }
        }
        if let Some(step) = drawn.by_id("step") {
            set_disabled(&step, finished, "step-back");
        }
        let speed = app.speed_log2.get();
        if let Some(input) = drawn.by_id("speed") {
            set_value(&input, &speed.to_string());
            set_attr(&input, "aria-valuetext", Some(&speed_label(speed)));
        }
        if let Some(out) = drawn.find(".speed-value") {
            out.set_text_content(Some(&speed_label(speed)));
        }
        if let Some(pacing) = drawn.by_id("pacing-toggle") {
            set_attr(&pacing, "aria-pressed", Some(if app.true_time.get() { "true" } else { "false" }));
        }
    });
    // The moment: each frame while playing.
    super::effect(move || {
        let lang = app.lang.get();
        let (now, until) = app.snapshot.with(|s| (s.now_ms, s.until_ms));
        let of = fill(Ui::ClockOf.text(lang), &[("s", &seconds(until))]);
        if let Some(back) = drawn.by_id("step-back") {
            set_disabled(&back, now == 0, "play-toggle");
        }
        if let Some(scrub) = drawn.by_id("scrubber") {
            set_attr(&scrub, "max", Some(&until.to_string()));
            set_value(&scrub, &now.to_string());
            // A screen reader says the moment as the clock shows it, not a count of ms.
            let said = format!("{} {} {of}", seconds(now), Ui::SecondsUnit.text(lang));
            set_attr(&scrub, "aria-valuetext", Some(&said));
        }
        if let Some(clock) = drawn.by_id("sim-time") {
            set_attr(&clock, "data-ms", Some(&now.to_string()));
            set_attr(&clock, "data-hash", Some(&app.trace_hash.get()));
            clock.set_text_content(Some(&seconds(now)));
        }
        if let Some(el) = drawn.find(".clock-of") {
            el.set_text_content(Some(&of));
        }
    });
    // The script's marks, set again only when they change.
    super::effect(move || {
        let markup = marks.get();
        if let Some(el) = drawn.find(".script-marks") {
            el.set_inner_html(&markup);
        }
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(code) = super::stage::act_of(&ev) {
            super::act::perform_code(app, &code);
        }
    };
    // The speed and the time bar: any moment of the run, back or forth (a bad value is ignored).
    let on_input = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        match event_target::<web_sys::Element>(&ev).get_attribute("data-testid").as_deref() {
            Some("speed") => {
                if let Ok(v) = value.trim().parse::<i32>() {
                    app.speed_log2.set(v.clamp(SPEED_LOG2_MIN, SPEED_LOG2_MAX));
                }
            }
            Some("scrubber") => {
                if let Ok(v) = value.trim().parse::<u64>() {
                    app.seek(v);
                }
            }
            _ => {}
        }
    };
    view! {
        <nav
            class="transport controls"
            data-testid="transport"
            aria-label=tr(app, Ui::TransportLabel)
            on:click=on_click
            on:input=on_input
        ></nav>
    }
}

/// The scenario picker (in the header): the built-ins, and an imported scenario first.
#[component]
pub fn ScenarioPicker(app: AppState) -> impl IntoView {
    let on_scenario = move |ev| {
        app.landing.set(false);
        app.choose_scenario(&event_target_value(&ev));
    };
    // The options as markup, the scenario shown selected (rewritten when it or the language
    // changes). An imported scenario is listed first, as itself, even when it reuses a
    // built-in's id.
    let options = move || {
        let lang = app.lang.get();
        let custom = app.source.with(Option::is_some);
        let (id_now, title_now) = app.scenario.with(|s| (s.id.clone(), localized(s.title.as_ref(), lang, &s.id)));
        let mut out = Markup::new();
        if custom {
            out.option("", &fill(Ui::Imported.text(lang), &[("title", &title_now)]), true);
        }
        for (i, id) in library::ids().enumerate() {
            let title = crate::story::packs::get(lang, crate::story::packs::scenario_title_index(i));
            out.option(id, if title.is_empty() { id } else { title }, !custom && id == id_now);
        }
        out.into_string()
    };
    view! {
        <label class="scenario picker">
            <span>{tr(app, Ui::Scenario)}</span>
            <select data-testid="scenario-picker" title=tr(app, Ui::Scenario) on:change=on_scenario inner_html=options></select>
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
    // The options as markup, the fable shown selected.
    let fables = move || {
        let lang = app.lang.get();
        let now = app.fable.get();
        let mut out = Markup::new();
        for fable in Fable::all() {
            out.option(fable.code(), fable.word(Word::Name, lang), fable == now);
        }
        out.into_string()
    };
    view! {
        <label class="scenario fable picker" title=tr(app, Ui::FablePickerHint)>
            <span>{tr(app, Ui::FablePicker)}</span>
            <select data-testid="fable-picker" data-fable=move || app.fable.get().code() on:change=on_fable inner_html=fables></select>
        </label>
    }
}

/// The menu under the header's "Scenario & tools" button (a popover, closed by a click elsewhere
/// or Esc): the scenario and the fable that tells it, share and embed, the world's levers
/// (fencing, the sand run out, the store's clock: the figures in the scene offer them too), and
/// scenario files in and out.
#[component]
pub fn Tools(app: AppState) -> impl IntoView {
    // Which levers can be pulled now is the registry's (`actions::Action::enabled`).
    let can = move |action: Action| super::act::watch(app, |m| action.enabled(m));
    let fencing = move || app.snapshot.with(|s| s.resource.fencing);
    let tokens = move || app.snapshot.with(|s| s.store_kind.rules().issues_tokens());
    let act = move |action: Action| move |_| super::act::perform(app, action.clone());
    // The snippet shows in the same field as the share link: one field, one label.
    let share_field = move || {
        app.share_url.get().map(|url| {
            let label = if url.starts_with('<') { Ui::EmbedCodeLabel } else { Ui::ShareLinkLabel };
            view! {
                <label class="share-link">
                    <span>{tr(app, label)}</span>
                    <input type="text" readonly data-testid="share-link" prop:value=url on:focus=select_all />
                </label>
            }
        })
    };
    view! {
        <button class="tools-open" data-testid="tools-open" popovertarget="tools-menu" title=tr(app, Ui::ToolsHint)>
            {tr(app, Ui::Tools)}
        </button>
        <div id="tools-menu" class="menu tools" popover="auto" data-testid="tools-menu">
            <section class="group pickers">
                <h2>{tr(app, Ui::ToolsScenario)}</h2>
                <ScenarioPicker app />
                <FablePicker app />
            </section>
            <section class="group share">
                <h2>{tr(app, Ui::ToolsShare)}</h2>
                <div class="row-of">
                    <button data-testid="share" title=tr(app, Ui::ShareHint) on:click=act(Action::ShareLink)>
                        {tr(app, Ui::Share)}
                    </button>
                    <button data-testid="embed-this" title=tr(app, Ui::EmbedHint) on:click=act(Action::EmbedCode)>
                        {tr(app, Ui::Embed)}
                    </button>
                </div>
                {share_field}
            </section>
            <section class="group world">
                <h2>{tr(app, Ui::ToolsWorld)}</h2>
                <div class="row-of">
                    <button
                        class="fencing"
                        class:off=move || !fencing()
                        data-testid="fencing-toggle"
                        data-on=move || if fencing() { "true" } else { "false" }
                        title=move || { if tokens() { Ui::FencingHint } else { Ui::FencingNoToken } }.text(app.lang.get())
                        disabled=move || !can(Action::Fencing)
                        on:click=act(Action::Fencing)
                    >
                        {move || said(app, if fencing() { Word::FencingOn } else { Word::FencingOff }, app.lang.get())}
                    </button>
                    <button
                        class="revoke"
                        data-testid="revoke-lease"
                        title=super::tw(app, Word::RevokeHint)
                        disabled=move || !can(Action::RevokeLease)
                        on:click=act(Action::RevokeLease)
                    >
                        {super::tw(app, Word::Revoke)}
                    </button>
                    <button
                        class="store-clock"
                        data-testid="store-clock-jump"
                        title=tr(app, Ui::StoreClockJumpHint)
                        disabled=move || !can(Action::StoreClockJump)
                        on:click=act(Action::StoreClockJump)
                    >
                        {tr(app, Ui::StoreClockJump)}
                    </button>
                </div>
            </section>
            <section class="group files-box">
                <h2>{tr(app, Ui::ToolsFiles)}</h2>
                <super::files::Files app />
            </section>
        </div>
    }
}
