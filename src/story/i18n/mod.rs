//! The translation tables of the page's own texts, one per part of the page that shows them:
//!
//! - [`first`]: [`Ui`], what the first screen shows (the transport bar, the landing card, the
//!   caption, the header, the loading and error notes);
//! - [`later`]: [`Later`], what only the parts of the page that come after the first scene show
//!   (the side panel, the diagram, the lessons, the figures' menu, the tools, the files, the
//!   technical view, the address's warnings).
//!
//! The table a text is in is where the page loads it from: the first part of the translation pack
//! or its later part ([`super::packs`]); there is no per-text placement mark. Each table is an enum
//! whose `text` method gives every variant its English and Simplified Chinese text, so a string
//! missing in either language does not compile. Texts may
//! hold `{name}`-style placeholders, replaced by [`fill`]. The page does not carry the texts:
//! it loads the translation pack of its language (`assets/i18n/*.json`, see [`super::packs`]).

/// Replaces each `{key}` in `template` with its value. Unknown placeholders stay as they are.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_owned();
    for (key, value) in values {
        out = out.replace(&format!("{{{key}}}"), value);
    }
    out
}

/// A moment of the run in seconds with one decimal, rounded, e.g. `61.5` for 61 537 ms: how
/// every time a learner reads is written (the log, the scene, the panel, the notes, the clock).
/// Integer arithmetic: no float formatting code in the page.
pub fn seconds(ms: u64) -> String {
    let tenths = ms.saturating_add(50) / 100;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// A duration in seconds with as many decimals as it needs, at most three, e.g. `0.26` for
/// 260 ms, `15` for 15 000 ms: exact, without trailing zeros.
pub fn span(ms: u64) -> String {
    let (whole, frac) = (ms / 1000, ms % 1000);
    if frac == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{}", format!("{frac:03}").trim_end_matches('0'))
    }
}

/// Declares a table: the enum `$table` with one variant per text, its `[en, zh]` texts, and
/// `$table::ALL`, from one list, so a variant without both texts, or missing from `ALL`, cannot
/// exist. `$part` is the part of the translation pack the page loads the table from
/// ([`super::packs::Part`]). What a fable calls things is not here but in its own module
/// ([`crate::fables`]).
macro_rules! text_table {
    ($(#[$doc:meta])* $table:ident in $part:ident { $( $name:ident => [$en:expr, $zh:expr], )* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $table {
            $( $name, )*
        }

        impl $table {
            /// Every variant, in declaration order (the order of the pack's part).
            pub const ALL: &'static [$table] = &[ $( $table::$name, )* ];

            /// The text in `lang`. May hold `{name}` placeholders for [`fill`](crate::story::i18n::fill).
            pub fn text(self, lang: crate::vocab::Lang) -> &'static str {
                // The page reads its texts from the translation pack it loaded
                // (`story::packs`); native builds carry the table.
                #[cfg(target_arch = "wasm32")]
                {
                    crate::story::packs::page_text(lang, crate::story::packs::Part::$part, self as usize)
                }
                #[cfg(not(target_arch = "wasm32"))]
                {
                    // A table indexed by the variant, not a `match`: data instead of code.
                    const TEXTS: &[[&str; 2]] = &[ $( [$en, $zh], )* ];
                    TEXTS.get(self as usize).map_or("", |pair| lang.pick(*pair))
                }
            }
        }

        impl crate::story::i18n::PageText for $table {
            fn text(self, lang: crate::vocab::Lang) -> &'static str {
                $table::text(self, lang)
            }
        }
    };
}

/// A text of either of the page's tables ([`Ui`] or [`Later`]), for code that shows both.
pub trait PageText: Copy + Send + Sync + 'static {
    /// The text in `lang`, as the table's own `text` gives it.
    fn text(self, lang: crate::vocab::Lang) -> &'static str;
}

pub mod first;
pub mod later;

pub use first::Ui;
pub use later::Later;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Lang;

    #[test]
    fn language_codes() {
        assert_eq!(Lang::from_code("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::from_code("ZH_hans"), Some(Lang::Zh));
        assert_eq!(Lang::from_code("en"), Some(Lang::En));
        assert_eq!(Lang::from_code("fr"), None);
        assert_eq!(Lang::from_code(""), None);
    }

    #[test]
    fn fill_replaces_placeholders() {
        assert_eq!(fill("{a} gives {b} to {a}", &[("a", "x"), ("b", "7")]), "x gives 7 to x");
        assert_eq!(fill("{missing}", &[]), "{missing}");
    }

    /// Chinese: an ideograph, or (for a text that is only placeholders and punctuation, such as
    /// "{who}：{what}") a full-width punctuation mark, which the English text would not use.
    fn has_cjk(s: &str) -> bool {
        s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c) || ('\u{ff01}'..='\u{ff1f}').contains(&c))
    }

    /// Every text of both tables in both languages, with its name.
    fn every_text() -> Vec<(String, &'static str, &'static str)> {
        let first = Ui::ALL.iter().map(|u| (format!("{u:?}"), u.text(Lang::En), u.text(Lang::Zh)));
        let later = Later::ALL.iter().map(|u| (format!("Later::{u:?}"), u.text(Lang::En), u.text(Lang::Zh)));
        first.chain(later).collect()
    }

    #[test]
    fn every_text_exists_in_both_languages() {
        assert!(Ui::ALL.len() > 50 && Later::ALL.len() > 200);
        for (name, en, zh) in every_text() {
            assert!(!en.trim().is_empty(), "{name} has no English");
            assert!(has_cjk(zh), "{name} has no Chinese: {zh:?}");
        }
    }

    #[test]
    fn placeholders_match_between_languages() {
        fn keys(s: &str) -> Vec<&str> {
            let mut out: Vec<&str> =
                s.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(k, _)| k)).collect();
            out.sort_unstable();
            out
        }
        for (name, en, zh) in every_text() {
            assert_eq!(keys(en), keys(zh), "{name}");
        }
    }

    #[test]
    fn all_lists_each_variant_once() {
        let mut seen = std::collections::HashSet::new();
        for ui in Ui::ALL {
            assert!(seen.insert(*ui), "{ui:?} twice");
        }
        let mut seen = std::collections::HashSet::new();
        for text in Later::ALL {
            assert!(seen.insert(*text), "{text:?} twice");
        }
    }
}
