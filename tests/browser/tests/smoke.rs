//! Smoke test: the built app loads from a sub-path (relative URLs), mounts itself, and logs no
//! console error. Independent of the UI's details.

use leaselab_browser_tests::{with_browser, SUB_PATH};
use std::time::Duration;

#[tokio::test]
async fn app_loads_from_a_sub_path_without_console_errors() -> anyhow::Result<()> {
    with_browser("smoke", Duration::from_secs(60), async |b| {
        b.open("").await?;

        // Rust mounted something into <body> besides Trunk's script/link tags.
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            let mounted = b
                .eval(
                    "return Array.from(document.body.children).some(e => \
                     !['SCRIPT', 'LINK', 'STYLE'].includes(e.tagName));",
                    vec![],
                )
                .await?;
            if mounted.as_bool() == Some(true) {
                break;
            }
            anyhow::ensure!(std::time::Instant::now() < deadline, "the app mounted nothing into <body> within 30 s");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }

        let title = b.client().title().await?;
        anyhow::ensure!(title == "LeaseLab", "title is {title:?}");
        let lang = b.eval("return document.documentElement.lang;", vec![]).await?;
        anyhow::ensure!(lang.as_str().is_some_and(|l| !l.is_empty()), "<html> has no lang attribute: {lang}");

        // Every request stayed under the sub-path and succeeded: the build uses relative URLs.
        let requests = b.requests();
        anyhow::ensure!(
            requests.iter().any(|(p, s)| p.ends_with(".wasm") && *s == 200),
            "the wasm module was not fetched: {requests:?}"
        );
        for (path, status) in &requests {
            anyhow::ensure!(
                path.starts_with(SUB_PATH) && *status == 200,
                "request {path} answered {status}: an asset URL is absolute or missing \
                 (all requests: {requests:?})"
            );
        }

        b.assert_no_console_errors().await?;
        // The translation pack is asked for by index.html while the wasm downloads, and the app
        // finds it there: it crosses the network once, so the preload's address is the app's
        // (`cargo xtask dist` writes it). The default scenario is built into the wasm: its file
        // is not fetched at all.
        let console = b.console().await?;
        anyhow::ensure!(
            !console.iter().any(|e| e.message.contains("preloaded using link preload but not used")),
            "a preload went unused: {console:?}"
        );
        let n = requests.iter().filter(|(p, _)| p.ends_with("i18n/en.json")).count();
        anyhow::ensure!(n == 1, "i18n/en.json fetched {n} times: {requests:?}");
        anyhow::ensure!(
            !requests.iter().any(|(p, _)| p.contains("scenarios/")),
            "a scenario file was fetched for the bare address: {requests:?}"
        );
        Ok(())
    })
    .await
}

/// With `lang=zh` and another scenario, the preloads follow the address: the Chinese pack, the
/// scenario's file and the chunk that reads them, each fetched once and none unused.
#[tokio::test]
async fn the_preloads_follow_the_address() -> anyhow::Result<()> {
    with_browser("smoke-preload", Duration::from_secs(60), async |b| {
        b.open("?lang=zh-CN&scenario=lantern-ankle").await?;
        b.wait_exists("scenario-title", Duration::from_secs(30)).await?;
        // A preload unused by the app is reported a few seconds after the load.
        tokio::time::sleep(Duration::from_secs(4)).await;
        let requests = b.requests();
        for file in ["i18n/zh.json", "scenarios/lantern-ankle.json", "/split_reader.wasm"] {
            let n = requests.iter().filter(|(p, _)| p.ends_with(file)).count();
            anyhow::ensure!(n == 1, "{file} fetched {n} times: {requests:?}");
        }
        anyhow::ensure!(!requests.iter().any(|(p, _)| p.ends_with("i18n/en.json")), "no English pack: {requests:?}");
        let console = b.console().await?;
        anyhow::ensure!(
            !console.iter().any(|e| e.message.contains("preloaded using link preload but not used")),
            "a preload went unused: {console:?}"
        );
        b.assert_no_console_errors().await
    })
    .await
}

/// An address in exact words (`lang=zh`, a scenario's id) has its packs preloaded by index.html:
/// the page's Chinese pack and the pack of the scenario's own telling, the lantern's, each asked
/// for once and used. (`zh-CN` above is the page's own rule to read: index.html leaves it to the
/// page, which then fetches the pack itself, also once.)
#[tokio::test]
async fn the_packs_of_an_exact_address_are_preloaded() -> anyhow::Result<()> {
    with_browser("smoke-preload-exact", Duration::from_secs(60), async |b| {
        b.open("?lang=zh&scenario=lantern-ankle").await?;
        b.wait_exists("scenario-title", Duration::from_secs(30)).await?;
        tokio::time::sleep(Duration::from_secs(4)).await;
        let requests = b.requests();
        for file in ["i18n/zh.json", "i18n/lantern.zh.json", "scenarios/lantern-ankle.json"] {
            let n = requests.iter().filter(|(p, _)| p.split('?').next().is_some_and(|p| p.ends_with(file))).count();
            anyhow::ensure!(n == 1, "{file} fetched {n} times: {requests:?}");
            let preloads = b
                .eval(
                    "return document.querySelectorAll('link[rel=preload][href*=\"' + arguments[0] + '\"]').length;",
                    vec![serde_json::json!(file)],
                )
                .await?;
            anyhow::ensure!(preloads.as_u64() == Some(1), "{file} is preloaded once: {preloads}");
        }
        let console = b.console().await?;
        anyhow::ensure!(
            !console.iter().any(|e| e.message.contains("preloaded using link preload but not used")),
            "a preload went unused: {console:?}"
        );
        b.assert_no_console_errors().await
    })
    .await
}

