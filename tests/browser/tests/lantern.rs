//! The lantern of Nantang in the browser: its scenarios play to their end, the right scene is
//! drawn for each fable, the fable picker retells the same run without restarting it, and every
//! built-in plays in the lantern fable. Each test fails on any console error or Rust panic.

use anyhow::{ensure, Context, Result};
use leaselab_browser_tests::{screenshot_dir, with_browser, Browser, ElementState};
use std::time::Duration;

const SECS: fn(u64) -> Duration = Duration::from_secs;

/// The virtual time shown by `[data-testid=sim-time]` (its `data-ms`).
fn sim_ms(el: &ElementState) -> Option<u64> {
    el.attr("data-ms").and_then(|ms| ms.trim().parse().ok())
}

/// `until_ms` of the built-in scenario `id`, read from its file.
fn until_ms(id: &str) -> Result<u64> {
    let path = leaselab_browser_tests::workspace_root().join(format!("assets/scenarios/{id}.json"));
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path)?)?;
    json["until_ms"].as_u64().with_context(|| format!("{id} sets until_ms"))
}

/// Waits until the run has reached `until` ms of virtual time.
async fn wait_for_end(b: &Browser, until: u64, what: &str) -> Result<()> {
    b.wait_for("sim-time", |el| sim_ms(el).is_some_and(|ms| ms >= until), SECS(40))
        .await
        .with_context(|| format!("{what} did not reach {until} ms"))?;
    Ok(())
}

/// Chooses `value` in the `<select data-testid=…>`, as a user would.
async fn choose(b: &Browser, testid: &str, value: &str) -> Result<()> {
    // The pickers sit in the "Scenario & tools" menu: opened first, as a user would.
    b.reveal(testid).await?;
    b.client()
        .find(fantoccini::Locator::Css(&leaselab_browser_tests::testid_selector(testid)))
        .await?
        .select_by_value(value)
        .await
        .with_context(|| format!("{testid} offers {value}"))
}

/// Whether `[data-testid=<testid>]` is on the page and visible (not inside a hidden element).
async fn shown(b: &Browser, testid: &str) -> Result<bool> {
    let v = b
        .eval(
            "const el = document.querySelector('[data-testid=\"' + arguments[0] + '\"]'); \
             return !!el && !el.closest('[hidden]') && el.getClientRects().length > 0;",
            vec![serde_json::json!(testid)],
        )
        .await?;
    Ok(v.as_bool() == Some(true))
}

