//! Time travel in the browser (issue 4, first part): scrub back to before Chen's nap ends, wake
//! him early, and the new future differs: Lin never takes over and no flag of Chen's is voided.
//! Scrubbing and stepping back rebuild the log and the pictures for that moment.

use anyhow::{ensure, Context, Result};
use leaselab_browser_tests::{with_browser, Browser, ElementState};
use std::time::Duration;

const SECS: fn(u64) -> Duration = Duration::from_secs;

fn sim_ms(el: &ElementState) -> Option<u64> {
    el.attr("data-ms").and_then(|ms| ms.trim().parse().ok())
}

async fn wait_at(b: &Browser, what: &str, pred: impl Fn(u64) -> bool) -> Result<()> {
    b.wait_for("sim-time", |el| sim_ms(el).is_some_and(&pred), SECS(60)).await.with_context(|| what.to_owned())?;
    Ok(())
}

/// Sets the scrubber to `ms` as a learner dragging it would.
async fn scrub(b: &Browser, ms: u64) -> Result<()> {
    b.eval(
        &format!(
            "const s = document.querySelector('[data-testid=\"scrubber\"]'); s.value = '{ms}'; \
             s.dispatchEvent(new Event('input', {{ bubbles: true }}));"
        ),
        vec![],
    )
    .await?;
    wait_at(b, "the scrubber moved the run", |t| t == ms).await
}

async fn voided_rows(b: &Browser) -> Result<usize> {
    b.count("[data-testid=\"event-log\"] [data-kind=\"write-rejected-stale\"]").await
}

#[tokio::test]
async fn scrubbing_back_and_waking_chen_early_forks_the_future() -> Result<()> {
    with_browser("time-travel-fork", SECS(150), async |b| {
        b.open("?scenario=harbor-zombie&speed=64&autoplay=1").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        wait_at(b, "the run reached its end", |t| t >= 90_000).await?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        // The fable as written: Lin takes 8 and Chen's stale 7 is voided.
        ensure!(
            b.text_of("plaque-token").await?.trim() == "8",
            "the plaque at the end: {}",
            b.text_of("plaque-token").await?
        );
        ensure!(voided_rows(b).await? >= 1, "Chen's 7 is voided in the log");

        // Back to 21 s: Chen has just fallen asleep (20 s), nothing is voided yet.
        scrub(b, 21_000).await?;
        ensure!(b.text_of("plaque-token").await?.trim() == "7", "at 21 s the plaque shows 7");
        ensure!(voided_rows(b).await? == 0, "the log is that of 21 s");
        ensure!(b.attr_of("node-chen", "data-role").await?.as_deref() == Some("paused"), "Chen sleeps at 21 s");

        // Wake him now: the future forks.
        b.act_on("chen", "pause").await?;
        ensure!(b.attr_of("node-chen", "data-role").await?.as_deref() == Some("leader"), "Chen is awake");
        b.click("play-toggle").await?;
        wait_at(b, "the forked run reached its end", |t| t >= 90_000).await?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        ensure!(
            b.text_of("plaque-token").await?.trim() == "7",
            "awake in time, Chen keeps 7: {}",
            b.text_of("plaque-token").await?
        );
        ensure!(voided_rows(b).await? == 0, "nothing of Chen's is voided in the new future");

        // Step back from the end: one event earlier, still in the new future.
        b.click("step-back").await?;
        let t = b.element("sim-time").await?.and_then(|el| sim_ms(&el)).context("the clock")?;
        ensure!(t < 90_000, "stepped back from the end to {t}");
        b.assert_no_console_errors().await
    })
    .await
}

