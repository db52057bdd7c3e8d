"""``python -m bohmisch_watten arena``: measure bots against each other.

Duplicate format (every board of shuffles played in every rotation of the bots over
the seats), leagues when ``--bots`` names more bots than seats, a table with 95 %
intervals, and files for further analysis.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Final

from ..arena import run_arena
from ..arena.backends import BACKENDS
from ..arena.report import to_csv, to_json_dict, to_table, write_plot
from ..arena.schedule import schedule
from ..bots.registry import BOT_NAMES
from ..engine.spec import split_specs
from ..errors import counted
from ..rules import Rules
from ._table_rules import pick_rules, suggestion_note, unfinished_advice, warning

__all__ = ["DESCRIPTION", "TAKES_RULES", "add_arguments", "run"]

TAKES_RULES: Final = True
"""Gets ``--rules``: the games it starts are played under them."""

DESCRIPTION = "Play bots against each other (duplicate format, leagues) and print their table."

_EPILOG = """\
bots: {names}; parameters after colons, e.g. search:rollouts=60:rollout=random.
A name given twice is two contestants, labelled random, random#2, ...; one spec alone
seats that bot at every seat (--players contestants); without --bots the heuristic
plays against a random bot at each other seat.

your own bot (docs/tutorial-bots.md):
  ./mybot.py:MyBot         a class (or a function (view, rng) -> action) in a file
  mypackage.bots.MyBot     a class on sys.path, by its dotted path
  engine:COMMAND ARGS      a program in any language speaking the engine protocol
                           (docs/engine-protocol.md); engine[KEY=VALUE]:... sets options
  policy:PATH              a trained policy checkpoint (extra [train])
  parameters follow after colons as for the built-in bots: ./mybot.py:MyBot:depth=3

rules: without --rules, 2 to 4 players play the default rules and 5 to 7 the rules
suggested for the table (plus_fifty=true, RULES.md §9.3), said in one line; rules
under which a game of 5 to 7 may never end are played with a warning.

forfeits: a bot that raises, returns an illegal action or runs over --decision-timeout
loses that game; the log has one "forfeit:" line per game (the exception with the bot's
file:line, or the illegal action with its rule), the table one FORFEITS line per bot.
exit status: 0; 1 when any bot forfeited a game (unless --allow-forfeits); 2 for bad
options or a missing extra.

example:
  python -m bohmisch_watten arena --players 4 --bots search,heuristic,random,random \\
      --games 400 --seed 1 --jobs 2 --json out.json --csv out.csv --plot out.png \\
      --records games/
"""


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Every option of the arena, documented in ``--help``."""
    parser.epilog = _EPILOG.format(names=", ".join(BOT_NAMES))
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "--players",
        type=int,
        choices=range(2, 8),
        default=4,
        metavar="N",
        help="seats (R1): 2 to 4, or to 7 with --pack 36 (default 4)",
    )
    parser.add_argument(
        "--pack",
        type=int,
        choices=(32, 36),
        help="cards in the pack (R6); overrides pack= of --rules (default 32)",
    )
    parser.add_argument(
        "--bots",
        default=None,
        help="comma-separated bot specs, one per contestant, or one for every seat; more"
        " than --players makes a league; your own bot as ./file.py:Class,"
        " package.module.Class or engine:COMMAND ARGS (see below) (default: heuristic and"
        " a random bot at each other seat)",
    )
    parser.add_argument(
        "--games",
        type=_positive_int,
        default=100,
        help="games to play, rounded up to whole rotations (default 100)",
    )
    parser.add_argument("--seed", type=int, default=2026, help="arena seed (default 2026)")
    parser.add_argument(
        "--jobs",
        type=_positive_int,
        default=os.cpu_count() or 1,
        help="worker processes, or local Ray CPUs (default: all cores)",
    )
    parser.add_argument(
        "--backend", choices=BACKENDS, default="process", help="process pool or Ray"
    )
    parser.add_argument(
        "--address", help="with --backend ray: the cluster to join (default: start a local one)"
    )
    parser.add_argument(
        "--decision-timeout",
        type=_positive_float,
        default=10.0,
        metavar="SECONDS",
        help="a bot taking longer for one decision loses that game (default 10)",
    )
    parser.add_argument(
        "--max-deals",
        type=_positive_int,
        default=500,
        help="adjudicate a game by score after this many deals (default 500)",
    )
    parser.add_argument("--records", type=Path, metavar="DIR", help="save every game's record")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the table as JSON")
    parser.add_argument("--csv", type=Path, metavar="FILE", help="write one row per game")
    parser.add_argument(
        "--plot", type=Path, metavar="FILE", help="write a PNG bar chart (extra [plot])"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--allow-forfeits",
        action="store_true",
        help="exit 0 even when a bot forfeited a game (default: exit status 1)",
    )


