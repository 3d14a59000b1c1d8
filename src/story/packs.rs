//! Translation packs: every text of the translation tables ([`Ui`], [`Line`]'s story and
//! technical lines, the lantern's stories) of one language, as JSON arrays of strings in a fixed
//! order, in two parts: the first (`assets/i18n/en.json`, `zh.json`) holds what the first scene
//! needs, the page's own texts and the harbor's story lines; the later part (`en.later.json`,
//! `zh.later.json`) what only the parts of the page that come after the first scene show: the
//! page's texts marked `#[later]` in the table (the side panel, the diagram, the lessons, the
//! figures' menu, …), the technical lines and the lantern's stories (the log, the lantern:
//! `ui::later`), and the built-in scenarios' titles, which only the scenario menu shows.
//!
//! Native builds (the runner, the tests) compile the tables in. The page does not: it loads the
//! first part of its language before it is drawn, the later part with the page's later parts,
//! and the other language's when the learner switches, so it carries neither language's texts
//! (issue 4's page budget; issue 14's first load). The packs are generated from the tables
//! (`leaselab packs`) and committed; a test checks that they are up to date. Their order (over
//! both parts): the first part's [`Ui`] texts in declaration order, every [`Line`]'s story; then
//! the later part's [`Ui`] texts in declaration order, every [`Line`]'s technical text, every
//! [`Line`]'s lantern story, every built-in scenario's title in menu order.

use super::i18n::Ui;
use super::narrate::Line;
use crate::scenario::library;
use crate::vocab::Lang;

/// How many texts the two parts of a pack hold together.
pub const COUNT: usize = Ui::ALL.len() + 3 * Line::ALL.len() + library::MENU.len();

/// [`Ui::LATER`] as a bit set, bit `i % 64` of word `i / 64` for the variant declared `i`-th:
/// where a text is in the pack is then counted in a few words ([`ui_index`]) rather than looked
/// up in a table of every variant's place (a kilobyte in the page).
const UI_LATER_BITS: [u64; Ui::ALL.len().div_ceil(64)] = {
    let mut bits = [0u64; Ui::ALL.len().div_ceil(64)];
    let mut i = 0;
    while i < Ui::LATER.len() {
        if Ui::LATER[i] {
            bits[i / 64] |= 1 << (i % 64);
        }
        i += 1;
    }
    bits
};

/// [`Ui::LANTERN`] as a bit set, as [`UI_LATER_BITS`]: the lantern's words, which the page may
/// read before the later part has come without it being a mistake of the marks.
const UI_LANTERN_BITS: [u64; Ui::ALL.len().div_ceil(64)] = {
    let mut bits = [0u64; Ui::ALL.len().div_ceil(64)];
    let mut i = 0;
    while i < Ui::LANTERN.len() {
        // A lantern word is in the later part: marked `#[lantern]`, it is `LATER` too.
        assert!(Ui::LATER[i] || !Ui::LANTERN[i]);
        if Ui::LANTERN[i] {
            bits[i / 64] |= 1 << (i % 64);
        }
        i += 1;
    }
    bits
};

/// Whether `ui` is one of the lantern's words ([`Ui::LANTERN`]).
pub fn is_lantern(ui: Ui) -> bool {
    let i = ui as usize;
    UI_LANTERN_BITS.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
}

/// How many [`Ui`] texts are in the later part (marked `#[later]` or `#[lantern]`: [`Ui::LATER`]).
const UI_LATER: usize = {
    let mut n = 0;
    let mut w = 0;
    while w < UI_LATER_BITS.len() {
        n += UI_LATER_BITS[w].count_ones() as usize;
        w += 1;
    }
    n
};

/// How many [`Ui`] texts are in the first part.
const UI_FIRST: usize = Ui::ALL.len() - UI_LATER;

/// How many of them are in the first part (the rest are in the later one).
pub const FIRST: usize = UI_FIRST + Line::ALL.len();

/// A part of a pack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// What the first scene needs: loaded before the page is drawn.
    First,
    /// The later parts' own texts, the technical lines, the lantern's stories and the scenarios'
    /// titles: loaded with the page's later parts.
    Later,
}

impl Part {
    /// Both parts, in pack order.
    pub const ALL: [Part; 2] = [Part::First, Part::Later];

    /// Where the part's texts are in the pack.
    pub fn range(self) -> std::ops::Range<usize> {
        match self {
            Part::First => 0..FIRST,
            Part::Later => FIRST..COUNT,
        }
    }

    /// The part text `i` of a pack is in.
    pub fn of(i: usize) -> Part {
        if i < FIRST {
            Part::First
        } else {
            Part::Later
        }
    }
}

/// Where [`Ui`] `ui`'s text is in a pack: the first part's texts in declaration order from 0,
/// the later part's in declaration order from [`FIRST`].
pub fn ui_index(ui: Ui) -> usize {
    let i = ui as usize;
    let (word, bit) = (i / 64, i % 64);
    let whole: u32 = UI_LATER_BITS.iter().take(word).map(|w| w.count_ones()).sum();
    let word = UI_LATER_BITS.get(word).copied().unwrap_or(0);
    let later_before = (whole + (word & ((1 << bit) - 1)).count_ones()) as usize;
    if word & (1 << bit) != 0 {
        FIRST + later_before
    } else {
        i - later_before
    }
}

/// Where [`Line`] `line`'s story is in a pack.
pub fn story_index(line: Line) -> usize {
    UI_FIRST + line as usize
}

/// Where [`Line`] `line`'s technical text is in a pack.
pub fn technical_index(line: Line) -> usize {
    FIRST + UI_LATER + line as usize
}

/// Where [`Line`] `line`'s lantern story is in a pack.
pub fn lantern_index(line: Line) -> usize {
    FIRST + UI_LATER + Line::ALL.len() + line as usize
}

