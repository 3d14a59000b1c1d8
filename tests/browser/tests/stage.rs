//! The stage (issue 12): the scene, the caption (the current line of the story) and the transport
//! bar lie inside the first screen, with nothing scrolling sideways, at laptop, projector, tablet
//! and phone sizes, in free play, in every step of every lesson and in presenter mode; the
//! landing says what to do first; the figures in the scene are buttons that act on them; the
//! script's steps are marked ahead of time and a learner acting on a node the script will act
//! on again is told so, and may drop those steps.

use anyhow::{ensure, Context, Result};
use leaselab_browser_tests::{with_browser, Browser, ElementState};
use serde_json::{json, Value};
use std::time::Duration;

const SECS: fn(u64) -> Duration = Duration::from_secs;
const ENTER: char = '\u{E007}';

/// The sizes the issue names: laptops and a projector, a phone upright and on its side, a tablet.
const SIZES: [(u32, u32, bool); 7] = [
    (1280, 720, false),
    (1366, 768, false),
    (1440, 900, false),
    (1920, 1080, false),
    (390, 844, true),
    (820, 1180, true),
    (844, 390, true),
];

/// What lies outside the `w` × `h` viewport among the scene shown, the caption and the transport
/// bar (and `extra` test ids), and whether the page scrolls sideways: one line per fault.
async fn off_screen(b: &Browser, extra: &[&str]) -> Result<Vec<String>> {
    const CHECK: &str = r#"
        const vw = window.innerWidth, vh = window.innerHeight;
        const faults = [];
        for (const id of arguments[0]) {
            const css = id.startsWith('.') ? id : '[data-testid="' + id + '"]';
            const shown = [...document.querySelectorAll(css)]
                .filter(el => el.getClientRects().length > 0);
            if (shown.length === 0) { faults.push(id + ' is not shown'); continue; }
            for (const el of shown) {
                const r = el.getBoundingClientRect();
                if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1) {
                    faults.push(id + ' at ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(',')
                        + ' is not inside ' + vw + 'x' + vh);
                }
            }
        }
        // On screen is not enough: the transport bar's buttons must not lie under another part
        // of the page (the diagram's strip once pushed the bar under itself).
        for (const button of document.querySelectorAll('[data-testid="transport"] button')) {
            const r = button.getBoundingClientRect();
            if (r.width === 0 || r.bottom < 0 || r.top > vh) continue;
            const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
            const top = document.elementFromPoint(x, y);
            if (top && !button.contains(top) && !top.closest('dialog, [role="dialog"]')) {
                faults.push('the transport bar\'s ' + (button.dataset.testid || button.className)
                    + ' lies under ' + (top.dataset.testid || top.className || top.tagName));
            }
        }
        const wide = document.documentElement.scrollWidth;
        if (wide > vw + 1) faults.push('the page scrolls sideways (' + wide + ' px wide)');
        return faults;
    "#;
    // The scene shown (of the two fables'), by its class; the rest by test id.
    // The time bar apart from its bar: on a touch screen it is taller than its row.
    let mut ids = vec![".scene-wrap .scene", "caption", "transport", "scrubber"];
    ids.extend_from_slice(extra);
    let v = b.eval(CHECK, vec![json!(ids)]).await?;
    Ok(v.as_array().map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect()).unwrap_or_default())
}

/// What of `css` (selectors) a learner could not see or click without scrolling something: each
/// element shown must lie inside the window and inside the visible box of every ancestor that
/// scrolls or clips (a panel scrolled to its top, as a step opens), and be what a click at its
/// centre reaches. One line per fault.
async fn out_of_reach(b: &Browser, css: &[&str]) -> Result<Vec<String>> {
    const CHECK: &str = r#"
        const vw = window.innerWidth, vh = window.innerHeight;
        const faults = [];
        for (const sel of arguments[0]) {
            for (const el of document.querySelectorAll(sel)) {
                if (el.getClientRects().length === 0) continue;
                const name = el.dataset.testid || sel;
                const r = el.getBoundingClientRect();
                let box = [0, 0, vw, vh], clip = 'the window';
                const cut = () => r.left < box[0] - 1 || r.top < box[1] - 1 || r.right > box[2] + 1 || r.bottom > box[3] + 1;
                if (cut()) { faults.push(name + ' lies outside the window (' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(',') + ')'); continue; }
                for (let a = el.parentElement; a; a = a.parentElement) {
                    const o = getComputedStyle(a);
                    if (o.overflowX === 'visible' && o.overflowY === 'visible') continue;
                    const q = a.getBoundingClientRect();
                    box = [q.left, q.top, q.right, q.bottom];
                    if (cut()) { faults.push(name + ' is cut off inside ' + (a.dataset.testid || a.className || a.tagName) + ' (its bottom at ' + Math.round(r.bottom) + ', the box ends at ' + Math.round(q.bottom) + ')'); break; }
                }
                const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
                if (top && !el.contains(top)) faults.push(name + ' lies under ' + (top.dataset.testid || top.className || top.tagName));
            }
        }
        return faults;
    "#;
    let v = b.eval(CHECK, vec![json!(css)]).await?;
    Ok(v.as_array().map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect()).unwrap_or_default())
}

