"""``python -m bohmisch_watten engine --bot SPEC``: serve a bot over the engine protocol.

A host in any language starts this command and speaks the protocol of
``docs/engine-protocol.md`` with it on stdin and stdout; ``--log FILE`` records the
dialogue (``>`` what came in, ``<`` what went out).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Final

from ..bots.registry import BOT_NAMES, make_bot
from ..engine.serve import serve

__all__ = ["DESCRIPTION", "TAKES_RULES", "add_arguments", "run"]

TAKES_RULES: Final = False
"""No ``--rules``: the host sends each game's rules in ``new_game``."""

DESCRIPTION = "Serve a bot over the engine protocol (JSON lines on stdin/stdout)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``engine``."""
    parser.epilog = (
        "The host sends the rules of each game in new_game."
        " The protocol is described in docs/engine-protocol.md."
    )
    parser.add_argument(
        "--bot",
        default="random",
        metavar="SPEC",
        help=f"the bot to serve: {', '.join(BOT_NAMES)}, with parameters after colons,"
        " e.g. search:rollouts=200 (default random)",
    )
    parser.add_argument("--log", type=Path, metavar="FILE", help="append the dialogue to FILE")
    parser.add_argument(
        "--protocol",
        type=int,
        choices=(1, 2),
        help="the protocol to choose when the host offers it (default: the newest offered;"
        " 1 gives the bot every finished deal in each view, at a cost that grows with the"
        " game)",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until ``quit`` or the end of stdin; 2 for a bad bot spec or a missing extra."""
    try:
        bot = make_bot(args.bot)
    except (ValueError, ImportError) as error:  # ImportError: the bot's extra is missing
        print(f"error: {error}", file=sys.stderr)
        return 2
    name = f"bohmisch_watten {args.bot}"
    if args.log is None:
        return serve(bot, name, sys.stdin.buffer, sys.stdout.buffer, protocol=args.protocol)
    with args.log.open("a", encoding="utf-8") as log:
        return serve(bot, name, sys.stdin.buffer, sys.stdout.buffer, log, args.protocol)
