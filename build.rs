//! Generates the built-in scenario and lesson tables (`$OUT_DIR/builtins.rs` and
//! `$OUT_DIR/lessons.rs`, included by `src/scenario/library.rs`) from `assets/scenarios/*.json`
//! and `assets/lessons/*.json`: the menu (id and title in both languages) for every target, and
//! the files' text for native builds only. The web page fetches a file when it is chosen (Trunk
//! copies the folders to `dist/scenarios/` and `dist/lessons/`), which keeps about 14 KB of gzip
//! out of the page. It also stamps the translation packs (`pack_stamp.rs`).

use std::fmt::Write as _;
use std::path::Path;

// Not every fact is the build script's (the theme's storage key is the page's and xtask's).
#[path = "src/build_facts.rs"]
#[allow(dead_code)]
mod build_facts;

/// The built-ins in menu order. Every `.json` file in the folder must be listed, and only those.
const ORDER: &[&str] = &[
    "harbor-zombie",
    "harbor-no-fencing",
    "fencing-checks",
    "gc-pause-41-42",
    "deposed-41-refused",
    "deposed-41-accepted",
    "lost-high-water-mark",
    "issuer-rollback",
    "retried-write",
    "missing-token",
    "equality-fence",
    "ttl-too-long",
    "ttl-too-short",
    "deposed-41-barrier",
    "lock-late-del",
    "lock-late-del-etcd",
    "lock-owner-release",
    "store-clock-jump",
    "lock-session-expired",
    "lock-session-unchecked",
    "observer-full-wait",
    "observer-rate-skew",
    "lock-client-judged",
    "observer-offset",
    "k8s-renew-retry",
    "k8s-split-brain",
    "k8s-duration-mismatch",
    "duplicate-identity",
    "counter-reset",
    "work-outlives-lease",
    "retried-write-dedupe",
    "foreign-token-per-lock",
    "foreign-token-global",
    "duplicated-write",
    "reordered-writes",
    "lost-grant-reply",
    "lantern-race",
    "lantern-ankle",
    "lantern-ditch",
    "lock-failover-redis",
    "lock-failover-etcd",
    "lock-delay",
    "bounded-shutdown",
    "work-retried-write",
    "two-resources",
    "two-resources-barrier",
];

/// The built-in lessons in menu order. Every `.json` file in `assets/lessons/` must be listed.
const LESSONS: &[&str] = &["harbor-replaced", "lantern-return-hour", "fencing-in-depth"];

fn main() {
    assert!(ORDER.contains(&build_facts::DEFAULT_SCENARIO), "the default scenario is a built-in");
    table("scenarios", ORDER, "builtins.rs", false);
    table("lessons", LESSONS, "lessons.rs", true);
    opening_words();
    pack_stamp();
    fable_later();
}

/// Writes `$OUT_DIR/opening.rs`: the words of the default scenario (its title, its summary and
/// its nodes' names, in both languages), for `src/scenario/opening.rs`, which builds that scenario without
/// reading its file (the page opens on it before it can read JSON).
fn opening_words() {
    let id = build_facts::DEFAULT_SCENARIO;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenarios").join(format!("{id}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let json: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    let pair = |v: &serde_json::Value| match (v["en"].as_str(), v["zh"].as_str()) {
        (Some(en), Some(zh)) => format!("Some([{en:?}, {zh:?}])"),
        _ => String::from("None"),
    };
    let names: Vec<String> =
        json["nodes"].as_array().map(|n| n.iter().map(|node| pair(&node["name"])).collect()).unwrap_or_default();
    let text = format!(
        "/// The default scenario's title, `[en, zh]`.\npub const TITLE: Option<[&str; 2]> = {};\n\
         /// Its summary, `[en, zh]`.\npub const SUMMARY: Option<[&str; 2]> = {};\n\
         /// Its nodes' names, `[en, zh]`, in node order.\npub const NODE_NAMES: &[Option<[&str; 2]>] = &[{}];\n",
        pair(&json["title"]),
        pair(&json["summary"]),
        names.join(", ")
    );
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("opening.rs");
    std::fs::write(&out, text).unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
}

/// Writes `$OUT_DIR/fable_later.rs`: `FABLE_LATER`, the later part of every fable's pack
/// (`assets/i18n/<fable>.en.later.json` and `….zh.later.json`), compiled into the page's later
/// parts' chunk (`ui::later`), so a new telling's pack needs no line of code there.
fn fable_later() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join("i18n");
    let mut codes: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".en.later.json")).map(str::to_owned))
        .collect();
    codes.sort();
    let mut text = String::from(
        "/// `(fable code, [English, Chinese])`: the later part of each fable's pack, as its files hold it.\n\
         const FABLE_LATER: &[(&str, [&str; 2])] = &[\n",
    );
    for code in codes {
        let file = |lang: &str| dir.join(format!("{code}.{lang}.later.json")).display().to_string();
        text += &format!("    ({code:?}, [include_str!({:?}), include_str!({:?})]),\n", file("en"), file("zh"));
    }
    text += "];\n";
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("fable_later.rs");
    std::fs::write(&out, text).unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
}

/// Writes `$OUT_DIR/pack_stamp.rs`: a hash of the translation packs (`assets/i18n/*.json`), which
/// the page adds to their address so that a browser never uses a pack cached from another
/// version of the page.
fn pack_stamp() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join("i18n");
    // The folder: cargo looks at every file in it, so a telling's new pack counts too.
    println!("cargo:rerun-if-changed={}", dir.display());
    let stamp = build_facts::pack_stamp(&dir)
        .unwrap_or_else(|e| panic!("reading the packs in {}: {e} (`leaselab packs` writes them)", dir.display()));
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("pack_stamp.rs");
    let text = format!(
        "/// A hash of the translation packs, for their addresses.\npub const PACK_STAMP: &str = \"{stamp}\";\n"
    );
    std::fs::write(&out, text).unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
}

/// Writes `$OUT_DIR/<out>`: `MENU` (ids and titles of the files in `assets/<folder>/`, in the
/// order of `order`; the titles for native builds only unless `titles_on_web`: the page reads the
/// scenarios' from its translation pack, see `story::packs`) and, for native builds, `FILES`
/// (their text).
fn table(folder: &str, order: &[&str], out: &str, titles_on_web: bool) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join(folder);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".json")).map(str::to_owned))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = order.iter().map(|s| (*s).to_owned()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "build.rs must list exactly the files in assets/{folder}/");
    let mut menu =
        String::from("/// The built-ins in menu order, with their titles.\npub const MENU: &[Builtin] = &[\n");
    let mut files = String::from(
        "/// `(id, file contents)` of every built-in, in menu order (native builds).\n\
         #[cfg(not(target_arch = \"wasm32\"))]\npub const FILES: &[(&str, &str)] = &[\n",
    );
    for id in order {
        let path = dir.join(format!("{id}.json"));
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let json: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
        assert_eq!(json["id"].as_str(), Some(*id), "{}: its id must match its file name", path.display());
        let title = |lang: &str| json["title"][lang].as_str().unwrap_or(id).to_owned();
        let native = if titles_on_web { "" } else { "#[cfg(not(target_arch = \"wasm32\"))] " };
        let _ = writeln!(
            menu,
            "    Builtin {{ id: {id:?}, {native}title_en: {:?}, {native}title_zh: {:?} }},",
            title("en"),
            title("zh")
        );
        let _ = writeln!(files, "    ({id:?}, include_str!({:?})),", path.display().to_string());
    }
    menu.push_str("];\n");
    files.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join(out);
    std::fs::write(&out, menu + &files).unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
}
