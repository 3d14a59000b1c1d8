//! The two scenes drawn from one picture: what a walkthrough found wrong stays fixed. Each moment
//! is opened by its address (`t=`), found from the engine itself, and each test fails on any
//! console error.

use anyhow::{ensure, Context, Result};
use leaselab::engine::{Endpoint, MessageKind, Sim, TraceEvent};
use leaselab_browser_tests::{screenshot_dir, with_browser, Browser};
use std::time::Duration;

const SECS: fn(u64) -> Duration = Duration::from_secs;

/// The whole trace of built-in `id`, played to its end.
fn trace(id: &str) -> Result<Vec<leaselab::engine::TraceEntry>> {
    let scenario = leaselab::scenario::library::get(id).context("a built-in")??;
    let mut sim = Sim::new(scenario.config)?;
    sim.run_to_end();
    Ok(sim.trace().to_vec())
}

/// Opens `query` and waits until the clock stands at `t` ms.
async fn open_at(b: &Browser, query: &str, t: u64) -> Result<()> {
    b.open(query).await?;
    b.wait_for("sim-time", |el| el.attr("data-ms").and_then(|m| m.parse::<u64>().ok()) == Some(t), SECS(30))
        .await
        .with_context(|| format!("{query} stands at {t} ms"))?;
    Ok(())
}

/// The screen rectangles (left, top, right, bottom) of every element `css` finds.
async fn rects(b: &Browser, css: &str) -> Result<Vec<[f64; 4]>> {
    let v = b
        .eval(
            "return [...document.querySelectorAll(arguments[0])].filter(e => !e.closest('[hidden]')).map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; });",
            vec![serde_json::json!(css)],
        )
        .await?;
    Ok(serde_json::from_value(v)?)
}

