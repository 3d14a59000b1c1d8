//! Test harness for LeaseLab's browser tests.
//!
//! [`Browser::start`] serves the built app (`dist/`, or `$LEASELAB_DIST`) with a tiny static file
//! server on 127.0.0.1 **under a sub-path** (`/sub/path/`, proving that the build uses relative
//! URLs), starts Debian's `/usr/bin/chromedriver` on a free port, and opens a headless
//! `/usr/bin/chromium` session with a fresh profile. Nothing is ever downloaded. A directory's
//! `index.html` is served for its path (`/sub/path/embed/`: the embedding example, which the
//! build copies into `dist/embed/`).
//!
//! Every test should go through [`with_browser`], which bounds the test in time, saves a
//! screenshot and the console log on failure, and closes the session. All processes and the
//! server are also stopped by `Drop` guards, so a panicking test cleans up too.
//!
//! Elements are addressed by their `data-testid` attribute.

use anyhow::{anyhow, bail, ensure, Context, Result};
use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Component, Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The sub-path under which the test server exposes dist/.
pub const SUB_PATH: &str = "/sub/path/";

/// How often `wait_for` polls.
const POLL: Duration = Duration::from_millis(100);

/// Tests in one binary run one browser at a time (the machine has 2 cores).
static ONE_BROWSER: Mutex<()> = Mutex::new(());

// ---------------------------------------------------------------------------------------------
// Paths and configuration

/// The workspace root (two levels above this crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("tests/browser lives two levels below the workspace root")
        .to_path_buf()
}

/// The built app: `$LEASELAB_DIST`, else `<root>/dist`.
pub fn dist_dir() -> PathBuf {
    std::env::var_os("LEASELAB_DIST").map(PathBuf::from).unwrap_or_else(|| workspace_root().join("dist"))
}

/// Where screenshots go: `<root>/target/screenshots`.
pub fn screenshot_dir() -> PathBuf {
    workspace_root().join("target").join("screenshots")
}

fn env_path(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| PathBuf::from(default))
}

/// Injected into a page before its own scripts (`Page.addScriptToEvaluateOnNewDocument`): once
/// the app's harbor scene is in the DOM with its figures, it keeps, in the first animation frame
/// after that (the first frame the app shows), the page's markup as `window.__firstFrame`, made
/// into a picture by `window.__picture`, and where the scene's drawing was on screen as
/// `window.__firstFrameScene` (`[x, y, width, height]`, CSS pixels). `tests/first_scene.rs`
/// compares it with what `index.html` shows (`leaselab first-frame`, rendered natively at build
/// time), made into a picture the same way, node by node (`window.__firstDifference`).
///
/// `window.__picture(nodes)` copies `nodes` (the scripts and the loading picture left out) and
/// takes out what a picture never has ([`leaselab::story::markup::PICTURE_DROPPED`]: test ids, HTML ids, what
/// a screen reader says; the ids inside SVG stay), what the attribute `hidden` hides (the other
/// fables' places), and comments; adjacent text is joined (`normalize`).
pub fn first_frame_observer() -> String {
    let dropped = serde_json::to_string(leaselab::story::markup::PICTURE_DROPPED).unwrap_or_default();
    format!(
        r#"(() => {{
  const dropped = {dropped};
  const svg = 'http://www.w3.org/2000/svg';
  window.__picture = (nodes) => {{
    const box = document.createElement('div');
    for (const from of nodes) {{
      if (from.tagName === 'SCRIPT' || from.id === 'boot') continue;
      box.append(from.cloneNode(true));
    }}
    box.querySelectorAll('[hidden]').forEach(e => e.remove());
    for (const e of box.querySelectorAll('*')) {{
      dropped.forEach(a => {{ if (a !== 'id' || e.namespaceURI !== svg) e.removeAttribute(a); }});
    }}
    const walk = document.createTreeWalker(box, NodeFilter.SHOW_COMMENT);
    const comments = [];
    while (walk.nextNode()) comments.push(walk.currentNode);
    comments.forEach(c => c.remove());
    box.normalize();
    return box;
  }};
  // Where the markups `a` and `b` differ first, as DOM nodes (attributes in any order), or ''.
  window.__firstDifference = (a, b) => {{
    const parse = m => {{ const t = document.createElement('template'); t.innerHTML = m; t.content.normalize(); return t.content; }};
    const name = n => n.nodeType === 1 ? n.outerHTML.slice(0, 160) : JSON.stringify(n.textContent);
    const walk = (x, y, path) => {{
      if (x.isEqualNode(y)) return '';
      if (x.nodeType !== y.nodeType || x.nodeName !== y.nodeName || x.nodeType !== 1 && x.nodeType !== 11)
        return path + ': ' + name(x) + ' / ' + name(y);
      if (x.nodeType === 1) {{
        const attrs = n => Array.from(n.attributes).map(a => a.name + '=' + a.value).sort().join(' ');
        if (attrs(x) !== attrs(y)) return path + ' <' + x.localName + '>: ' + attrs(x) + ' / ' + attrs(y);
      }}
      const n = Math.max(x.childNodes.length, y.childNodes.length);
      for (let i = 0; i < n; i++) {{
        const c = x.childNodes[i], d = y.childNodes[i];
        if (!c || !d) return path + ' child ' + i + ': ' + (c ? name(c) : 'nothing') + ' / ' + (d ? name(d) : 'nothing');
        const found = walk(c, d, path + ' > ' + (c.localName || '#text') + '[' + i + ']');
        if (found) return found;
      }}
      return path + ': differs';
    }};
    return walk(parse(a), parse(b), '');
  }};
  const drawn = () => !!document.querySelector('[data-testid="scene-harbor"] svg g.bearers > *');
  const mo = new MutationObserver(() => {{
    if (!drawn()) return;
    mo.disconnect();
    requestAnimationFrame(() => {{
      const r = document.querySelector('[data-testid="scene-harbor"] svg').getBoundingClientRect();
      window.__firstFrameScene = [r.x, r.y, r.width, r.height];
      window.__firstFrame = window.__picture(document.body.children).innerHTML;
    }});
  }});
  mo.observe(document, {{ childList: true, subtree: true }});
}})();"#
    )
}

