//! The app's browser contract: the `data-testid`s and attributes the UI must provide, and what
//! they must show. Each test is bounded in time and fails on any console error or Rust panic
//! (the bad-URL test tolerates errors but not panics).

use anyhow::{ensure, Context, Result};
use leaselab_browser_tests::{screenshot_dir, with_browser, Browser, ElementState};
use std::time::Duration;

const HARBOR: &str = "?scenario=harbor-zombie&speed=64&autoplay=1";
/// `until_ms` of the harbor-zombie scenario.
const HARBOR_END_MS: u64 = 90_000;
const SECS: fn(u64) -> Duration = Duration::from_secs;

/// The virtual time shown by `[data-testid=sim-time]`: its `data-ms` attribute if present, else
/// its text (an integer number of milliseconds).
fn sim_ms(el: &ElementState) -> Option<u64> {
    if let Some(ms) = el.attr("data-ms") {
        return ms.trim().parse().ok();
    }
    let text = el.text.trim();
    text.parse().ok().or_else(|| {
        let digits: String = text.chars().filter(char::is_ascii_digit).collect();
        digits.parse().ok()
    })
}

#[tokio::test]
async fn harbor_zombie_page_loads_without_console_errors() -> Result<()> {
    with_browser("harbor-loads", SECS(60), async |b| {
        b.open(HARBOR).await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        tokio::time::sleep(SECS(1)).await;
        b.assert_no_console_errors().await
    })
    .await
}

/// Plays harbor-zombie to its end, saves `target/screenshots/harbor.png`, and checks the
/// outcome: token 8 on the plaque, a stale write rejected in the event log, Chen not a follower.
#[tokio::test]
async fn harbor_zombie_runs_to_the_end() -> Result<()> {
    with_browser("harbor-end", SECS(120), async |b| {
        b.open(HARBOR).await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        let end = b
            .wait_for("sim-time", |el| sim_ms(el).is_some_and(|ms| ms >= HARBOR_END_MS), SECS(60))
            .await
            .context("the run did not reach 90000 ms of virtual time")?;
        println!("sim-time at the end: {:?}", sim_ms(&end));
        // Let the last frame settle, then keep a picture for humans and the README.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let shot = screenshot_dir().join("harbor.png");
        b.screenshot(&shot).await?;
        println!("screenshot: {}", shot.display());

        let plaque = b.text_of("plaque-token").await?;
        ensure!(plaque.contains('8'), "plaque-token shows {plaque:?}, expected token 8");

        let stale = b.count("[data-testid=\"event-log\"] [data-kind=\"write-rejected-stale\"]").await?;
        ensure!(stale >= 1, "event-log has no row with data-kind=\"write-rejected-stale\" at the end of the run");

        let role = b.attr_of("node-chen", "data-role").await?;
        ensure!(
            matches!(role.as_deref(), Some("leader" | "candidate" | "paused" | "crashed")),
            "node-chen has data-role={role:?}, expected leader, candidate, paused or crashed"
        );

        b.assert_no_console_errors().await
    })
    .await
}

#[tokio::test]
async fn controls_exist_and_pausing_chen_pauses_him() -> Result<()> {
    with_browser("controls", SECS(90), async |b| {
        // No autoplay: a fresh page is paused.
        b.open("?scenario=harbor-zombie&speed=64").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        for id in ["play-toggle", "step", "reset", "fencing-toggle", "card-chen", "node-chen"] {
            b.wait_exists(id, SECS(10)).await?;
        }

        b.act_on("chen", "pause").await?;
        let is_paused = |el: &ElementState| el.attr("data-role") == Some("paused");
        let mut paused = b.wait_for("node-chen", is_paused, SECS(2)).await.is_ok();
        for _ in 0..10 {
            if paused {
                break;
            }
            b.click("step").await?;
            paused = b.wait_for("node-chen", is_paused, Duration::from_millis(500)).await.is_ok();
        }
        if !paused {
            b.click("play-toggle").await?;
            b.wait_for("node-chen", is_paused, SECS(15))
                .await
                .context("after clicking node-chen-pause, then step and play")?;
        }

        b.assert_no_console_errors().await
    })
    .await
}

const ZH_ACTIVE: &str = "return document.documentElement.lang.toLowerCase().startsWith('zh') \
                         && /[\\u4e00-\\u9fff]/.test(document.body.innerText);";

