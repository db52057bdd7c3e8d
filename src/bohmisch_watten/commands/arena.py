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
from typing import Any

from ..arena import run_arena
from ..arena.backends import BACKENDS
from ..arena.report import to_csv, to_json_dict, to_table, write_plot
from ..arena.schedule import schedule
from ..bots.registry import BOT_NAMES
from ..engine.spec import split_specs

__all__ = ["DESCRIPTION", "add_arguments", "run"]

DESCRIPTION = "Play bots against each other (duplicate format, leagues) and print their table."

_EPILOG = """\
bots: {names}; parameters after colons, e.g. search:rollouts=60:rollout=random.
A name given twice is two contestants, labelled random, random#2, ...

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
        help="seats (R1): 2 to 4, or to 7 with --rules pack=36 (default 4)",
    )
    parser.add_argument(
        "--bots",
        default="heuristic,random,random,random",
        help="comma-separated bot specs, one per contestant; more than --players makes a"
        " league; engine:COMMAND ARGS plays a program in any language over the engine"
        " protocol (engine[KEY=VALUE ...]:COMMAND ARGS sets its options), see"
        " docs/engine-protocol.md (default: heuristic,random,random,random)",
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
        bots = split_specs(args.bots)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
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
            rules=args.rules,
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
            f"error: {forfeited} of {len(results)} games ended in a forfeit (see FORFEITS);"
            " exit status 1 (--allow-forfeits: 0)",
            file=sys.stderr,
        )
        return 1
    return 0
