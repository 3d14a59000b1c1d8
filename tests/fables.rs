//! A fable is its own module: its words, its story lines, its legend, its cast, its landing offer
//! and its drawing are in `src/fables/<code>/`, its packs are `assets/i18n/<code>.<lang>.json`,
//! and the rest of the code reads the definition (`leaselab::fables`). These tests fail when code
//! outside a fable's own files names that fable, and check that every fable says every concept
//! with the placeholders the code fills.

use std::path::{Path, PathBuf};

use leaselab::fables::{Fable, Word, ALL};
use leaselab::story::narrate::Line;
use leaselab::vocab::Lang;

/// The files fable `code` may touch: its module and its packs; and the list of fables, where it
/// has its line.
fn its_own(code: &str, path: &Path) -> bool {
    let p = path.to_string_lossy().replace('\\', "/");
    p.contains(&format!("src/fables/{code}/"))
        || p.ends_with("src/fables/mod.rs")
        || p.contains(&format!("assets/i18n/{code}."))
}

/// Every Rust file of the product (the crate, its build script, the conformance suite). Not the
/// tests, nor the tasks that schedule them and the bench that measures the default scene, which
/// name fables as the data they check.
fn product_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["src", "conform/src", "build.rs"] {
        collect(&root.join(dir), &mut out);
    }
    out
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> =
            std::fs::read_dir(path).expect("a folder").map(|e| e.expect("entry").path()).collect();
        entries.sort();
        for entry in entries {
            collect(&entry, out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_owned());
    }
}

/// A file's code without its test module (everything from the first `#[cfg(test)]`).
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("readable");
    match text.find("#[cfg(test)]") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

/// The ways code names fable `code` (`harbor`): its code as a string of its own (`"harbor"`),
/// its module (`harbor::`), its scene's hooks (`scene-harbor`, `data-fable=harbor`), and the
/// enum variant fables once were (`Fable::Harbor`).
fn namings(code: &str) -> Vec<String> {
    let mut variant = code.to_owned();
    variant[..1].make_ascii_uppercase();
    vec![
        format!("\"{code}\""),
        format!("{code}::"),
        format!("scene-{code}"),
        format!("data-fable={code}"),
        format!("Fable::{variant}"),
    ]
}

#[test]
fn no_code_outside_a_fables_own_files_names_it() {
    let files = product_files();
    assert!(files.len() > 40, "the product's files are found: {}", files.len());
    let mut found = Vec::new();
    for fable in Fable::all() {
        let code = fable.code();
        for path in files.iter().filter(|p| !its_own(code, p)) {
            let text = code_of(path);
            for naming in namings(code) {
                for (n, line) in text.lines().enumerate().filter(|(_, l)| l.contains(&naming)) {
                    found.push(format!("{}:{}: names {code} ({naming}): {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "code outside a fable's own files names the fable:\n{}", found.join("\n"));
}

/// The test above would see a naming: a line such as the page's old `Fable::Lantern =>` arm, or a
/// string `"lantern"`, in a file of another module.
#[test]
fn the_guard_sees_a_fable_named_where_it_should_not_be() {
    let code = Fable::all().last().expect("fables").code();
    let stray =
        [format!("        Fable::{}{} => 1,", code[..1].to_uppercase(), &code[1..]), format!("let f = \"{code}\";")];
    for line in stray {
        assert!(namings(code).iter().any(|n| line.contains(n.as_str())), "{line}");
    }
    assert!(its_own(code, Path::new(&format!("src/fables/{code}/scene.rs"))));
    assert!(!its_own(code, Path::new("src/ui/stage.rs")));
}

/// Every fable was added by its own files alone: there are at least three, each with a module,
/// a drawing and packs of its own.
#[test]
fn each_fable_has_its_module_and_its_packs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(ALL.len() >= 3, "three tellings at least");
    for fable in Fable::all() {
        let code = fable.code();
        assert!(root.join(format!("src/fables/{code}/mod.rs")).exists(), "{code}'s module");
        assert!(root.join(format!("src/fables/{code}/scene.rs")).exists(), "{code}'s drawing");
        for lang in ["en", "zh"] {
            assert!(root.join(format!("assets/i18n/{code}.{lang}.json")).exists(), "{code}'s {lang} pack");
        }
    }
}

fn holes(s: &str) -> Vec<&str> {
    let mut v: Vec<&str> = s.split('{').skip(1).filter_map(|p| p.split_once('}').map(|(k, _)| k)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The code that fills a concept's placeholders knows only the concept: every fable's text for
/// it, in both languages, holds the same ones. And every text is there: English, and Chinese
/// with Chinese in it.
#[test]
fn every_fable_says_every_concept_with_the_same_placeholders() {
    for word in Word::ALL {
        let first = holes(Fable::DEFAULT.word(*word, Lang::En));
        for fable in Fable::all() {
            for lang in [Lang::En, Lang::Zh] {
                let text = fable.word(*word, lang);
                assert!(!text.trim().is_empty(), "{fable:?} has no {lang:?} word for {word:?}");
                assert_eq!(holes(text), first, "{fable:?}'s {word:?} in {lang:?}: {text}");
            }
            let zh = fable.word(*word, Lang::Zh);
            assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{fable:?}'s {word:?}: {zh}");
        }
    }
}

/// A fable's word for a concept is its own: no two fables tell the whole set of concepts the
/// same way, and none borrows another's metaphors (the harbor's flags and hourglass, the
/// lantern's wick and tablet) where its own drawing shows something else.
#[test]
fn each_fable_speaks_in_its_own_words() {
    let fables: Vec<Fable> = Fable::all().collect();
    for (i, a) in fables.iter().enumerate() {
        for b in &fables[i + 1..] {
            let same = Word::ALL.iter().filter(|w| a.word(**w, Lang::En) == b.word(**w, Lang::En)).count();
            assert!(same < Word::ALL.len() / 2, "{a:?} and {b:?} say {same} of {} concepts alike", Word::ALL.len());
            let lines_alike = Line::ALL.iter().filter(|l| a.line(**l, Lang::En) == b.line(**l, Lang::En)).count();
            assert!(lines_alike < 5, "{a:?} and {b:?} tell {lines_alike} log lines alike");
        }
    }
}

/// Every fable's legend names what its scene shows in its words and what that is in the field's
/// terms, with keys of its own.
#[test]
fn every_fable_has_a_legend() {
    for fable in Fable::all() {
        let keys: Vec<&str> = fable.def().legend.to_vec();
        let mut unique = keys.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), keys.len(), "{fable:?}'s legend keys are unique");
        assert!(keys.len() >= 6, "{fable:?} explains at least six things");
        for lang in [Lang::En, Lang::Zh] {
            for (key, name, is) in fable.legend(lang) {
                assert!(!name.is_empty() && !is.is_empty(), "{fable:?} {key} in {lang:?}");
            }
        }
    }
}