/// Checks the first screen at every size, naming `what` in the faults; `extra` test ids must be
/// on it too, and on a laptop or larger (where the lesson sits beside the scene) so must
/// `beside` and the page must not scroll.
async fn every_size(b: &Browser, what: &str, extra: &[&str], faults: &mut Vec<String>) -> Result<()> {
    every_size_beside(b, what, extra, &[], faults).await
}

async fn every_size_beside(
    b: &Browser,
    what: &str,
    extra: &[&str],
    beside: &[&str],
    faults: &mut Vec<String>,
) -> Result<()> {
    for (w, h, mobile) in SIZES {
        b.viewport(w, h, mobile).await?;
        // The layout settles after the resize (and the scene's words are fitted to the new size)
        // within a frame or two: three frames drawn.
        b.frames(3).await?;
        let wide = w >= 1000 && h >= 600;
        let mut ids = extra.to_vec();
        if wide {
            ids.extend_from_slice(beside);
        }
        for f in off_screen(b, &ids).await? {
            faults.push(format!("{what} at {w}x{h}: {f}"));
        }
        // The layout, for the README (`--nocapture`): where the scene, the caption and the bar are.
        let at = b
            .eval(
                "const r = css => { const e = [...document.querySelectorAll(css)].find(e => e.getClientRects().length > 0);                    if (!e) return 'none'; const b = e.getBoundingClientRect();                    return Math.round(b.width) + 'x' + Math.round(b.height) + ' at ' + Math.round(b.left) + ',' + Math.round(b.top); };                  return 'scene ' + r('.scene-wrap .scene') + '; caption ' + r('[data-testid=caption]') + '; transport ' + r('[data-testid=transport]');",
                vec![],
            )
            .await?;
        println!("{what} at {w}x{h}: {}", at.as_str().unwrap_or_default());
        if wide && !beside.is_empty() {
            // Beside the scene, the step's way on (Next) and its question's choices are in
            // reach as the step opens: nothing to scroll first.
            for f in out_of_reach(b, &["[data-testid=lesson-next]", "[data-testid^=choice-]"]).await? {
                faults.push(format!("{what} at {w}x{h}: {f}"));
            }
            let scrolls =
                b.eval("return document.documentElement.scrollHeight > window.innerHeight + 1;", vec![]).await?;
            if scrolls.as_bool() == Some(true) {
                faults.push(format!("{what} at {w}x{h}: the page scrolls"));
            }
        }
    }
    b.viewport(1280, 720, false).await
}

#[tokio::test]
async fn the_stage_is_on_the_first_screen_in_free_play_and_presenter_mode() -> Result<()> {
    with_browser("stage-free-play", SECS(240), async |b| {
        let mut faults = Vec::new();
        b.viewport(1280, 720, false).await?;
        // A first visit: the landing card over the scene.
        b.open("").await?;
        b.wait_exists("landing", SECS(30)).await?;
        // The landing's first offer is on the first screen too (on a phone, under the controls).
        every_size(b, "the landing", &["landing-harbor-lesson"], &mut faults).await?;
        for (query, what) in [
            ("?scenario=harbor-zombie&t=62000", "the harbor at 62 s"),
            ("?scenario=lantern-ditch&t=30000", "the lantern at 30 s"),
            ("?scenario=observer-full-wait&t=40000&fable=lantern", "three borrowers"),
            ("?scenario=harbor-zombie&t=62000&presenter=1", "presenter mode"),
            ("?scenario=harbor-zombie&t=62000&lang=zh", "the harbor in Chinese"),
        ] {
            b.open(query).await?;
            b.wait_exists("stage", SECS(30)).await?;
            every_size(b, what, &[], &mut faults).await?;
        }
        ensure!(faults.is_empty(), "{} faults:\n{}", faults.len(), faults.join("\n"));
        b.assert_no_console_errors().await
    })
    .await
}

