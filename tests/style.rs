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

#[test]
fn every_block_is_closed_and_sections_start_at_the_top_level() {
    let css = include_str!("../assets/style.css");
    let code = without_comments(css);
    let mut depth = 0i32;
    for (n, (raw, line)) in css.lines().zip(code.lines()).enumerate() {
        if raw.trim_start().starts_with("/* -----") {
            assert_eq!(depth, 0, "the section header at line {} sits inside a block", n + 1);
        }
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    assert!(depth >= 0, "an unmatched }} at line {}", n + 1);
                }
                _ => {}
            }
        }
    }
    assert_eq!(depth, 0, "{depth} block(s) left open at the end of the file");
}
