"""Every reference to a file, an anchor, a section or a rule resolves inside the repository.

The project cites its rule book everywhere: ``RULES.md``, ``RULES.md §8``,
``rules.html#r25``, ``R25.1`` in messages and comments, and its documents link each
other (``docs/variants.md``, ``CHANGELOG.md``).  A reference that names a file which
is not in the repository, an anchor or a section the file does not have, or a rule ID
the rule book does not define is a dead end for a reader: this test finds them all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulebook import ROOT, RULE_ID, anchors, rule_items, sections, unknown_rule_ids

_SKIP_DIRS = frozenset(
    {".git", ".venv", "_build", ".hypothesis", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
    | {"__pycache__", "node_modules", "dist", "build", "htmlcov", ".tox", ".nox"}
)
_TEXT = frozenset({".md", ".py", ".txt", ".toml", ".cfg", ".ini", ".rst", ".html", ".js"})
_TEXT |= frozenset({".css", ".json", ".yml", ".yaml", ".sh", ".svg", ""})
_THIS_FILE = Path(__file__).resolve()
_URL = re.compile(r"\b[a-z][a-z+.-]*://\S+")
_FILE_REF = re.compile(
    r"(?<![\w/.@-])((?:\.\.?/)*(?:[\w-]+/)*[\w-][\w.-]*\.(?:md|html))(?:#([\w.-]+))?(?![\w/-])"
)
_SECTION_REF = re.compile(r"§\s?(\d+)")
_HEADING = re.compile(r"^#{1,6} +(.+?) *$", re.M)
_MYST_TARGET = re.compile(r"^\(([\w.-]+)\)=$", re.M)
_INCLUDE = re.compile(r"^```\{include\} +(\S+)", re.M)


def text_files(root: Path) -> Iterator[Path]:
    """The repository's text files: sources, tests, docs, examples, configuration.

    This file is left out: its examples of broken references are broken on purpose.
    """
    for path in sorted(root.rglob("*")):
        if path == _THIS_FILE or path.name.startswith(".coverage"):
            continue  # coverage's data files are SQLite databases, not text
        parts = path.relative_to(root).parts
        if any(part in _SKIP_DIRS or part.endswith(".egg-info") for part in parts):
            continue
        if path.is_file() and path.suffix in _TEXT and path.stat().st_size < 2_000_000:
            yield path


def _slugs(heading: str) -> set[str]:
    """The anchors a heading gets on a code host and in the docs (with or without its number)."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    slug = re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", text))
    return {slug, re.sub(r"^\d+-", "", slug)}


def anchors_of(path: Path) -> set[str]:
    """Anchors a link may point at in a Markdown file (its includes' anchors too)."""
    text = path.read_text(encoding="utf-8")
    found = set(anchors(text)) | set(_MYST_TARGET.findall(text))
    for heading in _HEADING.findall(text):
        found |= _slugs(heading)
    for include in _INCLUDE.findall(text):
        included = (path.parent / include).resolve()
        if included.is_file():
            found |= anchors_of(included)
    return found


def _target(root: Path, source: Path, ref: str, files: list[str]) -> Path | None:
    """The file a reference names.

    Relative to the citing file, the root or the docs; a ``.html`` name is also a page
    of the documentation site (its source page under ``docs/``).  Failing those, any
    file of the repository whose path ends with the name (``page.html`` in an assets
    folder of a package), so that only a name no file has is reported.
    """
    candidates = [source.parent / ref, root / ref, root / "docs" / ref]
    if ref.endswith(".html"):
        page = ref.removesuffix(".html").lstrip("./") + ".md"
        candidates = [root / "docs" / page, source.parent / page, *candidates]
    found = next((c for c in candidates if c.is_file()), None)
    if found is None:
        tail = "/" + re.sub(r"^(\.\.?/)+", "", ref)
        found = next((root / f for f in files if ("/" + f).endswith(tail)), None)
    return found


