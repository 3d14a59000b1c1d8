//! LeaseLab: a deterministic lease / fencing-token engine, the public scenario and report
//! formats, the story layer that tells each fable, and the browser app (`ui`: the app on wasm32;
//! natively, with the `first-frame` feature, its views render its first frame).
//!
//! Data flows one way: [`scenario`] → [`engine`] → snapshots and trace events → [`story`] → `ui`;
//! [`vocab`] holds the words they share (the fable, the language). Each fable is a module of
//! [`fables`], with its words and its drawing ([`draw`]: plain Rust, native and in the page).

// The page's views rendered to HTML natively (`ui::first_frame`) nest deeper than the default
// allows (Leptos asks for this for server rendering).
#![recursion_limit = "256"]

pub mod actions;
pub mod build_facts;
pub mod draw;
pub mod engine;
pub mod fables;
pub mod scenario;
pub mod story;
pub mod vocab;

#[cfg(any(all(target_arch = "wasm32", feature = "page"), feature = "first-frame"))]
pub mod ui;
