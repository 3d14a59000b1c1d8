//! Comparing runs: the picker of the setting to flip, where the two runs first part (with a
//! button that moves there), and both runs' verdicts so far at the playhead. The other run's
//! scene is drawn beside this run's at the same moment ([`OtherScene`]), and its space-time
//! diagram by [`super::diagram::SpaceTime`] under this run's.

use leptos::prelude::*;

use crate::engine::compare::{tally, Setting};
use crate::engine::{Endpoint, TraceEntry, TraceEvent};
use crate::fables::Word;
use crate::story::i18n::Later;
use crate::story::picture::message_word;
use crate::story::{fill, narrate};
use crate::vocab::Lang;

use super::state::AppState;
use super::{seconds, tr};

fn code(s: Option<Setting>) -> &'static str {
    match s {
        None => "off",
        Some(Setting::Fencing) => "fencing",
        Some(Setting::EpochBarrier) => "epoch_barrier",
        Some(Setting::ReleaseCheck) => "release_check",
        Some(Setting::Expiry) => "expiry",
        Some(Setting::Store) => "store",
        Some(Setting::RenewPolicy) => "renew_policy",
    }
}

/// How `setting` stands in a run: `on` as [`Setting::is_on`] says.
fn state(setting: Setting, on: bool) -> Later {
    match (setting, on) {
        (Setting::Fencing, true) => Later::SettingFencingOn,
        (Setting::Fencing, false) => Later::SettingFencingOff,
        (Setting::EpochBarrier, true) => Later::SettingBarrierOn,
        (Setting::EpochBarrier, false) => Later::SettingBarrierOff,
        (Setting::ReleaseCheck, true) => Later::SettingReleaseOwner,
        (Setting::ReleaseCheck, false) => Later::SettingReleasePlain,
        (Setting::Expiry, true) => Later::SettingExpiryObserver,
        (Setting::Expiry, false) => Later::SettingExpiryStore,
        (Setting::Store, true) => Later::SettingStoreEtcd,
        (Setting::Store, false) => Later::SettingStoreRedis,
        (Setting::RenewPolicy, true) => Later::SettingRenewRetry,
        (Setting::RenewPolicy, false) => Later::SettingRenewGiveUp,
    }
}

#[component]
pub fn CompareBar(app: AppState) -> impl IntoView {
    let on_pick = move |ev| {
        let v = event_target_value(&ev);
        app.set_compare(Setting::ALL.into_iter().find(|s| code(Some(*s)) == v));
    };
    // The settings this scenario can flip, the one compared selected.
    let options = move || {
        let config = app.scenario.with(|s| s.config.clone());
        std::iter::once(None)
            .chain(Setting::ALL.into_iter().filter(|s| s.applies(&config)).map(Some))
            .map(|s| {
                let label = match s {
                    None => Later::CompareOff,
                    Some(Setting::Fencing) => Later::CompareFencing,
                    Some(Setting::EpochBarrier) => Later::CompareBarrier,
                    Some(Setting::ReleaseCheck) => Later::CompareRelease,
                    Some(Setting::Expiry) => Later::CompareExpiry,
                    Some(Setting::Store) => Later::CompareStore,
                    Some(Setting::RenewPolicy) => Later::CompareRenew,
                };
                view! {
                    <option value=code(s) selected=move || app.compare.get() == s>
                        {tr(app, label)}
                    </option>
                }
            })
            .collect_view()
    };
    // One line per run: what its entry at the first difference says.
    let describe = move |e: &Option<TraceEntry>, lang: Lang| match e {
        None => Later::CompareEnded.text(lang).to_owned(),
        Some(e) => app.cast.with(|cast| match (narrate(e, cast, lang), &e.event) {
            // In the fable's words, as the log tells it.
            (Some(n), _) => n.story,
            // A message the log leaves untold: who sent what, and when it will arrive (two
            // runs often part there first, when one draws a different delay).
            (None, TraceEvent::MessageSent { kind, from, arrive_ms, .. }) => {
                let from = match from {
                    Endpoint::Node(id) => cast.name(id, lang),
                    Endpoint::Coordinator => cast.fable().word(Word::DiagramStore, lang).to_owned(),
                    Endpoint::Resource | Endpoint::Outside => cast.fable().word(Word::DiagramResource, lang).to_owned(),
                };
                let what = cast.fable().word(message_word(*kind), lang);
                fill(
                    Later::CompareSent.text(lang),
                    &[("from", &from), ("what", what), ("arrive", &seconds(*arrive_ms))],
                )
            }
            (None, _) => {
                // The event's tag, e.g. `node_started` (the JSON the trace hash is made of).
                let json = serde_json::to_string(&e.event).unwrap_or_default();
                let kind = json.split('"').nth(3).unwrap_or_default();
                fill(Later::CompareUnnarrated.text(lang), &[("kind", kind)])
            }
        }),
    };
    // Which way the setting stands in each run.
    let runs = move || {
        let lang = app.lang.get();
        let Some(setting) = app.compare.get() else { return String::new() };
        let on = app.scenario.with(|s| setting.is_on(&s.config));
        let (this, other) = (state(setting, on).text(lang), state(setting, !on).text(lang));
        fill(Later::CompareRuns.text(lang), &[("this", this), ("other", other)])
    };
    let at = move || app.divergence.with(|d| d.as_ref().and_then(|d| d.as_ref().map(|d| d.at_ms)));
    let first = move || {
        let lang = app.lang.get();
        match app.divergence.get() {
            None => String::new(),
            Some(None) => Later::CompareSame.text(lang).to_owned(),
            Some(Some(d)) => {
                let (this, other) = (describe(&d.this, lang), describe(&d.other, lang));
                let mut line = format!(
                    "{}: {} · {}",
                    fill(Later::CompareFirstDiff.text(lang), &[("t", &seconds(d.at_ms))]),
                    fill(Later::CompareThis.text(lang), &[("what", &this)]),
                    fill(Later::CompareOther.text(lang), &[("what", &other)])
                );
                // Told the same, they differ in a detail the words leave out: name it.
                if this == other {
                    if let (Some(a), Some(b)) = (&d.this, &d.other) {
                        if let Some((field, x, y)) = first_different_field(&a.event, &b.event) {
                            line.push_str(" · ");
                            line.push_str(&fill(
                                Later::CompareDiffers.text(lang),
                                &[("field", &field), ("this", &x), ("other", &y)],
                            ));
                        }
                    }
                }
                line
            }
        }
    };
    let summary = move || {
        if app.compare.with(Option::is_none) {
            return String::new();
        }
        let lang = app.lang.get();
        let now = app.diagram_now.get();
        let [a, r, v] = app.with_trace(|t, _, _, _| tally(&t[..t.partition_point(|e| e.at_ms <= now)]));
        let [a2, r2, v2] = app.with_other_trace(now, tally);
        let n = |k: usize| k.to_string();
        let values =
            [("t", seconds(now)), ("a", n(a)), ("r", n(r)), ("v", n(v)), ("a2", n(a2)), ("r2", n(r2)), ("v2", n(v2))];
        let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
        fill(Later::CompareSummary.text(lang), &values)
    };
    view! {
        <div class="compare" data-testid="compare" data-setting=move || code(app.compare.get())>
            <label title=tr(app, Later::CompareHint)>
                <span>{tr(app, Later::CompareLabel)}</span>
                <select data-testid="compare-setting" on:change=on_pick prop:value=move || code(app.compare.get())>
                    {options}
                </select>
            </label>
            <p class="compare-runs">{runs}</p>
            <p
                class="first-diff"
                data-testid="compare-first-diff"
                data-ms=move || at().map(|t| t.to_string())
                hidden=move || app.divergence.with(Option::is_none)
            >
                {first}
                <button data-testid="compare-seek" title=tr(app, Later::CompareSeekHint) hidden=move || at().is_none()
                    on:click=move |_| if let Some(t) = at() { app.seek(t) }>
                    {tr(app, Later::CompareSeek)}
                </button>
            </p>
            <p class="compare-summary" data-testid="compare-summary">{summary}</p>
        </div>
    }
}

