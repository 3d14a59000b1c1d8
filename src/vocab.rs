//! The words the formats and the telling share: which fable tells a run ([`Fable`], defined with
//! the fables in [`crate::fables`]) and in which language ([`Lang`]). `scenario` reads and writes
//! them, `story` tells with them and `ui` shows them.

use serde::Serialize;

/// Which fable tells the run: a handle on one of [`crate::fables::ALL`].
pub use crate::fables::Fable;

/// The app's languages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum Lang {
    #[default]
    En,
    /// Simplified Chinese (zh-CN).
    Zh,
}

impl Lang {
    /// Reads a language code: `en`, `en-US`, … → English; `zh`, `zh-CN`, `zh-Hans`, … → Chinese.
    /// Anything else is `None`.
    pub fn from_code(code: &str) -> Option<Lang> {
        let lower = code.trim().to_ascii_lowercase();
        let primary = lower.split(['-', '_']).next().unwrap_or("");
        match primary {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }

    /// The BCP 47 tag for `<html lang>`: `en` or `zh-CN`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// The short code used in URLs: `en` or `zh`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// Picks the text for this language from an `[en, zh]` pair.
    pub fn pick<T: Copy>(self, pair: [T; 2]) -> T {
        match self {
            Lang::En => pair[0],
            Lang::Zh => pair[1],
        }
    }
}
