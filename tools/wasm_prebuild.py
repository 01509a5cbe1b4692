#!/usr/bin/env python3
"""Compiles the wasm that `trunk build --release` of the given pages will ask Cargo for, without Trunk.

Usage: tools/wasm_prebuild.py PAGE.html [PAGE.html ...]      (--print: list the commands, run none)

Why: on a machine without Trunk, `make test` spends most of its first minutes in `cargo install trunk`,
and the wasm builds waited for it although Cargo alone can do them. This script runs, beside the tool
installs (Makefile `test`), exactly the `cargo build` each `<link data-trunk rel="rust">` makes Trunk 0.21
run (`pipelines/rust/mod.rs`, `cargo_build`: `--target=wasm32-unknown-unknown`, `--profile P` or
`--release`, `--bin`, `--no-default-features`, `--features`, `--all-features`). Same arguments, same
target directory, so Trunk's own `cargo build` afterwards finds every artifact fresh and only runs
wasm-bindgen and wasm-opt. Arguments that do not change what Cargo builds (`--offline`, Trunk's second
`--message-format=json` call) are left out. A page attribute this script does not know changes nothing
for correctness: Trunk then compiles what differs. Commands repeated across pages run once.
Python 3 standard library only.
"""

import subprocess
import sys
from html.parser import HTMLParser


class RustLinks(HTMLParser):
    """The attributes of every `<link data-trunk rel="rust">` of a page, in order."""

    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "link" and "data-trunk" in found and found.get("rel") == "rust":
            self.links.append(found)


def cargo_args(link):
    """The `cargo build` arguments Trunk 0.21's release build derives from one rust link."""
    args = ["cargo", "build", "--target=wasm32-unknown-unknown"]
    profile = link.get("data-cargo-profile")
    args += ["--profile", profile] if profile else ["--release"]
    if link.get("data-bin"):
        args += ["--bin", link["data-bin"]]
    if "data-cargo-all-features" in link:
        args.append("--all-features")
    else:
        if "data-cargo-no-default-features" in link:
            args.append("--no-default-features")
        if link.get("data-cargo-features"):
            args += ["--features", link["data-cargo-features"]]
    return args


def commands(pages):
    """Each distinct build of `pages`, in page order."""
    seen = []
    for page in pages:
        parser = RustLinks()
        with open(page, encoding="utf-8") as f:
            parser.feed(f.read())
        for link in parser.links:
            args = cargo_args(link)
            if args not in seen:
                seen.append(args)
    return seen


def main(argv):
    dry = "--print" in argv
    pages = [a for a in argv if a != "--print"]
    if not pages:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    for args in commands(pages):
        print("wasm prebuild: " + " ".join(args), flush=True)
        if not dry and subprocess.run(args).returncode != 0:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
