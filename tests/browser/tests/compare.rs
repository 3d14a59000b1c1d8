//! Comparing runs, importing and exporting scenarios in the browser (issue 4). What the page
//! shows is checked against the engine run natively on the same scenario: the first difference
//! of `harbor-zombie` with fencing on and off, an imported file's run, and an exported file's
//! trace hash and report.

use anyhow::{ensure, Context, Result};
use fantoccini::Locator;
use leaselab::engine::compare::{compare, tally, Setting};
use leaselab::engine::Sim;
use leaselab::scenario::{self, library, Report};
use leaselab_browser_tests::{screenshot_dir, with_browser, Browser, ElementState};
use std::time::Duration;

const SECS: fn(u64) -> Duration = Duration::from_secs;

fn ms(el: &ElementState) -> Option<u64> {
    el.attr("data-ms").and_then(|ms| ms.trim().parse().ok())
}

async fn wait_at(b: &Browser, what: &str, pred: impl Fn(u64) -> bool) -> Result<()> {
    b.wait_for("sim-time", |el| ms(el).is_some_and(&pred), SECS(60)).await.with_context(|| what.to_owned())?;
    Ok(())
}

/// Sets a `<select>` or range input as a learner would.
async fn set(b: &Browser, testid: &str, value: &str, event: &str) -> Result<()> {
    b.eval(
        "const s = document.querySelector('[data-testid=\"' + arguments[0] + '\"]'); s.value = arguments[1]; \
         s.dispatchEvent(new Event(arguments[2], { bubbles: true }));",
        vec![testid.into(), value.into(), event.into()],
    )
    .await?;
    Ok(())
}

async fn hash(b: &Browser) -> Result<String> {
    b.attr_of("sim-time", "data-hash").await?.context("the trace hash")
}

fn builtin_json(id: &str) -> &'static str {
    library::FILES.iter().find(|(i, _)| *i == id).map(|(_, j)| *j).expect("a built-in")
}

/// Seed 000 with fencing on and off: the page names the engine's first difference (Chen's 7,
/// refused here and accepted there), marks it on both diagrams, and seeks there.
#[tokio::test]
async fn compare_fencing_on_and_off_shows_the_first_difference() -> Result<()> {
    let s = scenario::parse(builtin_json("harbor-zombie"))?;
    let (this, other, d) = compare(&s.config, &[], Setting::Fencing)?;
    let d = d.context("the runs part")?;
    // Verdicts so far at that moment, in each run: accepted, refused, violations.
    let upto = |sim: &Sim| tally(&sim.trace()[..sim.trace().partition_point(|e| e.at_ms <= d.at_ms)]);
    let ([a, r, v], [a2, r2, v2]) = (upto(&this), upto(&other));
    assert!(r == 1 && v == 0 && r2 == 0 && v2 > 0, "seed 000: the 7 refused here, a violation there");
    let counts = format!("this run: accepted {a}, refused {r}, violations {v} · the other run: accepted {a2}, refused {r2}, violations {v2}");
    with_browser("compare", SECS(120), async |b| {
        b.open("?scenario=harbor-zombie&speed=64").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        set(b, "compare-setting", "fencing", "change").await?;
        let first = b.wait_for("compare-first-diff", |el| ms(el).is_some(), SECS(10)).await?;
        ensure!(
            ms(&first) == Some(d.at_ms),
            "the page's first difference {:?} is the engine's {}",
            ms(&first),
            d.at_ms
        );
        ensure!(first.text.contains('7'), "it names Chen's 7: {}", first.text);
        ensure!(b.count("[data-testid=\"other-diagram\"]").await? == 1, "the other run's diagram is shown");
        b.eval("document.querySelector('[data-testid=\"space-time\"]').scrollIntoView();", vec![]).await?;
        set(b, "scrubber", "75000", "input").await?;
        wait_at(b, "at 75 s", |t| t == 75_000).await?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        b.screenshot(&screenshot_dir().join("compare-75s.png")).await?;
        b.click("compare-seek").await?;
        wait_at(b, "Go there moved the run to the first difference", |t| t == d.at_ms).await?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        ensure!(
            b.attr_of("diagram-diverge", "data-ms").await?.and_then(|m| m.parse().ok()) == Some(d.at_ms),
            "the marker on this run's diagram"
        );
        ensure!(b.count("[data-testid=\"other-diagram\"] .diverge").await? == 1, "and on the other run's");
        // At that moment: the 7 refused here, accepted (a violation) in the other run.
        let summary = b.text_of("compare-summary").await?;
        ensure!(summary.ends_with(&counts), "“{summary}” ends with “{counts}”");
        b.eval("document.querySelector('[data-testid=\"space-time\"]').scrollIntoView();", vec![]).await?;
        b.screenshot(&screenshot_dir().join("compare.png")).await?;
        b.assert_no_console_errors().await
    })
    .await
}

