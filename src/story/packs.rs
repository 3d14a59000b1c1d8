//! Translation packs: every text of the translation tables of one language, as JSON arrays of
//! strings in a fixed order, in parts the page loads when it needs them:
//!
//! - the first part (`assets/i18n/en.json`, `zh.json`): the page's own texts that the first scene
//!   needs ([`Ui`] entries without `#[later]`), and every fable's introduction (its name and its
//!   landing card's words: [`Word::INTRODUCTION`]), which the page says before a fable is shown;
//! - the later part (`en.later.json`, `zh.later.json`): what only the parts of the page that come
//!   after the first scene show: the page's texts marked `#[later]` in the table (the side panel,
//!   the diagram, the lessons, the figures' menu, …), the log's technical lines, and the built-in
//!   scenarios' titles, which only the scenario menu shows;
//! - one pack per fable (`harbor.en.json`, `lantern.zh.json`, …): the fable's words, its
//!   drawing's own, its story lines and its legend ([`Fable::pack_len`]), loaded when the fable is
//!   first shown.
//!
//! Native builds (the runner, the tests) compile the tables in. The page does not: it loads the
//! first part of its language and the shown fable's pack before it is drawn, the later part with
//! the page's later parts, and the other language's when the learner switches, so it carries
//! neither language's texts (issue 4's page budget; issue 14's first load). The packs are
//! generated from the tables (`leaselab packs`) and committed; a test checks that they are up to
//! date. Their order (over both parts of the page's own): the first part's [`Ui`] texts in
//! declaration order, every fable's introduction; then the later part's [`Ui`] texts in
//! declaration order, every [`Line`]'s technical text, every built-in scenario's title in menu
//! order.

use super::i18n::Ui;
use super::narrate::Line;
use crate::fables::{Fable, Word, ALL};
use crate::scenario::library;
use crate::vocab::Lang;

/// How many texts the two parts of a pack hold together.
pub const COUNT: usize = Ui::ALL.len() + ALL.len() * Word::INTRODUCTION + Line::ALL.len() + library::MENU.len();

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

/// How many [`Ui`] texts are in the later part (marked `#[later]`: [`Ui::LATER`]).
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

/// How many of them are in the first part (the rest are in the later one): the page's own first
/// texts, then every fable's introduction ([`Word::INTRODUCTION`] words each, in `fables::ALL`
/// order).
pub const FIRST: usize = UI_FIRST + ALL.len() * Word::INTRODUCTION;

/// A part of a pack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// What the first scene needs: loaded before the page is drawn.
    First,
    /// The later parts' own texts, the technical lines and the scenarios' titles: loaded with
    /// the page's later parts.
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

/// Where `fable`'s introduction word number `i` (below [`Word::INTRODUCTION`]) is in a pack.
pub fn introduction_index(fable: Fable, i: usize) -> usize {
    UI_FIRST + fable.index() * Word::INTRODUCTION + i
}

/// Where [`Line`] `line`'s technical text is in a pack.
pub fn technical_index(line: Line) -> usize {
    FIRST + UI_LATER + line as usize
}

/// Where the title of the `i`-th built-in scenario of the menu ([`library::MENU`]) is in a pack.
pub fn scenario_title_index(i: usize) -> usize {
    FIRST + UI_LATER + Line::ALL.len() + i
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

/// The file name of `fable`'s pack in `lang` under `i18n/`: `harbor.en.json`, …
pub fn fable_file_name(fable: Fable, lang: Lang) -> String {
    format!("{}.{}.json", fable.code(), lang.code())
}

/// The texts of `lang`'s pack, both parts, in pack order.
#[cfg(not(target_arch = "wasm32"))]
pub fn texts(lang: Lang) -> Vec<&'static str> {
    let mut out = Vec::with_capacity(COUNT);
    out.extend(Ui::ALL.iter().filter(|u| !Ui::LATER[**u as usize]).map(|u| u.text(lang)));
    for fable in Fable::all() {
        out.extend(&fable.texts(lang)[..Word::INTRODUCTION]);
    }
    out.extend(Ui::ALL.iter().filter(|u| Ui::LATER[**u as usize]).map(|u| u.text(lang)));
    out.extend(Line::ALL.iter().map(|l| l.technical(lang)));
    out.extend(library::MENU.iter().map(|b| lang.pick([b.title_en, b.title_zh])));
    out
}

/// Part `part` of `lang`'s pack as its file holds it: a JSON array, one text per line.
#[cfg(not(target_arch = "wasm32"))]
pub fn file(lang: Lang, part: Part) -> String {
    let texts = texts(lang);
    json_lines(&texts[part.range()])
}

