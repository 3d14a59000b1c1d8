// The page's search worker (src/bin/leaselab-worker.rs), started by the page's Ask tab: loads
// wasm-bindgen's glue (Trunk's `no-modules` output) and starts the worker's wasm, named the way
// the glue's initialisation function asks for it (one object).
importScripts('./leaselab-worker.js');
wasm_bindgen({ module_or_path: './leaselab-worker_bg.wasm' });
