"""The docs keep their shape: a short map, decision records, links that resolve (issue 29).

``docs/architecture.md`` is a map a newcomer reads in one sitting, so it has a
line budget; the reasons behind decisions live in ``docs/decisions/``, one
record each in the Context / Decision / Consequences shape, every one listed
in the index; and a link between pages that no longer leads anywhere is
caught here rather than by a reader.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
DECISIONS = DOCS / "decisions"
MAP_MAX_LINES = 400
RECORD_NAME = re.compile(r"^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$")
SECTIONS = ("## Context", "## Decision", "## Consequences")
# [text](target): inline Markdown links; images too, by the same rule.
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def records() -> list[Path]:
    """The decision records (every file but the index)."""
    return sorted(p for p in DECISIONS.glob("*.md") if p.name != "README.md")


def prose(text: str) -> str:
    """The text outside fenced code blocks, where Markdown links are links."""
    kept, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            kept.append(line)
    return "\n".join(kept)


def links(text: str) -> list[str]:
    return LINK.findall(prose(text))


def is_relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE)


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces to '-'."""
    found: set[str] = set()
    for line in prose(page.read_text(encoding="utf-8")).splitlines():
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            title = match.group(1).lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """Relative links of ``page`` whose file (or heading anchor, in a Markdown page) is missing."""
    broken = []
    for target in links(page.read_text(encoding="utf-8")):
        if not is_relative(target):
            continue
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        if not dest.exists():
            broken.append(f"{page.relative_to(root)}: {target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{page.relative_to(root)}: {target} (no such heading)")
    return broken


def test_architecture_is_a_map_within_its_line_budget() -> None:
    lines = (DOCS / "architecture.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAP_MAX_LINES, (
        f"docs/architecture.md has {len(lines)} lines; a map has at most {MAP_MAX_LINES}: "
        "move reasons to docs/decisions/ and reference to docs/operating.md"
    )


def test_decision_records_are_numbered_from_one_without_gaps() -> None:
    names = [p.name for p in records()]
    assert names, "docs/decisions/ holds no record"
    bad = [name for name in names if not RECORD_NAME.match(name)]
    assert bad == [], "records are named NNNN-short-name.md"
    numbers = [int(RECORD_NAME.match(name).group(1)) for name in names]
    assert numbers == list(range(1, len(numbers) + 1))


def test_every_decision_record_has_its_title_and_three_sections_in_order() -> None:
    problems = []
    for record in records():
        text = record.read_text(encoding="utf-8")
        number = record.name[:4]
        if not text.startswith(f"# {number}. "):
            problems.append(f"{record.name}: first line is not '# {number}. <title>'")
        headings = [line.strip() for line in prose(text).splitlines() if line.startswith("## ")]
        if [h for h in headings if h in SECTIONS] != list(SECTIONS):
            problems.append(f"{record.name}: sections {headings}, expected {list(SECTIONS)}")
    assert problems == []


def test_every_decision_record_is_linked_from_the_index() -> None:
    index = DECISIONS / "README.md"
    linked = {target.partition("#")[0] for target in links(index.read_text(encoding="utf-8"))}
    missing = [p.name for p in records() if p.name not in linked]
    assert missing == [], "add these records to docs/decisions/README.md"


def test_every_relative_link_in_the_docs_resolves() -> None:
    pages = sorted(DOCS.rglob("*.md"))
    assert DOCS / "architecture.md" in pages and DOCS / "operating.md" in pages
    broken = [line for page in pages for line in broken_links(page)]
    assert broken == []


def test_the_link_check_catches_a_missing_file_and_heading(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## Two modes\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md) [ok](other.md#two-modes) [web](https://example.org/x.md)\n"
        "[gone](missing.md) [no heading](other.md#three-modes)\n"
        "```\n[in code](ignored.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page, root=tmp_path) == [
        "page.md: missing.md (no such file)",
        "page.md: other.md#three-modes (no such heading)",
    ]
