//! What the release build does to its output after wasm-bindgen and the splitter have written
//! it, with supported tools only: terser (from the npm registry, pinned in
//! `xtask/js/package-lock.json`) minifies the script and the chunks' loader, which wasm-bindgen
//! writes readable and Trunk's minifier does not see (this build rewrites them after Trunk); and
//! [`rewrite_module`] copies a wasm module section by section (wasmparser and wasm-encoder), which
//! the build uses to leave out the chunks' custom sections (their function names).
//!
//! Earlier builds also renamed the first module's imports and exports on both sides and dropped
//! classes from wasm-bindgen's internal section: text surgery on wasm-bindgen's output, which any
//! upgrade could break (issue 29). They saved about 6 KB of brotli (docs/measurements.md).

use anyhow::{Context, Result};
use std::path::Path;
use std::process::Command;

/// `wasm` written again section by section: `edit` sees each payload first and returns whether it
/// has written that section into the new module itself (or dropped it); every other section,
/// custom sections included, is copied as it is.
///
/// # Errors
/// The module cannot be read, or `edit` fails.
pub fn rewrite_module(
    wasm: &[u8],
    mut edit: impl FnMut(&wasmparser::Payload<'_>, &mut wasm_encoder::Module) -> Result<bool>,
) -> Result<Vec<u8>> {
    let mut module = wasm_encoder::Module::new();
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        let payload = payload?;
        if edit(&payload, &mut module)? {
            continue;
        }
        if let wasmparser::Payload::CustomSection(custom) = &payload {
            module.section(&wasm_encoder::CustomSection { name: custom.name().into(), data: custom.data().into() });
        } else if let Some((id, range)) = payload.as_section() {
            let range = usize::try_from(range.start)?..usize::try_from(range.end)?;
            let data = wasm.get(range).context("a section past the end of the module")?;
            module.section(&wasm_encoder::RawSection { id, data });
        }
    }
    Ok(module.finish())
}

/// The directory of the build's JavaScript tools (`xtask/js`: terser).
fn tools_dir(root: &Path) -> std::path::PathBuf {
    root.join("xtask").join("js")
}

/// terser, at the version `xtask/js/package-lock.json` pins (`npm ci`), unless installed.
pub fn ensure_terser(root: &Path) -> Result<()> {
    crate::ensure_npm_packages(&tools_dir(root), "terser/bin/terser", "terser for the release build")
}

/// Minifies the ES module at `path` in place with terser (compressed, local names mangled;
/// property names and the module's exports and imports are kept, which the wasm module and the
/// chunks' loader call the script by).
pub fn minify_script(root: &Path, path: &Path) -> Result<()> {
    let terser = tools_dir(root).join("node_modules/terser/bin/terser");
    let out = path.with_extension("min.js");
    crate::run(
        Command::new("node").arg(&terser).arg(path).args(["--module", "--compress", "--mangle", "--output"]).arg(&out),
    )?;
    std::fs::rename(&out, path).with_context(|| format!("replacing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module with one type, one custom section `name` and another custom section.
    fn module() -> Vec<u8> {
        let mut module = wasm_encoder::Module::new();
        let mut types = wasm_encoder::TypeSection::new();
        types.ty().function([], []);
        module.section(&types);
        module.section(&wasm_encoder::CustomSection { name: "name".into(), data: b"names".as_slice().into() });
        module.section(&wasm_encoder::CustomSection { name: "producers".into(), data: b"x".as_slice().into() });
        module.finish()
    }

    fn custom_sections(wasm: &[u8]) -> Vec<String> {
        wasmparser::Parser::new(0)
            .parse_all(wasm)
            .filter_map(|p| match p {
                Ok(wasmparser::Payload::CustomSection(c)) => Some(c.name().to_owned()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_module_is_copied_whole_or_without_what_edit_drops() {
        let wasm = module();
        assert_eq!(rewrite_module(&wasm, |_, _| Ok(false)).expect("copies"), wasm, "copied byte for byte");
        let bare = rewrite_module(&wasm, |p, _| Ok(matches!(p, wasmparser::Payload::CustomSection(_)))).expect("drops");
        assert!(custom_sections(&bare).is_empty(), "{:?}", custom_sections(&bare));
        assert!(wasmparser::Validator::new().validate_all(&bare).is_ok(), "still a module");
        assert_eq!(custom_sections(&wasm), ["name", "producers"]);
    }
}
