"""Old module names that forward to their new home, with a warning (deprecations).

A module made internal keeps its old import path for a while: the old module is a shim
whose ``__getattr__`` is :func:`forwarder`, so every name still resolves, and each
access says where the module went.  One implementation for every shim.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Collection
from typing import Any

__all__ = ["forwarder"]


def forwarder(
    old: str, target: str, names: Collection[str] | None = None, advice: str = ""
) -> Callable[[str], Any]:
    """A module ``__getattr__`` forwarding ``names`` (None: every name) of ``old`` to ``target``.

    ``target`` is the new module's dotted name, imported at the first access, so the old
    name costs nothing until someone uses it.
    """

    def __getattr__(name: str) -> Any:
        if name.startswith("__") or (names is not None and name not in names):
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(target), name)  # AttributeError if never had
        warnings.warn(
            f"{old}.{name} is deprecated: the module is internal ({target})"
            f" and may change in any release{advice}",
            DeprecationWarning,
            stacklevel=2,
        )
        return value

    return __getattr__
