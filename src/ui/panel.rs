//! The same state in the field's own terms (the Lease record, the fenced resource), each row
//! labelled with the fable element it stands for; and the key of who stands for what.

use leptos::prelude::*;

use crate::engine::Liveness;
use crate::engine::{EqualTokenPolicy, Snapshot};
use crate::fables::{Said, Word};
use crate::story::i18n::{Later, Ui};
use crate::story::{fill, Cast};
use crate::vocab::Lang;

use super::state::AppState;
use super::{seconds_in, tr};
use Said::Fable as F;

/// One row: the fable element, the concept, and its current value.
struct Row {
    /// What the fable shown calls it (or the page, where every fable says the same).
    story: Said,
    concept: Later,
    testid: &'static str,
    value: fn(&Snapshot, &Cast, Lang) -> String,
}

fn moment(v: Option<u64>, lang: Lang) -> String {
    match v {
        Some(v) => seconds_in(v, lang),
        None => Later::Nothing.text(lang).to_owned(),
    }
}

fn on_off(on: bool, lang: Lang) -> String {
    if on { Later::On } else { Later::Off }.text(lang).to_owned()
}

const ROWS: &[Row] = &[
    Row {
        story: F(Word::RowHolder),
        concept: Later::ConceptHolder,
        testid: "lease-holder",
        value: |s, cast, lang| match &s.lease.holder_identity {
            Some(id) => {
                // The identity as the fable's systems print it, and who that is.
                let (handle, name) = (cast.handle(id), cast.name(id, lang));
                if name == handle {
                    handle
                } else {
                    format!("{handle} ({name})")
                }
            }
            None => Later::Nothing.text(lang).to_owned(),
        },
    },
    Row {
        story: F(Word::RowDuration),
        concept: Later::ConceptDuration,
        testid: "lease-duration",
        value: |s, _, lang| seconds_in(s.lease.lease_duration_ms, lang),
    },
    Row {
        story: F(Word::RowAcquired),
        concept: Later::ConceptAcquire,
        testid: "lease-acquire-time",
        value: |s, _, lang| moment(s.lease.acquire_time_ms, lang),
    },
    Row {
        story: F(Word::RowRenewed),
        concept: Later::ConceptRenew,
        testid: "lease-renew-time",
        value: |s, _, lang| moment(s.lease.renew_time_ms, lang),
    },
    Row {
        story: F(Word::RowRemaining),
        concept: Later::ConceptRemaining,
        testid: "lease-remaining",
        // Whether the lease is live is decided once, by the engine, for every view.
        value: |s, _, lang| match s.lease.liveness {
            Liveness::Live { remaining_ms } => seconds_in(remaining_ms, lang),
            Liveness::Lapsed { .. } => Later::Expired.text(lang).to_owned(),
            Liveness::Free => Later::Nothing.text(lang).to_owned(),
        },
    },
    Row {
        story: Said::Later(Later::RowNameChanges),
        concept: Later::ConceptTransitions,
        testid: "lease-transitions",
        value: |s, _, _| s.lease.lease_transitions.to_string(),
    },
    Row {
        story: F(Word::RowToken),
        concept: Later::ConceptToken,
        testid: "lease-token",
        value: |s, _, lang| s.lease.token.map_or_else(|| Later::Nothing.text(lang).to_owned(), |t| t.to_string()),
    },
    Row {
        story: F(Word::RowMark),
        concept: Later::ConceptHighWater,
        testid: "resource-high-water",
        value: |s, _, _| s.resource.high_water.to_string(),
    },
    Row {
        story: F(Word::RowLastAccepted),
        concept: Later::ConceptValue,
        testid: "resource-value",
        value: |s, cast, lang| match &s.resource.value {
            Some(v) => {
                let who = s
                    .resource
                    .value_from
                    .as_deref()
                    .map_or_else(|| cast.fable().word(Word::Outsider, lang).to_owned(), |id| cast.name(id, lang));
                let n = s.resource.value_token.as_ref().map(|t| t.label()).unwrap_or_default();
                fill(Later::ValueFrom.text(lang), &[("value", v), ("who", &who), ("n", &n)])
            }
            None => Later::Nothing.text(lang).to_owned(),
        },
    },
    Row {
        story: F(Word::RowGateOnDuty),
        concept: Later::ConceptFencing,
        testid: "resource-fencing",
        value: |s, _, lang| on_off(s.resource.fencing, lang),
    },
    Row {
        story: F(Word::RowEqualToken),
        concept: Later::ConceptEqualPolicy,
        testid: "resource-equal-token",
        value: |s, _, lang| {
            match s.resource.equal_token {
                EqualTokenPolicy::Accept => Later::PolicyAccept,
                EqualTokenPolicy::Reject => Later::PolicyReject,
                EqualTokenPolicy::Dedupe => Later::PolicyDedupe,
            }
            .text(lang)
            .to_owned()
        },
    },
    Row {
        story: F(Word::RowStoreClock),
        concept: Later::ConceptStoreClock,
        testid: "store-clock",
        value: |s, _, lang| fill(Ui::SecondsValue.text(lang), &[("s", &super::crew::signed_seconds(s.store_clock_ms))]),
    },
    Row {
        story: F(Word::RowWhoJudges),
        concept: Later::ConceptExpiry,
        testid: "lease-expiry",
        value: |s, _, lang| {
            match s.expiry {
                crate::engine::Expiry::Coordinator => Later::ExpiryStore,
                crate::engine::Expiry::Observer => Later::ExpiryObserver,
            }
            .text(lang)
            .to_owned()
        },
    },
    Row {
        story: F(Word::RowWritesJudged),
        concept: Later::ConceptAcceptedRejected,
        testid: "resource-counts",
        value: |s, _, _| format!("{} / {}", s.resource.accepted, s.resource.rejected),
    },
];

/// The lease in its own terms: a table with a row per field of the Lease record and of the
/// fenced resource, each with the fable element it stands for, the concept, and its value now.
#[component]
pub fn Panel(app: AppState) -> impl IntoView {
    let rows = ROWS
        .iter()
        .map(|row| {
            let story = move || row.story.text(app.fable.get(), app.lang.get());
            let value = move || {
                let lang = app.lang.get();
                app.cast.with(|cast| app.snapshot.with(|s| (row.value)(s, cast, lang)))
            };
            view! {
                <tr>
                    <th scope="row" class="story-el">{story}</th>
                    <td class="concept">{tr(app, row.concept)}</td>
                    <td class="value" data-testid=row.testid>{value}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="panel">
            <h2>{tr(app, Later::PanelTitle)}</h2>
            <table>
                <thead>
                    <tr>
                        <th scope="col">{tr(app, Later::ColStory)}</th>
                        <th scope="col">{tr(app, Later::ColConcept)}</th>
                        <th scope="col">{tr(app, Later::ColNow)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    }
}

/// The key of who stands for what, in the fable shown: a line per element of the story, with
/// the concept it stands for.
#[component]
pub fn Legend(app: AppState) -> impl IntoView {
    let items = move || {
        app.fable
            .get()
            .legend(app.lang.get())
            .map(|(key, story, concept)| {
                view! {
                    <li data-legend=key>
                        <span class="story-el">{story}</span>
                        <span class="arrow">"→"</span>
                        <span class="concept">{concept}</span>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <section class="legend">
            <h2>{tr(app, Later::LegendTitle)}</h2>
            <ul>{items}</ul>
        </section>
    }
}
