//! Boxes and arrows, the third telling, in the browser: it is offered everywhere a telling is
//! (the landing card, the fable picker, the address) by nothing but its own module; its scene
//! draws the engine's state (the holder, the fencing token, the high-water mark, a stale write
//! accepted) in its own words and style; and switching to it and back retells the same run.

use anyhow::{ensure, Context, Result};
use leaselab_browser_tests::{with_browser, Browser};
use std::time::Duration;

const SECS: fn(u64) -> Duration = Duration::from_secs;

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

/// Waits until `testid` is shown.
async fn wait_shown(b: &Browser, testid: &str) -> Result<()> {
    let deadline = std::time::Instant::now() + SECS(30);
    while !shown(b, testid).await? {
        ensure!(std::time::Instant::now() < deadline, "waited for {testid} to be shown");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

/// harbor-zombie at 31 s, told as boxes and arrows: the store's box names Lin with token 8 and a
/// live lease; Old Chen's box says he is paused and still believes in 7, below the store's 8;
/// the resource's box holds to 8. The harbor's scene is hidden, and its words are nowhere.
#[tokio::test]
async fn the_store_the_nodes_and_the_resource_show_the_engines_state() -> Result<()> {
    with_browser("boxes-state", SECS(90), async |b| {
        b.open("?scenario=harbor-zombie&fable=boxes&t=31000").await?;
        wait_shown(b, "scene-boxes").await?;
        ensure!(!shown(b, "scene-harbor").await?, "the harbor's scene is hidden");
        let holder = b.wait_exists("boxes-holder", SECS(10)).await?;
        ensure!(holder.attr("data-node") == Some("lin"), "Lin holds the lease: {holder:?}");
        ensure!(holder.attr("data-lease") == Some("live"), "a live lease: {holder:?}");
        ensure!(holder.text.contains("Lin"), "the holder is named: {}", holder.text);
        let token = b.text_of("boxes-token").await?;
        ensure!(token.contains('8'), "the store's token is 8: {token}");
        let sign = b.text_of("boxes-sign").await?;
        ensure!(sign.contains('8'), "the resource holds to 8: {sign}");
        let chen = b
            .eval(
                "const g = document.querySelector('[data-testid=scene-boxes] [data-node=chen]'); \
                 return g ? [g.dataset.role, g.textContent] : null;",
                vec![],
            )
            .await?;
        let role = chen[0].as_str().unwrap_or_default();
        let said = chen[1].as_str().unwrap_or_default();
        ensure!(role == "paused", "Old Chen is paused at 31 s: {chen}");
        ensure!(said.contains('7') && said.contains('8'), "he believes in 7, the store is at 8: {said}");
        let scene = b
            .eval("return document.querySelector('[data-testid=scene-boxes]').textContent;", vec![])
            .await?
            .as_str()
            .unwrap_or_default()
            .to_owned();
        for word in ["flag", "hourglass", "plaque", "lantern", "wick"] {
            ensure!(!scene.to_lowercase().contains(word), "the diagram says {word}: {scene}");
        }
        // Its own style sheet came with its drawing: its boxes are filled, not black.
        let fill = b
            .eval("return getComputedStyle(document.querySelector('[data-testid=scene-boxes] rect.box')).fill;", vec![])
            .await?;
        ensure!(fill.as_str().is_some_and(|f| f != "rgb(0, 0, 0)" && f != "none"), "a styled box: {fill}");
        Ok(())
    })
    .await
}

/// harbor-no-fencing at 62 s as boxes and arrows: fencing is off, and the resource's box says a
/// stale write was accepted (7 after 8), which the oracle found.
#[tokio::test]
async fn a_stale_write_accepted_is_shown_in_the_resources_box() -> Result<()> {
    with_browser("boxes-stale", SECS(90), async |b| {
        b.open("?scenario=harbor-no-fencing&fable=boxes&t=62000").await?;
        wait_shown(b, "scene-boxes").await?;
        let resource = b.wait_exists("boxes-resource", SECS(10)).await?;
        ensure!(resource.attr("data-state") == Some("off"), "fencing is off: {resource:?}");
        let outcome = b.wait_exists("boxes-outcome", SECS(10)).await?;
        ensure!(outcome.attr("data-state") == Some("collided"), "the collision is shown: {outcome:?}");
        let text = b.text_of("boxes-resource").await?;
        ensure!(text.contains('7') && text.contains('8'), "7 accepted after 8: {text}");
        Ok(())
    })
    .await
}

/// The landing card offers every telling, this one too, with its own words; its story offer
/// plays its scenario told as boxes and arrows; the fable picker then switches back to the
/// harbor without restarting the run.
#[tokio::test]
async fn the_landing_card_and_the_picker_offer_it() -> Result<()> {
    with_browser("boxes-landing", SECS(120), async |b| {
        b.open("").await?;
        b.wait_exists("landing", SECS(20)).await?;
        let offers = b.count("[data-testid=landing] .landing-fable").await?;
        ensure!(offers == 3, "three tellings on the landing card: {offers}");
        let label = b.text_of("landing-boxes-story").await?;
        ensure!(!label.trim().is_empty(), "the offer has words before its telling is shown");
        b.click("landing-boxes-story").await?;
        wait_shown(b, "scene-boxes").await?;
        let url = b.eval("return location.search;", vec![]).await?;
        ensure!(url.as_str().is_some_and(|u| u.contains("fable=boxes")), "the address says so: {url}");
        b.wait_for(
            "sim-time",
            |el| el.attr("data-ms").and_then(|m| m.parse::<u64>().ok()).is_some_and(|m| m > 2_000),
            SECS(30),
        )
        .await
        .context("the story plays")?;
        b.click("play-toggle").await?;
        let before: u64 = b.attr_of("sim-time", "data-ms").await?.and_then(|m| m.parse().ok()).unwrap_or_default();
        b.reveal("fable-picker").await?;
        b.client()
            .find(fantoccini::Locator::Css(&leaselab_browser_tests::testid_selector("fable-picker")))
            .await?
            .select_by_value("harbor")
            .await?;
        wait_shown(b, "scene-harbor").await?;
        ensure!(!shown(b, "scene-boxes").await?, "the diagram is hidden again");
        let after: u64 = b.attr_of("sim-time", "data-ms").await?.and_then(|m| m.parse().ok()).unwrap_or_default();
        ensure!(after >= before && before > 0, "the run went on untouched: {before} → {after}");
        Ok(())
    })
    .await
}