/// The page's address's query, parameter by parameter (`location.search`).
async fn address(b: &Browser) -> Result<std::collections::BTreeMap<String, String>> {
    let search = b.eval("return location.search;", vec![]).await?;
    let search = search.as_str().context("location.search")?.trim_start_matches('?').to_owned();
    Ok(url::form_urlencoded::parse(search.as_bytes()).into_owned().collect())
}

/// Waits until the address names built-in `id` (it is rewritten once the scenario's file is
/// here and its run starts), then returns it.
async fn address_names(b: &Browser, id: &str) -> Result<std::collections::BTreeMap<String, String>> {
    let script = format!("return new URLSearchParams(location.search).get('scenario') === {};", serde_json::json!(id));
    b.wait_until_js(&format!("the address names {id}"), &script, SECS(10)).await?;
    address(b).await
}

/// The address names the built-in playing, however it was chosen (the picker, a number key) and
/// keeps the page's other settings, so a reload shows the same run; a share link's moment goes
/// with the run it showed.
#[tokio::test]
async fn the_address_follows_the_scenario_chosen() -> Result<()> {
    let third = library::MENU[2].id;
    ensure!(!["harbor-zombie", "lantern-ankle"].contains(&third), "the number key picks a third built-in");
    with_browser("address", SECS(120), async |b| {
        b.open("?scenario=harbor-zombie&speed=4&lang=en&t=30000").await?;
        wait_at(b, "the link's moment", |t| t == 30_000).await?;
        b.choose_scenario("lantern-ankle").await?;
        let query = address_names(b, "lantern-ankle").await?;
        ensure!(query.get("speed").map(String::as_str) == Some("4"), "speed stays: {query:?}");
        ensure!(query.get("lang").map(String::as_str) == Some("en"), "lang stays: {query:?}");
        ensure!(!query.contains_key("t"), "the old run's moment goes: {query:?}");
        b.eval("document.activeElement && document.activeElement.blur();", vec![]).await?;
        b.keys(&['3']).await?;
        address_names(b, third).await?;
        // The fable chosen goes into the address as well (walkthrough of issue 13: a reload told
        // the other fable).
        b.reveal("fable-picker").await?;
        b.client().find(Locator::Css("[data-testid=\"fable-picker\"]")).await?.select_by_value("lantern").await?;
        b.wait_until_js(
            "the address names the lantern",
            "return new URLSearchParams(location.search).get('fable') === 'lantern';",
            SECS(5),
        )
        .await?;
        b.eval("location.reload();", vec![]).await?;
        b.wait_until_js(
            "the reloaded page plays the scenario the number key chose, told as the lantern",
            &format!(
                "const t = document.querySelector('[data-testid=\"scenario-title\"]'); \
                 const s = document.querySelector('[data-testid=\"scene-lantern\"]'); \
                 return !!t && t.dataset.scenario === {} && !!s && s.getClientRects().length > 0;",
                serde_json::json!(third)
            ),
            SECS(30),
        )
        .await?;
        ensure!(b.count("[data-testid=\"url-warning\"]").await? == 0, "the address warns of nothing");
        b.assert_no_console_errors().await
    })
    .await
}

/// A file input's path, as a learner picking the file.
async fn import(b: &Browser, path: &std::path::Path) -> Result<()> {
    let input = b.client().find(Locator::Css("[data-testid=\"import-file\"]")).await?;
    input.send_keys(&path.display().to_string()).await?;
    Ok(())
}

