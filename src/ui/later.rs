//! The parts of the page the first scene does not need: the space-time diagram, the side panel,
//! the tools menu, the figure menu, the shortcut overlay, the figures' hit areas, the end-of-run
//! card, the script's notice, the compared run's scene and labels, the screen readers' narration,
//! the keyboard's shortcuts and the focus keeping. The split release build puts their code in one
//! chunk, fetched once the first scene is painted and drawn when it comes (issue 14: the first
//! scene sooner on a slow link or a slow CPU); other builds have it at once.
//!
//! One chunk rather than one per part: every split point also makes chunks of the code it shares
//! with the others, and five small modules compress worse than one. A failed fetch (a flaky
//! network) is tried again, waiting 1 s, then 2 s, up to 30 s between tries; it never takes the
//! page down (see `chunk_fn!`).

use leptos::prelude::*;

use super::lesson::PlaceFn;
use super::state::AppState;
use crate::draw::Drawing;
use crate::engine::Sim;
use crate::scenario::lesson::Element;
use crate::story::packs;
use crate::vocab::{Fable, Lang};

/// One of the parts drawn once the chunk has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The space-time diagram under the stage.
    Diagram,
    /// The side panel: log, crew, lease, technical, violations.
    Side,
    /// The "Scenario & tools" menu.
    Tools,
    /// The menu of the figure last clicked.
    FigureMenu,
    /// The `?` overlay of shortcuts.
    Help,
    /// The card at the end of the run.
    Recap,
    /// The notice that the script will act again on a node the learner acted on.
    ScriptNotice,
    /// "This run" over a scene while two runs are compared.
    ThisRunLabel,
    /// The live region that says the run's events to screen readers.
    Narrator,
    /// The scenario's scripted steps marked on the time bar.
    ScriptMarks,
    /// The transport bar's speed and pacing.
    Pace,
    /// The header's controls after the tools menu: lessons, shortcuts, presenter mode, theme,
    /// language.
    HeaderControls,
    /// The lesson's panel beside the stage.
    Lesson,
    /// The audience question over the page (presenter mode).
    Audience,
}

/// The chunk's entry points, one per [`Part`].
#[derive(Clone, Copy)]
struct Parts {
    diagram: fn(AppState) -> AnyView,
    side: fn(AppState) -> AnyView,
    tools: fn(AppState) -> AnyView,
    figure_menu: fn(AppState) -> AnyView,
    help: fn(AppState) -> AnyView,
    recap: fn(AppState) -> AnyView,
    script_notice: fn(AppState) -> AnyView,
    this_run_label: fn(AppState) -> AnyView,
    narrator: fn(AppState) -> AnyView,
    script_marks: fn(AppState) -> AnyView,
    pace: fn(AppState) -> AnyView,
    header_controls: fn(AppState) -> AnyView,
    lesson: fn(AppState) -> AnyView,
    audience: fn(AppState) -> AnyView,
    /// The compared run's scene, drawn by the fable shown.
    other_scene: fn(AppState) -> AnyView,
    /// A scene's hit areas: where its figures are, and the element that stands for the timer.
    hands: fn(AppState, PlaceFn, Element) -> AnyView,
    /// Once the chunk is here: keeping the focus, and with `true` the keyboard's shortcuts.
    install: fn(AppState, bool),
    /// The actions the later parts carry out (`act::perform_later`).
    perform: fn(AppState, crate::actions::Action),
    /// A lesson opened at a step (`lesson::open`), from the page's address.
    open_lesson: fn(AppState, String, Option<usize>),
    /// The address's warnings (`ui::url_warning_view`).
    url_warning: fn(AppState, Vec<super::url::UrlIssue>) -> AnyView,
    /// The run's `trace_hash` ([`Sim::trace_hash`]): the first scene does not show it, so the
    /// code that serializes the trace to hash it comes with the chunk.
    trace_hash: fn(&mut Sim) -> String,
    /// Every fable's drawing (`fables::DRAWINGS`): the first module holds only the default's.
    drawings: fn(Fable) -> &'static Drawing,
    /// The later parts' style sheet (`assets/later.css`) and the later part of each language's
    /// translation pack (`assets/i18n/en.later.json`, `zh.later.json`): data of the chunk, so
    /// they come with its code in one file.
    own: fn() -> Own,
}

