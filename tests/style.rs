//! The stylesheet is well formed: every block it opens it closes, and each section starts at the
//! top level. A missing `}` once swallowed every rule after a `@media (max-width: 700px)` block,
//! and the lantern was drawn black on every wide window.

/// The stylesheet with its comments blanked out (newlines kept, so line numbers stay right).
fn without_comments(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("*/").map_or(rest.len(), |e| start + e + 2);
        out.extend(rest[start..end].chars().filter(|c| *c == '\n'));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Both sheets: the first scene's (`style.css`) and the later parts' (`later.css`, `ui::later`).
#[test]
fn every_block_is_closed_and_sections_start_at_the_top_level() {
    for (name, css) in
        [("style.css", include_str!("../assets/style.css")), ("later.css", include_str!("../assets/later.css"))]
    {
        let code = without_comments(css);
        let mut depth = 0i32;
        for (n, (raw, line)) in css.lines().zip(code.lines()).enumerate() {
            if raw.trim_start().starts_with("/* -----") {
                assert_eq!(depth, 0, "{name}: the section header at line {} sits inside a block", n + 1);
            }
            for c in line.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        assert!(depth >= 0, "{name}: an unmatched }} at line {}", n + 1);
                    }
                    _ => {}
                }
            }
        }
        assert_eq!(depth, 0, "{name}: {depth} block(s) left open at the end of the file");
    }
}

/// `name -> (day, night)` for the colour variables: `--name: light-dark(#day, #night)` or one
/// colour for both. The first declaration of a name wins (`:root` comes first).
fn colour_variables(css: &str) -> std::collections::HashMap<String, (String, String)> {
    let mut out = std::collections::HashMap::new();
    for decl in css.split(';') {
        let Some((name, value)) = decl.rsplit_once("--").and_then(|(_, d)| d.split_once(':')) else { continue };
        let value = value.trim();
        let colours: Vec<&str> = match value.strip_prefix("light-dark(").and_then(|v| v.strip_suffix(')')) {
            Some(inner) => inner.split(',').map(str::trim).collect(),
            None => vec![value, value],
        };
        if colours.len() == 2 && colours.iter().all(|c| c.starts_with('#')) {
            out.entry(name.trim().to_owned()).or_insert((colours[0].to_owned(), colours[1].to_owned()));
        }
    }
    out
}

/// WCAG 2 relative luminance of `#rgb` or `#rrggbb`.
fn luminance(hex: &str) -> f64 {
    let h = hex.trim_start_matches('#');
    let h: String = if h.len() == 3 { h.chars().flat_map(|c| [c, c]).collect() } else { h.to_owned() };
    let channel = |i: usize| {
        let c = f64::from(u8::from_str_radix(&h[i..i + 2], 16).expect("a hex colour")) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
}

fn contrast(a: &str, b: &str) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn the_contrast_formula_matches_wcag() {
    assert!((contrast("#000", "#fff") - 21.0).abs() < 1e-9);
    assert!((contrast("#777777", "#ffffff") - 4.48).abs() < 0.01);
}

/// The main text/background pairs meet WCAG AA by day and by night: 4.5:1 for text, 3:1 for
/// graphics. `docs/contrast.py` prints the same pairs with their ratios.
#[test]
fn main_colour_pairs_meet_wcag_aa_in_both_themes() {
    // The diagram's colours are declared with it, in the later parts' sheet.
    let both = [include_str!("../assets/style.css"), include_str!("../assets/later.css")].concat();
    let vars = colour_variables(&without_comments(&both));
    let pairs: [(&str, &str, f64); 25] = [
        ("ink", "paper", 4.5),
        ("ink", "page", 4.5),
        ("ink", "paper-2", 4.5),
        ("ink-soft", "paper", 4.5),
        ("ink-soft", "paper-2", 4.5),
        ("wood-dark", "paper", 4.5),
        ("sea-deep", "paper", 4.5),
        ("good", "paper", 4.5),
        ("bad", "paper", 4.5),
        ("ink", "bad-bg", 4.5),
        ("ink", "lantern-soft", 4.5),
        ("diverge", "paper", 4.5),
        ("good-ink", "good-bg", 4.5),
        ("bad-ink", "bad-bg-2", 4.5),
        ("warn-ink", "warn-bg", 4.5),
        ("st-write", "paper", 4.5),
        ("st-refused", "paper", 4.5),
        ("st-violation", "paper", 4.5),
        ("st-store-ink", "paper", 4.5),
        ("warn", "paper", 3.0),
        ("wood", "paper", 3.0),
        // The keyboard focus ring on the page and on panels; the lesson's primary buttons.
        ("focus", "paper", 3.0),
        ("focus", "page", 3.0),
        ("paper", "sea", 4.5),
        ("paper", "sea-deep", 4.5),
    ];
    for (fg, bg, target) in pairs {
        let (f, b) = (&vars[fg], &vars[bg]);
        assert_ne!(f.0, f.1, "--{fg} has one colour for both themes");
        for (theme, f, b) in [("light", &f.0, &b.0), ("dark", &f.1, &b.1)] {
            let r = contrast(f, b);
            assert!(r >= target, "--{fg} on --{bg} in the {theme} theme: {r:.2}:1, below {target}:1");
        }
    }
}

/// No `:has()` selector in either sheet. Chromium checks a `:has()` rule against changes all over
/// the page: with seven of them beside the lesson panel, every log row added at 64× cost a style
/// recalculation several times as long, and frames at CPU 4× went from 1.33 to about 4 times
/// RaftScope's (docs/measurements.md). The page says what a rule needs as an attribute instead
/// (`data-revealed`, `data-none`, `data-waiting`, `data-comparing`).
#[test]
fn no_has_selectors() {
    for (name, css) in
        [("style.css", include_str!("../assets/style.css")), ("later.css", include_str!("../assets/later.css"))]
    {
        let code = without_comments(css);
        for (n, line) in code.lines().enumerate() {
            assert!(!line.contains(":has("), "{name}:{}: a :has() selector: {}", n + 1, line.trim());
        }
    }
}
