//! The story layer: maps engine state and trace events onto each fable's characters and words,
//! in English and Simplified Chinese. Pure Rust, no UI types: the components in `ui` draw what
//! this layer says.
//!
//! - [`i18n`]: the translation table. Every user-visible string lives here in both languages.
//! - [`cast`]: who is who (display names of nodes, per language and fable).
//! - [`narrate`]: one log line per trace event, in story words (each fable's, from its module in
//!   [`crate::fables`]) and technical words.
//! - [`picture`]: the one fable-neutral picture of the run (the record, the timer, the actors,
//!   what is in flight, the gate, the outcome), built once per snapshot; each fable in
//!   [`crate::fables`] tells and draws it.
//! - [`markup`]: markup built as text, with one escaping rule enforced by a type.
//! - [`technical`]: the lease as Kubernetes, Redis and etcd would show it; the resource's ledger.
//! - [`violations`]: the oracle's findings, one sentence each, and what they involve.
//! - [`theme`]: the page's colour theme (light, dark, the system's).
//! - [`tour`]: the lesson player's state machine (which step, what phase, what was answered,
//!   when to move on), driven by the page's inputs, returning the effects it must carry out.
//! - [`pacing`]: story time: how far the clock moves in a frame, so messages are seen travelling.

pub mod cast;
pub mod diagram;
pub mod i18n;
pub mod markup;
pub mod narrate;
pub mod pacing;
pub mod packs;
pub mod picture;
pub mod technical;
pub mod theme;
pub mod tour;
pub mod violations;

pub use cast::Cast;
pub use i18n::fill;
pub use narrate::{narrate, Narration, Tone};
