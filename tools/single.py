#!/usr/bin/env python3
"""Writes the one-file build: dist/index.html with every asset inlined, so it opens from disk.

Usage: tools/single.py DIST_DIR OUT_FILE

Takes Trunk's release output in DIST_DIR and inlines the style sheets as <style>, the favicon as a
data URI and the main wasm (base64) with its wasm-bindgen glue as one module script that passes
the bytes to the glue's init, so nothing is fetched. The simulator's worker is left out and the
page is told so (<meta name="goodput-lab-worker" content="none">): it sweeps on the main thread.
The site's Content-Security-Policy meta (tools/csp.py) is replaced by the one-file policy: nothing
from any origin ('self' means little under file://), the inlined script and style sheets by their
sha256 hashes, 'wasm-unsafe-eval' to compile the inlined wasm, data: images for the icon.
Python 3 standard library only.
"""

import base64
import html
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import csp

LINK = re.compile(r"<link\b[^>]*>", re.IGNORECASE)
SCRIPT = re.compile(r"<script\b[^>]*>(.*?)</script>", re.IGNORECASE | re.DOTALL)
GLUE_IMPORT = re.compile(r"""import\s+init\s*,?.*?from\s+['"]\./([^'"]+\.js)['"]""")
WASM_PATH = re.compile(r"""module_or_path\s*:\s*['"]\./([^'"]+\.wasm)['"]""")
DEFAULT_EXPORT = re.compile(r"export\s*\{[^}]*?\b([A-Za-z_$][\w$]*)\s+as\s+default\b[^}]*\}")
NO_WORKER = '<meta name="goodput-lab-worker" content="none">'
# Everything the one-file page uses is inside it: no source but hashes, and the icon's data: URI.
SINGLE_POLICY = {
    "default-src": ["'none'"],
    "script-src": ["'wasm-unsafe-eval'"],
    "style-src": ["'none'"],
    "img-src": ["data:"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
}


class Attributes(HTMLParser):
    """The attributes of the first start tag fed to it."""

    def __init__(self, tag_text):
        super().__init__()
        self.attrs = None
        self.feed(tag_text)

    def handle_starttag(self, tag, attrs):
        if self.attrs is None:
            self.attrs = {name.lower(): value or "" for name, value in attrs}

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)


def fail(message):
    sys.exit(f"single: {message}")


def asset(dist, href):
    """The file a relative href names inside dist (never outside it)."""
    path = (dist / href.removeprefix("./")).resolve()
    if dist.resolve() not in path.parents or not path.is_file():
        fail(f"{href} is not a file in {dist}")
    return path


def checked(text, closing, what):
    """`text` for inlining in an element that `closing` ends; refuses text that would end it early."""
    if closing in text.lower() or "<!--" in text:
        fail(f"{what} contains {closing!r} or '<!--' and cannot be inlined as is")
    return text


def inline_link(match, dist):
    """A <link>: style sheets and the icon inlined, preloads dropped, anything else kept."""
    attrs = Attributes(match.group(0)).attrs or {}
    rel = attrs.get("rel", "").lower().split()
    href = attrs.get("href", "")
    if "stylesheet" in rel:
        css = checked(asset(dist, href).read_text(encoding="utf-8"), "</style", href)
        if re.search(r"url\(\s*['\"]?(?!data:)", css):
            fail(f"{href} refers to another file with url(); inline it as a data: URI first")
        return f"<style>{css}</style>"
    if "icon" in rel:
        data = base64.b64encode(asset(dist, href).read_bytes()).decode("ascii")
        return f'<link rel="icon" type="image/svg+xml" href="data:image/svg+xml;base64,{data}">'
    if "modulepreload" in rel or "preload" in rel:
        return ""
    return match.group(0)


def app_script(loader, dist):
    """The module script replacing Trunk's loader: the glue, then init with the inlined wasm."""
    glue_name = GLUE_IMPORT.search(loader)
    wasm_name = WASM_PATH.search(loader)
    if not glue_name or not wasm_name:
        fail("Trunk's loader script does not import the glue and pass module_or_path as expected")
    glue = checked(asset(dist, glue_name.group(1)).read_text(encoding="utf-8"), "</script", glue_name.group(1))
    init = DEFAULT_EXPORT.search(glue)
    if not init:
        fail(f"{glue_name.group(1)} has no default export (wasm-bindgen's init)")
    wasm = base64.b64encode(asset(dist, wasm_name.group(1)).read_bytes()).decode("ascii")
    return (
        f"<script type=module>{glue}\n"
        f'const wasmBytes = Uint8Array.from(atob("{wasm}"), (c) => c.charCodeAt(0));\n'
        f"await {init.group(1)}({{ module_or_path: wasmBytes }});\n"
        "</script>"
    )


def single_page(dist):
    page = (dist / "index.html").read_text(encoding="utf-8")
    loaders = [m for m in SCRIPT.finditer(page) if GLUE_IMPORT.search(m.group(1))]
    if len(loaders) != 1:
        fail(f"expected one loader script in {dist / 'index.html'}, found {len(loaders)}")
    loader = loaders[0]
    script = app_script(loader.group(1), dist)
    page = page[: loader.start()] + "\0SCRIPT\0" + page[loader.end():]
    page = LINK.sub(lambda m: inline_link(m, dist), page)
    page = page.replace("\0SCRIPT\0", script)
    page, added = re.subn(r"(<meta charset=[^>]*>)", r"\1" + NO_WORKER, page, count=1, flags=re.IGNORECASE)
    if not added:
        fail("index.html has no <meta charset> to put the no-worker marker after")
    left = re.findall(r"""(?:src|href)=["']?\./[^\s"'>]+""", page)
    if left:
        fail(f"still refers to files: {', '.join(html.unescape(x) for x in left)}")
    return csp.with_policy(page, csp.policy_text(csp.with_hashes(SINGLE_POLICY, page)))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    dist, out = Path(sys.argv[1]), Path(sys.argv[2])
    page = single_page(dist)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    print(f"single: {out} {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