/// Starts the page's search worker from the page open in `b`, as its Ask tab does (a classic
/// worker beside index.html), and waits for its `ready`. Its messages (JSON texts) collect in
/// `window.__searchMessages`, the moment each came (`performance.now()`) at the same index of
/// `window.__searchTimes`; an error loading it comes as a message of type `worker_error`.
/// `window.__searchWorker` is the worker.
pub async fn start_search_worker(b: &Browser) -> Result<()> {
    b.eval(
        "window.__searchMessages = []; window.__searchTimes = []; \
         const heard = text => { window.__searchMessages.push(text); window.__searchTimes.push(performance.now()); }; \
         const w = new Worker(new URL('./leaselab-worker_loader.js', document.baseURI)); \
         w.onmessage = e => heard(e.data); \
         w.onerror = e => heard(JSON.stringify({ type: 'worker_error', message: String(e.message) })); \
         window.__searchWorker = w; return true;",
        vec![],
    )
    .await?;
    b.wait_until_js(
        "the search worker's ready",
        "return window.__searchMessages.some(m => m.includes('\"ready\"') || m.includes('worker_error'));",
        Duration::from_secs(30),
    )
    .await?;
    let error = b.eval("return window.__searchMessages.find(m => m.includes('worker_error')) || null;", vec![]).await?;
    ensure!(error.is_null(), "the search worker did not start: {error}");
    Ok(())
}

/// Waits (at most `limit`) for [`first_frame_observer`]'s markup in the page `b` has open.
pub async fn first_frame_markup(b: &Browser, limit: Duration) -> Result<String> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(markup) = b.eval("return window.__firstFrame || null;", vec![]).await?.as_str() {
            return Ok(markup.to_owned());
        }
        ensure!(Instant::now() < deadline, "no first frame's markup after {limit:?}: did the app draw its scene?");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The `s=` value of a share link to `harbor-zombie` stretched to one hour of virtual time (its
/// file with `until_ms` at 3 600 000), so a run at 64× keeps moving for a whole measurement
/// (`tests/frame_time.rs`, the bench).
pub fn hour_link() -> Result<String> {
    let path = workspace_root().join("assets/scenarios/harbor-zombie.json");
    let mut json: Value = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    json["until_ms"] = json!(3_600_000);
    json["id"] = json!("harbor-zombie-hour");
    Ok(leaselab::scenario::export::to_link(&json.to_string())?)
}

// ---------------------------------------------------------------------------------------------
// Running a test

/// Starts a browser on the app, runs `body` with it for at most `limit`, then closes everything.
/// On failure (error or time-out) saves `target/screenshots/<name>-failure.png` and prints the
/// browser console.
pub async fn with_browser<F>(name: &str, limit: Duration, body: F) -> Result<()>
where
    F: AsyncFnOnce(&Browser) -> Result<()>,
{
    let browser = tokio::time::timeout(Duration::from_secs(60), Browser::start())
        .await
        .map_err(|_| anyhow!("starting the browser took more than 60 s"))??;
    let result = match tokio::time::timeout(limit, body(&browser)).await {
        Ok(r) => r,
        Err(_) => Err(anyhow!("test `{name}` timed out after {limit:?}")),
    };
    if result.is_err() {
        let shot = screenshot_dir().join(format!("{name}-failure.png"));
        let limit = Duration::from_secs(10);
        if let Ok(Ok(())) = tokio::time::timeout(limit, browser.screenshot(&shot)).await {
            eprintln!("failure screenshot: {}", shot.display());
        }
        if let Ok(Ok(all)) = tokio::time::timeout(limit, browser.console()).await {
            eprintln!("browser console ({} entries):", all.len());
            for e in all {
                eprintln!("  {e}");
            }
        }
        eprintln!("requests served: {:?}", browser.server.requests());
    }
    browser.close().await;
    result
}

// ---------------------------------------------------------------------------------------------
// The browser

/// One console message from the browser log.
#[derive(Clone, Debug)]
pub struct LogEntry {
    /// "SEVERE", "WARNING", "INFO", "DEBUG".
    pub level: String,
    /// e.g. "console-api", "javascript", "network".
    pub source: String,
    pub message: String,
}

impl LogEntry {
    pub fn is_error(&self) -> bool {
        self.level == "SEVERE"
    }
    pub fn is_panic(&self) -> bool {
        self.message.contains("panicked at") || self.message.contains("RuntimeError: unreachable")
    }
}

impl std::fmt::Display for LogEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{} {}] {}", self.level, self.source, self.message)
    }
}

/// What an element looked like when it was read.
#[derive(Clone, Debug, Default)]
pub struct ElementState {
    pub tag: String,
    /// Rendered text (`innerText`, or `textContent` for SVG elements).
    pub text: String,
    pub attrs: BTreeMap<String, String>,
    /// The `value` of form controls.
    pub value: Option<String>,
}

impl ElementState {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.get(name).map(String::as_str)
    }
}

/// A headless Chromium session on the app, served under [`SUB_PATH`].
pub struct Browser {
    client: Client,
    base_url: String,
    console_seen: Mutex<Vec<LogEntry>>,
    // Dropped in this order, after the client.
    driver: ChromeDriver,
    server: StaticServer,
    _one_at_a_time: MutexGuard<'static, ()>,
}

impl Browser {
    // The guard is meant to be held for the whole session: each #[tokio::test] has its own
    // thread and runtime, so a waiting test blocks only itself.
    #[allow(clippy::await_holding_lock)]
    pub async fn start() -> Result<Browser> {
        let guard = ONE_BROWSER.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let dist = dist_dir();
        ensure!(
            dist.join("index.html").is_file(),
            "{} has no index.html: build the app first with `cargo xtask dist` (or run everything \
             with `cargo xtask test`)",
            dist.display()
        );
        Browser::launch(guard, || StaticServer::start(&dist, SUB_PATH), SUB_PATH).await
    }

    /// A session like [`Browser::start`]'s on a server of the caller's making (the bench's, which
    /// serves LeaseLab and RaftScope side by side): `start_server` is called while the ports are
    /// chosen, and [`Browser::url`] is the server's address with `path` (`/leaselab/`).
    #[allow(clippy::await_holding_lock)]
    pub async fn start_with_server(start_server: impl FnOnce() -> Result<StaticServer>, path: &str) -> Result<Browser> {
        let guard = ONE_BROWSER.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        Browser::launch(guard, start_server, path).await
    }

