//! The app's first frame, drawn into `index.html` at build time (`cargo xtask dist`, `leaselab
//! first-frame`: the page's views rendered natively, issues 14 and 29): what shows while the wasm
//! loads is the app's own first frame, where the app will draw it; only at the bare address, and
//! the app replaces it whole.

use anyhow::{ensure, Context, Result};
use leaselab_browser_tests::{first_frame_markup, first_frame_observer, with_browser, Browser};
use serde_json::{json, Value};
use std::time::Duration;

/// Opens `query` with the wasm refused by the browser, so that the page stays as `index.html`
/// draws it, and returns once its body is parsed.
async fn open_without_wasm(b: &Browser, query: &str) -> Result<()> {
    b.cdp("Network.enable", json!({})).await?;
    b.cdp("Network.setBlockedURLs", json!({"urls": ["*.wasm"]})).await?;
    b.open_now(query).await?;
    b.wait_until_js("the page parsed", "return document.readyState !== 'loading';", Duration::from_secs(20)).await
}

/// What the loading page shows: `[picture shown, first frame shown]`.
async fn shown(b: &Browser) -> Result<(bool, bool)> {
    let v = b
        .eval(
            "const on = s => { const e = document.querySelector(s); \
               return !!e && e.getClientRects().length > 0 || \
                 (!!e && getComputedStyle(e).display === 'contents' && \
                  Array.from(e.children).some(c => c.getClientRects().length > 0)); }; \
             return [on('#boot > .boot-picture'), on('#boot > .boot-scene')];",
            vec![],
        )
        .await?;
    Ok((v[0].as_bool().context("picture")?, v[1].as_bool().context("scene")?))
}

fn rect(v: &Value) -> Result<[f64; 4]> {
    let a = v.as_array().context("a rectangle")?;
    ensure!(a.len() == 4, "a rectangle has four numbers: {v}");
    let mut r = [0.0; 4];
    for (i, x) in a.iter().enumerate() {
        r[i] = x.as_f64().context("a number")?;
    }
    Ok(r)
}