/// Waits until `testid` is shown and `other` is not.
async fn wait_shown(b: &Browser, testid: &str, other: &str) -> Result<()> {
    let deadline = std::time::Instant::now() + SECS(30);
    loop {
        if shown(b, testid).await? && !shown(b, other).await? {
            return Ok(());
        }
        ensure!(std::time::Instant::now() < deadline, "waited for {testid} to be shown and {other} hidden");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Number of rows in the event log.
async fn log_rows(b: &Browser) -> Result<usize> {
    b.count("[data-testid=\"event-log\"] li").await
}

/// lantern-race: exactly one borrower latches the clasp, the other is a step too late; the
/// winner carries the lantern with wick No. 1.
#[tokio::test]
async fn lantern_race_plays_to_its_end_with_one_latch() -> Result<()> {
    let until = until_ms("lantern-race")?;
    with_browser("lantern-race", SECS(90), async |b| {
        b.open("?scenario=lantern-race&speed=64&autoplay=1").await?;
        wait_shown(b, "scene-lantern", "scene-harbor")
            .await
            .context("a lantern scenario shows the lantern, not the harbor")?;
        wait_for_end(b, until, "lantern-race").await?;
        let holder = b.element("tablet-holder").await?.context("the tablet")?;
        let winner = holder.attr("data-node").unwrap_or_default().to_owned();
        ensure!(winner == "xiu" || winner == "wang", "someone latched the clasp: {holder:?}");
        ensure!(holder.attr("data-state") == Some("taken"), "{holder:?}");
        ensure!(b.text_of("tablet-token").await?.trim() == "1", "one grant, one wick: No. 1");
        let loser = if winner == "xiu" { "wang" } else { "xiu" };
        // The clasp is the brief compare-and-swap: between decisions it is open, and when one is
        // being decided it is the winner's renewal or the loser's refused try.
        let clasp = b.element("clasp").await?.context("the clasp")?;
        ensure!(
            clasp.attr("data-state") == Some("open")
                || (clasp.attr("data-by") == Some(winner.as_str()) && clasp.attr("data-cas") == Some("won"))
                || (clasp.attr("data-by") == Some(loser) && clasp.attr("data-cas") == Some("refused")),
            "{clasp:?}"
        );
        let too_late = b.element("clasp-too-late").await?.context("the other one was a step too late")?;
        ensure!(too_late.attr("data-node") == Some(loser), "{too_late:?}");
        ensure!(too_late.text.contains("a step too late"), "{too_late:?}");
        let w = b.element(&format!("borrower-{winner}")).await?.context("the winner")?;
        ensure!(w.attr("data-state") == Some("carrying") && w.attr("data-lantern") == Some("1"), "{w:?}");
        let l = b.element(&format!("borrower-{loser}")).await?.context("the loser")?;
        ensure!(l.attr("data-state") == Some("waiting") && l.attr("data-too-late") == Some("true"), "{l:?}");
        let granted = b.count("[data-testid=\"event-log\"] [data-kind=\"lease-granted\"]").await?;
        ensure!(granted == 1, "exactly one grant in the log, found {granted}");
        // At the moment of the grant the winner holds the clasp.
        let granted_at = first_grant_ms("lantern-race")?;
        b.open(&format!("?scenario=lantern-race&t={granted_at}")).await?;
        let clasp = b.wait_for("clasp", |el| el.attr("data-state") == Some("latched"), SECS(30)).await?;
        ensure!(
            clasp.attr("data-by") == Some(winner.as_str()) && clasp.attr("data-cas") == Some("won"),
            "at {granted_at} ms: {clasp:?}"
        );
        b.assert_no_console_errors().await
    })
    .await
}

/// When the first lease of built-in `id` is granted, from the engine itself.
fn first_grant_ms(id: &str) -> Result<u64> {
    let scenario = leaselab::scenario::library::get(id).context("a built-in")??;
    let mut sim = leaselab::engine::Sim::new(scenario.config)?;
    sim.run_to_end();
    sim.trace()
        .iter()
        .find(|e| matches!(e.event, leaselab::engine::TraceEvent::LeaseGranted { .. }))
        .map(|e| e.at_ms)
        .context("a grant")
}

/// lantern-ankle: the holder is hurt, the tablet keeps her name until the return hour, the next
/// borrower gets wick No. 2, and her late errand with No. 1 is refused by the keeper.
#[tokio::test]
async fn lantern_ankle_plays_to_its_end_and_the_late_errand_is_refused() -> Result<()> {
    let until = until_ms("lantern-ankle")?;
    with_browser("lantern-ankle", SECS(90), async |b| {
        b.open("?scenario=lantern-ankle&speed=4&autoplay=1").await?;
        wait_shown(b, "scene-lantern", "scene-harbor").await?;
        // Between the twisted ankle (10 s) and her return hour (about 20 s) the tablet still
        // bears A-Xiu's name.
        b.wait_for("sim-time", |el| sim_ms(el).is_some_and(|ms| ms >= 12_000), SECS(30)).await?;
        b.click("play-toggle").await?;
        let at = b.element("sim-time").await?.as_ref().and_then(sim_ms).context("a time")?;
        let xiu = b.element("borrower-xiu").await?.context("A-Xiu")?;
        let holder = b.element("tablet-holder").await?.context("the tablet")?;
        ensure!(at < 20_000, "paused at {at} ms, before her return hour");
        ensure!(xiu.attr("data-state") == Some("hurt"), "{xiu:?}");
        ensure!(
            holder.attr("data-node") == Some("xiu") && holder.attr("data-state") == Some("taken"),
            "at {at} ms: {holder:?}"
        );
        ensure!(holder.attr("data-lease") == Some("live"), "her term runs on: {holder:?}");
        // Hurt, she latches nothing; the clasp is open or deciding one of Wang's tries.
        let clasp = b.element("clasp").await?.context("the clasp")?;
        ensure!(clasp.attr("data-state") == Some("open") || clasp.attr("data-by") == Some("wang"), "{clasp:?}");
        ensure!(b.attr_of("wick", "data-state").await?.as_deref() == Some("burning"), "her wick burns on");
        b.click("play-toggle").await?;
        // Speed up to the end.
        b.eval(
            "const s = document.querySelector('[data-testid=\"speed\"]'); s.value = '6'; \
             s.dispatchEvent(new Event('input', { bubbles: true }));",
            vec![],
        )
        .await?;
        wait_for_end(b, until, "lantern-ankle").await?;
        let holder = b.element("tablet-holder").await?.context("the tablet")?;
        ensure!(holder.attr("data-node") == Some("wang") && holder.text.contains("Smith Wang"), "{holder:?}");
        ensure!(b.text_of("tablet-token").await?.trim() == "2", "a fresh wick with a higher number");
        ensure!(b.text_of("keeper-sign").await?.contains("No. 2"), "only wick No. 2 counts");
        let refused = b.count("[data-testid=\"event-log\"] [data-kind=\"write-rejected-stale\"]").await?;
        ensure!(refused == 1, "A-Xiu's late errand is refused once, found {refused}");
        let log = b.log_text().await?;
        ensure!(
            log.contains("turns A-Xiu back") && log.contains("twists an ankle"),
            "the log tells the lantern: {log}"
        );
        ensure!(b.attr_of("ditch", "data-state").await?.as_deref() == Some("clear"));
        let shot = screenshot_dir().join("lantern-ankle.png");
        b.screenshot(&shot).await?;
        println!("screenshot: {}", shot.display());
        b.assert_no_console_errors().await
    })
    .await
}

/// lantern-ditch: with no keeper, the stale borrower falls into the ditch (the oracle's violation
/// is in the log), told in Chinese.
#[tokio::test]
async fn lantern_ditch_plays_to_its_end_with_a_fall_in_chinese() -> Result<()> {
    let until = until_ms("lantern-ditch")?;
    with_browser("lantern-ditch", SECS(90), async |b| {
        b.open("?scenario=lantern-ditch&speed=64&autoplay=1&lang=zh").await?;
        wait_shown(b, "scene-lantern", "scene-harbor").await?;
        wait_for_end(b, until, "lantern-ditch").await?;
        ensure!(b.attr_of("ditch", "data-state").await?.as_deref() == Some("fallen"));
        ensure!(b.attr_of("keeper-sign", "data-state").await?.as_deref() == Some("off"));
        ensure!(b.text_of("granary-status").await?.contains("摔进水渠"), "the granary status says so");
        let violations = b.count("[data-testid=\"event-log\"] [data-kind=\"violation\"]").await?;
        ensure!(violations >= 1, "the oracle's finding is in the log");
        ensure!(b.log_text().await?.contains("摔进了水渠"), "told in the lantern's Chinese words");
        ensure!(b.text_of("tablet-holder").await?.contains("王铁匠"), "the tablet in Chinese");
        // A-Xiu is drawn once, in the ditch; with no keeper his name is not written under the stool.
        ensure!(b.attr_of("borrower-xiu", "data-state").await?.as_deref() == Some("in-ditch"));
        ensure!(b.count(".lantern-scene .fallen-borrower").await? == 1, "one figure in the ditch");
        ensure!(b.count("[data-testid=\"keeper\"] text").await? == 0, "no name under the empty stool");
        ensure!(b.attr_of("scene-lantern", "data-sky").await?.as_deref() == Some("dawn"), "the night is over");
        b.assert_no_console_errors().await
    })
    .await
}

/// A harbor scenario shows the harbor, a lantern scenario the lantern; `&fable=` overrides the
/// scenario's own, and a bad value warns and keeps the scenario's own.
#[tokio::test]
async fn each_scenario_shows_its_fable_and_the_url_can_choose() -> Result<()> {
    with_browser("lantern-fables", SECS(90), async |b| {
        for (query, shown, hidden) in [
            ("?scenario=harbor-zombie", "scene-harbor", "scene-lantern"),
            ("?scenario=lantern-race", "scene-lantern", "scene-harbor"),
            ("?scenario=harbor-zombie&fable=lantern", "scene-lantern", "scene-harbor"),
            ("?scenario=lantern-ankle&fable=harbor", "scene-harbor", "scene-lantern"),
        ] {
            b.open(query).await?;
            wait_shown(b, shown, hidden).await.with_context(|| query.to_owned())?;
            let picker = b.element("fable-picker").await?.context("the fable picker")?;
            let expected = if shown == "scene-lantern" { "lantern" } else { "harbor" };
            ensure!(picker.value.as_deref() == Some(expected), "{query}: picker shows {:?}", picker.value);
        }
        b.open("?scenario=lantern-race&fable=castle").await?;
        let warning = b.wait_exists("url-warning", SECS(30)).await?;
        ensure!(warning.text.contains("castle"), "{warning:?}");
        wait_shown(b, "scene-lantern", "scene-harbor").await.context("a bad fable falls back to the scenario's own")?;
        b.assert_no_console_errors().await
    })
    .await
}

/// Switching the fable on harbor-zombie neither restarts nor changes the run: the clock and the
/// log go on, and the tablet shows the plaque's holder and number.
#[tokio::test]
async fn switching_the_fable_retells_the_same_run() -> Result<()> {
    with_browser("lantern-switch", SECS(120), async |b| {
        // At 8x the run lasts long enough after the switch for a busy machine (lanes of tests)
        // to look at it while it plays; at 16x it could reach its end first.
        b.open("?scenario=harbor-zombie&speed=8&autoplay=1").await?;
        wait_shown(b, "scene-harbor", "scene-lantern").await?;
        b.wait_for("sim-time", |el| sim_ms(el).is_some_and(|ms| ms >= 20_000), SECS(30)).await?;
        let before = b.element("sim-time").await?.as_ref().and_then(sim_ms).context("a time")?;
        let rows = log_rows(b).await?;
        choose(b, "fable-picker", "lantern").await?;
        wait_shown(b, "scene-lantern", "scene-harbor").await?;
        let after = b.element("sim-time").await?.as_ref().and_then(sim_ms).context("a time")?;
        ensure!(after >= before, "the run went on: {before} ms, then {after} ms");
        ensure!(b.attr_of("play-toggle", "class").await?.unwrap_or_default().contains("playing"), "still playing");
        ensure!(log_rows(b).await? >= rows, "the log was kept");
        b.wait_until_js(
            "the log retold in the lantern's words",
            "return document.querySelector('[data-testid=\"event-log\"]').textContent.includes('latches the brass clasp');",
            SECS(10),
        )
        .await?;

        // Back to the harbor to the end, then compare the plaque with the tablet.
        choose(b, "fable-picker", "harbor").await?;
        wait_shown(b, "scene-harbor", "scene-lantern").await?;
        wait_for_end(b, 90_000, "harbor-zombie").await?;
        let plaque = b.element("plaque-holder").await?.context("the plaque")?;
        let plaque_token = b.text_of("plaque-token").await?;
        choose(b, "fable-picker", "lantern").await?;
        wait_shown(b, "scene-lantern", "scene-harbor").await?;
        let tablet = b.element("tablet-holder").await?.context("the tablet")?;
        ensure!(plaque.attr("data-node") == Some("lin"), "{plaque:?}");
        ensure!(tablet.attr("data-node") == plaque.attr("data-node"), "same holder: {tablet:?} vs {plaque:?}");
        ensure!(b.text_of("tablet-token").await?.trim() == plaque_token.trim(), "same number as the plaque ({plaque_token})");
        ensure!(plaque_token.trim() == "8");
        let chen = b.element("borrower-chen").await?.context("Chen as a borrower")?;
        ensure!(chen.attr("data-state") == Some("waiting"), "after being turned back he waits: {chen:?}");
        let shot = screenshot_dir().join("lantern-zombie.png");
        b.screenshot(&shot).await?;
        b.assert_no_console_errors().await
    })
    .await
}

/// Every built-in scenario (each file in `assets/scenarios/`) plays to its end at 64× in the
/// lantern fable, chosen from the picker in one page, without a console error.
#[tokio::test]
async fn every_builtin_scenario_plays_to_its_end_in_the_lantern() -> Result<()> {
    let dir = leaselab_browser_tests::workspace_root().join("assets/scenarios");
    let mut scenarios: Vec<(String, u64)> = Vec::new();
    for entry in std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path)?)?;
        let id = json["id"].as_str().context("a built-in has an id")?.to_owned();
        let until = json["until_ms"].as_u64().context("a built-in sets until_ms")?;
        scenarios.push((id, until));
    }
    scenarios.sort();
    ensure!(scenarios.len() >= 16, "found only {scenarios:?}");
    with_browser("lantern-every-scenario", SECS(40 * scenarios.len() as u64), async |b| {
        b.open("?speed=64&fable=lantern").await?;
        wait_shown(b, "scene-lantern", "scene-harbor").await?;
        for (id, until) in &scenarios {
            b.choose_scenario(id).await?;
            wait_shown(b, "scene-lantern", "scene-harbor").await.with_context(|| format!("{id} in the lantern"))?;
            b.click("play-toggle").await?;
            wait_for_end(b, *until, id).await?;
            ensure!(
                b.element("tablet-token").await?.is_some() && b.element("keeper-sign").await?.is_some(),
                "{id}: the tablet and the keeper are drawn"
            );
        }
        b.assert_no_console_errors().await
    })
    .await
}