/// Switches the language with `[data-testid=lang-toggle]`: a click for a button, or choosing the
/// first `zh*` option for a `<select>`.
async fn choose_chinese(b: &Browser) -> Result<()> {
    let toggle = b.wait_exists("lang-toggle", SECS(10)).await?;
    if toggle.tag == "select" {
        let value = b
            .eval(
                "const s = document.querySelector('[data-testid=\"lang-toggle\"]');\
                 const o = Array.from(s.options).find(o => o.value.toLowerCase().startsWith('zh'));\
                 return o ? o.value : null;",
                vec![],
            )
            .await?;
        let value = value.as_str().context("lang-toggle <select> has no zh option")?.to_string();
        b.client()
            .find(fantoccini::Locator::Css("[data-testid=\"lang-toggle\"]"))
            .await?
            .select_by_value(&value)
            .await?;
    } else {
        b.click("lang-toggle").await?;
    }
    Ok(())
}

#[tokio::test]
async fn lang_toggle_switches_to_chinese() -> Result<()> {
    with_browser("lang-toggle", SECS(60), async |b| {
        b.open("?scenario=harbor-zombie&speed=64").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        let before = b.eval("return document.documentElement.lang;", vec![]).await?;
        ensure!(
            !before.as_str().unwrap_or("").to_lowercase().starts_with("zh"),
            "without ?lang the page should start in English (lang={before})"
        );
        choose_chinese(b).await?;
        b.wait_until_js("<html lang=zh…> and Chinese text after lang-toggle", ZH_ACTIVE, SECS(10)).await?;
        b.assert_no_console_errors().await
    })
    .await
}

#[tokio::test]
async fn lang_zh_in_the_url_shows_chinese() -> Result<()> {
    with_browser("lang-url", SECS(60), async |b| {
        b.open("?scenario=harbor-zombie&speed=64&lang=zh").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        b.wait_until_js("<html lang=zh…> and Chinese text with ?lang=zh", ZH_ACTIVE, SECS(10)).await?;
        b.assert_no_console_errors().await
    })
    .await
}

#[tokio::test]
async fn bad_url_parameters_warn_but_still_render() -> Result<()> {
    with_browser("bad-url", SECS(60), async |b| {
        b.open("?scenario=nope&speed=abc").await?;
        b.wait_exists("url-warning", SECS(30)).await?;
        b.wait_exists("scene-harbor", SECS(10)).await?;
        b.assert_no_panic().await
    })
    .await
}

/// Switching scenarios starts a new story: the log holds only the new run's rows (a row of the
/// old run at the same trace position must not linger), and a crashed flag-bearer cannot be put
/// to sleep.
#[tokio::test]
async fn switching_scenario_starts_a_fresh_log_and_crash_disables_sleep() -> Result<()> {
    with_browser("switch-scenario", SECS(60), async |b| {
        b.open("?scenario=gc-pause-41-42").await?;
        b.wait_until_js(
            "the gc-pause log names Client A",
            "return document.querySelector('[data-testid=\"event-log\"]').textContent.includes('Client A');",
            SECS(30),
        )
        .await?;
        b.choose_scenario("harbor-zombie").await?;
        b.wait_until_js(
            "the harbor log names Old Chen",
            "return document.querySelector('[data-testid=\"event-log\"]').textContent.includes('Old Chen comes to the breakwater');",
            SECS(10),
        )
        .await?;
        let log = b.log_text().await?;
        ensure!(!log.contains("Client A") && !log.contains("a comes to the breakwater"), "old rows linger: {log}");

        b.act_on("chen", "crash").await?;
        b.wait_until_js(
            "Chen's sleep button is disabled once he has crashed",
            "return document.querySelector('[data-testid=\"node-chen-pause\"]').disabled === true \
             && document.querySelector('[data-testid=\"node-chen\"]').dataset.role === 'crashed';",
            SECS(10),
        )
        .await?;
        b.assert_no_console_errors().await
    })
    .await
}

/// Every built-in scenario (each file in `assets/scenarios/`) plays to its end at 64× in one
/// page, chosen from the picker, without a console error.
#[tokio::test]
async fn every_builtin_scenario_plays_to_its_end_without_errors() -> Result<()> {
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
    ensure!(scenarios.len() >= 4, "found only {scenarios:?}");
    with_browser("every-scenario", SECS(40 * scenarios.len() as u64), async |b| {
        b.open("?speed=64").await?;
        b.wait_exists("scenario-picker", SECS(30)).await?;
        for (id, until) in &scenarios {
            b.choose_scenario(id).await?;
            b.click("play-toggle").await?;
            b.wait_for("sim-time", |el| sim_ms(el).is_some_and(|ms| ms >= *until), SECS(30))
                .await
                .with_context(|| format!("{id} did not reach {until} ms"))?;
        }
        b.assert_no_console_errors().await
    })
    .await
}
