//! The Leptos browser app. It compiles natively too, where its views render the first frame
//! that `index.html` shows while the app loads ([`first_frame`]); nothing calls into the browser
//! while a view is built ([`window`] is `None` natively).
//!
//! - [`state`]: the engine in a non-reactive holder, the published snapshot, the clock.
//! - [`url`]: start settings from the address, defensively.
//! - [`scene`]: a fable's scene: its drawing (`crate::fables`, plain Rust) set part by part from
//!   the story layer's picture.
//! - [`crew`]: one card per flag-bearer (borrower) with its buttons.
//! - [`controls`]: play, step, speed, reset, scenario, fencing, revoke.
//! - [`panel`]: the same state in the Lease's own terms, and who stands for what.
//! - [`log`]: the narrated event log.
//! - [`technical`]: the lease as Kubernetes, Redis or etcd shows it; the resource's table.
//! - [`violations`]: the oracle's findings, each lighting up what it involves in the scene.
//! - [`embed`]: the compact scene for documentation pages (`?embed=1`) and its `postMessage` API.
//!
//! Every visible string comes from [`Ui`], from the fable shown ([`Fable::word`]) or from the
//! scenario file, in the chosen language.

/// Defines `async fn $name(args) -> Result<$ret, SplitLoaderError>` that calls the plain function
/// `$body` (written outside the macro, so that rustfmt keeps it). In the split release build
/// (`--cfg leaselab_split`, see `xtask`) `$body` and what only it uses are compiled into the chunk
/// `$chunk` (`wasm_split`, as Leptos's `#[lazy]`; every function of one chunk is in its one
/// module), fetched on the first call; a failed fetch (a flaky network) is an `Err` that the next
/// call tries again, never a panic (the splitter's `fallible` option: without it a failed fetch
/// aborts the whole page). Other builds run the body at once and never fail.
///
/// The page has two chunks, so that a page with a lesson fetches few files: `reader` (the
/// scenario, lesson and address readers a page whose address has a query needs before it starts)
/// and `later_parts` (everything the first scene does not need: `ui::later`'s parts, the lessons'
/// runtime, the technical panel, the files, the share link, the embed API). Every split point
/// also makes chunks of the code it shares with the others: with eight, a page with a lesson
/// fetched 45 files.
macro_rules! chunk_fn {
    (in $chunk:ident; $(#[$attr:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty = $body:path;) => {
        $(#[$attr])*
        #[cfg(leaselab_split)]
        #[leptos::wasm_split::wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible)]
        $vis fn $name($($arg: $ty),*) -> Result<$ret, leptos::wasm_split::SplitLoaderError> {
            Ok($body($($arg),*))
        }

        $(#[$attr])*
        #[cfg(not(leaselab_split))]
        $vis async fn $name($($arg: $ty),*) -> Result<$ret, leptos::wasm_split::SplitLoaderError> {
            Ok($body($($arg),*))
        }
    };
    (in $chunk:ident; $(#[$attr:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) = $body:path;) => {
        chunk_fn! { in $chunk; $(#[$attr])* $vis fn $name($($arg: $ty),*) -> () = $body; }
    };
}

mod act;
mod ask;
mod catalog;
mod compare;
mod controls;
mod crew;
mod diagram;
mod draw;
mod embed;
mod files;
mod focus;
mod hands;
mod keys;
mod later;
mod lesson;
mod live;
mod log;
mod panel;
mod plain;
mod scene;
mod side;
mod stage;
mod state;
mod sweep;
mod technical;
mod url;
mod violations;

use leptos::either::Either;
use leptos::prelude::*;

use crate::actions::Action;
use crate::fables::{Said, Word};
use crate::scenario::{library, Localized};
use crate::story::fill;
use crate::story::i18n::{Later, PageText, Ui};
use crate::story::packs::Part;
use crate::story::theme::Theme;
use crate::vocab::Fable;
use crate::vocab::Lang;

use crate::scenario::embed::Controls;
use state::AppState;
use url::UrlIssue;

/// Mounts the app on `<body>`.
pub fn start() {
    console_error_panic_hook::set_once();
    // The built-in the address asks for (or the default) is fetched first; the page is drawn
    // once it is here, or once fetching it has failed (which the page then says).
    wasm_bindgen_futures::spawn_local(async {
        // The page's texts come from the translation pack of its language (`story::packs`).
        let lang = url::wanted_lang();
        if let Err(error) = catalog::load_pack(lang).await {
            let other = match lang {
                Lang::En => Lang::Zh,
                Lang::Zh => Lang::En,
            };
            if catalog::load_pack(other).await.is_err() {
                no_texts(&error);
                return;
            }
        }
        if !url::has_query() {
            // The bare address: the default scenario, built in (no file, no reader).
            catalog::load(library::DEFAULT_ID).await;
            let scenario = catalog::get(library::DEFAULT_ID).unwrap_or_else(|| Ok(crate::scenario::opening::opening()));
            mount_with_words(url::Start::plain(scenario.map_err(|e| e.to_string()))).await;
            return;
        }
        let wanted = url::wanted_builtin();
        catalog::load(&wanted).await;
        if !matches!(catalog::get(&wanted), Some(Ok(_))) {
            catalog::load(library::DEFAULT_ID).await;
        }
        // The address is read by the reader's chunk, asked for again while the network fails
        // (the loading picture stays meanwhile): 1 s, 2 s, … up to 30 s between tries.
        let mut wait_ms = 1_000;
        let reader = loop {
            match catalog::reader().await {
                Ok(reader) => break reader,
                Err(_) => {
                    gloo_timers::future::TimeoutFuture::new(wait_ms).await;
                    wait_ms = (wait_ms * 2).min(30_000);
                }
            }
        };
        mount_with_words((reader.address)()).await;
    });
}

/// Mounts the page for `start` once the words of the fable it opens on are here (or could not
/// be had: the scene is then drawn with what there is and drawn again when they come).
async fn mount_with_words(start: url::Start) {
    let fable = start.fable.or_else(|| start.scenario.as_ref().ok().map(|s| s.fable)).unwrap_or_default();
    let _ = catalog::load_fable_pack(fable, start.lang).await;
    mount(start);
}

/// Loads the words of the fable shown, in the page's language, whenever either changes to one
/// whose pack is not here yet, and tells the page again once they have come (the first part of
/// its pack: its later part, its story lines and legend, comes in the later parts' chunk).
fn follow_fable_words(app: AppState) {
    effect(move || {
        let (fable, lang) = (app.fable.get(), app.lang.get_untracked());
        if crate::story::packs::has_fable(fable, lang, Part::First) {
            return;
        }
        wasm_bindgen_futures::spawn_local(async move {
            let mut wait_ms = 1_000;
            while catalog::load_fable_pack(fable, lang).await.is_err() {
                gloo_timers::future::TimeoutFuture::new(wait_ms).await;
                wait_ms = (wait_ms * 2).min(30_000);
            }
            app.lang.notify();
        });
    });
}

/// Without any translation pack there are no words to draw the page with: a plain message in
/// both languages says why.
fn no_texts(error: &str) {
    remove_boot();
    leptos::mount::mount_to_body({
        let error = error.to_owned();
        move || {
            view! {
                <main class="page">
                    <p class="fatal" data-testid="url-warning">
                        "LeaseLab could not load its texts · LeaseLab 无法加载页面文字: " {error}
                    </p>
                </main>
            }
        }
    });
}

/// Switches the page to `lang` once its translation pack is here (fetched the first time); if
/// it cannot be had the page stays in its language and says why.
pub(crate) fn set_lang(app: AppState, lang: Lang) {
    wasm_bindgen_futures::spawn_local(async move {
        match catalog::load_pack(lang).await {
            Ok(()) => {
                let _ = catalog::load_fable_pack(app.fable.get_untracked(), lang).await;
                app.lang.set(lang);
            }
            Err(error) => {
                let said = fill(Ui::PackFailed.text(app.lang.get_untracked()), &[("error", &error)]);
                app.tutor.0.update(|t| t.notice = Some(said));
            }
        }
    });
}

/// The browser's window; `None` without one, and natively, where the page's views only render
/// its first frame ([`first_frame`]) and nothing may call into a browser.
pub(crate) fn window() -> Option<web_sys::Window> {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        None
    }
}

/// The static picture `index.html` shows while the app loads; gone once the app is drawn.
const BOOT_ID: &str = "boot";

/// Takes away the loading picture (`index.html`'s `#boot`).
fn remove_boot() {
    if let Some(boot) = document().get_element_by_id(BOOT_ID) {
        boot.remove();
    }
}

/// Draws the page for the settings `start` (read from the address).
fn mount(start: url::Start) {
    remove_boot();
    let kept_theme = stored_theme();
    let landing = start.embed.is_none() && url::bare_address();
    leptos::mount::mount_to_body(move || page(start, kept_theme, landing, true));
}

/// The app's first frame at its bare address (English, the opening scenario at 0.0 s, the landing
/// card), as HTML: the page's own views rendered natively, with no browser, for `index.html` to
/// show while the wasm loads (`leaselab first-frame`, run by `cargo xtask dist`). No effect runs,
/// so nothing the page measures or asks the browser for is in it; it is a picture
/// ([`crate::story::markup::PICTURE_DROPPED`] taken out), not a page to use. The browser test
/// `first_scene` checks that it is the frame the app draws.
#[cfg(not(target_arch = "wasm32"))]
pub fn first_frame() -> String {
    let owner = Owner::new();
    let html = owner.with(|| {
        let start = url::Start::plain(Ok(crate::scenario::opening::opening()));
        page(start, None, true, false).to_html()
    });
    crate::story::markup::without_attributes(&html, crate::story::markup::PICTURE_DROPPED)
}

/// The page for the settings `start`: the theme kept from a visit (if any), whether the landing
/// card is up, and whether it is `live` (the app in the browser, whose clock runs and which
/// opens a lesson the address asks for) or only a picture of its first frame ([`first_frame`]).
fn page(start: url::Start, kept_theme: Option<Theme>, landing: bool, live: bool) -> impl IntoView {
    let lang = start.lang;
    let mut issues = start.issues;
    match start.scenario.map(|s| AppState::new(s, start.fable, lang, start.speed_log2, start.autoplay)) {
        Ok(app) => {
            app.tech_view.set(start.view);
            app.theme.set(start.theme.or(kept_theme).unwrap_or_default());
            app.true_time.set(start.pacing == crate::scenario::Pacing::True);
            app.source.set(start.source);
            // A share link: its interventions at their times, then its playhead.
            if let Err(error) = app.replay_link(&start.interventions, start.at_ms) {
                issues.push(UrlIssue::BadLink { error });
            }
            let until_ms = app.scenario.with_untracked(|s| s.config.until_ms);
            if let Some(at_ms) = start.at_ms.filter(|t| *t > until_ms) {
                let end = seconds(until_ms);
                issues.push(UrlIssue::TimeAfterEnd { value: at_ms.to_string(), end });
            }
            // Opening a link pauses at its moment; `autoplay=1` plays on from there.
            if start.autoplay {
                app.playing.set(true);
            }
            if live {
                app.start_clock();
            }
            app.presenter.set(start.presenter);
            app.landing.set(landing);
            if let Some((id, step)) = start.lesson.filter(|_| live) {
                app.later.open_lesson(app, id, step);
            }
            Either::Left(view! { <App app issues embed=start.embed /> })
        }
        Err(error) => Either::Right(view! {
            <main class="page" data-testid=format!("scene-{}", Fable::DEFAULT.code())>
                <p class="fatal" data-testid="url-warning">
                    {fill(Ui::NoScenarioAtAll.text(lang), &[("error", &error)])}
                </p>
            </main>
        }),
    }
}

// Where the theme chosen with the header's button is kept between visits.
use crate::build_facts::THEME_KEY;

/// The theme kept from the last visit, if storage is there and holds a good one.
fn stored_theme() -> Option<Theme> {
    let storage = crate::ui::window()?.local_storage().ok()??;
    Theme::from_code(&storage.get_item(THEME_KEY).ok()??)
}

/// Keeps `theme` for the next visit; without storage (private mode, blocked) it is just not kept.
fn store_theme(theme: Theme) {
    if let Some(storage) = crate::ui::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.set_item(THEME_KEY, theme.code());
    }
}

/// A reactive text from the table in the current language.
pub(crate) fn tr(app: AppState, text: impl PageText) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    move || text.text(app.lang.get())
}

/// A reactive word of the fable shown, in the current language (see [`crate::fables::Word`]).
pub(crate) fn tw(app: AppState, word: Word) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    move || said(app, word, app.lang.get())
}

/// The fable shown's word for `word` in `lang` (tracks the fable).
pub(crate) fn said(app: AppState, word: Word, lang: Lang) -> &'static str {
    app.fable.get().word(word, lang)
}

/// Text from a scenario file in `lang`, or `fallback`.
pub(crate) fn localized(text: Option<&Localized>, lang: Lang, fallback: &str) -> String {
    match (text, lang) {
        (Some(l), Lang::En) if !l.en.is_empty() => l.en.clone(),
        (Some(l), Lang::Zh) if !l.zh.is_empty() => l.zh.clone(),
        _ => fallback.to_owned(),
    }
}

/// How every moment a learner reads is written (`12.3`): the story's one formatter.
pub(crate) use crate::story::i18n::seconds;

/// `ms` as seconds with one decimal and the unit, in `lang` (`12.3 s`, `12.3 秒`).
pub(crate) fn seconds_in(ms: u64, lang: Lang) -> String {
    fill(Ui::SecondsValue.text(lang), &[("s", &seconds(ms))])
}

/// A view-box coordinate with one decimal, e.g. `-12.5`.
pub(crate) fn coord(v: f64) -> String {
    let tenths = (v * 10.0).round();
    // `as` saturates (NaN → 0), so no input can panic here.
    let t = tenths as i64;
    let sign = if t < 0 { "-" } else { "" };
    let a = t.unsigned_abs();
    format!("{sign}{}.{}", a / 10, a % 10)
}

/// Runs `f` now, and again whenever what it read changes (Leptos's `Effect`). The page's effects
/// all go through this one boxed closure type, so that Leptos's effect code is in the page once
/// rather than once per effect (issue 14).
pub(crate) fn effect(f: impl Fn() + 'static) {
    let f: Box<dyn Fn()> = Box::new(f);
    Effect::new(move |_| f());
}

/// `<html lang>`, `<html data-theme>` and the tab title follow the language and the theme.
fn follow_lang(app: AppState) {
    effect(move || {
        let lang = app.lang.get();
        let doc = document();
        if let Some(root) = doc.document_element() {
            let _ = root.set_attribute("lang", lang.tag());
            let _ = root.set_attribute("data-theme", app.theme.get().code());
        }
        doc.set_title(Ui::AppTitle.text(lang));
    });
}

/// The page. Embedded (`?embed=1`, see [`embed`]) it is the scene alone: the style sheet hides
/// the page's own chrome (header, story head, caption, crew, panels, log, technical view), the
/// controls that `controls=` does not ask for, and the space-time diagram without `diagram=1`.
/// One view tree for both keeps the page small (a second tree for the frame cost about 4 KB of
/// gzip); the hidden parts are never shown.
#[component]
fn App(app: AppState, issues: Vec<UrlIssue>, embed: Option<url::EmbedStart>) -> impl IntoView {
    follow_lang(app);
    follow_fable_words(app);
    // The rest of the page: one chunk, asked for once, drawn into each placeholder; the keyboard's
    // shortcuts come with it, but not in a frame.
    app.later.after_first_paint(app, embed.is_none());
    let (class, api, controls) = match embed {
        None => (String::from("page"), None, None),
        Some(e) => {
            if let Some(body) = document().body() {
                // Page-wide styles for a frame: no minimum width, no scrolling.
                body.set_class_name("embed");
            }
            let api = embed::listen(app, e.allowed, e.parent);
            let code = match e.controls {
                Controls::None => "none",
                Controls::Play => "play",
                Controls::Full => "full",
            };
            let class = format!("page embed embed-{code}{}", if e.diagram { " embed-diagram" } else { "" });
            (class, Some(if api { "on" } else { "off" }), Some(code))
        }
    };
    // The run's title (and its id, for the tests and the address). A scenario told by another
    // fable says so: its title names its own fable's figures.
    let run_title = move || {
        let lang = app.lang.get();
        let shown = app.fable.get();
        let (title, own) = app.scenario.with(|s| (localized(s.title.as_ref(), lang, &s.id), s.fable));
        if shown == own {
            title
        } else {
            fill(shown.word(Word::TitleToldAs, lang), &[("title", &title)])
        }
    };
    view! {
        <div
            // The page's states as classes, written by one closure rather than one per class.
            class=move || {
                use crate::scenario::lesson::Element;
                // A step that points at the diagram enlarges it, unless it points at the side panel
                // too (the log, the violations): spanning the whole width, the diagram would leave
                // that panel a sliver beside the stage.
                let diagram_big = app.diagram_big.get()
                    || app.pointed.with(|p| {
                        p.iter().any(|e| matches!(e, Element::Diagram | Element::Lane(_)))
                            && !p.iter().any(|e| matches!(e, Element::Log | Element::Violations))
                    });
                let states = [
                    (app.presenter.get(), " presenter"),
                    (app.show_controls.get(), " show-controls"),
                    (app.tutor.active(), " in-lesson"),
                    (diagram_big, " diagram-big"),
                ];
                let mut out = class.clone();
                for (on, name) in states {
                    if on {
                        out.push_str(name);
                    }
                }
                out
            }
            data-testid=controls.map(|_| "embed")
            data-api=api
            data-controls=controls
        >
            <header class="top">
                <div class="brand">
                    <h1>{tr(app, Ui::AppTitle)}</h1>
                    <h2
                        class="run-title"
                        data-testid="scenario-title"
                        data-scenario=move || app.scenario.with(|s| s.id.clone())
                        title=run_title
                    >
                        {run_title}
                    </h2>
                </div>
                <div class="toolbar">
                    <div class="sandbox-tools">
                        <later::Later app part=later::Part::Tools />
                    </div>
                    <later::Later app part=later::Part::HeaderControls />
                </div>
            </header>
            <UrlWarning app issues />
            <later::Later app part=later::Part::Help />
            <later::Later app part=later::Part::Audience />
            // What the style sheet needs to know of the page, as attributes: a `:has()` selector
            // would make the browser check every change of the page against it (see
            // docs/measurements.md, frames at 64×).
            <main class="workspace" data-comparing=move || app.other_picture.with(Option::is_some).then_some("true")>
                <stage::Stage app />
                <div class="diagram-strip" data-waiting=move || (!app.later.here()).then_some("true")>
                    <later::Later app part=later::Part::Diagram />
                </div>
                <div class="right">
                    <later::Later app part=later::Part::Lesson />
                    <later::Later app part=later::Part::Side />
                </div>
            </main>
            <later::Later app part=later::Part::FigureMenu />
        </div>
    }
}

/// The header's controls after the sandbox's tools: the lesson picker, the shortcuts, presenter
/// mode, the controls' toggle (presenter mode keeps the side panel and the sandbox's tools behind
/// it, or C), the theme and the language.
#[component]
pub(crate) fn HeaderControls(app: AppState) -> impl IntoView {
    let pressed = |on: bool| if on { "true" } else { "false" };
    // The lessons offered, the one followed chosen.
    let lessons = move || {
        let lang = app.lang.get();
        let current = app.tutor.0.with(|t| t.lesson().map(|l| l.id.clone())).unwrap_or_default();
        let none = view! { <option value="" selected=current.is_empty()>{Ui::NoLesson.text(lang)}</option> };
        let offered = library::lessons::MENU
            .iter()
            .map(|b| view! { <option value=b.id selected=current == b.id>{lang.pick([b.title_en, b.title_zh])}</option> })
            .collect_view();
        (none, offered)
    };
    let on_lesson = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if id.is_empty() {
            lesson::leave(app);
        } else {
            lesson::open(app, id, None);
        }
    };
    let act = move |action: Action| act::on_click(app, action);
    let next_theme = move |_| {
        let next = app.theme.get_untracked().next();
        app.theme.set(next);
        app.share_url.set(None);
        store_theme(next);
    };
    let other_lang = move |_| {
        let other = match app.lang.get_untracked() {
            Lang::En => Lang::Zh,
            Lang::Zh => Lang::En,
        };
        set_lang(app, other);
    };
    view! {
        <div class="header-controls" data-testid="header-controls">
            <label class="lesson-picker">
                <span>{tr(app, Ui::Lessons)}</span>
                <select data-testid="lesson-picker" on:change=on_lesson>
                    {lessons}
                </select>
            </label>
            <act::ActButton
                app
                action=Action::Help
                class="keys"
                testid="help-open"
                label=Said::Page(Ui::KeysHint)
                title=Said::Page(Ui::KeysHint)
                icon_only=true
                glyph="?"
            />
            <act::ActButton
                app
                action=Action::Presenter
                class="presenter-toggle"
                testid="presenter-toggle"
                label=Said::Page(Ui::Presenter)
                title=Said::Page(Ui::PresenterHint)
                pressed=Signal::derive(move || app.presenter.get())
            />
            <button
                class="controls-toggle"
                data-testid="controls-toggle"
                aria-keyshortcuts="C"
                aria-expanded=move || pressed(app.show_controls.get())
                on:click=act(Action::Controls)
            >
                {tr(app, Ui::ShowControls)}
            </button>
            <button
                class="theme"
                data-testid="theme-toggle"
                title=tr(app, Ui::ThemeHint)
                data-theme=move || app.theme.get().code()
                on:click=next_theme
            >
                {move || app.theme.get().label().text(app.lang.get())}
            </button>
            <button class="lang" data-testid="lang-toggle" title=tr(app, Ui::SwitchLanguageHint) on:click=other_lang>
                {tr(app, Ui::SwitchLanguage)}
            </button>
        </div>
    }
}

