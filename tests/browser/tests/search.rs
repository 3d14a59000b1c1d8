//! The search worker (issue 30): the engine in a Web Worker answers a search and a sweep exactly
//! as the native engine does, reports progress while it works, stops when told, and its answer
//! opens in the player as a share link that replays to the answer's trace hash.

use anyhow::{ensure, Context, Result};
use leaselab::engine::search::{Goal, Lever, Outcome, Searcher, Space};
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

/// The first line of the Ask tab's run in words.
async fn first_step(b: &Browser) -> Result<String> {
    let first = b.eval("return document.querySelector('[data-testid=\"ask-steps\"] li').textContent;", vec![]).await?;
    Ok(first.as_str().unwrap_or_default().to_owned())
}

/// Opens the Ask tab's answer in the player, waits for it to stand at `at_ms`, and returns the
/// interventions (`do=`) the page's share link then carries.
async fn open_and_share(b: &Browser, at_ms: u64) -> Result<Option<String>> {
    b.click("ask-open").await?;
    b.wait_for("sim-time", |el| el.attr("data-ms") == Some(at_ms.to_string().as_str()), SECS(30))
        .await
        .context("the player is at the moment the goal was met")?;
    b.click("share").await?;
    b.wait_for("share-link", |e| e.value.as_deref().is_some_and(|v| !v.is_empty()), SECS(10)).await?;
    let link = b.eval("return document.querySelector('[data-testid=\"share-link\"]').value;", vec![]).await?;
    let link = url::Url::parse(link.as_str().context("a link")?)?;
    Ok(link.query_pairs().find(|(k, _)| k == "do").map(|(_, v)| v.into_owned()))
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
        // The run in words: one line per choice (the script set aside is not one).
        let steps = b.count("[data-testid=\"ask-steps\"] li").await?;
        let chosen: Vec<_> = found
            .interventions
            .iter()
            .filter(|i| !matches!(i.command, leaselab::engine::Command::DropScript { .. }))
            .collect();
        ensure!(steps == chosen.len(), "{steps} lines for {chosen:?}");
        let first = first_step(b).await?;
        let when = format!("{:.1}", chosen[0].at_ms as f64 / 1000.0);
        ensure!(first.starts_with(&format!("At {when} s: ")), "{first}");
        let serious = b.axe_serious("the Ask tab with an answer").await?;
        ensure!(serious.is_empty(), "axe-core on the Ask tab:\n{}", serious.join("\n"));
        let carried = open_and_share(b, found.at_ms).await?;
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

/// The Ask tab's bounds and extra goals: a learner folds out "What may go wrong", keeps only a
/// copied message, and also asks for a duplicated write beside the question chosen above. The
/// page finds what `leaselab search --property two_holders,duplicate_side_effect --copy-message`
/// finds, says it in words, and its share link carries the copied message.
#[tokio::test]
async fn the_ask_tab_searches_the_faults_and_goals_ticked() -> Result<()> {
    let s = scenario::parse(builtin_json("harbor-zombie"))?;
    let mut space = Space { scripted: false, max_interventions: 1, ..Space::default() };
    for lever in Lever::ALL {
        space.allow(lever, lever == Lever::CopyMessage);
    }
    let goals = [Goal::TwoHolders, Goal::DuplicateSideEffect];
    let native = Answer::new(&s.id, &goals, &space, Searcher::new(s.config.clone(), &goals, &space)?.finish());
    let Outcome::Found { found, .. } = &native.outcome else { anyhow::bail!("the engine finds one") };
    ensure!(found.goal == Goal::DuplicateSideEffect && found.depth == 1, "{found:?}");
    with_browser("ask-levers", SECS(180), async |b| {
        b.open("?scenario=harbor-zombie").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        b.click("tab-ask").await?;
        b.wait_exists("ask-goal", SECS(30)).await?;
        b.eval(
            "const g = document.querySelector('[data-testid=\"ask-goal\"]'); g.value = 'two_holders'; \
             g.dispatchEvent(new Event('change', { bubbles: true })); return true;",
            vec![],
        )
        .await?;
        b.click("ask-script").await?;
        b.eval("document.querySelector('[data-testid=\"ask-more\"] summary').click(); return true;", vec![]).await?;
        for lever in Lever::ALL {
            let testid = format!("lever-{}", lever.code());
            let checked = b
                .eval(&format!("return document.querySelector('[data-testid=\"{testid}\"]').checked;"), vec![])
                .await?;
            ensure!(checked.as_bool() == Some(lever.default_on()), "{testid} starts as the default space has it");
            if checked.as_bool() != Some(lever == Lever::CopyMessage) {
                b.click(&testid).await?;
            }
        }
        ensure!(b.count("[data-testid=\"also-two_holders\"]").await? == 0, "the goal above is not offered again");
        // With nothing allowed to go wrong, Search says what to tick, and searches nothing.
        b.click("lever-copy_message").await?;
        b.click("ask-search").await?;
        let said = b.text_of("ask-status").await?;
        ensure!(said.contains("Nothing may go wrong"), "no lever ticked: {said}");
        ensure!(b.text_of("ask-progress").await?.is_empty(), "nothing searched");
        b.click("lever-copy_message").await?;
        b.click("also-duplicate_side_effect").await?;
        b.click("ask-search").await?;
        b.wait_exists("ask-open", SECS(60)).await.context("the search finds a run")?;
        let status = b.text_of("ask-status").await?;
        ensure!(status.contains("one intervention"), "{status}");
        // Two goals asked: the answer says which one the run met (the native search's).
        ensure!(
            found.goal == Goal::DuplicateSideEffect && status.contains("What happens: A side effect applied twice"),
            "{status}"
        );
        let first = first_step(b).await?;
        ensure!(first.contains("Old Chen") && first.contains("arrives twice"), "{first}");
        let serious = b.axe_serious("the Ask tab's bounds, unfolded").await?;
        ensure!(serious.is_empty(), "axe-core on the Ask tab:\n{}", serious.join("\n"));
        let carried = open_and_share(b, found.at_ms).await?;
        ensure!(
            carried.as_deref() == native.link.as_deref(),
            "the link carries {carried:?}, the answer {:?}",
            native.link
        );
        ensure!(carried.as_deref().is_some_and(|c| c.contains(".m.chen.write.copy")), "{carried:?}");
        // The answer's intervention is marked on the time bar, said as the Ask tab says it.
        let mark = b
            .eval(
                "const m = document.querySelector('[data-testid=\"intervention-mark\"][data-ms=\"0\"]'); \
                 return m ? m.title : null;",
                vec![],
            )
            .await?;
        ensure!(mark.as_str().is_some_and(|t| t.contains("arrives twice")), "the time bar's mark: {mark}");
        // And on the space-time diagram, a peg on Old Chen's lane.
        b.wait_exists("diagram-intervention-mark", SECS(20)).await.context("the diagram's peg")?;
        ensure!(b.attr_of("diagram-intervention-mark", "data-ms").await?.as_deref() == Some("0"), "at 0 s");
        // The script was set aside at 0 s: Old Chen's nap (20 s) and waking (60 s) stay marked as
        // dropped once the playhead has passed them.
        b.eval(
            "const r = document.querySelector('[data-testid=\"scrubber\"]'); r.value = r.max; \
             r.dispatchEvent(new Event('input', { bubbles: true })); return true;",
            vec![],
        )
        .await?;
        b.wait_until_js(
            "the script's marks, dropped, at the end of the run",
            "const m = [...document.querySelectorAll('[data-testid=\"script-mark\"]')]; \
             return m.length === 2 && m.every(e => e.dataset.dropped === 'true') \
               && document.querySelector('[data-testid=\"sim-time\"]')?.dataset.ms === '90000';",
            SECS(20),
        )
        .await?;
        b.assert_no_console_errors().await?;
        Ok(())
    })
    .await
}

/// The trace hash so far of the run a lesson's witness found, at the moment found, as the page's
/// player has it: its interventions on the engine's timeline (a cut's heal after the moment is
/// not reached yet), then a seek there.
fn replay_hash(id: &str, w: &leaselab::scenario::lesson::WitnessFound) -> Result<String> {
    let l = library::lessons::get(id).context("built-in")??;
    let plan = leaselab::scenario::lesson::plan(&l, library::get)?;
    let scenario = library::get(&plan[w.step].start.scenario).context("built-in")??;
    let mut timeline = leaselab::engine::timeline::Timeline::new(scenario.config)?;
    for i in &w.found.interventions {
        timeline.intervene(i.at_ms, i.command.clone())?;
    }
    Ok(timeline.seek(w.found.at_ms).trace_hash())
}

/// Every lesson's witness buttons (issue 30): at its step, the button has the worker search the
/// step's scenario, and the player opens the run the native engine finds for the same question
/// (`lesson::find_witnesses`, which `leaselab lesson` runs), at its moment: the same run so far
/// as the native replay of its interventions (`tests/lessons.rs` checks that the replay holds
/// the witnessed event). The answer is said under the button, intervention by
/// intervention.
#[tokio::test]
async fn every_lessons_witness_button_opens_the_shortest_run() -> Result<()> {
    use leaselab::scenario::lesson;
    let mut asked = Vec::new();
    for entry in library::lessons::MENU {
        let l = library::lessons::get(entry.id).context("listed")??;
        let plan = lesson::plan(&l, library::get)?;
        for w in lesson::find_witnesses(&l, &plan, library::get)? {
            asked.push((entry.id, w));
        }
    }
    ensure!(asked.len() >= library::lessons::MENU.len(), "every lesson asks one: {}", asked.len());
    with_browser("witness", SECS(300), async |b| {
        let mut beside_found = 0;
        for (k, (id, w)) in asked.iter().enumerate() {
            // The first in Chinese: the words under the button are the tables' too.
            let lang = if k == 0 { "zh" } else { "en" };
            b.open(&format!("?lesson={id}&step={}&lang={lang}", w.step + 1)).await?;
            let l = library::lessons::get(id).context("built-in")??;
            if let Some(ask) = &l.steps[w.step].ask {
                // A question's witness comes with its reveal (its words would give it away).
                b.wait_exists("ask", SECS(30)).await?;
                ensure!(b.count("[data-testid=\"witness-ask\"]").await? == 0, "{id}: the witness before the answer");
                b.click(&format!("choice-{}", ask.choices[ask.answer].id)).await?;
                b.at_step(w.step + 1, "reached", SECS(90)).await?;
            }
            b.wait_exists("witness-ask", SECS(30)).await.with_context(|| format!("{id}: the button"))?;
            b.click("witness-ask").await?;
            // The player stands at the moment found: the run so far is the native replay's.
            let hash = replay_hash(id, w)?;
            b.wait_for("sim-time", |el| el.attr("data-hash") == Some(hash.as_str()), SECS(60))
                .await
                .with_context(|| format!("{id} step {}: the run found opens", w.step + 1))?;
            let at = b.wait_exists("sim-time", SECS(5)).await?;
            ensure!(
                at.attr("data-ms") == Some(w.found.at_ms.to_string().as_str()),
                "{id}: at {:?}",
                at.attr("data-ms")
            );
            // Off the lesson's path, the lesson says it waits beside the run its own question
            // found, not that the learner changed the run.
            if let Ok(off) = b.wait_exists("lesson-off-path", SECS(5)).await {
                let says = if k == 0 {
                    "这是引擎为这一步的问题找到的运行"
                } else {
                    "the run the engine found for this step's question"
                };
                ensure!(off.text.contains(says), "{id}: {}", off.text);
                beside_found += 1;
            }
            let status = b.text_of("witness-status").await?;
            let seconds = format!("{:.1}", w.found.at_ms as f64 / 1000.0);
            ensure!(status.contains(&seconds), "{id}: {status}");
            let lines = b.count("[data-testid=\"witness-steps\"] li").await?;
            ensure!(lines == w.found.depth, "{id}: {lines} lines for {} interventions", w.found.depth);
            if w.step > 0 && l.steps[w.step].ask.is_none() {
                // Back and Next: the lesson's own run again, and the answer of the run left goes.
                let at = |n: usize| {
                    move |el: &leaselab_browser_tests::ElementState| {
                        el.attr("data-step") == Some(n.to_string().as_str())
                    }
                };
                b.click("lesson-back").await?;
                b.wait_for("lesson-step", at(w.step), SECS(30)).await?;
                b.click("lesson-next").await?;
                b.wait_for("lesson-step", at(w.step + 1), SECS(30)).await?;
                b.wait_for("witness-status", |el| el.text.trim().is_empty(), SECS(10))
                    .await
                    .with_context(|| format!("{id}: the answer of a run the lesson has left"))?;
            }
            if k == 0 {
                ensure!(status.contains("秒"), "the status in Chinese: {status}");
                let serious = b.axe_serious("a lesson step with its witness found").await?;
                ensure!(serious.is_empty(), "axe-core:\n{}", serious.join("\n"));
            }
        }
        ensure!(beside_found > 0, "a lesson waited beside a run its witness found");
        b.assert_no_console_errors().await?;
        Ok(())
    })
    .await
}

/// Numbers in the prose (issue 30): at the harbor lesson's last step, typing a bound number and
/// dragging another changes the sentence's outcome numbers to the report `leaselab run --set`
/// gives for those settings (`live::report`, the same run; `tests/live.rs` compares the two).
#[tokio::test]
async fn a_live_number_typed_or_dragged_gives_the_engines_outcome() -> Result<()> {
    use leaselab::scenario::lesson;
    use leaselab::scenario::live::{self, Figure};
    let l = library::lessons::get("harbor-replaced").context("built-in")??;
    let i = l.steps.iter().position(|s| !s.live.is_empty()).context("a live step")?;
    let bounds = l.steps[i].live.clone();
    let plan = lesson::plan(&l, library::get)?;
    let s = scenario::parse(builtin_json(&plan[i].start.scenario))?;
    let outcome = |values: &[u64]| -> Result<(String, String)> {
        let report = live::report(&s, &bounds, values)?;
        Ok((Figure::StaleWrites.of(&report), Figure::LeaderlessS.of(&report)))
    };
    let shown = async |b: &Browser| -> Result<(String, String)> {
        let v = b
            .eval(
                "const f = k => document.querySelector(`[data-testid=\"live\"] output[data-figure=\"${k}\"]`).textContent; \
                 return [f('stale_writes'), f('leaderless_s')];",
                vec![],
            )
            .await?;
        Ok((v[0].as_str().unwrap_or_default().to_owned(), v[1].as_str().unwrap_or_default().to_owned()))
    };
    with_browser("live-numbers", SECS(120), async |b| {
        b.open(&format!("?lesson=harbor-replaced&step={}", i + 1)).await?;
        b.wait_exists("live-pause", SECS(30)).await?;
        let own: Vec<u64> = bounds.iter().map(|b| b.value).collect();
        let first = outcome(&own)?;
        ensure!(first.0 == "1", "the harbor as told: one stale flag obeyed, {first:?}");
        ensure!(shown(b).await? == first, "at the scenario's own settings: {:?} vs {first:?}", shown(b).await?);
        // Typed: a nap of 5 s, within the 15 s hourglass.
        b.eval(
            "const i = document.querySelector('[data-testid=\"live-pause\"]'); i.focus(); i.select(); return true;",
            vec![],
        )
        .await?;
        b.press("live-pause", "5\u{E007}").await?;
        let typed = outcome(&[own[0], 5_000])?;
        ensure!(typed.0 == "0", "a nap within the hourglass lets nothing stale through: {typed:?}");
        b.wait_until_js(
            "the sentence after typing",
            &format!(
                "return document.querySelector('[data-testid=\"live\"] output[data-figure=\"leaderless_s\"]').textContent === '{}';",
                typed.1
            ),
            SECS(10),
        )
        .await?;
        ensure!(shown(b).await? == typed, "typed 5: {:?} vs {typed:?}", shown(b).await?);
        // Dragged: the hourglass's slider, with the mouse, to the right.
        b.drag("live-slider-lease", 40.0).await?;
        let value = b.eval("return document.querySelector('[data-testid=\"live-lease\"]').value;", vec![]).await?;
        let lease_s: u64 = value.as_str().unwrap_or_default().parse().context("a whole number of seconds")?;
        ensure!(lease_s > 15, "the drag raised the hourglass: {value}");
        let dragged = outcome(&[lease_s * 1000, 5_000])?;
        b.wait_until_js(
            "the sentence after dragging",
            &format!(
                "return document.querySelector('[data-testid=\"live\"] output[data-figure=\"leaderless_s\"]').textContent === '{}';",
                dragged.1
            ),
            SECS(10),
        )
        .await?;
        ensure!(shown(b).await? == dragged, "dragged to {lease_s}: {:?} vs {dragged:?}", shown(b).await?);
        // In Chinese the same numbers stand in the Chinese sentence.
        b.open(&format!("?lesson=harbor-replaced&step={}&lang=zh", i + 1)).await?;
        b.wait_exists("live-pause", SECS(30)).await?;
        let text = b.text_of("live").await?;
        ensure!(text.contains("渔船听从的过期旗语") && shown(b).await? == first, "{text}");
        let serious = b.axe_serious("a lesson step with live numbers").await?;
        ensure!(serious.is_empty(), "axe-core:\n{}", serious.join("\n"));
        b.assert_no_console_errors().await?;
        Ok(())
    })
    .await
}

/// A sweep's range is read as the page shows it and said wrong in the learner's words: a clock
/// rate as a multiple of true speed, a number below 0 or no number refused with the field marked,
/// and an end the engine refuses answered with the nearest setting it takes (a clock at most 10
/// times true speed, a lease of at most 24 h: the engine's rules), before anything is swept.
#[tokio::test]
async fn a_sweeps_range_is_said_wrong_in_the_learners_words() -> Result<()> {
    async fn set(b: &Browser, testid: &str, value: &str) -> Result<()> {
        b.eval(
            &format!(
                "const e = document.querySelector('[data-testid=\"{testid}\"]'); e.value = {value:?}; \
                 e.dispatchEvent(new Event('change', {{ bubbles: true }})); return true;"
            ),
            vec![],
        )
        .await?;
        Ok(())
    }
    with_browser("sweep-range", SECS(120), async |b| {
        b.open("?scenario=harbor-zombie").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        b.click("tab-ask").await?;
        b.wait_exists("sweep-knob", SECS(30)).await?;
        set(b, "sweep-knob", "clock_rate_ppm").await?;
        b.wait_for("sweep-from", |el| el.value.as_deref() == Some("0.5"), SECS(10)).await.context("half speed")?;
        ensure!(b.element("sweep-to").await?.and_then(|e| e.value).as_deref() == Some("1.5"), "1.5 times true speed");
        set(b, "sweep-from", "-5").await?;
        b.wait_for("sweep-status", |el| el.text.contains("“From” takes a number of 0 or more"), SECS(10)).await?;
        ensure!(b.attr_of("sweep-from", "aria-invalid").await?.as_deref() == Some("true"), "the field is marked");
        ensure!(b.element("sweep-from").await?.and_then(|e| e.value).as_deref() == Some("0.5"), "the setting it had");
        // Sweep pressed straight after (the field left by the click): the refusal stays, nothing
        // is swept.
        b.click("sweep-run").await?;
        b.frames(3).await?;
        let said = b.text_of("sweep-status").await?;
        ensure!(said.contains("takes a number of 0 or more"), "the refusal stays: {said}");
        ensure!(b.count("[data-testid=\"sweep-stop\"]").await? == 0, "nothing swept");
        set(b, "sweep-to", "").await?;
        b.wait_for("sweep-status", |el| el.text.contains("“To” takes a number"), SECS(10)).await?;
        set(b, "sweep-from", "0.5").await?;
        set(b, "sweep-to", "50").await?;
        b.click("sweep-run").await?;
        b.wait_for("sweep-status", |el| el.text.contains("the nearest setting it takes is 10."), SECS(10)).await?;
        ensure!(b.attr_of("sweep-from", "aria-invalid").await?.is_none(), "From is read again");
        set(b, "sweep-knob", "lease_duration_ms").await?;
        set(b, "sweep-to", "100000").await?;
        b.click("sweep-run").await?;
        b.wait_for("sweep-status", |el| el.text.contains("the nearest setting it takes is 86400."), SECS(10)).await?;
        ensure!(b.count("[data-testid=\"sweep-plot\"] [data-point]").await? == 0, "nothing swept");
        b.assert_no_console_errors().await?;
        Ok(())
    })
    .await
}

/// A sweep in the Ask tab (issue 30): 20 settings × 50 seeds of the harbor's nap, computed in
/// the worker, plotted with a button per point; pressing the longest nap's point on the curve
/// without fencing opens a seeded run of its class (the first that broke safety), at its
/// violation, and the share link of that run replays it.
#[tokio::test]
async fn a_sweeps_point_opens_a_run_of_its_class() -> Result<()> {
    let s = scenario::parse(builtin_json("harbor-no-fencing"))?;
    let spec = SweepSpec { knob: Knob::PauseMs, from: 1_000, to: 40_000, points: 20, seeds: 50 };
    let native = sweep(&s.config, &spec, |_| {})?;
    let last = native.last().context("points")?;
    ensure!(last.violating_unfenced == 50, "seed 000: a 40 s nap breaks every unfenced run: {last:?}");
    let example = last.examples[1].context("a violating run")?;
    let mut config = Knob::PauseMs.apply(&s.config, last.value)?;
    config.seed = example.seed;
    config.resource.fencing = example.fencing;
    let mut sim = leaselab::engine::Sim::new(config.clone())?;
    sim.run_to_end();
    let at = sim
        .trace()
        .iter()
        .find(|e| matches!(e.event, leaselab::engine::TraceEvent::ViolationFound { .. }))
        .map(|e| e.at_ms)
        .context("it broke safety")?;
    // The player stands at the violation: its hash is the run's so far.
    let mut sim = leaselab::engine::Sim::new(config)?;
    sim.advance_to(at);
    let hash = sim.trace_hash();
    with_browser("sweep-plot", SECS(400), async |b| {
        b.open("?scenario=harbor-no-fencing").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        b.click("tab-ask").await?;
        b.wait_exists("sweep-knob", SECS(30)).await?;
        b.eval(
            "const k = document.querySelector('[data-testid=\"sweep-knob\"]'); k.value = 'pause_ms'; \
             k.dispatchEvent(new Event('change', { bubbles: true })); return true;",
            vec![],
        )
        .await?;
        b.wait_for("sweep-to", |el| el.value.as_deref() == Some("40"), SECS(10)).await.context("the nap's range")?;
        b.click("sweep-run").await?;
        b.wait_for("sweep-status", |el| el.text.contains("Swept 20 settings × 50 seeds"), SECS(300))
            .await
            .context("the sweep ends")?;
        ensure!(b.count("[data-testid=\"sweep-plot\"] [data-point]").await? == 80, "four curves of 20 points");
        let said = b
            .eval(
                "return document.querySelector('[data-testid=\"sweep-plot\"] .pt.s-unfenced[data-point=\"19\"]').getAttribute('aria-label');",
                vec![],
            )
            .await?;
        ensure!(said.as_str().is_some_and(|t| t.contains("50 of 50 runs without fencing")), "{said}");
        let serious = b.axe_serious("the Ask tab with a sweep's plot").await?;
        ensure!(serious.is_empty(), "axe-core on the plot:\n{}", serious.join("\n"));
        // The point pressed from the keyboard: focus on it, Enter.
        b.eval(
            "document.querySelector('[data-testid=\"sweep-plot\"] .pt.s-unfenced[data-point=\"19\"]').focus(); return true;",
            vec![],
        )
        .await?;
        b.keys(&['\u{E007}']).await?;
        b.wait_for("sim-time", |el| el.attr("data-hash") == Some(hash.as_str()), SECS(30))
            .await
            .context("the run of the point's class opens")?;
        let time = b.wait_exists("sim-time", SECS(5)).await?;
        ensure!(time.attr("data-ms") == Some(at.to_string().as_str()), "at the violation: {:?} vs {at}", time.attr("data-ms"));
        // Its share link carries the scenario with its knob, seed and fencing, and replays it.
        b.click("share").await?;
        b.wait_for("share-link", |e| e.value.as_deref().is_some_and(|v| !v.is_empty()), SECS(10)).await?;
        let link = b.eval("return document.querySelector('[data-testid=\"share-link\"]').value;", vec![]).await?;
        let link = url::Url::parse(link.as_str().context("a link")?)?;
        ensure!(link.query_pairs().any(|(k, _)| k == "s"), "the scenario is in the link: {link}");
        b.open(&format!("?{}", link.query().unwrap_or_default())).await?;
        b.wait_for("sim-time", |el| el.attr("data-hash") == Some(hash.as_str()), SECS(30))
            .await
            .context("the link replays the run")?;
        b.assert_no_console_errors().await?;
        Ok(())
    })
    .await
}
