//! The fables: each telling of a run is one [`Definition`], and the rest of the code reads the
//! definition instead of asking which fable it is.
//!
//! A fable is a module of its own under `src/fables/` (see `harbor/`, `lantern/`, `boxes/`):
//!
//! - its **words**, keyed by the fable-neutral concepts of [`Word`] (what the record with no name
//!   on it is called, what the gate says, what a crash button says, …), in English and Simplified
//!   Chinese, with its **story lines** (one per [`Line`] of the log) and its **legend** (who
//!   stands for what). They are matched exhaustively, so a concept or a line left out, or a
//!   language missing, does not compile; the page reads them from the fable's own translation
//!   pack (`assets/i18n/<code>.<lang>.json`, written by `leaselab packs`);
//! - its **cast**: the names it gives the nodes, or `None` to use the scenario file's;
//! - its **landing offer**: the lesson and the story the landing card offers for it;
//! - its **drawing** ([`Drawing`], its module's `scene::DRAWING`): plain Rust that turns the
//!   fable-neutral [`Picture`](crate::story::picture::Picture) into SVG markup, compiled and tested
//!   natively.
//!
//! The `fables!` list names them: adding a fable is a new module, its packs, and its name in
//! that list.
//! Nothing outside a fable's own module names it (`tests/fables.rs` fails on code that does):
//! the scenario format, the page and the story layer go through [`Fable`], a handle on an entry
//! of [`ALL`].

pub mod words;

use crate::draw::Drawing;
use crate::story::i18n::{Later, Ui};
use crate::story::narrate::Line;
use crate::vocab::Lang;
pub use words::Word;

/// Declares the fables' modules, [`ALL`] (their definitions), [`DRAWINGS`] (their drawings) and
/// [`DEFAULT_DRAWING`] from one list of module names, in menu order. The first is the default:
/// the one a scenario file without a `fable` is told as.
macro_rules! fables {
    ($first:ident $(, $rest:ident)* $(,)?) => {
        mod $first;
        $( mod $rest; )*

        /// Every fable's definition, in menu order; the first is the default.
        pub const ALL: [&Definition; [stringify!($first) $(, stringify!($rest))*].len()] =
            [&$first::FABLE $(, &$rest::FABLE)*];

        /// Every fable's drawing, in [`ALL`]'s order ([`Fable::drawing`]).
        pub const DRAWINGS: [&Drawing; ALL.len()] = [&$first::scene::DRAWING $(, &$rest::scene::DRAWING)*];

        /// The default fable's drawing (the first of [`DRAWINGS`]), named apart: the page's first
        /// module draws with it alone, and gets the others' with its later parts (`ui::later`),
        /// so that only the opening telling's drawing is in the first load.
        pub const DEFAULT_DRAWING: &Drawing = &$first::scene::DRAWING;
    };
}

fables!(harbor, lantern, boxes);

/// The codes of [`ALL`], in the same order (the words a scenario's `fable` may be).
pub const CODES: [&str; ALL.len()] = {
    let mut codes = [""; ALL.len()];
    let mut i = 0;
    while i < ALL.len() {
        codes[i] = ALL[i].code;
        i += 1;
    }
    codes
};

/// One telling of a run.
pub struct Definition {
    /// The fable's code: the word scenario files, lessons, the address (`fable=`) and the embed
    /// API use for it, its packs' file names and its test ids (`scene-<code>`). Lowercase ASCII.
    pub code: &'static str,
    /// The built-in lesson and story scenario the landing card offers for it.
    pub landing: Landing,
    /// The names it gives the nodes, `[en, zh]`, in node order; `None`: the scenario file's
    /// names. A fable with its own cast also prints its people's handles where a system prints
    /// a process (see [`crate::story::Cast::handle`]), so no other fable's ids wander in.
    pub cast: Option<&'static [[&'static str; 2]]>,
    /// The keys of its legend's entries (`data-legend`), in order; their words are in its pack.
    pub legend: &'static [&'static str],
    /// How many words of its own its drawing has (after the [`Word`]s in its pack).
    pub own_words: usize,
    /// Its texts (native builds; the page reads the fable's pack instead).
    #[cfg(not(target_arch = "wasm32"))]
    pub texts: Texts,
}

/// What the landing card offers for a fable: a lesson (if it is in the lesson menu) and a story
/// to play, by their built-in ids.
#[derive(Clone, Copy, Debug)]
pub struct Landing {
    pub lesson: &'static str,
    pub story: &'static str,
}

