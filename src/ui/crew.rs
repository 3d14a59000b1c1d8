//! One card per flag-bearer (in the lantern, per borrower): who they are and how they are doing,
//! in story and technical words. The learner's levers on them (sleep / wake, send home / bring
//! back, cut off / reconnect) are at their figures in the scene (`hands`). The cards are the same
//! in every fable; only their words are the fable's.

use leptos::prelude::*;

use crate::engine::{NodeView, Role};
use crate::story::fill;
use crate::story::i18n::Later;
use crate::vocab::Fable;
use crate::vocab::Lang;

use super::state::AppState;
use super::{seconds, tw};
use crate::draw::coat_colour;
use crate::fables::Word;

/// One node's card as the run stands: what it shows.
#[derive(Clone, PartialEq, Eq)]
struct Card {
    id: String,
    name: String,
    leader: bool,
    cut_off: bool,
    role: &'static str,
    /// Lit up by the violation under the pointer or the focus.
    lit: bool,
    story: Vec<String>,
    tech: String,
}

/// What `read` finds on the card of node `id`, at `index` in `cards` (the default once it has
/// gone).
fn on_card<T: Default>(cards: Memo<Vec<Card>>, index: usize, id: &str, read: impl Fn(&Card) -> T) -> T {
    cards.with(|c| c.get(index).filter(|c| c.id == id).map(read).unwrap_or_default())
}

/// The crew's cards, one per node in the fable's words: its coat's colour and name, how it is
/// doing in story words, and its state in technical words. Acting on a node is done at its
/// figure in the scene (see `hands`).
#[component]
pub fn Crew(app: AppState) -> impl IntoView {
    let cards = Memo::new(move |_| {
        let lang = app.lang.get();
        let fable = app.fable.get();
        let lit = app.highlight.get();
        app.cast.with(|cast| {
            app.snapshot.with(|s| {
                s.nodes
                    .iter()
                    .map(|n| Card {
                        id: n.id.clone(),
                        name: cast.name(&n.id, lang),
                        leader: n.believes_leader,
                        cut_off: n.partitioned,
                        role: n.role.as_str(),
                        lit: lit.as_ref().is_some_and(|h| h.lights_node(&n.id)),
                        story: story_state(n, s.lease.newest_granted, fable, lang),
                        tech: technical_state(n, s.now_ms, lang),
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    // A card stays while its node does (at its place): only what changes on it is set again.
    let card = move |(index, id): (usize, String)| {
        let story = {
            let id = id.clone();
            Memo::new(move |_| on_card(cards, index, &id, |c| c.story.clone()))
        };
        let class = {
            let id = id.clone();
            move || {
                on_card(cards, index, &id, |c| match (c.leader, c.cut_off) {
                    (true, true) => "card leader cut-off",
                    (true, false) => "card leader",
                    (false, true) => "card cut-off",
                    (false, false) => "card",
                })
            }
        };
        let role = {
            let id = id.clone();
            move || on_card(cards, index, &id, |c| c.role)
        };
        let lit = {
            let id = id.clone();
            move || on_card(cards, index, &id, |c| c.lit).then_some("true")
        };
        let name = {
            let id = id.clone();
            move || on_card(cards, index, &id, |c| c.name.clone())
        };
        let tech = {
            let id = id.clone();
            move || on_card(cards, index, &id, |c| c.tech.clone())
        };
        view! {
            <article class=class data-testid=format!("card-{id}") data-role=role data-highlight=lit>
                <header>
                    <span class="swatch" style=format!("background:{}", coat_colour(index))></span>
                    <h3>{name}</h3>
                </header>
                <ul class="story-state">
                    {move || story.get().into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
                </ul>
                <p class="tech-state">{tech}</p>
            </article>
        }
    };
    let empty = move || cards.with(Vec::is_empty).then(|| view! { <p class="no-crew">{tw(app, Word::NoCrew)}</p> });
    view! {
        <section class="crew" aria-label=tw(app, Word::Crew)>
            {empty}
            <For
                each=move || cards.with(|c| c.iter().enumerate().map(|(k, c)| (k, c.id.clone())).collect::<Vec<_>>())
                key=|k| k.clone()
                children=card
            />
        </section>
    }
}

pub(crate) fn story_state(node: &NodeView, plaque_token: Option<u64>, fable: Fable, lang: Lang) -> Vec<String> {
    let text = |w: Word| fable.word(w, lang);
    let mut lines = Vec::new();
    let posture = match node.role {
        Role::Crashed => text(Word::ActorGone),
        Role::Paused => Later::StoryAsleep.text(lang),
        _ if !node.started => text(Word::ActorNotYet),
        _ => Later::StoryAwake.text(lang),
    };
    lines.push(posture.to_owned());
    if node.partitioned {
        lines.push(text(Word::ActorCutOff).to_owned());
    }
    if let (true, Some(t)) = (node.believes_leader, node.token) {
        lines.push(fill(text(Word::ActorHolds), &[("n", &t.to_string())]));
        if let Some(p) = plaque_token.filter(|p| *p > t) {
            lines.push(fill(text(Word::ActorStale), &[("n", &p.to_string())]));
        }
    }
    if let Some(p) = &node.prepared_write {
        lines.push(fill(text(Word::ActorPrepared), &[("n", &p.token.to_string())]));
    }
    lines
}

fn technical_state(node: &NodeView, now_ms: u64, lang: Lang) -> String {
    let role = match node.role {
        Role::Leader => Later::TechLeader,
        Role::Candidate if !node.started => Later::TechNotStarted,
        Role::Candidate => Later::TechCandidate,
        Role::Paused => Later::TechPaused,
        Role::Crashed => Later::TechCrashed,
    };
    let mut parts = vec![role.text(lang).to_owned()];
    if node.partitioned {
        parts.push(Later::TechPartitioned.text(lang).to_owned());
    }
    if let Some(t) = node.token {
        parts.push(fill(Later::TechToken.text(lang), &[("n", &t.to_string())]));
    }
    parts.push(fill(Later::TechWritesSent.text(lang), &[("n", &node.writes_sent.to_string())]));
    if node.identity != node.id {
        parts.push(fill(Later::TechIdentity.text(lang), &[("identity", &node.identity)]));
    }
    if let Some(t) = node.zombie_token {
        parts.push(fill(Later::TechZombie.text(lang), &[("n", &t.to_string())]));
    }
    // A clock that is not true time: its reading, and its rate when that is off too.
    let true_now = i64::try_from(now_ms).unwrap_or(i64::MAX);
    if node.clock_ms != true_now || node.clock_rate_ppm != crate::engine::RATE_ONE_PPM {
        parts.push(fill(Later::TechOwnClock.text(lang), &[("reads", &signed_seconds(node.clock_ms))]));
        if node.clock_rate_ppm != crate::engine::RATE_ONE_PPM {
            let rate = crate::story::narrate::rate(node.clock_rate_ppm);
            parts.push(fill(Later::TechClockRate.text(lang), &[("rate", &rate)]));
        }
    }
    if let Some(at) = node.observed_expires_ms.filter(|_| !node.believes_leader) {
        parts.push(fill(Later::TechObservedWait.text(lang), &[("s", &seconds(at.saturating_sub(now_ms)))]));
    }
    parts.join(" · ")
}

/// Signed milliseconds as seconds with one decimal, e.g. `-12.5`.
pub(crate) fn signed_seconds(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    format!("{sign}{}", seconds(ms.unsigned_abs()))
}