/// The harness itself reports console errors (so "no console error" assertions mean something).
#[tokio::test]
async fn harness_sees_console_errors() -> anyhow::Result<()> {
    with_browser("harness-console", Duration::from_secs(60), async |b| {
        b.open("").await?;
        b.eval("console.error('leaselab-harness-probe');", vec![]).await?;
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let errors = b.console_errors().await?;
            if errors.iter().any(|e| e.message.contains("leaselab-harness-probe")) {
                return Ok(());
            }
            anyhow::ensure!(
                std::time::Instant::now() < deadline,
                "console.error was not seen through chromedriver's log endpoint: {errors:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
}

/// The rest of the page (diagram, side panel, tools) is a chunk fetched once the page starts
/// (`ui::later`). When the network refuses it, the scene still plays and nothing panics; once the
/// network is back, a later try draws the rest.
#[tokio::test]
async fn a_chunk_the_network_refuses_is_tried_again_without_harm() -> anyhow::Result<()> {
    use serde_json::json;
    with_browser("smoke-chunk", Duration::from_secs(120), async |b| {
        b.cdp("Network.enable", json!({})).await?;
        b.cdp("Network.setBlockedURLs", json!({"urls": ["*split_later_parts*"]})).await?;
        b.open_now("").await?;
        b.wait_exists("scene-harbor", Duration::from_secs(30)).await?;
        // The first try has failed by now (the chunk is refused at once).
        tokio::time::sleep(Duration::from_millis(1500)).await;
        anyhow::ensure!(
            b.requests().iter().all(|(p, _)| !p.contains("split_later_parts")),
            "the refused chunk reached the server: {:?}",
            b.requests()
        );
        anyhow::ensure!(b.element("side").await?.is_none(), "the side panel waits for its chunk");
        b.assert_no_panic().await?;
        // The scene still plays.
        b.click("play-toggle").await?;
        b.wait_for(
            "sim-time",
            |e| e.attr("data-ms").and_then(|v| v.parse::<u64>().ok()).is_some_and(|ms| ms > 0),
            Duration::from_secs(20),
        )
        .await?;
        b.click("play-toggle").await?;
        // The network is back: a later try (1, 2, 4 … s apart) draws the rest of the page.
        b.cdp("Network.setBlockedURLs", json!({"urls": []})).await?;
        b.wait_exists("side", Duration::from_secs(40)).await?;
        b.wait_exists("space-time", Duration::from_secs(10)).await?;
        anyhow::ensure!(!b.log_text().await?.trim().is_empty(), "the log shows the run so far");
        b.assert_no_panic().await
    })
    .await
}

/// The most files a page with a lesson fetches before the learner can use it (issue 29: fewer,
/// larger chunks).
const LESSON_PAGE_FILES: usize = 12;

/// A page with a lesson fetches at most [`LESSON_PAGE_FILES`] files before it is interactive: its
/// lesson panel shown, with the step's controls, and the later parts there
/// (`<html data-later="ready">`). Each lesson of the library, at its bare lesson address.
#[tokio::test]
async fn a_page_with_a_lesson_fetches_few_files_before_it_can_be_used() -> anyhow::Result<()> {
    with_browser("smoke-lesson-files", Duration::from_secs(120), async |b| {
        let mut over = Vec::new();
        for lesson in leaselab::scenario::library::lessons::MENU.iter().map(|l| l.id) {
            b.server().clear_log();
            b.open_now(&format!("?lesson={lesson}")).await?;
            b.wait_until_js(
                "the lesson usable",
                "const l = document.querySelector('[data-testid=lesson]'); \
                 return document.documentElement.dataset.later === 'ready' && !!l && !l.hidden \
                   && !!document.querySelector('[data-testid=lesson-next]:not([disabled])');",
                Duration::from_secs(30),
            )
            .await?;
            let files: Vec<String> = b.requests().into_iter().map(|(path, _)| path).collect();
            println!("?lesson={lesson}: {} files: {files:?}", files.len());
            if files.len() > LESSON_PAGE_FILES {
                over.push(format!("?lesson={lesson}: {} files: {files:#?}", files.len()));
            }
        }
        anyhow::ensure!(
            over.is_empty(),
            "a page with a lesson fetched more than {LESSON_PAGE_FILES} files before it could be used:\n{}",
            over.join("\n")
        );
        b.assert_no_console_errors().await
    })
    .await
}
