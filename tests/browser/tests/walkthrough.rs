//! What a fresh walkthrough of the page found (issue 14's last round): the keyboard's focus
//! never falls to the page's body when a control it is on goes away or is disabled; Space on the
//! `?` button opens the shortcuts; the sliders say their values in words; the address keeps the
//! settings a learner changes, so a reload keeps them; the run's title says which fable tells a
//! scenario of the other; the lantern's words stay inside the scene and apart at 1280 × 720 and
//! on a phone; a phone's buttons are 44 px targets; an embedded frame shows its time bar whole.

use anyhow::{ensure, Result};
use leaselab_browser_tests::{with_browser, Browser};
use serde_json::json;
use std::time::Duration;

const SECS: fn(u64) -> Duration = Duration::from_secs;
const ENTER: char = '\u{E007}';
const ESCAPE: char = '\u{E00C}';

/// The test id of the element that has the focus (`BODY` when nothing has).
async fn focused(b: &Browser) -> Result<String> {
    let v = b
        .eval(
            "const a = document.activeElement; return a ? (a.getAttribute('data-testid') || a.tagName) : 'BODY';",
            vec![],
        )
        .await?;
    Ok(v.as_str().unwrap_or_default().to_owned())
}

/// Gives the focus to `[data-testid=<testid>]` as a keyboard user's Tab would leave it.
async fn focus(b: &Browser, testid: &str) -> Result<()> {
    b.eval(&format!("document.querySelector('[data-testid={testid}]').focus();"), vec![]).await?;
    Ok(())
}

/// The page's address's query, as `URLSearchParams` reads it: `name`'s value.
async fn param(b: &Browser, name: &str) -> Result<Option<String>> {
    let v = b.eval("return new URLSearchParams(location.search).get(arguments[0]);", vec![json!(name)]).await?;
    Ok(v.as_str().map(str::to_owned))
}