/// What is wrong with the page's address, if anything: drawn by the later parts' chunk once it
/// has come, with the later parts' texts (its words are in the later parts' table, `story::i18n::later`).
/// Nothing is shown while the chunk cannot be fetched: the page plays on with its fallback.
#[component]
fn UrlWarning(app: AppState, issues: Vec<UrlIssue>) -> impl IntoView {
    (!issues.is_empty()).then(|| app.later.url_warning(app, issues))
}

/// The address's warnings (the later parts' chunk draws them: `later::Parts`).
pub(crate) fn url_warning_view(app: AppState, issues: Vec<UrlIssue>) -> AnyView {
    // What the page fell back to when it opened: the warning keeps saying so after the learner
    // picks another scenario.
    let (start_title, start_id, start_fable) =
        app.scenario.with_untracked(|s| (s.title.clone(), s.id.clone(), s.fable));
    let start = StoredValue::new((start_title, start_id));
    let default_title = move || {
        let lang = app.lang.get();
        start.with_value(|(title, id)| localized(title.as_ref(), lang, id))
    };
    // One line per issue, said again when the language changes.
    let issues = StoredValue::new(issues);
    let items = move || {
        let lang = app.lang.get();
        let default = default_title();
        issues.with_value(|all| {
            all.iter().map(|issue| view! { <li>{issue_line(issue, lang, &default, start_fable)}</li> }).collect_view()
        })
    };
    // The presenter may have moved on (another scenario, another speed): let them put it away.
    let shown = plain::Plain::new(true);
    view! {
        <aside class="url-warning" data-testid="url-warning" role="status" hidden=move || !shown.get()>
            <button class="dismiss" data-testid="url-warning-dismiss" on:click=move |_| shown.set(false)>
                {tr(app, Ui::Dismiss)}
            </button>
            <strong>{tr(app, Later::UrlWarningTitle)}</strong>
            <ul>{items}</ul>
        </aside>
    }
    .into_any()
}

