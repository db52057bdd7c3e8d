"""``python -m bohmisch_watten serve``: the game server, from the ``[web]`` extra.

The server's code (:mod:`bohmisch_watten.web.cli`) needs Starlette, uvicorn and Babel,
which a plain ``pip install bohmisch-watten`` does not bring.  So it is imported here
only when ``serve`` itself is asked for (its options or its run), never when the
command line starts: every other subcommand and ``--help`` work on the base install,
and ``serve`` without the extra exits 2 with one line naming what to install.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from types import ModuleType
from typing import Final

__all__ = ["DESCRIPTION", "EXTRA_HINT", "TAKES_RULES", "add_arguments", "run"]

TAKES_RULES: Final = True
"""Gets ``--rules``: the games it starts are played under them."""

DESCRIPTION: Final = "Play in the browser: a game server where people sit with bots."

EXTRA_HINT: Final = "pip install 'bohmisch-watten[web]'"
"""What to run when the ``[web]`` extra is missing."""


def _web_cli() -> ModuleType:
    """:mod:`bohmisch_watten.web.cli`, or exit 2 with one line if ``[web]`` is missing.

    Only a missing third-party module counts as the missing extra; a missing module of
    this package is a bug and keeps its traceback.
    """
    try:
        return importlib.import_module("bohmisch_watten.web.cli")
    except ModuleNotFoundError as error:
        missing = (error.name or "").partition(".")[0]
        if not missing or missing == "bohmisch_watten":
            raise
        print(f"error: serve needs the [web] extra ({missing} is missing): {EXTRA_HINT}",
              file=sys.stderr)  # fmt: skip
        raise SystemExit(2) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``serve`` (see :func:`bohmisch_watten.web.cli.add_arguments`)."""
    _web_cli().add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Start the server (see :func:`bohmisch_watten.web.cli.run`)."""
    status: int = _web_cli().run(args)
    return status