fn overlap(a: &[f64; 4], b: &[f64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// After the elder wipes the tablet, Smith Wang is still out with the (now dead) lantern: it does
/// not hang on its pillar at the same time.
#[tokio::test]
async fn a_wiped_tablet_leaves_the_lantern_with_its_borrower() -> Result<()> {
    with_browser("scene-wiped-tablet", SECS(90), async |b| {
        open_at(b, "?scenario=lantern-ankle&t=30000", 30_000).await?;
        ensure!(b.attr_of("borrower-wang", "data-state").await?.as_deref() == Some("carrying"));
        ensure!(b.count("[data-testid=\"pillar-lantern\"]").await? == 0, "the lantern is out with Wang");
        b.click("revoke-lease").await?;
        b.wait_for("tablet-holder", |el| el.attr("data-state") == Some("free"), SECS(10)).await?;
        ensure!(b.attr_of("borrower-wang", "data-state").await?.as_deref() == Some("dead-lantern"));
        ensure!(b.count("[data-testid=\"pillar-lantern\"]").await? == 0, "not on its pillar while Wang has it");
        b.assert_no_console_errors().await
    })
    .await
}

/// Three borrowers: every name is written whole, and none over the keeper's name plate.
#[tokio::test]
async fn three_borrowers_names_whole_and_clear_of_the_keeper() -> Result<()> {
    with_browser("scene-three-borrowers", SECS(90), async |b| {
        open_at(b, "?scenario=lock-late-del&t=2000", 2_000).await?;
        let text = b.text_of("scene-lantern").await?;
        for name in ["A-Xiu", "Smith Wang", "Auntie Zhou", "Granary keeper"] {
            ensure!(text.contains(name), "{name} is written whole: {text}");
        }
        ensure!(!text.contains('…'), "no name is cut: {text}");
        let names = rects(b, ".lantern-scene .borrower .name-plate").await?;
        let keeper = rects(b, "[data-testid=\"keeper\"] .name-plate").await?;
        ensure!(names.len() == 3 && keeper.len() == 1, "{names:?} {keeper:?}");
        for n in &names {
            ensure!(!overlap(n, &keeper[0]), "a name over the keeper's: {n:?} {keeper:?}");
        }
        b.assert_no_console_errors().await
    })
    .await
}

/// Slips to the tablet stop beside it: none covers its writing, at any moment of their way.
#[tokio::test]
async fn slips_never_cover_the_tablets_writing() -> Result<()> {
    let trace = trace("lantern-race")?;
    let arrive = trace
        .iter()
        .find_map(|e| match &e.event {
            TraceEvent::MessageSent { kind: MessageKind::AcquireRequest, arrive_ms, .. } => Some(*arrive_ms),
            _ => None,
        })
        .context("an acquire request")?;
    with_browser("scene-slips", SECS(120), async |b| {
        for t in [arrive / 2, arrive.saturating_sub(3), arrive.saturating_sub(1)] {
            open_at(b, &format!("?scenario=lantern-race&t={t}"), t).await?;
            let slips = rects(b, ".lantern-scene [data-testid=\"flight\"]").await?;
            ensure!(!slips.is_empty(), "a slip on its way at {t} ms");
            for css in
                ["[data-testid=\"tablet-holder\"]", "[data-testid=\"tablet-return\"]", "[data-testid=\"tablet-token\"]"]
            {
                for writing in rects(b, css).await? {
                    for s in &slips {
                        ensure!(!overlap(s, &writing), "at {t} ms a slip {s:?} covers {css} {writing:?}");
                    }
                }
            }
        }
        b.assert_no_console_errors().await
    })
    .await
}

/// At 62 s of harbor-no-fencing the boat is on the rocks and flies 7, the number that put it
/// there, though Lin's 8 was obeyed again since; with nobody on duty no name is under the stool.
#[tokio::test]
async fn the_wreck_flies_the_number_that_wrecked_it() -> Result<()> {
    with_browser("scene-wreck", SECS(90), async |b| {
        open_at(b, "?scenario=harbor-no-fencing&t=62000", 62_000).await?;
        ensure!(b.attr_of("boat", "data-state").await?.as_deref() == Some("aground"));
        let flag = b.eval("return document.querySelector('.boat-flag').dataset.token;", vec![]).await?;
        ensure!(flag == "7", "the boat flies {flag}");
        ensure!(b.text_of("resource-value").await?.contains("No. 8"), "the resource's last value is Lin's 8");
        ensure!(b.attr_of("verifier", "data-state").await?.as_deref() == Some("off"));
        ensure!(b.count("[data-testid=\"verifier\"] .verifier-name").await? == 0, "no name under the empty stool");
        let shot = screenshot_dir().join("scene-wreck.png");
        b.screenshot(&shot).await?;
        b.assert_no_console_errors().await
    })
    .await
}

/// The sky follows the words: at the end of the run the log says evening (dawn in the lantern),
/// and the scene is drawn so.
#[tokio::test]
async fn the_sky_follows_the_caption() -> Result<()> {
    with_browser("scene-sky", SECS(90), async |b| {
        open_at(b, "?scenario=harbor-zombie&t=30000", 30_000).await?;
        ensure!(b.attr_of("scene-harbor", "data-sky").await?.as_deref() == Some("day"));
        open_at(b, "?scenario=harbor-zombie&t=90000", 90_000).await?;
        ensure!(b.attr_of("scene-harbor", "data-sky").await?.as_deref() == Some("evening"));
        ensure!(b.text_of("caption").await?.contains("Evening"), "the caption says so");
        open_at(b, "?scenario=harbor-zombie&fable=lantern&t=90000", 90_000).await?;
        ensure!(b.attr_of("scene-lantern", "data-sky").await?.as_deref() == Some("dawn"));
        ensure!(b.text_of("caption").await?.contains("Dawn"), "the caption says so");
        b.assert_no_console_errors().await
    })
    .await
}

/// Every message in flight carries its hooks: who sent it, what it is, the token it carries.
#[tokio::test]
async fn messages_in_flight_carry_their_hooks() -> Result<()> {
    let trace = trace("harbor-zombie")?;
    let (sent, arrive) = trace
        .iter()
        .find_map(|e| match &e.event {
            TraceEvent::MessageSent { kind: MessageKind::Write, from: Endpoint::Node(n), arrive_ms, .. }
                if n == "chen" =>
            {
                Some((e.at_ms, *arrive_ms))
            }
            _ => None,
        })
        .context("Chen's first write")?;
    let t = (sent + arrive) / 2;
    with_browser("scene-flight-hooks", SECS(90), async |b| {
        for fable in ["harbor", "lantern"] {
            open_at(b, &format!("?scenario=harbor-zombie&fable={fable}&t={t}"), t).await?;
            let v = b
                .eval(
                    "const f = [...document.querySelectorAll('[data-testid=\"flight\"][data-kind=\"write\"]')].filter(e => !e.closest('[hidden]')); return f.map(e => [e.dataset.from, e.dataset.token]);",
                    vec![],
                )
                .await?;
            ensure!(v == serde_json::json!([["chen", "7"]]), "{fable} at {t} ms: {v}");
        }
        b.assert_no_console_errors().await
    })
    .await
}

/// observer-full-wait at 60 s: Chen's term ran out 40 s ago on the record though the store never
/// judged it, and nobody has taken it. The plaque, the tablet, the panel and kubectl all say so.
#[tokio::test]
async fn every_view_agrees_the_lease_has_lapsed() -> Result<()> {
    with_browser("scene-lapsed", SECS(90), async |b| {
        open_at(b, "?scenario=observer-full-wait&t=60000", 60_000).await?;
        ensure!(b.attr_of("plaque-holder", "data-lease").await?.as_deref() == Some("lapsed"));
        ensure!(b.text_of("glass-label").await?.contains("sand ran out"));
        ensure!(b.text_of("lease-remaining").await?.contains("expired"));
        b.open_tab("technical").await?;
        ensure!(b.text_of("technical-view").await?.contains("the lease has expired"));
        open_at(b, "?scenario=observer-full-wait&fable=lantern&t=60000", 60_000).await?;
        let tablet = b.element("tablet-holder").await?.context("the tablet")?;
        ensure!(
            tablet.attr("data-state") == Some("hour-passed") && tablet.attr("data-lease") == Some("lapsed"),
            "{tablet:?}"
        );
        ensure!(b.text_of("lease-holder").await?.starts_with("a-xiu"), "the lantern's handle, not chen");
        b.open_tab("technical").await?;
        ensure!(
            !b.text_of("technical-view").await?.contains("chen"),
            "the lantern's technical view names no harbor id"
        );
        b.assert_no_console_errors().await
    })
    .await
}

/// two-resources after Chen's late round (61 s): the marks line over the gate's sign says what
/// each resource has seen, db 8 and blobs still 7 (a stale token passes until the resource has
/// seen a newer one, seed 002), and it is clear of the sign's own words in both fables and at a
/// phone's width.
#[tokio::test]
async fn each_resource_shows_its_own_mark_clear_of_the_sign() -> Result<()> {
    with_browser("scene-two-resources", SECS(120), async |b| {
        for (query, sign) in [
            ("?scenario=two-resources&t=61000", "verifier-sign"),
            ("?scenario=two-resources&fable=lantern&t=61000", "keeper-sign"),
        ] {
            for (w, h, mobile) in [(1280, 720, false), (390, 844, true)] {
                b.viewport(w, h, mobile).await?;
                open_at(b, query, 61_000).await?;
                let marks = b.text_of("resource-marks").await?;
                ensure!(marks.contains("db 8") && marks.contains("blobs 7"), "{query}: {marks}");
                let line = rects(b, "[data-testid=\"resource-marks\"]").await?;
                let words = rects(b, &format!("[data-testid=\"{sign}\"]")).await?;
                ensure!(line.len() == 1 && words.len() == 1, "{query}: {line:?} {words:?}");
                ensure!(!overlap(&line[0], &words[0]), "{query} at {w}×{h}: the marks over the sign's words");
            }
        }
        b.assert_no_console_errors().await
    })
    .await
}
