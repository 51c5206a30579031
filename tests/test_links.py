"""Every link of the README and the docs pages leads somewhere: the file exists, and so does the anchor.

The docs site's build checks its own pages' links too, but it cannot see the README, and it
runs only with the docs extra; this reads the markdown itself, so a renamed heading or a moved
file fails here in a second, README included. Links leave nothing out of the repository (the
team's rule): a link with a scheme (``https:``) or an absolute path fails.

Anchors are the ids the two renderers give headings: the docs site's (Python-Markdown's
``toc``: ASCII, punctuation dropped, runs of spaces and hyphens made one hyphen, ``_1`` after a
repeated heading) and GitHub's for the README and the pages it links to (punctuation dropped, every
space a hyphen, ``-1`` after a repeated heading), plus ids set by hand (``{#id}``, ``<a id="...">``). A docs page
may link only to pages of the site (a file outside ``docs/`` is not served); the README to any
file of the repository.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
#: [text](target) and ![alt](target); the target ends at a space (a title follows) or the closing bracket
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HTML_LINK = re.compile(r"""<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
HAND_ID = re.compile(r"""\{[^}]*#([\w-]+)[^}]*\}\s*$|<a\b[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["']""")


@dataclass(frozen=True)
class Link:
    page: Path
    line: int
    target: str

    def __str__(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}: {self.target}"


def prose_lines(page: Path) -> list[tuple[int, str]]:
    """(line number, text) of a page's prose: fenced and indented code left out, inline code blanked."""
    out: list[tuple[int, str]] = []
    fenced, previous_blank = False, True
    for number, line in enumerate(page.read_text().splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        indented_code = previous_blank and line.startswith("    ") and not line.lstrip().startswith(("-", "*", "|"))
        previous_blank = not line.strip() or (previous_blank and indented_code)
        if fenced or indented_code:
            continue
        out.append((number, INLINE_CODE.sub("``", line)))
    return out


def links_of(page: Path) -> list[Link]:
    found = []
    for number, line in prose_lines(page):
        for pattern in (INLINE_LINK, REFERENCE_DEFINITION, HTML_LINK):
            found += [Link(page, number, match.group(1)) for match in pattern.finditer(line)]
    return found


def heading_text(raw: str) -> str:
    """A heading as the renderers see its text: links as their words, emphasis and code marks gone."""
    text = re.sub(r"\s*\{[^}]*\}\s*$", "", raw)  # attr_list's {#id .class}
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    return text.replace("`", "").replace("**", "").replace("__", "")


def site_slug(text: str) -> str:
    """Python-Markdown toc's default slugify (what the docs site's anchors are)."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def github_slug(text: str) -> str:
    """GitHub's heading anchor (what the README's anchors are on the repository's page)."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


@cache
def anchors_of(page: Path, github: bool) -> frozenset[str]:
    """Every id a link may name on ``page``: its headings' (as the site, or GitHub, makes them) and hand-set ones."""
    slug, joiner = (github_slug, "-") if github else (site_slug, "_")
    seen: dict[str, int] = {}
    ids: set[str] = set()
    fenced = False
    for line in page.read_text().splitlines():
        if FENCE.match(line):
            fenced = not fenced
        if fenced:
            continue
        heading = HEADING.match(line)
        if heading:
            base = slug(heading_text(heading.group(2)))
            count = seen.get(base, 0)
            seen[base] = count + 1
            ids.add(base if count == 0 else f"{base}{joiner}{count}")
        ids.update(a or b for a, b in HAND_ID.findall(line))
    return frozenset(ids)


def is_api_page(page: Path) -> bool:
    """A page the API reference fills from docstrings (``::: module``): its anchors are objects' dotted names."""
    return any(line.startswith(":::") for line in page.read_text().splitlines())


def problem(link: Link) -> str | None:
    """What is wrong with ``link``, or None."""
    target = link.target
    if "://" in target or target.startswith(("mailto:", "/")):
        return "points outside the repository"
    path_part, _, anchor = target.partition("#")
    destination = (link.page.parent / path_part).resolve() if path_part else link.page
    if not destination.exists():
        return "no such file"
    in_docs = link.page.is_relative_to(DOCS)
    if in_docs and not destination.is_relative_to(DOCS):
        return "a docs page may link only to files under docs/ (nothing else is on the site)"
    if not destination.is_relative_to(ROOT):
        return "leaves the repository"
    if not anchor or destination.suffix != ".md":
        return None
    if is_api_page(destination):
        return None if re.fullmatch(r"[\w.]+", anchor) else "not an object's name on an API page"
    # the README is read on GitHub, so are the docs pages it links to; the docs pages' links are read on the site
    from_readme, to_readme = link.page == ROOT / "README.md", destination == ROOT / "README.md"
    renderers = [True] if to_readme else [False, True] if from_readme else [False]
    missing = [github for github in renderers if anchor not in anchors_of(destination, github)]
    if missing:
        where = "on GitHub" if missing[0] else "on the site"
        return f"no heading or id {anchor!r} in {destination.relative_to(ROOT)} ({where})"
    return None


LINKS = [link for page in PAGES for link in links_of(page)]


def test_the_pages_have_links_to_check() -> None:
    assert len(LINKS) > 100
    assert any("#" in link.target for link in LINKS if link.page.name == "README.md")


def test_every_link_of_the_readme_and_the_docs_leads_somewhere() -> None:
    broken = [f"{link}: {why}" for link in LINKS if (why := problem(link)) is not None]
    assert not broken, "broken links:\n" + "\n".join(broken)


@pytest.mark.parametrize(
    ("heading", "site", "github"),
    [
        ("The moon on `minnesota`: an engine fix and match-aware calls",
         "the-moon-on-minnesota-an-engine-fix-and-match-aware-calls",
         "the-moon-on-minnesota-an-engine-fix-and-match-aware-calls"),
        ("A card head for `ten_point` (shipped 2026-12-04)",
         "a-card-head-for-ten_point-shipped-2026-12-04", "a-card-head-for-ten_point-shipped-2026-12-04"),
        ("Install -- and run", "install-and-run", "install----and-run"),
        ("[Agents](agents.md) and **speed**", "agents-and-speed", "agents-and-speed"),
    ],
)  # fmt: skip
def test_anchors_are_made_as_the_renderers_make_them(heading: str, site: str, github: str) -> None:
    assert site_slug(heading_text(heading)) == site
    assert github_slug(heading_text(heading)) == github


def test_a_broken_file_anchor_or_outside_link_is_caught(tmp_path: Path) -> None:
    page = DOCS / "index.md"
    assert problem(Link(page, 1, "getting-started.md")) is None
    assert problem(Link(page, 1, "getting-started.md#install")) is None
    assert "no heading" in str(problem(Link(page, 1, "getting-started.md#no-such-heading")))
    assert problem(Link(page, 1, "no-such-page.md")) == "no such file"
    assert "outside" in str(problem(Link(page, 1, "https://example.com/")))
    assert "only to files under docs/" in str(problem(Link(page, 1, "../README.md")))


def test_code_is_not_read_for_links(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\nSee [a](missing.md) and `[b](in-code.md)`.\n\n```\n[c](in-fence.md)\n```\n\n"
        '    [d](indented.md)\n\nText [e](other.md#x "title").\n'
    )
    assert [link.target for link in links_of(page)] == ["missing.md", "other.md#x"]
