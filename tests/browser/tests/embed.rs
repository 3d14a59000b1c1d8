//! Embedding (issue 4): `?embed=1` shows the scene alone, and the example host page
//! (`examples/embed/index.html`, built into `dist/embed/`) drives an embedded harbor through the
//! `postMessage` API and hears its events, while messages from elsewhere or of a bad shape are
//! ignored or answered with an `error`.

use anyhow::{anyhow, ensure, Context, Result};
use leaselab_browser_tests::{with_browser, Browser};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const SECS: fn(u64) -> Duration = Duration::from_secs;

/// Whether `[data-testid=…]` (or, with a leading `.`, the CSS selector) is laid out on screen.
async fn shown(b: &Browser, what: &str) -> Result<bool> {
    let v = b
        .eval(
            "const q = arguments[0].startsWith('.') ? arguments[0] : '[data-testid=\"' + arguments[0] + '\"]'; \
             const el = document.querySelector(q); return !!el && el.getClientRects().length > 0;",
            vec![json!(what)],
        )
        .await?;
    Ok(v.as_bool() == Some(true))
}

#[tokio::test]
async fn embed_mode_shows_the_scene_and_no_page_chrome() -> Result<()> {
    with_browser("embed-mode", SECS(120), async |b| {
        b.open("?embed=1&scenario=harbor-zombie").await?;
        b.wait_exists("embed", SECS(30)).await?;
        ensure!(shown(b, "scene-harbor").await?, "the harbor is shown");
        for chrome in [
            ".top",
            ".side",
            "lang-toggle",
            "caption",
            ".crew",
            "violations-panel",
            ".engineer",
            "event-log",
            ".tabs",
            "space-time",
            "share",
            "scenario-picker",
        ] {
            ensure!(!shown(b, chrome).await?, "{chrome} is not shown in an embedded scene");
        }
        // controls=play by default: play/pause, step, reset, the clock; not the rest.
        for shown_control in ["play-toggle", "step", "reset", "sim-time"] {
            ensure!(shown(b, shown_control).await?, "{shown_control} is shown");
        }
        for hidden in ["step-back", "speed", "scrubber"] {
            ensure!(!shown(b, hidden).await?, "{hidden} is not shown with controls=play");
        }
        // Sized to its frame: the scene spans the viewport's width and nothing scrolls.
        let fit = b
            .eval(
                "const r = document.querySelector('[data-testid=\"scene-harbor\"]').getBoundingClientRect(); \
                 return [r.width, window.innerWidth, document.documentElement.scrollHeight, window.innerHeight];",
                vec![],
            )
            .await?;
        let n = |i: usize| fit[i].as_f64().unwrap_or(0.0);
        ensure!((n(0) - n(1)).abs() < 2.0, "the scene is as wide as the frame: {fit}");
        ensure!(n(2) <= n(3) + 1.0, "nothing scrolls: {fit}");
        // Opened on its own there is no host: the API is off.
        ensure!(b.attr_of("embed", "data-api").await?.as_deref() == Some("off"), "no host, no API");

        // The lantern in Chinese with the diagram and every time control.
        b.open("?embed=1&scenario=lantern-ankle&diagram=1&controls=full&lang=zh").await?;
        b.wait_for("embed", |e| e.attr("data-controls") == Some("full"), SECS(30)).await?;
        ensure!(shown(b, "scene-lantern").await? && !shown(b, "scene-harbor").await?, "the lantern alone is shown");
        for control in ["space-time", "scrubber", "step-back", "speed"] {
            ensure!(shown(b, control).await?, "{control} is shown with diagram=1&controls=full");
        }
        let lang = b.eval("return document.documentElement.lang;", vec![]).await?;
        ensure!(lang == "zh-CN", "the page speaks Chinese: {lang}");
        ensure!(b.text_of("play-toggle").await?.contains("播放"), "the play button is in Chinese");

        // Bad values: a compact note naming them, the defaults, never a blank frame.
        b.open("?embed=1&controls=everything&diagram=maybe&origin=https://docs.example.org/guide").await?;
        let warning = b.wait_exists("url-warning", SECS(30)).await?;
        for bad in ["everything", "maybe", "https://docs.example.org/guide"] {
            ensure!(warning.text.contains(bad), "the note names {bad}: {}", warning.text);
        }
        ensure!(
            shown(b, "scene-harbor").await? && shown(b, "play-toggle").await?,
            "the scene and controls=play are shown"
        );
        ensure!(
            !shown(b, "step-back").await? && !shown(b, "space-time").await?,
            "the defaults: no step back, no diagram"
        );
        ensure!(b.element("embed").await?.is_some(), "still embedded");

        // Origins are read by the browser's URL parser: case, a default port and an
        // internationalized host are fine; user info is not an origin.
        b.open("?embed=1&origin=https://B%C3%BCcher.example,HTTPS://Docs.Example.org:443/,https://user@a.org").await?;
        let warning = b.wait_exists("url-warning", SECS(30)).await?;
        ensure!(
            warning.text.contains("https://user@a.org"),
            "the note names the origin with user info: {}",
            warning.text
        );
        for fine in ["cher.example", "Docs.Example"] {
            ensure!(!warning.text.contains(fine), "{fine} is an exact origin: {}", warning.text);
        }
        b.assert_no_console_errors().await
    })
    .await
}