/// What the chunk carries besides code: its style sheet and its texts.
#[derive(Clone, Copy)]
struct Own {
    sheet: &'static str,
    /// The later part of the English and the Chinese pack, as their files hold them.
    texts: [&'static str; 2],
    /// The later part of every fable's pack (its story lines and legend), English and Chinese:
    /// `(fable code, [en, zh])`.
    fables: &'static [(&'static str, [&'static str; 2])],
}

// `FABLE_LATER`: every `assets/i18n/<fable>.<lang>.later.json`, listed by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/fable_later.rs"));

/// The chunk's own data ([`Own`]), compiled into it.
fn own() -> Own {
    Own {
        sheet: include_str!("../../assets/later.css"),
        texts: [include_str!("../../assets/i18n/en.later.json"), include_str!("../../assets/i18n/zh.later.json")],
        fables: FABLE_LATER,
    }
}

impl Parts {
    fn view(self, part: Part) -> fn(AppState) -> AnyView {
        match part {
            Part::Diagram => self.diagram,
            Part::Side => self.side,
            Part::Tools => self.tools,
            Part::FigureMenu => self.figure_menu,
            Part::Help => self.help,
            Part::Recap => self.recap,
            Part::ScriptNotice => self.script_notice,
            Part::ThisRunLabel => self.this_run_label,
            Part::Narrator => self.narrator,
            Part::ScriptMarks => self.script_marks,
            Part::Pace => self.pace,
            Part::HeaderControls => self.header_controls,
            Part::Lesson => self.lesson,
            Part::Audience => self.audience,
        }
    }
}

const PARTS: Parts = Parts {
    diagram: |app| view! { <super::diagram::SpaceTime app /> }.into_any(),
    side: |app| view! { <super::side::Side app /> }.into_any(),
    tools: |app| view! { <super::controls::Tools app /> }.into_any(),
    figure_menu: |app| view! { <super::hands::FigureMenu app /> }.into_any(),
    help: |app| view! { <super::keys::Help app /> }.into_any(),
    recap: |app| view! { <super::stage::Recap app /> }.into_any(),
    script_notice: |app| view! { <super::hands::ScriptNoticeBar app /> }.into_any(),
    this_run_label: |app| view! { <super::compare::ThisRunLabel app /> }.into_any(),
    narrator: |app| view! { <super::log::Narrator app /> }.into_any(),
    script_marks: |app| view! { <super::controls::ScriptMarks app /> }.into_any(),
    pace: |app| view! { <super::controls::Pace app /> }.into_any(),
    header_controls: |app| view! { <super::HeaderControls app /> }.into_any(),
    lesson: |app| view! { <super::lesson::LessonPanel app /> }.into_any(),
    audience: |app| view! { <super::lesson::AudienceLayer app /> }.into_any(),
    other_scene: |app| view! { <super::compare::OtherScene app /> }.into_any(),
    hands: |app, place, timer| super::hands::hands(app, place, timer).into_any(),
    url_warning: super::url_warning_view,
    perform: super::act::perform_later,
    open_lesson: super::lesson::open,
    trace_hash: Sim::fold_trace_hash,
    drawings: Fable::drawing,
    own,
    install: |app, keys| {
        app.refresh_trace_hash();
        super::lesson::keep_focus(app);
        super::focus::listen();
        app.address_follows_settings();
        if keys {
            super::keys::listen(app);
        }
    },
};

chunk_fn! {
    in later_parts;
    /// The chunk: its entry points.
    fn later_parts() -> Parts = parts;
}

fn parts() -> Parts {
    PARTS
}

/// Longest wait between two tries to fetch a chunk, in ms.
const MOST_WAIT_MS: u64 = 30_000;

/// Fetches a chunk through its entry `load` into `into`, trying again after `wait_ms` (doubled
/// each time, at most [`MOST_WAIT_MS`]) while it fails; `ready` runs with it once it is there,
/// before it is drawn.
fn fetch<T, F, R>(load: fn() -> F, into: RwSignal<Option<T>>, wait_ms: u64, ready: R)
where
    T: Copy + Send + Sync + 'static,
    F: std::future::Future<Output = Result<T, leptos::wasm_split::SplitLoaderError>> + 'static,
    R: Fn(T) + Copy + 'static,
{
    leptos::task::spawn_local(async move {
        match load().await {
            Ok(got) => {
                ready(got);
                into.set(Some(got));
            }
            Err(_) => set_timeout(
                move || fetch(load, into, (wait_ms * 2).min(MOST_WAIT_MS), ready),
                std::time::Duration::from_millis(wait_ms),
            ),
        }
    });
}

/// For tests and tools: the whole page is there (`<html data-later="ready">`).
fn page_ready() {
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("data-later", "ready");
    }
}

/// Something to do with the chunk's entry points once it has come.
type WaitingAct = Box<dyn FnOnce(Parts)>;

/// The chunk's entry points once it has come (`None` until then): one fetch for the whole page,
/// kept in [`AppState::later`] and read by every [`Later`] placeholder. Its style sheet and its
/// texts are put into the page before its parts are drawn.
#[derive(Clone, Copy)]
pub struct Coming {
    parts: RwSignal<Option<Parts>>,
    asked: StoredValue<bool>,
    /// What waits for the chunk ([`Coming::when_here`]), oldest first.
    waiting_acts: StoredValue<Vec<WaitingAct>, LocalStorage>,
}

impl Coming {
    /// Nothing yet (see [`Coming::after_first_paint`]).
    pub fn new() -> Self {
        Self {
            parts: RwSignal::new(None),
            asked: StoredValue::new(false),
            waiting_acts: StoredValue::new_local(Vec::new()),
        }
    }

