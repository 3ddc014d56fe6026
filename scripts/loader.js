// Part of trunk's post_build hook (scripts/post-build.js), after the glue is minified and
// before the Content-Security-Policy is hashed: trunk's inline loader, which starts the app's
// module, becomes one that starts embed mode's own module (src/bin/embed.rs, built as trunk
// builds a worker: no-modules glue, a fixed name) when the address asks for embed mode, and
// the app's otherwise. Trunk's preload links for the app's module go, so an embed does not
// fetch it. `embed` is read as `EmbedOptions::parse` reads it (src/view/embed.rs): on unless
// its value is 0, false or no; the last one counts. It also defines how the page fetches the
// tools module, on demand (`fencingLabTools`).
'use strict';
const fs = require('fs');
const path = require('path');

module.exports = function loader(dir) {
  const index = path.join(dir, 'index.html');
  let html = fs.readFileSync(index, 'utf8');
  const glue = /(fencing-lab-[0-9a-f]+\.js)/.exec(html);
  const wasm = /(fencing-lab-[0-9a-f]+_bg\.wasm)/.exec(html);
  const script = /<script type="?module"?>[\s\S]*?<\/script>/.exec(html);
  if (!glue || !wasm || !script) throw new Error("loader: index.html has no trunk loader for the app's module");
  if (!fs.existsSync(path.join(dir, 'fencing-lab-embed.js'))) throw new Error("loader: no embed module (fencing-lab-embed.js) in the build");
  const body = `
// The tools module (src/bin/tools.rs), fetched when a tool section is first opened
// (ui::components::tool_slot): its bindings, once; a failure lets the next call try again.
let tools = null;
window.fencingLabTools = () => tools || (tools = new Promise((resolve, reject) => {
  const start = () => wasm_bindgen({ module_or_path: './fencing-lab-tools_bg.wasm' })
    .then(() => resolve(wasm_bindgen), () => reject('its module could not be fetched or started'));
  // Its glue declares wasm_bindgen once: a retry after the module failed only starts it again.
  if (typeof wasm_bindgen !== 'undefined') return start();
  const s = document.createElement('script');
  s.src = './fencing-lab-tools.js';
  s.onload = start;
  s.onerror = () => { s.remove(); reject('its script could not be fetched'); };
  document.head.append(s);
}).catch((why) => { tools = null; throw why; }));
let embed = false;
for (const p of location.search.slice(1).split('&')) {
  const [k, v = ''] = p.split('=');
  if (k === 'embed') embed = !['0', 'false', 'no'].includes(decodeURIComponent(v));
}
if (embed) {
  const s = document.createElement('script');
  s.src = './fencing-lab-embed.js';
  s.onload = () => wasm_bindgen({ module_or_path: './fencing-lab-embed_bg.wasm' });
  document.head.append(s);
} else {
  const bindings = await import('./${glue[1]}');
  const wasm = await bindings.default({ module_or_path: './${wasm[1]}' });
  window.wasmBindings = bindings;
  dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
}`;
  html = html.replace(script[0], `<script type=module>${body}</script>`);
  html = html.replace(/<link[^>]*fencing-lab-[0-9a-f]+(\.js|_bg\.wasm)[^>]*>/g, (link) =>
    /rel="?(modulepreload|preload)"?/.test(link) ? '' : link,
  );
  fs.writeFileSync(index, html);
  console.log(`loader: index.html starts ${glue[1]} or, for ?embed, fencing-lab-embed.js`);
};
