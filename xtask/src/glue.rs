//! The page's script and its first module made smaller after wasm-bindgen has written them
//! (issue 14: the first load). Both steps are checked by the browser tests, which run on the
//! result.
//!
//! wasm-bindgen names each function the module imports from its script after the web API it
//! calls plus a 16-digit hash (`__wbg_getBoundingClientRect_329ca748ec918b0c`), and writes each
//! name twice, in the module's import section and as a key of the script's import object. The
//! hashes barely compress: two hundred of them cost about 5 KB of brotli over the two files.
//! [`shorten_imports`] gives both sides the same short names instead, and [`shorten_exports`]
//! does the same for the closure shims the module exports to the script.
//!
//! wasm-bindgen writes the script and the chunks' loader readable, and Trunk's own minifier does
//! not see the files this build rewrites after it: [`minify_script`] runs terser on them (from
//! the npm registry, pinned in `xtask/js/package-lock.json`).

use anyhow::{bail, ensure, Context, Result};
use std::collections::HashSet;
use std::path::Path;
use std::process::Command;
use wasm_encoder::reencode::Reencode as _;

/// The short name of the `k`-th import (from 0): `a` … `Z`, then `a0` … `ZZ`, … : a JavaScript
/// identifier that cannot be any of wasm-bindgen's own keys (`__proto__`, `__wbindgen_…`).
fn short_name(mut k: usize) -> String {
    const FIRST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const REST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut name = vec![FIRST[k % FIRST.len()]];
    k /= FIRST.len();
    while k > 0 {
        k -= 1;
        name.push(REST[k % REST.len()]);
        k /= REST.len();
    }
    String::from_utf8(name).unwrap_or_default()
}

/// Where `key` is written as a property key in `js` (`key:` with no identifier character before
/// it), if it is written there once and nowhere else.
fn sole_key(js: &str, key: &str) -> Option<usize> {
    let mut found = js.match_indices(key);
    let (at, _) = found.next()?;
    if found.next().is_some() {
        return None;
    }
    let before = js[..at].chars().next_back();
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let after = js[at + key.len()..].trim_start().chars().next();
    (!before.is_some_and(is_ident) && after == Some(':')).then_some(at)
}

/// The first module `wasm` and its script `js` with short names for the functions the module
/// imports from the script, whose imports come from the module `js_module`
/// (`./leaselab-web_bg.js`): each becomes [`short_name`] in the import section and in the script's
/// import object, and `js_module` itself becomes `w`. Every other section is copied as it is.
///
/// # Errors
/// The module cannot be read, or the script does not write an imported name exactly once as a
/// key, or `"js_module"` exactly once (a wasm-bindgen whose glue is laid out otherwise): nothing
/// is renamed then, and the build stops rather than ship a page whose imports do not resolve.
pub fn shorten_imports(wasm: &[u8], js: &str, js_module: &str) -> Result<(Vec<u8>, String)> {
    const SHORT_MODULE: &str = "w";
    let quoted = format!("\"{js_module}\"");
    ensure!(
        js.matches(&quoted).count() == 1,
        "the script names its import module {quoted} {} times, not once",
        js.matches(&quoted).count()
    );
    ensure!(!js.contains(&format!("\"{SHORT_MODULE}\"")), "the script already has a key \"{SHORT_MODULE}\"");
    let mut renames: Vec<(usize, String, String)> = Vec::new();
    let mut seen = HashSet::new();
    let wasm = rewrite_module(wasm, |payload, module| {
        let wasmparser::Payload::ImportSection(reader) = payload else { return Ok(false) };
        let mut section = wasm_encoder::ImportSection::new();
        for group in reader.clone() {
            let wasmparser::Imports::Single(_, import) = group? else {
                bail!("the module's imports are written compactly, which this step does not read");
            };
            let ty = wasm_encoder::reencode::RoundtripReencoder
                .entity_type(import.ty)
                .map_err(|e| anyhow::anyhow!("the type of import {}: {e}", import.name))?;
            if import.module != js_module {
                section.import(import.module, import.name, ty);
                continue;
            }
            ensure!(seen.insert(import.name.to_owned()), "import {} is imported twice", import.name);
            let at = sole_key(js, import.name)
                .with_context(|| format!("the script does not write the import {} once, as a key", import.name))?;
            let short = short_name(renames.len());
            section.import(SHORT_MODULE, &short, ty);
            renames.push((at, import.name.to_owned(), short));
        }
        module.section(&section);
        Ok(true)
    })?;
    // The script rewritten from its end, so the places found in it stay right.
    renames.sort_by_key(|(at, ..)| std::cmp::Reverse(*at));
    let mut out = js.to_owned();
    for (at, name, short) in &renames {
        out.replace_range(*at..at + name.len(), short);
    }
    let out = out.replacen(&quoted, &format!("\"{SHORT_MODULE}\""), 1);
    Ok((wasm, out))
}