/// What is wrong with a link's interventions ([`crate::scenario::link::LinkProblem`]), in `lang`.
fn link_error(error: &crate::scenario::link::LinkError, lang: Lang) -> String {
    use crate::scenario::link::{self, LinkProblem as P};
    let say = |text: Later, args: &[(&str, &str)]| fill(text.text(lang), args);
    let what = match &error.problem {
        P::TooLong { bytes } => {
            say(Later::UrlLinkTooLong, &[("bytes", &bytes.to_string()), ("max", &link::MAX_LINK_BYTES.to_string())])
        }
        P::TooMany { items } => say(
            Later::UrlLinkTooMany,
            &[("items", &items.to_string()), ("max", &link::MAX_LINK_INTERVENTIONS.to_string())],
        ),
        P::Time => say(Later::UrlLinkTime, &[]),
        P::Backwards => say(Later::UrlLinkBackwards, &[]),
        P::NodeName => say(Later::UrlLinkNodeName, &[]),
        P::Number => say(Later::UrlLinkNumber, &[]),
        P::ClockJump => say(Later::UrlLinkClockJump, &[]),
        P::MessageKind { kind } => say(Later::UrlLinkMessageKind, &[("kind", kind), ("kinds", &link::message_kinds())]),
        P::MessageFault => say(Later::UrlLinkMessageFault, &[]),
        P::Unknown => say(Later::UrlLinkUnknown, &[]),
        P::Arguments { code } => say(Later::UrlLinkArguments, &[("code", code)]),
        P::OutOfRange { field, low, high, unit, nonzero } => say(
            if *nonzero { Later::UrlLinkRangeNonZero } else { Later::UrlLinkRange },
            &[("field", field), ("low", &low.to_string()), ("high", &high.to_string()), ("unit", unit)],
        ),
        P::AfterEnd { at_ms, end_ms } => {
            say(Later::UrlLinkAfterEnd, &[("at", &crate::story::i18n::span(*at_ms)), ("end", &seconds(*end_ms))])
        }
        P::UnknownNode { node } => say(Later::UrlLinkUnknownNode, &[("node", node)]),
        P::Refused { reason } => say(Later::UrlLinkRefused, &[("reason", reason)]),
    };
    match error.item {
        0 => what,
        item => say(Later::UrlLinkItem, &[("item", &item.to_string()), ("what", &what)]),
    }
}

