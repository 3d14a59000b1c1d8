//! The translation table.
//!
//! Each table is an enum whose `text` method matches every variant to its English and
//! Simplified Chinese text, so a string missing in either language does not compile. Texts may
//! hold `{name}`-style placeholders, replaced by [`fill`].

use serde::Serialize;

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

/// Replaces each `{key}` in `template` with its value. Unknown placeholders stay as they are.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_owned();
    for (key, value) in values {
        out = out.replace(&format!("{{{key}}}"), value);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