/// Where the title of the `i`-th built-in scenario of the menu ([`library::MENU`]) is in a pack.
pub fn scenario_title_index(i: usize) -> usize {
    FIRST + UI_LATER + 2 * Line::ALL.len() + i
}

// `PACK_STAMP`: a hash of all the packs' parts, generated by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/pack_stamp.rs"));

/// The file name of `lang`'s pack part under `i18n/`: `en.json`, `zh.later.json`, …
pub fn file_name(lang: Lang, part: Part) -> String {
    match part {
        Part::First => format!("{}.json", lang.code()),
        Part::Later => format!("{}.later.json", lang.code()),
    }
}

/// The texts of `lang`'s pack, both parts, in pack order.
#[cfg(not(target_arch = "wasm32"))]
pub fn texts(lang: Lang) -> Vec<&'static str> {
    let mut out = Vec::with_capacity(COUNT);
    out.extend(Ui::ALL.iter().filter(|u| !Ui::LATER[**u as usize]).map(|u| u.text(lang)));
    out.extend(Line::ALL.iter().map(|l| l.text(lang)[0]));
    out.extend(Ui::ALL.iter().filter(|u| Ui::LATER[**u as usize]).map(|u| u.text(lang)));
    out.extend(Line::ALL.iter().map(|l| l.text(lang)[1]));
    out.extend(Line::ALL.iter().map(|l| l.lantern_story(lang)));
    out.extend(library::MENU.iter().map(|b| lang.pick([b.title_en, b.title_zh])));
    out
}

/// Part `part` of `lang`'s pack as its file holds it: a JSON array, one text per line.
#[cfg(not(target_arch = "wasm32"))]
pub fn file(lang: Lang, part: Part) -> String {
    let texts = texts(lang);
    let lines: Vec<String> = texts[part.range()].iter().map(|t| serde_json::Value::from(*t).to_string()).collect();
    format!("[\n{}\n]\n", lines.join(",\n"))
}

#[cfg(target_arch = "wasm32")]
mod loaded {
    use std::cell::{Cell, RefCell};

    use super::{Part, Ui};
    use crate::vocab::Lang;

    type Texts = Cell<Option<&'static [&'static str]>>;

    thread_local! {
        /// The parts loaded so far, English and Chinese, first and later, for the rest of the visit.
        static PACKS: [[Texts; 2]; 2] = const { [[Cell::new(None), Cell::new(None)], [Cell::new(None), Cell::new(None)]] };

        /// The page's own later texts (`#[later]` in the table, not the lantern's words) read
        /// before any later part was here: drawn empty, a mistake of the table's marks (see
        /// [`take_missed`]).
        static MISSED: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
    }

    /// The places of the later texts of the page's own ([`super::Ui::LATER`]) that were read
    /// before either language's later part was here, since the last call. The page reports them
    /// as an error once the later part has come and draws its texts again (`ui::later`).
    pub fn take_missed() -> Vec<usize> {
        MISSED.with(|m| std::mem::take(&mut *m.borrow_mut()))
    }

    fn slot(lang: Lang) -> usize {
        match lang {
            Lang::En => 0,
            Lang::Zh => 1,
        }
    }

    /// Whether part `part` of `lang`'s pack is loaded.
    pub fn has(lang: Lang, part: Part) -> bool {
        PACKS.with(|p| p[slot(lang)][part as usize].get().is_some())
    }

    /// Keeps part `part` of `lang`'s pack: the texts of its file, in file order (the page reads
    /// the JSON with the browser's `JSON.parse`, see `ui::catalog::load_pack`).
    ///
    /// # Errors
    /// Not as many texts as the part holds (a pack of another version of the page).
    pub fn install(lang: Lang, part: Part, texts: Vec<String>) -> Result<(), String> {
        let wanted = part.range().len();
        if texts.len() != wanted {
            return Err(format!("{} texts instead of {wanted}", texts.len()));
        }
        let texts: Vec<&'static str> = texts.into_iter().map(|t| &*Box::leak(t.into_boxed_str())).collect();
        let texts: &'static [&'static str] = Box::leak(texts.into_boxed_slice());
        PACKS.with(|p| p[slot(lang)][part as usize].set(Some(texts)));
        Ok(())
    }

    /// Text `i` of `lang`'s pack, or of the other language's while `lang`'s part is not loaded;
    /// `None` while neither language's part holding it is.
    fn lookup(lang: Lang, i: usize) -> Option<&'static str> {
        let part = Part::of(i);
        let at = i - part.range().start;
        PACKS.with(|p| {
            let first = p[slot(lang)][part as usize].get();
            let other = p[1 - slot(lang)][part as usize].get();
            first.or(other).map(|t| t.get(at).copied().unwrap_or(""))
        })
    }

    /// Text `i` of `lang`'s pack; of the other language's while `lang`'s part is not loaded; else
    /// empty (a later part that has not come yet).
    pub fn get(lang: Lang, i: usize) -> &'static str {
        lookup(lang, i).unwrap_or("")
    }

    /// [`Ui`] `ui`'s text in `lang` (as [`get`]); a later text of the page's own read before
    /// either language's later part is here is recorded (see [`take_missed`]); a lantern word
    /// is not (see [`Ui::LANTERN`]).
    pub fn ui_text(lang: Lang, ui: Ui) -> &'static str {
        let i = super::ui_index(ui);
        lookup(lang, i).unwrap_or_else(|| {
            if Part::of(i) == Part::Later && !super::is_lantern(ui) {
                MISSED.with(|m| m.borrow_mut().push(i));
            }
            ""
        })
    }
}

#[cfg(target_arch = "wasm32")]
pub use loaded::{get, has, install, take_missed, ui_text};
