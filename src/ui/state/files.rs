//! The run's files and its address: the scenario file and the run's exports (report, ShiViz,
//! history), the share link and its embed snippet, and rewriting the page's address in place.
//! The files and the link are written by chunks fetched on first use in the split build.

use super::{AppState, SPEED_LOG2_MAX};
use crate::engine::{ScheduledCommand, Sim};
use crate::scenario::{Report, Scenario};
use crate::story::theme::Theme;
use leptos::prelude::*;

impl AppState {
    /// The scenario's file: the imported JSON, else the built-in's (fetched if it is not here).
    async fn source_text(self) -> Option<String> {
        match self.source.get_untracked() {
            Some(text) => Some(text),
            None => crate::ui::catalog::file_text(&self.scenario.with_untracked(|s| s.id.clone())).await,
        }
    }

    /// This run as a scenario file: the scenario's file with the learner's interventions merged
    /// in (see `scenario::export`), and its file name.
    pub async fn export_scenario(self) -> Option<(String, String)> {
        let source = self.source_text().await?;
        let interventions = self.timeline.with_value(|t| t.interventions().to_vec());
        let id = self.scenario.with_untracked(|s| s.id.clone());
        scenario_file(id, source, interventions).await.ok().flatten()
    }

    /// A file of this run played to its end (the report, or the run for ShiViz or a Jepsen
    /// checker) and its name.
    pub async fn export_run(self, kind: RunFile) -> Option<(String, String)> {
        let (config, interventions) = self.timeline.with_value(|t| (t.config().clone(), t.interventions().to_vec()));
        run_file(self.scenario.get_untracked(), config, interventions, kind).await.ok().flatten()
    }

    /// The address that replays this run exactly: scenario, the learner's interventions, the
    /// moment, fable, view, speed and language, the theme unless it follows the system, and true
    /// time if chosen (see `scenario::link` for the format). `None` if the run holds an
    /// intervention a link cannot carry.
    pub async fn share_link(self) -> Option<String> {
        let location = crate::ui::window()?.location();
        let run = RunLink {
            base: format!("{}{}", location.origin().ok()?, location.pathname().ok()?),
            interventions: self.timeline.with_value(|t| t.interventions().to_vec()),
            source: self.source.get_untracked(),
            id: self.scenario.with_untracked(|s| s.id.clone()),
            now_ms: self.sim.with_value(Sim::now_ms),
            speed_log2: self.speed_log2.get_untracked(),
            settings: [
                self.fable.get_untracked().code(),
                self.lang.get_untracked().code(),
                self.tech_view.get_untracked().code(),
                self.theme.get_untracked().code(),
            ],
            true_time: self.true_time.get_untracked(),
        };
        share_link(run).await.ok().flatten()
    }

    /// The `<iframe>` that shows this run embedded (`?embed=1`, see `docs/embed.md`): the share
    /// link's address with `embed=1`, HTML-escaped. `None` as for [`share_link`](Self::share_link).
    pub async fn embed_snippet(self) -> Option<String> {
        let src = format!("{}&embed=1", self.share_link().await?).replace('&', "&amp;");
        Some(format!(
            "<iframe src=\"{src}\" width=\"800\" height=\"460\" style=\"border:0\" title=\"LeaseLab\" loading=\"lazy\"></iframe>"
        ))
    }
}

/// A file of a run played to its end, for download (see [`run_file`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunFile {
    /// The report (`leaselab.report/1`), as the runner's `run` prints it.
    Report,
    /// A ShiViz log (vector clocks per event), as `leaselab export --format shiviz` prints it.
    Shiviz,
    /// A Jepsen-style history (EDN), as `leaselab export --format history` prints it.
    History,
}

chunk_fn! {
    in later_parts;
    /// A file of the run played to its end: its name and text. Loaded on first use in the split
    /// build (the first scene does not need it).
    fn run_file(
        scenario: Scenario,
        config: crate::engine::Config,
        interventions: Vec<ScheduledCommand>,
        kind: RunFile,
    ) -> Option<(String, String)> = write_run_file;
}

