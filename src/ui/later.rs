//! The parts of the page the first scene does not need: the space-time diagram, the side panel,
//! the tools menu, the figure menu and the shortcut overlay; and the lantern fable's drawing
//! ([`Lantern`]), fetched the first time the lantern is shown. The split release build puts their
//! code in one chunk, fetched once the first scene is painted and drawn when it comes (issue 14: the
//! first scene sooner on a slow link or a slow CPU); other builds have it at once.
//!
//! One chunk rather than one per part: every split point also makes chunks of the code it shares
//! with the others, and five small modules compress worse than one. A failed fetch (a flaky
//! network) is tried again, waiting 1 s, then 2 s, up to 30 s between tries; it never takes the
//! page down (see `chunk_fn!`).

use leptos::prelude::*;

use super::draw::Look;
use super::state::AppState;
use crate::story::cast::Cast;
use crate::story::markup::Markup;
use crate::story::picture::Picture;
use crate::vocab::Fable;

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
}

/// The chunk's entry points, one per [`Part`].
#[derive(Clone, Copy)]
struct Parts {
    diagram: fn(AppState) -> AnyView,
    side: fn(AppState) -> AnyView,
    tools: fn(AppState) -> AnyView,
    figure_menu: fn(AppState) -> AnyView,
    help: fn(AppState) -> AnyView,
}

impl Parts {
    fn view(self, part: Part) -> fn(AppState) -> AnyView {
        match part {
            Part::Diagram => self.diagram,
            Part::Side => self.side,
            Part::Tools => self.tools,
            Part::FigureMenu => self.figure_menu,
            Part::Help => self.help,
        }
    }
}

const PARTS: Parts = Parts {
    diagram: |app| view! { <super::diagram::SpaceTime app /> }.into_any(),
    side: |app| view! { <super::side::Side app /> }.into_any(),
    tools: |app| view! { <super::controls::Tools app /> }.into_any(),
    figure_menu: |app| view! { <super::hands::FigureMenu app /> }.into_any(),
    help: |app| view! { <super::keys::Help app /> }.into_any(),
};

chunk_fn! {
    /// The chunk: its entry points.
    fn later_parts() -> Parts = parts;
}

fn parts() -> Parts {
    PARTS
}

/// Longest wait between two tries to fetch a chunk, in ms.
const MOST_WAIT_MS: u64 = 30_000;

/// Fetches a chunk through its entry `load` into `into`, trying again after `wait_ms` (doubled
/// each time, at most [`MOST_WAIT_MS`]) while it fails; `ready` runs once it is there.
fn fetch<T, F>(load: fn() -> F, into: RwSignal<Option<T>>, wait_ms: u64, ready: fn())
where
    T: Send + Sync + 'static,
    F: std::future::Future<Output = Result<T, leptos::wasm_split::SplitLoaderError>> + 'static,
{
    leptos::task::spawn_local(async move {
        match load().await {
            Ok(got) => {
                into.set(Some(got));
                ready();
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

/// The chunk's entry points once it has come (`None` until then): one fetch for the whole page,
/// which every [`Later`] placeholder reads.
#[derive(Clone, Copy)]
pub struct Coming(RwSignal<Option<Parts>>);

impl Coming {
    /// Asks for the chunk once the first scene has been painted (a task after the next
    /// animation frame), so that it does not compete with the scene for the network and the CPU.
    pub fn after_first_paint() -> Self {
        let parts = RwSignal::new(None::<Parts>);
        request_animation_frame(move || {
            set_timeout(move || fetch(later_parts, parts, 1_000, page_ready), std::time::Duration::ZERO)
        });
        Self(parts)
    }
}

/// `part`, drawn once the chunk `coming` waits for has come (nothing before).
#[component]
pub fn Later(app: AppState, coming: Coming, part: Part) -> impl IntoView {
    move || coming.0.get().map(|p| p.view(part)(app))
}

/// The lantern fable's drawing, in a chunk of its own fetched the first time the lantern is shown
/// (a page opens on the harbor unless its address asks for the lantern): its scene, and the
/// whole scene as markup for the compared run's picture.
#[derive(Clone, Copy)]
struct LanternArt {
    scene: fn(AppState) -> AnyView,
    whole: fn(&Picture, &Cast, Look) -> Markup,
}

chunk_fn! {
    /// The lantern's chunk: its entry points.
    fn lantern_art() -> LanternArt = lantern_entries;
}

fn lantern_entries() -> LanternArt {
    LanternArt { scene: |app| view! { <super::lantern::LanternScene app /> }.into_any(), whole: super::lantern::whole }
}

/// The lantern's drawing once its chunk has come (`None` until then).
#[derive(Clone, Copy)]
pub struct Lantern(RwSignal<Option<LanternArt>>);

impl Lantern {
    /// Asks for the lantern's chunk the first time `app` shows the lantern fable.
    pub fn when_shown(app: AppState) -> Self {
        let art = RwSignal::new(None::<LanternArt>);
        let asked = StoredValue::new(false);
        Effect::new(move |_| {
            if app.fable.get() == Fable::Lantern && !asked.get_value() {
                asked.set_value(true);
                fetch(lantern_art, art, 1_000, || {});
            }
        });
        Self(art)
    }

    /// The lantern's scene for `app`, once the chunk is here (tracks it).
    pub fn scene(self, app: AppState) -> Option<AnyView> {
        self.0.get().map(|a| (a.scene)(app))
    }

    /// The whole lantern scene drawn from `p`, once the chunk is here (tracks it).
    pub fn whole(self, p: &Picture, cast: &Cast, look: Look) -> Option<Markup> {
        self.0.get().map(|a| (a.whole)(p, cast, look))
    }
}