/// Plays harbor-zombie to its end at 64× and shows the whole run in the space-time diagram.
async fn harbor_zombie_whole_run(b: &Browser) -> Result<()> {
    b.open("?scenario=harbor-zombie&speed=64&autoplay=1").await?;
    b.wait_exists("space-time", SECS(30)).await?;
    wait_at(b, "the run reached its end", |t| t >= 90_000).await?;
    b.eval(
        "const s = document.querySelector('[data-testid=\"diagram-span\"]'); s.value = '0'; \
         s.dispatchEvent(new Event('change', { bubbles: true }));",
        vec![],
    )
    .await?;
    Ok(())
}

/// The space-time diagram of seed `000`: over the whole run it shows the two grants (7 and 8)
/// on the store's lane and Chen's write with 7 refused at the resource; clicking it moves the run.
#[tokio::test]
async fn the_diagram_shows_the_grants_and_the_refused_stale_write() -> Result<()> {
    with_browser("space-time", SECS(120), async |b| {
        harbor_zombie_whole_run(b).await?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let grants = b
            .eval("return Array.from(document.querySelectorAll('.spacetime .mark.grant text')).map(t => t.textContent);", vec![])
            .await?;
        ensure!(grants == serde_json::json!(["7", "8"]), "the grants on the store's lane: {grants}");
        let refused = b.count(".spacetime [data-kind=\"write\"][data-verdict=\"refused\"][data-token=\"7\"]").await?;
        ensure!(refused == 1, "Chen's 7 refused once: {refused}");
        ensure!(b.count(".spacetime [data-verdict=\"violation\"]").await? == 0, "no violation with fencing on");
        ensure!(b.attr_of("diagram-playhead", "data-ms").await?.as_deref() == Some("90000"));
        // A click in the middle of the drawing area moves the run back to about the middle.
        b.eval(
            "const svg = document.querySelector('[data-testid=\"space-time\"] svg'); const r = svg.getBoundingClientRect(); \
             svg.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: r.left + r.width * 0.55, clientY: r.top + 20 }));",
            vec![],
        )
        .await?;
        wait_at(b, "the click moved the run back", |t| (30_000..70_000).contains(&t)).await?;
        b.assert_no_console_errors().await
    })
    .await
}

/// Details on demand: pointing at Chen's refused write with 7 names it and its verdict; a click
/// on it goes to its arrival; the keyboard steps through the elements and Enter goes to one.
#[tokio::test]
async fn the_diagram_gives_details_by_pointer_and_keyboard() -> Result<()> {
    with_browser("diagram-details", SECS(120), async |b| {
        harbor_zombie_whole_run(b).await?;
        let stale = ".spacetime [data-kind=\"write\"][data-verdict=\"refused\"][data-token=\"7\"]";
        b.eval(
            "document.querySelector(arguments[0] + ' line').dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));",
            vec![serde_json::json!(stale)],
        )
        .await?;
        let detail = b.text_of("diagram-detail").await?;
        ensure!(detail.contains('7') && detail.contains("refused"), "the details name the token and the verdict: {detail}");
        // "… · 61.0 s → 61.3 s · 7 · refused": the click goes to the arrival.
        let arrival: f64 = detail
            .split('→')
            .nth(1)
            .and_then(|rest| rest.trim().split(' ').next())
            .and_then(|s| s.parse().ok())
            .context("an arrival time in the details")?;
        b.eval(
            "document.querySelector(arguments[0] + ' line').dispatchEvent(new MouseEvent('click', { bubbles: true }));",
            vec![serde_json::json!(stale)],
        )
        .await?;
        let target = (arrival * 1000.0).round() as u64;
        wait_at(b, "the click went to the arrival", |t| t.abs_diff(target) <= 50).await?;
        // At its arrival the write has been judged, and Lin's term (8) had begun well before.
        ensure!(b.count(stale).await? == 1, "the refused 7 is still drawn at its arrival");
        ensure!(target > 30_000, "the stale flag arrives after Lin's grant, not at {target} ms");
        // The keyboard: ← picks the latest element at or before the playhead, Enter goes there.
        b.press("diagram", "\u{E012}").await?;
        let picked = b.text_of("diagram-detail").await?;
        ensure!(picked != detail, "← chose another element: {picked}");
        b.press("diagram", "\u{E012}\u{E012}\u{E007}").await?;
        wait_at(b, "Enter moved the run back", |t| t < target).await?;
        b.assert_no_console_errors().await
    })
    .await
}

