"""Which core runs the rules: the compiled one (``bohmisch_watten._native``) or Python.

The pure-Python modules are the reference and always present; the compiled core is an
optional twin built by ``setup.py`` (src/native/) and tested in lockstep against them.
It is chosen once, when the package is first imported:

* ``BOHMISCH_WATTEN_NATIVE=0`` in the environment forces the Python reference (a
  debugger, a bisection, the second run of the core tests);
* otherwise the compiled module is used when it imports and speaks this package's
  :data:`NATIVE_ABI`; a stale or missing build falls back to Python silently, since the
  Python core gives the same answers, only slower.

Modules that have a compiled twin read :data:`NATIVE` (the module, or ``None``) at
import; users read :data:`bohmisch_watten.native_core`.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Final

import attrs

__all__ = ["ENVIRONMENT_VARIABLE", "NATIVE", "NATIVE_ABI", "CoreInfo", "native_core"]

ENVIRONMENT_VARIABLE: Final = "BOHMISCH_WATTEN_NATIVE"
"""Set to ``0`` before the package is imported to run the pure-Python reference."""

NATIVE_ABI: Final = 2
"""The ``ABI`` constant the compiled module must report (``BW_NATIVE_ABI`` in module.c)."""


@attrs.frozen
class CoreInfo:
    """Which core is running, and why: true when it is the compiled one.

    Attributes:
        name: ``"native"`` or ``"python"``.
        reason: one line for people (``--version`` prints it).
        path: the compiled module's file, or ``None`` for the Python core.
        module: the compiled module itself, or ``None``: how the package's own
            applications (the batched environments, the bots) reach it.  Its functions
            are the core's internals, checked and tested but not a stable API; use the
            library's names, which pick the core for you.
    """

    name: str
    reason: str
    path: str | None = None
    module: ModuleType | None = attrs.field(default=None, repr=False, eq=False)

    def __bool__(self) -> bool:
        return self.name == "native"


def _load() -> tuple[ModuleType | None, CoreInfo]:
    setting = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
    if setting == "0":
        return None, CoreInfo("python", f"pure-Python core, forced by {ENVIRONMENT_VARIABLE}=0")
    try:
        module = importlib.import_module("bohmisch_watten._native")
    except ImportError:
        return None, CoreInfo("python", "pure-Python core: no compiled core is built")
    if getattr(module, "ABI", None) != NATIVE_ABI:
        return None, CoreInfo(
            "python", "pure-Python core: the compiled core is a stale build, rebuild it"
        )
    path = getattr(module, "__file__", None)
    return module, CoreInfo("native", "compiled core", path, module)


_CHOICE: Final = _load()
NATIVE: Final = _CHOICE[0]
"""The compiled module when it runs, else ``None``: modules with a native twin branch on it."""
native_core: Final = _CHOICE[1]
"""Which core runs (true for the compiled one); public as ``bohmisch_watten.native_core``."""
