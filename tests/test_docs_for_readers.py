"""The docs as their readers meet them: organised by what the reader is doing, free of
the lab notebook, and true to the code.

- The index offers three paths (UI, bots, learning), each a tutorial, and sorts every
  page into tutorials, how-to guides, reference and explanation.
- Measurements live in ``benchmarks/RESULTS*.md``: the docs keep one short page of
  typical figures, every figure there is on a results page, and few seeds and "±" are
  left in the prose.
- What the docs name exists: the routes under ``serve``, the command line's options,
  the results pages and their sections.
- The changelog keeps Keep a Changelog's shape.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bohmisch_watten.commands import COMMANDS
from bohmisch_watten.commands.cli import build_main_parser, build_parser

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BENCHMARKS = ROOT / "benchmarks"
REPOSITORY = "https://github.com/bohmisch-watten/bohmisch_watten/blob/main/"

FENCE = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", re.M | re.S)
INLINE = re.compile(r"`[^`\n]+`")
SEED = re.compile(r"\bseed(?:s|ed)?\b", re.I)


def _pages() -> list[Path]:
    """Every page of the docs but the changelog, which includes CHANGELOG.md."""
    return [p for p in sorted(DOCS.rglob("*.md")) if p.name != "changelog.md"]


def prose(text: str) -> str:
    """A page without its code: fenced blocks and inline code spans removed."""
    return INLINE.sub("", FENCE.sub("", text))


def _results() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(BENCHMARKS.glob("RESULTS*.md")))


# ------------------------------------------------------------ the way in: three paths


def _toctrees(text: str) -> dict[str, list[str]]:
    trees = re.findall(r"```\{toctree\}\n(.*?)```", text, re.S)
    found = {}
    for tree in trees:
        caption = re.search(r"^:caption: (.+)$", tree, re.M)
        assert caption, "every table of contents of the index has a caption"
        found[caption.group(1)] = [
            line.strip() for line in tree.splitlines() if line.strip() and line[0] != ":"
        ]
    return found


def test_the_index_sorts_the_pages_by_what_the_reader_does() -> None:
    trees = _toctrees((DOCS / "index.md").read_text(encoding="utf-8"))
    assert list(trees) == ["Tutorials", "How-to guides", "Reference", "Explanation"]
    assert trees["Tutorials"][1:] == ["tutorial-ui", "tutorial-bots", "tutorial-learning"]
    assert {"arena", "engines", "server", "review", "variants"} <= set(trees["How-to guides"])
    assert {"rules", "engine-protocol", "adapters/index", "api/index", "command-line"} <= set(
        trees["Reference"]
    )
    assert {"concepts", "phases", "solver", "expert", "performance"} <= set(trees["Explanation"])
    listed = [page for pages in trees.values() for page in pages]
    assert len(listed) == len(set(listed))
    top = {p.stem for p in DOCS.glob("*.md")} - {"index"}
    assert top <= {page.split("/")[0] for page in listed}, "every page has a place"


def test_each_path_is_a_tutorial_that_runs() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for page in ("tutorial-ui", "tutorial-bots", "tutorial-learning"):
        assert f"]({page}.md)" in index
        text = (DOCS / f"{page}.md").read_text(encoding="utf-8")
        assert "```{doctest}" in text  # run by make docs' doctest builder
        assert len(text.splitlines()) < 120  # short


# ------------------------------------------------------------ measurements elsewhere


def test_prose_drops_code() -> None:
    text = "A seed.\n```text\n--seed 3\n```\nTwo `seed=1` seeds ± 1.\n"
    assert len(SEED.findall(prose(text))) == 2
    assert prose(text).count("±") == 1


def test_few_seeds_and_plus_minus_signs_in_the_docs() -> None:
    """Seed lists and error bars belong to the results; 194 and 259 before the move."""
    texts = [prose(p.read_text(encoding="utf-8")) for p in _pages()]
    seeds = sum(len(SEED.findall(text)) for text in texts)
    signs = sum(text.count("±") for text in texts)
    assert seeds <= 25, seeds
    assert signs <= 25, signs


DECIMAL_PERCENT = re.compile(r"(?<![\d.])\d+\.\d+ %")
RATE = re.compile(r"(?<![\d.,])\d[\d,.]*(?: / \d[\d,.]*)* (?:decisions|samples|steps)/s")


def test_figures_quoted_in_the_docs_come_from_the_results() -> None:
    results = _results()
    missing = [
        f"{page.relative_to(ROOT)}: {figure}"
        for page in _pages()
        for pattern in (DECIMAL_PERCENT, RATE)
        for figure in pattern.findall(page.read_text(encoding="utf-8"))
        if figure not in results
    ]
    assert missing == []


def test_the_typical_figures_page_is_dated_and_each_figure_is_on_a_results_page() -> None:
    page = (DOCS / "performance.md").read_text(encoding="utf-8")
    assert page.startswith("# Typical figures\n")
    rows = [line for line in page.splitlines() if line.startswith("| ") and "---" not in line]
    results = _results()
    for row in rows[1:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert re.fullmatch(r"20\d\d-\d\d-\d\d", cells[2]), row  # every figure dated
        for figure in re.findall(r"\d[\d,.]*(?: / \d[\d,.]*)*(?: ?(?:%|ms|s\b))?", cells[1]):
            assert figure in results, f"{figure!r} of {cells[0]!r} is on no results page"
    assert len(rows) <= 20  # one short page
    assert len(page.splitlines()) < 60


def test_the_expert_page_keeps_one_small_table() -> None:
    page = (DOCS / "expert.md").read_text(encoding="utf-8")
    tables = re.findall(r"(?:^\|.*\n)+", page, re.M)
    assert len(tables) == 1
    assert len(tables[0].splitlines()) <= 8
    results = _results()
    for figure in re.findall(r"\d[\d,.]* ?(?:%|ms)", tables[0]):
        assert figure in results, figure


def test_the_results_pages_are_out_of_the_docs_and_say_how_each_figure_was_made() -> None:
    pages = sorted(BENCHMARKS.glob("RESULTS*.md"))
    assert len(pages) >= 4
    for path in pages:
        text = path.read_text(encoding="utf-8")
        assert re.search(r"20\d\d-\d\d-\d\d", text), f"{path.name} is dated"
        assert "python " in text or "benchmarks/" in text, f"{path.name} gives commands"
    assert not (DOCS / ("strength" + ".md")).exists()  # moved to RESULTS-expert.md


def test_links_to_the_repository_resolve() -> None:
    """Links from the docs to the results pages (outside the site) name real files and
    sections."""
    from test_references import anchors_of

    links = [
        (page, link)
        for page in [*_pages(), ROOT / "README.md"]
        for link in re.findall(re.escape(REPOSITORY) + r"([^\s)>\]]+)", page.read_text("utf-8"))
    ]
    assert links
    for page, link in links:
        path, _, anchor = link.partition("#")
        target = ROOT / path
        assert target.is_file(), f"{page.name} links {path}, which is not in the repository"
        if anchor:
            assert anchor in anchors_of(target), f"{page.name} links {link}: no such section"


# ------------------------------------------------------------ what the docs name exists


def _server_routes(tmp_path: Path) -> set[tuple[str, str]]:
    pytest.importorskip("starlette")
    from starlette.routing import Route, WebSocketRoute

    from bohmisch_watten.web.backends import open_storage
    from bohmisch_watten.web.server import create_server

    app = create_server(open_storage(str(tmp_path / "routes.sqlite")))
    routes = set()
    for route in app.routes:
        path = re.sub(r"\{\w+\}", "*", route.path)  # type: ignore[attr-defined]
        if isinstance(route, WebSocketRoute):
            routes.add(("WS", path))
        elif isinstance(route, Route):
            # An API path is one ASGI app answering several methods (its ``Allow`` list).
            allow = getattr(route.endpoint, "allow", "")
            methods = route.methods or {m.strip() for m in allow.split(",") if m.strip()}
            routes |= {(method, path) for method in methods}
    return routes


def _named_routes() -> set[tuple[str, str, str]]:
    """Every ``GET /path`` (and POST, WS) the docs name, ids and tokens as ``*``."""
    found = set()
    for page in [*_pages(), ROOT / "README.md"]:
        for method, path in re.findall(r"\b(GET|POST|WS) (/[\w/{}.-]*)", page.read_text("utf-8")):
            pattern = "/".join(
                "*" if re.fullmatch(r"\{\w+\}|[A-Z]+", part) else part for part in path.split("/")
            )
            found.add((page.name, method, pattern.rstrip(".") or "/"))
    return found


def test_the_routes_the_docs_name_exist_under_serve(tmp_path: Path) -> None:
    routes = _server_routes(tmp_path)
    assert ("GET", "/api/tables/*/review") in routes
    named = _named_routes()
    assert len(named) >= 8
    missing = sorted(f"{page}: {m} {p}" for page, m, p in named if (m, p) not in routes)
    assert missing == []


def test_the_route_check_finds_a_route_serve_does_not_have(tmp_path: Path) -> None:
    """The old docs' ``GET /record`` and ``GET /review`` are create_app's, not serve's."""
    routes = _server_routes(tmp_path)
    assert ("GET", "/record") not in routes
    assert ("GET", "/review") not in routes


