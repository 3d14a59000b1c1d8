//! `cargo xtask bench`: LeaseLab measured beside a copy of RaftScope, in the same run, in the same
//! headless Chromium, from the same server (issue 14). It prints the figures and their ratios
//! (LeaseLab / RaftScope) and whether each of the issue's goals is met, and writes the same as JSON
//! to `target/bench/bench.json`. A measurement, not a test: nothing here fails on a figure.
//!
//! * The server ([`StaticServer::start_precompressed`]) holds LeaseLab's `dist/` under
//!   `/leaselab/` and RaftScope's directory (read where it is, `../shared/peers/raftscope/` beside
//!   the repository, or `--raftscope DIR`) under `/raftscope/`, every file with its brotli
//!   (quality 11) computed at start, sent with `Content-Encoding: br` when the request accepts it,
//!   on kept-alive connections, with the same headers for both pages.
//! * Page weight: the body bytes the server sent during a cold first load (from the page's
//!   navigation until 1.5 s without a request after its first scene), per file.
//! * First scene: an observer injected before the page's own scripts
//!   (`Page.addScriptToEvaluateOnNewDocument`) notes, in the new document's `performance.now()`
//!   (milliseconds from navigation start), the first animation frame after the page's scene is
//!   in the DOM with its content ([`OBSERVER`] says what that is for each page). Cold loads: the
//!   DevTools cache is off and the server says `no-store`. Four conditions (plain, CPU 4×, a slow
//!   link, both), `--runs` loads per page in each, LeaseLab and RaftScope taking turns (which one
//!   goes first alternates).
//! * Frames: the gaps between animation frames over `--frame-secs` seconds, LeaseLab at 64× on
//!   `harbor-zombie` stretched to an hour with its space-time diagram on screen, RaftScope at its
//!   fastest speed with its simulation running; plain and CPU 4×.
//! * `--search` (alone): the search worker (issue 30) on a fixed question: `harbor-zombie`
//!   without its script, a goal never met there (`lock_deleted_by_non_owner`, so the whole
//!   bounded space is walked), two interventions on the default space, [`SEARCH_STATES`] states.
//!   The same search natively (the release `leaselab search`) in the same run; the page's frames
//!   while the worker searches, with the harbor playing at 64×, beside its frames just before.
//! * `--before DIR`: another build of LeaseLab (an earlier commit's `dist/`), served under
//!   `/before/` and measured in the same run, in the same turns, as a third page: its first scene
//!   and frames are printed beside this build's, each with its ratio to RaftScope (issue 29:
//!   before and after, side by side in one run).

use anyhow::{bail, ensure, Context, Result};
use leaselab_browser_tests::{
    dist_dir, hour_link, start_search_worker, workspace_root, Browser, Precompressed, Served, StaticServer,
};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const USAGE: &str = "\
usage: cargo xtask bench [--runs N] [--frame-secs S] [--raftscope DIR] [--before DIR] [--out FILE]
       cargo xtask bench --search

  --runs N         cold loads per page in each of the four conditions (default 15)
  --frame-secs S   seconds of animation frames collected per page and condition (default 10)
  --raftscope DIR  RaftScope, ready to serve (default ../shared/peers/raftscope beside the repository)
  --before DIR     another LeaseLab build (an earlier commit's dist/), measured beside this one
  --out FILE       where the JSON goes (default target/bench/bench.json)
  --search         only the search: states per second in the browser's worker and natively, and
                   the page's frames while it searches";

/// The search benchmark's bound: this many distinct states.
const SEARCH_STATES: u64 = 1_000_000;
/// Issue 30's goals: states per second in the browser, and the page's frame p95 meanwhile.
const SEARCH_STATES_GOAL: f64 = 100_000.0;
const SEARCH_FRAME_GOAL_MS: f64 = 20.0;

/// Issue 14's goal for LeaseLab's first load (brotli).
const WEIGHT_GOAL_BYTES: u64 = 150_000;
/// Frame times are vsync-quantised and their timestamps jitter by a fraction of a millisecond:
/// two p95s this close are the same frame rate.
const FRAME_TOLERANCE_MS: f64 = 1.0;
/// How long a page runs before its frames are collected.
const SETTLE: Duration = Duration::from_secs(2);
/// The slow link: 1.6 Mbit/s both ways (200 000 bytes/s) and 150 ms of latency.
const SLOW_BYTES_PER_S: u64 = 200_000;
const SLOW_LATENCY_MS: u64 = 150;

/// Injected into every document before its own scripts. For a LeaseLab or RaftScope page it
/// watches the DOM (a `MutationObserver` on the document) until the page's scene is there with
/// its content, notes that moment (`inDom`) and then the first animation frame after it
/// (`frame`, `performance.now()` in the `requestAnimationFrame` callback: the frame that draws
/// it). Both in milliseconds from the navigation's start. It also notes the first frame of the
/// page's running scene (`app`): the same for RaftScope, later for LeaseLab.
///
/// * LeaseLab: the harbor scene's SVG (`[data-testid=scene-harbor] svg`) holds its figures, the
///   flag-bearers (`g.bearers` has a child). Before the wasm runs, `index.html` shows the app's
///   first frame drawn at build time (`#boot > .boot-scene`, `cargo xtask dist`): it counts as
///   the first scene once it is parsed whole (the line after it, `.boot-note`, is there) and
///   shown (the page is not `data-boot="plain"`). The plain loading picture does not count.
///   `app` is the first frame of the app's own scene.
/// * RaftScope: its five servers are drawn in its SVG: five `#servers g.server`, each with its
///   term written (`text.term` not empty), which its first `render.update()` does.
const OBSERVER: &str = r#"(() => {
  const path = location.pathname;
  let drawn, running;
  if (path.startsWith('/leaselab/') || path.startsWith('/before/')) {
    running = () => !!document.querySelector('[data-testid="scene-harbor"] svg g.bearers > *');
    drawn = () => running() || (document.documentElement.dataset.boot !== 'plain'
      && !!document.querySelector('#boot > .boot-note')
      && !!document.querySelector('#boot > .boot-scene svg g.bearers > *'));
  } else if (path.startsWith('/raftscope/')) {
    drawn = running = () => {
      const terms = document.querySelectorAll('#servers g.server text.term');
      return terms.length === 5 && Array.from(terms).every(t => t.textContent !== '');
    };
  } else {
    return;
  }
  const b = window.__bench = { inDom: null, frame: null, app: null, done: null };
  const report = () => {
    if (b.done && b.frame !== null && b.app !== null) b.done({ inDom: b.inDom, frame: b.frame, app: b.app });
  };
  const mo = new MutationObserver(() => {
    if (b.inDom === null && drawn()) {
      b.inDom = performance.now();
      requestAnimationFrame(() => { b.frame = performance.now(); report(); });
    }
    if (b.inDom !== null && running()) {
      mo.disconnect();
      requestAnimationFrame(() => { b.app = performance.now(); report(); });
    }
  });
  mo.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
})();"#;

