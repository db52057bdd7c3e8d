"""The import graph runs one way: the layers of docs/architecture.md, checked on the AST.

The layers and the convenience methods are read from docs/architecture.md (its
```` ```text ```` blocks), so the page and this test cannot disagree.  Every module of the
package is parsed (not imported) and its imports are sorted into module level, type
checking only (``if TYPE_CHECKING:``, never run) and inside a function.  The rules:

1. every module is in exactly one layer of the page, and every name on the page is a
   module;
2. no module imports another module's underscore name, except from an internal
   ``_module`` (a module whose own name starts with ``_``, meant for exactly that);
3. the module-level imports form no cycle;
4. no import goes to a higher layer, except inside a convenience method named on the
   page (``state.view()`` importing ``views``).

To update after moving modules: edit the layer block of docs/architecture.md (the
failure message says which module and which layer).  The exceptions below are debts
with a reason each; delete an entry when its import is gone (the test fails on an entry
that no longer matches anything, so the list cannot go stale).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

import bohmisch_watten

ROOT = Path(__file__).resolve().parent.parent
SRC = Path(bohmisch_watten.__file__).resolve().parent.parent  # the tree under test
PACKAGE = "bohmisch_watten"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

PRIVATE_IMPORT_EXCEPTIONS: dict[tuple[str, str, str], str] = {
    # (importing module, imported module, name): reason -- none left
}
"""Imports of underscore names still to be removed (the integrator trims this list)."""

UPWARD_EXCEPTIONS: dict[tuple[str, str], str] = {}
"""(importing module, imported module) pairs still importing upward, with a reason."""


class Import(NamedTuple):
    """One imported module (and name, for ``from m import name``) of one module."""

    module: str
    name: str | None
    where: str  # "module", "typing", or the name of the enclosing function
    line: int


def _short(name: str) -> str:
    return name.removeprefix(PACKAGE + ".") if name != PACKAGE else PACKAGE


def package_modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package, short name (``bots.search``) → (path, is a package)."""
    out = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        out[_short(".".join(parts))] = (path, is_package)
    return out


MODULES = package_modules()


