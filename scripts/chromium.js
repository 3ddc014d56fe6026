// The system Chromium (/usr/bin/chromium, from apt) and how every script launches it: the
// e2e tests (playwright.config.js) and the browser benchmark (scripts/bench-browser.js).
// Nothing here downloads a browser. The flags turn off what would reach beyond 127.0.0.1
// (background networking, component updates, sync) and what a headless server lacks
// (the sandbox, a GPU).
'use strict';

const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

module.exports = { CHROMIUM_PATH, CHROMIUM_ARGS };