/// Every step of `lesson` (`steps` of them): the stage and the step's panel on the first screen
/// at every size; a question's reveal too, at 1280 × 720 (into `faults`). Then, on the same page
/// once the step has pointed and its run has come to rest, the pointers clear of the scene's own
/// labels (into `pointer_faults`).
async fn lesson_on_one_screen(
    b: &Browser,
    lesson: &str,
    steps: usize,
    faults: &mut Vec<String>,
    pointer_faults: &mut Vec<String>,
) -> Result<()> {
    for n in 1..=steps {
        b.viewport(1280, 720, false).await?;
        b.eval("localStorage.clear();", vec![]).await?;
        b.open(&format!("?lesson={lesson}&step={n}")).await?;
        b.wait_for("lesson-step", |el| el.attr("data-step") == Some(n.to_string().as_str()), SECS(30))
            .await
            .with_context(|| format!("{lesson} step {n}"))?;
        // Beside the scene on a laptop: the step's panel and its title on the first screen, and no
        // page scroll (a long step scrolls inside its panel); stacked under the stage on a phone.
        every_size_beside(b, &format!("{lesson} step {n}"), &[], &["lesson", "lesson-title"], faults).await?;
        let asks = b.count("[data-testid=\"ask\"]").await? > 0;
        if asks {
            let first = b
                .eval("const c = document.querySelector('[data-testid^=\"choice-\"]'); return c ? c.dataset.testid : null;", vec![])
                .await?;
            let first = first.as_str().context("the question's first choice")?.to_owned();
            b.click(&first).await?;
            // Answered, the line under the choices ("watch the scene…") is whole inside the
            // step's panel: the narration gives way, not it (a fresh walkthrough found its last
            // line under Back and Next).
            b.wait_until_js(
                "the answer taken",
                "return !!document.querySelector('[data-testid=\"lesson-wait\"], [data-testid=\"reveal\"]');",
                SECS(10),
            )
            .await
            .with_context(|| format!("{lesson} step {n}: answered"))?;
            let cut = b
                .eval(
                    "const w = document.querySelector('[data-testid=\"lesson-wait\"]'); \
                     if (!w || !w.closest('.lesson-step')) return null; \
                     const s = w.closest('.lesson-step').getBoundingClientRect(), r = w.getBoundingClientRect(); \
                     return r.top >= s.top - 1 && r.bottom <= s.bottom + 1 ? null \
                       : [r.top, r.bottom, s.top, s.bottom].map(Math.round).join(',');",
                    vec![],
                )
                .await?;
            if let Some(at) = cut.as_str() {
                faults.push(format!(
                    "{lesson} step {n}, answered: the line under the choices is cut by its panel ({at})"
                ));
            }
            // Played at speed to the moment the question is about.
            b.eval("document.querySelector('[data-testid=\"speed\"]').value = 6; document.querySelector('[data-testid=\"speed\"]').dispatchEvent(new Event('input'));", vec![]).await?;
            b.wait_exists("reveal", SECS(90)).await.with_context(|| format!("{lesson} step {n}: the reveal"))?;
            // The panel scrolls the reveal into view once it is drawn; under load that takes
            // longer than a frame or two, so wait (up to 6 s) for it to come to rest inside the
            // window before judging, instead of a fixed sleep.
            let mut outside = off_screen(b, &["lesson", "reveal"]).await?;
            for _ in 0..30 {
                if outside.is_empty() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
                outside = off_screen(b, &["lesson", "reveal"]).await?;
            }
            for f in outside {
                faults.push(format!("{lesson} step {n}, revealed, at 1280x720: {f}"));
            }
            let scrolls =
                b.eval("return document.documentElement.scrollHeight > window.innerHeight + 1;", vec![]).await?;
            if scrolls.as_bool() == Some(true) {
                faults.push(format!("{lesson} step {n}, revealed: the page scrolls at 1280x720"));
            }
        }
        // The step has pointed (a question after its answer, above). Where its run comes to rest
        // (quickly: at the fastest speed), the rings are measured against the words as they
        // finally stand, at 1280 × 720.
        b.eval("document.querySelector('[data-testid=\"speed\"]').value = 6; document.querySelector('[data-testid=\"speed\"]').dispatchEvent(new Event('input'));", vec![]).await?;
        let _ = b
            .wait_until_js(
                "the run comes to rest",
                "return !document.querySelector('[data-testid=\"play-toggle\"]').classList.contains('playing');",
                SECS(30),
            )
            .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        for f in pointers_over_labels(b).await? {
            pointer_faults.push(format!("{lesson} step {n}: {f}"));
        }
    }
    Ok(())
}

