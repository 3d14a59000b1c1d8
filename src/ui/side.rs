//! The side panel beside the stage: one tab at a time, so that nothing in it pushes the stage
//! down: the log, the crew's cards, the lease in its own terms with the metaphor table, the
//! technical view (kubectl / redis-cli / etcdctl and the resource's table) and the oracle's
//! findings. (The space-time diagram stays under the scene: it is the second picture of the
//! same run.)
//!
//! Every panel is built once and kept up to date while hidden (the log keeps its rows); a tab
//! only shows one. Tabs follow the WAI-ARIA tabs pattern: ← → move between them.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::story::fill;
use crate::story::i18n::Ui;

use super::state::{AppState, SideTab};
use super::{told, tr};

/// The tab's label in the page's language and the fable's words.
fn tab_label(app: AppState, tab: SideTab) -> String {
    let lang = app.lang.get();
    match tab {
        SideTab::Crew => told(app, Ui::Crew, lang).to_owned(),
        SideTab::Log => Ui::LogTitle.text(lang).to_owned(),
        SideTab::Lease => Ui::TabLease.text(lang).to_owned(),
        SideTab::Technical => Ui::TabTechnical.text(lang).to_owned(),
        SideTab::Problems => {
            let n = app.ledger.with(|l| l.violations_total);
            if n == 0 {
                Ui::TabProblems.text(lang).to_owned()
            } else {
                fill(Ui::TabProblemsCount.text(lang), &[("n", &n.to_string())])
            }
        }
    }
}

#[component]
pub fn Side(app: AppState) -> impl IntoView {
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let step: isize = match ev.key().as_str() {
            "ArrowRight" => 1,
            "ArrowLeft" => -1,
            _ => return,
        };
        ev.prevent_default();
        let all = SideTab::ALL;
        let at = all.iter().position(|t| *t == app.side_tab.get_untracked()).unwrap_or(0) as isize;
        let next = all[(at + step).rem_euclid(all.len() as isize) as usize];
        app.side_tab.set(next);
        if let Some(tab) = document()
            .query_selector(&format!("[data-tab=\"{}\"]", next.code()))
            .ok()
            .flatten()
            .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = tab.focus();
        }
    };
    let tabs = SideTab::ALL
        .into_iter()
        .map(|tab| {
            let selected = move || app.side_tab.get() == tab;
            view! {
                <button
                    role="tab"
                    id=format!("tab-{}", tab.code())
                    data-tab=tab.code()
                    data-testid=format!("tab-{}", tab.code())
                    aria-controls=format!("panel-{}", tab.code())
                    aria-selected=move || if selected() { "true" } else { "false" }
                    tabindex=move || if selected() { "0" } else { "-1" }
                    class:bad=move || tab == SideTab::Problems && app.ledger.with(|l| l.violations_total > 0)
                    on:click=move |_| app.side_tab.set(tab)
                >
                    {move || tab_label(app, tab)}
                </button>
            }
        })
        .collect::<Vec<_>>();
    let panel = move |tab: SideTab| {
        (format!("panel-{}", tab.code()), format!("tab-{}", tab.code()), tab.code(), move || app.side_tab.get() != tab)
    };
    let (c_id, c_by, c_code, c_hidden) = panel(SideTab::Crew);
    let (l_id, l_by, l_code, l_hidden) = panel(SideTab::Log);
    let (e_id, e_by, e_code, e_hidden) = panel(SideTab::Lease);
    let (t_id, t_by, t_code, t_hidden) = panel(SideTab::Technical);
    let (p_id, p_by, p_code, p_hidden) = panel(SideTab::Problems);
    view! {
        <aside class="side" data-testid="side" hidden=move || app.tutor.active()>
            <div class="tabs" role="tablist" aria-label=tr(app, Ui::SideLabel) on:keydown=on_key>
                {tabs}
            </div>
            <div class="tab-panel" role="tabpanel" id=c_id aria-labelledby=c_by data-tab-panel=c_code hidden=c_hidden>
                <super::crew::Crew app />
            </div>
            <div class="tab-panel" role="tabpanel" id=l_id aria-labelledby=l_by data-tab-panel=l_code hidden=l_hidden>
                <super::log::Log app />
            </div>
            <div class="tab-panel" role="tabpanel" id=e_id aria-labelledby=e_by data-tab-panel=e_code hidden=e_hidden>
                <super::panel::Panel app />
                <super::panel::Legend app />
            </div>
            <div class="tab-panel engineer" role="tabpanel" id=t_id aria-labelledby=t_by data-tab-panel=t_code hidden=t_hidden>
                <super::technical::TechnicalView app />
                <super::technical::ResourceTable app />
            </div>
            <div class="tab-panel" role="tabpanel" id=p_id aria-labelledby=p_by data-tab-panel=p_code hidden=p_hidden>
                <super::violations::Violations app />
            </div>
        </aside>
    }
}