def _contestants(text: str | None, players: int) -> list[str]:
    """The contestants of ``--bots``: one spec alone plays every seat; by default the
    heuristic against a random bot at each other seat."""
    if text is None:
        return ["heuristic", *["random"] * (players - 1)]
    specs = split_specs(text)
    return specs * players if len(specs) == 1 else specs


def _rules(args: argparse.Namespace) -> tuple[Rules, bool]:
    """The rules to play and whether they are the table's suggestion (see
    :func:`~bohmisch_watten.commands._table_rules.pick_rules`)."""
    overrides = {} if args.pack is None else {"pack": args.pack}
    pack = args.pack or (args.rules or Rules()).pack
    most = Rules(pack=pack).max_players
    if args.players > most:
        raise ValueError(
            f"--players {args.players}: {pack} cards seat 2 to {most} players (R1);"
            " five to seven play with --pack 36"
        )
    return pick_rules(args.players, args.rules, overrides)


def _progress_bar(total: int, quiet: bool) -> Any:
    tqdm: Any = importlib.import_module("tqdm").tqdm
    return tqdm(
        total=total,
        unit="game",
        disable=quiet or not sys.stderr.isatty(),
        file=sys.stderr,
        smoothing=0.1,
    )


def run(args: argparse.Namespace) -> int:
    """Play the arena the options ask for, print the table, write the files.

    Returns:
        0; 1 when a bot forfeited a game and ``--allow-forfeits`` is not given (a
        script or CI running the arena must not take a crashing bot for a result);
        2 for bad options or a missing extra.
    """
    try:
        bots = _contestants(args.bots, args.players)
        rules, suggested = _rules(args)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    caution = suggestion_note(args.players, rules) if suggested else warning(args.players, rules)
    if caution is not None:
        print(caution, file=sys.stderr)
    if args.plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("error: --plot needs matplotlib: pip install 'bohmisch-watten[plot]'",
                  file=sys.stderr)  # fmt: skip
            return 2
    if args.backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            print("error: --backend ray needs Ray: pip install 'bohmisch-watten[ray]'",
                  file=sys.stderr)  # fmt: skip
            return 2

    try:
        total = len(schedule(args.games, len(bots), args.players))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    bar = _progress_bar(total, args.quiet)
    try:
        summary, results = run_arena(
            bots,
            players=args.players,
            games=args.games,
            seed=args.seed,
            rules=rules,
            jobs=args.jobs,
            backend=args.backend,
            address=args.address,
            decision_timeout=args.decision_timeout,
            max_deals=args.max_deals,
            keep_records=args.records is not None,
            progress=bar.update,
        )
    except (ValueError, ImportError) as error:  # ImportError: a bot's extra is missing
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        bar.close()
    print(to_table(summary))
    if summary.capped:
        print(f"Unfinished: {unfinished_advice(args.players, rules)}.")
    if args.json is not None:
        args.json.write_text(json.dumps(to_json_dict(summary), indent=2) + "\n", encoding="utf-8")
    if args.csv is not None:
        args.csv.write_text(to_csv(summary.setup, results), encoding="utf-8")
    if args.plot is not None:
        write_plot(summary, args.plot)
    if args.records is not None:
        args.records.mkdir(parents=True, exist_ok=True)
        for result in results:
            assert result.record is not None
            (args.records / f"game-{result.index:05d}.txt").write_text(
                result.record, encoding="utf-8"
            )
    forfeited = sum(result.forfeit is not None for result in results)
    if forfeited and not args.allow_forfeits:
        print(
            f"error: {forfeited} of {counted(len(results), 'game')} ended in a forfeit"
            " (see FORFEITS);"
            " exit status 1 (--allow-forfeits: 0)",
            file=sys.stderr,
        )
        return 1
    return 0
