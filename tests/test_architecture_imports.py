"""The house rules of the package, checked on the syntax tree of every module.

docs/architecture.md holds the rules' data (its ```` ```text ```` blocks): the layers,
and the short list of convenience methods that may import a module above their own.
Every module of the package is parsed (not imported) and every import of the package's
own modules is counted — at module level, inside functions and methods, and under
``if TYPE_CHECKING:`` — because an import the checker skips is still a dependency a
reader has to follow.  The rules:

1. every module is in exactly one layer of the page, and every name there is a module;
2. counting every import, the graph has no cycle; the only edges left out are imports
   inside the (class, method) pairs the page lists as convenience methods;
3. no import goes to a higher layer, except inside those methods;
4. a library module (the top level) never imports an application (a subpackage,
   ``cli`` or ``__main__``), not even inside a function;
5. an application imports only public names of the library: no ``_module`` of the
   top level, no ``_name`` of a library module;
6. no module imports another module's underscore names, except from an internal
   ``_module`` of its own package (a module named for exactly that);
7. no ``global`` statement, and no module-level container that a function changes;
8. no forwarding module: every module but a package's ``__init__`` defines something;
9. at most 33 top-level modules (files and subpackages).

To update after moving modules: edit the blocks of docs/architecture.md (the failure
message says which module and which layer).
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
MAX_TOP_LEVEL_MODULES = 33


class Import(NamedTuple):
    """One imported module (and name, for ``from m import name``) of one module."""

    module: str
    name: str | None
    where: str  # "module", "typing", or the enclosing "function" / "Class.method"
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
APPLICATIONS = frozenset(
    {m.split(".")[0] for m in MODULES if "." in m} | {"cli", "__main__"}
) & frozenset(MODULES)
"""The applications: every subpackage, the command line and ``__main__``."""


def is_application(module: str) -> bool:
    return module.split(".")[0] in APPLICATIONS


def _tree(module: str) -> ast.Module:
    return ast.parse(MODULES[module][0].read_text(encoding="utf-8"))


def _is_type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def module_imports(module: str) -> list[Import]:
    """The package modules ``module`` imports, each with where the import runs."""
    _, is_package = MODULES[module]
    full = PACKAGE if module == PACKAGE else f"{PACKAGE}.{module}"
    base = full if is_package else full.rpartition(".")[0]
    found: list[Import] = []

    def target_of(node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        parts = base.split(".")
        parts = parts[: len(parts) - (node.level - 1)]
        return ".".join(parts + ([node.module] if node.module else []))

    def visit(statements: list[ast.stmt], where: str, cls: str | None) -> None:
        for node in statements:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = where
                if where in ("module", "typing"):
                    inner = f"{cls}.{node.name}" if cls else node.name
                visit(node.body, inner, None)
            elif isinstance(node, ast.ClassDef):
                visit(node.body, where, node.name if where in ("module", "typing") else cls)
            elif isinstance(node, ast.If) and _is_type_checking(node):
                visit(node.body, "typing", cls)
                visit(node.orelse, where, cls)
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
                    inner_nodes = getattr(node, field, None)
                    if isinstance(inner_nodes, list):
                        visit([s for s in inner_nodes if isinstance(s, ast.stmt)], where, cls)
                        for handler in inner_nodes:
                            if isinstance(handler, ast.ExceptHandler):
                                visit(handler.body, where, cls)

    tree = _tree(module)
    visit(tree.body, "module", None)
    users = _users_of_names(tree)
    return [_owner_of_typing_import(imp, users) for imp in found]


def _users_of_names(tree: ast.Module) -> dict[str, set[str]]:
    """Per name, where it is read: ``Class.method`` / ``function``, or ``module``."""
    users: dict[str, set[str]] = {}

    def walk(node: ast.AST, where: str, cls: str | None) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and where == "module":
            where = f"{cls}.{node.name}" if cls else node.name
        if isinstance(node, ast.ClassDef) and where == "module":
            cls = node.name
        if isinstance(node, ast.If) and _is_type_checking(node):
            return  # the imports themselves
        if isinstance(node, ast.Name):
            users.setdefault(node.id, set()).add(where)
        for child in ast.iter_child_nodes(node):
            walk(child, where, cls)

    walk(tree, "module", None)
    return users


def _owner_of_typing_import(imp: Import, users: dict[str, set[str]]) -> Import:
    """An import under ``TYPE_CHECKING`` whose name only one method's signature reads
    belongs to that method: it is the type of what the method hands over."""
    if imp.where != "typing" or imp.name is None:
        return imp
    where = users.get(imp.name, set())
    if len(where) == 1 and "module" not in where:
        return imp._replace(where=next(iter(where)))
    return imp


# ------------------------------------------------------- the data of the page


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


def convenience_from_docs() -> frozenset[tuple[str, str]]:
    """The (module, Class.method) pairs named on the page (``module  Class.method`` lines)."""
    for block in _text_blocks():
        if block.startswith("convenience methods"):
            pairs = set()
            for line in block.splitlines()[1:]:
                if line.strip():
                    module, method = line.split()[:2]
                    pairs.add((module, method))
            return frozenset(pairs)
    raise AssertionError("docs/architecture.md lists its convenience methods")


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


def _exempt(module: str, imp: Import, convenience: frozenset[tuple[str, str]]) -> bool:
    return (module, imp.where) in convenience


# ------------------------------------------------------------------ the rules


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


def import_graph(
    convenience: frozenset[tuple[str, str]] = CONVENIENCE,
    imports_of: Callable[[str], list[Import]] = module_imports,
) -> dict[str, set[str]]:
    """Every import between package modules, but those inside the convenience methods."""
    return {
        module: {imp.module for imp in imports_of(module) if not _exempt(module, imp, convenience)}
        - {module}
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
    convenience: frozenset[tuple[str, str]] = CONVENIENCE,
) -> list[str]:
    """Imports from a higher layer, counted everywhere but in the convenience methods."""
    names = {number: name for number, name, _ in layers}
    problems = []
    for module in MODULES:
        own = layer_of(module, layers)
        for imp in module_imports(module):
            theirs = layer_of(imp.module, layers)
            if own is None or theirs is None or theirs <= own:
                continue
            if _exempt(module, imp, convenience):
                continue
            where = "at module level" if imp.where == "module" else f"in {imp.where}"
            problems.append(
                f"{module}:{imp.line} ({names[own]}) imports {imp.module} ({names[theirs]}) {where}"
            )
    return problems


def find_stale_convenience(
    convenience: frozenset[tuple[str, str]] = CONVENIENCE,
) -> list[str]:
    """Listed convenience methods that no longer import anything of the package."""
    used = {(module, imp.where) for module in MODULES for imp in module_imports(module)}
    return sorted(f"{m} {w}" for m, w in convenience - used)


def find_library_importing_applications(
    imports_of: Callable[[str], list[Import]] = module_imports,
) -> list[str]:
    """Imports of an application by a library module, anywhere in it."""
    return [
        f"{module}:{imp.line} imports the application {imp.module} ({imp.where})"
        for module in MODULES
        if not is_application(module)
        for imp in imports_of(module)
        if is_application(imp.module)
    ]


def find_applications_using_internals(
    imports_of: Callable[[str], list[Import]] = module_imports,
) -> list[str]:
    """Imports by an application of a library internal: a ``_module`` or a ``_name``."""
    problems = []
    for module in MODULES:
        if not is_application(module):
            continue
        for imp in imports_of(module):
            if is_application(imp.module):
                continue
            private_module = _is_internal(imp.module)
            dunder = imp.name is not None and imp.name.startswith("__") and imp.name.endswith("__")
            private_name = imp.name is not None and imp.name.startswith("_") and not dunder
            if private_module or private_name:
                what = imp.module if imp.name is None else f"{imp.name} from {imp.module}"
                problems.append(f"{module}:{imp.line} imports the library's internal {what}")
    return problems


def find_private_imports(
    imports_of: Callable[[str], list[Import]] = module_imports,
) -> list[str]:
    """Imports of another module's underscore names, other than from an internal module."""
    problems = []
    for module in MODULES:
        for imp in imports_of(module):
            if imp.name is None or not imp.name.startswith("_") or imp.module == module:
                continue
            if imp.name.startswith("__"):
                continue  # __version__ and the like
            if _is_internal(imp.module):
                continue  # an internal module is meant for exactly these imports
            problems.append(
                f"{module}:{imp.line} imports {imp.name} from {imp.module}: give the name a "
                f"plain spelling, or move it to an internal _module meant for it"
            )
    return problems


