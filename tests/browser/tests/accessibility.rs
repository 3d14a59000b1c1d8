//! Accessibility (issue 5): axe-core finds no serious or critical violation on any screen (the
//! sandbox in both fables and both themes, each kind of lesson step, the audience question,
//! presenter mode, the shortcuts overlay, embed mode), on a desktop and on a phone-sized
//! window; a whole lesson can be followed with the keyboard alone, with a visible focus; the
//! shortcuts do not fire while typing in a field; the live region narrates engine events.

use anyhow::{ensure, Context, Result};
use leaselab_browser_tests::{with_browser, Browser};
use std::time::Duration;

const SECS: fn(u64) -> Duration = Duration::from_secs;
const ENTER: char = '\u{E007}';
const PAGE_DOWN: char = '\u{E00F}';
const PAGE_UP: char = '\u{E00E}';

/// Every screen worth checking, in `width` × `height`: axe's serious and critical findings.
async fn every_screen(b: &Browser, width: u32, height: u32) -> Result<Vec<String>> {
    b.client().set_window_size(width, height).await?;
    let mut found = Vec::new();
    let size = format!("{width}x{height}");
    let screens: [(&str, &str); 5] = [
        ("sandbox", "?scenario=harbor-zombie&speed=8&autoplay=1"),
        ("sandbox, lantern, dark", "?scenario=lantern-ankle&theme=dark&speed=8&autoplay=1"),
        ("sandbox, Chinese", "?scenario=harbor-zombie&lang=zh"),
        ("embed", "?embed=1&controls=full&diagram=1&scenario=harbor-zombie"),
        ("presenter", "?presenter=1&lesson=harbor-replaced&step=4"),
    ];
    for (what, query) in screens {
        b.open(query).await?;
        b.wait_exists(if what == "embed" { "embed" } else { "scene-harbor" }, SECS(30)).await?;
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        found.extend(b.axe_serious(&format!("{what} ({size})")).await?);
    }
    // Each kind of lesson step: waiting for Next, asking, revealed, the metaphor table (from a
    // fresh start: no answers kept from an earlier round).
    b.eval("localStorage.clear();", vec![]).await?;
    b.open("?lesson=harbor-replaced&step=1").await?;
    b.at_step(1, "reached", SECS(30)).await?;
    found.extend(b.axe_serious(&format!("lesson, a step held ({size})")).await?);
    b.open("?lesson=harbor-replaced&step=4").await?;
    b.at_step(4, "asking", SECS(30)).await?;
    found.extend(b.axe_serious(&format!("lesson, a question ({size})")).await?);
    b.click("choice-lin-8").await?;
    b.at_step(4, "reached", SECS(60)).await?;
    found.extend(b.axe_serious(&format!("lesson, a reveal ({size})")).await?);
    b.open("?lesson=harbor-replaced&step=8").await?;
    b.wait_exists("metaphors", SECS(30)).await?;
    found.extend(b.axe_serious(&format!("lesson, the metaphor table ({size})")).await?);
    b.open("?lesson=fencing-in-depth&step=2&presenter=1").await?;
    b.wait_exists("audience", SECS(30)).await?;
    found.extend(b.axe_serious(&format!("lesson, the audience question ({size})")).await?);
    // The shortcuts overlay.
    b.open("?scenario=harbor-zombie").await?;
    b.wait_exists("scene-harbor", SECS(30)).await?;
    b.click("help-open").await?;
    b.wait_exists("help", SECS(5)).await?;
    found.extend(b.axe_serious(&format!("shortcuts overlay ({size})")).await?);
    Ok(found)
}

#[tokio::test]
async fn axe_finds_nothing_serious_on_any_screen_desktop_or_phone() -> Result<()> {
    with_browser("axe", SECS(420), async |b| {
        let mut found = every_screen(b, 1280, 720).await?;
        found.extend(every_screen(b, 390, 844).await?);
        ensure!(
            found.is_empty(),
            "axe-core found {} serious or critical violations:\n{}",
            found.len(),
            found.join("\n")
        );
        Ok(())
    })
    .await
}

