//! Measurements, not tests of correctness (issue 4): run them explicitly with
//! `cargo xtask dist && cargo test -p leaselab-browser-tests --test frame_time -- --ignored --nocapture`.
//!
//! Both use `harbor-zombie` stretched to one hour of virtual time (its file with `until_ms` set to
//! 3 600 000, opened through an `s=` link), so the run keeps moving for the whole measurement:
//! - the frame time: the gaps between animation frames over 10 s of real time at 64×, with the
//!   harbor and the space-time diagram on screen (50th and 95th percentile and the longest);
//! - the time travel: 40 scrubs to random moments of the hour, each timed from the slider's
//!   `input` event to the end of the page's style and layout (a seek and its redraw).

use anyhow::{Context, Result};
use leaselab_browser_tests::{hour_link, with_browser};
use std::time::Duration;

/// Collects the gaps between animation frames for 10 s of real time.
const COLLECT: &str = "window.__gaps = []; let last = null; const start = performance.now(); \
    function f(t) { if (last !== null) window.__gaps.push(t - last); last = t; \
      if (t - start < 10000) requestAnimationFrame(f); } requestAnimationFrame(f);";

/// Scrubs to 40 random moments, timing each seek with the layout it causes.
const SCRUB: &str = "const s = document.querySelector('[data-testid=\"scrubber\"]'); const times = []; \
    for (let i = 0; i < 40; i++) { const v = Math.floor(Math.random() * Number(s.max)); \
      const t0 = performance.now(); s.value = String(v); s.dispatchEvent(new Event('input', { bubbles: true })); \
      void document.body.offsetHeight; times.push(performance.now() - t0); } return times;";

fn percentile(sorted: &[f64], p: usize) -> f64 {
    sorted.get((sorted.len() * p / 100).min(sorted.len().saturating_sub(1))).copied().unwrap_or(f64::NAN)
}

fn numbers(v: &serde_json::Value) -> Result<Vec<f64>> {
    let mut out: Vec<f64> = v.as_array().context("an array")?.iter().filter_map(|g| g.as_f64()).collect();
    out.sort_by(|a, b| a.total_cmp(b));
    Ok(out)
}

#[tokio::test]
#[ignore = "a measurement: run with --ignored --nocapture"]
async fn frame_time_and_seek_time_in_an_hour_long_run() -> Result<()> {
    let link = hour_link()?;
    with_browser("frame-time", Duration::from_secs(180), async |b| {
        b.open(&format!("?s={link}&speed=64&autoplay=1")).await?;
        b.wait_exists("space-time", Duration::from_secs(30)).await?;
        b.eval(COLLECT, vec![]).await?;
        tokio::time::sleep(Duration::from_millis(10_500)).await;
        let gaps = numbers(&b.eval("return window.__gaps;", vec![]).await?)?;
        let moved = b.attr_of("sim-time", "data-ms").await?.unwrap_or_default();
        println!(
            "64x, harbor and diagram, 10 s: {} frames, frame time p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms (virtual time reached {moved} ms)",
            gaps.len(),
            percentile(&gaps, 50),
            percentile(&gaps, 95),
            percentile(&gaps, 100)
        );
        let seeks = numbers(&b.eval(SCRUB, vec![]).await?)?;
        println!(
            "40 scrubs to random moments of the hour (seek + redraw + layout): p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
            percentile(&seeks, 50),
            percentile(&seeks, 95),
            percentile(&seeks, 100)
        );
        Ok(())
    })
    .await
}
