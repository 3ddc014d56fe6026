#!/usr/bin/env node
// trunk's post_build hook: give the built index.html a strict Content-Security-Policy.
// Its one inline script (trunk's module loader, naming the hashed file names) is allowed by
// its SHA-256, computed here after the build; nothing else inline runs. 'wasm-unsafe-eval'
// lets the page compile its WebAssembly; the explorer's Web Worker comes from the app's own
// origin (worker-src; the worker's own fetch of its WASM is under no page policy); images may be data: and blob: URLs (the PNG export
// draws the timeline's SVG through one). frame-ancestors cannot be set from a <meta>, and
// embedding on any site is a feature (docs/embedding.md).
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

const dir = process.env.TRUNK_STAGING_DIR || process.argv[2] || 'dist';
const file = path.join(dir, 'index.html');
let html = fs.readFileSync(file, 'utf8');

const hashes = [];
for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
  hashes.push(`'sha256-${crypto.createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
}
if (/\sstyle=/.test(html) || /<style/.test(html)) {
  console.error('csp: index.html has inline style, which the policy refuses');
  process.exit(1);
}
const policy = [
  "default-src 'self'",
  `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`.trim(),
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  // The explorer's search runs in a Web Worker started from the app's own files
  // (view::search::WORKER_URL); no blob: or data: workers.
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
html = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/g, '');
// As written in index.html, or as trunk's minifier gives it back (`<meta charset=utf-8>`).
html = html.replace(/(<meta charset="?utf-8"?\s*\/?>)/i, `$1\n    ${meta}`);
if (!html.includes(meta)) {
  console.error('csp: no <meta charset="utf-8"> to put the policy after');
  process.exit(1);
}
fs.writeFileSync(file, html);
console.log(`csp: ${file}: ${hashes.length} inline script(s) allowed by hash`);