/// The focused element draws a visible outline (the page's focus style, not the browser's lack
/// of one).
async fn focus_is_visible(b: &Browser) -> Result<()> {
    let shown = b
        .eval(
            "const a = document.activeElement; if (!a || a === document.body) return 'nothing focused'; \
             const s = getComputedStyle(a); return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2) ? 'ok' : \
             ('no outline on ' + a.outerHTML.slice(0, 80));",
            vec![],
        )
        .await?;
    ensure!(shown.as_str() == Some("ok"), "the focus is not visible: {shown}");
    Ok(())
}

#[tokio::test]
async fn a_whole_lesson_with_the_keyboard_alone() -> Result<()> {
    with_browser("keyboard-lesson", SECS(240), async |b| {
        b.open("?lesson=harbor-replaced").await?;
        b.at_step(1, "reached", SECS(30)).await?;
        // N (and a presenter remote's Page Down) moves on; the lesson plays to its question.
        b.keys(&['n']).await?;
        b.at_step(4, "asking", SECS(120)).await?;
        b.tab_to("choice-lin-8", 80).await?;
        focus_is_visible(b).await?;
        b.keys(&[ENTER]).await?;
        b.at_step(4, "reached", SECS(60)).await?;
        ensure!(b.attr_of("reveal", "data-right").await?.as_deref() == Some("true"));
        b.keys(&[PAGE_DOWN]).await?;
        b.at_step(6, "asking", SECS(60)).await?;
        b.tab_to("choice-void", 80).await?;
        b.keys(&[' ']).await?;
        b.at_step(6, "reached", SECS(60)).await?;
        // Back with Page Up, forward again with the Next button reached by Tab.
        b.keys(&[PAGE_UP]).await?;
        b.at_step(5, "reached", SECS(60)).await?;
        b.keys(&[PAGE_DOWN]).await?;
        b.at_step(6, "reached", SECS(60)).await?;
        b.tab_to("lesson-next", 80).await?;
        focus_is_visible(b).await?;
        b.keys(&[ENTER]).await?;
        b.at_step(7, "asking", SECS(30)).await?;
        b.tab_to("choice-rocks", 80).await?;
        b.keys(&[ENTER]).await?;
        b.at_step(7, "reached", SECS(60)).await?;
        b.keys(&['n']).await?;
        b.at_step(8, "free", SECS(30)).await?;
        // The metaphor table, row by row.
        b.tab_to("metaphor-0", 120).await?;
        b.keys(&[ENTER]).await?;
        ensure!(
            b.attr_of("metaphor-0", "aria-pressed").await?.as_deref() == Some("true"),
            "Enter on a row lights it up"
        );
        // The shortcuts overlay opens with ? and closes with Escape. Its frames come late here,
        // as on a busy machine: keys pressed before the next frame must still find the dialog
        // holding the focus (it takes it when a key comes first, not only at the frame).
        b.eval(
            "window.realFrame = window.requestAnimationFrame; const frame = window.realFrame.bind(window); \
             window.requestAnimationFrame = (f) => { setTimeout(() => frame(f), 500); return 0; };",
            vec![],
        )
        .await?;
        b.keys(&['?']).await?;
        b.wait_exists("help", SECS(5)).await?;
        // The dialog keeps the focus: Tab does not wander to the page behind it.
        b.keys(&['\u{E004}', '\u{E004}', '\u{E004}', '\u{E004}']).await?;
        let inside = b.eval("return !!document.activeElement.closest('[data-testid=\"help\"]');", vec![]).await?;
        ensure!(inside.as_bool() == Some(true), "Tab left the shortcuts list");
        b.keys(&['\u{E00C}']).await?;
        b.wait_until_js("the overlay closed", "return !document.querySelector('[data-testid=\"help\"]');", SECS(5))
            .await?;
        // Closed, it hands the focus back to where the keyboard was.
        let back = "return document.activeElement.getAttribute('data-testid') === 'metaphor-0';";
        b.wait_until_js("the focus back on the row it came from", back, SECS(3)).await?;
        b.eval("window.requestAnimationFrame = window.realFrame;", vec![]).await?;
        b.assert_no_console_errors().await
    })
    .await
}