/// An exact share link: after waking Chen early, crashing Lin and moving on to 50 s, the link
/// opens the same run at the same moment, with the same trace hash and the same plaque.
#[tokio::test]
async fn a_share_link_replays_the_same_run() -> Result<()> {
    with_browser("share-link", SECS(120), async |b| {
        b.open("?scenario=harbor-zombie&speed=1").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        scrub(b, 21_000).await?;
        b.act_on("chen", "pause").await?;
        scrub(b, 30_000).await?;
        b.act_on("lin", "crash").await?;
        scrub(b, 50_000).await?;
        let hash = b.attr_of("sim-time", "data-hash").await?.context("a hash")?;
        let plaque = b.text_of("plaque-token").await?;
        b.click("share").await?;
        // The link is written by a chunk fetched on first use.
        b.wait_for("share-link", |e| e.value.as_deref().is_some_and(|v| !v.is_empty()), SECS(10)).await?;
        let link = b
            .eval("return document.querySelector('[data-testid=\"share-link\"]').value;", vec![])
            .await?
            .as_str()
            .map(str::to_owned)
            .context("the link")?;
        // Written as the page reads it (`URLSearchParams`): the items' commas encoded, read back whole.
        let actions =
            b.eval("return new URL(arguments[0]).searchParams.get('do');", vec![serde_json::json!(link)]).await?;
        ensure!(
            actions.as_str() == Some("21000.r.chen,30000.x.lin") && link.contains("t=50000"),
            "the link carries the wake-up and the crash: {link}"
        );
        let query = link.split_once('?').map(|(_, q)| format!("?{q}")).context("a query")?;
        b.open(&query).await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        wait_at(b, "the link's moment", |t| t == 50_000).await?;
        ensure!(b.attr_of("sim-time", "data-hash").await?.as_deref() == Some(hash.as_str()), "the same trace_hash");
        ensure!(b.text_of("plaque-token").await? == plaque, "the same plaque");
        ensure!(b.count("[data-testid=\"url-warning\"]:not([hidden])").await? == 0, "a good link warns of nothing");
        b.assert_no_console_errors().await
    })
    .await
}

/// The share link's field is left alone while the run plays on under it: the world's levers
/// beside it change with the run (a holder comes and goes, the run ends), and a learner copying
/// the link keeps the field, its text and the cursor in it.
#[tokio::test]
async fn the_share_links_field_stays_while_the_run_plays() -> Result<()> {
    with_browser("share-field-stays", SECS(90), async |b| {
        b.open("?scenario=harbor-zombie&speed=64").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        b.click("tools-open").await?;
        b.click("share").await?;
        b.wait_for("share-link", |e| e.value.as_deref().is_some_and(|v| !v.is_empty()), SECS(10)).await?;
        b.eval("document.querySelector('[data-testid=\"share-link\"]').dataset.kept = 'yes'; return true;", vec![])
            .await?;
        // Played to its end at 64×, the menu left open (a script's click is no click elsewhere).
        b.eval("document.querySelector('[data-testid=\"play-toggle\"]').click(); return true;", vec![]).await?;
        b.wait_until_js(
            "the run played to its end and the levers say so",
            "return !!document.querySelector('[data-testid=\"revoke-lease\"][disabled]') && \
             !document.querySelector('[data-testid=\"play-toggle\"]').classList.contains('playing');",
            SECS(30),
        )
        .await?;
        let kept = b.attr_of("share-link", "data-kept").await?;
        ensure!(kept.as_deref() == Some("yes"), "the link's field was drawn again as the run played");
        b.assert_no_console_errors().await
    })
    .await
}

