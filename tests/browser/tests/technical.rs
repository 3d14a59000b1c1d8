//! The technical view, the resource table and the violations panel (issue 3): what they show at
//! the end of the harbor scenarios, the picker and `&view=`, the highlight a violation casts on
//! the scene, and a narrow window. Every test fails on a console error.

use anyhow::{ensure, Context, Result};
use leaselab_browser_tests::{screenshot_dir, with_browser, Browser, ElementState};
use serde_json::json;
use std::time::Duration;

const SECS: fn(u64) -> Duration = Duration::from_secs;
/// `until_ms` of both harbor scenarios.
const HARBOR_END_MS: u64 = 90_000;

/// The virtual time shown by `[data-testid=sim-time]` (its `data-ms`).
fn sim_ms(el: &ElementState) -> Option<u64> {
    el.attr("data-ms").and_then(|ms| ms.trim().parse().ok())
}

/// Opens `query` and waits until the run has reached its end.
async fn play_to_the_end(b: &Browser, query: &str) -> Result<()> {
    b.open(query).await?;
    b.wait_exists("scene-harbor", SECS(30)).await?;
    b.wait_for("sim-time", |el| sim_ms(el).is_some_and(|ms| ms >= HARBOR_END_MS), SECS(60))
        .await
        .with_context(|| format!("{query} did not reach {HARBOR_END_MS} ms"))?;
    // The last frame's publish is synchronous with the clock; give the DOM one more tick.
    tokio::time::sleep(Duration::from_millis(300)).await;
    Ok(())
}

/// Chooses `value` in the `<select>` with `testid`.
async fn choose(b: &Browser, testid: &str, value: &str) -> Result<()> {
    // In the side panel's technical tab: shown first, as a user would.
    b.reveal(testid).await?;
    b.client()
        .find(fantoccini::Locator::Css(&format!("[data-testid=\"{testid}\"]")))
        .await?
        .select_by_value(value)
        .await
        .with_context(|| format!("{testid} offers {value}"))?;
    Ok(())
}

/// The testids (or tag and class) of every element the scene and the crew light up.
async fn lit(b: &Browser) -> Result<Vec<String>> {
    let v = b
        .eval(
            "return Array.from(document.querySelectorAll('[data-highlight=\"true\"]')).map(e => \
             e.dataset.testid || (e.tagName.toLowerCase() + '.' + (e.getAttribute('class') || '')));",
            vec![],
        )
        .await?;
    Ok(v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect()).unwrap_or_default())
}

/// Seed `000` without the verifier: Chen's 7 is obeyed after Lin's 8. The panel lists the
/// oracle's stale write accepted; pointing at it or focusing it lights up Chen (card and
/// flag-bearer) and the verifier and boat, and nothing of Lin's; the sentence follows the
/// language.
#[tokio::test]
async fn harbor_without_fencing_lists_the_stale_write_and_lights_up_who_did_it() -> Result<()> {
    with_browser("tech-violations", SECS(120), async |b| {
        play_to_the_end(b, "?scenario=harbor-no-fencing&speed=64&autoplay=1").await?;
        let stale = "[data-testid=\"violations-panel\"] [data-testid=\"violation\"][data-kind=\"stale_write_accepted\"]";
        ensure!(b.count(stale).await? >= 1, "no stale_write_accepted row: {}", b.text_of("violations-panel").await?);
        ensure!(b.count("[data-testid=\"violations-empty\"]").await? == 0, "the empty state is shown too");
        let text = b
            .eval(&format!("return document.querySelector('{}').innerText;", stale.replace('\'', "\\'")), vec![])
            .await?;
        let text = text.as_str().unwrap_or_default().to_owned();
        ensure!(
            text.contains("Old Chen") && text.contains("token 7") && text.contains("token 8"),
            "the sentence names the writer and both tokens: {text}"
        );
        ensure!(b.count(&format!("{stale}[tabindex=\"0\"]")).await? >= 1, "rows are keyboard-focusable");
        ensure!(lit(b).await?.is_empty(), "nothing is lit before a violation is chosen");

        // Keyboard: focus the row.
        b.reveal("violations-panel").await?;
        b.eval(&format!("document.querySelector('{}').focus();", stale.replace('\'', "\\'")), vec![]).await?;
        b.wait_until_js(
            "Chen's card lit after focusing the violation",
            "return document.querySelector('[data-testid=\"card-chen\"]').dataset.highlight === 'true';",
            SECS(5),
        )
        .await?;
        let on = lit(b).await?;
        ensure!(on.iter().any(|e| e == "card-chen"), "Chen's card: {on:?}");
        ensure!(on.iter().any(|e| e.starts_with("g.bearer")), "Chen's flag-bearer: {on:?}");
        ensure!(on.iter().any(|e| e == "verifier"), "the verifier: {on:?}");
        ensure!(on.iter().any(|e| e == "boat"), "the boat: {on:?}");
        ensure!(!on.iter().any(|e| e == "card-lin"), "Lin wrote nothing stale: {on:?}");
        ensure!(on.iter().filter(|e| e.starts_with("g.bearer")).count() == 1, "one flag-bearer: {on:?}");
        let shot = screenshot_dir().join("tech-violation-highlight.png");
        b.eval(
            "document.querySelector('[data-testid=\"scene-harbor\"]').scrollIntoView({block: 'start'});",
            vec![],
        )
        .await?;
        b.screenshot(&shot).await?;
        println!("screenshot: {}", shot.display());
        b.eval(&format!("document.querySelector('{}').blur();", stale.replace('\'', "\\'")), vec![]).await?;
        b.wait_until_js(
            "the highlight goes out with the focus",
            "return document.querySelectorAll('[data-highlight=\"true\"]').length === 0;",
            SECS(5),
        )
        .await?;

        // Pointer: a click moves the pointer onto the row (and focuses it).
        b.client().find(fantoccini::Locator::Css(stale)).await?.click().await?;
        b.wait_until_js(
            "the verifier lit under the pointer",
            "return document.querySelector('g.verifier').dataset.highlight === 'true';",
            SECS(5),
        )
        .await?;

        // The sentence follows the language.
        b.click("lang-toggle").await?;
        b.wait_until_js(
            "the violation told in Chinese",
            &format!(
                "const r = document.querySelector('{}'); return !!r && r.innerText.includes('老陈') && r.innerText.includes('令牌 7');",
                stale.replace('\'', "\\'")
            ),
            SECS(10),
        )
        .await?;
        b.assert_no_console_errors().await
    })
    .await
}