_MUTATORS = frozenset(
    {"append", "add", "update", "pop", "popitem", "clear", "setdefault", "extend", "insert",
     "remove", "discard", "__setitem__", "__delitem__", "appendleft", "move_to_end"}
)  # fmt: skip
_CONTAINERS = frozenset({"dict", "list", "set", "defaultdict", "OrderedDict", "deque", "Counter"})


def find_mutable_module_state(source: str, module: str = "<source>") -> list[str]:
    """``global`` statements, and functions that change a module-level container."""
    tree = ast.parse(source)
    containers = set()
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target]
            if isinstance(node, ast.AnnAssign) else []
        )  # fmt: skip
        is_container = isinstance(value, (ast.Dict, ast.List, ast.Set)) or (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id in _CONTAINERS
        )
        if is_container:
            containers |= {t.id for t in targets if isinstance(t, ast.Name)}
    problems = []
    functions = [
        n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    for function in functions:
        for node in ast.walk(function):
            if isinstance(node, ast.Global):
                problems.append(f"{module}:{node.lineno} global {', '.join(node.names)}")
            name = None
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
                targets = (
                    node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
                )
                for target in targets:
                    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                        name = target.value.id
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in _MUTATORS
                and isinstance(node.func.value, ast.Name)
            ):
                name = node.func.value.id
            if name in containers:
                problems.append(
                    f"{module}:{node.lineno} {function.name}() changes the module-level {name}"
                )
    return problems