/// Every step of every lesson, each opened once for both checks: it fits one screen at every
/// size (a question's reveal too), and its pointers never cover the scene's own labels.
#[tokio::test]
async fn every_lesson_step_fits_one_screen_and_points_clear_of_the_labels() -> Result<()> {
    with_browser("stage-lessons", SECS(1800), async |b| {
        let (mut faults, mut pointer_faults) = (Vec::new(), Vec::new());
        for (lesson, steps) in [("harbor-replaced", 8), ("lantern-return-hour", 11), ("fencing-in-depth", 12)] {
            lesson_on_one_screen(b, lesson, steps, &mut faults, &mut pointer_faults).await?;
        }
        ensure!(faults.is_empty(), "{} faults:\n{}", faults.len(), faults.join("\n"));
        ensure!(pointer_faults.is_empty(), "{} pointer faults:\n{}", pointer_faults.len(), pointer_faults.join("\n"));
        b.assert_no_console_errors().await
    })
    .await
}

fn role(el: &ElementState) -> Option<&str> {
    el.attr("data-role")
}

#[tokio::test]
async fn the_figures_act_with_a_click_and_with_the_keyboard() -> Result<()> {
    with_browser("stage-figures", SECS(180), async |b| {
        b.viewport(1280, 720, false).await?;
        b.open("?scenario=harbor-zombie&t=10000").await?;
        b.wait_exists("node-chen", SECS(30)).await?;
        ensure!(b.element("node-chen").await?.as_ref().and_then(role) == Some("leader"), "Chen leads at 10 s");

        // A click on Chen opens his menu beside him; "Put to sleep" puts him to sleep.
        b.click("node-chen").await?;
        b.wait_until_js(
            "Chen's menu is open",
            "const m = document.querySelector('[data-testid=\"figure-menu\"]'); \
             return m.matches(':popover-open') && m.dataset.figure === 'node-chen';",
            SECS(5),
        )
        .await?;
        let label = b.text_of("node-chen-pause").await?;
        ensure!(label.contains("sleep"), "the first action puts him to sleep: {label}");
        b.click("node-chen-pause").await?;
        b.wait_for("node-chen", |el| role(el) == Some("paused"), SECS(5)).await?;
        ensure!(
            b.eval("return document.querySelector('[data-testid=\"figure-menu\"]').matches(':popover-open');", vec![])
                .await?
                .as_bool()
                == Some(false),
            "the menu closes after the action"
        );

        // The keyboard: Lin's figure takes the focus, Enter opens his menu with the focus on its
        // first action, Enter puts him to sleep.
        b.eval("document.querySelector('[data-testid=\"node-lin\"]').focus();", vec![]).await?;
        b.keys(&[ENTER]).await?;
        b.wait_until_js(
            "the focus is on Lin's first action",
            "const a = document.activeElement; return !!a && a.dataset.testid === 'node-lin-pause';",
            SECS(5),
        )
        .await?;
        b.keys(&[ENTER]).await?;
        b.wait_for("node-lin", |el| role(el) == Some("paused"), SECS(5)).await?;

        // Escape closes a figure's menu (and only the menu), as it does the tools menu.
        let open = "return document.querySelector(':popover-open')?.dataset.testid || '';";
        for opener in ["node-chen", "tools-open"] {
            b.click(opener).await?;
            b.wait_until_js("a menu is open", "return !!document.querySelector(':popover-open');", SECS(5)).await?;
            b.keys(&['\u{E00C}']).await?;
            b.wait_until_js("Escape closed the menu", "return !document.querySelector(':popover-open');", SECS(5))
                .await
                .with_context(|| format!("after {opener}"))?;
            ensure!(b.eval(open, vec![]).await?.as_str() == Some(""), "no menu stays open after Escape ({opener})");
        }

        // Every figure has an accessible name.
        let unnamed = b
            .eval(
                "return [...document.querySelectorAll('.hand')].filter(h => h.getClientRects().length > 0 \
                 && !(h.getAttribute('aria-label') || '').trim()).length;",
                vec![],
            )
            .await?;
        ensure!(unnamed.as_u64() == Some(0), "figures without a name: {unnamed}");

        // The hourglass runs the sand out: the plaque loses its name.
        b.open("?scenario=harbor-zombie&t=10000").await?;
        b.wait_exists("figure-timer", SECS(30)).await?;
        ensure!(b.attr_of("plaque-holder", "data-node").await?.as_deref() == Some("chen"), "Chen on the plaque");
        b.click("figure-timer").await?;
        b.click("act-revoke").await?;
        b.wait_for("plaque-holder", |el| el.attr("data-node") != Some("chen"), SECS(5)).await?;

        // The flag-verifier turns fencing off, and on again.
        b.click("figure-gate").await?;
        ensure!(b.attr_of("act-fencing", "data-on").await?.as_deref() == Some("true"), "fencing starts on");
        b.click("act-fencing").await?;
        b.wait_for("fencing-toggle", |el| el.attr("data-on") == Some("false"), SECS(5)).await?;
        b.click("figure-gate").await?;
        b.click("act-fencing").await?;
        b.wait_for("fencing-toggle", |el| el.attr("data-on") == Some("true"), SECS(5)).await?;

        // In the lantern, the same figures carry the lantern's words.
        b.open("?scenario=lantern-ankle&t=5000").await?;
        b.wait_exists("figure-gate", SECS(30)).await?;
        let gate = b.attr_of("figure-gate", "aria-label").await?.unwrap_or_default();
        ensure!(gate.contains("keeper"), "the gate is the granary keeper: {gate}");
        let timer = b.attr_of("figure-timer", "aria-label").await?.unwrap_or_default();
        ensure!(timer.contains("tablet"), "the timer is the tablet: {timer}");
        b.assert_no_console_errors().await
    })
    .await
}