    #[allow(clippy::await_holding_lock)]
    async fn launch(
        guard: MutexGuard<'static, ()>,
        start_server: impl FnOnce() -> Result<StaticServer>,
        path: &str,
    ) -> Result<Browser> {
        let chromium = env_path("LEASELAB_CHROMIUM", "/usr/bin/chromium");
        let chromedriver = env_path("LEASELAB_CHROMEDRIVER", "/usr/bin/chromedriver");
        for (p, pkg) in [(&chromium, "chromium"), (&chromedriver, "chromium-driver")] {
            ensure!(
                p.exists(),
                "{} is missing: install Debian's `{pkg}` package (cargo xtask test does this)",
                p.display()
            );
        }

        // Several test binaries may start browsers at once (`cargo xtask test` runs lanes): the
        // ports are chosen and taken one harness at a time.
        let ports = PortLock::take()?;
        let server = start_server()?;
        let base_url = format!("http://127.0.0.1:{}{path}", server.port);
        let driver = ChromeDriver::start(&chromedriver)?;
        drop(ports);

        let profile = driver.scratch.join("profile");
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium.to_string_lossy(),
                "args": [
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--no-first-run",
                    "--window-size=1280,900",
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
            "goog:loggingPrefs": { "browser": "ALL" },
            "timeouts": { "pageLoad": 30_000, "script": 15_000, "implicit": 0 },
        });
        let caps = match caps {
            Value::Object(map) => map,
            _ => unreachable!(),
        };
        let webdriver_url = format!("http://127.0.0.1:{}", driver.port);
        let mut last_err = None;
        let deadline = Instant::now() + Duration::from_secs(30);
        let client = loop {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            match ClientBuilder::new(connector).capabilities(caps.clone()).connect(&webdriver_url).await {
                Ok(c) => break c,
                Err(e) if Instant::now() < deadline => {
                    last_err = Some(e);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => {
                    bail!(
                        "could not open a Chromium session through chromedriver: {e} \
                         (earlier: {last_err:?}); chromedriver log:\n{}",
                        driver.log_tail()
                    )
                }
            }
        };
        Ok(Browser { client, base_url, console_seen: Mutex::new(Vec::new()), driver, server, _one_at_a_time: guard })
    }

    /// The raw fantoccini client, for anything the helpers do not cover.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The app's URL (under the sub-path) with `query` appended, e.g. `"?lang=zh"` or `""`.
    pub fn url(&self, query: &str) -> String {
        format!("{}{query}", self.base_url)
    }

    /// Requests that the static server answered (path, status), oldest first.
    pub fn requests(&self) -> Vec<(String, u16)> {
        self.server.requests()
    }

    /// The static server this session's pages come from.
    pub fn server(&self) -> &StaticServer {
        &self.server
    }

    /// Sends Chromium's DevTools command `cmd` with `params` to the page (through chromedriver,
    /// `POST /session/{id}/goog/cdp/execute`) and returns its result.
    pub async fn cdp(&self, cmd: &str, params: Value) -> Result<Value> {
        let body = json!({"cmd": cmd, "params": params}).to_string();
        self.client.issue_cmd(Cdp { body }).await.with_context(|| format!("DevTools command {cmd}"))
    }

    /// Navigates to the app with `query` (e.g. `"?scenario=harbor-zombie&speed=64"`) and waits
    /// (at most 30 s, without failing) until the rest of the page, whose code comes after the
    /// first scene (`ui::later`), is there: `<html data-later="ready">`.
    pub async fn open(&self, query: &str) -> Result<()> {
        self.open_now(query).await?;
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while std::time::Instant::now() < deadline {
            let ready = self.eval("return document.documentElement.dataset.later === 'ready';", vec![]).await?;
            if ready.as_bool() == Some(true) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(())
    }

    /// Navigates to the app with `query` and returns at once (see [`Browser::open`]).
    pub async fn open_now(&self, query: &str) -> Result<()> {
        let url = self.url(query);
        self.client.goto(&url).await.with_context(|| format!("opening {url}"))
    }

    /// Runs JavaScript in the page (`arguments[i]` are `args`) and returns its result.
    pub async fn eval(&self, script: &str, args: Vec<Value>) -> Result<Value> {
        Ok(self.client.execute(script, args).await?)
    }

    /// The element `[data-testid=<testid>]` as it is now, or `None` if there is none.
    pub async fn element(&self, testid: &str) -> Result<Option<ElementState>> {
        const READ: &str = r#"
            const el = document.querySelector('[data-testid="' + CSS.escape(arguments[0]) + '"]');
            if (!el) return null;
            const attrs = {};
            for (const a of el.attributes) attrs[a.name] = a.value;
            const text = (typeof el.innerText === 'string') ? el.innerText : el.textContent;
            const value = ('value' in el && typeof el.value === 'string') ? el.value : null;
            return { tag: el.tagName.toLowerCase(), text: text || '', attrs, value };
        "#;
        let v = self.eval(READ, vec![json!(testid)]).await?;
        if v.is_null() {
            return Ok(None);
        }
        let attrs = v["attrs"]
            .as_object()
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect())
            .unwrap_or_default();
        Ok(Some(ElementState {
            tag: v["tag"].as_str().unwrap_or_default().to_string(),
            text: v["text"].as_str().unwrap_or_default().to_string(),
            attrs,
            value: v["value"].as_str().map(str::to_string),
        }))
    }

