//! The house's rules for `src/ui/` that a reader can check without a browser (issue 29).

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a folder of src/ui") {
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
