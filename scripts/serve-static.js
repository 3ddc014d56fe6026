#!/usr/bin/env node
// Minimal static file server (node built-ins only) for the built app in dist/.
//   node scripts/serve-static.js [DIR] [--host 127.0.0.1] [--port 8081]
// Serves DIR (default: dist) with correct MIME types (incl. application/wasm),
// index.html for directories, no caching. Never listens beyond the given host.
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');

function parseArgs(argv) {
  const opts = { dir: 'dist', host: '127.0.0.1', port: 8081, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--host') opts.host = argv[++i];
    else if (a === '--port') opts.port = Number(argv[++i]);
    else if (a === '--quiet') opts.quiet = true;
    else if (a === '-h' || a === '--help') {
      console.log('usage: serve-static.js [DIR] [--host HOST] [--port PORT] [--quiet]');
      process.exit(0);
    } else opts.dir = a;
  }
  return opts;
}

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

const opts = parseArgs(process.argv.slice(2));
const root = path.resolve(opts.dir);
if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) {
  console.error(`serve-static: directory not found: ${root}`);
  process.exit(1);
}

function send(res, status, body, type) {
  res.writeHead(status, { 'Content-Type': type || 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(body);
}

const server = http.createServer((req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed\n');
  let rel;
  try {
    rel = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
  } catch (_) {
    return send(res, 400, 'bad request\n');
  }
  let file = path.join(root, path.normalize(rel));
  if (file !== root && !file.startsWith(root + path.sep)) return send(res, 403, 'forbidden\n');
  fs.stat(file, (err, st) => {
    if (!err && st.isDirectory()) {
      if (!rel.endsWith('/')) {
        res.writeHead(301, { Location: rel + '/' });
        return res.end();
      }
      file = path.join(file, 'index.html');
    }
    fs.stat(file, (err2, st2) => {
      if (err2 || !st2.isFile()) return send(res, 404, 'not found\n');
      const type = MIME[path.extname(file).toLowerCase()] || 'application/octet-stream';
      res.writeHead(200, { 'Content-Type': type, 'Content-Length': st2.size, 'Cache-Control': 'no-store' });
      if (req.method === 'HEAD') return res.end();
      fs.createReadStream(file).pipe(res);
    });
  });
  if (!opts.quiet) res.on('finish', () => console.log(`${res.statusCode} ${req.method} ${req.url}`));
});

server.listen(opts.port, opts.host, () => {
  console.log(`serving ${root} on http://${opts.host}:${opts.port}/`);
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));
