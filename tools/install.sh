#!/usr/bin/env bash
# Installs what `make serve`, `make dist` and `make test` need and is missing, then returns.
# On a machine that has everything it costs a few seconds. Nothing is downloaded except from the
# package registries (crates.io, npm, Debian), and Trunk is never allowed to fetch tools itself.
#
# Usage: tools/install.sh target    the wasm32-unknown-unknown target only (Cargo alone builds the wasm)
#        tools/install.sh build     wasm32 target, Trunk, wasm-bindgen-cli, wasm-opt
#        tools/install.sh browser   Debian's Chromium and the browser tests' npm packages (Playwright, axe-core)
#        tools/install.sh build browser   both at once (`make test`)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
logs="$root/target/setup-logs"
mkdir -p "$logs"
TRUNK_VERSION=0.21.14

say() { echo "setup: $*"; }

# The wasm-bindgen version Cargo.lock pins; the CLI must match it exactly.
wasm_bindgen_version() {
  awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' "$root/Cargo.lock"
}

# cargo install with --locked, and without it (pinning the crate's own version) when a locked
# dependency has been yanked: `cargo_install CRATE VERSION OPT_LEVEL [cargo install arguments...]`.
#
# The release profile is overridden for these installs only (the environment reaches this cargo, not
# the project's own builds). Trunk's manifest asks for fat LTO and one codegen unit, whose one serial
# link on 2 cores was most of a first `make test` (Trunk 14 min, wasm-bindgen-cli at Cargo's default
# opt-level 3 6.5 min, on a bare machine). Neither tool's speed matters much: both only drive the build.
# wasm-bindgen rewrites the page's 3.6 MB module on every build, and at opt-level 1 does it as fast as
# its default build (0.2 s CPU), so it gets 1. Trunk itself only parses the page, hashes and copies a
# few files and waits on Cargo, wasm-bindgen and wasm-opt, so it gets 0: the least code generation.
# 16 codegen units is Cargo's own release default (more buy nothing on 2 cores); no debug info:
# nothing to write or link. `time` appends each install's wall and CPU time to its log.
#
# Both install without their default features, which only reach the network: Trunk's are `rustls` (TLS
# for tool downloads and `trunk serve --tls`) and `update_check` (crates.io); wasm-bindgen-cli's is
# `rustls-tls` (its test runner's WebDriver downloads). Trunk runs offline here (Trunk.toml) and only
# the `wasm-bindgen` binary is used, so the other two binaries of wasm-bindgen-cli are not built.
# Measured: Trunk 368 crates instead of 384 (no ring, rustls, webpki), wasm-bindgen-cli 150 instead of 161.
cargo_install() {
  local crate=$1 version=$2 log="$logs/$1.log"
  local -x CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=$3 CARGO_PROFILE_RELEASE_DEBUG=false
  shift 3
  say "installing $crate $version (cargo install; a few minutes on 2 cores; log: $log)"
  if { time cargo install "$crate" --version "$version" --locked "$@"; } >"$log" 2>&1; then return 0; fi
  say "$crate: --locked failed (often a yanked dependency); retrying without it"
  { time cargo install "$crate" --version "$version" "$@"; } >>"$log" 2>&1 || { tail -n 30 "$log"; return 1; }
}

# The wasm target, which `tools/wasm_prebuild.py` needs before Trunk is installed (`make test`).
install_target() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
}

install_build_tools() {
  install_target
  local wbg pids=()
  wbg=$(wasm_bindgen_version)
  [ -n "$wbg" ] || { cargo generate-lockfile --manifest-path "$root/Cargo.toml"; wbg=$(wasm_bindgen_version); }
  if ! trunk --version 2>/dev/null | grep -qx "trunk $TRUNK_VERSION"; then
    cargo_install trunk "$TRUNK_VERSION" 0 --no-default-features & pids+=($!)
  fi
  if ! wasm-bindgen --version 2>/dev/null | grep -q "^wasm-bindgen $wbg\b"; then
    cargo_install wasm-bindgen-cli "$wbg" 1 --no-default-features --bin wasm-bindgen & pids+=($!)
  fi
  local failed=0
  if [ ! -x "$root/tools/node_modules/.bin/wasm-opt" ]; then
    say "installing wasm-opt (npm package binaryen)"
    npm ci --prefix "$root/tools" --no-audit --no-fund >"$logs/binaryen.log" 2>&1 || { tail -n 20 "$logs/binaryen.log"; failed=1; }
  fi
  # Wait for the cargo installs even when npm failed, so none is left running in the background.
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  [ "$failed" = 0 ] || { say "an install failed; see $logs"; exit 1; }
}

install_browser() {
  local e2e="$root/tests/e2e" npm_pid="" failed=0
  # The npm packages download beside apt-get's Chromium: two downloads, neither waits on the other.
  if [ ! -d "$e2e/node_modules/@playwright/test" ] || [ ! -f "$e2e/node_modules/axe-core/axe.min.js" ] \
    || [ "$e2e/package-lock.json" -nt "$e2e/node_modules/.package-lock.json" ]; then
    say "installing the browser tests' npm packages (no browser download: tests use /usr/bin/chromium)"
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix "$e2e" --no-audit --no-fund >"$logs/e2e-npm.log" 2>&1 &
    npm_pid=$!
  fi
  if [ ! -x /usr/bin/chromium ]; then
    say "installing Debian's chromium (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    if ! { apt-get update && apt-get install -y --no-install-recommends chromium fonts-dejavu-core; } >"$logs/apt.log" 2>&1; then
      tail -n 20 "$logs/apt.log"; failed=1
    fi
  fi
  if [ -n "$npm_pid" ] && ! wait "$npm_pid"; then tail -n 20 "$logs/e2e-npm.log"; failed=1; fi
  [ "$failed" = 0 ] || { say "a browser install failed; see $logs"; exit 1; }
}

target=0 build=0 browser=0
for what in "$@"; do
  case "$what" in
    target) target=1 ;;
    build) build=1 ;;
    browser) browser=1 ;;
    *) echo "usage: $0 target|build|browser ..." >&2; exit 2 ;;
  esac
done
# Asked for both (`make test`), the browser's installs (downloads and unpacking) run beside the build
# tools' (cargo compiling on every core) instead of after them.
[ "$target" = 0 ] || install_target
pids=()
if [ "$browser" = 1 ]; then install_browser & pids+=($!); fi
if [ "$build" = 1 ]; then install_build_tools & pids+=($!); fi
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit "$status"