    /// Polls until `[data-testid=<testid>]` exists and `pred` holds for it, or fails after
    /// `timeout` with the last state seen.
    pub async fn wait_for(
        &self,
        testid: &str,
        pred: impl Fn(&ElementState) -> bool,
        timeout: Duration,
    ) -> Result<ElementState> {
        let deadline = Instant::now() + timeout;
        loop {
            let state = self.element(testid).await?;
            if let Some(s) = &state {
                if pred(s) {
                    return Ok(s.clone());
                }
            }
            if Instant::now() >= deadline {
                bail!(
                    "waited {timeout:?} for [data-testid={testid}] to match; last seen: {}",
                    match state {
                        None => "no such element".to_string(),
                        Some(s) => format!("{s:?}"),
                    }
                );
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Polls until the JavaScript `script` (a function body, e.g. `return x > 1;`) returns
    /// `true`, or fails after `timeout`, naming `what` was awaited.
    pub async fn wait_until_js(&self, what: &str, script: &str, timeout: Duration) -> Result<()> {
        let deadline = Instant::now() + timeout;
        loop {
            // A script error (an element not there yet: the page is drawn once its scenario
            // file has arrived) counts as "not yet"; the last one is reported at the deadline.
            let last = match self.eval(script, vec![]).await {
                Ok(v) if v.as_bool() == Some(true) => return Ok(()),
                Ok(_) => String::new(),
                Err(e) => format!(" (last script error: {e})"),
            };
            ensure!(Instant::now() < deadline, "waited {timeout:?} for {what}{last}");
            tokio::time::sleep(POLL).await;
        }
    }

    /// Waits (up to `timeout`) until `[data-testid=<testid>]` exists.
    pub async fn wait_exists(&self, testid: &str, timeout: Duration) -> Result<ElementState> {
        self.wait_for(testid, |_| true, timeout).await
    }

    /// The text of `[data-testid=<testid>]`; fails if there is no such element.
    pub async fn text_of(&self, testid: &str) -> Result<String> {
        Ok(self.element(testid).await?.ok_or_else(|| anyhow!("no element [data-testid={testid}]"))?.text)
    }

    /// Picks built-in `id` in the scenario picker and waits until the page plays it (its file is
    /// fetched the first time: until then the previous run is still on screen).
    pub async fn choose_scenario(&self, id: &str) -> Result<()> {
        self.find("scenario-picker", "choose a scenario")
            .await?
            .select_by_value(id)
            .await
            .with_context(|| format!("the picker offers {id}"))?;
        self.wait_until_js(
            &format!("the page plays {id}"),
            &format!(
                "const t = document.querySelector('[data-testid=\"scenario-title\"]'); \
                 return !!t && t.dataset.scenario === {};",
                json!(id)
            ),
            Duration::from_secs(30),
        )
        .await
    }

    /// The whole event log's text (`textContent`: its rows out of view are not rendered, see
    /// `.log > li` in the style sheet, so `innerText` would leave them out).
    pub async fn log_text(&self) -> Result<String> {
        let v = self
            .eval(
                "const l = document.querySelector('[data-testid=\"event-log\"]'); return l ? l.textContent : '';",
                vec![],
            )
            .await?;
        Ok(v.as_str().unwrap_or_default().to_owned())
    }

    /// An attribute of `[data-testid=<testid>]` (`None` if the attribute is absent); fails if
    /// there is no such element.
    pub async fn attr_of(&self, testid: &str, attr: &str) -> Result<Option<String>> {
        Ok(self
            .element(testid)
            .await?
            .ok_or_else(|| anyhow!("no element [data-testid={testid}]"))?
            .attr(attr)
            .map(str::to_string))
    }

    /// The element `[data-testid=<testid>]`, found in order `to` do something with it (the
    /// error says what).
    ///
    /// The page keeps its tools one click away (a closed menu, a tab not shown): as a user would,
    /// this first opens the menu (a `<details>` or a popover) or shows the tab
    /// (`[data-tab-panel]`, whose tab is `[data-tab]` of the same name) that holds the element,
    /// and waits until it is on screen.
    async fn find(&self, testid: &str, to: &str) -> Result<fantoccini::elements::Element> {
        self.reveal(testid).await?;
        self.client
            .find(Locator::Css(&testid_selector(testid)))
            .await
            .with_context(|| format!("finding [data-testid={testid}] to {to}"))
    }

    /// Shows the side panel's tab `tab` (`log`, `crew`, `lease`, `technical`, `problems`) by
    /// clicking it as a user would, and waits until its panel is on the page: the technical
    /// panel is only built (its code fetched) the first time its tab is shown.
    pub async fn open_tab(&self, tab: &str) -> Result<()> {
        self.click(&format!("tab-{tab}")).await?;
        self.wait_until_js(
            &format!("the {tab} tab's panel is shown with something in it"),
            &format!(
                "const p = document.querySelector('[data-tab-panel=\"{tab}\"]'); \
                 return !!p && p.getClientRects().length > 0 && p.children.length > 0;"
            ),
            Duration::from_secs(10),
        )
        .await
    }

    /// Opens the menu or shows the tab that holds `[data-testid=<testid>]` (see [`Self::find`]);
    /// nothing when it is already on screen or not on the page at all.
    pub async fn reveal(&self, testid: &str) -> Result<()> {
        let opened = self
            .eval(
                "const el = document.querySelector(arguments[0]); \
                 if (!el) return false; \
                 let changed = false; \
                 for (let a = el.parentElement; a; a = a.parentElement) { \
                   if (a.tagName === 'DETAILS' && !a.open) { a.open = true; changed = true; } \
                   if (a.hasAttribute('popover') && !a.matches(':popover-open')) { a.showPopover(); changed = true; } \
                   const tab = a.dataset ? a.dataset.tabPanel : undefined; \
                   if (tab && a.getClientRects().length === 0) { \
                     const t = document.querySelector('[data-tab=\"' + tab + '\"]'); \
                     if (t) { t.click(); changed = true; } \
                   } \
                 } \
                 return changed;",
                vec![json!(testid_selector(testid))],
            )
            .await?;
        if opened.as_bool() == Some(true) {
            self.wait_until_js(
                &format!("[data-testid={testid}] is shown"),
                &format!(
                    "const el = document.querySelector({}); return !!el && el.getClientRects().length > 0;",
                    json!(testid_selector(testid))
                ),
                Duration::from_secs(5),
            )
            .await?;
        }
        Ok(())
    }

    /// Clicks `[data-testid=<testid>]` like a user would (WebDriver element click).
    /// An element redrawn between being found and clicked (a count-down ticking) is found again.
    pub async fn click(&self, testid: &str) -> Result<()> {
        let mut tries = 0;
        loop {
            let el = self.find(testid, "click it").await?;
            match el.click().await {
                Ok(()) => return Ok(()),
                Err(e) if tries < 3 && e.to_string().contains("stale element") => tries += 1,
                Err(e) => return Err(e).with_context(|| format!("clicking [data-testid={testid}]")),
            }
        }
    }

    /// Acts on node `id` as a learner does, at its figure in the scene: clicks the figure
    /// (`node-{id}`), then `action` (`pause`, `crash` or `partition`: the button
    /// `node-{id}-{action}`) in the menu that opens beside it.
    pub async fn act_on(&self, id: &str, action: &str) -> Result<()> {
        self.click(&format!("node-{id}")).await?;
        let button = format!("node-{id}-{action}");
        self.wait_until_js(
            &format!("the menu at {id} offers {action}"),
            &format!(
                "const b = document.querySelector({}); return !!b && b.getClientRects().length > 0;",
                json!(testid_selector(&button))
            ),
            Duration::from_secs(5),
        )
        .await?;
        self.click(&button).await
    }

    /// Types `keys` into `[data-testid=<testid>]` like a user would (WebDriver element send keys,
    /// which focuses it first). Special keys are WebDriver code points, e.g. `"\u{E014}"` for →,
    /// `"\u{E012}"` for ←, `"\u{E007}"` for Enter.
    /// An element not interactable yet (a field the click before it is still showing, on a busy
    /// machine), or redrawn between being found and typed into (the share link follows the
    /// playing run), is found and tried again for up to 5 s.
    pub async fn press(&self, testid: &str, keys: &str) -> Result<()> {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let el = self.find(testid, "type into it").await?;
            match el.send_keys(keys).await {
                Ok(()) => return Ok(()),
                Err(e)
                    if Instant::now() < deadline
                        && ["not interactable", "stale element"].iter().any(|m| e.to_string().contains(m)) =>
                {
                    tokio::time::sleep(POLL).await;
                }
                Err(e) => return Err(e).with_context(|| format!("typing into [data-testid={testid}]")),
            }
        }
    }

    /// Drags `[data-testid=<testid>]` sideways by `dx` CSS pixels with the mouse, as a user
    /// would: pointer down on its centre, moved in four steps, pointer up.
    pub async fn drag(&self, testid: &str, dx: f64) -> Result<()> {
        use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
        let el = self.find(testid, "drag it").await?;
        let mut mouse = MouseActions::new("mouse".into())
            .then(PointerAction::MoveToElement { element: el, duration: None, x: 0.0, y: 0.0 })
            .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT });
        for _ in 0..4 {
            mouse =
                mouse.then(PointerAction::MoveBy { duration: Some(Duration::from_millis(50)), x: dx / 4.0, y: 0.0 });
        }
        mouse = mouse.then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
        self.client.perform_actions(mouse).await.with_context(|| format!("dragging [data-testid={testid}]"))?;
        self.client.release_actions().await.context("releasing the mouse")?;
        Ok(())
    }

