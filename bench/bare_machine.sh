#!/usr/bin/env bash
# A newcomer's first `make test`, as near a bare machine as this one gets without reinstalling it: an empty
# CARGO_HOME (no Trunk, no wasm-bindgen-cli, an empty registry: every crate is downloaded again) beside
# rustup's toolchain, a fresh clone of REV, then `.ci/run` under /usr/bin/time -v with every output line
# timestamped (DIR/ci.log; DIR/rc its exit status). The wasm32 target and Debian's Chromium, if installed,
# stay visible: on a bare machine they cost the first minute. Results go in BENCHMARKS.md.
#
# Usage: bench/bare_machine.sh DIR [REV]     (REV defaults to HEAD; DIR is emptied first)
set -euo pipefail
dir=$1
repo=$(cd "$(dirname "$0")/.." && pwd)
rev=$(git -C "$repo" rev-parse "${2:-HEAD}")
rm -rf "$dir"
mkdir -p "$dir/cargo/bin"
for tool in cargo rustc rustup rustfmt cargo-fmt rustdoc; do cp -a "$HOME/.cargo/bin/$tool" "$dir/cargo/bin/"; done
git clone -q "$repo" "$dir/repo"
git -C "$dir/repo" checkout -q "$rev"
cd "$dir/repo"
# The machine's PATH without ~/.cargo/bin, where this machine's own Trunk and wasm-bindgen live.
path=$(echo "$PATH" | tr ':' '\n' | grep -v "^$HOME/.cargo/bin\$" | paste -sd:)
export CARGO_HOME="$dir/cargo" CI=true PATH="$dir/cargo/bin:$path"
set +e
/usr/bin/time -v bash .ci/run 2>&1 | perl -MPOSIX -pe 'BEGIN { $| = 1 } $_ = strftime("%H:%M:%S ", localtime) . $_' >"$dir/ci.log"
echo "${PIPESTATUS[0]}" >"$dir/rc"
grep -E 'Elapsed|User time|System time|Percent of CPU|passed|failed' "$dir/ci.log" | tail -n 8