/// Broken and hostile links each say what is wrong and still show a scene; nothing is injected.
#[tokio::test]
async fn broken_links_say_what_is_wrong() -> Result<()> {
    with_browser("broken-links", SECS(150), async |b| {
        let many = vec!["1.v"; 3_000].join(",");
        let cases: Vec<(String, &str)> = vec![
            ("?scenario=harbor-zombie&do=5.q.chen".into(), "could not be replayed"),
            ("?scenario=harbor-zombie&do=5.p.ghost".into(), "item 1: this scenario has no node called “ghost”"),
            ("?scenario=harbor-zombie&do=5.d.chen.0".into(), "item 1: by_ms must be between 1 and 86400000 ms"),
            // Said in the page's language, with the kinds that exist.
            (
                "?scenario=harbor-zombie&lang=zh&do=5.m.chen.bogus.lose".into(),
                "第 1 项：“bogus”不是一种消息；消息种类有 ",
            ),
            (
                "?scenario=harbor-zombie&lang=zh&do=5.j.chen.0".into(),
                "by_ms 必须在 -86400000 到 86400000 ms 之间，且不能为 0",
            ),
            (
                "?scenario=harbor-zombie&do=100000.p.chen".into(),
                "item 1: its time, 100 s, is after the end of this run (90.0 s)",
            ),
            ("?scenario=harbor-zombie&do=5.f.2".into(), "item 1: “f” is an intervention, but not with these arguments"),
            ("?scenario=harbor-zombie&do=5.p.chen,4.r.chen".into(), "item 2: its time is earlier than the item before"),
            ("?scenario=harbor-zombie&v=9&do=5.p.chen".into(), "newer LeaseLab"),
            ("?scenario=harbor-zombie&v=0&do=5.p.chen".into(), "not a link version"),
            ("?scenario=harbor-zombie&t=soon".into(), "whole number"),
            // harbor-zombie ends at 90 s (its until_ms).
            ("?scenario=harbor-zombie&t=99999999".into(), "after the end of this run (90.0 s)"),
            (format!("?scenario=harbor-zombie&do={many}"), "at most"),
            ("?scenario=harbor-zombie&do=5.p.%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E".into(), "could not be replayed"),
        ];
        for (query, says) in cases {
            b.open(&query).await?;
            b.wait_exists("scene-harbor", SECS(30)).await?;
            // The warning is drawn by a chunk fetched when there is something to say.
            let warning =
                b.wait_exists("url-warning", SECS(30)).await.with_context(|| format!("a warning for {query}"))?.text;
            ensure!(warning.contains(says), "{query}: expected “{says}” in: {warning}");
            ensure!(b.count("img").await? == 0, "{query}: nothing injected");
            b.assert_no_console_errors().await?;
        }
        Ok(())
    })
    .await
}

/// A link whose scenario is not here plays the default without the link's interventions (they
/// were made for another run); `autoplay=1` plays on from a link's moment; once the run a link
/// showed is reset, the address no longer replays the link (walkthrough of issue 4).
#[tokio::test]
async fn a_lost_scenario_drops_the_links_interventions_and_autoplay_plays_on() -> Result<()> {
    with_browser("links-lost-autoplay", SECS(120), async |b| {
        b.open("?v=1&scenario=ghost&do=1000.x.chen&t=5000").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        ensure!(
            b.wait_exists("url-warning", SECS(30)).await?.text.contains("ghost"),
            "the page says the scenario is unknown"
        );
        let clock = b.element("sim-time").await?.context("the clock")?;
        ensure!(clock.attr("data-ms") == Some("0"), "the default from its start, not the link's moment: {clock:?}");
        b.click("play-toggle").await?;
        wait_at(b, "playing past the link's crash", |t| t >= 2_000).await?;
        ensure!(
            b.attr_of("node-chen", "data-role").await?.as_deref() != Some("crashed"),
            "the link's crash is not applied"
        );

        // A link with autoplay plays on from its moment.
        b.open("?scenario=harbor-zombie&t=30000&autoplay=1&speed=4").await?;
        wait_at(b, "the link plays on", |t| t > 30_500).await?;

        // Reset: the address keeps its settings but no longer names the link's moment.
        b.open("?scenario=harbor-zombie&v=1&t=10000&do=10000.x.chen&lang=en").await?;
        wait_at(b, "the link's moment", |t| t == 10_000).await?;
        b.click("reset").await?;
        let search = b.eval("return location.search;", vec![]).await?;
        let search = search.as_str().unwrap_or_default();
        ensure!(
            !search.contains("do=")
                && !search.contains("t=")
                && search.contains("scenario=harbor-zombie")
                && search.contains("lang=en"),
            "{search}"
        );
        b.assert_no_console_errors().await
    })
    .await
}

