"""Deprecated: this module is internal now (:mod:`bohmisch_watten._checks`, attrs' convention).

Its names stay importable from here for a while; each access warns.  Nothing here is API.
"""

from __future__ import annotations

import warnings
from typing import Any

from . import _checks

__all__: list[str] = []  # nothing here is API any more


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    value = getattr(_checks, name)  # AttributeError for a name it never had
    warnings.warn(
        f"bohmisch_watten.checks.{name} is deprecated: the module is internal"
        " (bohmisch_watten._checks) and may change in any release",
        DeprecationWarning,
        stacklevel=2,
    )
    return value
