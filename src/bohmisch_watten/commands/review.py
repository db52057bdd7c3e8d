"""``python -m bohmisch_watten review GAME``: judge every decision of a recorded game.

GAME is a record file in either form (text or JSON, see
:mod:`bohmisch_watten.records`) or a state saved with ``state.to_json()``
(:func:`~bohmisch_watten.review.load_game`).  The table goes to standard output, the progress bar to
standard error; ``--json`` and ``--plot`` write files.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any, Final

from ..bots.registry import BOT_NAMES, make_bot
from ..errors import FormatError
from ..review import Judge, default_judge, load_game, review
from ..review.report import format_table, write_plot

__all__ = ["DESCRIPTION", "TAKES_RULES", "add_arguments", "run"]

TAKES_RULES: Final = False
"""No ``--rules``: the record's own rules are used."""

DESCRIPTION = "Judge every decision of a recorded game: losses, mistakes, a graph."

_EPILOG = """\
The judge sees only what the deciding seat saw.  Values and losses are expected points
toward zero in the deal; a loss of at least 0.5 is an inaccuracy, 1 a mistake, 2 a
blunder.  Bots that can judge (they have hint and evaluate): {names}, with
parameters after colons.  The rules are the record's own.

GAME: a record (text or JSON: the demo's --save, the arena's --records, a server's
GET /api/tables/ID/record) or a state saved with state.to_json().

example:
  python -m bohmisch_watten demo --seed 1 --save game.txt
  python -m bohmisch_watten review game.txt --seats 0,2 \\
      --bot search:rollouts=240 --seed 1 --json review.json --plot review.png
"""


def _seats(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"seats are numbers separated by commas: {text!r}"
        ) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``review``."""
    judges = [name for name in BOT_NAMES if isinstance(make_bot(name), Judge)]
    parser.epilog = _EPILOG.format(names=", ".join(judges))
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "game",
        type=Path,
        metavar="GAME",
        help="a record file (text or JSON) or a saved state (state.to_json())",
    )
    parser.add_argument("--seats", type=_seats, help="the seats to review, e.g. 0,2 (default all)")
    parser.add_argument(
        "--bot",
        metavar="SPEC",
        help="the judge, a bot spec such as search:rollouts=240 (default: expert if"
        " available, else search)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the judge (default 0)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the review as JSON")
    parser.add_argument(
        "--plot", type=Path, metavar="FILE", help="draw the expected scores as PNG (extra [plot])"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _judge(spec: str | None) -> Judge:
    if spec is None:
        return default_judge()
    bot = make_bot(spec)
    if not isinstance(bot, Judge):
        raise ValueError(f"bot {spec!r} cannot judge: it needs hint() and evaluate()")
    return bot


def _error(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Review the game, print the table, write the files; 2 for a bad file or option."""
    if args.plot is not None:
        try:
            importlib.import_module("matplotlib")
        except ImportError:
            return _error("--plot needs matplotlib: pip install 'bohmisch-watten[plot]'")
    try:
        record = load_game(args.game.read_bytes())
    except OSError as error:
        return _error(f"cannot read {args.game}: {error.strerror or error}")
    except FormatError as error:
        return _error(f"{args.game}: {error}")
    try:
        judge = _judge(args.bot)
    except ValueError as error:
        return _error(str(error))
    tqdm: Any = importlib.import_module("tqdm").tqdm
    bar = tqdm(unit="decision", disable=args.quiet or not sys.stderr.isatty(), file=sys.stderr)

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    try:
        result = review(record, judge, seats=args.seats, seed=args.seed, progress=progress)
    except FormatError as error:
        return _error(f"{args.game}: {error}")
    except ValueError as error:
        return _error(str(error))
    finally:
        bar.close()
    print(format_table(result), end="")
    if args.json is not None:
        args.json.write_text(json.dumps(result.to_dict(), indent=1) + "\n", encoding="utf-8")
    if args.plot is not None:
        write_plot(result, args.plot)
    return 0