/// The first module `wasm` and its script `js` with short names for the functions wasm-bindgen
/// exports under its own long names (`wasm_bindgen_<hash>___convert__closures_…`: the shims
/// through which the script calls Rust closures, each named after its argument types and the
/// crates' hashes). Each such export is called by the script once, as `wasm.<name>` (from a
/// wrapper function of the same name, which terser renames); it becomes `_` + [`short_name`] in
/// the export section and at that call. Other exports (the ones the
/// chunks' loader or the page use by name: `memory`, `main`, the table, the split's own) keep
/// their names.
///
/// # Errors
/// The module cannot be read, or the script does not call a renamed export exactly once as
/// `wasm.<name>`, or a short name is taken: the build stops rather than ship a script that calls
/// a function the module no longer exports.
pub fn shorten_exports(wasm: &[u8], js: &str) -> Result<(Vec<u8>, String)> {
    const LONG_PREFIX: &str = "wasm_bindgen_";
    let mut renames: Vec<(String, String)> = Vec::new();
    let wasm = rewrite_module(wasm, |payload, module| {
        let wasmparser::Payload::ExportSection(reader) = payload else { return Ok(false) };
        let exports = reader.clone().into_iter().collect::<Result<Vec<_>, _>>()?;
        let taken: HashSet<&str> = exports.iter().map(|e| e.name).collect();
        let mut section = wasm_encoder::ExportSection::new();
        for export in &exports {
            let kind = wasm_encoder::reencode::RoundtripReencoder.export_kind(export.kind)?;
            if export.kind != wasmparser::ExternalKind::Func || !export.name.starts_with(LONG_PREFIX) {
                section.export(export.name, kind, export.index);
                continue;
            }
            let call = format!("wasm.{}", export.name);
            let calls = js.match_indices(&call).filter(|(at, _)| sole_call(js, *at, &call)).count();
            // The script's own wrapper function of the same name is local (terser renames it);
            // a quoted name would be a lookup this step cannot follow.
            let quoted = ['"', '\'', '`'].iter().any(|q| js.contains(&format!("{q}{}{q}", export.name)));
            ensure!(
                calls == 1 && !quoted,
                "the script does not call the export {} exactly once as `wasm.{}`",
                export.name,
                export.name
            );
            let short = format!("_{}", short_name(renames.len()));
            ensure!(!taken.contains(short.as_str()), "the module already exports {short}");
            section.export(&short, kind, export.index);
            renames.push((call, format!("wasm.{short}")));
        }
        module.section(&section);
        Ok(true)
    })?;
    let mut out = js.to_owned();
    for (call, short) in &renames {
        out = out.replacen(call, short, 1);
    }
    Ok((wasm, out))
}

/// The classes wasm-streams exports to JavaScript (`IntoUnderlyingSource`,
/// `IntoUnderlyingByteSource`, `IntoUnderlyingSink`): Leptos 0.8 always links server_fn with its
/// `browser` feature, which brings wasm-streams, whose `#[wasm_bindgen]` classes are exports and
/// so are kept with all the code behind them (about 8 KB of the module and 3 KB of the script),
/// though this page has no server functions and never makes a stream.
pub const UNUSED_CLASSES: &str = "IntoUnderlying";

