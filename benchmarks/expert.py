"""Strength and speed of ExpertBot (a script, not a timed test).

Plays the pairings of the expert's strength targets in the duplicate arena (seats
rotated) and prints each table (win rate with its 95 % Wilson interval, the p-value
against the fair share, the mean ms per decision), then measures the expert's time per
decision on a fixed set of decision views (median and mean, CPU and wall clock):

    python benchmarks/expert.py --games 400 --seed 7 --jobs 2        # the full measurement
    python benchmarks/expert.py --games 20 --pairings heuristic4     # a quick look

Each pairing is played in chunks of ``--chunk`` games, chunk ``i`` with seed
``seed + i`` (each chunk is a complete duplicate arena of its own); the table printed
after every chunk aggregates all the games so far, and ``--json-dir`` keeps it on disk,
so a run stopped early still reports honest partial figures with their game count.

The pairings (the targets of the expert):

* ``search4``: expert against three ``SearchBot()`` (target: 35 %, interval above 25 %);
* ``heuristic4``: expert against three ``HeuristicBot`` (target: 50 %);
* ``search2``: two players, expert against ``SearchBot()`` (target: 60 %);
* ``search3``: three players, expert against two ``SearchBot()`` (target: 42 %).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from bots import decision_views  # the same decision set as benchmarks/bots.py

from bohmisch_watten.arena import GameResult, run_arena
from bohmisch_watten.arena.report import summarize, to_json_dict, to_table
from bohmisch_watten.bots import make_bot
from bohmisch_watten.views import PlayerView

PAIRINGS = {
    "search4": (4, "search"),
    "heuristic4": (4, "heuristic"),
    "search2": (2, "search"),
    "search3": (3, "search"),
}


def decision_times(spec: str, views: list[PlayerView]) -> None:
    """Print the median and mean time per decision, CPU and wall, by phase and overall."""
    bot = make_bot(spec)
    rng = random.Random(0)
    cpu: dict[str, list[float]] = {}
    wall: dict[str, list[float]] = {}
    for view in views:
        c0, w0 = time.process_time(), time.perf_counter()
        bot.choose(view, rng)
        c1, w1 = time.process_time(), time.perf_counter()
        for key in (view.phase.value, "all"):
            cpu.setdefault(key, []).append(1000 * (c1 - c0))
            wall.setdefault(key, []).append(1000 * (w1 - w0))
    print(f"\n{spec} on {len(views)} decisions with a choice (4 players), ms per decision:")
    print(f"{'phase':10s} {'n':>4s} {'median cpu':>11s} {'mean cpu':>9s} {'median wall':>12s}")
    for key in sorted(cpu, key=lambda k: (k == "all", k)):
        c, w = cpu[key], wall[key]
        print(
            f"{key:10s} {len(c):4d} {statistics.median(c):11.1f} {statistics.mean(c):9.1f}"
            f" {statistics.median(w):12.1f}"
        )


def play(name: str, args: argparse.Namespace) -> None:
    """One pairing, chunk by chunk, printing the aggregated table after each chunk."""
    players, opponent = PAIRINGS[name]
    bots = [args.expert] + [opponent] * (players - 1)
    results: list[GameResult] = []
    start = time.perf_counter()
    chunks = -(-args.games // args.chunk)
    for i in range(chunks):
        summary, chunk = run_arena(
            bots, players=players, games=args.chunk, seed=args.seed + i, jobs=args.jobs
        )
        results += chunk
        total = summarize(summary.setup, results)
        print(
            f"\n{name}: {', '.join(bots)} — {len(results)} games, seeds {args.seed}"
            f"..{args.seed + i}, {time.perf_counter() - start:.0f} s, --jobs {args.jobs}"
        )
        print(to_table(total))
        if args.json_dir:
            document = to_json_dict(total)
            document["seeds"] = [args.seed, args.seed + i]
            path = Path(args.json_dir) / f"expert-{name}.json"
            path.write_text(json.dumps(document, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per pairing")
    parser.add_argument("--seed", type=int, default=7, help="seed of the first chunk")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=40, help="games per chunk")
    parser.add_argument("--expert", default="expert", help="the expert's bot spec")
    parser.add_argument(
        "--pairings", default=",".join(PAIRINGS), help=f"comma-separated: {', '.join(PAIRINGS)}"
    )
    parser.add_argument("--speed-views", type=int, default=200)
    parser.add_argument("--json-dir", default=None, help="write expert-PAIRING.json here")
    args = parser.parse_args()

    if args.speed_views:
        decision_times(args.expert, decision_views(args.speed_views, args.seed))
    for name in args.pairings.split(","):
        if name:
            play(name.strip(), args)


if __name__ == "__main__":
    main()