#[tokio::test]
async fn the_page_drawn_at_build_time_is_the_apps_first_frame_in_its_place() -> Result<()> {
    with_browser("first_scene_is_the_apps", Duration::from_secs(120), async |b| {
        b.viewport(1280, 720, false).await?;
        // The app's first frame, as the build took it.
        b.cdp("Page.addScriptToEvaluateOnNewDocument", json!({"source": first_frame_observer()})).await?;
        b.open("").await?;
        let live = first_frame_markup(b, Duration::from_secs(30)).await?;
        let live_scene = rect(&b.eval("return window.__firstFrameScene;", vec![]).await?)?;
        // The app replaced the picture whole: no second scene, nothing of the picture left.
        let left = b.eval("return document.querySelectorAll('#boot, .boot-scene, .boot-note').length;", vec![]).await?;
        ensure!(left == json!(0), "{left} pieces of the loading page are still there once the app runs");
        ensure!(b.count(".scene svg g.bearers").await? >= 1, "the app drew no harbor");

        // The page as index.html draws it, before any code runs.
        open_without_wasm(b, "").await?;
        let (picture, scene) = shown(b).await?;
        ensure!(
            scene && !picture,
            "at the bare address the first frame shows (shown: picture {picture}, frame {scene})"
        );
        // The same nodes, made into a picture the same way (the observer is on this page too).
        let differs = b
            .eval(
                "const drawn = window.__picture(document.querySelector('#boot > .boot-scene').children).innerHTML; \
                 return window.__firstDifference(drawn, arguments[0]);",
                vec![json!(live)],
            )
            .await?;
        let differs = differs.as_str().context("the comparison's answer")?;
        ensure!(
            differs.is_empty(),
            "index.html's first frame is not the app's (rebuild with `cargo xtask dist`): {differs}"
        );
        // It is the opening of the default story: nobody holds the post yet, 0.0 s of 90.0.
        let words = b.eval("return document.querySelector('#boot > .boot-scene').textContent;", vec![]).await?;
        let words = words.as_str().unwrap_or_default();
        for said in ["(nobody)", "Old Chen comes to the breakwater", "0.0", "of 90.0"] {
            ensure!(words.contains(said), "the first frame does not say {said:?}");
        }
        // Where the app will draw it, so nothing jumps when the app takes over.
        let at = rect(
            &b.eval(
                "const r = document.querySelector('#boot .scene svg').getBoundingClientRect(); \
                 return [r.x, r.y, r.width, r.height];",
                vec![],
            )
            .await?,
        )?;
        for i in 0..4 {
            ensure!(
                (at[i] - live_scene[i]).abs() <= 1.0,
                "the first frame's scene is at {at:?}, the app's at {live_scene:?}"
            );
        }
        // A picture, not a page to use: no test id to find instead of the app's, nothing to
        // focus or click, and a screen reader hears that the page is loading.
        let facts = b
            .eval(
                "const s = document.querySelector('#boot > .boot-scene'); \
                 return [s.querySelectorAll('[data-testid]').length, s.inert, \
                   document.querySelector('#boot > .boot-note[role=status]')?.textContent || ''];",
                vec![],
            )
            .await?;
        ensure!(facts[0] == json!(0), "{} test ids in the picture", facts[0]);
        ensure!(facts[1] == json!(true), "the picture is not inert");
        ensure!(facts[2].as_str().is_some_and(|t| t.contains("Loading LeaseLab")), "no loading note: {}", facts[2]);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn another_address_or_a_kept_theme_shows_the_plain_loading_picture() -> Result<()> {
    with_browser("first_scene_plain", Duration::from_secs(90), async |b| {
        // Another language, scenario or link: the first frame would be another page's.
        for query in ["?lang=zh", "?scenario=lantern-ankle", "?fable=lantern"] {
            open_without_wasm(b, query).await?;
            let (picture, scene) = shown(b).await?;
            ensure!(picture && !scene, "{query}: shown picture {picture}, first frame {scene}");
        }
        // A theme kept from a visit (the header's button): the app would draw in it.
        open_without_wasm(b, "").await?;
        ensure!(shown(b).await? == (false, true), "the bare address shows the first frame");
        b.eval("localStorage.setItem('leaselab.theme', 'dark'); return true;", vec![]).await?;
        open_without_wasm(b, "").await?;
        let (picture, scene) = shown(b).await?;
        b.eval("localStorage.removeItem('leaselab.theme'); return true;", vec![]).await?;
        ensure!(picture && !scene, "dark kept: shown picture {picture}, first frame {scene}");
        Ok(())
    })
    .await
}

/// What the first screen is (header, stage, every element of the first module's page) as the
/// browser lays it out and paints it: each element's box and the style that shows.
const FIRST_SCREEN_LOOK: &str = "\
    const props = ['display', 'visibility', 'opacity', 'color', 'background-color', 'font-size', \
      'font-weight', 'fill', 'stroke', 'stroke-width', 'border-top-width', 'border-top-color', \
      'outline-style', 'filter', 'transform', 'z-index', 'position']; \
    return Array.from(document.querySelectorAll('body *')).map(e => { \
      const r = e.getBoundingClientRect(), c = getComputedStyle(e); \
      return [e.tagName, e.className?.baseVal ?? e.className, \
        [r.x, r.y, r.width, r.height].map(Math.round).join(' '), \
        props.map(p => c.getPropertyValue(p)).join('|')].join(' · '); });";

/// The later parts' style sheet (`later.css`, in their chunk, `ui::later`) styles only them:
/// with their chunk refused, the page as the first module draws it looks the same with the
/// sheet put in as the chunk puts it (a `<style>` before the page's own sheet) and without it,
/// on a laptop, on a phone and in the dark theme.
#[tokio::test]
async fn the_later_style_sheet_leaves_the_first_screen_as_it_is() -> Result<()> {
    let sheet = include_str!("../../../assets/later.css");
    with_browser("first_scene_later_sheet", Duration::from_secs(120), async |b| {
        b.cdp("Network.enable", json!({})).await?;
        b.cdp("Network.setBlockedURLs", json!({"urls": ["*split_later_parts*"]})).await?;
        for (width, height, query) in [(1280, 720, ""), (390, 844, ""), (1280, 720, "?theme=dark")] {
            b.viewport(width, height, width < 600).await?;
            b.open_now(query).await?;
            b.wait_until_js(
                "the first scene",
                "return !!document.querySelector('.scene svg');",
                Duration::from_secs(30),
            )
            .await?;
            // Past the first paint, when the page asks for the chunk (refused).
            tokio::time::sleep(Duration::from_secs(1)).await;
            ensure!(b.count("[data-testid=hands]").await? == 0, "the later parts were drawn: their chunk was refused");
            let without = b.eval(FIRST_SCREEN_LOOK, vec![]).await?;
            b.eval(
                "const s = document.createElement('style'); s.dataset.sheet = 'later'; s.textContent = arguments[0]; \
                 document.head.insertBefore(s, document.querySelector('link[rel=stylesheet]')); \
                 return s.sheet.cssRules.length;",
                vec![json!(sheet)],
            )
            .await
            .and_then(|rules| {
                // The sheet was read as the browser reads it: its rules are in force.
                ensure!(rules.as_u64().is_some_and(|n| n > 100), "later.css gave {rules} rules");
                Ok(())
            })?;
            let with = b.eval(FIRST_SCREEN_LOOK, vec![]).await?;
            let (with, without) = (with.as_array().context("a list")?, without.as_array().context("a list")?);
            ensure!(with.len() > 100, "{width}×{height}{query}: only {} elements on the first screen", with.len());
            let changed: Vec<(&Value, &Value)> = with.iter().zip(without).filter(|(a, b)| a != b).collect();
            ensure!(
                changed.is_empty() && with.len() == without.len(),
                "{width}×{height}{query}: later.css changes the first screen: {changed:?}"
            );
        }
        Ok(())
    })
    .await
}
