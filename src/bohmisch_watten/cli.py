"""``python -m bohmisch_watten``: the command line, one subcommand per job.

``python -m bohmisch_watten [demo] …`` prints one seeded game (the demo is what runs
when no subcommand is named, so ``python -m bohmisch_watten --seed 1`` works as
before); ``python -m bohmisch_watten arena …`` measures bots.  The subcommands and
their modules are listed in :data:`bohmisch_watten.commands.COMMANDS`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .commands import COMMANDS, DEFAULT_COMMAND
from .commands.demo import play_and_print
from .errors import FormatError
from .notation import parse_rules
from .rules import Rules

__all__ = ["build_parser", "main", "play_and_print"]

PROG = "python -m bohmisch_watten"


def _rules(text: str) -> Rules:
    try:
        return parse_rules(text)
    except FormatError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def build_parser(command: str = DEFAULT_COMMAND) -> argparse.ArgumentParser:
    """The parser of one subcommand: its own options plus ``--rules``.

    Raises:
        KeyError: for an unknown subcommand.
    """
    module = COMMANDS[command]
    others = ", ".join(name for name in COMMANDS if name != command)
    default = " (the default)" if command == DEFAULT_COMMAND else ""
    parser = argparse.ArgumentParser(
        prog=f"{PROG} {command}",
        description=f"{module.DESCRIPTION}  Subcommand {command!r}{default};"
        f" other subcommands: {others} (see {PROG} SUBCOMMAND --help).",
    )
    parser.add_argument(
        "--rules",
        type=_rules,
        default=Rules(),
        metavar="RULES",
        help='the variants, e.g. "schleck=none,must_head=false" (default: the default rules)',
    )
    module.add_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m bohmisch_watten``; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    command = args.pop(0) if args and args[0] in COMMANDS else DEFAULT_COMMAND
    namespace = build_parser(command).parse_args(args)
    status: int = COMMANDS[command].run(namespace)
    return status
