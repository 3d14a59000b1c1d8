//! The search worker (issue 30): the engine in a Web Worker answers a search and a sweep exactly
//! as the native engine does, reports progress while it works, stops when told, and its answer
//! opens in the player as a share link that replays to the answer's trace hash.

use anyhow::{ensure, Context, Result};
use leaselab::engine::search::{Goal, Outcome, Searcher, Space};
use leaselab::engine::sweep::{sweep, Knob, SweepSpec};
use leaselab::scenario::search::{Answer, SweepAnswer};
use leaselab::scenario::{self, library};
use leaselab_browser_tests::{start_search_worker, with_browser, Browser};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const SECS: fn(u64) -> Duration = Duration::from_secs;

fn builtin_json(id: &str) -> &'static str {
    library::FILES.iter().find(|(i, _)| *i == id).map(|(_, j)| *j).expect("a built-in")
}

async fn post(b: &Browser, request: &Value) -> Result<()> {
    b.eval("window.__searchWorker.postMessage(arguments[0]); return true;", vec![json!(request.to_string())]).await?;
    Ok(())
}

/// Every message so far, parsed.
async fn messages(b: &Browser) -> Result<Vec<Value>> {
    let all = b.eval("return window.__searchMessages;", vec![]).await?;
    let texts = all.as_array().context("a list")?;
    texts.iter().map(|t| Ok(serde_json::from_str(t.as_str().context("a text")?)?)).collect()
}

