#!/usr/bin/env bash
# Install (only what is missing) the toolchain for fencing-lab.
#   scripts/setup.sh build   - wasm target, trunk, wasm-bindgen-cli, wasm-opt (binaryen)
#   scripts/setup.sh test    - build level + mdbook, chromium, chromedriver, npm devDependencies
# Each step checks what is present (and its version) first; a second run installs nothing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

LEVEL="${1:-build}"
case "$LEVEL" in
  build|test) ;;
  *) echo "usage: $0 [build|test]" >&2; exit 2 ;;
esac

TRUNK_VERSION="0.21.14"
BINARYEN_VERSION="132"
MDBOOK_VERSION="0.5.4"
BINARYEN_DIR="$ROOT/tools/binaryen"
export PATH="$HOME/.cargo/bin:$BINARYEN_DIR/node_modules/.bin:$PATH"

SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi

APT_UPDATED=0
apt_install() {
  if [ "$APT_UPDATED" -eq 0 ]; then
    $SUDO apt-get update
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "$@"
}

# The wasm-bindgen version the project is locked to (Cargo.lock); the CLI must match it exactly.
wasm_bindgen_locked_version() {
  # A fresh clone has no Cargo.lock (it is not committed): resolve one first.
  [ -f Cargo.lock ] || cargo generate-lockfile --quiet
  awk '
    /^\[\[package\]\]/ { name = "" }
    /^name = / { name = $3; gsub(/"/, "", name) }
    /^version = / && name == "wasm-bindgen" { v = $3; gsub(/"/, "", v); print v; exit }
  ' Cargo.lock
}

step_rust() {
  if ! command -v cargo >/dev/null 2>&1 || ! command -v rustup >/dev/null 2>&1; then
    echo "error: cargo/rustup not found (expected in ~/.cargo/bin); install rustup first" >&2
    exit 1
  fi
  if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    echo "ok: rust target wasm32-unknown-unknown present"
  else
    echo "install: rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
  # make test runs rustfmt and clippy.
  for c in rustfmt clippy; do
    if rustup component list --installed | grep -q "^$c"; then
      echo "ok: rust component $c present"
    else
      echo "install: rust component $c"
      rustup component add "$c"
    fi
  done
}

# A tool from `cargo install --locked NAME --version WANT`, unless `NAME --version` already
# says WANT (trunk prints "trunk 0.21.14", mdbook "mdbook v0.5.4"). $3: how long it takes.
cargo_install_tool() {
  local name="$1" want="$2" takes="$3" have=""
  if command -v "$name" >/dev/null 2>&1; then have="$("$name" --version 2>/dev/null | awk '{print $2}' | tr -d v)"; fi
  if [ "$have" = "$want" ]; then
    echo "ok: $name $want present"
  else
    echo "install: $name $want (found: ${have:-none}; takes ~$takes)"
    cargo install --locked "$name" --version "$want" --force
  fi
}

step_trunk() {
  cargo_install_tool trunk "$TRUNK_VERSION" "10 min"
}

step_wasm_bindgen() {
  local want have="" have_runner=""
  want="$(wasm_bindgen_locked_version)"
  if [ -z "$want" ]; then
    if [ ! -f Cargo.lock ]; then cargo generate-lockfile; want="$(wasm_bindgen_locked_version)"; fi
  fi
  if [ -z "$want" ]; then echo "error: no wasm-bindgen version found in Cargo.lock" >&2; exit 1; fi
  if command -v wasm-bindgen >/dev/null 2>&1; then have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')"; fi
  if command -v wasm-bindgen-test-runner >/dev/null 2>&1; then have_runner="$(wasm-bindgen-test-runner --version 2>/dev/null | awk '{print $2}')"; fi
  if [ "$have" = "$want" ] && [ "$have_runner" = "$want" ]; then
    echo "ok: wasm-bindgen-cli $want present"
  else
    echo "install: wasm-bindgen-cli $want (found: ${have:-none}; takes ~3 min)"
    # No --locked: one of its pinned dependencies is not available from the registry mirror.
    cargo install wasm-bindgen-cli --version "$want" --force
  fi
}

step_node() {
  if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
    echo "ok: node $(node --version) / npm $(npm --version) present"
  else
    echo "install: nodejs + npm (apt)"
    apt_install nodejs npm
  fi
}

step_binaryen() {
  local have=""
  if [ -x "$BINARYEN_DIR/node_modules/.bin/wasm-opt" ]; then
    have="$("$BINARYEN_DIR/node_modules/.bin/wasm-opt" --version 2>/dev/null | awk '{print $3}')"
  fi
  if [ "$have" = "$BINARYEN_VERSION" ]; then
    echo "ok: wasm-opt version $BINARYEN_VERSION present (tools/binaryen)"
  else
    echo "install: binaryen@$BINARYEN_VERSION into tools/binaryen (found: ${have:-none})"
    mkdir -p "$BINARYEN_DIR"
    [ -f "$BINARYEN_DIR/package.json" ] || echo '{ "name": "fencing-lab-tools-binaryen", "private": true }' > "$BINARYEN_DIR/package.json"
    npm install --prefix "$BINARYEN_DIR" --no-fund --no-audit "binaryen@$BINARYEN_VERSION"
  fi
}

step_chromium() {
  if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    echo "ok: chromium + chromedriver present ($(/usr/bin/chromium --version 2>/dev/null | head -n1))"
  else
    echo "install: chromium + chromium-driver (apt)"
    apt_install chromium chromium-driver
  fi
}

step_npm_deps() {
  if [ ! -f package.json ]; then
    echo "ok: no package.json, no npm dependencies"
    return
  fi
  local stamp="node_modules/.package-lock.json"
  if [ -f "$stamp" ] && [ -d node_modules/@playwright/test ] \
     && [ "$stamp" -nt package.json ] \
     && { [ ! -f package-lock.json ] || [ "$stamp" -nt package-lock.json ]; }; then
    echo "ok: npm devDependencies present (@playwright/test $(node -p 'require("./node_modules/@playwright/test/package.json").version'))"
  elif [ -f package-lock.json ]; then
    echo "install: npm devDependencies (npm ci)"
    npm ci --no-fund --no-audit
  else
    echo "install: npm devDependencies (npm install)"
    npm install --no-fund --no-audit
  fi
}

step_mdbook() {
  cargo_install_tool mdbook "$MDBOOK_VERSION" "2 min"
}

step_rust
step_trunk
step_wasm_bindgen
step_node
step_binaryen
# The release build's post_build hook minifies the JS glue with terser, an npm devDependency.
step_npm_deps
if [ "$LEVEL" = "test" ]; then
  step_mdbook
  step_chromium
fi
echo "setup ($LEVEL): done"
