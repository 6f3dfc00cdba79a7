"""Each page's modules bundled into one file, so a phone asks for one script instead of fifty.

A phone on a 150 ms link loads the lobby's fifty modules six at a time (a browser's
connections to one host): the module lists (``server/preloads.py``) flatten the import depth,
not the count. esbuild (from npm, pinned in ``package.json`` and ``package-lock.json``) bundles
each page's entry module with everything it imports into ``web/bundle/<entry path>``;
``make bundle`` runs it. The bundles are kept in the repository, so a machine without Node
serves them too.

``web/bundle/sources.json`` records the sha256 of every module a bundle was made from. A page
is served with its bundle only while each of those modules is unchanged (``Bundles.fresh``):
after an edit to a module, the page loads the modules themselves until the bundle is made
again, so a stale bundle never runs; ``tests/server/test_bundle.py`` fails while one is stale,
so main never carries one.

Run: ``python -m cardroom.server.bundle --write`` (``make bundle``), or ``--check``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardroom.server.preloads import SCRIPT, page_url, pages, resolve

WEB = Path(__file__).resolve().parents[1] / "web"
FOLDER = "bundle"
MANIFEST = "sources.json"
REPOSITORY = Path(__file__).resolve().parents[3]
ESBUILD = REPOSITORY / "node_modules" / "esbuild"
SCRIPT_FILE = REPOSITORY / "scripts" / "bundle.mjs"
OPTIONS = {"format": "esm", "minify": True, "target": "es2022", "charset": "utf8"}
"""How every bundle is made: ES modules (the top-level await of ``js/i18n.js`` stays), for the
browsers the client supports (2022 on), minified; the sources' words stay readable (utf8)."""


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def entries(web: Path = WEB) -> list[str]:
    """The URL path of every page's entry module (``/js/main.js``, ``/keeper/keeper.js`` …)."""
    found = [
        resolve(page_url(page), src)
        for page in pages()
        for src in SCRIPT.findall(page.read_text(encoding="utf-8"))
    ]
    return sorted(dict.fromkeys(found))


def bundle_url(entry: str) -> str:
    return f"/{FOLDER}{entry}"


def esbuild_version() -> str:
    """The installed esbuild's version (``npm ci`` installs the one ``package-lock.json`` pins)."""
    try:
        package = json.loads((ESBUILD / "package.json").read_text(encoding="utf-8"))
    except OSError:
        sys.exit(f"no esbuild in {ESBUILD.parent}: run `make bundle` (npm ci installs it)")
    return str(package["version"])


def write(web: Path = WEB) -> dict[str, Any]:
    """Bundle every page's entry module and record what each bundle was made from."""
    version = esbuild_version()
    wanted = entries(web)
    with tempfile.TemporaryDirectory() as scratch:
        out, meta = Path(scratch) / FOLDER, Path(scratch) / "meta.json"
        subprocess.run(
            [
                "node",
                str(SCRIPT_FILE),
                str(web),
                str(out),
                str(meta),
                json.dumps(OPTIONS),
                *(entry.lstrip("/") for entry in wanted),
            ],
            cwd=REPOSITORY,
            check=True,
        )
        outputs = json.loads(meta.read_text(encoding="utf-8"))["outputs"]
        bundles: dict[str, Any] = {}
        for output, facts in outputs.items():
            entry = "/" + facts["entryPoint"]
            sources = sorted("/" + source for source in facts["inputs"])
            made = web / output
            bundles[entry] = {
                "file": bundle_url(entry),
                "sha256": sha256(made),
                "sources": {source: sha256(web / source.lstrip("/")) for source in sources},
            }
        target = web / FOLDER
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(out, target)
    manifest = {"esbuild": version, "options": OPTIONS, "bundles": bundles}
    text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    (web / FOLDER / MANIFEST).write_text(text, encoding="utf-8")
    return manifest


@dataclass
class Bundles:
    """Which pages are served with their bundle: those whose every source is unchanged.

    Each request for a page stats the bundle's sources (fifty ``stat`` calls, well under a
    millisecond); a file is hashed again only when its size or modification time moved."""

    web: Path
    _hashes: dict[Path, tuple[int, int, str]] = field(default_factory=dict)
    _manifest: tuple[int, dict[str, dict[str, object]]] | None = None

    def manifest(self) -> dict[str, dict[str, object]]:
        path = self.web / FOLDER / MANIFEST
        try:
            stamp = path.stat().st_mtime_ns
        except OSError:
            return {}
        if self._manifest is None or self._manifest[0] != stamp:
            try:
                bundles = json.loads(path.read_text(encoding="utf-8")).get("bundles", {})
            except (OSError, ValueError, AttributeError):
                bundles = {}
            self._manifest = (stamp, bundles if isinstance(bundles, dict) else {})
        return self._manifest[1]

    def _sha(self, path: Path) -> str | None:
        try:
            status = path.stat()
        except OSError:
            return None
        known = self._hashes.get(path)
        if known and known[:2] == (status.st_mtime_ns, status.st_size):
            return known[2]
        digest = sha256(path)
        self._hashes[path] = (status.st_mtime_ns, status.st_size, digest)
        return digest

    def fresh(self, entry: str) -> str | None:
        """The URL of ``entry``'s bundle if it was made from the modules there now, else
        None (the page loads the modules themselves)."""
        bundle = self.manifest().get(entry)
        if not isinstance(bundle, dict):
            return None
        file, sources = bundle.get("file"), bundle.get("sources")
        if not isinstance(file, str) or not isinstance(sources, dict) or not sources:
            return None
        if self._sha(self.web / file.lstrip("/")) != bundle.get("sha256"):
            return None
        for source, digest in sources.items():
            if self._sha(self.web / str(source).lstrip("/")) != digest:
                return None
        return file

    def stale(self) -> list[str]:
        """The entries whose bundle is missing or was made from other modules."""
        return [entry for entry in entries(self.web) if self.fresh(entry) is None]


def main(argv: Sequence[str]) -> int:
    if "--write" in argv:
        manifest = write()
        for bundle in sorted(manifest["bundles"].values(), key=lambda b: b["file"]):
            size = (WEB / bundle["file"].lstrip("/")).stat().st_size
            print(f"{bundle['file']}: {len(bundle['sources'])} modules, {size:,} bytes")
        return 0
    stale = Bundles(WEB).stale()
    for entry in stale:
        print(f"stale: {bundle_url(entry)} (run make bundle)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
