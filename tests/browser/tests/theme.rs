//! The colour themes (issue 4): `&theme=dark` darkens the page and lightens its text, the
//! header's button cycles auto → light → dark and the choice is kept for the next visit, a bad
//! `theme=` is reported, and the share link carries a theme that is not the system's.

use anyhow::{ensure, Context, Result};
use leaselab_browser_tests::{with_browser, Browser};
use serde_json::json;
use std::time::Duration;

const SECS: fn(u64) -> Duration = Duration::from_secs;

/// WCAG relative luminance (0 black ..= 1 white) of a computed `rgb(r, g, b)` / `rgba(…)` colour.
fn luminance(css: &str) -> Option<f64> {
    let inner = css.trim().split_once('(')?.1.strip_suffix(')')?;
    let c: Vec<f64> = inner.split(',').take(3).map(|v| v.trim().parse::<f64>()).collect::<Result<_, _>>().ok()?;
    let lin = |v: f64| {
        let v = v / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    (c.len() == 3).then(|| 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]))
}

/// The luminance of a computed colour `property` of the first element matching `css`.
async fn computed(b: &Browser, css: &str, property: &str) -> Result<f64> {
    let v = b
        .eval(
            "const el = document.querySelector(arguments[0]); return el && getComputedStyle(el)[arguments[1]];",
            vec![json!(css), json!(property)],
        )
        .await?;
    let text = v.as_str().with_context(|| format!("no {property} for {css}"))?;
    luminance(text).with_context(|| format!("{css} {property}: {text}"))
}

async fn html_theme(b: &Browser) -> Result<String> {
    let v = b.eval("return document.documentElement.getAttribute('data-theme');", vec![]).await?;
    Ok(v.as_str().unwrap_or_default().to_owned())
}

/// Whether the page, its panels, the diagram and the text are drawn dark-on-light (`false`) or
/// light-on-dark (`true`); fails if they disagree.
async fn page_is_dark(b: &Browser) -> Result<bool> {
    let page = computed(b, "html", "backgroundColor").await?;
    let panel = computed(b, ".top", "backgroundColor").await?;
    let diagram = computed(b, "[data-testid=\"space-time\"]", "backgroundColor").await?;
    let text = computed(b, "body", "color").await?;
    let title = computed(b, "[data-testid=\"scenario-title\"]", "color").await?;
    let dark = page < 0.05 && panel < 0.05 && diagram < 0.05 && text > 0.6 && title > 0.4;
    let light = page > 0.5 && panel > 0.7 && diagram > 0.7 && text < 0.05 && title < 0.1;
    ensure!(
        dark || light,
        "mixed themes: page {page:.3}, panel {panel:.3}, diagram {diagram:.3}, text {text:.3}, title {title:.3}"
    );
    Ok(dark)
}

async fn system_is_dark(b: &Browser) -> Result<bool> {
    Ok(b.eval("return matchMedia('(prefers-color-scheme: dark)').matches;", vec![]).await?.as_bool() == Some(true))
}

async fn share_link(b: &Browser) -> Result<String> {
    b.click("share").await?;
    // The link is written by a chunk fetched on first use; the field appears with it.
    b.wait_for("share-link", |e| e.value.as_deref().is_some_and(|v| !v.is_empty()), SECS(10)).await?;
    let v = b.eval("return document.querySelector('[data-testid=\"share-link\"]').value;", vec![]).await?;
    v.as_str().map(str::to_owned).context("the share link")
}

#[tokio::test]
async fn the_dark_theme_from_the_address_and_the_button() -> Result<()> {
    with_browser("theme-dark", SECS(120), async |b| {
        b.open("?scenario=harbor-zombie&theme=dark").await?;
        b.wait_exists("space-time", SECS(30)).await?;
        ensure!(html_theme(b).await? == "dark", "data-theme: {}", html_theme(b).await?);
        ensure!(page_is_dark(b).await?, "theme=dark draws light text on a dark page");
        ensure!(b.count("[data-testid=\"url-warning\"]").await? == 0, "a valid theme is no issue");

        // The button: dark → auto (the system's) → light → dark.
        let system = system_is_dark(b).await?;
        b.click("theme-toggle").await?;
        ensure!(html_theme(b).await? == "auto", "after dark comes auto");
        ensure!(page_is_dark(b).await? == system, "auto follows the system (dark: {system})");
        b.click("theme-toggle").await?;
        ensure!(html_theme(b).await? == "light", "after auto comes light");
        ensure!(!page_is_dark(b).await?, "the light theme is light");
        ensure!(b.attr_of("theme-toggle", "data-theme").await?.as_deref() == Some("light"), "the button shows it");
        b.click("theme-toggle").await?;
        ensure!(html_theme(b).await? == "dark" && page_is_dark(b).await?, "and dark again");

        // Kept for the next visit when the address does not say.
        b.open("?scenario=harbor-zombie").await?;
        b.wait_exists("space-time", SECS(30)).await?;
        ensure!(html_theme(b).await? == "dark", "the kept theme: {}", html_theme(b).await?);
        b.assert_no_console_errors().await
    })
    .await
}

#[tokio::test]
async fn a_bad_theme_is_reported_and_the_share_link_carries_a_chosen_one() -> Result<()> {
    with_browser("theme-link", SECS(120), async |b| {
        b.open("?scenario=harbor-zombie&theme=night").await?;
        let warning = b.wait_exists("url-warning", SECS(30)).await?;
        ensure!(warning.text.contains("night"), "the warning names the value: {:?}", warning.text);
        ensure!(html_theme(b).await? == "auto", "a bad theme follows the system");
        ensure!(page_is_dark(b).await? == system_is_dark(b).await?, "as the system says");
        let link = share_link(b).await?;
        ensure!(!link.contains("theme="), "the system's theme is not written into the link: {link}");

        b.click("theme-toggle").await?;
        ensure!(html_theme(b).await? == "light", "auto → light");
        let link = share_link(b).await?;
        ensure!(link.contains("&theme=light"), "a chosen theme is: {link}");
        b.click("theme-toggle").await?;
        let link = share_link(b).await?;
        ensure!(link.contains("&theme=dark"), "the link follows the button: {link}");

        let query = link.split_once('?').map(|(_, q)| format!("?{q}")).context("a query")?;
        b.open(&query).await?;
        b.wait_exists("space-time", SECS(30)).await?;
        ensure!(html_theme(b).await? == "dark" && page_is_dark(b).await?, "the link opens dark");
        ensure!(b.count("[data-testid=\"url-warning\"]").await? == 0, "a good link warns of nothing");
        b.assert_no_console_errors().await
    })
    .await
}