    /// Asks for the chunk once the first scene has been painted (a task after the next animation
    /// frame), so that it does not compete with the scene for the network and the CPU. Once it is
    /// here the focus is kept, with `keys` the keyboard's shortcuts are listened to, and the page
    /// says it is whole (`<html data-later="ready">`).
    pub fn after_first_paint(self, app: AppState, keys: bool) {
        // In an effect: it runs once the page is on the screen (never for a picture of its first
        // frame, `ui::first_frame`).
        super::effect(move || {
            request_animation_frame(move || set_timeout(move || self.ask(app), std::time::Duration::ZERO))
        });
        Effect::new(move |done: Option<bool>| {
            if done == Some(true) {
                return true;
            }
            let Some(parts) = self.parts.get() else { return false };
            (parts.install)(app, keys);
            page_ready();
            true
        });
    }

    /// Whether the later parts are here (tracks it): what comes in a chunk of its own and is
    /// styled by them (the lessons, the lantern) waits for them too. Asks for them if nobody has.
    pub fn styled(self, app: AppState) -> bool {
        self.ask(app);
        self.here()
    }

    /// Whether the chunk is here (tracks it), without asking for it.
    pub fn here(self) -> bool {
        self.parts.with(Option::is_some)
    }

    /// Fetches the chunk, once, trying again while it cannot be fetched (1 s, 2 s, … up to
    /// [`MOST_WAIT_MS`] between tries). When it comes its style sheet goes into the page and its
    /// texts into the packs (`story::packs`), then what waited for it is done, then its parts
    /// are drawn.
    fn ask(self, app: AppState) {
        if self.asked.get_value() {
            return;
        }
        self.asked.set_value(true);
        let acts = self.waiting_acts;
        fetch(later_parts, self.parts, 1_000, move |parts| {
            install_own((parts.own)(), app);
            for act in acts.try_update_value(std::mem::take).unwrap_or_default() {
                act(parts);
            }
        });
    }

    /// Carries out `action` with the later parts (`act::perform_later`), at once when they are
    /// here, else once they have come.
    pub fn perform(self, app: AppState, action: crate::actions::Action) {
        self.when_here(Box::new(move |parts| (parts.perform)(app, action)));
    }

    /// Opens lesson `id` at `step` (from the page's address) once the later parts are here: its
    /// panel is one of them.
    pub fn open_lesson(self, app: AppState, id: String, step: Option<usize>) {
        self.when_here(Box::new(move |parts| (parts.open_lesson)(app, id, step)));
    }

    /// Runs `f` with the chunk's entry points, now if they are here, else once it has come (the
    /// page asks for it after the first paint, [`Coming::after_first_paint`]).
    fn when_here(self, f: Box<dyn FnOnce(Parts)>) {
        match self.parts.get_untracked() {
            Some(parts) => f(parts),
            None => self.waiting_acts.update_value(|w| w.push(f)),
        }
    }