#[tokio::test]
async fn the_keyboard_focus_stays_on_the_page_and_the_address_keeps_the_settings() -> Result<()> {
    with_browser("walkthrough_keyboard", SECS(240), async |b| {
        b.viewport(1280, 720, false).await?;
        // Back at 0 s is disabled: pressed with the keyboard until it is, it hands the focus to
        // Play rather than to the page's body.
        b.open("?scenario=harbor-zombie&t=1500").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        focus(b, "step-back").await?;
        for _ in 0..40 {
            if b.attr_of("sim-time", "data-ms").await?.as_deref() == Some("0") {
                break;
            }
            b.keys(&[ENTER]).await?;
            b.frames(2).await?;
        }
        ensure!(b.attr_of("sim-time", "data-ms").await?.as_deref() == Some("0"), "Back reached 0 s");
        b.frames(2).await?;
        let now = focused(b).await?;
        ensure!(now == "play-toggle", "Back disabled at 0 s gave the focus to {now}, not to Play");
        // Step at the end is disabled too: the focus goes to Back.
        b.open("?scenario=harbor-zombie&t=89000").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        focus(b, "step").await?;
        for _ in 0..60 {
            if b.attr_of("step", "disabled").await?.is_some() {
                break;
            }
            b.keys(&[ENTER]).await?;
            b.frames(2).await?;
        }
        ensure!(b.attr_of("step", "disabled").await?.is_some(), "Step reached the end");
        b.frames(2).await?;
        let now = focused(b).await?;
        ensure!(now == "step-back", "Step disabled at the end gave the focus to {now}, not to Back");

        // The sliders say their values as the page shows them.
        b.open("?scenario=harbor-zombie&t=12500&speed=4").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        let speed = b.attr_of("speed", "aria-valuetext").await?;
        ensure!(speed.as_deref() == Some("4×"), "the speed slider says {speed:?}");
        let scrub = b.attr_of("scrubber", "aria-valuetext").await?.unwrap_or_default();
        ensure!(scrub.starts_with("12.5 s") && scrub.contains("90.0"), "the time bar says {scrub:?}");

        // Space on the `?` button reached with the keyboard opens the shortcuts; after Escape
        // (the focus back on that button) Space is play and pause again (accessibility.rs).
        b.tab_to("help-open", 40).await?;
        b.keys(&[' ']).await?;
        b.wait_exists("help", SECS(5)).await?;
        b.keys(&[ESCAPE]).await?;
        b.wait_until_js("the overlay closed", "return !document.querySelector('[data-testid=\"help\"]');", SECS(5))
            .await?;

        // The address follows the language, the theme, the speed and the pacing the learner
        // chooses, and a reload keeps them.
        b.open("?scenario=harbor-zombie&lang=zh&speed=4&theme=dark").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        b.click("lang-toggle").await?;
        b.wait_until_js("English", "return document.documentElement.lang === 'en';", SECS(10)).await?;
        b.click("theme-toggle").await?;
        b.click("pacing-toggle").await?;
        b.eval("document.activeElement && document.activeElement.blur();", vec![]).await?;
        b.keys(&['+']).await?;
        b.frames(2).await?;
        let theme = b.eval("return document.documentElement.dataset.theme;", vec![]).await?;
        let theme = theme.as_str().unwrap_or_default().to_owned();
        ensure!(theme != "dark", "the theme button moved on from dark");
        ensure!(param(b, "lang").await?.is_none(), "English is the default: no lang= left");
        let kept = param(b, "theme").await?;
        ensure!(
            kept.as_deref() == Some(theme.as_str()) || (theme == "auto" && kept.is_none()),
            "the address's theme {kept:?}, the page's {theme}"
        );
        ensure!(param(b, "speed").await?.as_deref() == Some("8"), "4× then + is 8×");
        ensure!(param(b, "pacing").await?.as_deref() == Some("true"), "true time in the address");
        let search = b.eval("return location.search;", vec![]).await?;
        b.open(search.as_str().unwrap_or_default()).await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        ensure!(b.attr_of("speed", "aria-valuetext").await?.as_deref() == Some("8×"), "the reload kept 8×");
        let lang = b.eval("return document.documentElement.lang;", vec![]).await?;
        ensure!(lang.as_str() == Some("en"), "the reload kept English: {lang}");
        let again = b.eval("return document.documentElement.dataset.theme;", vec![]).await?;
        ensure!(again.as_str() == Some(theme.as_str()), "the reload kept the theme {theme}: {again}");
        ensure!(b.attr_of("pacing-toggle", "aria-pressed").await?.as_deref() == Some("true"), "and true time");

        // The landing card's button takes the card away; the focus goes to Play.
        b.eval("localStorage.clear();", vec![]).await?;
        b.open("").await?;
        b.wait_exists("landing", SECS(30)).await?;
        b.click("landing-close").await?;
        b.frames(2).await?;
        let now = focused(b).await?;
        ensure!(now == "play-toggle", "after the landing card the focus is on {now}");

        // A value the page could not use is written back as the one it used; once the run moves
        // from the address's moment, that moment leaves the address (a reload starts from 0 s).
        b.open("?scenario=harbor-zombie&speed=3&t=30000").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        b.wait_until_js(
            "speed=3 written as the 4× used",
            "return new URLSearchParams(location.search).get('speed') === '4';",
            SECS(10),
        )
        .await?;
        ensure!(param(b, "t").await?.as_deref() == Some("30000"), "the moment stays while the run is there");
        b.click("step-back").await?;
        b.wait_until_js("t= gone", "return !new URLSearchParams(location.search).has('t');", SECS(10)).await?;

        // Leaving a lesson: the focus goes to Play, and the address names the scenario playing,
        // in English without a `lang=`.
        b.open("?lesson=harbor-replaced&step=2").await?;
        b.wait_exists("lesson-leave", SECS(30)).await?;
        ensure!(param(b, "lang").await?.is_none(), "a lesson in English needs no lang=");
        focus(b, "lesson-leave").await?;
        b.keys(&[ENTER]).await?;
        b.wait_until_js("the lesson left", "return !new URLSearchParams(location.search).has('lesson');", SECS(10))
            .await?;
        b.frames(2).await?;
        let now = focused(b).await?;
        ensure!(now == "play-toggle" || now == "step-back", "after leaving the lesson the focus is on {now}");
        ensure!(param(b, "scenario").await?.is_some(), "the sandbox's address names its scenario");

        // A laptop narrower than 1200 px: the transport bar's controls stay inside it.
        b.viewport(1024, 768, false).await?;
        b.open("?scenario=k8s-duration-mismatch").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        b.frames(3).await?;
        let fits = b
            .eval(
                "const t = document.querySelector('[data-testid=transport]'); return [t.scrollWidth, t.clientWidth];",
                vec![],
            )
            .await?;
        ensure!(fits[0].as_f64() <= fits[1].as_f64().map(|w| w + 1.0), "the bar at 1024 px overflows: {fits}");
        b.viewport(1280, 720, false).await?;

        // A moment past the run's end is echoed exactly as the address gave it.
        b.open("?scenario=harbor-zombie&t=999999999").await?;
        b.wait_exists("url-warning", SECS(30)).await?;
        let said = b.text_of("url-warning").await?;
        ensure!(said.contains("999999.999 s"), "the warning says {said:?}");
        b.assert_no_panic().await
    })
    .await
}

