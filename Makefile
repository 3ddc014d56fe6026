# fencing-lab build / test entry points. On a fresh Debian machine `make serve` and
# `make test` install what they need first (scripts/setup.sh; a second run installs nothing).

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

# Tools live in ~/.cargo/bin (trunk, wasm-bindgen, wasm-bindgen-test-runner) and in
# tools/binaryen (wasm-opt from the npm package binaryen@132).
export PATH := $(HOME)/.cargo/bin:$(CURDIR)/tools/binaryen/node_modules/.bin:$(CURDIR)/node_modules/.bin:$(PATH)
export CHROMEDRIVER ?= /usr/bin/chromedriver

ADDRESS ?= 127.0.0.1
PORT ?= 8080

.PHONY: help setup setup-build setup-test fetch build site serve serve-dist test test-native test-wasm test-e2e bench fuzz fmt-check clean distclean

help:
	@echo "make serve      build and serve the app on http://$(ADDRESS):$(PORT)/ (trunk serve)"
	@echo "make serve-dist build dist/ and serve it with scripts/serve-static.js on $(ADDRESS):$(PORT)"
	@echo "make build      trunk build --release --offline -> dist/"
	@echo "make site       the guide (docs/guide, mdbook) and the app in one static folder -> target/site/"
	@echo "make test       native cargo tests, wasm browser tests (tests/wasm_*.rs), release build, Playwright e2e"
	@echo "make bench      cargo bench (+ node scripts/bench-browser.js if present)"
	@echo "make fuzz       a million hostile inputs per decoder (scenario, link, action list, embed query)"
	@echo "make setup      install every tool the build and tests need (only what is missing)"
	@echo "make fmt-check  cargo fmt --check"
	@echo "make clean      remove build output (distclean also removes tools/ and node_modules/)"

setup: setup-test

setup-build:
	scripts/setup.sh build

setup-test:
	scripts/setup.sh test

# trunk runs cargo for the wasm target; fetch every target's dependencies up front.
fetch:
	cargo fetch

build: setup-build fetch
	trunk build --release --offline

# The guide at target/site/, the app at target/site/app/ (the guide's pages embed app/…).
# mdbook empties its output folder first, so the app is copied in after it.
site: build
	mdbook build docs/guide --dest-dir $(CURDIR)/target/site
	rm -rf target/site/app && cp -r dist target/site/app

serve: setup-build fetch
	trunk serve --release --offline --address $(ADDRESS) --port $(PORT)

serve-dist: build
	node scripts/serve-static.js dist --host $(ADDRESS) --port $(PORT)

test: setup-test
	$(MAKE) --no-print-directory test-native
	$(MAKE) --no-print-directory test-wasm
	$(MAKE) --no-print-directory fetch
	trunk build --release --offline
	node scripts/size-check.js dist
	mdbook build docs/guide --dest-dir $(CURDIR)/target/site
	rm -rf target/site/app && cp -r dist target/site/app
	$(MAKE) --no-print-directory test-e2e

# Format and lints first: cheap, and a failure names the line. Clippy checks the native
# build (every target) and the app's own code, which only the wasm target compiles.
test-native:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --workspace --lib --bins -- -D warnings
	cargo test --workspace

# Each tests/wasm_*.rs is a browser test crate run by wasm-bindgen-test-runner in headless
# Chromium (see .cargo/config.toml and webdriver.json).
test-wasm:
	@shopt -s nullglob; files=(tests/wasm_*.rs); \
	if [ $${#files[@]} -eq 0 ]; then echo "wasm tests: none (no tests/wasm_*.rs)"; exit 0; fi; \
	for f in "$${files[@]}"; do \
	  name=$$(basename "$$f" .rs); \
	  echo "== wasm test $$name"; \
	  cargo test --target wasm32-unknown-unknown --test "$$name"; \
	done

test-e2e:
	@shopt -s nullglob; specs=(e2e/*.spec.js); \
	if [ $${#specs[@]} -eq 0 ]; then echo "e2e: none (no e2e/*.spec.js)"; exit 0; fi; \
	mkdir -p target/screenshots; \
	npx playwright test

# The decoders under a million hostile inputs each (tests/fuzz.rs; `make test` runs a slice).
fuzz:
	FUZZ_CASES=$${FUZZ_CASES:-1000000} cargo test --release --test fuzz -- --nocapture --test-threads 1

bench: setup-build
	cargo bench
	@if [ -f scripts/bench-browser.js ]; then \
	  $(MAKE) --no-print-directory setup-test fetch; \
	  trunk build --release --offline; \
	  node scripts/bench-browser.js; \
	fi

fmt-check:
	cargo fmt --all -- --check

clean:
	cargo clean
	rm -rf dist test-results playwright-report

distclean: clean
	rm -rf tools node_modules
