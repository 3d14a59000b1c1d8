//! What the page, its build script (`build.rs`) and `cargo xtask` must agree on, written once:
//! this file is compiled into all three (`#[path]` in `build.rs` and `xtask`).

/// The id of the built-in scenario the app opens with when the address names none.
pub const DEFAULT_SCENARIO: &str = "harbor-zombie";

/// Where the page keeps the theme chosen with the header's button between visits
/// (`localStorage`), read by the app and by the script `cargo xtask dist` puts into index.html.
pub const THEME_KEY: &str = "leaselab.theme";

/// The translation packs under `dir` (`assets/i18n/`, and `dist/i18n/`): every `.json` file
/// there, the page's own parts and each telling's, in name order.
///
/// # Errors
/// The folder cannot be read.
#[cfg(not(target_arch = "wasm32"))]
pub fn pack_files(dir: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "json") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// The stamp the page adds to a pack's address (`?v=`), so that a browser never uses a pack
/// cached from another version of the page: [`stamp`] over [`pack_files`].
///
/// # Errors
/// A pack that cannot be read.
#[cfg(not(target_arch = "wasm32"))]
pub fn pack_stamp(dir: &std::path::Path) -> std::io::Result<String> {
    stamp(&pack_files(dir)?)
}

/// A stamp for files the page fetches by a fixed name (`?v=`): 64-bit FNV-1a (the `fnv` crate)
/// over their bytes in order, as 16 hex digits.
///
/// # Errors
/// A file that cannot be read.
#[cfg(not(target_arch = "wasm32"))]
pub fn stamp(files: &[std::path::PathBuf]) -> std::io::Result<String> {
    use std::hash::Hasher as _;
    let mut hash = fnv::FnvHasher::default();
    for file in files {
        hash.write(&std::fs::read(file)?);
    }
    Ok(format!("{:016x}", hash.finish()))
}
