//! One card per flag-bearer (in the lantern, per borrower): who they are and how they are doing,
//! in story and technical words. The learner's levers on them (sleep / wake, send home / bring
//! back, cut off / reconnect) are at their figures in the scene (`hands`). The cards are the same
//! in every fable; only their words are the fable's.

use leptos::prelude::*;

use crate::engine::{NodeView, Role};
use crate::story::fill;
use crate::story::i18n::Ui;
use crate::vocab::Fable;
use crate::vocab::Lang;

use crate::story::markup::Markup;

use super::state::AppState;
use super::{said, seconds, tw};
use crate::draw::coat_colour;
use crate::fables::Word;

/// The cards, one per node, in the fable's words: who they are and how they are doing, in story
/// and technical words. Acting on them is done at their figures in the scene (see `hands`).
/// Written as markup: the cards change only when a node's state does.
#[component]
pub fn Crew(app: AppState) -> impl IntoView {
    let markup = Memo::new(move |_| {
        let lang = app.lang.get();
        let fable = app.fable.get();
        let lit = app.highlight.get();
        let mut out = Markup::new();
        app.snapshot.with(|s| {
            if s.nodes.is_empty() {
                out.tag("p").lit("class", "no-crew").text(said(app, Word::NoCrew, lang));
            }
            for (index, n) in s.nodes.iter().enumerate() {
                let lit = lit.as_ref().is_some_and(|h| h.lights_node(&n.id));
                let class = match (n.believes_leader, n.partitioned) {
                    (true, true) => "card leader cut-off",
                    (true, false) => "card leader",
                    (false, true) => "card cut-off",
                    (false, false) => "card",
                };
                out.tag("article")
                    .lit("class", class)
                    .attr("data-testid", &format!("card-{}", n.id))
                    .lit("data-role", n.role.as_str())
                    .attr_opt("data-highlight", lit.then_some("true"))
                    .open();
                out.tag("header").open();
                out.tag("span")
                    .lit("class", "swatch")
                    .attr("style", &format!("background:{}", coat_colour(index)))
                    .open();
                out.end("span");
                out.tag("h3").text(&app.cast.with(|c| c.name(&n.id, lang)));
                out.end("header");
                out.tag("ul").lit("class", "story-state").open();
                for line in story_state(n, s.lease.newest_granted, fable, lang) {
                    out.tag("li").text(&line);
                }
                out.end("ul");
                out.tag("p").lit("class", "tech-state").text(&technical_state(n, s.now_ms, lang));
                out.end("article");
            }
        });
        out.into_string()
    });
    view! { <section class="crew" aria-label=tw(app, Word::Crew) inner_html=markup></section> }
}

pub(crate) fn story_state(node: &NodeView, plaque_token: Option<u64>, fable: Fable, lang: Lang) -> Vec<String> {
    let text = |w: Word| fable.word(w, lang);
    let mut lines = Vec::new();
    let posture = match node.role {
        Role::Crashed => text(Word::ActorGone),
        Role::Paused => Ui::StoryAsleep.text(lang),
        _ if !node.started => text(Word::ActorNotYet),
        _ => Ui::StoryAwake.text(lang),
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
        Role::Leader => Ui::TechLeader,
        Role::Candidate if !node.started => Ui::TechNotStarted,
        Role::Candidate => Ui::TechCandidate,
        Role::Paused => Ui::TechPaused,
        Role::Crashed => Ui::TechCrashed,
    };
    let mut parts = vec![role.text(lang).to_owned()];
    if node.partitioned {
        parts.push(Ui::TechPartitioned.text(lang).to_owned());
    }
    if let Some(t) = node.token {
        parts.push(fill(Ui::TechToken.text(lang), &[("n", &t.to_string())]));
    }
    parts.push(fill(Ui::TechWritesSent.text(lang), &[("n", &node.writes_sent.to_string())]));
    if node.identity != node.id {
        parts.push(fill(Ui::TechIdentity.text(lang), &[("identity", &node.identity)]));
    }
    if let Some(t) = node.zombie_token {
        parts.push(fill(Ui::TechZombie.text(lang), &[("n", &t.to_string())]));
    }
    // A clock that is not true time: its reading, and its rate when that is off too.
    let true_now = i64::try_from(now_ms).unwrap_or(i64::MAX);
    if node.clock_ms != true_now || node.clock_rate_ppm != crate::engine::RATE_ONE_PPM {
        parts.push(fill(Ui::TechOwnClock.text(lang), &[("reads", &signed_seconds(node.clock_ms))]));
        if node.clock_rate_ppm != crate::engine::RATE_ONE_PPM {
            let rate = crate::story::narrate::rate(node.clock_rate_ppm);
            parts.push(fill(Ui::TechClockRate.text(lang), &[("rate", &rate)]));
        }
    }
    if let Some(at) = node.observed_expires_ms.filter(|_| !node.believes_leader) {
        parts.push(fill(Ui::TechObservedWait.text(lang), &[("s", &seconds(at.saturating_sub(now_ms)))]));
    }
    parts.join(" · ")
}

/// Signed milliseconds as seconds with one decimal, e.g. `-12.5`.
pub(crate) fn signed_seconds(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    format!("{sign}{}", seconds(ms.unsigned_abs()))
}