/// Seed `000` with the verifier: the stale 7 is refused, so the oracle finds nothing, and the
/// panel says so.
#[tokio::test]
async fn harbor_zombie_shows_no_violations() -> Result<()> {
    with_browser("tech-no-violations", SECS(120), async |b| {
        play_to_the_end(b, "?scenario=harbor-zombie&speed=64&autoplay=1").await?;
        let empty = b.wait_exists("violations-empty", SECS(5)).await?;
        // The run has ended, so the panel speaks of the whole run.
        ensure!(empty.text.contains("No violations in this run"), "empty state: {:?}", empty.text);
        ensure!(b.count("[data-testid=\"violation\"]").await? == 0, "a violation row without a violation");
        b.assert_no_console_errors().await
    })
    .await
}

/// Each system's view names the lease's holder: `holderIdentity` (Kubernetes), the lock value
/// (Redis), the key's value (etcd). At the end of harbor-zombie the holder is Lin (seed `000`),
/// with token 8 as etcd's CreateRevision.
#[tokio::test]
async fn every_technical_view_shows_the_holders_identity() -> Result<()> {
    with_browser("tech-views", SECS(120), async |b| {
        play_to_the_end(b, "?scenario=harbor-zombie&speed=64&autoplay=1").await?;
        // The identity as the existing panel shows it: `lin (Lin)`.
        let holder = b.text_of("lease-holder").await?;
        let id = holder.split(" (").next().unwrap_or_default().trim().to_owned();
        ensure!(id == "lin", "Lin holds the lease at the end of the fable: {holder:?}");
        b.open_tab("technical").await?;
        for (view, expect) in [
            ("k8s", format!("holderIdentity: {id}")),
            ("redis", format!("\"{id}:8\"")),
            ("etcd", format!("\"Value\" : \"{id}\"")),
        ] {
            choose(b, "technical-view-picker", view).await?;
            let seen = b
                .wait_for("technical-view", |el| el.text.contains(&expect), SECS(5))
                .await
                .with_context(|| format!("the {view} view shows {expect}"))?;
            if view == "etcd" {
                ensure!(seen.text.contains("\"CreateRevision\" : 8"), "etcd's revision is the token: {}", seen.text);
            }
            if view == "k8s" {
                ensure!(seen.text.contains("fencing token: 8"), "the token beside the Lease: {}", seen.text);
            }
        }
        b.assert_no_console_errors().await
    })
    .await
}