#[tokio::test]
async fn shortcuts_act_but_not_while_typing() -> Result<()> {
    with_browser("shortcuts", SECS(120), async |b| {
        b.open("?scenario=harbor-zombie").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        let fencing = || async {
            b.eval("return document.querySelector('[data-testid=\"fencing-toggle\"]').className;", vec![]).await
        };
        let before = fencing().await?;
        // F turns fencing off; Space plays; Space again pauses.
        b.keys(&['f']).await?;
        ensure!(fencing().await? != before, "F flipped fencing: {before} then {}", fencing().await?);
        b.keys(&[' ']).await?;
        b.wait_for(
            "sim-time",
            |el| el.attr("data-ms").and_then(|v| v.parse::<u64>().ok()).is_some_and(|t| t > 0),
            SECS(20),
        )
        .await?;
        b.keys(&['+', '+']).await?;
        let speed = b.eval("return document.querySelector('.speed-value').textContent;", vec![]).await?;
        ensure!(speed.as_str() == Some("4×"), "+ + from 1×: {speed}");
        // Typing in a field is typing: the scenario's speed field, the share link's text.
        b.click("share").await?;
        // The link is written by a chunk fetched on first use.
        b.wait_for("share-link", |e| e.value.as_deref().is_some_and(|v| !v.is_empty()), SECS(10)).await?;
        b.press("share-link", "f?").await?;
        ensure!(b.element("help").await?.is_none(), "? in a field is a character, not the overlay");
        b.keys(&['\u{E00C}']).await?;
        // The overlay opened with the `?` button and closed with Escape: Space is play and pause
        // again, not the button's (the focus went back to it).
        let playing = || async {
            let js = "return document.querySelector('[data-testid=\"play-toggle\"]').classList.contains('playing');";
            b.eval(js, vec![]).await.map(|v| v.as_bool())
        };
        let before = playing().await?;
        for opened_by_key in [false, true] {
            if opened_by_key {
                b.eval("document.activeElement && document.activeElement.blur();", vec![]).await?;
                b.keys(&['?']).await?;
            } else {
                b.click("help-open").await?;
            }
            b.wait_exists("help", SECS(5)).await?;
            b.keys(&['\u{E00C}']).await?;
            b.wait_until_js("the overlay closed", "return !document.querySelector('[data-testid=\"help\"]');", SECS(5))
                .await?;
            tokio::time::sleep(Duration::from_millis(200)).await;
            b.keys(&[' ']).await?;
            tokio::time::sleep(Duration::from_millis(300)).await;
            ensure!(b.element("help").await?.is_none(), "Space after Escape reopened the overlay");
            let after = playing().await?;
            ensure!(after != before, "Space after Escape plays or pauses: {before:?} then {after:?}");
            b.keys(&[' ']).await?;
            tokio::time::sleep(Duration::from_millis(300)).await;
            ensure!(playing().await? == before, "Space again undoes it");
        }
        // 2 plays the second built-in.
        b.eval("document.activeElement && document.activeElement.blur();", vec![]).await?;
        b.keys(&['2']).await?;
        let second = leaselab::scenario::library::MENU[1].id;
        b.wait_until_js(
            "the second scenario plays",
            &format!(
                "return document.querySelector('[data-testid=\"scenario-title\"]').dataset.scenario === '{second}';"
            ),
            SECS(20),
        )
        .await?;
        b.assert_no_console_errors().await
    })
    .await
}

#[tokio::test]
async fn the_live_region_narrates_engine_events_at_a_readable_pace() -> Result<()> {
    with_browser("live-region", SECS(120), async |b| {
        b.open("?scenario=harbor-zombie&speed=64&autoplay=1").await?;
        b.wait_exists("live-narration", SECS(30)).await?;
        let region = b.element("live-narration").await?.context("the live region")?;
        ensure!(region.attr("aria-live") == Some("polite"), "{region:?}");
        // At 64× a burst of events is said as one announcement: how many, then the last lines.
        b.wait_for("live-narration", |el| !el.text.trim().is_empty(), SECS(20)).await?;
        let mut seen = Vec::new();
        for _ in 0..6 {
            let text = b
                .eval("return document.querySelector('[data-testid=\"live-narration\"]').textContent;", vec![])
                .await?;
            seen.push(text.as_str().unwrap_or_default().to_owned());
            tokio::time::sleep(Duration::from_millis(1_000)).await;
        }
        let changes = seen.windows(2).filter(|w| w[0] != w[1]).count();
        ensure!(changes <= 3, "at most one announcement every 2.5 s, seen {changes} changes in 6 s: {seen:?}");
        let log = b.log_text().await?;
        let last = seen.last().cloned().unwrap_or_default();
        let line = last.rsplit(':').next().unwrap_or(&last).trim().to_owned();
        ensure!(!line.is_empty(), "an announcement: {seen:?}");
        ensure!(log.contains(line.split('.').next().unwrap_or(&line).trim()), "the same words as the log: {line}");
        b.assert_no_console_errors().await
    })
    .await
}