    /// The run's `trace_hash`, once the chunk that computes it is here (`None` before).
    pub fn trace_hash(self, sim: &mut Sim) -> Option<String> {
        self.parts.with_untracked(|p| p.map(|p| (p.trace_hash)(sim)))
    }

    /// The chunk's entry points once they are here (tracks it).
    fn ready(self) -> Option<Parts> {
        self.parts.get()
    }

    /// `fable`'s drawing, once the chunk is here (tracks it).
    pub fn drawing(self, fable: Fable) -> Option<&'static Drawing> {
        self.ready().map(|p| (p.drawings)(fable))
    }

    /// The address's warnings `issues`, once the chunk is here (tracks it).
    pub fn url_warning(self, app: AppState, issues: Vec<super::url::UrlIssue>) -> impl IntoView {
        let issues = StoredValue::new(issues);
        move || self.ready().map(|p| (p.url_warning)(app, issues.get_value()))
    }

    /// The compared run's scene, once the chunk is here (tracks it).
    pub fn other_scene(self, app: AppState) -> impl IntoView {
        move || self.ready().map(|p| (p.other_scene)(app))
    }

    /// A scene's hit areas (see `hands::hands`), once the chunk is here (tracks it).
    pub fn hands(self, app: AppState, place: PlaceFn, timer: Element) -> impl IntoView {
        move || self.ready().map(|p| (p.hands)(app, place, timer.clone()))
    }
}

impl Default for Coming {
    fn default() -> Self {
        Self::new()
    }
}

/// Puts the chunk's style sheet into the page and its texts into the packs. A later text read
/// before they came was drawn empty: a text of the later parts' table (`story::i18n::later`)
/// shown by the first screen, which the browser tests' check of the console catches; the page
/// then says its texts again.
fn install_own(own: Own, app: AppState) {
    let doc = document();
    if let (Ok(style), Some(head)) = (doc.create_element("style"), doc.head()) {
        let _ = style.set_attribute("data-sheet", "later");
        style.set_text_content(Some(own.sheet));
        // Before the page's own sheet, as in the one sheet they were cut from: where a rule of
        // both applies with the same weight, style.css's (its layouts for a phone, a projector, a
        // lesson) still wins.
        let first = doc.query_selector("link[rel=stylesheet]").ok().flatten();
        let _ = head.insert_before(&style, first.as_ref().map(|l| l.as_ref()));
    }
    // Each language's copy of a pack's later part read and kept by `keep`; what could not be,
    // said on the console as `whose` texts.
    let install = |whose: &str, jsons: [&str; 2], keep: &dyn Fn(Lang, Vec<String>) -> Result<(), String>| {
        for (lang, json) in [Lang::En, Lang::Zh].into_iter().zip(jsons) {
            if let Err(e) = super::catalog::pack_texts(json).and_then(|texts| keep(lang, texts)) {
                leptos::logging::error!("LeaseLab: {whose} {} texts: {e}", lang.code());
            }
        }
    };
    install("the later parts'", own.texts, &|lang, texts| packs::install(lang, packs::Part::Later, texts));
    for (code, texts) in own.fables {
        let Some(fable) = Fable::from_code(code) else { continue };
        let whose = format!("the {code} telling's later");
        install(&whose, *texts, &|lang, texts| packs::install_fable(fable, lang, packs::Part::Later, texts));
    }
    // A scene opened by its address may have told a line of a telling's later part before it
    // came: told again now.
    let fable_missed = packs::take_fable_missed();
    let missed = packs::take_missed();
    if missed.is_empty() && fable_missed {
        app.lang.notify();
    }
    if !missed.is_empty() {
        let places: Vec<String> = missed.iter().map(usize::to_string).collect();
        leptos::logging::error!(
            "LeaseLab: the pack's later texts at {} were drawn before they came",
            places.join(", ")
        );
        app.lang.notify();
    }
}

/// `part`, drawn once the page's chunk has come (nothing before).
#[component]
pub fn Later(app: AppState, part: Part) -> impl IntoView {
    move || app.later.ready().map(|p| p.view(part)(app))
}
