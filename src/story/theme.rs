//! The page's colour theme (issue 4): light, dark, or the system's (`prefers-color-scheme`).
//!
//! The page applies it as `data-theme` on `<html>`; the stylesheet gives every colour as
//! `light-dark(LIGHT, DARK)` and picks the side with `color-scheme`, so `auto` needs no code.

use super::i18n::Ui;

/// Which palette the page is drawn in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    /// The system's choice (`prefers-color-scheme`).
    #[default]
    Auto,
    Light,
    Dark,
}

impl Theme {
    /// Every theme, in the order the header's button cycles through them.
    pub const ALL: [Theme; 3] = [Theme::Auto, Theme::Light, Theme::Dark];

    /// The code used in the URL (`&theme=`), in `localStorage` and as `data-theme`.
    pub fn code(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// Reads a theme code (`auto`, `light`, `dark`; case and surrounding blanks ignored).
    pub fn from_code(code: &str) -> Option<Theme> {
        let code = code.trim();
        Theme::ALL.into_iter().find(|t| t.code().eq_ignore_ascii_case(code))
    }

    /// The next theme on the header's button: auto → light → dark → auto.
    pub fn next(self) -> Theme {
        match self {
            Theme::Auto => Theme::Light,
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::Auto,
        }
    }

    /// The button's label for this theme.
    pub fn label(self) -> Ui {
        match self {
            Theme::Auto => Ui::ThemeAuto,
            Theme::Light => Ui::ThemeLight,
            Theme::Dark => Ui::ThemeDark,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_bad_ones_are_refused() {
        for t in Theme::ALL {
            assert_eq!(Theme::from_code(t.code()), Some(t));
        }
        assert_eq!(Theme::from_code(" DARK "), Some(Theme::Dark));
        assert_eq!(Theme::from_code("night"), None);
        assert_eq!(Theme::from_code(""), None);
    }

    #[test]
    fn the_button_visits_every_theme_and_comes_back() {
        let mut t = Theme::default();
        let mut seen = Vec::new();
        for _ in 0..3 {
            seen.push(t);
            t = t.next();
        }
        assert_eq!(t, Theme::Auto);
        assert_eq!(seen, Theme::ALL);
    }
}