EXTERNAL_OPTIONS = frozenset(
    {"--depth", "--flag", "--names", "--head", "--strict", "--check", "--upgrade", "--quiet"}
)
"""Options of other programs the docs show: an engine's own flag in an example
(``engine:./my-engine --depth 3``), ``ray start --head``, ``mypy --strict``,
``ruff format --check``, ``pip install --upgrade --quiet``."""


def _cli_options() -> dict[str, set[str]]:
    options = {
        name: {o for a in build_parser(name)._actions for o in a.option_strings}
        for name in COMMANDS
    }
    options[""] = {o for a in build_main_parser()._actions for o in a.option_strings}
    return options


def test_options_named_in_the_docs_exist() -> None:
    options = _cli_options()
    scripts = set()
    tools = [*BENCHMARKS.glob("*.py"), *(ROOT / "examples").rglob("*.py")]
    for script in [*tools, ROOT / "tests" / "rule_selection.py"]:  # pytest --rule
        scripts |= set(re.findall(r'"(--[\w-]+)"', script.read_text(encoding="utf-8")))
    known = set().union(*options.values()) | scripts | EXTERNAL_OPTIONS
    unknown = sorted(
        f"{page.relative_to(ROOT)}: {option}"
        for page in [*_pages(), ROOT / "README.md"]
        for option in re.findall(r"(?<![\w-])(--[a-z][\w-]*)", page.read_text("utf-8"))
        if option not in known
    )
    assert unknown == []


