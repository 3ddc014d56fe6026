// Part of trunk's post_build hook (scripts/post-build.js): the wasm-bindgen glue, which trunk
// copies as it is, minified with terser, and its Subresource Integrity hash in index.html
// computed again (the page refuses a module whose hash does not match). A release build
// only: `trunk serve` keeps it readable.
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

module.exports = async function minifyJs(dir) {
  if (process.env.TRUNK_PROFILE && process.env.TRUNK_PROFILE !== 'release') return;
  const { minify } = require('terser');
  const index = path.join(dir, 'index.html');
  let html = fs.readFileSync(index, 'utf8');
  for (const name of fs.readdirSync(dir).filter((f) => /^fencing-lab-[0-9a-f]+\.js$/.test(f))) {
    const file = path.join(dir, name);
    const before = fs.readFileSync(file, 'utf8');
    const out = await minify(before, { module: true, compress: true, mangle: true });
    fs.writeFileSync(file, out.code);
    const sri = (text) => `sha384-${crypto.createHash('sha384').update(text, 'utf8').digest('base64')}`;
    if (!html.includes(sri(before))) throw new Error(`minify-js: index.html names ${name} without its integrity hash`);
    html = html.split(sri(before)).join(sri(out.code));
    console.log(`minify-js: ${name}: ${before.length} -> ${out.code.length} bytes`);
  }
  // The fault panel's script (static/trap.js), embed mode's and the tools module's glue
  // (no-modules: classic scripts; their global `wasm_bindgen` is what scripts/loader.js
  // calls), without integrity hashes.
  for (const name of ['trap.js', 'fencing-lab-embed.js', 'fencing-lab-tools.js']) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) continue;
    const before = fs.readFileSync(file, 'utf8');
    const out = await minify(before, { compress: true, mangle: { reserved: ['wasm_bindgen'] } });
    fs.writeFileSync(file, out.code);
    console.log(`minify-js: ${name}: ${before.length} -> ${out.code.length} bytes`);
  }
  fs.writeFileSync(index, html);
};
