//! The event log: each narrated trace entry in the fable's words and in technical words, newest
//! at the top. Rows are appended, never rebuilt (keyed by trace position); a language switch
//! re-narrates each row from its trace entry.

use std::sync::Arc;

use leptos::prelude::*;

use crate::story::i18n::Ui;
use crate::story::{fill, narrate, Tone};

use super::state::{AppState, LogRow};
use super::{seconds, tr};

#[component]
pub fn Log(app: AppState) -> impl IntoView {
    let empty = move || app.log.with(Vec::is_empty);
    view! {
        <section class="log-box" data-highlight=move || app.pointed.with(|p| p.contains(&crate::scenario::lesson::Element::Log)).then_some("true")>
            <header>
                <h2>{tr(app, Ui::LogTitle)}</h2>
                <span class="hint">{tr(app, Ui::NewestFirst)}</span>
                <label class="minor-toggle">
                    <input
                        type="checkbox"
                        prop:checked=move || app.hide_minor.get()
                        on:change=move |ev| app.hide_minor.set(event_target_checked(&ev))
                    />
                    <span>{tr(app, Ui::HideMinor)}</span>
                </label>
            </header>
            <Show when=empty>
                <p class="log-empty">{tr(app, Ui::LogEmpty)}</p>
            </Show>
            <ol data-testid="event-log" class="log" class:hide-minor=move || app.hide_minor.get()>
                <For
                    each=move || app.log.with(|rows| rows.iter().rev().cloned().collect::<Vec<_>>())
                    key=|row| (row.run, row.entry.seq)
                    let(row)
                >
                    <Row app row />
                </For>
            </ol>
            <Show when=move || app.log_trimmed.get()>
                <p class="log-trimmed">{tr(app, Ui::LogTrimmed)}</p>
            </Show>
        </section>
    }
}

/// The picture-book caption under the scene: the newest notable line of the log, in story words.
#[component]
pub fn Caption(app: AppState) -> impl IntoView {
    let latest = Memo::new(move |_| app.log.with(|rows| rows.iter().rev().find(|r| !r.minor).cloned()));
    let line = move || {
        let lang = app.lang.get();
        latest
            .with(|row| row.as_ref().and_then(|row| app.cast.with(|cast| narrate(&row.entry, cast, lang))))
            .map(|n| (n.story, n.tone, n.kind))
    };
    let text = move || line().map_or_else(|| tr(app, Ui::CaptionEmpty)().to_owned(), |(story, _, _)| story);
    let class = move || match line().map(|(_, tone, _)| tone) {
        Some(Tone::Good) => "caption good",
        Some(Tone::Warn) => "caption warn",
        Some(Tone::Bad) => "caption bad",
        _ => "caption",
    };
    view! {
        <p class=class data-testid="caption" aria-live="polite">
            {text}
        </p>
    }
}

#[component]
fn Row(app: AppState, row: Arc<LogRow>) -> impl IntoView {
    let narration = {
        let row = row.clone();
        Memo::new(move |_| {
            let lang = app.lang.get();
            app.cast.with(|cast| narrate(&row.entry, cast, lang))
        })
    };
    let tone = move || {
        narration.with(|n| match n.as_ref().map(|n| n.tone) {
            Some(Tone::Good) => "row good",
            Some(Tone::Warn) => "row warn",
            Some(Tone::Bad) => "row bad",
            _ => "row info",
        })
    };
    let at = row.entry.at_ms;
    let time = move || fill(Ui::SecondsValue.text(app.lang.get()), &[("s", &seconds(at))]);
    view! {
        <li class=tone class:minor=row.minor data-kind=row.kind data-ms=at.to_string()>
            <span class="at">{time}</span>
            <span class="story-line">{move || narration.with(|n| n.as_ref().map(|n| n.story.clone()))}</span>
            <span class="tech-line">{move || narration.with(|n| n.as_ref().map(|n| n.technical.clone()))}</span>
        </li>
    }
}