#[tokio::test]
async fn the_script_is_marked_ahead_and_never_silently_overrules_the_learner() -> Result<()> {
    with_browser("stage-script", SECS(180), async |b| {
        b.viewport(1280, 720, false).await?;
        b.open("?scenario=harbor-zombie&t=10000&speed=64").await?;
        b.wait_exists("node-chen", SECS(30)).await?;
        // harbor-zombie's script: Chen falls asleep at 20 s and wakes at 60 s, both marked on the
        // time bar before they happen.
        let marks = b
            .eval(
                "return [...document.querySelectorAll('[data-testid=\"script-mark\"]')].map(m => m.dataset.ms);",
                vec![],
            )
            .await?;
        ensure!(marks == json!(["20000", "60000"]), "the script's marks: {marks}");

        // Putting Chen to sleep now: the script still wakes him at 60 s, and the page says so.
        b.act_on("chen", "pause").await?;
        let notice = b.wait_for("script-notice", |el| el.attr("hidden").is_none(), SECS(5)).await?;
        ensure!(notice.text.contains("20.0 s") && notice.text.contains("Old Chen"), "the notice: {}", notice.text);
        b.click("script-drop").await?;
        b.wait_for("script-notice", |el| el.attr("hidden").is_some(), SECS(5)).await?;
        let dropped = b
            .eval(
                "return [...document.querySelectorAll('[data-testid=\"script-mark\"]')].map(m => m.dataset.dropped);",
                vec![],
            )
            .await?;
        ensure!(dropped == json!(["true", "true"]), "both of Chen's steps are dropped: {dropped}");
        // Played past 60 s, he sleeps on: the script did not wake him.
        b.click("play-toggle").await?;
        b.wait_for("sim-time", |el| el.attr("data-ms").and_then(|v| v.parse::<u64>().ok()) >= Some(65_000), SECS(60))
            .await?;
        ensure!(b.element("node-chen").await?.as_ref().and_then(role) == Some("paused"), "Chen still sleeps");

        // Kept instead, the script wakes him at 60 s, as the notice said it would.
        b.open("?scenario=harbor-zombie&t=30000&speed=64").await?;
        b.wait_for("node-chen", |el| role(el) == Some("paused"), SECS(30)).await?;
        b.act_on("chen", "pause").await?;
        let notice = b.wait_for("script-notice", |el| el.attr("hidden").is_none(), SECS(5)).await?;
        ensure!(notice.text.contains("60.0 s"), "the next step is the wake-up at 60 s: {}", notice.text);
        b.click("script-keep").await?;
        b.click("play-toggle").await?;
        b.wait_for("sim-time", |el| el.attr("data-ms").and_then(|v| v.parse::<u64>().ok()) >= Some(65_000), SECS(60))
            .await?;
        ensure!(b.element("node-chen").await?.as_ref().and_then(role) != Some("paused"), "the script woke him");
        b.assert_no_console_errors().await
    })
    .await
}

#[tokio::test]
async fn the_landing_says_what_to_do_first() -> Result<()> {
    with_browser("stage-landing", SECS(120), async |b| {
        b.viewport(1280, 720, false).await?;
        b.open("").await?;
        let landing = b.wait_exists("landing", SECS(30)).await?;
        for words in ["Start the harbor lesson", "Play the harbor story", "Play the lantern story"] {
            ensure!(landing.text.contains(words), "the landing offers “{words}”: {}", landing.text);
        }
        // It does not tell the ending before Play.
        ensure!(b.element("scenario-summary").await?.is_none(), "no summary before the run has ended");
        b.click("landing-harbor-story").await?;
        b.wait_until_js("the landing goes", "return !document.querySelector('[data-testid=\"landing\"]');", SECS(5))
            .await?;
        b.wait_for("play-toggle", |el| el.attr("class").is_some_and(|c| c.contains("playing")), SECS(10)).await?;
        ensure!(b.attr_of("scenario-title", "data-scenario").await?.as_deref() == Some("harbor-zombie"), "the harbor");

        b.open("").await?;
        b.wait_exists("landing", SECS(30)).await?;
        b.click("landing-harbor-lesson").await?;
        b.wait_for("lesson-step", |el| el.attr("data-step") == Some("1"), SECS(30)).await?;
        // A link that asks for something is not greeted.
        b.open("?scenario=lantern-ankle").await?;
        b.wait_exists("stage", SECS(30)).await?;
        ensure!(b.element("landing").await?.is_none(), "no landing on a link");
        b.assert_no_console_errors().await
    })
    .await
}

