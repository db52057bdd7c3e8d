"""``python -m bohmisch_watten serve``: the game server, its lobby and its tables.

Needs the ``[web]`` extra (``pip install 'bohmisch-watten[web]'``; PostgreSQL also needs
``[postgres]``).  The tables live in ``--db`` (a SQLite file, by default
``watten.sqlite`` in the working directory, or a ``postgresql://`` URL); every
unfinished table is resumed at start.  ``/`` is the lobby, where tables are created.
Table options (``--players``, ``--humans``, ``--bots``, ``--seed``, ``--dealer``,
``--rules``) open one more table at start and print its links.
"""

from __future__ import annotations

import argparse
import sys
from typing import Final

from ..rules import Rules
from ._players import BOT_KINDS, check
from .table import Table

__all__ = ["DEFAULT_DB", "DESCRIPTION", "add_arguments", "run"]

DESCRIPTION: Final = "Play in the browser: a game server where people sit with bots."

DEFAULT_BOTS: Final = "search,heuristic,heuristic"
DEFAULT_DB: Final = "watten.sqlite"
"""The SQLite file ``serve`` keeps its tables in unless ``--db`` says otherwise."""


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
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any)")
    parser.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=f"a SQLite file or a postgresql:// URL (default {DEFAULT_DB} here)",
    )
    parser.add_argument(
        "--max-tables", type=int, default=100, help="open tables at once (default 100)"
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=20.0,
        metavar="MESSAGES",
        help="messages a second one connection may send (bursts of twice as many; default 20)",
    )
    parser.add_argument(
        "--away",
        type=float,
        default=None,
        metavar="SECONDS",
        help="hand a person's seat to a bot after this long away on their turn (default never)",
    )
    parser.add_argument(
        "--away-bot", type=_bot, default="heuristic", help="the bot that takes such a seat"
    )
    parser.add_argument(
        "--group-moves",
        action="store_true",
        help="at tables of pace 0, show a move and the quick bot moves after it in one frame"
        " (an 'events' frame before it tells the skipped versions)",
    )
    parser.add_argument(
        "--collect-every",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="full garbage collections on this clock, never mid-move (default 600; 0: Python's"
        " own schedule)",
    )
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=None)
    parser.add_argument(
        "--humans", type=int, default=None, help="human seats, each with its own link (default 1)"
    )
    parser.add_argument(
        "--bots",
        type=_bots,
        default=None,
        help=f"bot of each other seat, comma-separated: {', '.join(BOT_KINDS)}, with"
        f" parameters after colons, e.g. search:rollouts=60 (default {DEFAULT_BOTS})",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of shuffles and bots")
    parser.add_argument("--dealer", type=int, default=None, help="the first dealer's seat (R3)")
    parser.add_argument(
        "--delay", type=float, default=0.8, help="seconds between bot moves (default 0.8)"
    )


def _bot(text: str) -> str:
    (kind,) = _bots(text) or [""]
    if not kind:
        raise argparse.ArgumentTypeError("name a bot")
    return kind


def _first_table(args: argparse.Namespace) -> Table | None:
    """The table the options ask for at start, None if they ask for none."""
    asked = [args.players, args.humans, args.bots, args.seed, args.dealer]
    rules = getattr(args, "rules", None)
    if all(value is None for value in asked) and (rules is None or rules == Rules()):
        return None
    return Table(
        players=4 if args.players is None else args.players,
        humans=1 if args.humans is None else args.humans,
        bots=args.bots,
        seed=args.seed,
        rules=rules,
        dealer=0 if args.dealer is None else args.dealer,
    )


def run(args: argparse.Namespace) -> int:
    """Start the server; returns the exit status (2 for bad options or a missing extra)."""
    try:
        import uvicorn

        from .server import GameServer, Limits, create_server
        from .storage import open_storage
    except ImportError as error:  # pragma: no cover - depends on the installed extras
        print(f"error: serve needs the [web] extra ({error.name} is missing):", file=sys.stderr)
        print("  pip install 'bohmisch-watten[web]'", file=sys.stderr)
        return 2
    try:
        table = _first_table(args)
        if args.delay < 0:
            raise ValueError("--delay must not be negative")
        if args.max_tables < 1:
            raise ValueError("--max-tables must be at least 1")
        if args.rate <= 0:
            raise ValueError("--rate must be positive")
        if args.away is not None and args.away <= 0:
            raise ValueError("--away must be positive")
        if not args.collect_every >= 0:  # NaN too
            raise ValueError("--collect-every must not be negative")
        storage = open_storage(args.db)
    except ImportError as error:  # pragma: no cover - depends on the installed extras
        print(f"error: PostgreSQL needs the [postgres] extra ({error.name} is missing)")
        return 2
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    limits = Limits(
        max_tables=args.max_tables,
        messages_per_second=args.rate,
        away=args.away,
        away_bot=args.away_bot,
    )
    app = create_server(
        storage,
        limits=limits,
        delay=args.delay,
        group_moves=args.group_moves,
        collect_every=args.collect_every or None,
    )
    server: GameServer = app.state.server
    shown = args.db if "://" not in args.db else args.db.split("@")[-1]  # no password
    base = f"http://{args.host}:{args.port}"
    print(f"Böhmisch Watten server at {base}/ (tables in {shown})")
    if table is not None:
        hub = server.add_table(table, args.delay)
        app.state.hub = hub
        print(f"Table {hub.table_id} ({len(table.seats)} players):")
        for seat in table.seats:
            if seat.is_human:
                host = " (host)" if seat.number == table.host else ""
                print(f"  seat {seat.number}{host}: {base}/play/{seat.token}")
            else:
                print(f"  seat {seat.number}: {seat.kind} bot")
    sys.stdout.flush()
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        # uvloop where it is installed (the [web] extra, not on Windows), else asyncio's
        # own loop: the server runs on either.
        loop="auto",
        ws_max_size=65536,
        # No per-message deflate: a frame is a few kB sent once a move, and compressing
        # it cost the server as much CPU as building it (benchmarks/RESULTS-web.md).
        ws_per_message_deflate=False,
    )
    return 0
