"""``python -m bohmisch_watten serve``: the game server, its lobby and its tables.

Needs the ``[web]`` extra (``pip install 'bohmisch-watten[web]'``; PostgreSQL also needs
``[postgres]``).  The tables live in ``--db`` (a SQLite file, by default
``watten.sqlite`` in the working directory, or a ``postgresql://`` URL); every
unfinished table is resumed at start.  ``/`` is the lobby, where tables are created.
Table options (``--players``, ``--humans``, ``--bots``, ``--seed``, ``--dealer``,
``--rules``) open one more table at start and print its links.

What a client on the network may ask for is set here by the operator (``docs/server.md``,
Security): the bots it may name (``--bot NAME=SPEC``), the host names served
(``--allowed-host``), other sites allowed to write (``--allowed-origin``), and the
limits.
"""

from __future__ import annotations

import argparse
import sys
from typing import Final

import uvicorn

from ..rules import Rules
from ._guard import LOOPBACK
from ._players import BOT_KINDS, check
from ._protocols import GuardedHTTP, GuardedWebSocket
from ._reviews import REVIEW_QUEUE, REVIEW_WORKERS, REVIEWS_PER_CLIENT
from .backends import open_storage
from .server import GameServer, Limits, create_server
from .table import Table

__all__ = ["DEFAULT_DB", "DESCRIPTION", "add_arguments", "run"]

DESCRIPTION: Final = "Play in the browser: a game server where people sit with bots."

DEFAULT_BOTS: Final = "search,heuristic,heuristic"
DEFAULT_DB: Final = "watten.sqlite"
"""The SQLite file ``serve`` keeps its tables in unless ``--db`` says otherwise."""


def _registered(text: str) -> tuple[str, str]:
    name, sep, spec = text.partition("=")
    if not sep or not name.strip() or not spec.strip():
        raise argparse.ArgumentTypeError(
            f"--bot takes NAME=SPEC, e.g. deep=expert:samples=80, got {text!r}"
        )
    return name.strip(), spec.strip()


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
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name clients reach the server by (the Host header; repeatable; '*':"
        " any, behind a proxy that checks it); the loopback names and --host always",
    )
    parser.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another site whose pages may create tables and connect, e.g."
        " https://example.org (repeatable; the server's own pages always may)",
    )
    parser.add_argument(
        "--bot",
        action="append",
        type=_registered,
        default=[],
        metavar="NAME=SPEC",
        help="register a bot clients may name, e.g. --bot mine=engine:./my_engine or"
        " --bot deep=expert:samples=80 (repeatable); otherwise they name only the"
        " built-in bots within their caps",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="ADDRESSES",
        help="proxies (comma-separated addresses) whose X-Forwarded-For gives the client's"
        " address, for the per-client limit (default: none, the peer's address counts)",
    )
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
        "--tables-per-client",
        type=int,
        default=20,
        metavar="N",
        help="tables one client address may create in an hour (default 20)",
    )
    parser.add_argument(
        "--review-workers",
        type=int,
        default=REVIEW_WORKERS,
        metavar="N",
        help=f"processes computing the reviews of finished games (default {REVIEW_WORKERS})",
    )
    parser.add_argument(
        "--review-queue",
        type=int,
        default=REVIEW_QUEUE,
        metavar="N",
        help=f"reviews that may wait for a worker; more get 503 (default {REVIEW_QUEUE})",
    )
    parser.add_argument(
        "--reviews-per-client",
        type=int,
        default=REVIEWS_PER_CLIENT,
        metavar="N",
        help=f"reviews one client address may start in an hour (default {REVIEWS_PER_CLIENT})",
    )
    parser.add_argument(
        "--spectators",
        type=int,
        default=32,
        metavar="N",
        help="spectators at one table (default 32; the seats always get in)",
    )
    parser.add_argument(
        "--expire-unjoined",
        type=float,
        default=900.0,
        metavar="SECONDS",
        help="a table no person joined expires after this long (default 900; 0: never)",
    )
    parser.add_argument(
        "--expire-idle",
        type=float,
        default=3 * 3600.0,
        metavar="SECONDS",
        help="a table where nobody moved expires after this long (default 10800; 0: never)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=20.0,
        metavar="MESSAGES",
        help="messages a second one connection may send, and as many pings and pongs"
        " (bursts of twice as many; default 20)",
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
    parser.add_argument(
        "--players",
        type=int,
        choices=range(2, 8),
        default=None,
        metavar="{2..7}",
        help="seats (R1): 2 to 4, or to 7 with --rules pack=36 (default 4)",
    )
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
    """Start the server; returns the exit status (2 for bad options).

    A missing ``[web]`` extra is told by :mod:`bohmisch_watten.commands.serve`, which
    imports this module only when ``serve`` is asked for.
    """
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
        if args.review_workers < 1 or args.review_queue < 0 or args.reviews_per_client < 1:
            raise ValueError(
                "--review-workers and --reviews-per-client must be at least 1,"
                " --review-queue at least 0"
            )
        if args.tables_per_client < 1 or args.spectators < 0:
            raise ValueError("--tables-per-client must be at least 1, --spectators at least 0")
        if not (args.expire_unjoined >= 0 and args.expire_idle >= 0):
            raise ValueError("--expire-unjoined and --expire-idle must not be negative")
        registered = dict(args.bot)
        if len(registered) != len(args.bot):
            raise ValueError("--bot: a name is registered twice")
        storage = open_storage(args.db)
    except ImportError as error:  # pragma: no cover - depends on the installed extras
        print(f"error: PostgreSQL needs the [postgres] extra ({error.name} is missing)")
        return 2
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    limits = Limits(
        max_tables=args.max_tables,
        tables_per_client=args.tables_per_client,
        spectators_per_table=args.spectators,
        expire_unjoined=args.expire_unjoined or None,
        expire_idle=args.expire_idle or None,
        messages_per_second=args.rate,
        away=args.away,
        away_bot=args.away_bot,
        review_workers=args.review_workers,
        review_queue=args.review_queue,
        reviews_per_client=args.reviews_per_client,
    )
    wildcard = args.host in ("0.0.0.0", "::", "")
    hosts = {*LOOPBACK, *args.allowed_host, *([] if wildcard else [args.host])}
    try:
        app = create_server(
            storage,
            limits=limits,
            delay=args.delay,
            group_moves=args.group_moves,
            collect_every=args.collect_every or None,
            bots=registered,
            allowed_hosts=hosts,
            allowed_origins=args.allowed_origin,
        )
    except ValueError as error:
        storage.close()
        print(f"error: --bot {error}", file=sys.stderr)
        return 2
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
    if wildcard and not args.allowed_host:
        print(
            "note: listening on every address, but answering only to the loopback names:"
            " add --allowed-host with the name or address others reach this machine by",
            file=sys.stderr,
        )
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
        # The guards of _protocols: a late request head is cut, and so is a websocket
        # the server drops for not reading.
        http=GuardedHTTP,
        ws=GuardedWebSocket.limited(args.rate),
        proxy_headers=args.forwarded_allow_ips is not None,
        forwarded_allow_ips=args.forwarded_allow_ips,
        # No per-message deflate: a frame is a few kB sent once a move, and compressing
        # it cost the server as much CPU as building it (benchmarks/RESULTS-web.md).
        ws_per_message_deflate=False,
    )
    return 0
