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

        // The seed's ending: Lin carries the flag (number 8); Chen, awake since 60 000 ms and
        // refused, no longer believes he leads (client-go: a failed renewal past renewDeadline
        // stops leading), and the script neither pauses nor crashes him again.
        let chen = b.attr_of("node-chen", "data-role").await?;
        ensure!(
            chen.as_deref() == Some("candidate"),
            "node-chen has data-role={chen:?} at the end, expected candidate"
        );
        let lin = b.attr_of("node-lin", "data-role").await?;
        ensure!(lin.as_deref() == Some("leader"), "node-lin has data-role={lin:?} at the end, expected leader");

        b.assert_no_console_errors().await
    })
    .await
}

/// The script of harbor-zombie pauses Chen at 20 000 ms and wakes him at 60 000 ms.
const SCRIPTED_PAUSE_MS: u64 = 20_000;

/// A learner's pause, at a moment the script does not touch: Chen shows as paused at once, and
/// his sand runs out with nobody renewing it, so Lin takes the post (number 8) before the
/// script's own pause would have come.
#[tokio::test]
async fn controls_exist_and_pausing_chen_pauses_him() -> Result<()> {
    with_browser("controls", SECS(120), async |b| {
        // No autoplay: a fresh page is paused.
        b.open("?scenario=harbor-zombie&speed=64").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        for id in ["play-toggle", "step", "reset", "fencing-toggle", "card-chen", "node-chen"] {
            b.wait_exists(id, SECS(10)).await?;
        }
        let role = async |id: &str| b.attr_of(&format!("node-{id}"), "data-role").await;
        let now_ms = async || -> Result<u64> {
            let el = b.wait_exists("sim-time", SECS(5)).await?;
            sim_ms(&el).context("sim-time shows no number of milliseconds")
        };

        // Step until Chen holds the post (number 7, granted within the first second).
        for _ in 0..40 {
            if role("chen").await?.as_deref() == Some("leader") {
                break;
            }
            b.click("step").await?;
        }
        ensure!(role("chen").await?.as_deref() == Some("leader"), "Chen never led while stepping from the start");

        b.act_on("chen", "pause").await?;
        let is_paused = |el: &ElementState| el.attr("data-role") == Some("paused");
        b.wait_for("node-chen", is_paused, SECS(5)).await.context("node-chen after the pause action")?;
        let paused_at = now_ms().await?;
        ensure!(paused_at < SCRIPTED_PAUSE_MS, "paused at {paused_at} ms, not before the script's own pause");

        // Step on until Lin leads: the store grants her number 8 first (the plaque), and she
        // believes she leads once its answer reaches her. Chen stays paused all the while.
        for _ in 0..400 {
            if role("lin").await?.as_deref() == Some("leader") {
                break;
            }
            b.click("step").await?;
        }
        ensure!(role("lin").await?.as_deref() == Some("leader"), "Lin never led while stepping on");
        let plaque = b.text_of("plaque-token").await?;
        ensure!(plaque.contains('8'), "plaque-token shows {plaque:?} once Lin leads, expected 8");
        let handed_at = now_ms().await?;
        ensure!(
            handed_at < SCRIPTED_PAUSE_MS,
            "Lin took the post at {handed_at} ms; with Chen paused at {paused_at} ms it comes before {SCRIPTED_PAUSE_MS} ms"
        );
        ensure!(role("chen").await?.as_deref() == Some("paused"), "Chen woke before the script's resume");

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

/// Presenter mode is a setting the address keeps (`?presenter=1`); left (Escape, not in full
/// screen, once the page is whole), it leaves the address too, so a reload does not bring it
/// back. A fresh walkthrough found `presenter=1` left behind.
#[tokio::test]
async fn leaving_presenter_mode_leaves_the_address() -> Result<()> {
    with_browser("presenter-address", SECS(60), async |b| {
        b.open("?presenter=1").await?;
        b.wait_until_js(
            "presenter mode, with the later parts here",
            "return !!document.querySelector('.page.presenter') && document.documentElement.dataset.later === 'ready';",
            SECS(30),
        )
        .await?;
        b.keys(&['\u{E00C}']).await?;
        b.wait_until_js(
            "presenter mode left, in the address too",
            "return !document.querySelector('.page.presenter') && !new URLSearchParams(location.search).has('presenter');",
            SECS(5),
        )
        .await?;
        b.assert_no_console_errors().await
    })
    .await
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
