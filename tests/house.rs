//! The house's rules that a reader can check in the source without a browser (issue 29): for
//! `src/ui/` (one owner of the focus) and for the engine (every store rule decided in its
//! profile).

use std::path::{Path, PathBuf};

use leaselab::engine::StoreKind;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The focus has one owner: every move of the keyboard's focus is made in `src/ui/focus.rs`
/// (at once, with `hand_now`, `within` and `now`; or at the next frame in one fixed order, with
/// `dialogs`, `hand_to` and `keep`). A `.focus()` called anywhere else in `src/ui/` would be a
/// second owner racing the first, as the shortcuts list and the lesson once did.
#[test]
fn the_focus_is_moved_only_by_its_owner() {
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    let mut paths = Vec::new();
    rust_files(&ui, &mut paths);
    assert!(paths.len() > 20, "src/ui has {} Rust files", paths.len());
    let mut elsewhere = Vec::new();
    for path in paths.iter().filter(|p| !p.ends_with("focus.rs")) {
        let text = std::fs::read_to_string(path).expect("readable");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains(".focus()") {
                elsewhere.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(elsewhere.is_empty(), "the focus moved outside src/ui/focus.rs:\n{}", elsewhere.join("\n"));
    let owner = std::fs::read_to_string(ui.join("focus.rs")).expect("src/ui/focus.rs");
    assert!(owner.contains(".focus()"), "focus.rs moves the focus itself");
}

/// `text` with its comments blanked and its string and character literals emptied (`""`, `''`),
/// every newline kept, so that what is left is code and its lines keep their numbers.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Blanks `b[from..to]`, keeping its newlines.
    let blank = |out: &mut String, from: usize, to: usize| {
        out.extend(b[from..to].iter().map(|c| if *c == b'\n' { '\n' } else { ' ' }));
    };
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|c| *c == b'\n').map_or(b.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with(b"/*") {
            let (mut depth, mut j) = (0usize, i);
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if rest.starts_with(b"r\"") || rest.starts_with(b"r#") || rest.starts_with(b"br\"") {
            // A raw string: r"…", r#"…"#, br"…".
            let start = i + rest.iter().position(|c| *c == b'r').unwrap_or(0) + 1;
            let hashes = b[start..].iter().take_while(|c| **c == b'#').count();
            if b.get(start + hashes) != Some(&b'"') {
                out.push(b[i] as char);
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            let body = start + hashes + 1;
            let end = b[body..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |n| body + n + close.len());
            out.push_str("\"\"");
            blank(&mut out, i + 2, end);
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            blank(&mut out, i + 2, (j + 1).min(b.len()).max(i + 2));
            i = j + 1;
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{..}'), not a lifetime ('a).
            let end = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..].iter().position(|c| *c == b'\'').map(|n| i + 2 + n + 1)
            } else {
                let ch = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + ch) == Some(&b'\'')).then_some(i + 1 + ch + 1)
            };
            match end {
                Some(end) => {
                    out.push_str("''");
                    blank(&mut out, i + 2, end.max(i + 2));
                    i = end;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let ch = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + ch]);
            i += ch;
        }
    }
    out
}

/// `code` (from [`code_only`]) with every item marked `#[cfg(test)]` blanked: tests may name and
/// compare store profiles as they like.
fn without_tests(code: &str) -> String {
    let mut out = code.to_owned();
    let mut from = 0;
    while let Some(at) = out[from..].find("#[cfg(test)]").map(|n| from + n) {
        let Some(open) = out[at..].find('{').map(|n| at + n) else { break };
        let (mut depth, mut end) = (0usize, out.len());
        for (j, c) in out[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + j + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        let blanked: String = out[at..end].chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect();
        out.replace_range(at..end, &blanked);
        from = end;
    }
    out
}

/// How code uses a store profile's variant at one place.
#[derive(Debug, PartialEq, Eq)]
enum Use {
    /// Constructed or named (`store_kind: StoreKind::Redis`, a list of them).
    Named,
    /// Compared with `==` or `!=`.
    Compared,
    /// A pattern: a `match` arm, `matches!`, `if let` / `let … else`; `words` when the arm's value
    /// is only words (a string literal or a `Ui::` or `Later::` text).
    Matched { words: bool },
}

/// Every place in `code` (from [`code_only`]) where a variant of [`StoreKind`] is written, with
/// its line and how it is used.
fn store_kind_uses(code: &str) -> Vec<(usize, Use)> {
    let variants: Vec<String> = StoreKind::ALL.iter().map(|k| format!("StoreKind::{k:?}")).collect();
    let b = code.as_bytes();
    let mut out = Vec::new();
    for variant in &variants {
        for (at, _) in code.match_indices(variant.as_str()) {
            let end = at + variant.len();
            // A longer name (`StoreKind::RedisLike`) is not this variant.
            if b.get(end).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
                continue;
            }
            let line = code[..at].matches('\n').count() + 1;
            out.push((line, classify(code, at, end)));
        }
    }
    out.sort_by_key(|(line, _)| *line);
    out
}