/// `fable`'s pack in `lang` as its file holds it: a JSON array, one text per line (its texts but
/// its introduction, which is in the first part of the page's pack).
#[cfg(not(target_arch = "wasm32"))]
pub fn fable_file(fable: Fable, lang: Lang) -> String {
    json_lines(&fable.texts(lang)[Word::INTRODUCTION..])
}

#[cfg(not(target_arch = "wasm32"))]
fn json_lines(texts: &[&str]) -> String {
    let lines: Vec<String> = texts.iter().map(|t| serde_json::Value::from(*t).to_string()).collect();
    format!("[\n{}\n]\n", lines.join(",\n"))
}

#[cfg(target_arch = "wasm32")]
mod loaded {
    use std::cell::{Cell, RefCell};

    use super::{Part, Ui};
    use crate::fables::{Fable, ALL};
    use crate::vocab::Lang;

    type Texts = Cell<Option<&'static [&'static str]>>;

    thread_local! {
        /// The parts loaded so far, English and Chinese, first and later, for the rest of the visit.
        static PACKS: [[Texts; 2]; 2] = const { [[Cell::new(None), Cell::new(None)], [Cell::new(None), Cell::new(None)]] };

        /// Each fable's pack, English and Chinese, once loaded.
        static FABLES: [[Texts; 2]; ALL.len()] = const { [const { [Cell::new(None), Cell::new(None)] }; ALL.len()] };

        /// The page's own later texts (`#[later]` in the table) read before any later part was
        /// here: drawn empty, a mistake of the table's marks (see [`take_missed`]).
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

    /// Whether `fable`'s pack in `lang` is loaded.
    pub fn has_fable(fable: Fable, lang: Lang) -> bool {
        FABLES.with(|p| p[fable.index()][slot(lang)].get().is_some())
    }

    /// `texts` kept for the rest of the visit, if there are `wanted` of them.
    fn keep(texts: Vec<String>, wanted: usize) -> Result<&'static [&'static str], String> {
        if texts.len() != wanted {
            return Err(format!("{} texts instead of {wanted}", texts.len()));
        }
        let texts: Vec<&'static str> = texts.into_iter().map(|t| &*Box::leak(t.into_boxed_str())).collect();
        Ok(Box::leak(texts.into_boxed_slice()))
    }

    /// Keeps part `part` of `lang`'s pack: the texts of its file, in file order (the page reads
    /// the JSON with the browser's `JSON.parse`, see `ui::catalog::load_pack`).
    ///
    /// # Errors
    /// Not as many texts as the part holds (a pack of another version of the page).
    pub fn install(lang: Lang, part: Part, texts: Vec<String>) -> Result<(), String> {
        let texts = keep(texts, part.range().len())?;
        PACKS.with(|p| p[slot(lang)][part as usize].set(Some(texts)));
        Ok(())
    }

    /// Keeps `fable`'s pack in `lang`, as [`install`] does.
    ///
    /// # Errors
    /// Not as many texts as the fable's pack holds ([`Fable::pack_len`]).
    pub fn install_fable(fable: Fable, lang: Lang, texts: Vec<String>) -> Result<(), String> {
        let texts = keep(texts, fable.pack_len())?;
        FABLES.with(|p| p[fable.index()][slot(lang)].set(Some(texts)));
        Ok(())
    }

    /// Text `i` of `fable`'s pack in `lang`, or of the other language's while `lang`'s is not
    /// loaded; empty while neither is (the scene is drawn again when it comes: `ui::state`).
    pub fn fable_text(fable: Fable, lang: Lang, i: usize) -> &'static str {
        FABLES.with(|p| {
            let packs = &p[fable.index()];
            packs[slot(lang)].get().or(packs[1 - slot(lang)].get()).and_then(|t| t.get(i).copied()).unwrap_or("")
        })
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

    /// [`Ui`] `ui`'s text in `lang` (as [`get`]); a later text read before either language's
    /// later part is here is recorded (see [`take_missed`]).
    pub fn ui_text(lang: Lang, ui: Ui) -> &'static str {
        let i = super::ui_index(ui);
        lookup(lang, i).unwrap_or_else(|| {
            if Part::of(i) == Part::Later {
                MISSED.with(|m| m.borrow_mut().push(i));
            }
            ""
        })
    }
}

#[cfg(target_arch = "wasm32")]
pub use loaded::{fable_text, get, has, has_fable, install, install_fable, take_missed, ui_text};