def _command_lines(text: str) -> list[tuple[str, str]]:
    """``(subcommand, rest of the command)`` for each command line of the docs."""
    text = text.replace("\\\n", " ")
    found = []
    for line in text.splitlines():
        for match in re.finditer(r"(?:bohmisch_watten|bohmisch-watten) +([a-z]+)\b([^`|]*)", line):
            if match.group(1) in COMMANDS:
                found.append((match.group(1), match.group(2)))
    return found


def test_a_commands_options_are_its_own() -> None:
    """``review --bots`` would be an error: each option belongs to the subcommand named."""
    options = _cli_options()
    wrong = []
    lines = 0
    for page in [*_pages(), ROOT / "README.md"]:
        for command, rest in _command_lines(page.read_text(encoding="utf-8")):
            lines += 1
            for option in re.findall(r"(?<![\w-])(--[a-z][\w-]*)", rest.split(" engine:")[0]):
                if option not in options[command] | EXTERNAL_OPTIONS:
                    wrong.append(f"{page.name}: {command} {option}")
    assert lines >= 15
    assert wrong == []
    assert _command_lines("python -m bohmisch_watten review g.txt --bots x") == [
        ("review", " g.txt --bots x")
    ]


# ------------------------------------------------------------------------- README


def test_the_readme_shows_the_way_into_the_docs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Where to go next", 1)[1].split("\n## ", 1)[0]
    assert "docs/index.md" in section
    for page in ("tutorial-ui", "tutorial-bots", "tutorial-learning"):
        assert f"docs/{page}.md" in section
    assert "_sampling" not in readme  # nothing internal


# ---------------------------------------------------------------------- CHANGELOG

TYPES = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")
"""Keep a Changelog 1.1's types of change, in its order."""


VERSION = re.compile(r"## \[(Unreleased|\d+\.\d+\.\d+)\](?: - (\d{4}-\d\d-\d\d))?")
"""A version's heading: ``## [Unreleased]`` or ``## [0.2.0] - 2026-12-01``."""


