//! The Leptos browser app (wasm32 only).

use leptos::prelude::*;

/// Mounts the app on `<body>`.
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(|| view! { <main data-testid="scene-harbor">"LeaseLab"</main> });
}