/// The card at the end tells the scenario's written ending only of a run the learner left as
/// written: after putting Chen to sleep for good it says the run was changed instead.
#[tokio::test]
async fn the_recap_tells_the_written_ending_only_of_an_untouched_run() -> Result<()> {
    let path = leaselab_browser_tests::workspace_root().join("assets/scenarios/harbor-zombie.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let written = file["summary"]["en"].as_str().context("harbor-zombie has an English summary")?.to_owned();
    with_browser("stage-recap", SECS(120), async |b| {
        b.viewport(1280, 720, false).await?;
        b.open("?scenario=harbor-zombie&t=90000").await?;
        let told = b.wait_exists("scenario-summary", SECS(30)).await?;
        ensure!(told.text.trim() == written, "untouched, the recap tells the scenario's summary: {}", told.text);

        // Chen put to sleep and the script's waking of him dropped: he never wakes.
        b.open("?scenario=harbor-zombie&t=10000&speed=64").await?;
        b.wait_exists("node-chen", SECS(30)).await?;
        b.act_on("chen", "pause").await?;
        b.click("script-drop").await?;
        b.click("play-toggle").await?;
        let told = b.wait_exists("scenario-summary", SECS(30)).await?;
        ensure!(told.text.trim() != written, "a changed run does not get the written ending");
        ensure!(told.text.contains("You changed this run"), "it says the run was changed: {}", told.text);
        b.assert_no_console_errors().await
    })
    .await
}

#[tokio::test]
async fn compare_shows_both_runs_as_scenes_side_by_side() -> Result<()> {
    with_browser("stage-compare", SECS(120), async |b| {
        b.viewport(1280, 720, false).await?;
        // At 62 s of harbor-zombie the verifier has voided Chen's 7; with fencing off the boat
        // obeyed it after Lin's 8 and ran onto the rocks.
        b.open("?scenario=harbor-zombie&t=62000").await?;
        b.wait_exists("compare-setting", SECS(30)).await?;
        b.eval(
            "const s = document.querySelector('[data-testid=\"compare-setting\"]'); s.value = 'fencing'; \
             s.dispatchEvent(new Event('change', { bubbles: true }));",
            vec![],
        )
        .await?;
        b.wait_until_js(
            "the other run's scene is shown",
            "const o = document.querySelector('[data-testid=\"other-scene\"]'); return !!o && !o.hidden;",
            SECS(10),
        )
        .await?;
        // Side by side on a laptop or a projector, one above the other on a phone; large enough
        // to read either way, with the caption and the transport bar on the first screen.
        for (w, h, mobile) in [(1280, 720, false), (1366, 768, false), (1920, 1080, false), (390, 844, true)] {
            b.viewport(w, h, mobile).await?;
            b.frames(3).await?;
            let rects = b
                .eval(
                    "const r = (el) => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; }; \
                     return [r(document.querySelector('[data-testid=\"scene-harbor\"]')), \
                             r(document.querySelector('[data-testid=\"other-scene\"] .scene'))];",
                    vec![],
                )
                .await?;
            let at = |i: usize, j: usize| rects[i][j].as_f64().unwrap_or(f64::NAN);
            let (w_px, h_px) = (f64::from(w), f64::from(h));
            if mobile {
                ensure!(at(0, 3) <= at(1, 1) + 1.0, "{w}x{h}: one scene above the other: {rects}");
            } else {
                ensure!(at(0, 2) <= at(1, 0) + 1.0, "{w}x{h}: the two scenes stand side by side: {rects}");
            }
            // A third of a laptop's width each at least (the words stay apart), nearly the whole
            // width of a phone.
            let least = if mobile { w_px - 40.0 } else { w_px / 3.0 };
            for i in 0..2 {
                ensure!(at(i, 2) - at(i, 0) >= least, "{w}x{h}: scene {i} is {} px wide, under {least}", at(i, 2) - at(i, 0));
                ensure!(at(i, 2) <= w_px + 1.0 && at(i, 3) <= h_px + 1.0, "{w}x{h}: both on the first screen: {rects}");
            }
            let faults = off_screen(b, &[]).await?;
            ensure!(faults.is_empty(), "{w}x{h}: the caption and the transport bar on screen and uncovered: {faults:?}");
        }
        b.viewport(1280, 720, false).await?;
        let this = b.text_of("this-run-label").await?;
        let other = b.eval("return document.querySelector('[data-testid=\"other-scene\"] .run-label').textContent;", vec![]).await?;
        let other = other.as_str().unwrap_or_default().to_owned();
        ensure!(this.contains("fencing on") && other.contains("fencing off"), "labels: {this} / {other}");
        ensure!(this.contains('≠') && other.contains('≠'), "the first difference is marked on both: {this} / {other}");
        // This run's boat is afloat; the other run's is on the rocks.
        let wrecked = b
            .eval(
                "return [document.querySelector('[data-testid=\"scene-harbor\"] [data-testid=\"boat\"]').classList.contains('wrecked'), \
                         document.querySelector('[data-testid=\"other-scene\"] [data-testid=\"boat\"]').classList.contains('wrecked')];",
                vec![],
            )
            .await?;
        ensure!(wrecked == json!([false, true]), "afloat here, aground without fencing: {wrecked}");
        // The other scene follows the playhead: back at 10 s nothing has parted yet.
        b.eval(
            "const s = document.querySelector('[data-testid=\"scrubber\"]'); s.value = 10000; \
             s.dispatchEvent(new Event('input', { bubbles: true }));",
            vec![],
        )
        .await?;
        b.wait_until_js(
            "the other scene is back at 10 s",
            "return !document.querySelector('[data-testid=\"other-scene\"] [data-testid=\"boat\"]').classList.contains('wrecked');",
            SECS(5),
        )
        .await?;
        b.assert_no_console_errors().await
    })
    .await
}

/// Where a lesson's pointers cross the scene's own words: a ring whose outline runs through a
/// label of the scene (a label wholly inside or outside the ring is fine), or a pointer's term
/// written over one. One line per fault.
async fn pointers_over_labels(b: &Browser) -> Result<Vec<String>> {
    const CHECK: &str = r#"
        const scene = [...document.querySelectorAll('.scene-wrap .scene')].find(s => s.getClientRects().length > 0);
        if (!scene) return ['no scene shown'];
        const box = el => el.getBoundingClientRect();
        const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        const inside = (a, b, m) => a.left >= b.left + m && a.right <= b.right - m && a.top >= b.top + m && a.bottom <= b.bottom - m;
        const words = [...scene.querySelectorAll('svg text')]
            .filter(t => !t.closest('.pointers') && t.textContent.trim() && t.getClientRects().length > 0)
            .map(t => ({ what: t.textContent.trim(), r: box(t) }))
            .filter(w => w.r.width > 0 && w.r.height > 0);
        const faults = [];
        for (const p of scene.querySelectorAll('.pointers .pointer')) {
            const name = p.dataset.element;
            const ring = p.querySelector('.pointer-ring');
            const label = p.querySelector('.pointer-label');
            const rr = ring ? box(ring) : null;
            for (const w of words) {
                // Wholly outside or wholly inside (clear of the outline's width) is fine.
                if (rr && meets(w.r, rr) && !inside(w.r, rr, 3)) faults.push(name + ' ring crosses “' + w.what + '”');
                if (label && meets(w.r, box(label))) faults.push(name + ' term over “' + w.what + '”');
            }
        }
        return faults;
    "#;
    let v = b.eval(CHECK, vec![]).await?;
    Ok(v.as_array().map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect()).unwrap_or_default())
}