/// How the variant written at `code[at..end]` is used.
fn classify(code: &str, at: usize, end: usize) -> Use {
    let before = code[..at].trim_end();
    let after = code[end..].trim_start();
    if before.ends_with("==") || before.ends_with("!=") || after.starts_with("==") || after.starts_with("!=") {
        return Use::Compared;
    }
    // Inside `matches!( … )`: walk out through the brackets that enclose it.
    let b = code.as_bytes();
    let mut depth = 0i32;
    for j in (0..at).rev() {
        match b[j] {
            b')' | b']' => depth += 1,
            b'(' | b'[' if depth > 0 => depth -= 1,
            b'(' if code[..j].trim_end().ends_with("matches!") => return Use::Matched { words: false },
            b'(' | b'[' => {}
            b';' | b'{' | b'}' => break,
            _ => {}
        }
    }
    // Forward to what ends the pattern or the expression: `=>` makes it an arm.
    let mut depth = 0i32;
    let mut j = end;
    while j < b.len() {
        let rest = &code[j..];
        match b[j] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b',' if depth < 0 => return Use::Named,
            b';' | b'{' | b'}' => return Use::Named,
            b'=' if rest.starts_with("=>") => {
                let value = rest[2..].trim_start();
                let words = value.starts_with('"') || value.starts_with("Ui::") || value.starts_with("Later::");
                return Use::Matched { words };
            }
            b'=' if rest.starts_with("==") => j += 1,
            b'=' if !matches!(b[j - 1], b'!' | b'<' | b'>' | b'=') => {
                // `let PATTERN = …` (also `if let`, `while let`, `let … else`).
                let head = before.trim_end_matches(|c: char| c.is_alphanumeric() || "_:()|, &".contains(c));
                let pattern = head.len() < before.len()
                    && (before.ends_with("let") || before[head.len()..].trim_start().starts_with("let "));
                return if pattern || head.ends_with("let") { Use::Matched { words: false } } else { Use::Named };
            }
            _ => {}
        }
        j += 1;
    }
    Use::Named
}

#[test]
fn the_store_kind_classifier_tells_a_match_from_a_name() {
    let cases = [
        ("match k { StoreKind::Redis => 1, _ => 2 }", Use::Matched { words: false }),
        ("match k { StoreKind::Redis | StoreKind::Etcd => f(), _ => 2 }", Use::Matched { words: false }),
        ("match (k, on) { (StoreKind::Etcd, true) => 1, _ => 2 }", Use::Matched { words: false }),
        ("match k { Some(StoreKind::Etcd) => 1, _ => 2 }", Use::Matched { words: false }),
        ("match k { StoreKind::Redis => \"Redis 7.0\", _ => \"\" }", Use::Matched { words: true }),
        ("let rules = match k { StoreKind::Redis => Later::StoreRulesRedis, _ => x };", Use::Matched { words: true }),
        ("if k == StoreKind::Etcd { }", Use::Compared),
        ("if StoreKind::Etcd != k { }", Use::Compared),
        ("let etcd = matches!(k, StoreKind::Etcd);", Use::Matched { words: false }),
        ("let etcd = matches!(k, Some(StoreKind::Etcd));", Use::Matched { words: false }),
        ("if let StoreKind::Etcd = k { }", Use::Matched { words: false }),
        ("let store_kind = StoreKind::Redis;", Use::Named),
        ("Config { store_kind: StoreKind::Redis, seed: 1 }", Use::Named),
        ("f(StoreKind::Redis, 3);", Use::Named),
        ("match x { A => f(StoreKind::Redis), B => 2 }", Use::Named),
        ("let all = [(\"a\", StoreKind::Redis, \"etcd\"), (\"b\", StoreKind::Etcd, \"x\")];", Use::Named),
    ];
    for (code, expected) in cases {
        let code = code_only(code);
        let uses = store_kind_uses(&code);
        assert!(!uses.is_empty(), "{code}");
        assert_eq!(uses[0].1, expected, "{code}");
    }
    assert!(store_kind_uses(&code_only("// k == StoreKind::Etcd\nlet s = \"StoreKind::Etcd =>\";")).is_empty());
    let tests = without_tests(&code_only("fn f() {}\n#[cfg(test)]\nmod tests { fn t() { k == StoreKind::Etcd; } }\n"));
    assert!(store_kind_uses(&tests).is_empty(), "tests may compare profiles");
}

/// Every store rule is decided in `src/engine/profile.rs` (issue 29): no code elsewhere in `src/`
/// or in the conformance suite (`conform/src/`) matches on a [`StoreKind`] variant (a `match`
/// arm, `matches!`, `if let`) or compares one with `==` / `!=`; it reads the profile's rule
/// instead (`StoreKind::rules`, `StoreKind::failover`, `StoreKind::compared_with`, …).
/// Naming a variant (a scenario built in code, a default) is allowed, and so is everything in
/// tests. So are the story layer's words: an arm that gives a store its name or its rules note
/// (a string or a `Ui::` or `Later::` text, `src/story/technical.rs`), since the story holds every word in
/// both languages and the engine has none.
#[test]
fn store_profiles_are_matched_only_in_profile_rs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    rust_files(&root.join("src"), &mut paths);
    rust_files(&root.join("conform/src"), &mut paths);
    assert!(paths.len() > 80, "{} Rust files", paths.len());
    let profile = root.join("src/engine/profile.rs");
    let story = root.join("src/story");
    let mut elsewhere = Vec::new();
    let mut words = 0;
    for path in paths.iter().filter(|p| **p != profile) {
        let text = std::fs::read_to_string(path).expect("readable");
        let code = without_tests(&code_only(&text));
        for (line, how) in store_kind_uses(&code) {
            match how {
                Use::Named => {}
                Use::Matched { words: true } if path.starts_with(&story) => words += 1,
                how => {
                    let shown = text.lines().nth(line - 1).unwrap_or("").trim();
                    elsewhere.push(format!("{}:{line}: {how:?}: {shown}", path.display()));
                }
            }
        }
    }
    assert!(
        elsewhere.is_empty(),
        "a store profile matched outside src/engine/profile.rs; read its rule from the profile instead:\n{}",
        elsewhere.join("\n")
    );
    assert!(words > 0, "the story's store names and notes are found (the scan works)");
}