/// `&view=` picks the first view; an unknown value falls back to Kubernetes with a warning. The
/// panel is only built once its tab is shown.
#[tokio::test]
async fn the_view_comes_from_the_address() -> Result<()> {
    with_browser("tech-view-url", SECS(90), async |b| {
        b.open("?scenario=harbor-zombie&view=redis").await?;
        b.wait_exists("caption", SECS(30)).await?;
        // Its code comes, and the panel is built, when the tab is first shown (issue 14).
        ensure!(b.count("[data-testid=\"technical-view\"]").await? == 0, "built before its tab was shown");
        b.open_tab("technical").await?;
        let picker = b.wait_exists("technical-view-picker", SECS(30)).await?;
        ensure!(picker.value.as_deref() == Some("redis"), "picker: {:?}", picker.value);
        ensure!(b.text_of("technical-view").await?.contains("GET lock:leader"), "the Redis transcript");
        ensure!(b.count("[data-testid=\"url-warning\"]").await? == 0, "a valid view is no issue");

        // Given twice, a parameter's first value is used, and the warning says so (issue 13).
        b.open("?scenario=harbor-zombie&view=zookeeper&t=5000&view=etcd&t=9000").await?;
        let warning = b.wait_exists("url-warning", SECS(30)).await?;
        ensure!(warning.text.contains("zookeeper"), "the warning names the value: {:?}", warning.text);
        for (name, first) in [("view", "zookeeper"), ("t", "5000")] {
            let says = format!("“{name}” is given more than once; only the first is used: “{name}={first}”");
            ensure!(warning.text.contains(&says), "the warning names the repeated {name}: {:?}", warning.text);
        }
        b.wait_for("sim-time", |el| el.attr("data-ms") == Some("5000"), SECS(10)).await.context("t: the first")?;
        b.open_tab("technical").await?;
        let picker = b.wait_exists("technical-view-picker", SECS(5)).await?;
        ensure!(picker.value.as_deref() == Some("k8s"), "falls back to k8s: {:?}", picker.value);
        ensure!(b.text_of("technical-view").await?.contains("kubectl get lease"), "the Kubernetes transcript");
        b.assert_no_console_errors().await
    })
    .await
}

/// The resource table's high-water mark is the number on the verifier's sign ("only 8 counts").
#[tokio::test]
async fn the_resource_tables_mark_is_the_verifiers_number() -> Result<()> {
    with_browser("tech-resource", SECS(120), async |b| {
        play_to_the_end(b, "?scenario=harbor-zombie&speed=64&autoplay=1").await?;
        let sign = b.text_of("verifier-sign").await?;
        let digits: String = sign.chars().filter(char::is_ascii_digit).collect();
        ensure!(!digits.is_empty(), "the sign shows a number: {sign:?}");
        b.open_tab("technical").await?;
        let mark = b.text_of("resource-table-high-water").await?;
        ensure!(mark.trim() == digits, "resource table says {mark:?}, the sign {sign:?}");
        ensure!(digits == "8", "Lin's 8 is the mark at the end (seed 000): {sign:?}");
        // The table lists Chen's voided 7 among the last writes judged, unless Lin's later writes
        // pushed it out; either way every row is a judged write with a known outcome.
        let rows = b.count("[data-testid=\"resource-write\"]").await?;
        ensure!((1..=12).contains(&rows), "{rows} rows");
        let outcomes = b
            .eval(
                "return Array.from(document.querySelectorAll('[data-testid=\"resource-write\"]')).map(r => r.dataset.outcome);",
                vec![],
            )
            .await?;
        ensure!(
            outcomes.as_array().is_some_and(|a| a
                .iter()
                .all(|o| matches!(o.as_str(), Some("accepted" | "rejected_stale" | "rejected_invalid" | "duplicate")))),
            "outcomes: {outcomes}"
        );
        b.assert_no_console_errors().await
    })
    .await
}

/// On a 420 px window the new panels fit the width and stay readable.
#[tokio::test]
async fn the_panels_fit_a_narrow_window() -> Result<()> {
    with_browser("tech-narrow", SECS(120), async |b| {
        b.client().set_window_size(420, 900).await?;
        play_to_the_end(b, "?scenario=harbor-no-fencing&speed=64&autoplay=1&view=etcd").await?;
        // The technical panel is built when its tab is first shown.
        b.open_tab("technical").await?;
        for testid in ["violations-panel", "technical-view", "resource-table"] {
            // Each in its tab of the side panel.
            b.reveal(testid).await?;
            let fits = b
                .eval(
                    "const r = document.querySelector('[data-testid=\"' + arguments[0] + '\"]').getBoundingClientRect(); \
                     return r.left >= 0 && r.right <= document.documentElement.clientWidth + 1 && r.width > 300;",
                    vec![json!(testid)],
                )
                .await?;
            ensure!(fits.as_bool() == Some(true), "{testid} does not fit a 420 px window");
        }
        b.eval(
            "document.querySelector('[data-testid=\"violations-panel\"]').scrollIntoView({block: 'start'});",
            vec![],
        )
        .await?;
        let shot = screenshot_dir().join("tech-narrow.png");
        b.screenshot(&shot).await?;
        println!("screenshot: {}", shot.display());
        b.assert_no_console_errors().await
    })
    .await
}