def find_forwarding_modules() -> list[str]:
    """Modules (not a package's ``__init__``) that define nothing: they only forward."""
    problems = []
    for module, (_, is_package) in MODULES.items():
        if is_package or module.endswith("__main__"):
            continue
        defines = [
            node
            for node in _tree(module).body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            or (
                isinstance(node, (ast.Assign, ast.AnnAssign))
                and "__all__" not in ast.unparse(node)
                and "__getattr__" not in ast.unparse(node)
            )
        ]
        if not defines:
            problems.append(f"{module} defines nothing: merge it into the module it forwards to")
    return problems


def top_level_modules() -> list[str]:
    """The package's top-level modules: its files but ``__init__``, and its subpackages."""
    return sorted(
        {m.split(".")[0] for m in MODULES if m != PACKAGE and "." in m}
        | {m for m, (_, package) in MODULES.items() if "." not in m and m != PACKAGE}
    )


# ------------------------------------------------------------------ the tests


def test_every_module_is_in_exactly_one_layer() -> None:
    assert find_unlisted() == []


def test_counting_every_import_the_graph_has_no_cycle() -> None:
    assert find_cycle(import_graph()) is None


def test_no_import_goes_up_outside_the_convenience_methods() -> None:
    assert find_upward() == []


def test_every_listed_convenience_method_still_imports_upward() -> None:
    assert find_stale_convenience() == []


def test_the_library_never_imports_an_application() -> None:
    assert find_library_importing_applications() == []


def test_applications_use_only_public_names_of_the_library() -> None:
    assert find_applications_using_internals() == []


def test_no_module_imports_another_modules_underscore_names() -> None:
    assert find_private_imports() == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_global_and_no_module_state_changed_by_a_function(module: str) -> None:
    source = MODULES[module][0].read_text(encoding="utf-8")
    assert find_mutable_module_state(source, module) == []


def test_no_forwarding_modules() -> None:
    assert find_forwarding_modules() == []


def test_at_most_33_top_level_modules() -> None:
    modules = top_level_modules()
    assert len(modules) <= MAX_TOP_LEVEL_MODULES, modules


# ----------------------------------------------------- the checker itself can fail


