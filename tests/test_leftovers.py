"""Housekeeping checks on the source: each catches a kind of leftover that crept in once.

Comments that cite the tracker instead of the rules, a docstring under the wrong
constant, one function or alias written in two modules, seat arithmetic repeated
around the engine, and ``type: ignore`` comments where the code can say why a value
is not ``None``.  They read the files (text and ``ast``), so they are fast.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "bohmisch_watten"


def _package_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _project_files() -> Iterator[Path]:
    yield from _package_files()
    for folder in ("tests", "examples", "benchmarks", "docs"):
        for path in sorted((ROOT / folder).rglob("*")):
            skipped = ("_build", "golden", "data", "node_modules")  # node_modules: npm's
            if any(part in path.parts for part in skipped):
                continue
            if path.suffix in (".py", ".md"):
                yield path
    for name in ("README.md", "CHANGELOG.md", "Makefile", "pyproject.toml"):
        yield ROOT / name


# Written so that this file does not match itself.
_TRACKER = re.compile(r"\bissues?[ -]?#?\d|\bthe " + "issue" + r"\b", re.IGNORECASE)


def test_no_comment_or_docstring_cites_an_issue() -> None:
    """Comments cite rule IDs; an issue number means nothing to a reader of a release."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _project_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _TRACKER.search(line)
    ]
    assert found == []


def _statement_lists(tree: ast.Module) -> Iterator[list[ast.stmt]]:
    yield tree.body
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            yield node.body


def _string(statement: ast.stmt) -> str | None:
    """The text of a bare string statement (a docstring), else None."""
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
        value = statement.value.value
        return value if isinstance(value, str) else None
    return None


def _assigned_name(statement: ast.stmt) -> str | None:
    target: ast.expr | None = None
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
    elif isinstance(statement, ast.AnnAssign):
        target = statement.target
    return target.id if isinstance(target, ast.Name) else None


def test_each_attribute_docstring_sits_under_its_constant() -> None:
    """A docstring follows the assignment it documents, one per assignment."""
    found = []
    for path in _package_files():
        for body in _statement_lists(ast.parse(path.read_text(encoding="utf-8"))):
            for before, statement in pairwise(body):
                text = _string(statement)
                if text is None:
                    continue
                where = f"{path.name}:{statement.lineno}"
                if _string(before) is not None:
                    found.append(f"{where}: a second docstring in a row")
                    continue
                name = _assigned_name(before)
                named = re.match(r"``(_?[A-Z][A-Z0-9_]*)\b", text)
                if name is not None and named and named.group(1) != name:
                    found.append(f"{where}: the docstring of {named.group(1)} under {name}")
    assert found == []


def _aliases() -> Iterator[tuple[str, str]]:
    """``(module file, name)`` of every module-level type alias (``X = tuple[...]``)."""
    for path in _package_files():
        for statement in ast.parse(path.read_text(encoding="utf-8")).body:
            name = _assigned_name(statement)
            value = getattr(statement, "value", None)
            if (
                name is not None
                and isinstance(value, ast.Subscript)
                and isinstance(value.value, ast.Name)
                and value.value.id in ("tuple", "Callable")
            ):
                yield str(path.relative_to(PACKAGE)), name


def test_an_alias_is_defined_in_one_module() -> None:
    places: dict[str, list[str]] = defaultdict(list)
    for module, name in _aliases():
        places[name].append(module)
    assert {name: where for name, where in places.items() if len(where) > 1} == {}


def test_trick_aliases_live_in_tricks() -> None:
    """The shapes of plays and tricks are named once, next to the trick rules (R24-R27)."""
    misplaced = [
        (module, name)
        for module, name in _aliases()
        if re.search("play|trick", name, re.IGNORECASE) and module != "tricks.py"
    ]
    assert misplaced == []


def _body_key(function: ast.FunctionDef) -> str | None:
    """The body of a function without its docstring, or None for a thin delegate."""
    body = function.body[1:] if _string(function.body[0]) is not None else function.body
    if len(body) < 2 or any(isinstance(node, ast.ImportFrom) for node in body):
        return None  # one line, or a thin method importing a higher layer
    return ast.dump(ast.Module(body=body, type_ignores=[]), annotate_fields=False)


def test_no_function_is_written_twice() -> None:
    places: dict[str, list[str]] = defaultdict(list)
    for path in _package_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and (key := _body_key(node)) is not None:
                places[key].append(f"{path.relative_to(PACKAGE)}:{node.name}")
    assert [where for where in places.values() if len(where) > 1] == []


_SEAT_ARITHMETIC = re.compile(r"\([\w.]+ [+-] 1(?: \+ \w+)?\) % ")


def test_seat_arithmetic_lives_in_seats() -> None:
    """Left, right and the order from forehand are computed in seats.py only (R1, R2, R4)."""
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in _package_files()
        if path.name != "seats.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _SEAT_ARITHMETIC.search(line)
    ]
    assert found == []


def test_current_player_is_read_without_type_ignore() -> None:
    """Where a player must be to act, the code asserts it (and says why) instead."""
    found = [
        f"{path.name}:{number}"
        for path in _package_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "current_player" in line and "type: ignore" in line
    ]
    assert found == []


def test_a_long_module_says_which_one_job_it_holds() -> None:
    """A module over about 600 lines is one job, named at the top of its docstring."""
    unnamed = []
    for path in _package_files():
        text = path.read_text()
        if len(text.splitlines()) > 600 and "One job" not in (
            ast.get_docstring(ast.parse(text)) or ""
        ):
            unnamed.append(str(path.relative_to(PACKAGE)))
    assert unnamed == []