/// The smallest words a reader meets: every visible `text` of the scene shown (and of `extra`
/// CSS selectors, outside the scene) with its rendered size in CSS px (the font size times the
/// picture's scale); the ones under `min_px`, one line each, the smallest first.
async fn small_words(b: &Browser, scene: bool, extra: &str, min_px: f64) -> Result<Vec<String>> {
    const CHECK: &str = r#"
        const [withScene, extra, min] = arguments;
        const out = [];
        const scene = [...document.querySelectorAll('.scene-wrap .scene')].find(s => s.getClientRects().length > 0);
        const shown = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
            && getComputedStyle(el).opacity !== '0';
        if (scene && withScene) {
            for (const t of scene.querySelectorAll('svg text')) {
                if (!t.textContent.trim() || !shown(t)) continue;
                const m = t.getScreenCTM();
                if (!m) continue;
                const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
                if (px < min) out.push([px, '“' + t.textContent.trim() + '” in the scene']);
            }
        }
        if (extra) {
            for (const el of document.querySelectorAll(extra)) {
                if (!shown(el)) continue;
                const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
                if (!own) continue;
                const px = parseFloat(getComputedStyle(el).fontSize);
                if (px < min) out.push([px, '“' + el.textContent.trim().slice(0, 30) + '”']);
            }
        }
        out.sort((a, b) => a[0] - b[0]);
        return out.map(([px, what]) => px.toFixed(1) + ' px: ' + what);
    "#;
    let v = b.eval(CHECK, vec![json!(scene), json!(extra), json!(min_px)]).await?;
    Ok(v.as_array().map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect()).unwrap_or_default())
}