/// The linked (not yet bindgen'd) module `wasm` without the classes whose names contain
/// `class` (see [`UNUSED_CLASSES`]): their exports (methods, destructors, and the
/// `__wbindgen_describe_…` functions wasm-bindgen reads their signatures from) leave the export
/// section, and their entries leave wasm-bindgen's `__wasm_bindgen_unstable` section, which lists
/// each exported item as a pair of blobs (a schema-version JSON, then the item). The code behind
/// them is then unused: the splitter and wasm-bindgen leave it out. Every other section, the
/// code and the linker's relocations included, is copied as it is, so the splitter reads the
/// module as before.
///
/// # Errors
/// The module cannot be read, or nothing of `class` was found in the exports or in the bindgen
/// section (a dependency that no longer exports them, or a wasm-bindgen that lays its section out
/// otherwise): the build stops so that this step is looked at again.
pub fn drop_classes(wasm: &[u8], class: &str) -> Result<Vec<u8>> {
    let lower = class.to_ascii_lowercase();
    let (mut exports_dropped, mut items_dropped) = (0, 0);
    let out = rewrite_module(wasm, |payload, module| match payload {
        wasmparser::Payload::ExportSection(reader) => {
            let mut section = wasm_encoder::ExportSection::new();
            for export in reader.clone() {
                let export = export?;
                if export.name.contains(&lower) {
                    exports_dropped += 1;
                    continue;
                }
                let kind = wasm_encoder::reencode::RoundtripReencoder.export_kind(export.kind)?;
                section.export(export.name, kind, export.index);
            }
            module.section(&section);
            Ok(true)
        }
        wasmparser::Payload::CustomSection(custom) if custom.name() == "__wasm_bindgen_unstable" => {
            let mut blobs = Vec::new();
            let mut rest = custom.data();
            while !rest.is_empty() {
                let len = rest.get(..4).context("a bindgen blob without its length")?;
                let len = usize::try_from(u32::from_le_bytes([len[0], len[1], len[2], len[3]]))?;
                let blob = rest.get(4..4 + len).context("a bindgen blob past the section's end")?;
                blobs.push(blob);
                rest = &rest[4 + len..];
            }
            ensure!(blobs.len() % 2 == 0, "the bindgen section is not pairs of version and item");
            let mut data = Vec::new();
            for pair in blobs.chunks(2) {
                let (version, item) = (pair[0], pair[1]);
                ensure!(version.starts_with(b"{"), "a bindgen item without its version before it");
                if item.windows(class.len()).any(|w| w == class.as_bytes()) {
                    items_dropped += 1;
                    continue;
                }
                for blob in [version, item] {
                    data.extend_from_slice(&u32::try_from(blob.len())?.to_le_bytes());
                    data.extend_from_slice(blob);
                }
            }
            module.section(&wasm_encoder::CustomSection { name: custom.name().into(), data: data.into() });
            Ok(true)
        }
        _ => Ok(false),
    })?;
    ensure!(
        exports_dropped > 0 && items_dropped > 0,
        "no {class} classes to drop (exports {exports_dropped}, bindgen items {items_dropped})"
    );
    Ok(out)
}