/// What the page says about a problem in its address, in `lang`; `default` is the title of the
/// scenario it fell back to, `start_fable` the fable it opened with.
fn issue_line(issue: &UrlIssue, lang: Lang, default: &str, start_fable: Fable) -> String {
    match issue {
        UrlIssue::UnknownScenario { value } => {
            fill(Later::UrlBadScenario.text(lang), &[("value", value), ("default", default)])
        }
        UrlIssue::BrokenScenario { value, error } => {
            fill(Later::UrlBrokenScenario.text(lang), &[("value", value), ("error", error), ("default", default)])
        }
        UrlIssue::BadLang { value } => fill(Later::UrlBadLang.text(lang), &[("value", value)]),
        UrlIssue::BadSpeed { value } => fill(Later::UrlBadSpeed.text(lang), &[("value", value)]),
        UrlIssue::SpeedRounded { value, used } => {
            fill(Later::UrlSpeedRounded.text(lang), &[("value", value), ("used", used)])
        }
        UrlIssue::BadAutoplay { value } => fill(Later::UrlBadAutoplay.text(lang), &[("value", value)]),
        UrlIssue::BadView { value } => fill(Later::UrlBadView.text(lang), &[("value", value)]),
        UrlIssue::BadLink { error } => fill(Later::UrlBadLink.text(lang), &[("error", &link_error(error, lang))]),
        UrlIssue::NewerLink { value } => fill(Later::UrlNewerLink.text(lang), &[("value", value)]),
        UrlIssue::BadVersion { value } => fill(Later::UrlBadVersion.text(lang), &[("value", value)]),
        UrlIssue::BadTime { value } => fill(Later::UrlBadTime.text(lang), &[("value", value)]),
        UrlIssue::TimeAfterEnd { value, end } => fill(
            Later::UrlTimeAfterEnd.text(lang),
            // Exact, as the address gave it (`t=999999999` is 999999.999 s, not 1000000.0 s).
            &[("at", &value.parse().map_or_else(|_| value.clone(), crate::story::i18n::span)), ("end", end)],
        ),
        UrlIssue::BadTheme { value } => fill(Later::UrlBadTheme.text(lang), &[("value", value)]),
        UrlIssue::BadPacing { value } => fill(Later::UrlBadPacing.text(lang), &[("value", value)]),
        UrlIssue::BadScenarioLink { error } => {
            fill(Later::UrlBadScenarioLink.text(lang), &[("error", error), ("default", default)])
        }
        UrlIssue::BadFlag { name, value } => fill(Later::UrlBadFlag.text(lang), &[("name", name), ("value", value)]),
        UrlIssue::BadControls { value } => fill(Later::UrlBadControls.text(lang), &[("value", value)]),
        UrlIssue::BadOrigin { value } => fill(Later::UrlBadOrigin.text(lang), &[("value", value)]),
        UrlIssue::BadLesson { value } => fill(Later::UrlBadLesson.text(lang), &[("value", value)]),
        UrlIssue::BadStep { value } => fill(Later::UrlBadStep.text(lang), &[("value", value)]),
        UrlIssue::Repeated { name, value } => fill(Later::UrlRepeated.text(lang), &[("name", name), ("value", value)]),
        UrlIssue::BadFable { value } => {
            fill(Later::UrlBadFable.text(lang), &[("value", value), ("default", start_fable.word(Word::Name, lang))])
        }
    }
}
