"""``python -m bohmisch_watten``: the command line, one subcommand per job.

``python -m bohmisch_watten [demo] …`` prints one seeded game (the demo is what runs
when no subcommand is named, so ``python -m bohmisch_watten --seed 1`` works as
before); ``python -m bohmisch_watten arena …`` measures bots.  The subcommands and
their modules are listed in :data:`bohmisch_watten.commands.COMMANDS`; ``--help``
lists them as argparse subcommands.

Every command exits quietly when its reader closes the pipe (``… demo | head``), as
Unix tools do, instead of printing a ``BrokenPipeError`` traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from .. import __version__, native_core
from ..errors import FormatError
from ..notation import parse_rules
from ..rules import Rules
from . import COMMANDS, DEFAULT_COMMAND
from .demo import play_and_print

__all__ = [
    "BROKEN_PIPE_STATUS",
    "build_main_parser",
    "build_parser",
    "main",
    "play_and_print",
    "version_line",
]

PROG = "python -m bohmisch_watten"

BROKEN_PIPE_STATUS: Final = 141
"""The exit status after the reader closed stdout: what a shell reports for SIGPIPE."""


def _rules(text: str) -> Rules:
    try:
        return parse_rules(text)
    except FormatError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _add_rules(parser: argparse.ArgumentParser) -> None:
    """``--rules``; None when not given, so a command can tell "default" from nothing
    (five to seven seats then play :func:`~bohmisch_watten.suggested_rules`)."""
    parser.add_argument(
        "--rules",
        type=_rules,
        default=None,
        metavar="RULES",
        help='the variants, e.g. "schleck=none,must_head=false", or "default" (default: the'
        " default rules; demo and arena seat 5 to 7 players with the suggested rules,"
        " plus_fifty=true, RULES.md §9.3)",
    )


def build_parser(command: str = DEFAULT_COMMAND, *, prog: str = PROG) -> argparse.ArgumentParser:
    """The parser of one subcommand: its own options, and ``--rules`` if it plays games.

    Raises:
        KeyError: for an unknown subcommand.
    """
    module = COMMANDS[command]
    others = ", ".join(name for name in COMMANDS if name != command)
    default = " (the default)" if command == DEFAULT_COMMAND else ""
    parser = argparse.ArgumentParser(
        prog=f"{prog} {command}",
        description=f"{module.DESCRIPTION}  Subcommand {command!r}{default};"
        f" other subcommands: {others} (see {prog} SUBCOMMAND --help).",
    )
    if module.TAKES_RULES:
        _add_rules(parser)
    module.add_arguments(parser)
    return parser


def build_main_parser(prog: str = PROG) -> argparse.ArgumentParser:
    """The parser used when no subcommand is named: the subcommands, then the demo's options.

    The subcommands are argparse subcommands, so ``--help`` lists them with one line
    each and a misspelt one is refused with the list; the options are the demo's,
    because the demo runs when no subcommand is named.
    """
    parser = argparse.ArgumentParser(
        prog=prog,
        description="The Böhmisch Watten rules library's command line.  Without a"
        f" subcommand it runs {DEFAULT_COMMAND!r}, whose options follow.",
        epilog=f"See {prog} SUBCOMMAND --help for the options of each subcommand.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=version_line(),
        help="print the release and which core runs the rules, then exit",
    )
    subcommands = parser.add_subparsers(
        title="subcommands", dest="command", metavar="SUBCOMMAND", required=False
    )
    for name, module in COMMANDS.items():
        subcommands.add_parser(name, help=module.DESCRIPTION, add_help=False)
    _add_rules(parser)
    COMMANDS[DEFAULT_COMMAND].add_arguments(parser)
    return parser


def version_line() -> str:
    """The release and the core in use, e.g. ``bohmisch_watten 0.2.0 (compiled core)``."""
    return f"bohmisch_watten {__version__} ({native_core.reason})"


def _prog() -> str:
    """The name the user typed: ``bohmisch-watten`` for the script, else ``python -m …``."""
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return PROG if name in ("", "__main__.py", "-c") else name


def _silence_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # a stdout without a file (tests)
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m bohmisch_watten``; returns the exit status.

    Returns:
        The command's status; :data:`BROKEN_PIPE_STATUS` if stdout was closed early.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    prog = _prog()
    if args and args[0] in COMMANDS:
        command = args.pop(0)
        namespace = build_parser(command, prog=prog).parse_args(args)
    else:
        command = DEFAULT_COMMAND
        parser = build_main_parser(prog)
        namespace = parser.parse_args(args)
        if namespace.command is not None:
            parser.error(f"name the subcommand first: {prog} {namespace.command} OPTIONS")
    try:
        status: int = COMMANDS[command].run(namespace)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE_STATUS
    return status