/// Whether `call` written at `at` in `js` stands on its own (no identifier character on either
/// side: `xwasm.f` or `wasm.f2` are other names).
fn sole_call(js: &str, at: usize, call: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    !js[..at].chars().next_back().is_some_and(is_ident) && !js[at + call.len()..].chars().next().is_some_and(is_ident)
}

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

    /// A module whose one type, 0, is `() -> ()`: the sections after it are the caller's.
    fn module_with_unit_type() -> wasm_encoder::Module {
        let mut module = wasm_encoder::Module::new();
        let mut types = wasm_encoder::TypeSection::new();
        types.ty().function([], []);
        module.section(&types);
        module
    }

    /// A module importing `names` from `from`, functions of type `() -> ()`.
    fn module_importing(from: &str, names: &[&str]) -> Vec<u8> {
        let mut module = module_with_unit_type();
        let mut imports = wasm_encoder::ImportSection::new();
        for name in names {
            imports.import(from, name, wasm_encoder::EntityType::Function(0));
        }
        imports.import("./lazy/__wasm_split.js", "__wasm_split_load_x", wasm_encoder::EntityType::Function(0));
        module.section(&imports);
        module.finish()
    }

    fn imports_of(wasm: &[u8]) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for payload in wasmparser::Parser::new(0).parse_all(wasm) {
            if let Ok(wasmparser::Payload::ImportSection(reader)) = payload {
                for group in reader {
                    if let Ok(wasmparser::Imports::Single(_, i)) = group {
                        out.push((i.module.to_owned(), i.name.to_owned()));
                    }
                }
            }
        }
        out
    }

    /// A module exporting `names` (functions of type `() -> ()`) and its memory.
    fn module_exporting(names: &[&str]) -> Vec<u8> {
        let mut module = module_with_unit_type();
        let mut functions = wasm_encoder::FunctionSection::new();
        for _ in names {
            functions.function(0);
        }
        module.section(&functions);
        let mut memories = wasm_encoder::MemorySection::new();
        memories.memory(wasm_encoder::MemoryType {
            minimum: 1,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        });
        module.section(&memories);
        let mut exports = wasm_encoder::ExportSection::new();
        for (i, name) in names.iter().enumerate() {
            exports.export(name, wasm_encoder::ExportKind::Func, u32::try_from(i).unwrap_or(0));
        }
        exports.export("memory", wasm_encoder::ExportKind::Memory, 0);
        module.section(&exports);
        let mut code = wasm_encoder::CodeSection::new();
        for _ in names {
            let mut f = wasm_encoder::Function::new([]);
            f.instructions().end();
            code.function(&f);
        }
        module.section(&code);
        module.finish()
    }

    fn exports_of(wasm: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        for payload in wasmparser::Parser::new(0).parse_all(wasm) {
            if let Ok(wasmparser::Payload::ExportSection(reader)) = payload {
                out.extend(reader.into_iter().filter_map(Result::ok).map(|e| e.name.to_owned()));
            }
        }
        out
    }

    /// `wasm` with a bindgen section of `items`, each after its schema-version blob.
    fn with_bindgen_items(wasm: &[u8], items: &[&[u8]]) -> Vec<u8> {
        let mut data = Vec::new();
        for item in items {
            for blob in [&br#"{"schema_version":"0.2.130"}"#[..], item] {
                data.extend_from_slice(&u32::try_from(blob.len()).unwrap_or(0).to_le_bytes());
                data.extend_from_slice(blob);
            }
        }
        // A custom section appended as it is written: id 0, size, name, data.
        let section = wasm_encoder::CustomSection { name: "__wasm_bindgen_unstable".into(), data: data.into() };
        let mut out = wasm.to_vec();
        out.push(0);
        wasm_encoder::Encode::encode(&section, &mut out);
        out
    }

    fn bindgen_items_of(wasm: &[u8]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for payload in wasmparser::Parser::new(0).parse_all(wasm) {
            if let Ok(wasmparser::Payload::CustomSection(custom)) = payload {
                let mut rest = custom.data();
                while rest.len() >= 4 {
                    let len = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
                    out.push(rest[4..4 + len].to_vec());
                    rest = &rest[4 + len..];
                }
            }
        }
        out.into_iter().skip(1).step_by(2).collect()
    }

    #[test]
    fn unused_stream_classes_leave_the_exports_and_the_bindgen_section() {
        let names = [
            "main",
            "intounderlyingsink_write_58a9338f50bce61c",
            "__wbg_intounderlyingsink_free_58a9338f50bce61c",
            "__wbindgen_describe_intounderlyingsink_write_58a9338f50bce61c",
            "__wbindgen_describe___wbg_now_1",
        ];
        let items: [&[u8]; 3] = [b"\x01\x12IntoUnderlyingSink\x05write", b"\x03Date\x03now", b"\x12IntoUnderlyingSink"];
        let wasm = with_bindgen_items(&module_exporting(&names), &items);
        let out = drop_classes(&wasm, UNUSED_CLASSES).expect("dropped");
        assert_eq!(exports_of(&out), ["main", "__wbindgen_describe___wbg_now_1", "memory"]);
        assert_eq!(bindgen_items_of(&out), [b"\x03Date\x03now".to_vec()]);
        // A module without them: the step says so rather than silently doing nothing.
        let plain = with_bindgen_items(&module_exporting(&["main"]), &[b"\x03Date\x03now"]);
        assert!(drop_classes(&plain, UNUSED_CLASSES).is_err());
    }

    #[test]
    fn closure_shims_get_short_export_names_on_both_sides() {
        let long = "wasm_bindgen_0123456789abcdef___convert__closures_____invoke___JsValue______true_";
        let wasm = module_exporting(&["main", long]);
        let js = format!("function {long}(a) {{ wasm.{long}(a); }}\nwasm.main(); const m = wasm.memory;");
        let (wasm, js) = shorten_exports(&wasm, &js).expect("renamed");
        assert!(wasmparser::validate(&wasm).is_ok());
        assert_eq!(exports_of(&wasm), ["main", "_a", "memory"]);
        assert_eq!(js, format!("function {long}(a) {{ wasm._a(a); }}\nwasm.main(); const m = wasm.memory;"));
    }

    #[test]
    fn an_export_the_script_does_not_call_once_stops_the_build() {
        let long = "wasm_bindgen_0123456789abcdef___convert__closures_____invoke_______true_";
        let wasm = module_exporting(&[long]);
        for js in [
            String::new(),
            format!("wasm.{long}(); wasm.{long}();"),
            format!("wasm.{long}_2();"),
            format!("wasm.{long}(); const name = \"{long}\";"),
        ] {
            assert!(shorten_exports(&wasm, &js).is_err(), "{js}");
        }
    }

    #[test]
    fn short_names_are_distinct_identifiers() {
        let names: Vec<String> = (0..5000).map(short_name).collect();
        assert_eq!(names[0], "a");
        assert_eq!(names[51], "Z");
        assert_eq!(names[52], "aa");
        let unique: HashSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), names.len());
        assert!(names.iter().all(|n| n.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && n.chars().all(|c| c.is_ascii_alphanumeric())));
    }

    #[test]
    fn both_sides_get_the_same_short_names() {
        let wasm = module_importing("./app_bg.js", &["__wbg_now_0123456789abcdef", "__wbg_log_fedcba9876543210"]);
        let js = "const import0 = {\n  __proto__: null,\n  __wbg_now_0123456789abcdef: function() { return Date.now(); },\n  \
                  __wbg_log_fedcba9876543210: function(a) { console.log(a); },\n};\n\
                  return { __proto__: null, \"./app_bg.js\": import0 };";
        let (wasm, js) = shorten_imports(&wasm, js, "./app_bg.js").expect("renamed");
        assert_eq!(
            imports_of(&wasm),
            [("w", "a"), ("w", "b"), ("./lazy/__wasm_split.js", "__wasm_split_load_x")]
                .map(|(m, n)| (m.to_owned(), n.to_owned()))
        );
        assert!(js.contains("  a: function() { return Date.now(); }"), "{js}");
        assert!(js.contains("  b: function(a) { console.log(a); }"), "{js}");
        assert!(js.contains("\"w\": import0") && !js.contains("__wbg_") && !js.contains("app_bg"), "{js}");
    }

    #[test]
    fn a_name_the_script_does_not_write_once_as_a_key_stops_the_build() {
        let wasm = module_importing("./app_bg.js", &["__wbg_now_0123456789abcdef"]);
        for js in [
            "{ \"./app_bg.js\": {} }",
            "{ __wbg_now_0123456789abcdef: f, x: __wbg_now_0123456789abcdef, \"./app_bg.js\": {} }",
            "{ x__wbg_now_0123456789abcdef: f, \"./app_bg.js\": {} }",
            "{ __wbg_now_0123456789abcdef: f }",
        ] {
            assert!(shorten_imports(&wasm, js, "./app_bg.js").is_err(), "{js}");
        }
    }
}