/// Resolves with `{inDom, frame, app}` once the first scene and the running one are on screen
/// (null without the observer).
const WAIT_FIRST_SCENE: &str = "const done = arguments[arguments.length - 1]; const b = window.__bench; \
    if (!b) { done(null); return; } \
    if (b.frame !== null && b.app !== null) done({ inDom: b.inDom, frame: b.frame, app: b.app }); else b.done = done;";

/// Resolves with the gaps between animation frames over `arguments[0]` milliseconds.
const COLLECT_FRAMES: &str = "const ms = arguments[0]; const done = arguments[arguments.length - 1]; \
    const gaps = []; let last = null; const start = performance.now(); \
    function f(t) { if (last !== null) gaps.push(t - last); last = t; \
      if (t - start < ms) requestAnimationFrame(f); else done(gaps); } \
    requestAnimationFrame(f);";

/// The bytes the page's Resource Timing saw (the document and every resource, encoded), to
/// check the server's count.
/// Of those, the bytes of the requests the page started before its first scene was in the DOM
/// (`arguments[0]`, ms from the navigation's start): what the first scene waited for, where the
/// rest is fetched once it is up.
const BYTES_BEFORE: &str = "const t = arguments[0]; \
    return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource')) \
    .filter(e => e.startTime <= t).reduce((sum, e) => sum + (e.encodedBodySize || 0), 0);";

const RESOURCE_BYTES: &str =
    "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource')) \
    .reduce((sum, e) => sum + (e.encodedBodySize || 0), 0);";

#[derive(Clone, Copy, PartialEq, Debug)]
enum Page {
    LeaseLab,
    RaftScope,
    /// The build given with `--before`.
    Before,
}

impl Page {
    fn name(self) -> &'static str {
        match self {
            Page::LeaseLab => "LeaseLab",
            Page::RaftScope => "RaftScope",
            Page::Before => "LeaseLab before",
        }
    }
    fn prefix(self) -> &'static str {
        match self {
            Page::LeaseLab => "/leaselab/",
            Page::RaftScope => "/raftscope/",
            Page::Before => "/before/",
        }
    }
    fn key(self) -> &'static str {
        match self {
            Page::LeaseLab => "leaselab",
            Page::RaftScope => "raftscope",
            Page::Before => "before",
        }
    }
}

/// The pages in turn (with `before`, the earlier build as a third), the first of them going
/// round with `i`.
fn in_turn(i: usize, before: bool) -> Vec<Page> {
    let mut pages = vec![Page::LeaseLab, Page::RaftScope];
    if before {
        pages.push(Page::Before);
    }
    let n = pages.len();
    pages.rotate_left(i % n);
    pages
}

#[derive(Clone, Copy)]
struct Condition {
    name: &'static str,
    key: &'static str,
    cpu: f64,
    slow_link: bool,
}

const PLAIN: Condition = Condition { name: "plain", key: "plain", cpu: 1.0, slow_link: false };
const CPU4: Condition = Condition { name: "CPU 4×", key: "cpu4", cpu: 4.0, slow_link: false };
const SLOW: Condition = Condition { name: "slow link", key: "slow_link", cpu: 1.0, slow_link: true };
const BOTH: Condition = Condition { name: "CPU 4× + slow link", key: "cpu4_slow_link", cpu: 4.0, slow_link: true };

struct Options {
    search: bool,
    runs: usize,
    frame_secs: u64,
    raftscope: PathBuf,
    before: Option<PathBuf>,
    out: PathBuf,
}

