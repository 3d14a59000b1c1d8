//! The side panel beside the stage: one tab at a time, so that nothing in it pushes the stage
//! down: the log, the crew's cards, the lease in its own terms with the metaphor table, the
//! technical view (kubectl / redis-cli / etcdctl and the resource's table) and the oracle's
//! findings. (The space-time diagram stays under the scene: it is the second picture of the
//! same run.)
//!
//! Every panel is built once and kept up to date while hidden (the log keeps its rows), the
//! technical panel from the first time its tab is shown (its code is fetched then); a tab only
//! shows one. Tabs follow the WAI-ARIA tabs pattern: ← → move between them, Home and End go to
//! the first and the last.

use leptos::prelude::*;

use crate::scenario::lesson::Element;
use crate::story::fill;
use crate::story::i18n::Later;

use super::state::{AppState, SideTab};
use super::{said, tr};

/// The tab's label in the page's language and the fable's words.
fn tab_label(app: AppState, tab: SideTab) -> String {
    let lang = app.lang.get();
    match tab {
        SideTab::Crew => said(app, crate::fables::Word::Crew, lang).to_owned(),
        SideTab::Log => Later::TabLog.text(lang).to_owned(),
        SideTab::Lease => Later::TabLease.text(lang).to_owned(),
        SideTab::Technical => Later::TabTechnical.text(lang).to_owned(),
        SideTab::Ask => Later::TabAsk.text(lang).to_owned(),
        SideTab::Problems => {
            let n = app.ledger.with(|l| l.violations_total);
            if n == 0 {
                Later::TabProblems.text(lang).to_owned()
            } else {
                fill(Later::TabProblemsCount.text(lang), &[("n", &n.to_string())])
            }
        }
    }
}

/// The side panel: a row of tabs (the log, the crew, the lease, the technical view, the
/// violations) and the panel of the one chosen.
#[component]
pub fn Side(app: AppState) -> impl IntoView {
    // Each tab's button, for moving the focus to it with the arrows.
    let buttons = SideTab::ALL.map(|_| NodeRef::<leptos::html::Button>::new());
    let choose = move |tab: SideTab, focus: bool| {
        app.side_tab.set(tab);
        if !focus {
            return;
        }
        let at = SideTab::ALL.iter().position(|t| *t == tab).unwrap_or(0);
        if let Some(el) = buttons[at].get_untracked() {
            super::focus::now(&el);
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let all = SideTab::ALL;
        let step: isize = match ev.key().as_str() {
            "ArrowRight" => 1,
            "ArrowLeft" => -1,
            // The first and the last tab (the WAI-ARIA tabs pattern).
            "Home" | "End" => {
                ev.prevent_default();
                let end = if ev.key() == "Home" { all[0] } else { all[all.len() - 1] };
                choose(end, true);
                return;
            }
            _ => return,
        };
        ev.prevent_default();
        let at = all.iter().position(|t| *t == app.side_tab.get_untracked()).unwrap_or(0) as isize;
        choose(all[(at + step).rem_euclid(all.len() as isize) as usize], true);
    };
    let tabs = SideTab::ALL
        .into_iter()
        .zip(buttons)
        .map(|(tab, button)| {
            let code = tab.code();
            let selected = move || app.side_tab.get() == tab;
            let bad = move || tab == SideTab::Problems && app.ledger.with(|l| l.violations_total > 0);
            view! {
                <button
                    role="tab"
                    id=format!("tab-{code}")
                    data-tab=code
                    data-testid=format!("tab-{code}")
                    aria-controls=format!("panel-{code}")
                    aria-selected=move || if selected() { "true" } else { "false" }
                    tabindex=move || if selected() { "0" } else { "-1" }
                    class=move || if bad() { "bad" } else { "" }
                    node_ref=button
                    on:click=move |_| choose(tab, false)
                >
                    {move || tab_label(app, tab)}
                </button>
            }
        })
        .collect_view();
    // A lesson step that points at the log or the violations shows that tab under the step.
    let pointed = Memo::new(move |_| {
        app.pointed.with(|p| {
            if p.contains(&Element::Violations) {
                Some(SideTab::Problems)
            } else if p.contains(&Element::Log) {
                Some(SideTab::Log)
            } else {
                None
            }
        })
    });
    super::effect(move || {
        if let Some(tab) = pointed.get() {
            app.side_tab.set(tab);
        }
    });
    // The technical panel is built the first time its tab is shown, once its code has come.
    let technical = RwSignal::new(None::<super::technical::Code>);
    let asked = StoredValue::new(false);
    super::effect(move || {
        if app.side_tab.get() == SideTab::Technical && !asked.get_value() {
            asked.set_value(true);
            wasm_bindgen_futures::spawn_local(async move {
                match super::technical::technical_panel().await {
                    Ok(code) => technical.set(Some(code)),
                    // Not fetched (the network): the next time the tab is shown tries again.
                    Err(_) => asked.set_value(false),
                }
            });
        }
    });
    // Which panel shows is the stylesheet's business (`.side[data-tab=…]`): no reactive
    // attribute per panel.
    view! {
        <aside class="side" data-testid="side" data-tab=move || app.side_tab.get().code() hidden=move || app.tutor.active() && pointed.with(Option::is_none)>
            <div class="tabs" role="tablist" aria-label=tr(app, Later::SideLabel) on:keydown=on_key>
                {tabs}
            </div>
            <div class="tab-panel" role="tabpanel" id="panel-log" aria-labelledby="tab-log" data-tab-panel="log">
                <super::log::Log app />
            </div>
            <div class="tab-panel" role="tabpanel" id="panel-crew" aria-labelledby="tab-crew" data-tab-panel="crew">
                <super::crew::Crew app />
            </div>
            <div class="tab-panel" role="tabpanel" id="panel-lease" aria-labelledby="tab-lease" data-tab-panel="lease">
                <super::panel::Panel app />
                <super::panel::Legend app />
            </div>
            <div class="tab-panel engineer" role="tabpanel" id="panel-technical" aria-labelledby="tab-technical" data-tab-panel="technical">
                {move || technical.get().map(|code| (code.panel)(app))}
            </div>
            <div class="tab-panel" role="tabpanel" id="panel-problems" aria-labelledby="tab-problems" data-tab-panel="problems">
                <super::violations::Violations app />
            </div>
            <div class="tab-panel" role="tabpanel" id="panel-ask" aria-labelledby="tab-ask" data-tab-panel="ask">
                <super::ask::Ask app />
            </div>
        </aside>
    }
}
