// The explorer's Web Worker, as the page starts it (view::search::WORKER_URL): wasm-bindgen's
// no-modules glue for the worker binary (src/bin/explorer_worker.rs), then its WASM, whose
// main installs the message handler and posts "ready". In place of trunk's loader shim, which
// passes the WASM's path in the form wasm-bindgen 0.2.130 warns about on every search.
importScripts('./explorer-worker.js');
wasm_bindgen({ module_or_path: './explorer-worker_bg.wasm' });