    /// Number of elements matching a CSS selector.
    pub async fn count(&self, css: &str) -> Result<usize> {
        let v = self.eval("return document.querySelectorAll(arguments[0]).length;", vec![json!(css)]).await?;
        Ok(v.as_u64().unwrap_or(0) as usize)
    }

    /// Saves a PNG screenshot of the viewport to `path` (parent directories are created).
    pub async fn screenshot(&self, path: &Path) -> Result<()> {
        let png = self.client.screenshot().await?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, png).with_context(|| format!("writing {}", path.display()))
    }

    /// Every browser console entry since the session started (any level).
    pub async fn console(&self) -> Result<Vec<LogEntry>> {
        let fresh = self
            .client
            .issue_cmd(GetBrowserLog)
            .await
            .context("reading the browser log (POST /session/{id}/se/log) from chromedriver failed")?;
        let mut seen = self.console_seen.lock().unwrap_or_else(|p| p.into_inner());
        for e in fresh.as_array().cloned().unwrap_or_default() {
            seen.push(LogEntry {
                level: e["level"].as_str().unwrap_or_default().to_string(),
                source: e["source"].as_str().unwrap_or_default().to_string(),
                message: e["message"].as_str().unwrap_or_default().to_string(),
            });
        }
        Ok(seen.clone())
    }

    /// Console errors (level SEVERE: `console.error`, uncaught exceptions, Rust panics, failed
    /// resource loads) since the session started.
    pub async fn console_errors(&self) -> Result<Vec<LogEntry>> {
        Ok(self.console().await?.into_iter().filter(LogEntry::is_error).collect())
    }

    /// Fails if the console has any error or any Rust panic.
    pub async fn assert_no_console_errors(&self) -> Result<()> {
        let bad: Vec<LogEntry> = self.console().await?.into_iter().filter(|e| e.is_error() || e.is_panic()).collect();
        ensure!(
            bad.is_empty(),
            "browser console has {} error(s):\n{}",
            bad.len(),
            bad.iter().map(|e| format!("  {e}")).collect::<Vec<_>>().join("\n")
        );
        Ok(())
    }

    /// Fails if the console shows a Rust panic (other errors are tolerated).
    pub async fn assert_no_panic(&self) -> Result<()> {
        let bad: Vec<LogEntry> = self.console().await?.into_iter().filter(LogEntry::is_panic).collect();
        ensure!(
            bad.is_empty(),
            "the app panicked:\n{}",
            bad.iter().map(|e| format!("  {e}")).collect::<Vec<_>>().join("\n")
        );
        Ok(())
    }

    /// Waits until the lesson panel shows step `n` (from 1) in `phase` (`asking`, `counting`,
    /// `playing`, `reached` or `free`).
    pub async fn at_step(&self, n: usize, phase: &str, limit: Duration) -> Result<()> {
        let step = n.to_string();
        self.wait_for(
            "lesson-step",
            |el| el.attr("data-step") == Some(step.as_str()) && el.attr("data-phase") == Some(phase),
            limit,
        )
        .await
        .with_context(|| format!("waiting for step {n} ({phase})"))?;
        Ok(())
    }

    /// Presses `keys` one after another as a keyboard would, into whatever has the focus (no
    /// element is chosen or clicked first: keyboard-only use). Special keys are WebDriver code
    /// points, e.g. `'\u{E004}'` Tab, `'\u{E007}'` Enter, `'\u{E00F}'` Page Down.
    pub async fn keys(&self, keys: &[char]) -> Result<()> {
        use fantoccini::actions::{InputSource, KeyAction, KeyActions};
        let mut actions = KeyActions::new("keyboard".into());
        for &k in keys {
            actions = actions.then(KeyAction::Down { value: k }).then(KeyAction::Up { value: k });
        }
        self.client.perform_actions(actions).await.context("pressing keys")?;
        Ok(())
    }

    /// Makes the page's viewport exactly `width` × `height` CSS pixels (Chromium's DevTools
    /// device metrics, on the page as it is: it lays itself out again, as after a window resize).
    /// `mobile` also emulates a phone's screen (the orientation follows the size).
    pub async fn viewport(&self, width: u32, height: u32, mobile: bool) -> Result<()> {
        let angle = if width > height { 90 } else { 0 };
        let kind = if width > height { "landscapePrimary" } else { "portraitPrimary" };
        let body = json!({"cmd": "Emulation.setDeviceMetricsOverride", "params": {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile,
            "screenOrientation": {"type": kind, "angle": angle}
        }})
        .to_string();
        self.client.issue_cmd(Cdp { body }).await.context("Emulation.setDeviceMetricsOverride")?;
        self.wait_until_js(
            &format!("a {width}×{height} viewport"),
            &format!("return window.innerWidth === {width} && window.innerHeight === {height};"),
            Duration::from_secs(5),
        )
        .await
    }

    /// Waits until the page has drawn `n` more frames (`requestAnimationFrame`): the layout and
    /// the reactions to it (a `ResizeObserver`, the text fitted to the size) have run by then,
    /// however busy the machine, where a fixed sleep would be either too long or too short.
    pub async fn frames(&self, n: u32) -> Result<()> {
        const SCRIPT: &str = "const done = arguments[arguments.length - 1]; let left = arguments[0]; \
                              const tick = () => (--left <= 0 ? done(true) : requestAnimationFrame(tick)); \
                              requestAnimationFrame(tick);";
        self.client.execute_async(SCRIPT, vec![json!(n)]).await.with_context(|| format!("waiting for {n} frames"))?;
        Ok(())
    }

    /// Emulates the CSS media feature `name: value` (e.g. `prefers-reduced-motion: reduce`) for the
    /// pages opened from now on, through Chromium's DevTools.
    pub async fn emulate_media(&self, name: &str, value: &str) -> Result<()> {
        let body =
            json!({"cmd": "Emulation.setEmulatedMedia", "params": {"features": [{"name": name, "value": value}]}})
                .to_string();
        self.client.issue_cmd(Cdp { body }).await.context("Emulation.setEmulatedMedia")?;
        Ok(())
    }

    /// Taps `[data-testid=<testid>]` with a finger (a WebDriver touch pointer: down and up at the
    /// element's centre), scrolling it into view first.
    pub async fn tap(&self, testid: &str) -> Result<()> {
        use fantoccini::actions::{InputSource, PointerAction, TouchActions, MOUSE_BUTTON_LEFT};
        let el = self.find(testid, "tap it").await?;
        self.eval("arguments[0].scrollIntoView({block: 'center'});", vec![serde_json::to_value(&el)?]).await?;
        let finger = TouchActions::new("finger".into())
            .then(PointerAction::MoveToElement { element: el, duration: None, x: 0.0, y: 0.0 })
            .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
            .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
        self.client.perform_actions(finger).await.with_context(|| format!("tapping [data-testid={testid}]"))?;
        Ok(())
    }

    /// Presses Tab until the focus is on `[data-testid=<testid>]` (at most `limit` times), as a
    /// keyboard user reaches a control; fails if it never gets there.
    pub async fn tab_to(&self, testid: &str, limit: usize) -> Result<()> {
        for _ in 0..limit {
            let here = self
                .eval("const a = document.activeElement; return a ? a.getAttribute('data-testid') : null;", vec![])
                .await?;
            if here.as_str() == Some(testid) {
                return Ok(());
            }
            self.keys(&['\u{E004}']).await?;
        }
        bail!("{limit} presses of Tab did not reach [data-testid={testid}]")
    }

    /// Runs axe-core (the accessibility checker, installed from npm into
    /// `tests/browser/node_modules` by `cargo xtask test`) on the page as it is now, and returns
    /// its violations of impact `serious` or `critical`, one line each: the rule, its impact,
    /// what it says and the elements it found (their CSS selectors). `what` names the screen in
    /// the result.
    pub async fn axe_serious(&self, what: &str) -> Result<Vec<String>> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("node_modules/axe-core/axe.min.js");
        let source = std::fs::read_to_string(&path).with_context(|| {
            format!("reading {} (run `npm ci` in tests/browser, as `cargo xtask test` does)", path.display())
        })?;
        self.eval(&format!("if (!window.axe) {{ {source}\n }} return true;"), vec![])
            .await
            .context("injecting axe-core")?;
        const RUN: &str = r#"
            const done = arguments[arguments.length - 1];
            axe.run(document, { resultTypes: ['violations'] })
                .then(r => done(r.violations
                    .filter(v => v.impact === 'serious' || v.impact === 'critical')
                    .map(v => v.id + ' (' + v.impact + '): ' + v.help + ' at ' +
                        v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(' | '))))
                .catch(e => done(['axe failed: ' + e]));
        "#;
        let result =
            self.client.execute_async(RUN, vec![]).await.with_context(|| format!("running axe-core on {what}"))?;
        Ok(result
            .as_array()
            .map(|a| a.iter().filter_map(|v| v.as_str().map(|s| format!("{what}: {s}"))).collect())
            .unwrap_or_default())
    }

    /// Ends the WebDriver session (Chromium quits), then stops chromedriver and the server.
    pub async fn close(self) {
        let _ = tokio::time::timeout(Duration::from_secs(10), self.client.clone().close()).await;
        // Drop does the rest.
    }

    /// chromedriver's log, last lines (for diagnosing).
    pub fn driver_log(&self) -> String {
        self.driver.log_tail()
    }
}