fn options() -> Result<Options> {
    let root = workspace_root();
    let mut o = Options {
        search: false,
        runs: 15,
        frame_secs: 10,
        raftscope: std::env::var_os("LEASELAB_RAFTSCOPE")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("../shared/peers/raftscope")),
        before: None,
        out: root.join("target/bench/bench.json"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().with_context(|| format!("{arg} needs a value\n\n{USAGE}"));
        match arg.as_str() {
            "--runs" => o.runs = value()?.parse().context("--runs takes a number")?,
            "--frame-secs" => o.frame_secs = value()?.parse().context("--frame-secs takes a number of seconds")?,
            "--raftscope" => o.raftscope = PathBuf::from(value()?),
            "--before" => o.before = Some(PathBuf::from(value()?)),
            "--out" => o.out = PathBuf::from(value()?),
            "--search" => o.search = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => bail!("unknown argument `{other}`\n\n{USAGE}"),
        }
    }
    ensure!(o.runs > 0 && o.frame_secs > 0, "--runs and --frame-secs must be at least 1");
    Ok(o)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    match bench().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn bench() -> Result<()> {
    let o = options()?;
    if o.search {
        return search_bench().await;
    }
    let started = Instant::now();
    let date = utc_now();
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let loadavg = load_average();
    let dist = dist_dir();
    ensure!(
        dist.join("index.html").is_file(),
        "{} has no index.html: build it with `cargo xtask dist`",
        dist.display()
    );
    ensure!(
        o.raftscope.join("index.html").is_file(),
        "{} has no index.html: RaftScope is read from ../shared/peers/raftscope beside the repository \
         (or --raftscope DIR)",
        o.raftscope.display()
    );
    let raftscope = o.raftscope.canonicalize()?;
    println!("LeaseLab beside RaftScope, {date}: {cores} CPU cores, load average at start {loadavg}");
    println!("LeaseLab: {}; RaftScope: {}", dist.display(), raftscope.display());
    let mut dirs = vec![(Page::LeaseLab.prefix(), dist.clone()), (Page::RaftScope.prefix(), raftscope)];
    if let Some(before) = &o.before {
        ensure!(before.join("index.html").is_file(), "--before {}: no index.html there", before.display());
        println!("LeaseLab before: {}", before.display());
        dirs.push((Page::Before.prefix(), before.canonicalize()?));
    }

    let t = Instant::now();
    let dirs: Vec<(&str, &std::path::Path)> = dirs.iter().map(|(p, d)| (*p, d.as_path())).collect();
    let site = Arc::new(Precompressed::load(&dirs)?);
    let (files, raw, br) = site.totals();
    println!(
        "server: {files} files ({} raw, {} as served with brotli) held in memory, compressed in {:.1} s",
        kb(raw),
        kb(br),
        t.elapsed().as_secs_f64()
    );
    let browser =
        Browser::start_with_server(|| StaticServer::start_precompressed(site.clone()), Page::LeaseLab.prefix())
            .await
            .context("starting Chromium")?;
    let result = measure(&browser, &o, Meta { date, cores, loadavg, started, site: (files, raw, br) }).await;
    browser.close().await;
    result
}

struct Meta {
    date: String,
    cores: usize,
    loadavg: String,
    started: Instant,
    /// The server's files: how many, their bytes, their bytes as served with brotli.
    site: (usize, u64, u64),
}

async fn measure(b: &Browser, o: &Options, meta: Meta) -> Result<()> {
    use fantoccini::wd::TimeoutConfiguration;
    let port = b.server().port;
    let url = |page: Page| format!("http://127.0.0.1:{port}{}", page.prefix());
    b.client()
        .update_timeouts(TimeoutConfiguration::new(
            Some(Duration::from_secs(120)),
            Some(Duration::from_secs(120)),
            Some(Duration::ZERO),
        ))
        .await?;
    b.cdp("Network.enable", json!({})).await?;
    b.cdp("Network.setCacheDisabled", json!({"cacheDisabled": true})).await?;
    b.cdp("Page.addScriptToEvaluateOnNewDocument", json!({"source": OBSERVER})).await?;
    let version = b.cdp("Browser.getVersion", json!({})).await?;
    let chromium = version["product"]
        .as_str()
        .unwrap_or("Chrome/?")
        .replace("HeadlessChrome/", "Chromium ")
        .replace("Chrome/", "Chromium ");
    println!("browser: {chromium}, headless, a fresh profile, DevTools cache disabled");

    // ---- Page weight (also each page's warm-up load)
    header("Page weight: a cold first load, body bytes as the server sent them");
    let mut weights = Vec::new();
    for page in [Page::LeaseLab, Page::RaftScope] {
        set_condition(b, PLAIN).await?;
        b.server().clear_log();
        let scene = cold_load(b, &url(page)).await?;
        // Whatever the page fetches once its scene is up (its scenario, a font) is part of it.
        let mut seen = b.server().served().len();
        let mut quiet_since = Instant::now();
        let limit = Instant::now() + Duration::from_secs(20);
        while quiet_since.elapsed() < Duration::from_millis(1500) && Instant::now() < limit {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let now = b.server().served().len();
            if now != seen {
                (seen, quiet_since) = (now, Instant::now());
            }
        }
        let served: Vec<Served> =
            b.server().served().into_iter().filter(|s| s.path.starts_with(page.prefix()) || s.status != 200).collect();
        let timing_bytes = b.eval(RESOURCE_BYTES, vec![]).await?.as_u64().unwrap_or(0);
        let before_scene = b.eval(BYTES_BEFORE, vec![json!(scene.in_dom)]).await?.as_u64().unwrap_or(0);
        let w = Weight::of(page, served, timing_bytes, before_scene);
        w.print(&scene);
        weights.push(w);
    }
    let (lw, rw) = (&weights[0], &weights[1]);
    println!(
        "ratio LeaseLab / RaftScope: {:.2}× in all, {:.2}× before the first scene; goal LeaseLab ≤ {} before its first scene: {}",
        lw.bytes as f64 / rw.bytes as f64,
        lw.before_scene as f64 / rw.before_scene as f64,
        kb(WEIGHT_GOAL_BYTES),
        met(lw.before_scene <= WEIGHT_GOAL_BYTES)
    );
    let accept: Vec<String> = {
        let mut a: Vec<String> =
            weights.iter().flat_map(|w| w.served.iter().filter_map(|s| s.accept_encoding.clone())).collect();
        a.sort();
        a.dedup();
        a
    };
    let with_br = weights.iter().flat_map(|w| &w.served).filter(|s| s.encoding == Some("br")).count();
    let all = weights.iter().map(|w| w.served.len()).sum::<usize>();
    println!(
        "Accept-Encoding Chromium sent to http://127.0.0.1: {}; answered with Content-Encoding: br: {with_br} of {all} requests",
        accept.iter().map(|a| format!("\"{a}\"")).collect::<Vec<_>>().join(", ")
    );

    // ---- First scene
    header(&format!(
        "First scene on screen: ms from navigation start, {} cold loads per page per condition, taking turns",
        o.runs
    ));
    let mut scenes = Vec::new();
    for cond in [PLAIN, CPU4, SLOW, BOTH] {
        set_condition(b, cond).await?;
        let t = Instant::now();
        let mut times: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        let mut in_dom: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        let mut running: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        for i in 0..o.runs {
            for page in in_turn(i, o.before.is_some()) {
                let scene = cold_load(b, &url(page)).await?;
                times[page as usize].push(scene.frame);
                in_dom[page as usize].push(scene.in_dom);
                running[page as usize].push(scene.app);
            }
        }
        let (l, r) = (Stats::of(&times[0]), Stats::of(&times[1]));
        let app = Stats::of(&running[0]);
        println!(
            "{:<20} LeaseLab median {:>6.0} p90 {:>6.0} (its app running: {:>6.0}) | RaftScope median {:>6.0} p90 {:>6.0} | ratio {:.2}  ({:.0} s)",
            cond.name,
            l.p50,
            l.p90,
            app.p50,
            r.p50,
            r.p90,
            l.p50 / r.p50,
            t.elapsed().as_secs_f64()
        );
        if o.before.is_some() {
            let e = Stats::of(&times[2]);
            println!(
                "{:<20} LeaseLab before median {:>6.0} p90 {:>6.0} | ratio to RaftScope {:.2}",
                "",
                e.p50,
                e.p90,
                e.p50 / r.p50
            );
        }
        scenes.push((cond, times, in_dom, running, l, r, app));
    }
    set_condition(b, PLAIN).await?;

    // ---- Frames at 64×
    header(&format!(
        "Frames: gaps between animation frames over {} s, LeaseLab at 64×, RaftScope at its fastest",
        o.frame_secs
    ));
    let link = hour_link()?;
    let mut frames = Vec::new();
    for (i, cond) in [PLAIN, CPU4].into_iter().enumerate() {
        let mut got: Vec<(Page, Stats, Value)> = Vec::new();
        for page in in_turn(i, o.before.is_some()) {
            set_condition(b, cond).await?;
            let (gaps, about) = frame_gaps(b, page, &url(page), &link, o.frame_secs).await?;
            got.push((page, Stats::of(&gaps), about));
        }
        got.sort_by_key(|(p, _, _)| *p as usize);
        let (l, r) = (&got[0].1, &got[1].1);
        println!(
            "{:<8} LeaseLab p50 {:>5.1} p95 {:>5.1} max {:>6.1} ms ({} frames) | RaftScope p50 {:>5.1} p95 {:>5.1} max {:>6.1} ms ({} frames) | p95 ratio {:.2}",
            cond.name, l.p50, l.p95, l.max, l.n, r.p50, r.p95, r.max, r.n, l.p95 / r.p95
        );
        println!(
            "         LeaseLab: {}; RaftScope: {}",
            got[0].2["note"].as_str().unwrap_or(""),
            got[1].2["note"].as_str().unwrap_or("")
        );
        if let Some((_, e, _)) = got.get(2) {
            println!(
                "         LeaseLab before p50 {:>5.1} p95 {:>5.1} max {:>6.1} ms ({} frames) | p95 ratio to RaftScope {:.2}",
                e.p50,
                e.p95,
                e.max,
                e.n,
                e.p95 / r.p95
            );
        }
        frames.push((cond, got));
    }
    set_condition(b, PLAIN).await?;

    // ---- Summary
    let took = meta.started.elapsed();
    let load_at_end = load_average();
    let mut table = String::new();
    let w = &mut table;
    writeln!(w)?;
    writeln!(w, "==== Summary: LeaseLab / RaftScope, {} ====", meta.date)?;
    writeln!(
        w,
        "{} CPU cores, load average at start {}, at the end {load_at_end}; {chromium}; {} runs; took {}",
        meta.cores,
        meta.loadavg,
        o.runs,
        minutes(took)
    )?;
    writeln!(w, "{:<46} {:>16} {:>16} {:>6}  goal", "figure", "LeaseLab", "RaftScope", "ratio")?;
    writeln!(
        w,
        "{:<46} {:>16} {:>16} {:>6}  ≤ {}: {}",
        "first load before the first scene, brotli",
        kb(lw.before_scene),
        kb(rw.before_scene),
        format!("{:.2}", lw.before_scene as f64 / rw.before_scene as f64),
        kb(WEIGHT_GOAL_BYTES),
        met(lw.before_scene <= WEIGHT_GOAL_BYTES)
    )?;
    writeln!(
        w,
        "{:<46} {:>16} {:>16} {:>6}",
        "first load in all (what it fetches on its own)",
        kb(lw.bytes),
        kb(rw.bytes),
        format!("{:.2}", lw.bytes as f64 / rw.bytes as f64),
    )?;
    let mut goals = vec![json!({
        "goal": format!("LeaseLab's first load before its first scene ≤ {WEIGHT_GOAL_BYTES} bytes brotli"),
        "met": lw.before_scene <= WEIGHT_GOAL_BYTES
    })];
    for (cond, times, _, _, l, r, app) in &scenes {
        let ok = l.p50 < r.p50;
        writeln!(
            w,
            "{:<46} {:>16} {:>16} {:>6}  LeaseLab first: {}",
            format!("first scene, {} (median / p90)", cond.name),
            format!("{:.0} / {:.0} ms", l.p50, l.p90),
            format!("{:.0} / {:.0} ms", r.p50, r.p90),
            format!("{:.2}", l.p50 / r.p50),
            met(ok)
        )?;
        writeln!(
            w,
            "{:<46} {:>16} {:>16} {:>6}",
            format!("  the running scene, {} (median / p90)", cond.name),
            format!("{:.0} / {:.0} ms", app.p50, app.p90),
            format!("{:.0} / {:.0} ms", r.p50, r.p90),
            format!("{:.2}", app.p50 / r.p50),
        )?;
        if !times[2].is_empty() {
            let e = Stats::of(&times[2]);
            writeln!(
                w,
                "{:<46} {:>16} {:>16} {:>6}",
                format!("  before, {} (median / p90)", cond.name),
                format!("{:.0} / {:.0} ms", e.p50, e.p90),
                format!("{:.0} / {:.0} ms", r.p50, r.p90),
                format!("{:.2}", e.p50 / r.p50),
            )?;
        }
        goals.push(
            json!({"goal": format!("first scene ({}): LeaseLab's median before RaftScope's", cond.name), "met": ok}),
        );
    }
    for (cond, got) in &frames {
        let (l, r) = (&got[0].1, &got[1].1);
        let (factor, rule) = if cond.cpu > 1.0 { (2.0, "≤ 2× RaftScope's") } else { (1.0, "≤ RaftScope's") };
        let ok = l.p95 <= factor * r.p95 + FRAME_TOLERANCE_MS;
        writeln!(
            w,
            "{:<46} {:>16} {:>16} {:>6}  p95 {rule}: {}",
            format!("frames at 64×, {} (p50 / p95)", cond.name),
            format!("{:.1} / {:.1} ms", l.p50, l.p95),
            format!("{:.1} / {:.1} ms", r.p50, r.p95),
            format!("{:.2}", l.p95 / r.p95),
            met(ok)
        )?;
        goals.push(json!({"goal": format!("frames at 64× ({}): LeaseLab's p95 {rule} (+{FRAME_TOLERANCE_MS} ms)", cond.name), "met": ok}));
        if let Some((_, e, _)) = got.get(2) {
            writeln!(
                w,
                "{:<46} {:>16} {:>16} {:>6}",
                format!("  before, {} (p50 / p95)", cond.name),
                format!("{:.1} / {:.1} ms", e.p50, e.p95),
                format!("{:.1} / {:.1} ms", r.p50, r.p95),
                format!("{:.2}", e.p95 / r.p95),
            )?;
        }
    }
    let met_count = goals.iter().filter(|g| g["met"] == true).count();
    writeln!(w, "goals met: {met_count} of {}", goals.len())?;
    print!("{table}");

    let report = json!({
        "format": "leaselab.bench/1",
        "date": meta.date,
        "machine": {"cpu_cores": meta.cores, "load_average_at_start": meta.loadavg, "load_average_at_end": load_at_end},
        "frame_tolerance_ms": FRAME_TOLERANCE_MS,
        "browser": chromium,
        "runs": o.runs,
        "frame_secs": o.frame_secs,
        "took_s": took.as_secs_f64(),
        "server": {"files": meta.site.0, "raw_bytes": meta.site.1, "brotli_bytes": meta.site.2, "accept_encoding_seen": accept, "br_answers": with_br, "requests": all},
        "conditions": {
            "cpu4": "Emulation.setCPUThrottlingRate rate 4",
            "slow_link": format!("Network.emulateNetworkConditions latency {SLOW_LATENCY_MS} ms, download and upload {SLOW_BYTES_PER_S} bytes/s (1.6 Mbit/s)"),
        },
        "weight": weights.iter().map(|w| (w.page.key().to_owned(), w.json())).collect::<serde_json::Map<_, _>>(),
        "weight_ratio": lw.bytes as f64 / rw.bytes as f64,
        "first_scene_ms": scenes.iter().map(|(cond, times, in_dom, running, l, r, app)| (cond.key.to_owned(), json!({
            "condition": cond.name,
            "leaselab": {"median": l.p50, "p90": l.p90, "min": l.min, "max": l.max, "runs": times[0], "in_dom": in_dom[0],
                "running": {"median": app.p50, "p90": app.p90, "runs": running[0]}},
            "raftscope": {"median": r.p50, "p90": r.p90, "min": r.min, "max": r.max, "runs": times[1], "in_dom": in_dom[1]},
            "ratio_median": l.p50 / r.p50,
            "ratio_p90": l.p90 / r.p90,
            "before": (!times[2].is_empty()).then(|| {
                let e = Stats::of(&times[2]);
                json!({"median": e.p50, "p90": e.p90, "runs": times[2], "ratio_median": e.p50 / r.p50})
            }),
        }))).collect::<serde_json::Map<_, _>>(),
        "frames_ms": frames.iter().map(|(cond, got)| (cond.key.to_owned(), json!({
            "condition": cond.name,
            "leaselab": got[0].1.json(&got[0].2),
            "raftscope": got[1].1.json(&got[1].2),
            "ratio_p50": got[0].1.p50 / got[1].1.p50,
            "ratio_p95": got[0].1.p95 / got[1].1.p95,
            "before": got.get(2).map(|(_, e, about)| json!({"stats": e.json(about), "ratio_p95": e.p95 / got[1].1.p95})),
        }))).collect::<serde_json::Map<_, _>>(),
        "before": o.before.as_ref().map(|d| d.display().to_string()),
        "goals": goals,
    });
    if let Some(dir) = o.out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&o.out, serde_json::to_string_pretty(&report)? + "\n")
        .with_context(|| format!("writing {}", o.out.display()))?;
    println!("written: {}", o.out.display());
    Ok(())
}