/// The first field (in the trace's JSON) in which two events differ, with both values.
fn first_different_field(a: &TraceEvent, b: &TraceEvent) -> Option<(String, String, String)> {
    let read = |e: &TraceEvent| serde_json::to_string(e).ok().and_then(|t| crate::scenario::json_value(&t).ok());
    let (serde_json::Value::Object(x), serde_json::Value::Object(y)) = (read(a)?, read(b)?) else { return None };
    let shown = |v: Option<&serde_json::Value>| v.map_or_else(|| "–".to_owned(), |v| v.to_string());
    x.keys().chain(y.keys()).find(|k| x.get(*k) != y.get(*k)).map(|k| (k.clone(), shown(x.get(k)), shown(y.get(k))))
}

/// What each of the two scenes is: "this run: fencing on" over the live scene, "the other run:
/// fencing off" over the compared one.
fn run_label(app: AppState, this: bool, lang: Lang) -> Option<String> {
    let setting = app.compare.get()?;
    let on = app.scenario.with(|s| setting.is_on(&s.config));
    let what = state(setting, if this { on } else { !on }).text(lang);
    Some(fill(if this { Later::CompareThis } else { Later::CompareOther }.text(lang), &[("what", what)]))
}

/// The label over this run's scene while comparing, with the first difference once the
/// playhead has passed it.
#[component]
pub fn ThisRunLabel(app: AppState) -> impl IntoView {
    view! {
        <p class="run-label" data-testid="this-run-label" hidden=move || app.compare.with(Option::is_none)>
            {move || run_label(app, true, app.lang.get())}
            {move || parted(app)}
        </p>
    }
}

/// "≠ from 16.0 s" on both scenes once the playhead has reached where the runs part.
fn parted(app: AppState) -> Option<String> {
    let now = app.snapshot.with(|s| s.now_ms);
    let at = app.divergence.with(|d| d.as_ref().and_then(|d| d.as_ref().map(|d| d.at_ms)))?;
    (now >= at).then(|| fill(Later::CompareParted.text(app.lang.get()), &[("t", &seconds(at))]))
}

/// The compared run's scene, drawn from its picture at this run's moment, beside this run's
/// (only while comparing), by the drawing of the fable shown. It is a picture to look at: acting
/// is done on this run's figures.
#[component]
pub fn OtherScene(app: AppState) -> impl IntoView {
    let markup = Memo::new(move |_| {
        let fable = app.fable.get();
        let look = super::draw::look(app, fable);
        app.other_picture
            .with(|p| {
                let p = p.as_ref()?;
                Some(app.cast.with(|cast| crate::draw::whole(fable.drawing(), p, cast, None, look)))
            })
            .map(|m| m.into_string())
            .unwrap_or_default()
    });
    let class = move || format!("scene {} other-run", app.fable.get().drawing().class);
    let scene = super::draw::readable_frame(app);
    view! {
        <div class="fable-scene other-scene" data-testid="other-scene" hidden=move || app.other_picture.with(Option::is_none)>
            <p class="run-label">
                {move || run_label(app, false, app.lang.get())}
                {move || parted(app)}
            </p>
            <div class=class node_ref=scene>
                <svg viewBox="0 0 1200 640" role="img" aria-label=tr(app, Later::CompareDiagram) preserveAspectRatio="xMidYMid meet" inner_html=move || markup.get()></svg>
            </div>
        </div>
    }
}