/// `[data-testid="…"]`.
pub fn testid_selector(testid: &str) -> String {
    format!("[data-testid=\"{}\"]", testid.replace('\\', "\\\\").replace('"', "\\\""))
}

/// chromedriver's (non-W3C, but supported) endpoint for the browser console log. It returns the
/// entries logged since the previous call.
#[derive(Debug)]
struct GetBrowserLog;

/// Chromium's DevTools command `cmd` with `params`, through chromedriver
/// (`POST /session/{id}/goog/cdp/execute`).
#[derive(Debug)]
struct Cdp {
    body: String,
}

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session.unwrap_or_default()))
    }
    fn method_and_body(&self, _url: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(self.body.clone()))
    }
}

impl WebDriverCompatibleCommand for GetBrowserLog {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }
    fn method_and_body(&self, _url: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(r#"{"type":"browser"}"#.to_string()))
    }
}

// ---------------------------------------------------------------------------------------------
// Ports

/// An exclusive lock (`flock`) on one file in the temporary directory, shared by every harness
/// process on the machine, held while a browser's ports are chosen and until its chromedriver
/// listens: a port [`free_port`] found free cannot then be taken by another test binary's server
/// or chromedriver before this one's is on it. Released when dropped (the file is closed).
struct PortLock {
    /// Held open: closing it releases the lock.
    _file: std::fs::File,
}

impl PortLock {
    fn take() -> Result<PortLock> {
        use std::os::fd::AsRawFd;
        let path = std::env::temp_dir().join("leaselab-browser-ports.lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        // SAFETY: flock on a descriptor this process owns; it blocks until the lock is ours.
        let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) };
        ensure!(rc == 0, "locking {}: {}", path.display(), std::io::Error::last_os_error());
        Ok(PortLock { _file: file })
    }
}

// ---------------------------------------------------------------------------------------------
// chromedriver (and the Chromium it starts)

struct ChromeDriver {
    child: Child,
    port: u16,
    /// A fresh directory for the Chromium profile and chromedriver's log; removed on drop.
    scratch: PathBuf,
}

