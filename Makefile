# Goodput Lab. `make serve` and `make test` install whatever is missing first (tools/install.sh).
SHELL := /bin/bash
# Where `cargo install` puts binaries (CARGO_INSTALL_ROOT, else CARGO_HOME, else ~/.cargo).
CARGO_BIN := $(or $(CARGO_INSTALL_ROOT),$(CARGO_HOME),$(HOME)/.cargo)/bin
export PATH := $(CARGO_BIN):$(CURDIR)/tools/node_modules/.bin:$(PATH)
# Trunk must never reach for the network: no update check, no tool downloads (offline in Trunk.toml).
export TRUNK_SKIP_VERSION_CHECK := true
E2E_PORT ?= 8091

.PHONY: serve dist single test fuzz test-native test-native-wasm wasm-prebuild test-browser bench bench-reference soak setup setup-browser setup-test clean

## serve: build and serve the app with live reload on http://127.0.0.1:8080
serve: setup
	trunk serve

## dist: the release site in dist/ (relative URLs: copy it to any static host or sub-path)
dist: setup
	trunk build --release
	@for f in dist/*.wasm; do echo "dist: $$f $$(wc -c <$$f) bytes, gzipped $$(gzip -9 -c $$f | wc -c) bytes"; done

## single: one self-contained HTML file (styles, script and wasm inlined) that opens from disk (file://).
## A file cannot fetch a second module, so this build links the lazily loaded panels into the page
## (no `lazy_panels` feature) and leaves the worker out: single.html is index.html without those links.
single: setup single.html
	trunk build single.html --release --dist dist-mono
	python3 tools/single.py dist-mono dist-single/goodput-lab.html

single.html: index.html
	sed -e '/data-type="worker"/d' \
	    -e 's|data-bin="goodput-lab"|data-bin="goodput-lab" data-cargo-no-default-features data-cargo-features="ui"|' \
	    index.html > single.html

## test: native tests of the core, state and charts, then browser tests of dist/ in Chromium.
## Two lanes first: the tool installs (Trunk, wasm-bindgen-cli, Chromium: minutes on a bare machine) beside
## the native tests and the wasm compiles, which need Cargo only (tools/wasm_prebuild.py: the `cargo build`
## Trunk would run, so Trunk's own finds them fresh). Then Trunk's builds and the browser tests.
test:
	tools/install.sh target
	$(MAKE) --no-print-directory -j2 setup-test test-native-wasm
	$(MAKE) --no-print-directory test-browser

## test-native-wasm: the native tests, then the wasm compiles of the site and the one-file build
test-native-wasm: single.html
	$(MAKE) --no-print-directory test-native
	$(MAKE) --no-print-directory wasm-prebuild

## wasm-prebuild: the `cargo build` of every rust link of index.html and single.html, without Trunk
wasm-prebuild: single.html
	python3 tools/wasm_prebuild.py index.html single.html

## test-native: the formatting check (rustfmt.toml; the generated calibration files are skipped), then the native tests
test-native:
	cargo fmt --check
	cargo test

## fuzz: the property tests at ten times `make test`'s cases (over 1,000,000 in all) from a fresh seed,
## printed first; a failure prints the command that replays it (FUZZ_SEED=... FUZZ_SCALE=10 cargo test ...).
## FUZZ_SEED=N make fuzz reruns one seed. Not in `make test`, which runs the fixed seed at scale 1.
fuzz:
	@seed=$${FUZZ_SEED:-$$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}; \
	echo "fuzz: seed $$seed, scale 10"; \
	FUZZ_SEED=$$seed FUZZ_SCALE=10 cargo test --test it fuzz -- --nocapture 2>&1 | grep -E "^fuzz |panicked|FAILED|test result"; \
	exit $${PIPESTATUS[0]}

# setup-test first: the browser's downloads (Chromium, npm) run beside the cargo installs of a first run.
test-browser: setup-test dist single
	cd tests/e2e && E2E_PORT=$(E2E_PORT) npx playwright test

## bench: the benchmarks, printed against the budgets (not part of `make test`; results go in BENCHMARKS.md):
## the calibrated cost model's error on the published measurements (src/bin/calibrate.rs --report), the native simulator beside the peer inference-lab (bench/native, a crate of its own), then the browser
## (bench/browser on dist/: interaction latency, cold load, the simulator in wasm, and each figure side by side
## with the reference page built in the same run). Fails if a budget fails.
bench: dist bench-reference setup-browser
	@status=0; \
	cargo run --quiet --bin calibrate -- --report || status=1; \
	(cd bench/native && cargo run --release) || status=1; \
	node bench/browser/run.js || status=1; \
	exit $$status

## bench-reference: the reference page the browser figures are compared with (bench/reference, a crate of its
## own: one slider, one plotters chart; the app's versions, release profile and wasm-opt level) in bench/reference/dist
bench-reference: setup
	cd bench/reference && CARGO_NET_OFFLINE=true trunk build --release

## soak: our page with the simulator and the search open, a random control change every 200 ms for
## SOAK_MINUTES (30): JS heap and wasm memory growth after the first 5 minutes, console errors. Not in `make test`.
## SOAK_CYCLE=N replays the same N changes over and over: growth then is a leak, not a new high water.
soak: dist setup-browser
	node bench/browser/soak.js

setup:
	tools/install.sh build

setup-browser:
	tools/install.sh browser

setup-test:
	tools/install.sh build browser

clean:
	cargo clean
	rm -rf dist dist-mono dist-single single.html tests/e2e/test-results bench/reference/dist bench/reference/target