#[tokio::test]
async fn the_full_app_gives_an_iframe_snippet_for_the_run_on_screen() -> Result<()> {
    with_browser("embed-this", SECS(90), async |b| {
        b.open("?scenario=lantern-ankle&lang=zh").await?;
        b.wait_exists("scene-lantern", SECS(30)).await?;
        b.click("embed-this").await?;
        let code = b
            .wait_for("share-link", |e| e.value.as_deref().is_some_and(|v| v.starts_with("<iframe")), SECS(10))
            .await?;
        let code = code.value.unwrap_or_default();
        let src = code
            .split("src=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .ok_or_else(|| anyhow!("no src in {code}"))?
            .replace("&amp;", "&");
        ensure!(!src.contains('&') || code.contains("&amp;"), "ampersands are escaped in the snippet: {code}");
        for part in ["scenario=lantern-ankle", "fable=lantern", "lang=zh", "embed=1"] {
            ensure!(src.contains(part), "the snippet's address has {part}: {src}");
        }
        // The snippet's address shows that run embedded.
        b.client().goto(&src).await?;
        b.wait_exists("embed", SECS(30)).await?;
        // The lantern is drawn once its chunk, and the later parts' style and texts, are here.
        b.wait_until_js(
            "the lantern is shown",
            "const el = document.querySelector('[data-testid=\"scene-lantern\"]'); \
             return !!el && el.getClientRects().length > 0;",
            SECS(30),
        )
        .await?;
        ensure!(b.text_of("play-toggle").await?.contains("播放"), "in Chinese");
        b.assert_no_console_errors().await
    })
    .await
}

/// The events the example page has received from the harbor, oldest first.
async fn events(b: &Browser) -> Result<Vec<Value>> {
    let v = b.eval("return window.leaselabEvents || [];", vec![]).await?;
    Ok(v.as_array().cloned().unwrap_or_default())
}

/// Waits for an event after the first `after` that `pred` accepts, and returns it.
async fn event_after(b: &Browser, after: usize, what: &str, pred: impl Fn(&Value) -> bool) -> Result<Value> {
    let deadline = Instant::now() + SECS(20);
    loop {
        let all = events(b).await?;
        if let Some(e) = all.iter().skip(after).find(|e| pred(e)) {
            return Ok(e.clone());
        }
        ensure!(
            Instant::now() < deadline,
            "no {what} event arrived; after #{after}: {:?}",
            &all[after.min(all.len())..]
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Sends `message` (without the envelope) to the harbor as the example page does.
async fn send(b: &Browser, message: Value) -> Result<usize> {
    let mark = events(b).await?.len();
    b.eval("send(arguments[0]);", vec![message]).await?;
    Ok(mark)
}

/// An element inside the frame `frame` of the example page: its text and `data-ms`.
async fn in_frame(b: &Browser, frame: &str, testid: &str) -> Result<Value> {
    b.eval(
        "const d = document.getElementById(arguments[0]).contentDocument; \
         const el = d && d.querySelector('[data-testid=\"' + arguments[1] + '\"]'); \
         return el ? { text: el.textContent.trim(), ms: el.dataset.ms || null, api: el.dataset.api || null } : null;",
        vec![json!(frame), json!(testid)],
    )
    .await
}

fn frame_ms(v: &Value) -> Option<u64> {
    v["ms"].as_str().and_then(|s| s.parse().ok())
}

fn is(kind: &'static str) -> impl Fn(&Value) -> bool {
    move |e| e["type"] == kind
}

#[tokio::test]
async fn the_example_page_drives_the_harbor_and_hears_what_happens() -> Result<()> {
    with_browser("embed-api", SECS(240), async |b| {
        b.open_now("embed/").await?;
        let ready = event_after(b, 0, "ready", is("ready")).await?;
        ensure!(ready["scenario"] == "harbor-zombie" && ready["protocol"] == 1, "{ready}");
        ensure!(ready["scenarios"].as_array().is_some_and(|l| l.iter().any(|s| s == "lantern-ankle")), "{ready}");
        let first = event_after(b, 0, "state", is("state")).await?;
        ensure!(first["time_ms"] == 0 && first["playing"] == false && first["holder"].is_null(), "{first}");
        ensure!(in_frame(b, "harbor", "embed").await?["api"] == "on", "the API runs in the frame");

        // play, then pause: time runs and stops, in the frame and in the events.
        let mark = events(b).await?.len();
        b.click("do-play").await?;
        event_after(b, mark, "playing state", |e| e["type"] == "state" && e["playing"] == true).await?;
        event_after(b, mark, "moving state", |e| e["type"] == "state" && e["time_ms"].as_u64().is_some_and(|t| t > 0)).await?;
        let mark = events(b).await?.len();
        b.click("do-pause").await?;
        let paused = event_after(b, mark, "paused state", |e| e["type"] == "state" && e["playing"] == false).await?;
        let t = paused["time_ms"].as_u64().context("time_ms")?;
        ensure!(t > 0, "time ran before the pause: {paused}");
        tokio::time::sleep(Duration::from_millis(600)).await;
        ensure!(frame_ms(&in_frame(b, "harbor", "sim-time").await?) == Some(t), "paused, the frame stays at {t} ms");

        // seek: to 31 s, where Lin has just taken the post with 8.
        let mark = send(b, json!({"type": "seek", "t_ms": 31_000})).await?;
        let at = event_after(b, mark, "state at 31 s", |e| e["type"] == "state" && e["time_ms"] == 31_000).await?;
        ensure!(at["holder"] == "lin" && at["token"] == 8 && at["high_water_mark"] == 8, "at 31 s: {at}");
        ensure!(in_frame(b, "harbor", "plaque-token").await?["text"] == "8", "the frame's plaque agrees");
        ensure!(frame_ms(&in_frame(b, "harbor", "sim-time").await?) == Some(31_000), "the frame is at 31 s");

        // On to the end: every write judged on the way, Chen's stale 7 refused against the mark 8.
        let mark = send(b, json!({"type": "seek", "t_ms": 90_000})).await?;
        let stale = event_after(b, mark, "Chen's refused write", |e| e["type"] == "write" && e["verdict"] == "rejected_stale").await?;
        ensure!(stale["from"] == "chen" && stale["token"] == 7 && stale["high_water_mark"] == 8, "{stale}");
        let writes = events(b).await?.iter().skip(mark).filter(|e| e["type"] == "write").count();
        ensure!(writes > 10, "Lin's writes are reported too: {writes}");
        ensure!(!events(b).await?.iter().skip(mark).any(is("violation")), "no violation with fencing on");

        // intervene: wake Chen at 21 s; the future forks, he keeps 7 and nothing is refused.
        send(b, json!({"type": "seek", "t_ms": 21_000})).await?;
        let mark = send(b, json!({"type": "intervene", "do": "r.chen"})).await?;
        let mark2 = send(b, json!({"type": "seek", "t_ms": 90_000})).await?;
        let end = event_after(b, mark2, "forked end", |e| e["type"] == "state" && e["time_ms"].as_u64() >= Some(90_000)).await?;
        ensure!(end["holder"] == "chen" && end["token"] == 7, "awake in time, Chen keeps 7: {end}");
        ensure!(!events(b).await?.iter().skip(mark).any(|e| e["verdict"] == "rejected_stale" || e["type"] == "error"), "nothing refused");
        ensure!(in_frame(b, "harbor", "plaque-token").await?["text"] == "7", "the frame's plaque shows 7");
        // The engine's refusal comes back as an error and changes nothing.
        let mark = send(b, json!({"type": "intervene", "do": "p.nobody"})).await?;
        let error = event_after(b, mark, "error", is("error")).await?;
        ensure!(error["what"] == "intervene" && error["why"].as_str().is_some_and(|w| w.contains("nobody")), "{error}");

        // load: with fencing off, the oracle reports the stale write that is obeyed.
        let mark = events(b).await?.len();
        b.click("do-load-unfenced").await?;
        let loaded = event_after(b, mark, "loaded", |e| e["type"] == "state" && e["scenario"] == "harbor-no-fencing").await?;
        ensure!(loaded["time_ms"] == 0 && loaded["fencing"] == false, "{loaded}");
        let mark = send(b, json!({"type": "seek", "t_ms": 90_000})).await?;
        let violation = event_after(b, mark, "violation", is("violation")).await?;
        ensure!(violation["kind"] == "stale_write_accepted" && violation["from"] == "chen", "{violation}");
        ensure!(violation["text"].as_str().is_some_and(|t| t.contains('7') && t.contains('8')), "the sentence names 7 and 8: {violation}");
        event_after(b, mark, "the obeyed 7", |e| e["type"] == "write" && e["token"] == 7 && e["verdict"] == "accepted" && e["high_water_mark"] == 8).await?;

        // load a scenario object, and a broken one (the runner's error, with its field path).
        let mark = events(b).await?.len();
        b.click("do-load-own").await?;
        event_after(b, mark, "own scenario", |e| e["type"] == "state" && e["scenario"] == "two-nodes").await?;
        let mark = send(b, json!({"type": "load", "scenario": {"format": "leaselab.scenario/1", "lease": {"duration_ms": 0}}})).await?;
        let error = event_after(b, mark, "error", is("error")).await?;
        ensure!(error["what"] == "load" && error["why"].as_str().is_some_and(|w| w.contains("lease.duration_ms")), "{error}");

        // lang: the frame speaks Chinese, then English again.
        let mark = events(b).await?.len();
        b.click("do-zh").await?;
        event_after(b, mark, "Chinese", |e| e["type"] == "state" && e["lang"] == "zh").await?;
        ensure!(in_frame(b, "harbor", "play-toggle").await?["text"].as_str().is_some_and(|t| t.contains("播放")), "the frame is in Chinese");
        let mark = events(b).await?.len();
        b.click("do-en").await?;
        event_after(b, mark, "English", |e| e["type"] == "state" && e["lang"] == "en").await?;

        // Bad shapes are answered with an error saying what and why; the run is untouched.
        let before = in_frame(b, "harbor", "sim-time").await?;
        let cases = [
            (json!({"type": "seek", "t_ms": "soon"}), "seek", "whole number"),
            (json!({"type": "seek", "t_ms": 1e300}), "seek", "whole number"),
            (json!({"type": "fly"}), "fly", "unknown type"),
            (json!({"type": "play", "speed": 64}), "play", "unknown field"),
            (json!({"type": "lang", "lang": "x".repeat(2_000_000)}), "lang", "more than 200"),
            (json!({"type": "<img src=x onerror=\"window.pwned=1\">"}), "<img src=x onerror=\"window.pwned=1\">", "unknown type"),
        ];
        for (message, what, why) in cases {
            let mark = send(b, message.clone()).await?;
            let error = event_after(b, mark, "error", is("error")).await.with_context(|| format!("{message:.80}"))?;
            ensure!(error["what"] == what && error["why"].as_str().is_some_and(|w| w.contains(why)), "{message:.80}: {error}");
        }
        let mark = events(b).await?.len();
        b.eval(
            "const f = document.getElementById('harbor'); const o = new URL(f.src).origin; \
             f.contentWindow.postMessage({ leaselab: 2, type: 'play' }, o); \
             f.contentWindow.postMessage({ type: 'play' }, o); \
             f.contentWindow.postMessage('{\"leaselab\":1,\"type\":\"play\"}', o);",
            vec![],
        )
        .await?;
        let error = event_after(b, mark, "version error", is("error")).await?;
        ensure!(error["why"].as_str().is_some_and(|w| w.contains("version")), "{error}");
        tokio::time::sleep(Duration::from_millis(700)).await;
        let after = events(b).await?;
        ensure!(after.iter().skip(mark).filter(|e| is("error")(e)).count() == 1, "messages not for LeaseLab get no answer: {:?}", &after[mark..]);
        ensure!(in_frame(b, "harbor", "sim-time").await? == before, "nothing moved the run: {before}");
        let pwned = b.eval("return [window.pwned, document.getElementById('harbor').contentWindow.pwned, \
                            document.getElementById('harbor').contentDocument.querySelectorAll('img').length];", vec![]).await?;
        ensure!(pwned == json!([null, null, 0]), "no markup from a message ran: {pwned}");

        // Another window (a sandboxed frame: origin "null") is not heard.
        b.eval(
            "const s = document.createElement('iframe'); s.sandbox = 'allow-scripts'; \
             s.srcdoc = '<script>parent.frames[0].postMessage({leaselab:1,type:\"seek\",t_ms:5000}, \"*\"); \
             parent.frames[0].postMessage({leaselab:1,type:\"play\"}, \"*\");<\\/script>'; document.body.append(s);",
            vec![],
        )
        .await?;
        tokio::time::sleep(Duration::from_millis(1000)).await;
        ensure!(in_frame(b, "harbor", "sim-time").await? == before, "the sandboxed frame moved nothing");
        ensure!(events(b).await?.len() == after.len(), "and got nothing back");

        // An embedder that allows only another origin: the host here is not heard, and hears nothing.
        b.eval(
            "const f = document.createElement('iframe'); f.id = 'other'; \
             f.src = new URL('../index.html?embed=1&origin=https://docs.example.org', location.href).href; \
             window.otherHeard = 0; window.addEventListener('message', (e) => { if (e.source === f.contentWindow) window.otherHeard++; }); \
             document.body.append(f);",
            vec![],
        )
        .await?;
        let deadline = Instant::now() + SECS(30);
        while in_frame(b, "other", "embed").await?.is_null() {
            ensure!(Instant::now() < deadline, "the second frame did not load");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        ensure!(in_frame(b, "other", "embed").await?["api"] == "off", "its API is off for this host");
        b.eval(
            "const f = document.getElementById('other'); \
             f.contentWindow.postMessage({ leaselab: 1, type: 'seek', t_ms: 40000 }, new URL(f.src).origin);",
            vec![],
        )
        .await?;
        tokio::time::sleep(Duration::from_millis(800)).await;
        ensure!(frame_ms(&in_frame(b, "other", "sim-time").await?) == Some(0), "a disallowed host's seek is ignored");
        ensure!(b.eval("return window.otherHeard;", vec![]).await? == 0, "a disallowed host hears nothing");

        b.assert_no_console_errors().await
    })
    .await
}