/// An invalid file says what is wrong and where and leaves the run alone; a valid one plays like
/// a built-in, to the engine's own trace hash, and its share link carries it whole.
#[tokio::test]
async fn import_a_bad_and_a_good_scenario_file() -> Result<()> {
    let dir = std::env::temp_dir().join(format!("leaselab-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"format": "leaselab.scenario/1", "events": [{"at_ms": 100, "do": "pause", "node": "ghost"}]}"#,
    )?;
    let expected = scenario::parse(&std::fs::read_to_string(&bad)?).expect_err("invalid").to_string();
    // A field given twice is refused, not read as its last value (issue 13).
    let twice = dir.join("twice.json");
    std::fs::write(
        &twice,
        "{\"format\": \"leaselab.scenario/1\", \"resource\": {\"fencing\": true, \"fencing\": false}}",
    )?;
    let expected_twice = scenario::parse(&std::fs::read_to_string(&twice)?).expect_err("invalid").to_string();
    let good_json = builtin_json("harbor-zombie")
        .replace("\"harbor-zombie\"", "\"my-harbor\"")
        .replace("The harbor: Old Chen falls asleep", "My harbor")
        .replace("\"seed\": 7", "\"seed\": 8");
    let good = dir.join("good.json");
    std::fs::write(&good, &good_json)?;
    let parsed = scenario::parse(&good_json)?;
    let mut sim = Sim::new(parsed.config.clone())?;
    sim.run_to_end();
    let result = with_browser("import", SECS(150), async |b| {
        b.open("?scenario=lantern-ankle&speed=64").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        set(b, "scrubber", "5000", "input").await?;
        wait_at(b, "at 5 s", |t| t == 5_000).await?;
        let (title, before) = (b.text_of("scenario-title").await?, hash(b).await?);

        import(b, &bad).await?;
        let error = b.wait_for("import-error", |el| el.attr("hidden").is_none(), SECS(10)).await?;
        ensure!(
            error.text.contains(&expected) && error.text.contains("bad.json"),
            "“{}” shows “{expected}”",
            error.text
        );
        ensure!(expected.starts_with("events[0].node"), "the field path: {expected}");
        ensure!(b.text_of("scenario-title").await? == title && hash(b).await? == before, "the run is untouched");
        import(b, &twice).await?;
        b.wait_for("import-error", |el| el.text.contains("twice.json"), SECS(10)).await?;
        let error = b.text_of("import-error").await?;
        ensure!(error.contains(&expected_twice), "“{error}” shows “{expected_twice}”");
        ensure!(expected_twice.starts_with("resource.fencing: is given twice"), "the field path: {expected_twice}");
        ensure!(b.text_of("scenario-title").await? == title && hash(b).await? == before, "the run is untouched");
        wait_at(b, "still at 5 s", |t| t == 5_000).await?;

        import(b, &good).await?;
        b.wait_for("scenario-title", |el| el.text == "My harbor", SECS(10)).await?;
        // An imported file has no name an address could carry: `scenario` goes, `speed` stays.
        let address = address(b).await?;
        ensure!(
            !address.contains_key("scenario") && address["speed"] == "64",
            "the address after the import: {address:?}"
        );
        ensure!(b.attr_of("import-error", "hidden").await?.is_some(), "the error is gone");
        b.click("play-toggle").await?;
        wait_at(b, "the imported run reached its end", |t| t >= parsed.config.until_ms).await?;
        ensure!(hash(b).await? == sim.trace_hash(), "the page plays the file as the engine does");

        // Its share link carries the scenario whole and replays it.
        b.click("share").await?;
        // The link is written by a chunk fetched on first use.
        b.wait_for("share-link", |e| e.value.as_deref().is_some_and(|v| !v.is_empty()), SECS(10)).await?;
        let link = b.eval("return document.querySelector('[data-testid=\"share-link\"]').value;", vec![]).await?;
        let link = link.as_str().context("a link")?.to_owned();
        ensure!(link.contains("s=") && !link.contains("scenario="), "{link}");
        let query = link.split_once('?').map(|(_, q)| format!("?{q}")).context("a query")?;
        b.open(&query).await?;
        b.wait_for("scenario-title", |el| el.text == "My harbor", SECS(30)).await?;
        wait_at(b, "the link's moment", |t| t == parsed.config.until_ms).await?;
        ensure!(hash(b).await? == sim.trace_hash(), "the link replays the imported run");
        ensure!(b.count("[data-testid=\"url-warning\"]").await? == 0, "a good link warns of nothing");
        // A broken scenario in a link says what is wrong.
        b.open("?s=eyJmb3JtYXQiOiJ4In0").await?;
        let warning = b.wait_exists("url-warning", SECS(30)).await?;
        ensure!(warning.text.contains("format"), "{}", warning.text);
        b.assert_no_console_errors().await
    })
    .await;
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// Export after waking Chen early: the scenario file, played by the engine, gives the trace hash
/// the page shows, and the report is the runner's report of that file, byte for byte.
#[tokio::test]
async fn export_scenario_and_report_match_the_engine() -> Result<()> {
    with_browser("export", SECS(150), async |b| {
        b.open("?scenario=harbor-zombie&speed=64").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        // Keep every download in the page: the Blob's text is read back.
        b.eval(
            "window.__blobs = []; const make = URL.createObjectURL; \
             URL.createObjectURL = (blob) => { window.__blobs.push(blob); return make.call(URL, blob); };",
            vec![],
        )
        .await?;
        set(b, "scrubber", "21000", "input").await?;
        wait_at(b, "at 21 s", |t| t == 21_000).await?;
        b.act_on("chen", "pause").await?;
        b.click("play-toggle").await?;
        wait_at(b, "the run reached its end", |t| t >= 90_000).await?;
        let shown = hash(b).await?;
        b.click("export-scenario").await?;
        b.click("export-report").await?;
        // The report is written by a chunk fetched on first use: wait for its download.
        b.wait_until_js("two downloads", "return window.__blobs.length >= 2;", SECS(20)).await?;
        b.click("export-shiviz").await?;
        b.wait_until_js("three downloads", "return window.__blobs.length >= 3;", SECS(20)).await?;
        b.click("export-history").await?;
        b.wait_until_js("four downloads", "return window.__blobs.length >= 4;", SECS(20)).await?;
        let texts = b.eval("return Promise.all(window.__blobs.map(b => b.text()));", vec![]).await?;
        let texts: Vec<String> = serde_json::from_value(texts)?;
        ensure!(texts.len() == 4, "four downloads: {}", texts.len());
        let exported =
            scenario::parse(&texts[0]).map_err(|e| anyhow::anyhow!("the exported file: {e}\n{}", texts[0]))?;
        ensure!(exported.config.interventions.len() == 1, "Chen's wake-up is in the file: {}", texts[0]);
        let report = Report::run(&exported)?;
        ensure!(
            report.trace_hash == shown,
            "the exported file plays to the page's hash {shown}: {}",
            report.trace_hash
        );
        ensure!(texts[1] == serde_json::to_string(&report)? + "\n", "the report is the runner's: {}", texts[1]);
        // The run for ShiViz and for a Jepsen checker: what `leaselab export` prints for the file.
        let mut sim = Sim::new(exported.config.clone())?;
        sim.run_to_end();
        let nodes: Vec<String> = exported.config.nodes.iter().map(|n| n.id.clone()).collect();
        ensure!(texts[2] == scenario::interop::shiviz(sim.trace()), "the ShiViz log is the runner's: {}", texts[2]);
        ensure!(
            texts[2].lines().count() > 10 && texts[2].contains("{\"chen\":"),
            "a ShiViz log with clocks: {}",
            texts[2]
        );
        ensure!(
            texts[3] == scenario::interop::history(sim.trace(), &nodes),
            "the history is the runner's: {}",
            texts[3]
        );
        ensure!(texts[3].contains(":type :invoke"), "a history of operations: {}", texts[3]);
        b.assert_no_console_errors().await
    })
    .await
}
