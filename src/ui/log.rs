//! The event log: each narrated trace entry in the fable's words and in technical words, newest
//! at the top. Rows are added, never rebuilt; each is narrated once, as plain text (no reactive
//! parts: a second's rows at 64× are cheap to build), and a language or fable switch draws the
//! list again from the rows' trace entries.
//!
//! The rows published in one frame are one keyed item of the list, not one item each. Leptos's
//! keyed list (tachys 0.2) groups adjacent moves into one and moves the whole group in the DOM if
//! its first item must move: with two rows or more put at the top in one frame (every frame at
//! 64×), all 400 kept rows were taken out and put back, and laid out again (p50 frame 50 ms in
//! an hour-long run, issue 14). One item per frame at the top moves nothing.

use std::sync::Arc;

use leptos::prelude::*;

use crate::story::i18n::{Later, Ui};
use crate::story::{fill, narrate, Cast, Tone};
use crate::vocab::Lang;

use super::state::{AppState, LogRow};
use super::{seconds_in, tr};

#[component]
pub fn Log(app: AppState) -> impl IntoView {
    let empty = move || app.log.with(Vec::is_empty);
    view! {
        <section class="log-box" data-highlight=move || app.pointed.with(|p| p.contains(&crate::scenario::lesson::Element::Log)).then_some("true")>
            <header>
                <h2>{super::tw(app, crate::fables::Word::LogTitle)}</h2>
                <span class="hint">{tr(app, Later::NewestFirst)}</span>
                <label class="minor-toggle">
                    <input
                        type="checkbox"
                        prop:checked=move || app.hide_minor.get()
                        on:change=move |ev| app.hide_minor.set(event_target_checked(&ev))
                    />
                    <span>{tr(app, Later::HideMinor)}</span>
                </label>
            </header>
            <Show when=empty>
                <p class="log-empty">{tr(app, Later::LogEmpty)}</p>
            </Show>
            // Scrollable, so it takes the focus: the keyboard scrolls it too.
            <ol data-testid="event-log" class="log" tabindex="0" aria-label=super::tw(app, crate::fables::Word::LogTitle) class:hide-minor=move || app.hide_minor.get()>
                // Each row is narrated once: a language or a cast changed draws the list again.
                {move || {
                    let lang = app.lang.get();
                    let cast = app.cast.get();
                    view! {
                        <For each=move || app.log.with(|rows| batches(rows)) key=Batch::key let(batch)>
                            {batch.rows.iter().map(|row| row_view(row, &cast, lang)).collect_view()}
                        </For>
                    }
                }}
            </ol>
            <Show when=move || app.log_trimmed.get()>
                <p class="log-trimmed">{tr(app, Later::LogTrimmed)}</p>
            </Show>
        </section>
    }
}

/// Rows published together, newest first.
struct Batch {
    rows: Vec<Arc<LogRow>>,
}

impl Batch {
    /// Its run and batch (`LogRow::batch`). The log drops a batch whole (`AppState::publish`),
    /// so a drawn batch never changes.
    fn key(&self) -> (u32, usize) {
        self.rows.first().map_or((0, 0), |r| r.batch_key())
    }
}

/// The log's rows in batches, newest batch first, each newest row first.
fn batches(rows: &[Arc<LogRow>]) -> Vec<Batch> {
    let mut out: Vec<Batch> = Vec::new();
    for row in rows.iter().rev() {
        match out.last_mut() {
            Some(b) if b.key() == row.batch_key() => b.rows.push(row.clone()),
            _ => out.push(Batch { rows: vec![row.clone()] }),
        }
    }
    out
}

