"""What the API reference shows, and the names it may show in a signature.

Free of Sphinx imports, so that both the docs extension (``watten_docs``, at build
time) and the test suite (tests/test_docs_layout.py, without the docs extra) apply
the same rule: a signature on a public page names only public types.  A reader who
meets an undocumented alias (``tuple[_TrickData, ...]``) in a signature can neither
import it nor find it in the reference.

A name in a signature is public when it is a builtin, a name of :mod:`typing`,
:mod:`collections.abc` or one of the few standard modules the API takes values of, or
a name in the ``__all__`` of a public module of the package.  A name with a leading
underscore (in any part of a dotted name) is never public.
"""

from __future__ import annotations

import builtins
import collections.abc
import importlib
import inspect
import pkgutil
import re
import typing
from collections.abc import Iterator, Mapping
from functools import lru_cache
from types import ModuleType
from typing import Any

PACKAGE = "bohmisch_watten"

FACTORY_MADE = {
    f"{PACKAGE}.state.GameState": "made by new_game() and apply()",
    f"{PACKAGE}.views.PlayerView": "made by GameState.view()",
}
"""Classes whose attrs constructor is internal: their signature would list private fields."""

STANDARD_MODULES = (
    "argparse", "collections", "enum", "io", "pathlib", "random", "types", "typing"
)  # fmt: skip
"""Dotted names from these modules (``random.Random``) are public types."""

_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def public_modules() -> Iterator[ModuleType]:
    """The package and every public submodule (name without a leading underscore)."""
    package = importlib.import_module(PACKAGE)
    yield package
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.startswith("_"):
            yield importlib.import_module(f"{PACKAGE}.{info.name}")


def every_public_module() -> Iterator[ModuleType]:
    """:func:`public_modules` and the public modules of its subpackages (``arena.report``)."""
    package = importlib.import_module(PACKAGE)
    yield package
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{PACKAGE}."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            yield importlib.import_module(info.name)


@lru_cache(maxsize=1)
def public_names() -> frozenset[str]:
    """Every name a signature may use: builtins, typing, and the package's ``__all__``."""
    names = set(dir(builtins)) | set(typing.__all__) | set(collections.abc.__all__)
    names |= {"Random", "Path", "Self", "TextIO", "Enum"}
    for module in every_public_module():
        names.update(getattr(module, "__all__", ()))
    return frozenset(names)


def private_names(annotation: str, namespace: Mapping[str, Any] | None = None) -> list[str]:
    """The names in annotation text (no parameter names) that a reader cannot look up.

    ``namespace`` is the globals of the module the annotation was written in: a class
    imported there from another library (``Starlette``), or a name reached through
    another library's module (``np.ndarray``), is that library's public type.

    >>> private_names("DealInfo, tuple[NoSuchAlias, ...], _TrickData")
    ['NoSuchAlias', '_TrickData']
    >>> private_names("random.Random, Literal['a'], GameState | None")
    []
    """
    found = []
    namespace = namespace or {}
    allowed = public_names() | _foreign_names(namespace)
    modules = {*STANDARD_MODULES, PACKAGE} | {
        name
        for name, value in namespace.items()
        if inspect.ismodule(value) and not value.__name__.startswith(PACKAGE)
    }
    for name in _NAME.findall(_QUOTED.sub("''", annotation)):
        parts = name.split(".")
        if any(part.startswith("_") for part in parts):
            found.append(name)
        elif len(parts) > 1:
            if parts[0] not in modules and parts[-1] not in allowed:
                found.append(name)
        elif name not in allowed:
            found.append(name)
    return found


def _foreign_names(namespace: Mapping[str, Any]) -> set[str]:
    """Names bound in a module's globals to classes of other libraries."""
    return {
        name
        for name, value in namespace.items()
        if not name.startswith("_")
        and inspect.isclass(value)
        and not str(getattr(value, "__module__", "")).startswith(PACKAGE)
    }


def signature_text(obj: Any) -> str:
    """The annotations of a callable as written in the source (what autodoc renders).

    Parameter names are left out: only the types are checked.
    """
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return ""
    parts = [
        _annotation_text(p.annotation)
        for p in signature.parameters.values()
        if p.annotation is not inspect.Parameter.empty
    ]
    if signature.return_annotation is not inspect.Signature.empty:
        parts.append(_annotation_text(signature.return_annotation))
    return ", ".join(parts)


_FORWARD_REF = re.compile(r"ForwardRef\((['\"])(.*?)\1[^)]*\)")


def _annotation_text(annotation: Any) -> str:
    """An annotation as source text; ``typing.NamedTuple`` fields are forward references."""
    if isinstance(annotation, typing.ForwardRef):
        return annotation.__forward_arg__
    if isinstance(annotation, str):
        return annotation
    return _FORWARD_REF.sub(r"\2", inspect.formatannotation(annotation))


def documented_signatures() -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    """``(qualified name, annotations, namespace)`` of every callable the reference shows.

    Functions and classes of every public module's ``__all__`` (where autodoc documents
    them, whichever module defines them); for each class its constructor
    (unless made by a factory, see :data:`FACTORY_MADE`), and its public methods and
    properties that the class itself defines (inherited ones are documented on the
    class that defines them).
    """
    seen: set[int] = set()
    for module in every_public_module():
        if module.__name__ == PACKAGE:
            continue  # its page lists the names; each is documented in its module
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)) or id(obj) in seen:
                continue
            seen.add(id(obj))
            qualified = f"{module.__name__}.{name}"
            namespace = vars(inspect.getmodule(obj) or module)
            if inspect.isfunction(obj):
                yield qualified, signature_text(obj), namespace
                continue
            if qualified not in FACTORY_MADE:
                yield qualified, signature_text(obj), namespace
            for member, value in vars(obj).items():
                if member.startswith("_"):
                    continue
                if isinstance(value, property) and value.fget is not None:
                    value = value.fget
                elif isinstance(value, (classmethod, staticmethod)):
                    value = value.__func__
                elif not inspect.isfunction(value):
                    continue
                yield f"{qualified}.{member}", signature_text(value), namespace