impl ChromeDriver {
    fn start(binary: &Path) -> Result<ChromeDriver> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_nanos();
        let scratch = std::env::temp_dir().join(format!(
            "leaselab-browser-{}-{}-{nanos}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&scratch)?;
        let mut attempt = 1;
        loop {
            let port = free_port()?;
            let child = Command::new(binary)
                .arg(format!("--port={port}"))
                .arg(format!("--log-path={}", scratch.join("chromedriver.log").display()))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                // Its own process group, so the whole tree (chromedriver + Chromium) can be killed.
                .process_group(0)
                .spawn()
                .with_context(|| format!("starting {}", binary.display()))?;
            let mut driver = ChromeDriver { child, port, scratch: scratch.clone() };
            let deadline = Instant::now() + Duration::from_secs(20);
            loop {
                // Exited: it could not listen on the port (taken by a program outside the
                // harness since it was found free). Another port, at most three times.
                if let Ok(Some(status)) = driver.child.try_wait() {
                    ensure!(
                        attempt < 3,
                        "chromedriver exited ({status}) without listening, three times; log:\n{}",
                        driver.log_tail()
                    );
                    break;
                }
                if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                    return Ok(driver);
                }
                ensure!(
                    Instant::now() < deadline,
                    "chromedriver did not listen on port {port} within 20 s; log:\n{}",
                    driver.log_tail()
                );
                std::thread::sleep(Duration::from_millis(50));
            }
            // Dropping it would remove the scratch directory the next attempt uses.
            let _ = driver.child.wait();
            std::mem::forget(driver);
            attempt += 1;
        }
    }