/// Sets the CPU throttling and the link for the pages loaded from now on.
async fn set_condition(b: &Browser, cond: Condition) -> Result<()> {
    b.cdp("Emulation.setCPUThrottlingRate", json!({"rate": cond.cpu})).await?;
    let link = if cond.slow_link {
        json!({"offline": false, "latency": SLOW_LATENCY_MS, "downloadThroughput": SLOW_BYTES_PER_S, "uploadThroughput": SLOW_BYTES_PER_S})
    } else {
        json!({"offline": false, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    };
    b.cdp("Network.emulateNetworkConditions", link).await?;
    Ok(())
}

/// When the first scene was in the DOM and on screen, and when the page's running scene was
/// (LeaseLab's app, after the picture drawn at build time), ms from navigation start.
struct FirstScene {
    in_dom: f64,
    frame: f64,
    app: f64,
}

/// Loads `url` afresh (from a blank page, the cache off) and waits for its first scene.
async fn cold_load(b: &Browser, url: &str) -> Result<FirstScene> {
    b.client().goto("about:blank").await?;
    b.client().goto(url).await.with_context(|| format!("opening {url}"))?;
    let v = b
        .client()
        .execute_async(WAIT_FIRST_SCENE, vec![])
        .await
        .with_context(|| format!("waiting for the first scene of {url}"))?;
    ensure!(!v.is_null(), "the observer did not run in {url}");
    Ok(FirstScene {
        in_dom: v["inDom"].as_f64().context("inDom")?,
        frame: v["frame"].as_f64().context("frame")?,
        app: v["app"].as_f64().context("app")?,
    })
}

/// Opens `page` for the frame measurement, sets it going as fast as it goes, and collects the
/// gaps between its animation frames for `secs` seconds. Also returns what was checked.
async fn frame_gaps(b: &Browser, page: Page, url: &str, link: &str, secs: u64) -> Result<(Vec<f64>, Value)> {
    let about = match page {
        Page::LeaseLab | Page::Before => {
            b.client().goto(&format!("{url}?s={link}&speed=64&autoplay=1")).await?;
            b.wait_exists("space-time", Duration::from_secs(60)).await?;
            b.wait_exists("sim-time", Duration::from_secs(60)).await?;
            // The diagram on screen, the scene above it as much as the window allows.
            b.eval(
                "document.querySelector('[data-testid=\"space-time\"]').scrollIntoView({block: 'end'}); return true;",
                vec![],
            )
            .await?;
            b.frames(10).await?;
            let placed = b
                .eval(
                    "const r = document.querySelector('[data-testid=\"space-time\"]').getBoundingClientRect(); \
                     const s = document.querySelector('[data-testid=\"scene-harbor\"]').getBoundingClientRect(); \
                     return {diagram_top: r.top, diagram_bottom: r.bottom, scene_top: s.top, scene_bottom: s.bottom, \
                             viewport_height: window.innerHeight, virtual_ms: Number(document.querySelector('[data-testid=\"sim-time\"]').dataset.ms)};",
                    vec![],
                )
                .await?;
            ensure!(
                placed["diagram_top"].as_f64().unwrap_or(-1.0) >= 0.0
                    && placed["diagram_bottom"].as_f64().unwrap_or(f64::MAX)
                        <= placed["viewport_height"].as_f64().unwrap_or(0.0) + 1.0,
                "the space-time diagram is not whole on screen: {placed}"
            );
            placed
        }
        Page::RaftScope => {
            b.client().goto(url).await?;
            b.client().execute_async(WAIT_FIRST_SCENE, vec![]).await?;
            // The speed slider's lowest value is its fastest: 10^0 = 1/1× (real time); the
            // simulation plays unless paused.
            let set = b
                .eval(
                    "$('#speed').slider('setValue', 0); playback.resume(); \
                     return {speed_slider: $('#speed').slider('getValue'), paused: playback.isPaused(), \
                             model_us: state.current.time};",
                    vec![],
                )
                .await?;
            ensure!(
                set["speed_slider"].as_f64() == Some(0.0) && set["paused"] == false,
                "RaftScope did not go to its fastest: {set}"
            );
            b.frames(10).await?;
            set
        }
    };
    // Past the load's own work (the wasm compiled, the link's run replayed) for both.
    tokio::time::sleep(SETTLE).await;
    let gaps = b.client().execute_async(COLLECT_FRAMES, vec![json!(secs * 1000)]).await?;
    let gaps: Vec<f64> = gaps.as_array().context("frame gaps")?.iter().filter_map(Value::as_f64).collect();
    let after = match page {
        Page::LeaseLab | Page::Before => {
            b.attr_of("sim-time", "data-ms").await?.and_then(|v| v.parse::<f64>().ok()).unwrap_or(f64::NAN)
        }
        Page::RaftScope => b.eval("return state.current.time;", vec![]).await?.as_f64().unwrap_or(f64::NAN),
    };
    let mut about = about;
    let note = match page {
        Page::LeaseLab | Page::Before => {
            let before = about["virtual_ms"].as_f64().unwrap_or(f64::NAN);
            about["virtual_ms_after"] = json!(after);
            let y = |k: &str| about[k].as_f64().unwrap_or(f64::NAN);
            format!(
                "virtual time {:.1} → {:.1} s; in a {:.0} px high window the diagram at y {:.0}–{:.0}, the scene at y {:.0}–{:.0}",
                before / 1000.0,
                after / 1000.0,
                y("viewport_height"),
                y("diagram_top"),
                y("diagram_bottom"),
                y("scene_top"),
                y("scene_bottom"),
            )
        }
        Page::RaftScope => {
            let before = about["model_us"].as_f64().unwrap_or(f64::NAN);
            about["model_us_after"] = json!(after);
            format!("speed 1/1×, model time {:.1} → {:.1} s", before / 1e6, after / 1e6)
        }
    };
    about["note"] = json!(note);
    ensure!(gaps.len() >= 2, "{} drew {} frames in {secs} s", page.name(), gaps.len());
    Ok((gaps, about))
}

/// A page's first load, from the server's log.
struct Weight {
    page: Page,
    served: Vec<Served>,
    bytes: u64,
    timing_bytes: u64,
    /// Bytes of the requests started before the first scene was in the DOM (Resource Timing).
    before_scene: u64,
}

impl Weight {
    fn of(page: Page, served: Vec<Served>, timing_bytes: u64, before_scene: u64) -> Weight {
        let bytes = served.iter().filter(|s| s.status == 200).map(|s| s.body_bytes).sum();
        Weight { page, served, bytes, timing_bytes, before_scene }
    }

    fn print(&self, scene: &FirstScene) {
        println!(
            "{}: {} in {} requests (Resource Timing's encodedBodySize: {}; {} asked for before the first scene); first scene at {:.0} ms (in the DOM at {:.0} ms)",
            self.page.name(),
            kb(self.bytes),
            self.served.len(),
            kb(self.timing_bytes),
            kb(self.before_scene),
            scene.frame,
            scene.in_dom
        );
        for s in &self.served {
            println!(
                "    {:>3} {:>10} {:<4} {}",
                s.status,
                kb(s.body_bytes),
                s.encoding.unwrap_or("-"),
                match s.path.strip_prefix(self.page.prefix()) {
                    Some("") => "index.html",
                    Some(rel) => rel,
                    None => &s.path,
                }
            );
        }
    }

    fn json(&self) -> Value {
        json!({
            "bytes": self.bytes,
            "resource_timing_bytes": self.timing_bytes,
            "before_first_scene_bytes": self.before_scene,
            "requests": self.served.iter().map(|s| json!({
                "path": s.path, "status": s.status, "bytes": s.body_bytes, "encoding": s.encoding,
                "accept_encoding": s.accept_encoding,
            })).collect::<Vec<_>>(),
        })
    }
}

/// Order statistics of a sample (nearest rank, as `tests/frame_time.rs` takes them).
struct Stats {
    n: usize,
    min: f64,
    p50: f64,
    p90: f64,
    p95: f64,
    max: f64,
}

impl Stats {
    fn of(values: &[f64]) -> Stats {
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let at = |p: usize| v.get((v.len() * p / 100).min(v.len().saturating_sub(1))).copied().unwrap_or(f64::NAN);
        Stats {
            n: v.len(),
            min: at(0),
            p50: at(50),
            p90: at(90),
            p95: at(95),
            max: v.last().copied().unwrap_or(f64::NAN),
        }
    }

    fn json(&self, about: &Value) -> Value {
        json!({"frames": self.n, "p50": self.p50, "p95": self.p95, "max": self.max, "setup": about})
    }
}

/// The 1, 5 and 15 minute load averages (`/proc/loadavg`).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn header(title: &str) {
    println!("\n==== {title} ====");
}

fn met(ok: bool) -> &'static str {
    if ok {
        "met"
    } else {
        "NOT met"
    }
}