/// Embedded at 800 × 460 with the diagram, on a phone, and on a laptop, the scene's words are at
/// least 10 px; on a phone the technical view's and the resource's tables are too, and neither
/// loses a column off its edge nor breaks a word letter by letter.
#[tokio::test]
async fn the_scenes_words_and_the_tables_are_readable_on_small_screens() -> Result<()> {
    with_browser("stage-readable", SECS(300), async |b| {
        let mut faults = Vec::new();
        for (query, (w, h, mobile), what) in [
            ("?scenario=harbor-zombie&t=62000", (1280, 720, false), "the harbor at 1280x720"),
            ("?scenario=lantern-ditch&t=30000&fable=lantern", (1280, 720, false), "the lantern at 1280x720"),
            ("?scenario=harbor-zombie&t=62000&embed=1&diagram=1", (800, 460, false), "the harbor embedded"),
            ("?scenario=lantern-ditch&t=30000&fable=lantern&embed=1&diagram=1", (800, 460, false), "the lantern embedded"),
            ("?scenario=harbor-zombie&t=62000", (390, 844, true), "the harbor on a phone"),
            ("?scenario=lantern-ditch&t=30000&fable=lantern", (390, 844, true), "the lantern on a phone"),
            ("?scenario=observer-full-wait&t=40000&fable=lantern", (390, 844, true), "three borrowers on a phone"),
        ] {
            b.viewport(w, h, mobile).await?;
            b.open(query).await?;
            b.wait_exists("caption", SECS(30)).await?;
            tokio::time::sleep(Duration::from_millis(300)).await;
            for f in small_words(b, true, "", 10.0).await? {
                faults.push(format!("{what}: {f}"));
            }
            // Embedded with the diagram, the scene is still most of the frame.
            if query.contains("embed=1") {
                let share = b
                    .eval("const e = [...document.querySelectorAll('.scene-wrap .scene')].find(e => e.getClientRects().length > 0); if (!e) return 0; const r = e.getBoundingClientRect(); return r.width * r.height / (innerWidth * innerHeight);", vec![])
                    .await?
                    .as_f64()
                    .unwrap_or(0.0);
                if share < 0.5 {
                    faults.push(format!("{what}: the scene is {:.0} % of the frame", share * 100.0));
                }
            }
        }
        // The tables, on a phone: open the technical tab.
        b.viewport(390, 844, true).await?;
        b.open("?scenario=harbor-zombie&t=62000").await?;
        b.wait_exists("caption", SECS(30)).await?;
        b.open_tab("technical").await?;
        for (view, tab) in [("kubectl", "technical-view"), ("resource", "resource-table")] {
            b.reveal(tab).await?;
            tokio::time::sleep(Duration::from_millis(200)).await;
            let sel = format!("[data-testid=\"{tab}\"] *");
            for f in small_words(b, false, &sel, 10.0).await? {
                faults.push(format!("{view} on a phone: {f}"));
            }
            let cut = b
                .eval(
                    r#"const out = [];
                       for (const el of document.querySelectorAll(arguments[0])) {
                           if (el.getClientRects().length === 0) continue;
                           const r = el.getBoundingClientRect();
                           if (r.right > window.innerWidth + 1) out.push(el.tagName + ' “' + el.textContent.trim().slice(0, 30) + '” ends at ' + Math.round(r.right));
                           if (/^T[DH]$/.test(el.tagName) && el.scrollWidth > el.clientWidth + 1) out.push('cell “' + el.textContent.trim().slice(0, 30) + '” overflows');
                           if (/^T[DH]$/.test(el.tagName)) {
                               const words = el.textContent.trim().split(/\s+/).filter(w => w.length > 3);
                               if (words.length === 1 && el.getBoundingClientRect().height > 3 * parseFloat(getComputedStyle(el).fontSize) * 1.6) out.push('cell “' + words[0] + '” breaks letter by letter');
                           }
                       }
                       return out;"#,
                    vec![json!(sel)],
                )
                .await?;
            for f in cut.as_array().into_iter().flatten().filter_map(Value::as_str) {
                faults.push(format!("{view} on a phone: {f}"));
            }
        }
        ensure!(faults.is_empty(), "{} faults:\n{}", faults.len(), faults.join("\n"));
        b.assert_no_console_errors().await
    })
    .await
}
