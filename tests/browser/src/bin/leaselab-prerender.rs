//! `leaselab-prerender OUT`: the app's first frame at its bare address, as markup, for
//! `cargo xtask dist` to put into `index.html` (issue 14: the first scene on screen before the
//! wasm has loaded).
//!
//! It opens `dist/` (or `LEASELAB_DIST`) in Debian's headless Chromium, as the browser tests do,
//! at 1280×900, without a query (English, the default scenario at 0.0 s, the landing card), and
//! writes to `OUT` what [`FIRST_FRAME_OBSERVER`] kept of the first frame the app drew: the engine's
//! opening state drawn by the app's own code, taken afresh at each build, so the picture cannot
//! drift from the app. The dist must not have a picture of its own yet (the observer skips
//! `#boot`, so a second run gives the same markup).

use anyhow::{ensure, Context, Result};
use leaselab_browser_tests::{first_frame_markup, Browser, FIRST_FRAME_OBSERVER};
use serde_json::json;
use std::process::ExitCode;
use std::time::Duration;

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    match prerender().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("prerender: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn prerender() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    ensure!(args.len() == 1, "usage: leaselab-prerender OUT (the file the first frame's markup goes to)");
    let out = std::path::PathBuf::from(&args[0]);
    let b = Browser::start().await.context("starting Chromium on dist/")?;
    let result = async {
        b.cdp("Page.addScriptToEvaluateOnNewDocument", json!({"source": FIRST_FRAME_OBSERVER})).await?;
        b.open_now("").await?;
        let markup = first_frame_markup(&b, Duration::from_secs(60)).await?;
        b.assert_no_panic().await?;
        Ok::<_, anyhow::Error>(markup)
    }
    .await;
    b.close().await;
    let markup = result?;
    ensure!(markup.contains("class=\"bearers\""), "the first frame's markup has no flag-bearers: {markup:.200}");
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&out, &markup).with_context(|| format!("writing {}", out.display()))?;
    println!("ok: the app's first frame, {} bytes of markup, in {}", markup.len(), out.display());
    Ok(())
}