/// Waits for the first message of type `kind` and returns it (a worker error fails at once).
async fn wait_message(b: &Browser, kind: &str, limit: Duration) -> Result<Value> {
    let start = Instant::now();
    loop {
        let all = messages(b).await?;
        if let Some(e) = all.iter().find(|m| m["type"] == "worker_error" || m["type"] == "error") {
            anyhow::bail!("the worker failed: {e}");
        }
        if let Some(m) = all.into_iter().find(|m| m["type"] == kind) {
            return Ok(m);
        }
        ensure!(start.elapsed() < limit, "waited {limit:?} for a `{kind}` message from the worker");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A counterexample on `harbor-no-fencing` with its script set aside: the worker's answer is the
/// native engine's, of minimal length (none with one intervention fewer), and its link replays
/// in the player to the same trace hash.
#[tokio::test]
async fn the_worker_finds_the_shortest_stale_write_and_it_replays() -> Result<()> {
    let source = builtin_json("harbor-no-fencing");
    let s = scenario::parse(source)?;
    let space = Space { scripted: false, max_interventions: 2, ..Space::default() };
    let goals = [Goal::StaleWriteAccepted];
    let native = Answer::new(&s.id, &goals, &space, Searcher::new(s.config.clone(), &goals, &space)?.finish());
    let Outcome::Found { found, .. } = &native.outcome else { anyhow::bail!("the engine finds one: {native:?}") };
    let fewer = Space { max_interventions: found.depth - 1, ..space.clone() };
    ensure!(
        matches!(Searcher::new(s.config.clone(), &goals, &fewer)?.finish(), Outcome::NoneWithinBounds { .. }),
        "one intervention fewer finds nothing: the answer is of minimal length"
    );
    with_browser("search-worker", SECS(180), async |b| {
        b.open("?scenario=harbor-no-fencing").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        start_search_worker(b).await?;
        let request = json!({
            "leaselab": 1, "type": "search", "scenario": serde_json::from_str::<Value>(source)?,
            "goals": ["stale_write_accepted"], "space": { "scripted": false, "max_interventions": 2 },
        });
        post(b, &request).await?;
        let answer = wait_message(b, "answer", SECS(60)).await?;
        ensure!(
            answer["answer"] == serde_json::to_value(&native)?,
            "the worker's answer {} is the engine's {}",
            answer["answer"],
            serde_json::to_value(&native)?
        );

        // The answer's link, opened in the player at the run's end, replays to its trace hash.
        let link = native.link.as_deref().context("a link")?;
        b.open(&format!("?scenario=harbor-no-fencing&v=1&do={link}&t={}", s.config.until_ms)).await?;
        b.wait_for("sim-time", |el| el.attr("data-hash") == Some(found.trace_hash.as_str()), SECS(30))
            .await
            .context("the player replays the answer to its trace hash")?;
        b.assert_no_console_errors().await?;
        Ok(())
    })
    .await
}

/// A search that cannot end soon reports progress while it works, stops when told (and then
/// says nothing more), and a sweep answers what the native sweep gives.
#[tokio::test]
async fn the_worker_reports_progress_stops_when_told_and_sweeps() -> Result<()> {
    let zombie = builtin_json("harbor-zombie");
    with_browser("search-stop", SECS(180), async |b| {
        b.open("?scenario=harbor-zombie").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        start_search_worker(b).await?;
        // Never met on the harbor (it has no lock to delete), so the whole space would be walked.
        let request = json!({
            "leaselab": 1, "type": "search", "scenario": serde_json::from_str::<Value>(zombie)?,
            "goals": ["lock_deleted_by_non_owner"], "space": { "scripted": false, "max_interventions": 4 },
        });
        post(b, &request).await?;
        let first = wait_message(b, "progress", SECS(30)).await?;
        ensure!(first["progress"]["states"].as_u64().is_some_and(|n| n > 0), "{first}");
        tokio::time::sleep(Duration::from_millis(800)).await;
        let progress: Vec<Value> = messages(b).await?.into_iter().filter(|m| m["type"] == "progress").collect();
        ensure!(progress.len() >= 2, "progress comes while it works: {progress:?}");
        let asked = Instant::now();
        post(b, &json!({ "leaselab": 1, "type": "stop" })).await?;
        wait_message(b, "stopped", SECS(5)).await?;
        eprintln!("stopped within {:?} of asking (WebDriver's round trips included)", asked.elapsed());
        let count = messages(b).await?.len();
        tokio::time::sleep(Duration::from_millis(600)).await;
        ensure!(messages(b).await?.len() == count, "nothing more after the stop");

        // A sweep: the same points as the native sweep.
        let s = scenario::parse(zombie)?;
        let spec = SweepSpec { knob: Knob::PauseMs, from: 1_000, to: 40_000, points: 4, seeds: 5 };
        let native = SweepAnswer::new(&s.id, s.config.seed, spec, sweep(&s.config, &spec, |_| {})?);
        post(
            b,
            &json!({ "leaselab": 1, "type": "sweep", "scenario": serde_json::from_str::<Value>(zombie)?,
                     "knob": "pause_ms", "from": 1000, "to": 40000, "points": 4, "seeds": 5 }),
        )
        .await?;
        let swept = wait_message(b, "swept", SECS(60)).await?;
        ensure!(swept["answer"] == serde_json::to_value(&native)?, "the worker's sweep is the engine's");
        let points: Vec<Value> = messages(b).await?.into_iter().filter(|m| m["type"] == "points").collect();
        ensure!(points.len() == 3, "a message per point before the last: {}", points.len());

        // A bad request is answered with what is wrong, and the worker goes on working.
        post(b, &json!({ "leaselab": 1, "type": "search", "goals": ["nonsense"], "scenario": {} })).await?;
        let start = Instant::now();
        let error = loop {
            let all = messages(b).await?;
            if let Some(e) = all.into_iter().find(|m| m["type"] == "error") {
                break e;
            }
            ensure!(start.elapsed() < SECS(10), "an error message");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        ensure!(error["message"].as_str().is_some_and(|m| m.contains("goals[0]")), "{error}");
        b.assert_no_console_errors().await?;
        Ok(())
    })
    .await
}

/// The Ask tab, as a learner uses it: a question, a search, and the shortest run found opened
/// in the player at its moment; the page's share link then carries the answer's interventions.
#[tokio::test]
async fn the_ask_tab_finds_a_run_and_opens_it_in_the_player() -> Result<()> {
    let s = scenario::parse(builtin_json("harbor-no-fencing"))?;
    let space = Space { scripted: false, max_interventions: 2, ..Space::default() };
    let goals = [Goal::StaleWriteAccepted];
    let native = Answer::new(&s.id, &goals, &space, Searcher::new(s.config.clone(), &goals, &space)?.finish());
    let Outcome::Found { found, .. } = &native.outcome else { anyhow::bail!("the engine finds one") };
    with_browser("ask-tab", SECS(180), async |b| {
        b.open("?scenario=harbor-no-fencing").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        b.click("tab-ask").await?;
        b.wait_exists("ask-goal", SECS(30)).await?;
        b.eval(
            "const g = document.querySelector('[data-testid=\"ask-goal\"]'); g.value = 'stale_write_accepted'; \
             g.dispatchEvent(new Event('change', { bubbles: true })); \
             const d = document.querySelector('[data-testid=\"ask-depth\"]'); d.value = '2'; \
             d.dispatchEvent(new Event('change', { bubbles: true })); return true;",
            vec![],
        )
        .await?;
        b.click("ask-script").await?;
        b.click("ask-search").await?;
        b.wait_exists("ask-open", SECS(60)).await.context("the search finds a run")?;
        let status = b.text_of("ask-status").await?;
        let at = format!("{:.1}", found.at_ms as f64 / 1000.0);
        ensure!(found.depth == 1 && status.contains("one intervention") && status.contains(&at), "{status}");
        // The run in words: one line per intervention (the script set aside is not one).
        let steps = b.count("[data-testid=\"ask-steps\"] li").await?;
        let chosen: Vec<_> = found
            .interventions
            .iter()
            .filter(|i| !matches!(i.command, leaselab::engine::Command::DropScript { .. }))
            .collect();
        ensure!(steps == chosen.len(), "{steps} lines for {chosen:?}");
        let first =
            b.eval("return document.querySelector('[data-testid=\"ask-steps\"] li').textContent;", vec![]).await?;
        let first = first.as_str().unwrap_or_default().to_owned();
        let when = format!("{:.1}", chosen[0].at_ms as f64 / 1000.0);
        ensure!(first.starts_with(&format!("At {when} s: ")), "{first}");
        let serious = b.axe_serious("the Ask tab with an answer").await?;
        ensure!(serious.is_empty(), "axe-core on the Ask tab:\n{}", serious.join("\n"));
        b.click("ask-open").await?;
        b.wait_for("sim-time", |el| el.attr("data-ms") == Some(found.at_ms.to_string().as_str()), SECS(30))
            .await
            .context("the player is at the moment the goal was met")?;
        b.click("share").await?;
        b.wait_for("share-link", |e| e.value.as_deref().is_some_and(|v| !v.is_empty()), SECS(10)).await?;
        let link = b.eval("return document.querySelector('[data-testid=\"share-link\"]').value;", vec![]).await?;
        let link = url::Url::parse(link.as_str().context("a link")?)?;
        let carried = link.query_pairs().find(|(k, _)| k == "do").map(|(_, v)| v.into_owned());
        ensure!(
            carried.as_deref() == native.link.as_deref(),
            "the share link carries {carried:?}, the answer {:?}",
            native.link
        );
        // Another scenario: the answer was this one's, and goes with it.
        b.choose_scenario("lock-late-del").await?;
        b.wait_until_js(
            "the answer gone with its scenario",
            "const s = document.querySelector('[data-testid=\"ask-status\"]'); \
             return !!s && s.textContent === '' && !document.querySelector('[data-testid=\"ask-open\"]');",
            SECS(10),
        )
        .await?;
        b.assert_no_console_errors().await?;
        Ok(())
    })
    .await
}
