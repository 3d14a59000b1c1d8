//! The words the formats and the telling share: which fable tells a run ([`Fable`]) and in which
//! language ([`Lang`]). `scenario` reads and writes them, `story` tells with them and `ui` shows
//! them; none of those needs another to name them.

use serde::{Deserialize, Serialize};

/// Which fable tells the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fable {
    /// The harbor: flag-bearers, a plaque, an hourglass, a flag-verifier (seed `000`).
    #[default]
    Harbor,
    /// The lantern of Nantang: borrowers, a tablet with a brass clasp, a numbered wick, a granary
    /// keeper by the ditch (seed `001`).
    Lantern,
}

impl Fable {
    /// Both fables, in menu order.
    pub const ALL: [Fable; 2] = [Fable::Harbor, Fable::Lantern];

    /// The name used in scenario files and URLs: `harbor` or `lantern`.
    pub fn code(self) -> &'static str {
        match self {
            Fable::Harbor => "harbor",
            Fable::Lantern => "lantern",
        }
    }

    /// Reads a fable's code (surrounding spaces and case ignored); anything else is `None`.
    pub fn from_code(code: &str) -> Option<Fable> {
        let code = code.trim();
        Fable::ALL.into_iter().find(|f| f.code().eq_ignore_ascii_case(code))
    }
}

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
