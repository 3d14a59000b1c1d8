//! Signals of small plain values (the page's flags, its speed and clock readings, its language,
//! theme, technical view, side tab and chosen fable), each kept as a 64-bit word in a
//! `RwSignal<u64>`.
//!
//! Every `RwSignal<T>` of a type of its own brings its own copy of Leptos's signal code into the
//! page (reading, writing, tracking, dropping: about 1 to 3 KB of wasm per type, issue 14). A
//! [`Plain<T>`] is one `RwSignal<u64>` under a type that converts on the way in and out, so all
//! of them share that one copy. Each is still a signal of its own: reading one tracks only it,
//! and setting one notifies only its readers, exactly as the `RwSignal` it replaces (`set` and
//! `update` always notify, as Leptos's do).

use std::marker::PhantomData;

use leptos::prelude::*;

use crate::story::technical::View;
use crate::story::theme::Theme;
use crate::vocab::{Fable, Lang};

use super::state::SideTab;

/// A value that a [`Plain`] signal can hold: written to and read back from a 64-bit word,
/// losslessly (`from_bits(to_bits(v)) == v`; a word that no value writes reads as the default).
pub trait Bits: Copy + 'static {
    /// The value as a word.
    fn to_bits(self) -> u64;
    /// The value a word written by [`Bits::to_bits`] holds.
    fn from_bits(bits: u64) -> Self;
}

impl Bits for bool {
    fn to_bits(self) -> u64 {
        u64::from(self)
    }
    fn from_bits(bits: u64) -> Self {
        bits != 0
    }
}

impl Bits for u64 {
    fn to_bits(self) -> u64 {
        self
    }
    fn from_bits(bits: u64) -> Self {
        bits
    }
}

impl Bits for i32 {
    fn to_bits(self) -> u64 {
        // Sign-extended, then read as the same 64 bits.
        i64::from(self) as u64
    }
    fn from_bits(bits: u64) -> Self {
        i32::try_from(bits as i64).unwrap_or_default()
    }
}

impl Bits for f64 {
    fn to_bits(self) -> u64 {
        f64::to_bits(self)
    }
    fn from_bits(bits: u64) -> Self {
        f64::from_bits(bits)
    }
}

/// An enum with a list of all its values: its word is its place in the list.
macro_rules! bits_by_place {
    ($ty:ty, $all:expr) => {
        impl Bits for $ty {
            fn to_bits(self) -> u64 {
                $all.iter().position(|v| *v == self).unwrap_or_default() as u64
            }
            fn from_bits(bits: u64) -> Self {
                usize::try_from(bits).ok().and_then(|k| $all.get(k).copied()).unwrap_or_default()
            }
        }
    };
}

bits_by_place!(Lang, [Lang::En, Lang::Zh]);
bits_by_place!(Theme, Theme::ALL);
bits_by_place!(View, View::ALL);
bits_by_place!(SideTab, SideTab::ALL);
/// No fable chosen is 0; fable `i` of `fables::ALL` is `i + 1`.
impl Bits for Option<Fable> {
    fn to_bits(self) -> u64 {
        self.map_or(0, |f| f.index() as u64 + 1)
    }
    fn from_bits(bits: u64) -> Self {
        usize::try_from(bits).ok().and_then(|b| b.checked_sub(1)).and_then(Fable::at)
    }
}

/// A new word signal: one function for every [`Plain::new`], rather than Leptos's signal
/// constructor written out again at each of them (the page makes about twenty at its start).
#[inline(never)]
fn new_word(bits: u64) -> RwSignal<u64> {
    RwSignal::new(bits)
}

/// A signal of a small plain value `T`, kept as a word (see the module docs). `Copy`, like the
/// `RwSignal` it stands for; its methods have the same names and meaning.
pub struct Plain<T> {
    word: RwSignal<u64>,
    value: PhantomData<fn() -> T>,
}

impl<T> Clone for Plain<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Plain<T> {}

impl<T: Bits> Plain<T> {
    /// A signal holding `value`, owned by the current reactive owner (as `RwSignal::new`).
    pub fn new(value: T) -> Self {
        Self { word: new_word(value.to_bits()), value: PhantomData }
    }

    /// The value, tracked by the running effect or memo.
    pub fn get(&self) -> T {
        T::from_bits(self.word.get())
    }

    /// The value, untracked.
    pub fn get_untracked(&self) -> T {
        T::from_bits(self.word.get_untracked())
    }

    /// `f` on the value, tracked.
    pub fn with<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        f(&self.get())
    }

    /// Tracks the signal without reading it.
    pub fn track(&self) {
        self.word.track();
    }

    /// Notifies its readers without changing the value (as `RwSignal::notify`).
    pub fn notify(&self) {
        self.word.notify();
    }

    /// Sets the value and notifies its readers.
    pub fn set(&self, value: T) {
        self.word.set(value.to_bits());
    }

    /// Changes the value with `f` and notifies its readers.
    pub fn update(&self, f: impl FnOnce(&mut T)) {
        let mut value = self.get_untracked();
        f(&mut value);
        self.set(value);
    }
}