/// A fable's texts, `[en, zh]` each (native builds: the runner, the tests, the packs' writer).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy)]
pub struct Texts {
    /// Its word for each concept.
    pub words: fn(Word) -> [&'static str; 2],
    /// Its drawing's own words, by their place ([`Definition::own_words`] of them).
    pub own: &'static [[&'static str; 2]],
    /// Its story line for each line of the log. Placeholders: those the technical line of the
    /// same [`Line`] receives (a test checks it).
    pub lines: fn(Line) -> [&'static str; 2],
    /// Its legend's entries, in [`Definition::legend`]'s order: what the fable shows, and what
    /// that is in the field's terms.
    pub legend: &'static [[[&'static str; 2]; 2]],
}

/// A fable: a handle on one entry of [`ALL`], cheap to copy and compare. The default is
/// [`Fable::DEFAULT`].
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Fable(u8);

impl std::fmt::Debug for Fable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl Fable {
    /// The first of [`ALL`]: what a scenario without a `fable` is told as.
    pub const DEFAULT: Fable = Fable(0);

    /// Every fable, in menu order.
    pub fn all() -> impl Iterator<Item = Fable> {
        (0..ALL.len() as u8).map(Fable)
    }

    /// Its place in [`ALL`].
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The fable at place `i` of [`ALL`], if there is one.
    pub fn at(i: usize) -> Option<Fable> {
        (i < ALL.len()).then_some(Fable(i as u8))
    }

    /// Its definition.
    pub fn def(self) -> &'static Definition {
        ALL.get(self.index()).copied().unwrap_or(ALL[0])
    }

    /// Its drawing. (The page reaches a drawing other than [`DEFAULT_DRAWING`] only through its
    /// later parts, to keep the others' out of the first load.)
    pub fn drawing(self) -> &'static Drawing {
        DRAWINGS.get(self.index()).copied().unwrap_or(DEFAULT_DRAWING)
    }

    /// Its code (`harbor`, `lantern`, …; see [`Definition::code`]).
    pub fn code(self) -> &'static str {
        self.def().code
    }

    /// The fable whose code is `code` (surrounding spaces and case ignored); anything else is
    /// `None`.
    pub fn from_code(code: &str) -> Option<Fable> {
        let code = code.trim();
        Fable::all().find(|f| f.code().eq_ignore_ascii_case(code))
    }

    /// The fable whose definition is `def`.
    fn of(def: &Definition) -> Fable {
        Fable::all().find(|f| f.code() == def.code).unwrap_or_default()
    }

    /// Its word for concept `word` in `lang`. May hold `{name}`-style placeholders (see
    /// [`crate::story::fill`]).
    pub fn word(self, word: Word, lang: Lang) -> &'static str {
        self.text(lang, word as usize)
    }

    /// Its story template for log line `line` in `lang`.
    pub fn line(self, line: Line, lang: Lang) -> &'static str {
        self.text(lang, Word::ALL.len() + self.def().own_words + line.pack_place())
    }

    /// Its legend: `(key, what the fable shows, what that is)` per entry, in `lang`.
    pub fn legend(self, lang: Lang) -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
        let def = self.def();
        let start = Word::ALL.len() + def.own_words + Line::ALL.len();
        def.legend.iter().enumerate().map(move |(i, key)| {
            let at = start + 2 * i;
            (*key, self.text(lang, at), self.text(lang, at + 1))
        })
    }

    /// How many texts part `part` of its own pack holds: the first part its words but the
    /// introduction (which is in the page's first pack: [`Word::INTRODUCTION`]), its drawing's
    /// own and the story lines the opening scenes tell ([`Line::FIRST_PART`]); the later part
    /// its other story lines and its legend, which the later parts show.
    pub fn pack_len(self, part: crate::story::packs::Part) -> usize {
        let def = self.def();
        match part {
            crate::story::packs::Part::First => {
                Word::ALL.len() - Word::INTRODUCTION + def.own_words + Line::FIRST_PART.len()
            }
            crate::story::packs::Part::Later => Line::ALL.len() - Line::FIRST_PART.len() + 2 * def.legend.len(),
        }
    }

    /// Its text number `i` in `lang`: its words, its drawing's own, its story lines, its legend.
    /// The page has its introduction from its first pack, the rest from the fable's own.
    fn text(self, lang: Lang, i: usize) -> &'static str {
        #[cfg(target_arch = "wasm32")]
        {
            use crate::story::packs;
            match i.checked_sub(Word::INTRODUCTION) {
                None => packs::get(lang, packs::introduction_index(self, i)),
                Some(own) => packs::fable_text(self, lang, own),
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.texts(lang).get(i).copied().unwrap_or("")
        }
    }

    /// Its texts in `lang`, in order: its words, its drawing's own, its story lines (in
    /// [`Line::pack_order`]), its legend
    /// (its pack holds them but the first [`Word::INTRODUCTION`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn texts(self, lang: Lang) -> &'static [&'static str] {
        use std::sync::OnceLock;
        static PACKS: [[OnceLock<Vec<&'static str>>; 2]; ALL.len()] =
            [const { [const { OnceLock::new() }, const { OnceLock::new() }] }; ALL.len()];
        let slot = match lang {
            Lang::En => 0,
            Lang::Zh => 1,
        };
        let def = self.def();
        PACKS[self.index()][slot].get_or_init(|| {
            let t = &def.texts;
            let mut out: Vec<&'static str> = Word::ALL.iter().map(|w| lang.pick((t.words)(*w))).collect();
            out.extend(t.own.iter().map(|pair| lang.pick(*pair)));
            out.extend(Line::pack_order().iter().map(|l| lang.pick((t.lines)(*l))));
            for [name, is] in t.legend {
                out.push(lang.pick(*name));
                out.push(lang.pick(*is));
            }
            out
        })
    }
}