def test_the_checks_catch_what_they_are_meant_to() -> None:
    """Each rule reports a planted violation (so a passing run means something)."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    # An import under TYPE_CHECKING or inside a function is an edge of the graph ...
    planted = {
        "state": [Import("views", None, "typing", 3)],
        "views": [Import("state", None, "module", 4)],
    }
    graph = import_graph(frozenset(), lambda m: planted.get(m, []))
    assert find_cycle(graph) == ["state", "views", "state"]
    # ... unless it runs inside a listed convenience method.
    planted["state"] = [Import("views", None, "GameState.view", 3)]
    graph = import_graph(frozenset({("state", "GameState.view")}), lambda m: planted.get(m, []))
    assert find_cycle(graph) is None
    graph = import_graph(frozenset({("state", "view")}), lambda m: planted.get(m, []))
    assert find_cycle(graph) is not None  # a method is named with its class
    # views planted below everything: its import of state goes up.
    rest = [(n, name, [m for m in ms if m not in ("views", "state")]) for n, name, ms in LAYERS]
    planted_layers = [(0, "planted", ["views"]), *rest, (99, "top", ["state"])]
    upward = find_upward(planted_layers)
    assert any(p.startswith("views:") and "imports state" in p for p in upward)
    assert any(p.startswith("module views is in no layer") for p in find_unlisted(rest))
    assert any("listed twice" in p for p in find_unlisted([*LAYERS, (99, "x", ["state"])]))
    assert any("no module" in p for p in find_unlisted([*LAYERS, (99, "x", ["nothing"])]))
    assert find_stale_convenience(frozenset({("state", "GameState.no_such_method")})) == [
        "state GameState.no_such_method"
    ]
    library = {"records": [Import("bots.search", "SearchBot", "GameRecord.best", 7)]}
    assert find_library_importing_applications(lambda m: library.get(m, [])) == [
        "records:7 imports the application bots.search (GameRecord.best)"
    ]
    apps = {
        "web.server": [Import("_strict_json", "read_int", "module", 5)],
        "bots.policy": [Import("bots._cards", "power", "module", 9)],
        "engine.host": [Import("state", "_STEPS", "run", 11)],
    }
    assert find_applications_using_internals(lambda m: apps.get(m, [])) == [
        "engine.host:11 imports the library's internal _STEPS from state",
        "web.server:5 imports the library's internal read_int from _strict_json",
    ]
    private = {"records": [Import("state", "_secret", "module", 7), Import("_x", "_y", "f", 8)]}
    assert find_private_imports(lambda m: private.get(m, [])) == [
        "records:7 imports _secret from state: give the name a plain spelling, or move it "
        "to an internal _module meant for it"
    ]
    source = (
        "_CACHE: dict[str, int] = {}\n_SEEN = []\n_TABLE = (1, 2)\n"
        "def f(k):\n    _CACHE[k] = 1\n"
        "def g():\n    global _TABLE\n    _TABLE = ()\n"
        "def h(x):\n    _SEEN.append(x)\n    local = {}\n    local[x] = 1\n"
    )
    assert find_mutable_module_state(source) == [
        "<source>:5 f() changes the module-level _CACHE",
        "<source>:7 global _TABLE",
        "<source>:10 h() changes the module-level _SEEN",
    ]


def test_the_module_lists_are_the_package() -> None:
    assert "state" in MODULES
    assert "bots.expert" in MODULES
    assert is_application("web.table")
    assert is_application("commands.cli")
    assert is_application("__main__")
    assert not is_application("state")
    assert not is_application(PACKAGE)


DOCUMENT_MODULES = (
    "serialization",
    "records",
    "_strict_json",
    "_read_v0_1",
    "position",
    "notation",
)


def private_reads(module: str) -> list[str]:
    """``obj._field`` reads in ``module`` of an object other than ``self``/``cls``."""
    return [
        f"{module}:{node.lineno} {ast.unparse(node)}"
        for node in ast.walk(_tree(module))
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]


@pytest.mark.parametrize("module", DOCUMENT_MODULES)
def test_documents_read_only_public_fields_of_states_and_views(module: str) -> None:
    """Writing and reading documents uses the public (compact) reads, python-chess style."""
    assert private_reads(module) == []


@pytest.mark.parametrize("module", ["records", "_read_v0_1", "_strict_json"])
def test_reading_a_record_needs_no_view_module(module: str) -> None:
    """Records and their readers stand below views: checking a record builds no view."""
    assert [imp for imp in module_imports(module) if imp.module == "views"] == []


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of ``graph``: its strongly connected parts of two modules or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for child in sorted(graph.get(node, ())):
            if child not in index:
                visit(child)
                low[node] = min(low[node], low[child])
            elif child in stack:
                low[node] = min(low[node], index[child])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_circles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": set(), "d": {"d"}}
    assert strongly_connected(graph) == [["a", "b"]]


def main() -> None:  # pragma: no cover - a drawing for people, run by hand
    """Print the import graph of the tree on the path, counting every import.

    ``PYTHONPATH=src python tests/test_architecture_imports.py`` (any tree on the path:
    an older checkout's ``src`` draws its graph the same way).  Convenience methods
    listed on the page are left out, as the test leaves them out.
    """
    graph = import_graph(frozenset(c for c in CONVENIENCE if c[0] in MODULES))
    library = {m: sorted(e) for m, e in graph.items() if not is_application(m)}
    print(f"tree: {SRC}")
    print(f"top-level modules: {len(top_level_modules())}")
    for module in sorted(library, key=lambda m: (layer_of(m) or 0, m)):
        print(f"  [{layer_of(module) or '?'}] {module} -> {', '.join(library[module]) or '-'}")
    circles = strongly_connected(graph)
    print(f"circles (counting every import): {len(circles)}")
    for circle in circles:
        print("  " + " <-> ".join(circle))


if __name__ == "__main__":  # pragma: no cover
    main()