/// `296.6 KB` (1 KB = 1000 bytes, as `cargo xtask dist` prints).
fn kb(bytes: u64) -> String {
    format!("{:.1} KB", bytes as f64 / 1000.0)
}

/// `3m 07s`.
fn minutes(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}m {:02}s", s / 60, s % 60)
}

/// The time now in UTC, `2026-12-03 07:12 UTC`.
fn utc_now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year}-{month:02}-{day:02} {:02}:{:02} UTC", rest / 3600, rest % 3600 / 60)
}

/// The search worker beside the native search, and the page's frames while it works (`--search`).
async fn search_bench() -> Result<()> {
    let root = workspace_root();
    let date = utc_now();
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    println!("The search, {date}: {cores} CPU cores, load average at start {}", load_average());
    let args = [
        "search",
        "--builtin",
        "harbor-zombie",
        "--property",
        "lock_deleted_by_non_owner",
        "--no-script",
        "--max-interventions",
        "2",
        "--compact",
    ];
    let max_states = SEARCH_STATES.to_string();
    let native = root.join("target/release/leaselab");
    ensure!(native.is_file(), "{} is missing: `cargo xtask bench --search` builds it", native.display());
    let browser = Browser::start().await.context("starting Chromium")?;
    let result = async {
        let b = &browser;
        b.open("?scenario=harbor-zombie&speed=64&autoplay=1").await?;
        b.wait_exists("scene-harbor", Duration::from_secs(60)).await?;
        start_search_worker(b).await?;
        tokio::time::sleep(SETTLE).await;
        let before = b.client().execute_async(COLLECT_FRAMES, vec![json!(3_000)]).await?;
        let scenario: Value = serde_json::from_str(
            leaselab::scenario::library::FILES
                .iter()
                .find(|(id, _)| *id == "harbor-zombie")
                .map(|(_, json)| *json)
                .context("harbor-zombie")?,
        )?;
        let request = json!({
            "leaselab": 1, "type": "search", "scenario": scenario, "goals": ["lock_deleted_by_non_owner"],
            "space": { "scripted": false, "max_interventions": 2, "max_states": SEARCH_STATES },
        });
        // The frames from the moment the request goes until the answer comes.
        let during = b
            .client()
            .execute_async(
                "const done = arguments[arguments.length - 1]; const gaps = []; let last = null; \
                 window.__searchStarted = performance.now(); window.__searchWorker.postMessage(arguments[0]); \
                 function f(t) { if (last !== null) gaps.push(t - last); last = t; \
                   if (window.__searchMessages.some(m => m.includes('\"type\":\"answer\"'))) done(gaps); \
                   else requestAnimationFrame(f); } \
                 requestAnimationFrame(f);",
                vec![json!(request.to_string())],
            )
            .await?;
        let took = b
            .eval(
                "const i = window.__searchMessages.findIndex(m => m.includes('\"type\":\"answer\"')); \
                 return window.__searchTimes[i] - window.__searchStarted;",
                vec![],
            )
            .await?;
        let took_ms = took.as_f64().context("the search's time")?;
        let answer = b
            .eval("return window.__searchMessages.find(m => m.includes('\"type\":\"answer\"'));", vec![])
            .await?;
        let answer: Value = serde_json::from_str(answer.as_str().context("an answer")?)?;
        let progress = &answer["answer"]["progress"];
        let states = progress["states"].as_f64().context("states")?;

        // The same search natively, right after, on the same machine.
        let t = Instant::now();
        let out = std::process::Command::new(&native).args(args).args(["--max-states", &max_states]).output()?;
        let native_s = t.elapsed().as_secs_f64();
        ensure!(out.status.success(), "leaselab search: {}", String::from_utf8_lossy(&out.stderr));
        let native_answer: Value = serde_json::from_slice(&out.stdout)?;
        ensure!(
            native_answer["progress"] == *progress && native_answer["result"] == answer["answer"]["result"],
            "the worker and the native search explored the same states: {} and {}",
            native_answer["progress"],
            progress
        );
        let gaps = |v: &Value| -> Vec<f64> { v.as_array().map(|a| a.iter().filter_map(Value::as_f64).collect()).unwrap_or_default() };
        let (before, during) = (Stats::of(&gaps(&before)), Stats::of(&gaps(&during)));
        let in_browser = states * 1000.0 / took_ms;
        let natively = states / native_s;
        println!(
            "search: {:.0} states/s in the browser, {:.0} states/s native ({:.2}× native), {} runs, depth {} ({} states, {:.1} s in the browser, {:.1} s native)",
            in_browser,
            natively,
            in_browser / natively,
            progress["runs"],
            progress["depth"],
            states,
            took_ms / 1000.0,
            native_s
        );
        println!(
            "frames while it searches: p95 {:.1} ms, max {:.1} ms over {} frames (just before: p95 {:.1} ms); load average now {}",
            during.p95,
            during.max,
            during.n,
            before.p95,
            load_average()
        );
        println!(
            "goals: at least {SEARCH_STATES_GOAL:.0} states/s in the browser: {}; frame p95 at most {SEARCH_FRAME_GOAL_MS:.0} ms while it searches: {}",
            met(in_browser >= SEARCH_STATES_GOAL),
            met(during.p95 <= SEARCH_FRAME_GOAL_MS)
        );
        Ok(())
    }
    .await;
    browser.close().await;
    result
}