#[tokio::test]
async fn the_title_says_the_fable_and_the_words_stay_in_the_scene() -> Result<()> {
    with_browser("walkthrough_words", SECS(240), async |b| {
        // The harbor's scenario told as the lantern: its title names the harbor's figures, and
        // the header says which fable tells it.
        let own = leaselab::scenario::library::builtin("harbor-zombie").map(|b| b.title_en).unwrap_or_default();
        ensure!(!own.is_empty(), "harbor-zombie is a built-in");
        b.viewport(1280, 720, false).await?;
        b.open("?scenario=harbor-zombie").await?;
        b.wait_exists("scene-harbor", SECS(30)).await?;
        ensure!(b.text_of("scenario-title").await? == own, "the harbor tells its own scenario under its title");
        b.open("?scenario=harbor-zombie&fable=lantern").await?;
        b.wait_exists("scene-lantern", SECS(30)).await?;
        let title = b.text_of("scenario-title").await?;
        ensure!(title.starts_with(own) && title.contains("lantern"), "told as the lantern: {title:?}");

        // A-Xiu's errand at 11.1 s: the tablet's return hour (two lines at this size) and the
        // wick's number in words never overlap; the clasp's words stay inside the scene.
        const BOXES: &str = r#"
            const box = e => { if (!e) return null; const r = e.getBoundingClientRect();
                               return [r.left, r.top, r.right, r.bottom]; };
            const scene = document.querySelector('[data-testid=scene-lantern] svg');
            return { scene: box(scene),
                     ret: box(document.querySelector('[data-testid=tablet-return]')),
                     wick: box(document.querySelector('[data-testid=tablet] .tablet-small')),
                     clasp: [...document.querySelectorAll('[data-testid=clasp] text')].map(box) };
        "#;
        for (w, h, mobile) in [(1280, 720, false), (390, 844, true)] {
            b.viewport(w, h, mobile).await?;
            b.open("?scenario=lantern-ankle&t=11100").await?;
            b.wait_exists("scene-lantern", SECS(30)).await?;
            b.frames(3).await?;
            let v = b.eval(BOXES, vec![]).await?;
            let f = |v: &serde_json::Value, i: usize| v[i].as_f64().unwrap_or(f64::NAN);
            let scene = &v["scene"];
            if let (Some(_), Some(_)) = (v["ret"].as_array(), v["wick"].as_array()) {
                let (ret, wick) = (&v["ret"], &v["wick"]);
                let apart = f(ret, 3) <= f(wick, 1) + 1.0 || f(wick, 3) <= f(ret, 1) + 1.0;
                ensure!(apart, "{w}×{h}: the return hour {ret} and the wick's number {wick} overlap");
            }
            let clasp = v["clasp"].as_array().cloned().unwrap_or_default();
            ensure!(!clasp.is_empty(), "{w}×{h}: the clasp says something");
            for t in clasp.iter().filter(|t| f(t, 2) > f(t, 0)) {
                ensure!(
                    f(t, 0) >= f(scene, 0) - 1.0 && f(t, 2) <= f(scene, 2) + 1.0,
                    "{w}×{h}: the clasp's words {t} run past the scene {scene}"
                );
            }
            if mobile {
                // Every button shown is a 44 px target, the header's 中文 included.
                let small = b
                    .eval(
                        "return [...document.querySelectorAll('button')].filter(e => e.getClientRects().length > 0)\
                           .map(e => [e.getAttribute('data-testid') || e.textContent, e.getBoundingClientRect()])\
                           .filter(([, r]) => r.width < 43.5 || r.height < 43.5).map(([n, r]) => n + ' ' + \
                           Math.round(r.width) + 'x' + Math.round(r.height));",
                        vec![],
                    )
                    .await?;
                ensure!(small.as_array().is_some_and(Vec::is_empty), "buttons under 44 px on a phone: {small}");
            }
        }

        // Embedded at 800 × 460 with the whole transport bar: the script's marks under the time
        // bar are inside the frame.
        b.viewport(800, 460, false).await?;
        b.open("?embed=1&controls=full&scenario=harbor-zombie").await?;
        b.wait_exists("embed", SECS(30)).await?;
        b.frames(3).await?;
        let out = b
            .eval(
                "const marks = [...document.querySelectorAll('[data-testid=script-mark]')];\
                 return [marks.length, marks.filter(m => m.getBoundingClientRect().bottom > innerHeight + 0.5).length];",
                vec![],
            )
            .await?;
        ensure!(out[0].as_u64().unwrap_or(0) > 0, "the embed's time bar shows the script's marks");
        ensure!(out[1].as_u64() == Some(0), "marks cut off by the frame's bottom edge: {out}");
        b.assert_no_panic().await
    })
    .await
}
