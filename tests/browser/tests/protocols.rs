//! The real protocols in the browser (issue 3): a store clock stepped from the page expires the
//! lantern's lock at once; a node whose clock runs fast says so on its card; a lock deleted by a
//! non-owner lights up the releaser in the lantern scene. Every test fails on a console error.

use anyhow::{ensure, Context, Result};
use leaselab_browser_tests::{with_browser, Browser, ElementState};
use std::time::Duration;

const SECS: fn(u64) -> Duration = Duration::from_secs;

fn sim_ms(el: &ElementState) -> Option<u64> {
    el.attr("data-ms").and_then(|ms| ms.trim().parse().ok())
}

async fn wait_until(b: &Browser, ms: u64) -> Result<()> {
    b.wait_for("sim-time", |el| sim_ms(el).is_some_and(|t| t >= ms), SECS(60))
        .await
        .with_context(|| format!("the run did not reach {ms} ms"))?;
    Ok(())
}

/// The seconds a panel cell shows (`"12.3 s"`, `"12.3 秒"`).
async fn panel_seconds(b: &Browser, testid: &str) -> Result<f64> {
    let text = b.text_of(testid).await?;
    let number: String = text.chars().take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '-').collect();
    number.parse().with_context(|| format!("{testid} shows seconds: {text}"))
}

/// valkey-io/valkey#2651 from the page: A-Xiu holds the lantern with a 9 s return hour; the
/// store's clock is stepped a minute forward, the tablet counts as free at once, and Smith Wang
/// latches the clasp with wick No. 2 long before the 9 s would have run out.
#[tokio::test]
async fn stepping_the_store_clock_expires_the_lock_at_once() -> Result<()> {
    with_browser("store-clock-step", SECS(120), async |b| {
        b.open("?scenario=lantern-race&speed=1&autoplay=1").await?;
        b.wait_exists("scene-lantern", SECS(30)).await?;
        wait_until(b, 1_000).await?;
        b.click("play-toggle").await?;
        ensure!(b.text_of("tablet-token").await?.contains('1'), "wick No. 1 is out: {}", b.text_of("tablet-token").await?);
        let before = panel_seconds(b, "store-clock").await?;
        b.click("store-clock-jump").await?;
        b.wait_until_js(
            "the store's clock reads a minute more",
            &format!(
                "const t = document.querySelector('[data-testid=\"store-clock\"]').innerText; return parseFloat(t) >= {};",
                before + 59.0
            ),
            SECS(10),
        )
        .await?;
        b.click("play-toggle").await?;
        // The next retry comes within one retry period (2 s) plus latency.
        wait_until(b, 4_500).await?;
        b.click("play-toggle").await?;
        let log = b.log_text().await?;
        ensure!(log.contains("wick No. 2") || log.contains("token 2"), "a new wick was lent: {log}");
        let token = b.text_of("tablet-token").await?;
        ensure!(token.contains('2'), "the tablet shows wick No. 2 well before 9 s: {token}");
        b.assert_no_console_errors().await
    })
    .await
}

/// kubernetes/client-go#448: in `observer-rate-skew` Lin's clock runs at 3×; the card says so,
/// and while Lin waits it says when Lin will judge the lease expired on that clock.
#[tokio::test]
async fn a_fast_clock_and_an_observers_wait_are_shown_on_the_card() -> Result<()> {
    with_browser("observer-card", SECS(120), async |b| {
        b.open("?scenario=observer-rate-skew&speed=2&autoplay=1").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        wait_until(b, 6_000).await?;
        b.click("play-toggle").await?;
        let lin = b.text_of("card-lin").await?;
        ensure!(lin.contains("runs at 3×"), "Lin's rate is shown: {lin}");
        ensure!(lin.contains("own clock"), "Lin's own reading is shown: {lin}");
        ensure!(lin.contains("observedTime + leaseDuration"), "Lin's wait is shown: {lin}");
        let chen = b.text_of("card-chen").await?;
        ensure!(!chen.contains("own clock"), "Chen's clock is true time: {chen}");
        ensure!(b.text_of("lease-expiry").await?.contains("each candidate"), "the panel names who judges expiry");
        b.assert_no_console_errors().await
    })
    .await
}

/// abelaska/jedis-lock#2 told as the lantern: the plain DEL's violation lights up the borrower
/// who released (A-Xiu) and the one whose lock it deleted (Smith Wang), not the granary, which
/// accepted nothing wrong. A hostile URL's direction controls are not echoed.
#[tokio::test]
async fn a_deleted_lock_lights_up_the_releaser_in_the_lantern() -> Result<()> {
    with_browser("lantern-deleted-lock", SECS(120), async |b| {
        b.open("?scenario=lock-late-del&speed=64&autoplay=1").await?;
        b.wait_exists("scene-lantern", SECS(30)).await?;
        wait_until(b, 16_000).await?;
        let row = "[data-testid=\"violation\"][data-kind=\"lock_deleted_by_non_owner\"]";
        ensure!(b.count(row).await? >= 1, "the panel lists the deleted lock: {}", b.text_of("violations-panel").await?);
        // The oldest row is A-Xiu's release (the panel lists newest first), in the side panel's
        // violations tab.
        b.reveal("violations-panel").await?;
        b.eval(
            &format!("const r = document.querySelectorAll('{}'); r[r.length - 1].focus();", row.replace('\'', "\\'")),
            vec![],
        )
        .await?;
        b.wait_until_js(
            "A-Xiu lit in the lantern",
            "return document.querySelector('[data-testid=\"borrower-a\"]').dataset.highlight === 'true';",
            SECS(10),
        )
        .await?;
        b.wait_until_js(
            "Smith Wang, whose lock was deleted, lit too",
            "return document.querySelector('[data-testid=\"borrower-b\"]').dataset.highlight === 'true';",
            SECS(10),
        )
        .await?;
        let granary_lit = b
            .eval("return document.querySelector('.lantern-scene .granary').dataset.highlight === 'true';", vec![])
            .await?;
        ensure!(granary_lit.as_bool() == Some(false), "the granary accepted nothing wrong");
        // U+202E (right-to-left override) in a bad value must not reverse the page's own words.
        b.open("?scenario=x%E2%80%AEemoh-robrah%E2%80%AC&lang=en").await?;
        b.wait_exists("url-warning", SECS(30)).await?;
        let warning = b.text_of("url-warning").await?;
        ensure!(
            !warning.contains('\u{202e}') && !warning.contains('\u{202c}'),
            "direction controls echoed: {warning:?}"
        );
        ensure!(warning.contains("xemoh-robrah"), "the value is still shown: {warning}");
        b.assert_no_console_errors().await
    })
    .await
}
