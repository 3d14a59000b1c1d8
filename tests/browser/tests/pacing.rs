//! Story-time pacing in the browser (issue 12): playing `harbor-zombie` from just before Old
//! Chen wakes, his flag with 7 is on screen in flight, measured in the page's own real time, for
//! at least 0.6 s at 1× and at 4×; in true time it flies for its latency only; a bad `pacing=`
//! is reported.

use anyhow::{ensure, Context, Result};
use leaselab_browser_tests::{with_browser, Browser};
use std::time::Duration;

const SECS: fn(u64) -> Duration = Duration::from_secs;

/// What the issue asks: Chen's 7 on screen in flight at least this long, in real ms.
const ON_SCREEN_MS: f64 = 600.0;

/// Chen's flag with 7, in flight.
const CHENS_SEVEN: &str = r#"[data-testid="flight"][data-from="chen"][data-token="7"]"#;

/// Polls the page every 4 ms (in the page itself, with its own clock) and notes when Chen's 7
/// was first and last seen in flight, and its kind.
const WATCH: &str = r#"
    const sel = arguments[0];
    window.__seven = { first: null, last: null, kind: null };
    window.__sevenPoll = setInterval(() => {
        const el = document.querySelector(sel);
        if (!el) return;
        const w = window.__seven, t = performance.now();
        if (w.first === null) { w.first = t; w.kind = el.getAttribute('data-kind'); }
        w.last = t;
    }, 4);
"#;

/// Opens `query` (harbor-zombie at 59 s, paused), starts watching for Chen's 7, presses `keys`
/// (a shortcut, then K to play) and waits until virtual time has passed `until_ms`. Returns how
/// long the 7 was seen in flight, in real ms (`None`: never seen), and its `data-kind`.
async fn watch_chens_seven(b: &Browser, query: &str, keys: &[char], until_ms: u64) -> Result<(Option<f64>, String)> {
    b.open(query).await?;
    b.wait_for("sim-time", |el| el.attr("data-ms") == Some("59000"), SECS(30)).await.context("the link's moment")?;
    b.eval(WATCH, vec![serde_json::json!(CHENS_SEVEN)]).await?;
    b.keys(keys).await?;
    let passed = format!(
        "const el = document.querySelector('[data-testid=\"sim-time\"]'); \
         return !!el && Number(el.getAttribute('data-ms')) > {until_ms};"
    );
    b.wait_until_js(&format!("virtual time past {until_ms} ms"), &passed, SECS(30)).await?;
    let seen = b.eval("clearInterval(window.__sevenPoll); return window.__seven;", vec![]).await?;
    let shown = match (seen["first"].as_f64(), seen["last"].as_f64()) {
        (Some(first), Some(last)) => Some(last - first),
        _ => None,
    };
    Ok((shown, seen["kind"].as_str().unwrap_or_default().to_owned()))
}

#[tokio::test]
async fn chens_seven_is_on_screen_in_flight_for_at_least_600_ms_at_1x_and_4x() -> Result<()> {
    with_browser("pacing-story", SECS(120), async |b| {
        for speed in [1, 4] {
            let query = format!("?scenario=harbor-zombie&t=59000&speed={speed}");
            // The verdict lands at 60 071 ms; a little later the 7 is surely gone.
            let (shown, kind) = watch_chens_seven(b, &query, &['k'], 60_200).await?;
            let shown = shown.with_context(|| format!("{speed}×: Chen's 7 was never seen in flight"))?;
            println!("{speed}×, story time: Chen's 7 on screen in flight for {shown:.0} ms of real time");
            ensure!(kind == "write", "{speed}×: Chen's 7 in flight is a {kind:?}, not a write");
            ensure!(shown >= ON_SCREEN_MS, "{speed}×: Chen's 7 was on screen for {shown:.0} ms only");
            let gone = b.count(CHENS_SEVEN).await?;
            ensure!(gone == 0, "{speed}×: Chen's 7 is still in flight after it was judged");
        }
        b.assert_no_console_errors().await
    })
    .await
}

/// True time (from the address, or T) plays plain time: the 7 flies for its 71 ms of latency.
#[tokio::test]
async fn true_time_is_plain_and_a_bad_pacing_is_reported() -> Result<()> {
    with_browser("pacing-true", SECS(120), async |b| {
        for (query, keys) in [
            ("?scenario=harbor-zombie&t=59000&speed=1&pacing=true", vec!['k']),
            ("?scenario=harbor-zombie&t=59000&speed=1", vec!['t', 'k']),
        ] {
            let (shown, _) = watch_chens_seven(b, query, &keys, 61_000).await?;
            println!("1×, true time ({query}, keys {keys:?}): Chen's 7 seen in flight for {shown:?} ms");
            ensure!(shown.unwrap_or(0.0) < 300.0, "{query}: true time held Chen's 7 for {shown:?} ms");
        }
        b.open("?scenario=harbor-zombie&pacing=slowly").await?;
        let warning = b.wait_exists("url-warning", SECS(30)).await?;
        ensure!(warning.text.contains("slowly"), "the notice names the bad value: {:?}", warning.text);
        b.assert_no_console_errors().await
    })
    .await
}
