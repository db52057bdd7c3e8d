"""Deprecated: the JSON readers are internal now (:mod:`bohmisch_watten._documents`).

This module only keeps the two names it documented, ``json_depth`` and
``summary_to_dict``, importable for a while; each access warns.  Documents are read
with the loaders of :mod:`bohmisch_watten.serialization` (``from_json`` …).
"""

from __future__ import annotations

import warnings
from typing import Any

from . import _documents

__all__: list[str] = []  # nothing here is API any more

_MOVED = ("json_depth", "summary_to_dict")


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        warnings.warn(
            f"bohmisch_watten.jsonread.{name} is deprecated: the JSON readers are internal"
            " (bohmisch_watten._documents); use the loaders of bohmisch_watten.serialization",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(_documents, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