def _is_type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def module_imports(module: str) -> list[Import]:
    """The package modules ``module`` imports, each with where the import runs."""
    path, is_package = MODULES[module]
    full = PACKAGE if module == PACKAGE else f"{PACKAGE}.{module}"
    base = full if is_package else full.rpartition(".")[0]
    found: list[Import] = []

    def target_of(node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        parts = base.split(".")
        parts = parts[: len(parts) - (node.level - 1)]
        return ".".join(parts + ([node.module] if node.module else []))

    def visit(statements: list[ast.stmt], where: str) -> None:
        for node in statements:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(node.body, node.name if where in ("module", "typing") else where)
            elif isinstance(node, ast.ClassDef):
                visit(node.body, where)
            elif isinstance(node, ast.If) and _is_type_checking(node):
                visit(node.body, "typing")
                visit(node.orelse, where)
            elif isinstance(node, ast.ImportFrom):
                target = target_of(node)
                if target.split(".")[0] != PACKAGE:
                    continue
                for alias in node.names:
                    submodule = _short(f"{target}.{alias.name}")
                    if submodule in MODULES:  # from . import demo
                        found.append(Import(submodule, None, where, node.lineno))
                    else:
                        found.append(Import(_short(target), alias.name, where, node.lineno))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == PACKAGE:
                        found.append(Import(_short(alias.name), None, where, node.lineno))
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(node, field, None)
                    if isinstance(inner, list):
                        visit([s for s in inner if isinstance(s, ast.stmt)], where)
                        for handler in inner:
                            if isinstance(handler, ast.ExceptHandler):
                                visit(handler.body, where)

    visit(ast.parse(path.read_text(encoding="utf-8")).body, "module")
    return found


def _text_blocks() -> Iterator[str]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    yield from re.findall(r"^```text\n(.*?)^```", text, flags=re.M | re.S)


def layers_from_docs() -> list[tuple[int, str, list[str]]]:
    """The layer block of docs/architecture.md: (number, name, modules), lowest first."""
    rows: list[tuple[int, str, list[str]]] = []
    for block in _text_blocks():
        for line in block.splitlines():
            match = re.fullmatch(r"\s*(\d+)\s+(\w[\w ]*?)\s*\|\s*(.+)", line)
            if match:
                rows.append((int(match[1]), match[2], match[3].split()))
            elif rows and (more := re.fullmatch(r"\s+\|\s*(.+)", line)):
                rows[-1][2].extend(more[1].split())  # a layer continued on the next line
    assert rows, "docs/architecture.md has a ```text block of '<n> <name> | modules' lines"
    rows.sort()
    assert [n for n, _, _ in rows] == list(range(1, len(rows) + 1))
    return rows


def convenience_from_docs() -> frozenset[str]:
    """The convenience methods named on the page (``convenience | view record …``)."""
    for block in _text_blocks():
        match = re.search(r"^convenience\s*\|\s*(.+)$", block, flags=re.M)
        if match:
            return frozenset(match[1].split())
    raise AssertionError("docs/architecture.md names its convenience methods")


LAYERS = layers_from_docs()
CONVENIENCE = convenience_from_docs()


def layer_of(module: str, layers: list[tuple[int, str, list[str]]] = LAYERS) -> int | None:
    """The layer of ``module``: its own entry, else its subpackage's (``bots`` for bots.x)."""
    for number, _, names in layers:
        for name in names:
            if module == name or module.startswith(name + "."):
                return number
    return None


def _is_internal(module: str) -> bool:
    return any(part.startswith("_") and part != "__main__" for part in module.split("."))


# ------------------------------------------------------------------------ the rules


def find_unlisted(layers: list[tuple[int, str, list[str]]] = LAYERS) -> list[str]:
    """Modules in no layer, names on the page that are no module, names listed twice."""
    problems = []
    listed = [name for _, _, names in layers for name in names]
    for name in sorted({n for n in listed if listed.count(n) > 1}):
        problems.append(f"{name} is listed twice in docs/architecture.md")
    for name in listed:
        if name not in MODULES:
            problems.append(f"{name} is listed in docs/architecture.md but is no module")
    for module in MODULES:
        if layer_of(module, layers) is None:
            problems.append(
                f"module {module} is in no layer: add it to the layer block of "
                "docs/architecture.md (the lowest layer its imports allow)"
            )
    return problems


def find_private_imports(
    exceptions: dict[tuple[str, str, str], str] = PRIVATE_IMPORT_EXCEPTIONS,
    imports_of: Callable[[str], list[Import]] = module_imports,
) -> tuple[list[str], set[tuple[str, str, str]]]:
    """Imports of another module's underscore names, and the exceptions that were used."""
    problems, used = [], set()
    for module in MODULES:
        for imp in imports_of(module):
            if imp.name is None or not imp.name.startswith("_") or imp.module == module:
                continue
            if _is_internal(imp.module):
                continue  # an internal module is meant for exactly these imports
            key = (module, imp.module, imp.name)
            if key in exceptions:
                used.add(key)
                continue
            problems.append(
                f"{module}:{imp.line} imports {imp.name} from {imp.module}: give the name a "
                f"plain spelling, or move it to an internal _module meant for it"
            )
    return problems, used


def module_graph() -> dict[str, set[str]]:
    """The module-level (run at import) imports between package modules."""
    return {
        module: {imp.module for imp in module_imports(module) if imp.where == "module"} - {module}
        for module in MODULES
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path ``[a, b, …, a]``, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for child in sorted(graph.get(node, ())):
            if state.get(child) == 1:
                return [*path[path.index(child) :], child]
            if child not in state:
                cycle = visit(child)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def find_upward(
    layers: list[tuple[int, str, list[str]]] = LAYERS,
    convenience: frozenset[str] = CONVENIENCE,
    exceptions: dict[tuple[str, str], str] = UPWARD_EXCEPTIONS,
) -> list[str]:
    """Imports from a higher layer outside a convenience method."""
    names = {number: name for number, name, _ in layers}
    problems = []
    for module in MODULES:
        own = layer_of(module, layers)
        for imp in module_imports(module):
            theirs = layer_of(imp.module, layers)
            if own is None or theirs is None or theirs <= own or imp.where == "typing":
                continue
            if imp.where in convenience or (module, imp.module) in exceptions:
                continue
            problems.append(
                f"{module}:{imp.line} ({names[own]}) imports {imp.module} ({names[theirs]}) "
                f"{'at module level' if imp.where == 'module' else 'in ' + imp.where + '()'}"
            )
    return problems


# ------------------------------------------------------------------------ the tests


def test_every_module_is_in_exactly_one_layer() -> None:
    assert find_unlisted() == []


def test_no_module_imports_another_modules_underscore_names() -> None:
    problems, used = find_private_imports()
    assert problems == []
    stale = sorted(set(PRIVATE_IMPORT_EXCEPTIONS) - used)
    assert stale == [], "these exceptions are fixed: delete them from the list"


def test_module_level_imports_form_no_cycle() -> None:
    assert find_cycle(module_graph()) is None


def test_no_import_goes_up_outside_the_convenience_methods() -> None:
    assert find_upward() == []
    assert set(UPWARD_EXCEPTIONS) <= {
        (module, imp.module) for module in MODULES for imp in module_imports(module)
    }


# ----------------------------------------------------- the checker itself can fail


def test_the_checks_catch_what_they_are_meant_to() -> None:
    """Each rule reports a planted violation (so a passing run means something)."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    # views planted below everything: its module-level import of state goes up.
    rest = [(n, name, [m for m in ms if m not in ("views", "state")]) for n, name, ms in LAYERS]
    planted = [(0, "planted", ["views"]), *rest, (99, "top", ["state"])]
    upward = find_upward(planted)
    assert any(p.startswith("views:") and "imports state" in p for p in upward)
    assert any("at module level" in p for p in upward)
    # state planted at the top: its imports go down, and view() is a convenience method.
    planted = [(0, "planted", ["state"]), *rest, (99, "top", ["views"])]
    upward = find_upward(planted)
    assert any(p.startswith("state:") for p in upward)
    assert not any("in view()" in p for p in upward)
    assert any("in view()" in p for p in find_upward(planted, frozenset()))
    assert any(p.startswith("module views is in no layer") for p in find_unlisted(rest))
    assert any("listed twice" in p for p in find_unlisted([*LAYERS, (99, "x", ["state"])]))
    assert any("no module" in p for p in find_unlisted([*LAYERS, (99, "x", ["nothing"])]))
    planted_imports = {
        "records": [Import("state", "_secret", "module", 7), Import("_history", "_x", "f", 8)],
        "bots.policy": [Import("bots._cards", "_power", "module", 9)],
    }
    problems, _ = find_private_imports({}, lambda module: planted_imports.get(module, []))
    assert problems == [
        "records:7 imports _secret from state: give the name a plain spelling, or move it "
        "to an internal _module meant for it"
    ]
    problems, used = find_private_imports(
        {("records", "state", "_secret"): "planted"}, lambda m: planted_imports.get(m, [])
    )
    assert problems == []
    assert used == {("records", "state", "_secret")}


@pytest.mark.parametrize("module", ["records", "_legacy", "_documents"])
def test_reading_a_record_needs_no_view_module(module: str) -> None:
    """Records and their readers stand below views: checking a record builds no view."""
    found = [
        imp
        for imp in module_imports(module)
        if imp.module == "views" and (module, "views", imp.name) not in PRIVATE_IMPORT_EXCEPTIONS
    ]
    assert found == []


DOCUMENT_MODULES = ("serialization", "records", "_documents", "_legacy", "position", "notation")


def private_reads(module: str) -> list[str]:
    """``obj._field`` reads in ``module`` of an object other than ``self``/``cls``."""
    path, _ = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{module}:{node.lineno} {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]


@pytest.mark.parametrize("module", DOCUMENT_MODULES)
def test_documents_read_only_public_fields_of_states_and_views(module: str) -> None:
    """Writing and reading documents uses the public (compact) reads, python-chess style."""
    assert private_reads(module) == []
