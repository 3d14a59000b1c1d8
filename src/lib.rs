//! LeaseLab: a deterministic lease / fencing-token engine, the public scenario and report
//! formats, the story layer that tells each fable, and (on wasm32) the browser app.
//!
//! Data flows one way: [`scenario`] → [`engine`] → snapshots and trace events → [`story`] → `ui`;
//! [`vocab`] holds the words they share (the fable, the language). Each fable is a module of
//! [`fables`], with its words and its drawing ([`draw`]: plain Rust, native and in the page).

pub mod actions;
pub mod build_facts;
pub mod draw;
pub mod engine;
pub mod fables;
pub mod scenario;
pub mod story;
pub mod vocab;

#[cfg(target_arch = "wasm32")]
pub mod ui;
