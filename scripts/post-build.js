#!/usr/bin/env node
// trunk's post_build hook, one process so the steps that rewrite index.html run in order
// (trunk starts every hook of a stage at once): minify the JS glue, then the loader that
// picks the app's module or embed mode's, then the CSP, whose hash of the inline loader
// script must be of the final page.
'use strict';
const dir = process.env.TRUNK_STAGING_DIR || process.argv[2] || 'dist';
require('./minify-js.js')(dir)
  .then(() => require('./loader.js')(dir))
  .then(() => require('./csp.js'))
  .catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
