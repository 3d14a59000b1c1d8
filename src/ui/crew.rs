//! One card per flag-bearer (in the lantern, per borrower): who they are, how they are doing (in
//! story and technical words), and the learner's levers on them: sleep / wake, send home / bring
//! back, cut off / reconnect. The cards are the same in both fables; only their words are retold.

use leptos::prelude::*;

use crate::engine::{Command, NodeView, Role};
use crate::scenario::Fable;
use crate::story::i18n::Ui;
use crate::story::{fill, Lang};

use super::scene::coat_colour;
use super::state::AppState;
use super::{lit, seconds, told, tr};

#[component]
pub fn Crew(app: AppState) -> impl IntoView {
    let ids = Memo::new(move |_| {
        app.scenario.with(|s| s.config.nodes.iter().enumerate().map(|(i, n)| (i, n.id.clone())).collect::<Vec<_>>())
    });
    view! {
        <section class="crew" aria-label=tr(app, Ui::Crew)>
            <Show when=move || ids.with(Vec::is_empty)>
                <p class="no-crew">{tr(app, Ui::NoCrew)}</p>
            </Show>
            <For each=move || ids.get() key=|pair| pair.clone() let((index, id))>
                <Card app index id />
            </For>
        </section>
    }
}

pub(crate) fn story_state(node: &NodeView, plaque_token: Option<u64>, fable: Fable, lang: Lang) -> Vec<String> {
    let text = |ui: Ui| ui.told(fable).text(lang);
    let mut lines = Vec::new();
    let posture = match node.role {
        Role::Crashed => Ui::StoryGone,
        Role::Paused => Ui::StoryAsleep,
        _ if !node.started => Ui::StoryNotYet,
        _ => Ui::StoryAwake,
    };
    lines.push(text(posture).to_owned());
    if node.partitioned {
        lines.push(text(Ui::StoryCutOff).to_owned());
    }
    if let (true, Some(t)) = (node.believes_leader, node.token) {
        lines.push(fill(text(Ui::StoryRaisedFlag), &[("n", &t.to_string())]));
        if let Some(p) = plaque_token.filter(|p| *p > t) {
            lines.push(fill(text(Ui::StoryStaleFlag), &[("n", &p.to_string())]));
        }
    }
    if let Some(p) = &node.prepared_write {
        lines.push(fill(text(Ui::StoryPreparedFlag), &[("n", &p.token.to_string())]));
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

#[component]
fn Card(app: AppState, index: usize, id: String) -> impl IntoView {
    let node = {
        let id = id.clone();
        Memo::new(move |_| app.snapshot.with(|s| s.nodes.iter().find(|n| n.id == id).cloned()))
    };
    let plaque_token = Memo::new(move |_| app.snapshot.with(|s| s.lease.newest_granted));
    let role = move || node.with(|n| n.as_ref().map_or("candidate", |n| n.role.as_str()));
    let name = {
        let id = id.clone();
        move || app.cast.with(|c| c.name(&id, app.lang.get()))
    };
    let story = move || {
        let lang = app.lang.get();
        let fable = app.fable.get();
        node.with(|n| n.as_ref().map(|n| story_state(n, plaque_token.get(), fable, lang)).unwrap_or_default())
            .into_iter()
            .map(|line| view! { <li>{line}</li> })
            .collect::<Vec<_>>()
    };
    let technical = move || {
        let lang = app.lang.get();
        let now = app.snapshot.with(|s| s.now_ms);
        node.with(|n| n.as_ref().map(|n| technical_state(n, now, lang)).unwrap_or_default())
    };
    let lit = {
        let id = id.clone();
        lit(app, move |h| h.lights_node(&id))
    };
    view! {
        <article
            class="card"
            data-testid=format!("card-{id}")
            data-role=role
            data-highlight=lit
            class:leader=move || node.with(|n| n.as_ref().is_some_and(|n| n.believes_leader))
            class:cut-off=move || node.with(|n| n.as_ref().is_some_and(|n| n.partitioned))
        >
            <header>
                <span class="swatch" style:background=coat_colour(index)></span>
                <h3>{name}</h3>
            </header>
            <ul class="story-state">{story}</ul>
            <p class="tech-state">{technical}</p>
            <NodeActions app id=id.clone() prefix="card" />
        </article>
    }
}

/// The learner's levers on one node: sleep / wake, send home / bring back, cut off / reconnect
/// (in the fable's words). The same buttons sit on the node's card (`prefix` `card`) and in the
/// menu that opens at its figure in the scene (`prefix` `node`): `data-testid` is
/// `{prefix}-{id}-pause`, `-crash` and `-partition`.
#[component]
pub fn NodeActions(app: AppState, id: String, prefix: &'static str) -> impl IntoView {
    let node = {
        let id = id.clone();
        Memo::new(move |_| {
            app.snapshot.with(|s| s.nodes.iter().find(|n| n.id == id).map(|n| (n.role, n.started, n.partitioned)))
        })
    };
    let finished = app.finished;
    let paused = move || node.with(|n| n.is_some_and(|(role, _, _)| role == Role::Paused));
    let crashed = move || node.with(|n| n.is_some_and(|(role, _, _)| role == Role::Crashed));
    let started = move || node.with(|n| n.is_some_and(|(_, started, _)| started));
    let cut_off = move || node.with(|n| n.is_some_and(|(_, _, cut)| cut));
    let act = {
        let id = id.clone();
        move |make: fn(String, bool) -> Command, state: bool| app.act_on_node(make(id.clone(), state))
    };
    let on_pause = {
        let act = act.clone();
        move |_| {
            act(
                |node, paused| if paused { Command::Resume { node } } else { Command::Pause { node, for_ms: None } },
                paused(),
            )
        }
    };
    let on_crash = {
        let act = act.clone();
        move |_| {
            act(|node, crashed| if crashed { Command::Restart { node } } else { Command::Crash { node } }, crashed())
        }
    };
    let on_partition = move |_| {
        act(
            |node, cut| {
                if cut {
                    Command::Heal { node }
                } else {
                    Command::Partition { node, from: crate::engine::Link::All }
                }
            },
            cut_off(),
        )
    };
    let lang = app.lang;
    view! {
        <div class="buttons">
            <button
                data-testid=format!("{prefix}-{id}-pause")
                title=tr(app, Ui::SleepHint)
                disabled=move || finished.get() || crashed() || !started()
                on:click=on_pause
            >
                {move || told(app, if paused() { Ui::Wake } else { Ui::Sleep }, lang.get())}
            </button>
            <button
                data-testid=format!("{prefix}-{id}-crash")
                title=tr(app, Ui::CrashHint)
                disabled=move || finished.get()
                on:click=on_crash
            >
                {move || told(app, if crashed() { Ui::Restart } else { Ui::Crash }, lang.get())}
            </button>
            <button
                data-testid=format!("{prefix}-{id}-partition")
                title=tr(app, Ui::CutOffHint)
                disabled=move || finished.get()
                on:click=on_partition
            >
                {move || told(app, if cut_off() { Ui::Reconnect } else { Ui::CutOff }, lang.get())}
            </button>
        </div>
    }
}