/// On a phone-sized window, by touch: the lesson's controls are at least 44 px, the page does not
/// overflow sideways, and a question is answered and the lesson moved on by tapping.
#[tokio::test]
async fn a_lesson_by_touch_on_a_phone() -> Result<()> {
    with_browser("touch-lesson", SECS(180), async |b| {
        // A tablet upright: one column, nothing off the side.
        b.client().set_window_size(768, 1024).await?;
        b.open("?lesson=harbor-replaced&step=4").await?;
        b.at_step(4, "asking", SECS(30)).await?;
        let overflow = b.eval("return document.documentElement.scrollWidth - document.documentElement.clientWidth;", vec![]).await?;
        ensure!(overflow.as_i64() == Some(0), "at 768 px the page scrolls sideways by {overflow} px");
        b.client().set_window_size(390, 844).await?;
        b.open("?lesson=harbor-replaced&step=4").await?;
        b.at_step(4, "asking", SECS(30)).await?;
        let overflow = b.eval("return document.documentElement.scrollWidth - document.documentElement.clientWidth;", vec![]).await?;
        ensure!(overflow.as_i64() == Some(0), "the page scrolls sideways by {overflow} px");
        let small = b
            .eval(
                "return [...document.querySelectorAll('.lesson button, .lesson a, .controls button, .top button, select')] \
                   .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44) \
                   .map(e => (e.dataset.testid || e.className || e.tagName) + ' ' + Math.round(e.getBoundingClientRect().height));",
                vec![],
            )
            .await?;
        ensure!(small.as_array().is_some_and(Vec::is_empty), "touch targets under 44 px: {small}");
        b.tap("choice-lin-8").await?;
        b.at_step(4, "reached", SECS(60)).await?;
        b.tap("lesson-next").await?;
        b.at_step(6, "asking", SECS(90)).await?;
        b.tap("choice-void").await?;
        b.at_step(6, "reached", SECS(60)).await?;
        b.assert_no_console_errors().await
    })
    .await
}

/// `prefers-reduced-motion`: the scene moves in steps, not every frame. Sampled every 100 ms for
/// 4 s of play, the clock takes a handful of values, each held for about 0.6 s.
#[tokio::test]
async fn reduced_motion_moves_the_scene_in_steps() -> Result<()> {
    /// The distinct moments the clock showed in 40 readings 100 ms apart, and how long the
    /// readings took in real time (longer than 4 s on a busy machine, where each reading is slow).
    async fn distinct_moments(b: &Browser) -> Result<(usize, Duration)> {
        b.open("?scenario=harbor-zombie&speed=1&autoplay=1").await?;
        b.wait_for("sim-time", |el| el.attr("data-ms").is_some_and(|v| v != "0"), SECS(30)).await?;
        let mut seen = std::collections::BTreeSet::new();
        let started = std::time::Instant::now();
        for _ in 0..40 {
            seen.insert(b.attr_of("sim-time", "data-ms").await?.unwrap_or_default());
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok((seen.len(), started.elapsed()))
    }
    with_browser("reduced-motion", SECS(120), async |b| {
        let (smooth, _) = distinct_moments(b).await?;
        b.emulate_media("prefers-reduced-motion", "reduce").await?;
        let (stepped, took) = distinct_moments(b).await?;
        ensure!(smooth >= 20, "without the preference the scene moves every frame: {smooth} moments in 40 readings");
        // One step every 0.6 s of real time: at most one moment per started 0.6 s, plus the first.
        let most = (took.as_secs_f64() / 0.6).ceil() as usize + 1;
        ensure!(
            (4..=most).contains(&stepped),
            "with reduced motion it moves in steps of 0.6 s: {stepped} moments in {:.1} s (at most {most})",
            took.as_secs_f64()
        );
        b.assert_no_console_errors().await
    })
    .await
}