/// Watches the log's list: each row put into it, and whether the same row (its moment, kind and
/// words) had been put in before.
const WATCH_LOG: &str = "const ol = document.querySelector('[data-testid=\"event-log\"]'); \
    const w = window.__logWatch = { added: 0, again: 0 }; const seen = new Set(); \
    const key = li => li.dataset.ms + '|' + li.dataset.kind + '|' + li.textContent; \
    for (const li of ol.querySelectorAll(':scope > li')) seen.add(key(li)); \
    new MutationObserver(ms => { for (const m of ms) for (const n of m.addedNodes) { \
      if (n.nodeName !== 'LI') continue; w.added++; const k = key(n); if (seen.has(k)) w.again++; else seen.add(k); } }) \
      .observe(ol, { childList: true }); return true;";

/// The newest rows of the log: moment, kind and words.
const TOP_ROWS: &str = "return [...document.querySelectorAll('[data-testid=\"event-log\"] > li')].slice(0, 6) \
    .map(li => li.dataset.ms + '|' + li.dataset.kind + '|' + li.textContent);";

/// At 64× the log takes the run's rows about once a second (issue 14: a row added every frame
/// cost a layout each), and a row already on the page is never taken out and put back (Leptos's
/// keyed list moved all 400 kept rows whenever two came at the top in one frame). Paused, the
/// log has caught up: its newest rows are those of the page opened at that moment.
#[tokio::test]
async fn at_speed_the_log_adds_rows_without_moving_old_ones_and_catches_up_when_paused() -> Result<()> {
    let link = leaselab_browser_tests::hour_link()?;
    with_browser("log-at-speed", SECS(150), async |b| {
        b.open(&format!("?s={link}&speed=64&autoplay=1")).await?;
        b.wait_exists("event-log", SECS(30)).await?;
        b.eval(WATCH_LOG, vec![]).await?;
        tokio::time::sleep(SECS(4)).await;
        b.click("play-toggle").await?;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let watch = b.eval("return window.__logWatch;", vec![]).await?;
        let added = watch["added"].as_u64().context("rows added")?;
        ensure!(added >= 20, "four seconds at 64× should add rows to the log: {watch}");
        ensure!(watch["again"] == 0, "rows already in the log were put in again: {watch}");
        let t = b.element("sim-time").await?.and_then(|el| sim_ms(&el)).context("the clock")?;
        let paused = b.eval(TOP_ROWS, vec![]).await?;
        ensure!(paused.as_array().is_some_and(|r| r.len() == 6), "the paused log's rows: {paused}");

        b.open(&format!("?s={link}&t={t}")).await?;
        wait_at(b, "the page opened at the paused moment", |at| at == t).await?;
        let opened = b.eval(TOP_ROWS, vec![]).await?;
        ensure!(paused == opened, "paused at {t} ms the log shows {paused}; opened there it shows {opened}");
        b.assert_no_console_errors().await
    })
    .await
}