fn write_run_file(
    scenario: Scenario,
    config: crate::engine::Config,
    interventions: Vec<ScheduledCommand>,
    kind: RunFile,
) -> Option<(String, String)> {
    let nodes: Vec<String> = config.nodes.iter().map(|n| n.id.clone()).collect();
    let mut sim = Sim::replay(config, &interventions).ok()?;
    sim.run_to_end();
    let id = &scenario.id;
    Some(match kind {
        RunFile::Report => {
            (format!("{id}-report.json"), serde_json::to_string(&Report::new(&scenario, &sim)).ok()? + "\n")
        }
        RunFile::Shiviz => (format!("{id}.shiviz.log"), crate::scenario::interop::shiviz(sim.trace())),
        RunFile::History => (format!("{id}-history.edn"), crate::scenario::interop::history(sim.trace(), &nodes)),
    })
}

chunk_fn! {
    in later_parts;
    /// The scenario file of this run: its name and the source with the learner's interventions
    /// written into `interventions`. Loaded on first use in the split build.
    fn scenario_file(
        id: String,
        source: String,
        interventions: Vec<ScheduledCommand>,
    ) -> Option<(String, String)> = write_scenario_file;
}

fn write_scenario_file(id: String, source: String, interventions: Vec<ScheduledCommand>) -> Option<(String, String)> {
    let text = crate::scenario::export::with_interventions(&source, &interventions).ok()?;
    Some((format!("{id}.json"), text))
}

/// What a share link says of a run (see [`AppState::share_link`]).
struct RunLink {
    /// The page's origin and path.
    base: String,
    interventions: Vec<ScheduledCommand>,
    /// An imported scenario's file, which travels whole (`s=`); a built-in goes by its `id`.
    source: Option<String>,
    id: String,
    now_ms: u64,
    speed_log2: i32,
    /// The codes of the fable, the language, the log's view and the theme.
    settings: [&'static str; 4],
    true_time: bool,
}

/// A speed as the address writes it (`speed=`, read by `ui::url`): `0.25`, `0.5`, `1` … `64`.
pub(super) fn speed_code(log2: i32) -> String {
    match log2 {
        -2 => "0.25".to_owned(),
        -1 => "0.5".to_owned(),
        n => (1u32 << n.clamp(0, SPEED_LOG2_MAX)).to_string(),
    }
}

/// Rewrites the page's address with `change` to its parameters, in place (no history entry);
/// left alone while a lesson is in the address: the lesson writes its own (`story::tour`).
pub(super) fn rewrite_address(change: impl FnOnce(&web_sys::UrlSearchParams)) {
    let Some(window) = crate::ui::window() else { return };
    let location = window.location();
    let search = location.search().unwrap_or_default();
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else { return };
    if params.has("lesson") {
        return;
    }
    let before = String::from(params.to_string());
    change(&params);
    let query = String::from(params.to_string());
    if query == before {
        return;
    }
    let path = location.pathname().unwrap_or_default();
    let url = if query.is_empty() { path } else { format!("{path}?{query}") };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

chunk_fn! {
    in later_parts;
    /// The share link's address (`scenario::link` gives the format). Loaded on first use in the
    /// split build.
    fn share_link(run: RunLink) -> Option<String> = write_share_link;
}

fn write_share_link(run: RunLink) -> Option<String> {
    let actions = crate::scenario::link::encode(&run.interventions)?;
    // Written with the browser's `URLSearchParams`, as `ui::url` reads it: every value encoded
    // the one way the reader decodes it.
    let params = web_sys::UrlSearchParams::new().ok()?;
    params.append("v", &crate::scenario::link::LINK_VERSION.to_string());
    match &run.source {
        Some(json) => params.append("s", &crate::scenario::export::to_link(json).ok()?),
        None => params.append("scenario", &run.id),
    }
    let speed = speed_code(run.speed_log2);
    let [fable, lang, view, theme] = run.settings;
    params.append("fable", fable);
    params.append("lang", lang);
    params.append("view", view);
    params.append("speed", &speed);
    params.append("t", &run.now_ms.to_string());
    if theme != Theme::Auto.code() {
        params.append("theme", theme);
    }
    if run.true_time {
        params.append("pacing", "true");
    }
    if !actions.is_empty() {
        params.append("do", &actions);
    }
    Some(format!("{}?{}", run.base, String::from(params.to_string())))
}
