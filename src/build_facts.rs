//! What the page, its build script (`build.rs`) and `cargo xtask` must agree on, written once:
//! this file is compiled into all three (`#[path]` in `build.rs` and `xtask`).

/// The id of the built-in scenario the app opens with when the address names none.
pub const DEFAULT_SCENARIO: &str = "harbor-zombie";

/// Where the page keeps the theme chosen with the header's button between visits
/// (`localStorage`), read by the app and by the script `cargo xtask dist` puts into index.html.
pub const THEME_KEY: &str = "leaselab.theme";

/// The translation packs under `assets/i18n/` (and `dist/i18n/`), in the order they are stamped.
pub const PACKS: [&str; 2] = ["en.json", "zh.json"];

/// The stamp the page adds to a pack's address (`?v=`), so that a browser never uses a pack
/// cached from another version of the page: 64-bit FNV-1a (the `fnv` crate) over the packs in
/// `dir`, in [`PACKS`] order, as 16 hex digits.
///
/// # Errors
/// A pack that cannot be read.
#[cfg(not(target_arch = "wasm32"))]
pub fn pack_stamp(dir: &std::path::Path) -> std::io::Result<String> {
    use std::hash::Hasher as _;
    let mut hash = fnv::FnvHasher::default();
    for name in PACKS {
        hash.write(&std::fs::read(dir.join(name))?);
    }
    Ok(format!("{:016x}", hash.finish()))
}
