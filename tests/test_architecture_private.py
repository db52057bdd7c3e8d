"""No module reads another object's private fields (the library's inside, checked by AST).

Every module of the package is parsed; every read ``x._name`` (a single leading
underscore, not a dunder) where ``x`` is not ``self`` or ``cls`` must be a read of a
private name *inside the class that defines it* (an instance comparing itself with
another of its own class, as ``PastDeals.__eq__`` does), or be one of the few reads
listed in :data:`ALLOWED`, each with its reason.  Everything else reads the owner's
public compact form (``state.hand_masks``, ``view.hand_mask`` …) instead.

On the 0.3 tree this test fails: ``views`` read 18, ``serialization`` 13 private fields
of the state and view, and the state's module-level effects read the state's fields.
"""

from __future__ import annotations

import ast
from pathlib import Path

import bohmisch_watten

PACKAGE = Path(bohmisch_watten.__file__).resolve().parent

ALLOWED: dict[tuple[str, str], str] = {}
"""``(module path, expression)``: the private reads that stay, and why."""


def _defined_private_names(cls: ast.ClassDef) -> set[str]:
    """The private names a class defines: fields, methods, slots, ``self._x =`` stores."""
    names: set[str] = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names.add(target.id)
                    if target.id == "__slots__" and isinstance(node.value, (ast.Tuple, ast.List)):
                        names |= {
                            e.value
                            for e in node.value.elts
                            if isinstance(e, ast.Constant) and isinstance(e.value, str)
                        }
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            names.add(node.attr)
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def private_reads(path: Path) -> list[str]:
    """The reads of another object's private field in one module, as ``line: expression``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}

    def visit(node: ast.AST, owned: frozenset[str]) -> None:
        if isinstance(node, ast.ClassDef):
            owned = owned | _defined_private_names(node)
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Load)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            and node.attr not in owned
            and not (  # the module of a class reads its methods by the class's name
                isinstance(node.value, ast.Name)
                and node.value.id in classes
                and node.attr in _defined_private_names(classes[node.value.id])
            )
        ):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        for child in ast.iter_child_nodes(node):
            visit(child, owned)

    visit(tree, frozenset())
    return found


def test_no_module_reads_another_objects_private_fields() -> None:
    offences = []
    used = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        for read in private_reads(path):
            key = (module, read.split(": ", 1)[1])
            if key in ALLOWED:
                used.add(key)
            else:
                offences.append(f"{module}:{read}")
    assert not offences, "private fields read from outside their class:\n" + "\n".join(offences)
    assert used == set(ALLOWED), f"allowed reads that no longer occur: {set(ALLOWED) - used}"


def test_the_check_finds_a_private_read(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "class Own:\n"
        "    _size: int\n"
        "    def same(self, other):\n"
        "        return self._size == other._size\n"
        "def outside(state):\n"
        "    return state._hands, state.hands, Own._size, Own._other\n",
        encoding="utf-8",
    )
    assert private_reads(sample) == ["6: state._hands", "6: Own._other"]
