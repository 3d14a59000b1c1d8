//! The parts of the page the first scene does not need: the space-time diagram, the side panel,
//! the tools menu, the figure menu and the shortcut overlay. The split release build puts their
//! code in one chunk, fetched once the first scene is painted and drawn when it comes (issue 14: the
//! first scene sooner on a slow link or a slow CPU); other builds have it at once.
//!
//! One chunk rather than one per part: every split point also makes chunks of the code it shares
//! with the others, and five small modules compress worse than one. A failed fetch (a flaky
//! network) is tried again, waiting 1 s, then 2 s, up to 30 s between tries; it never takes the
//! page down (see `chunk_fn!`).

use leptos::prelude::*;

use super::state::AppState;

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

/// Longest wait between two tries to fetch the chunk, in ms.
const MOST_WAIT_MS: u64 = 30_000;

fn fetch(into: RwSignal<Option<Parts>>, wait_ms: u64) {
    leptos::task::spawn_local(async move {
        match later_parts().await {
            Ok(parts) => {
                into.set(Some(parts));
                // For tests and tools: the whole page is there (`<html data-later="ready">`).
                if let Some(root) = document().document_element() {
                    let _ = root.set_attribute("data-later", "ready");
                }
            }
            Err(_) => set_timeout(
                move || fetch(into, (wait_ms * 2).min(MOST_WAIT_MS)),
                std::time::Duration::from_millis(wait_ms),
            ),
        }
    });
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
        request_animation_frame(move || set_timeout(move || fetch(parts, 1_000), std::time::Duration::ZERO));
        Self(parts)
    }
}

/// `part`, drawn once the chunk `coming` waits for has come (nothing before).
#[component]
pub fn Later(app: AppState, coming: Coming, part: Part) -> impl IntoView {
    move || coming.0.get().map(|p| p.view(part)(app))
}
