#!/usr/bin/env node
// The first load's size, in `make test`: every .html/.js/.wasm/.css of dist/ (what the app's
// first view fetches), raw and gzip level 9, per file and in all. Sizes are exact, so unlike
// timings they can fail a build.
//
// BUDGET_KB is issue 14's goal for the first load of the full app; it is not met yet (the
// split that loads the explorer, the lab and export on first use is still to come), so the
// check fails only past CEILING_KB: no growth while the split is being built. Lower the
// ceiling as the bundle shrinks; when the budget is met, fail past the budget instead.
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const BUDGET_KB = 200;
// 400 KB, raised by predict mode's 9.5 KB (399.7 -> 409.2 KB; docs/performance.md) until
// the explorer leaves the first load.
const CEILING_KB = 409.5;

function walk(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/** Every file the first load fetches, largest first, with raw and gzip (level 9) bytes. */
function sizes(dist) {
  const rows = walk(dist)
    .filter((f) => /\.(html|js|wasm|css)$/.test(f))
    .map((f) => {
      const buf = fs.readFileSync(f);
      return { file: path.relative(dist, f), raw: buf.length, gzip: zlib.gzipSync(buf, { level: 9 }).length };
    });
  rows.sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((s, r) => ({ raw: s.raw + r.raw, gzip: s.gzip + r.gzip }), { raw: 0, gzip: 0 });
  return { files: rows, total };
}

module.exports = { sizes, BUDGET_KB, CEILING_KB };

if (require.main === module) {
  const dist = process.argv[2] || 'dist';
  const { files, total } = sizes(dist);
  if (files.length === 0) {
    console.error(`size: nothing in ${dist}/ (build first)`);
    process.exit(1);
  }
  const kb = (n) => (n / 1024).toFixed(1).padStart(7);
  for (const f of files) console.log(`size: ${kb(f.raw)} KB raw ${kb(f.gzip)} KB gzip  ${f.file}`);
  console.log(`size: ${kb(total.raw)} KB raw ${kb(total.gzip)} KB gzip  first load in all`);
  const gz = total.gzip / 1024;
  const verdict = gz <= BUDGET_KB ? 'within' : 'over';
  console.log(`size: ${verdict} the ${BUDGET_KB} KB budget (issue 14); the check fails past ${CEILING_KB} KB`);
  if (gz > CEILING_KB) {
    console.error(`size: the first load is ${gz.toFixed(1)} KB gzip, past the ${CEILING_KB} KB ceiling`);
    process.exit(1);
  }
}
