"""The subcommands of ``python -m bohmisch_watten``, one module each.

A subcommand module exposes ``DESCRIPTION`` (one line), ``TAKES_RULES`` (whether it
gets ``--rules``, see :func:`bohmisch_watten.parse_rules`: the commands that start games
do, ``review`` and ``engine``, whose games bring their rules, do not),
``add_arguments(parser)`` and ``run(args) -> int``; adding one is an import and a line
in :data:`COMMANDS`.

Importing this package imports no optional extra: a subcommand that needs one (``serve``
needs ``[web]``) imports it only when it runs, so the base install's command line
starts, and a missing extra is one line naming what to install.
"""

from __future__ import annotations

from types import ModuleType
from typing import Final

from . import arena, demo, engine, review, serve

__all__ = ["COMMANDS", "DEFAULT_COMMAND"]

COMMANDS: Final[dict[str, ModuleType]] = {
    "demo": demo,
    "arena": arena,
    "review": review,
    "serve": serve,
    "engine": engine,
}
"""Subcommand name → module, in the order ``--help`` lists them.

:meta hide-value:
"""

DEFAULT_COMMAND: Final = "demo"
"""What runs when the first argument names no subcommand."""