impl Definition {
    /// Its drawing's own word number `i` in `lang` (a fable module reads its own words through
    /// its [`own_words!`] enum).
    pub fn own(&'static self, i: usize, lang: Lang) -> &'static str {
        let fable = Fable::of(self);
        fable.text(lang, Word::ALL.len() + i.min(self.own_words.saturating_sub(1)))
    }
}

/// Words that are either the page's own or a fable's word for a concept: a button, a row, a
/// label that names a figure in one place and something plain in another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Said {
    /// The page's own words, of the first screen.
    Page(Ui),
    /// The page's own words, of its later parts.
    Later(Later),
    /// The word of the fable shown.
    Fable(Word),
    /// The word as this fable tells it, whichever is shown (the landing card's offer of each).
    Told(Fable, Word),
}

impl Said {
    /// The words in `lang`, as `fable` tells them.
    pub fn text(self, fable: Fable, lang: Lang) -> &'static str {
        match self {
            Said::Page(ui) => ui.text(lang),
            Said::Later(text) => text.text(lang),
            Said::Fable(word) => fable.word(word, lang),
            Said::Told(teller, word) => teller.word(word, lang),
        }
    }
}

impl serde::Serialize for Fable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> serde::Deserialize<'de> for Fable {
    /// A fable's code, exactly; anything else is an error naming the codes there are.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Fable::all().find(|f| f.code() == code).ok_or_else(|| serde::de::Error::unknown_variant(&code, &CODES))
    }
}

/// Declares a fable drawing's own words (the names of the things only its drawing shows): an
/// enum in the fable's module, `COUNT`, and (native builds) `TABLE`, `[en, zh]` per word in
/// declaration order, which becomes [`Texts::own`]. Its texts are read with `word.text(lang)`.
macro_rules! own_words {
    ($(#[$doc:meta])* $vis:vis enum $ty:ident for $fable:path { $( $name:ident => [$en:expr, $zh:expr], )* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $ty { $( $name, )* }

        impl $ty {
            /// How many there are.
            pub const COUNT: usize = [$( stringify!($name), )*].len();

            /// Their texts, `[en, zh]`, in declaration order.
            #[cfg(not(target_arch = "wasm32"))]
            pub const TABLE: &'static [[&'static str; 2]] = &[ $( [$en, $zh], )* ];

            /// This word in `lang`.
            pub fn text(self, lang: $crate::vocab::Lang) -> &'static str {
                $fable.own(self as usize, lang)
            }
        }
    };
}
pub(crate) use own_words;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_lowercase_and_read_back() {
        for (i, f) in Fable::all().enumerate() {
            assert_eq!(f.index(), i);
            assert_eq!(Fable::at(i), Some(f));
            assert!(f.code().bytes().all(|b| b.is_ascii_lowercase()), "{f:?}");
            assert_eq!(Fable::from_code(&format!(" {} ", f.code().to_uppercase())), Some(f));
            assert_eq!(Fable::all().filter(|g| g.code() == f.code()).count(), 1);
        }
        assert_eq!(Fable::from_code("pirate"), None);
        assert_eq!(Fable::at(ALL.len()), None);
    }

    #[test]
    fn a_fable_is_written_and_read_by_its_code() {
        for f in Fable::all() {
            let json = serde_json::to_string(&f).expect("writes");
            assert_eq!(json, format!("\"{}\"", f.code()));
            assert_eq!(serde_json::from_str::<Fable>(&json).expect("reads"), f);
        }
        let err = serde_json::from_str::<Fable>("\"pirate\"").expect_err("unknown");
        assert!(err.to_string().contains("harbor"), "{err}");
    }
}
