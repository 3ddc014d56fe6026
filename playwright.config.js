// Playwright e2e config: uses the system Chromium (/usr/bin/chromium, from apt);
// never run `npx playwright install` (it downloads a browser build).
// Specs live in e2e/*.spec.js and run against dist/ (built by `trunk build --release --offline`)
// and target/site/ (`make site`).
// Tests write their screenshots explicitly under target/screenshots/.
const { defineConfig } = require('@playwright/test');
const { CHROMIUM_PATH, CHROMIUM_ARGS } = require('./scripts/chromium');

// E2E_PORT lets two checkouts run their specs at once.
const PORT = Number(process.env.E2E_PORT || 8081);
// The guide and the embedding page: see webServer below (and e2e/helpers.js).
process.env.E2E_PORT = String(PORT);

module.exports = defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.js',
  outputDir: 'target/playwright-results',
  snapshotPathTemplate: 'target/screenshots/{testFilePath}/{arg}{ext}',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  // Three origins on 127.0.0.1: the app (dist/), the guide with the app inside it
  // (target/site/, built by `make site`), and a page of "another site" that embeds the app
  // in an iframe (e2e/fixtures/). Different ports are different origins.
  webServer: [
    server('dist', PORT),
    server('target/site', PORT + 1),
    server('e2e/fixtures', PORT + 2),
  ],
});

function server(dir, port) {
  return {
    command: `node scripts/serve-static.js ${dir} --host 127.0.0.1 --port ${port} --quiet`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore',
    stderr: 'pipe',
  };
}