def changelog_problems(text: str) -> list[str]:
    """What breaks Keep a Changelog 1.1's shape: headings, versions, their order."""
    problems = []
    lines = text.splitlines()
    if not lines or lines[0] != "# Changelog":
        problems.append("the first line is '# Changelog'")
    versions: list[str] = []
    types: list[str] = []
    for number, line in enumerate(lines, 1):
        if not line.startswith("#"):
            continue
        if line.startswith("## "):
            match = VERSION.fullmatch(line)
            if match is None or (match.group(1) == "Unreleased") == bool(match.group(2)):
                problems.append(f"line {number}: {line!r} is no version heading")
                continue
            versions.append(match.group(1))
            types = []
        elif line.startswith("### "):
            kind = line[4:]
            if kind not in TYPES:
                problems.append(f"line {number}: {kind!r} is not a type of change")
            elif types and TYPES.index(kind) <= TYPES.index(types[-1]):
                problems.append(f"line {number}: {kind!r} out of order or repeated")
            types.append(kind)
            if not versions:
                problems.append(f"line {number}: {kind!r} under no version")
        elif line != "# Changelog":
            problems.append(f"line {number}: {line!r}")
    released = [tuple(int(n) for n in v.split(".")) for v in versions if v != "Unreleased"]
    if released != sorted(released, reverse=True) or versions[:1] != ["Unreleased"]:
        problems.append("versions run from [Unreleased] down, newest first")
    for version in versions:
        if not re.search(rf"^\[{re.escape(version)}\]: https://", text, re.M):
            problems.append(f"no link for [{version}]")
    return problems


def _section(text: str, version: str) -> str:
    start = text.index(f"## [{version}]")
    end = text.find("\n## [", start + 1)
    return text[start : end if end > 0 else len(text)]


def test_the_changelog_keeps_keep_a_changelogs_shape() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog_problems(text) == []
    unreleased = _section(text, "Unreleased")
    assert len(unreleased.splitlines()) <= 150
    assert re.findall(r"^### (\w+)", unreleased, re.M) == list(TYPES)
    for breaking in ("512 versions", "policy checkpoint", "remain only in the"):
        item = next(i for i in unreleased.split("\n- ") if breaking in i)
        assert item.startswith("**Breaking:**"), breaking
    assert "cut_cards" in unreleased.split("### Deprecated")[1].split("###")[0]
    assert len(_section(text, "0.2.0").splitlines()) <= 120
    # measurements live in benchmarks/, not in the changelog
    assert not re.search(r"\d ± \d", text)  # no error bars
    assert not re.search(r"\b\d{5}–\d{5}\b", text)  # no seed ranges


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("# Changelog\n\n## [Unreleased]\n\n### The expert bot\n", "not a type of change"),
        ("# Changelog\n\n## [Unreleased]\n\n### Fixed\n\n### Added\n", "out of order"),
        ("# Changelog\n\n## [0.2.0]\n", "no version heading"),
        ("# Changelog\n\n## [Unreleased]\n\n#### Notes\n", "'#### Notes'"),
        ("# Changelog\n\n## [Unreleased]\n\n[0.2.0]: https://x\n", "no link for [Unreleased]"),
    ],
)
def test_the_changelog_check_finds_a_bad_heading(text: str, problem: str) -> None:
    assert any(problem in found for found in changelog_problems(text))


# -------------------------------------------------------------- make docs, lightly

HEAVY = {
    "torch": ("torch", "bots.learned", "policy:"),
    "pyspiel": ("pyspiel", "adapters.openspiel"),
}


def test_make_docs_installs_no_heavy_extra() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    line = re.search(r"^\t.*(?:pip install|PIP_INSTALL\)).*'\.\[docs[^']*\]'", makefile, re.M)
    assert line is not None
    extras = set(re.search(r"\[([^\]]+)\]", line.group(0)).group(1).split(","))  # type: ignore[union-attr]
    assert "docs" in extras
    assert not extras & {"train", "openspiel", "ray", "dev"}
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    assert 'HEAVY_EXTRAS = ("torch", "pyspiel", "ray")' in conf


def test_doctests_that_need_a_heavy_extra_are_skipped_without_it() -> None:
    blocks = [
        (page.name, block)
        for page in _pages()
        for block in re.findall(
            r"```\{(?:doctest|testcode)\}\n(.*?)```", page.read_text("utf-8"), re.S
        )
    ]
    needing = 0
    for name, block in blocks:
        for module, marks in HEAVY.items():
            if any(mark in block for mark in marks):
                needing += 1
                assert re.search(rf':skipif: MOCKED & \{{"{module}"\}}', block), name
    assert needing >= 1
