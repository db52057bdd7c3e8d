"""``python -m bohmisch_watten serve``: open a table in the browser, humans with bots.

Needs the ``[web]`` extra (``pip install 'bohmisch-watten[web]'``).  The links of the
human seats are printed at start-up; ``/`` opens the first free human seat.
"""

from __future__ import annotations

import argparse
import sys
from typing import Final

from ._players import BOT_KINDS, check
from .table import Table

__all__ = ["DESCRIPTION", "add_arguments", "run"]

DESCRIPTION: Final = "Play in the browser: a table where people sit with bots."

DEFAULT_BOTS: Final = "search,heuristic,heuristic"


def _bots(text: str) -> list[str]:
    kinds = [kind.strip() for kind in text.split(",") if kind.strip()]
    for kind in kinds:
        try:
            check(kind)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return kinds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument(
        "--humans", type=int, default=1, help="human seats, each with its own link (default 1)"
    )
    parser.add_argument(
        "--bots",
        type=_bots,
        default=None,
        help=f"bot of each other seat, comma-separated: {', '.join(BOT_KINDS)}, with"
        f" parameters after colons, e.g. search:rollouts=60 (default {DEFAULT_BOTS})",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of shuffles and bots")
    parser.add_argument("--dealer", type=int, default=0, help="the first dealer's seat (R3)")
    parser.add_argument(
        "--delay", type=float, default=0.8, help="seconds between bot moves (default 0.8)"
    )


def run(args: argparse.Namespace) -> int:
    """Start the server; returns the exit status (2 for bad options or a missing extra)."""
    try:
        import uvicorn

        from .app import create_app
    except ImportError as error:  # pragma: no cover - depends on the installed extras
        print(f"error: serve needs the [web] extra ({error.name} is missing):", file=sys.stderr)
        print("  pip install 'bohmisch-watten[web]'", file=sys.stderr)
        return 2
    try:
        table = Table(
            players=args.players,
            humans=args.humans,
            bots=args.bots,
            seed=args.seed,
            rules=getattr(args, "rules", None),
            dealer=args.dealer,
        )
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.delay < 0:
        print("error: --delay must not be negative", file=sys.stderr)
        return 2
    base = f"http://{args.host}:{args.port}"
    print(f"Böhmisch Watten table at {base}/ ({args.players} players)")
    for seat in table.seats:
        if seat.is_human:
            host = " (host)" if seat.number == table.host else ""
            print(f"  seat {seat.number}{host}: {base}/play/{seat.token}")
        else:
            print(f"  seat {seat.number}: {seat.kind} bot")
    sys.stdout.flush()
    app = create_app(table, delay=args.delay)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=65536)
    return 0