def broken_references(root: Path) -> list[str]:
    """Every reference under ``root`` that does not resolve, as ``path:line: what``."""
    rule_book = root / "RULES.md"
    rule_text = rule_book.read_text(encoding="utf-8") if rule_book.is_file() else ""
    items = rule_items(rule_text)
    numbered = sections(rule_text)
    problems = []
    files = [f.relative_to(root).as_posix() for f in text_files(root)]
    for path in text_files(root):
        where = path.relative_to(root)
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            line = _URL.sub("", line)
            for match in _FILE_REF.finditer(line):
                ref, anchor = match.groups()
                target = _target(root, path, ref, files)
                if target is None:
                    problems.append(f"{where}:{number}: {ref} is not in the repository")
                elif anchor and target.suffix == ".md" and anchor not in anchors_of(target):
                    problems.append(f"{where}:{number}: {ref} has no anchor #{anchor}")
            for match in _SECTION_REF.finditer(line):
                if int(match.group(1)) not in numbered:
                    problems.append(f"{where}:{number}: RULES.md has no §{match.group(1)}")
            for unknown in unknown_rule_ids(line, items):
                problems.append(f"{where}:{number}: {unknown} is not a rule of RULES.md")
    return problems


def test_the_rule_book_is_in_the_repository() -> None:
    assert set(rule_items()) == {f"R{n}" for n in range(1, 36)}
    assert sections() == set(range(1, 10))
    assert {"variants-table", "decisions"} <= anchors()
    assert rule_items()["R21"] == 6  # R21.1 … R21.6
    assert rule_items()["R25"] == 4


def test_every_reference_in_the_repository_resolves() -> None:
    assert broken_references(ROOT) == []


def test_docs_rules_page_shows_the_rule_book() -> None:
    page = ROOT / "docs" / "rules.md"
    assert "```{include} ../RULES.md" in page.read_text(encoding="utf-8")
    assert {f"r{n}" for n in range(1, 36)} <= anchors_of(page)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("See " + "MISSING" + ".md for more.", "MISSING" + ".md is not in the repository"),
        ("`docs/" + "nowhere.md`", "docs/nowhere.md is not in the repository"),
        ("[why](rules.html#" + "r99)", "rules.html has no anchor #r99"),
        ("RULES.md " + "§12", "RULES.md has no §12"),
        ("# " + "R36: no such rule", "R36 is not a rule"),
        ("raise IllegalActionError('" + "R21.7: …')", "R21.7 is not a rule"),
        ("see " + "DESIGN" + ".md", "DESIGN" + ".md is not in the repository"),
    ],
)
def test_the_check_finds_a_broken_reference(tmp_path: Path, text: str, problem: str) -> None:
    (tmp_path / "RULES.md").write_text(
        '## 1. One\n\n<a id="r21"></a>**R21** items:\n\n1. a\n2. b\n\n'
        '## 2. Two\n\n<a id="r25"></a>**R25** and [R21](#r21).\n',
        encoding="utf-8",
    )
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text(
        "# Rules\n\n```{include} ../RULES.md\n```\n", encoding="utf-8"
    )
    (tmp_path / "pkg" / "assets").mkdir(parents=True)
    (tmp_path / "pkg" / "assets" / "page.html").write_text("<p>hi</p>\n", encoding="utf-8")
    good = "RULES.md §2, docs/rules.md, rules.html#r25, rules.html#r21, R21.2, R25 and R21\n"
    good += '_asset("page.html")\n'

    (tmp_path / "ok.py").write_text(f'"""{good}"""\n', encoding="utf-8")
    assert broken_references(tmp_path) == []
    (tmp_path / "bad.md").write_text(f"Fine.\n{text}\n", encoding="utf-8")
    found = broken_references(tmp_path)
    assert len(found) == 1, found
    assert found[0].startswith("bad.md:2: ")
    assert problem in found[0]


def test_rule_ids_in_urls_and_words_are_not_rules() -> None:
    assert list(unknown_rule_ids("FR36 R36x R36_a", rule_items())) == []
    assert RULE_ID.search("see R25.1.") is not None