    fn log_tail(&self) -> String {
        let log = std::fs::read_to_string(self.scratch.join("chromedriver.log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        let pgid = self.child.id() as libc::pid_t;
        // SAFETY: plain syscalls on ids this harness created.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Chromium processes that left the group still carry our unique profile path.
        kill_processes_mentioning(&self.scratch);
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

/// Kills (by pid) the processes whose command line contains `marker`.
fn kill_processes_mentioning(marker: &Path) {
    let marker = marker.to_string_lossy().into_owned();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<libc::pid_t>().ok()) else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if String::from_utf8_lossy(&cmdline).contains(&marker) {
            // SAFETY: plain syscall.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
}

fn free_port() -> Result<u16> {
    Ok(TcpListener::bind(("127.0.0.1", 0))?.local_addr()?.port())
}

// ---------------------------------------------------------------------------------------------
// The static file server

/// Serves `root` at `http://127.0.0.1:<port><prefix>`; everything outside `prefix` is 404, so an
/// absolute asset URL in the app shows up as a failed load. Stopped on drop.
///
/// [`StaticServer::start_precompressed`] is the bench's variant: several directories under their
/// own prefixes, held in memory with their brotli, keep-alive connections.
pub struct StaticServer {
    pub port: u16,
    stop: Arc<AtomicBool>,
    log: Arc<Mutex<Vec<Served>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// One request the server answered.
#[derive(Clone, Debug)]
pub struct Served {
    /// The path asked for (without the query).
    pub path: String,
    pub status: u16,
    /// Bytes of the body as sent (compressed when `encoding` says so); 0 for `HEAD`.
    pub body_bytes: u64,
    /// `Content-Encoding` of the answer (`br`), if any.
    pub encoding: Option<&'static str>,
    /// The request's `Accept-Encoding` header, if it had one.
    pub accept_encoding: Option<String>,
}

/// What a server serves.
enum Site {
    /// `root` under `prefix`, read from disk at each request, never compressed (the tests).
    Disk { root: PathBuf, prefix: String },
    /// Files held in memory (the bench).
    Memory(Arc<Precompressed>),
}

/// Directories loaded into memory, each file with its brotli (quality 11, 4 MB window), served
/// under their own prefixes: the bench serves LeaseLab's `dist/` and RaftScope side by side, with
/// the same headers, from one server.
pub struct Precompressed {
    /// Full URL path (`/leaselab/index.html`) → the file.
    files: std::collections::HashMap<String, MemFile>,
    prefixes: Vec<String>,
}

struct MemFile {
    raw: Vec<u8>,
    /// Its brotli, when shorter than the file itself.
    br: Option<Vec<u8>>,
    content_type: &'static str,
}

impl Precompressed {
    /// Reads every file under each `(prefix, root)` and compresses it (on every core). `prefix`
    /// starts and ends with `/`.
    pub fn load(mounts: &[(&str, &Path)]) -> Result<Precompressed> {
        let mut todo: Vec<(String, PathBuf)> = Vec::new();
        for (prefix, root) in mounts {
            assert!(prefix.starts_with('/') && prefix.ends_with('/'));
            let mut found = Vec::new();
            collect_files(root, &mut found).with_context(|| format!("reading {}", root.display()))?;
            for file in found {
                let rel = file.strip_prefix(root).expect("found under root");
                let rel: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
                todo.push((format!("{prefix}{}", rel.join("/")), file));
            }
        }
        // The largest first, so the threads end together.
        let sizes: Vec<u64> = todo.iter().map(|(_, f)| f.metadata().map(|m| m.len()).unwrap_or(0)).collect();
        let mut order: Vec<usize> = (0..todo.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
        let next = Mutex::new(order.into_iter());
        let done: Mutex<Vec<Result<(String, MemFile)>>> = Mutex::new(Vec::new());
        let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| loop {
                    let Some(i) = next.lock().unwrap_or_else(|p| p.into_inner()).next() else { break };
                    let (url_path, file) = &todo[i];
                    let one = std::fs::read(file).with_context(|| format!("reading {}", file.display())).map(|raw| {
                        let br = brotli(&raw);
                        let br = (br.len() < raw.len()).then_some(br);
                        (url_path.clone(), MemFile { content_type: content_type_of(url_path), raw, br })
                    });
                    done.lock().unwrap_or_else(|p| p.into_inner()).push(one);
                });
            }
        });
        let mut files = std::collections::HashMap::new();
        for one in done.into_inner().unwrap_or_else(|p| p.into_inner()) {
            let (path, file) = one?;
            files.insert(path, file);
        }
        Ok(Precompressed { files, prefixes: mounts.iter().map(|(p, _)| (*p).to_owned()).collect() })
    }

    /// How many files, their bytes and their bytes as served with brotli.
    pub fn totals(&self) -> (usize, u64, u64) {
        let raw = self.files.values().map(|f| f.raw.len() as u64).sum();
        let br = self.files.values().map(|f| f.br.as_ref().unwrap_or(&f.raw).len() as u64).sum();
        (self.files.len(), raw, br)
    }
}

/// `data` with brotli, quality 11 and a 4 MB window (as `cargo xtask dist` measures it).
fn brotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = brotli::CompressorWriter::new(&mut out, 4096, 11, 22);
        enc.write_all(data).expect("writing to memory");
        enc.flush().expect("writing to memory");
    }
    out
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_files(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

impl StaticServer {
    pub fn start(root: &Path, prefix: &str) -> Result<StaticServer> {
        assert!(prefix.starts_with('/') && prefix.ends_with('/'));
        StaticServer::serve(Site::Disk { root: root.to_path_buf(), prefix: prefix.to_string() })
    }

    /// Serves `site` from memory: each file with `Content-Encoding: br` when the request
    /// accepts br (and the brotli is the shorter), otherwise as it is; connections kept alive.
    pub fn start_precompressed(site: Arc<Precompressed>) -> Result<StaticServer> {
        StaticServer::serve(Site::Memory(site))
    }

    fn serve(site: Site) -> Result<StaticServer> {
        let listener = TcpListener::bind(("127.0.0.1", 0))?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        let stop = Arc::new(AtomicBool::new(false));
        let log = Arc::new(Mutex::new(Vec::new()));
        let site = Arc::new(site);
        let (stop2, log2) = (stop.clone(), log.clone());
        let thread = std::thread::spawn(move || {
            while !stop2.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let (site, log, stop) = (site.clone(), log2.clone(), stop2.clone());
                        std::thread::spawn(move || {
                            let _ = handle(stream, &site, &log, &stop);
                        });
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Ok(StaticServer { port, stop, log, thread: Some(thread) })
    }

    /// (path, status) of every request answered so far.
    pub fn requests(&self) -> Vec<(String, u16)> {
        self.served().into_iter().map(|s| (s.path, s.status)).collect()
    }

    /// Every request answered so far, with what was sent.
    pub fn served(&self) -> Vec<Served> {
        self.log.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Forgets the requests answered so far (the bench counts one page load's).
    pub fn clear_log(&self) {
        self.log.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Answers the requests of one connection: one (then closes) from disk, as many as come in
/// from memory.
fn handle(stream: TcpStream, site: &Site, log: &Mutex<Vec<Served>>, stop: &AtomicBool) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    stream.set_write_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut stream = stream;
    let keep_alive = matches!(site, Site::Memory(_));
    loop {
        let mut request_line = String::new();
        match reader.read_line(&mut request_line) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            // An idle kept-alive connection: wait on unless the server stops.
            Err(e)
                if keep_alive && matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) =>
            {
                if stop.load(Ordering::Relaxed) {
                    return Ok(());
                }
                continue;
            }
            Err(e) => return Err(e),
        }
        let mut accept_encoding = None;
        let mut client_closes = false;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                let value = value.trim();
                if name.eq_ignore_ascii_case("accept-encoding") {
                    accept_encoding = Some(value.to_string());
                } else if name.eq_ignore_ascii_case("connection") && value.eq_ignore_ascii_case("close") {
                    client_closes = true;
                }
            }
        }
        let mut parts = request_line.split_whitespace();
        let method = parts.next().unwrap_or("");
        let target = parts.next().unwrap_or("/");
        let path = target.split(['?', '#']).next().unwrap_or("/");
        let accepts_br = accept_encoding
            .as_deref()
            .is_some_and(|a| a.split(',').any(|e| e.split(';').next().unwrap_or("").trim() == "br"));

        let answer = if method != "GET" && method != "HEAD" {
            Answer::plain(405, "method not allowed")
        } else {
            match site {
                Site::Disk { root, prefix } => from_disk(root, prefix, path),
                Site::Memory(site) => from_memory(site, path, accepts_br),
            }
        };
        let body: &[u8] = if method == "HEAD" { &[] } else { &answer.body };
        log.lock().unwrap_or_else(|p| p.into_inner()).push(Served {
            path: path.to_string(),
            status: answer.status,
            body_bytes: body.len() as u64,
            encoding: answer.encoding,
            accept_encoding,
        });

        let reason = match answer.status {
            200 => "OK",
            301 => "Moved Permanently",
            404 => "Not Found",
            _ => "Method Not Allowed",
        };
        let persistent = keep_alive && !client_closes;
        let mut head = format!(
            "HTTP/1.1 {} {reason}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: {}\r\n",
            answer.status,
            answer.content_type,
            answer.body.len(),
            if persistent { "keep-alive" } else { "close" }
        );
        if keep_alive {
            head.push_str("Vary: Accept-Encoding\r\n");
        }
        if let Some(encoding) = answer.encoding {
            head.push_str(&format!("Content-Encoding: {encoding}\r\n"));
        }
        if let Some(loc) = &answer.location {
            head.push_str(&format!("Location: {loc}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes())?;
        stream.write_all(body)?;
        stream.flush()?;
        if !persistent {
            break;
        }
    }
    let _ = stream.shutdown(Shutdown::Write);
    // Drain whatever the client still sends so the close is clean.
    let mut sink = [0u8; 512];
    let _ = reader.get_mut().read(&mut sink);
    Ok(())
}

/// A response (before `HEAD` drops its body).
struct Answer<'a> {
    status: u16,
    body: std::borrow::Cow<'a, [u8]>,
    content_type: &'static str,
    encoding: Option<&'static str>,
    location: Option<String>,
}

impl Answer<'_> {
    fn plain(status: u16, text: &'static str) -> Answer<'static> {
        Answer { status, body: text.as_bytes().into(), content_type: "text/plain", encoding: None, location: None }
    }
}

fn from_disk<'a>(root: &Path, prefix: &str, path: &str) -> Answer<'a> {
    if path == prefix.trim_end_matches('/') {
        return Answer { location: Some(prefix.to_string()), ..Answer::plain(301, "") };
    }
    let Some(rel) = path.strip_prefix(prefix) else {
        return Answer::plain(404, "not found (outside the sub-path)");
    };
    // A directory's index, as static hosts serve it (`embed/` is the embedding example).
    let rel = format!("{rel}{}", if rel.is_empty() || rel.ends_with('/') { "index.html" } else { "" });
    let rel_path = Path::new(&rel);
    let safe = rel_path.components().all(|c| matches!(c, Component::Normal(_)));
    match safe.then(|| std::fs::read(root.join(rel_path))) {
        Some(Ok(data)) => Answer {
            status: 200,
            body: data.into(),
            content_type: content_type_of(&rel),
            encoding: None,
            location: None,
        },
        _ => Answer::plain(404, "not found"),
    }
}

fn from_memory<'a>(site: &'a Precompressed, path: &str, accepts_br: bool) -> Answer<'a> {
    if let Some(prefix) = site.prefixes.iter().find(|p| path == p.trim_end_matches('/')) {
        return Answer { location: Some(prefix.clone()), ..Answer::plain(301, "") };
    }
    let path = if path.ends_with('/') { format!("{path}index.html") } else { path.to_string() };
    match site.files.get(&path) {
        Some(file) => {
            let (body, encoding) = match (&file.br, accepts_br) {
                (Some(br), true) => (br, Some("br")),
                _ => (&file.raw, None),
            };
            Answer {
                status: 200,
                body: body.as_slice().into(),
                content_type: file.content_type,
                encoding,
                location: None,
            }
        }
        None => Answer::plain(404, "not found"),
    }
}

fn content_type_of(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "eot" => "application/vnd.ms-fontobject",
        "map" => "application/json",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
