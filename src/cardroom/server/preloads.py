"""Each page of the web client names every module it will import, so a browser asks for them
all at once (``<link rel="modulepreload">``) instead of finding them import by import: the
lobby's fifty modules are eight imports deep, eight round trips on a phone's 150 ms link.

The lists are written into the pages, between two marks, by
``python -m cardroom.server.preloads --write``; ``tests/server/test_static.py`` fails while a
page's list differs from its modules' imports, so the lists never go stale. Only static
imports count: a module loaded with ``import()`` is loaded when it is needed.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path
from posixpath import dirname, normpath

WEB = Path(__file__).resolve().parents[1] / "web"
BEGIN = "<!-- modules: python -m cardroom.server.preloads --write -->"
END = "<!-- /modules -->"
IMPORT = re.compile(
    r"""(?:^|[;}])\s*(?:import|export)\b[^"';]*?\bfrom\s*["']([^"']+)["']"""
    r"""|(?:^|;)\s*import\s*["']([^"']+)["']""",
    re.M,
)
SCRIPT = re.compile(r"""<script type="module" src="([^"]+)"></script>""")
BLOCK = re.compile(r"[ \t]*" + re.escape(BEGIN) + r".*?" + re.escape(END) + r"\n?", re.S)


def resolve(base: str, spec: str) -> str:
    """A module's URL path from the URL path of the file that names it."""
    if spec.startswith("/"):
        return normpath(spec)
    return normpath(f"{dirname(base)}/{spec}")


def imports_of(url: str) -> list[str]:
    text = (WEB / url.lstrip("/")).read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)  # a comment may say "import … from"
    return [resolve(url, a or b) for a, b in IMPORT.findall(text)]


def graph(entry: str) -> list[str]:
    """Every module ``entry`` imports, directly or not, nearest first."""
    seen, order, queue = {entry}, [], [entry]
    while queue:
        url = queue.pop(0)
        for module in imports_of(url):
            if module not in seen:
                seen.add(module)
                order.append(module)
                queue.append(module)
    return order


def page_url(page: Path) -> str:
    return "/" + page.relative_to(WEB).as_posix()


def with_preloads(page: Path) -> str:
    """The page's HTML with the list of its modules brought up to date."""
    html = page.read_text(encoding="utf-8")
    entries = [resolve(page_url(page), src) for src in SCRIPT.findall(html)]
    modules = [m for entry in entries for m in graph(entry) if m not in entries]
    modules = list(dict.fromkeys(modules))
    html = BLOCK.sub("", html)
    if not modules:
        return html
    links = "".join(f'  <link rel="modulepreload" href="{m}">\n' for m in modules)
    block = f"  {BEGIN}\n{links}  {END}\n"
    return html.replace("</head>", block + "</head>", 1)


def pages() -> list[Path]:
    return sorted(p for p in WEB.rglob("*.html") if SCRIPT.search(p.read_text(encoding="utf-8")))


def main(argv: Sequence[str]) -> int:
    stale = []
    for page in pages():
        wanted = with_preloads(page)
        if wanted != page.read_text(encoding="utf-8"):
            stale.append(page)
            if "--write" in argv:
                page.write_text(wanted, encoding="utf-8")
    for page in stale:
        verb = "wrote" if "--write" in argv else "stale"
        print(f"{verb}: {page.relative_to(WEB)}")
    return 1 if stale and "--write" not in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