/// The picture-book caption under the scene: the newest notable line of the log, in story words,
/// with its tone (good, a warning, bad) as its class. A memo, so the text and the class are set
/// again only when they change, not on every frame's new log row.
#[component]
pub fn Caption(app: AppState) -> impl IntoView {
    let line = Memo::new(move |_| {
        let lang = app.lang.get();
        let line = app.log.with(|rows| {
            let row = rows.iter().rev().find(|r| !r.minor)?;
            app.cast.with(|cast| narrate(&row.entry, cast, lang))
        });
        match line {
            Some(n) => (
                n.story,
                match n.tone {
                    Tone::Good => "caption good",
                    Tone::Warn => "caption warn",
                    Tone::Bad => "caption bad",
                    _ => "caption",
                },
            ),
            None => (super::said(app, crate::fables::Word::CaptionEmpty, lang).to_owned(), "caption"),
        }
    });
    // Not a live region: at speed it would change faster than anyone can listen; the
    // [`Narrator`] says the same lines at a pace a screen reader can follow. The words are in a
    // span of their own: its tone's mark goes before them, on their first line, rather than at
    // the caption's far edge when they wrap.
    view! {
        <p class=move || line.with(|l| l.1) data-testid="caption">
            <span>{move || line.with(|l| l.0.clone())}</span>
        </p>
    }
}

/// Least real time between two announcements of the [`Narrator`], in ms.
pub const ANNOUNCE_EVERY_MS: u64 = 2_500;

/// Engine events in words for screen readers: a polite live region that says the log's notable
/// story lines, at most one announcement every [`ANNOUNCE_EVERY_MS`]: a burst at high speed is
/// said as its last lines and how many came before them. A jump in time (a seek, a reset)
/// is not read out row by row.
#[component]
pub fn Narrator(app: AppState) -> impl IntoView {
    let said = RwSignal::new(String::new());
    // The last row announced: its run and trace position.
    let last = StoredValue::new((0u32, 0u64));
    // What of the lesson was last said (see `lesson::announcement`).
    let step_said = StoredValue::new(String::new());
    set_interval(
        move || {
            let (run, seq) = last.get_value();
            let lang = app.lang.get_untracked();
            // A new lesson step, or a revealed prediction, is said first: the panel's words change
            // without the focus moving.
            if let Some((key, text)) =
                super::lesson::announcement(app, lang).filter(|(k, _)| *k != step_said.get_value())
            {
                step_said.set_value(key);
                said.set(text);
                return;
            }
            let fresh: Vec<Arc<LogRow>> = app.log.with_untracked(|rows| {
                let Some(newest) = rows.last() else { return Vec::new() };
                if newest.run != run {
                    // Another run (a seek, a reset, a lesson step): start from its newest row.
                    last.set_value((newest.run, newest.entry.seq));
                    return Vec::new();
                }
                rows.iter().filter(|r| r.run == run && r.entry.seq > seq && !r.minor).cloned().collect()
            });
            let Some(newest) = fresh.last() else { return };
            last.set_value((newest.run, newest.entry.seq));
            let lines: Vec<String> = app.cast.with_untracked(|cast| {
                let keep = if fresh.len() <= 4 { fresh.len() } else { 3 };
                fresh
                    .iter()
                    .rev()
                    .take(keep)
                    .rev()
                    .filter_map(|r| narrate(&r.entry, cast, lang))
                    .map(|n| n.story)
                    .collect()
            });
            let earlier = fresh.len().saturating_sub(lines.len());
            let mut text = if earlier > 0 {
                fill(Ui::NarratorEarlier.text(lang), &[("n", &earlier.to_string())]) + " "
            } else {
                String::new()
            };
            text.push_str(&lines.join(" "));
            said.set(text);
        },
        std::time::Duration::from_millis(ANNOUNCE_EVERY_MS),
    );
    view! { <p class="sr-only" data-testid="live-narration" aria-live="polite" aria-atomic="true">{move || said.get()}</p> }
}

/// One row, narrated once in `lang` with `cast` (the list is drawn again when either changes).
fn row_view(row: &LogRow, cast: &Cast, lang: Lang) -> impl IntoView {
    let narration = narrate(&row.entry, cast, lang);
    let tone = match narration.as_ref().map(|n| n.tone) {
        Some(Tone::Good) => "row good",
        Some(Tone::Warn) => "row warn",
        Some(Tone::Bad) => "row bad",
        _ => "row info",
    };
    let at = row.entry.at_ms;
    let (story, technical) = narration.map(|n| (n.story, n.technical)).unwrap_or_default();
    view! {
        <li class=tone class:minor=row.minor data-kind=row.kind data-ms=at.to_string()>
            <span class="at">{seconds_in(at, lang)}</span>
            <span class="story-line">{story}</span>
            <span class="tech-line">{technical}</span>
        </li>
    }
}
