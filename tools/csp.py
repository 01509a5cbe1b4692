#!/usr/bin/env python3
"""Writes the page's Content-Security-Policy into a built index.html as <meta http-equiv>.

Usage: tools/csp.py [PAGE]   (PAGE defaults to $TRUNK_STAGING_DIR/index.html)

Run by Trunk as a post_build hook (Trunk.toml), after Trunk has written and minified index.html and
before it moves the build into dist/. Trunk's module loader stays an inline <script>, so the policy
allows exactly that script by its sha256 hash, computed here from the built text; the hash changes
with every build because the loader names the hashed glue and wasm files. A meta policy travels with
the file, so static hosts that set no headers still enforce it. tools/single.py imports this module to
write the one-file build's own policy. Python 3 standard library only.
"""

import base64
import hashlib
import os
import re
import sys
from pathlib import Path

META = re.compile(r"<meta\s+http-equiv=[\"']?content-security-policy[\"']?[^>]*>", re.IGNORECASE)
CHARSET = re.compile(r"<meta\s+charset=[^>]*>", re.IGNORECASE)
INLINE_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.IGNORECASE | re.DOTALL)
INLINE_STYLE = re.compile(r"<style\b[^>]*>(.*?)</style\s*>", re.IGNORECASE | re.DOTALL)
HAS_SRC = re.compile(r"(?:^|\s)src\s*=", re.IGNORECASE)
# An inline event handler (onerror=, onclick=...) cannot be allowed by a hash without 'unsafe-hashes'.
HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.IGNORECASE)

# The site (dist/): everything from its own origin, nothing inline but the hashed loader. Images are
# the favicon only (PNG exports are Blob downloads, not images the page loads); styles are the linked
# sheets (Leptos sets style: properties through the CSSOM, which style-src does not govern).
SITE = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
}


def fail(message):
    sys.exit(f"csp: {message}")


def sha256_source(text):
    """The CSP hash source of an inline element's text, as the browser hashes it (UTF-8, LF lines)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def inline_scripts(page):
    """The text of every <script> without src (the ones a policy must allow by hash)."""
    return [m.group(2) for m in INLINE_SCRIPT.finditer(page) if not HAS_SRC.search(m.group(1))]


def inline_styles(page):
    """The text of every <style> element."""
    return [m.group(1) for m in INLINE_STYLE.finditer(page)]


def policy_text(directives):
    """`directive source source; ...` in the order given."""
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


def with_hashes(directives, page):
    """The directives plus the hash of each inline script (script-src) and style (style-src) in page."""
    if HANDLER.search(INLINE_SCRIPT.sub("", page)):
        fail("the page has an inline event-handler attribute, which the policy would block")
    out = {name: list(sources) for name, sources in directives.items()}
    out["script-src"] += [sha256_source(s) for s in inline_scripts(page)]
    styles = inline_styles(page)
    if styles:
        out["style-src"] = [s for s in out.get("style-src", []) if s != "'none'"]
        out["style-src"] += [sha256_source(s) for s in styles]
    return out


def with_policy(page, policy):
    """The page with its CSP meta (any old one removed) first after <meta charset>, before any script."""
    if '"' in policy:
        fail("a policy with a double quote cannot go in the meta's attribute")
    page = META.sub("", page)
    tag = f'<meta http-equiv=Content-Security-Policy content="{policy}">'
    page, added = CHARSET.subn(lambda m: m.group(0) + tag, page, count=1)
    if not added:
        fail("the page has no <meta charset> to put the policy after")
    first_script = page.lower().find("<script")
    if first_script != -1 and first_script < page.find(tag):
        fail("a script comes before <meta charset>; the policy would not cover it")
    return page


def main():
    if len(sys.argv) > 2:
        sys.exit(__doc__)
    if len(sys.argv) == 2:
        page_path = Path(sys.argv[1])
    elif os.environ.get("TRUNK_STAGING_DIR"):
        page_path = Path(os.environ["TRUNK_STAGING_DIR"]) / "index.html"
    else:
        sys.exit(__doc__)
    page = page_path.read_text(encoding="utf-8")
    if not inline_scripts(page):
        fail(f"{page_path} has no inline script: has Trunk's loader changed?")
    policy = policy_text(with_hashes(SITE, page))
    page_path.write_text(with_policy(page, policy), encoding="utf-8")
    print(f"csp: {page_path}: {policy}")


if __name__ == "__main__":
    main()
