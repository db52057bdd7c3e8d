"""The docs agree with the code: dependencies, measured figures, options, URLs, version,
and API pages that do not print their lead sentence twice."""

from __future__ import annotations

import importlib
import re
import tomllib
from pathlib import Path

import bohmisch_watten

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five"}
FIGURE = re.compile(r"\d[\d,.]*\s*(?:k\s*)?(?:player\s+)?(?:decisions|samples|calls)/s")


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def test_installation_counts_the_runtime_dependencies() -> None:
    dependencies = PYPROJECT["project"]["dependencies"]
    names = [re.split(r"[<>=!~ ]", d)[0] for d in dependencies]
    text = (DOCS / "installation.md").read_text(encoding="utf-8")
    assert f"has {NUMBERS[len(names)]} runtime dependencies" in text
    for name in names:
        assert f"`{name}`" in text


def test_measured_figures_live_on_one_dated_page() -> None:
    elsewhere = [
        f"{page.relative_to(ROOT)}: {match.group(0)}"
        for page in _pages()
        if page.name not in ("performance.md", "changelog.md")
        for match in FIGURE.finditer(page.read_text(encoding="utf-8"))
    ]
    assert elsewhere == []
    table = (DOCS / "performance.md").read_text(encoding="utf-8")
    rows = [line for line in table.splitlines() if FIGURE.search(line)]
    assert len(rows) >= 3
    assert all(re.search(r"\| 20\d\d-\d\d-\d\d", row) for row in rows)  # every figure dated
    assert "docs/performance.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_search_rollout_random_is_documented() -> None:
    text = (DOCS / "arena.md").read_text(encoding="utf-8")
    assert "search:rollout=random" in text
    assert 'SearchBot(rollout="random")' in text


def test_project_urls() -> None:
    urls = PYPROJECT["project"]["urls"]
    assert {"Documentation", "Changelog", "Issues"} <= set(urls)
    assert all(url.startswith("https://") for url in urls.values())


def test_the_version_is_written_once_and_released_in_the_changelog() -> None:
    assert "version" in PYPROJECT["project"]["dynamic"]
    assert "version" not in PYPROJECT["project"]
    dynamic = PYPROJECT["tool"]["setuptools"]["dynamic"]
    assert dynamic["version"] == {"attr": "bohmisch_watten.__version__"}
    version = bohmisch_watten.__version__
    assert version == "0.2.0"
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", changelog, re.M)
    assert headings[0] == ("Unreleased", "")
    assert headings[1] == (version, "2026-12-01")


def _words(text: str) -> set[str]:
    text = re.sub(r"`+([^`]*)`+", lambda m: m.group(1).rsplit(".", 1)[-1], text)
    return {w for w in re.findall(r"[a-z0-9_]+", text.lower()) if len(w) > 2}


def _lead(text: str) -> str:
    flat = " ".join(text.split())
    match = re.match(r"(.+?\.)(?:\s|$)", flat)
    return match.group(1) if match else flat


def test_api_pages_do_not_print_their_lead_sentence_twice() -> None:
    repeated = []
    for page in sorted((DOCS / "api").glob("*.md")):
        match = re.search(
            r"^# .*?\n\n(.*?)\n\n```\{eval-rst\}\n\.\. automodule:: (\S+)",
            page.read_text(encoding="utf-8"),
            re.S,
        )
        if match is None:
            continue
        intro = _words(_lead(match.group(1)))
        doc = _words(_lead(importlib.import_module(match.group(2)).__doc__ or ""))
        if len(intro) >= 4 and len(intro & doc) / len(intro | doc) > 0.4:
            repeated.append(f"{page.name}: {sorted(intro & doc)}")
    assert repeated == []
