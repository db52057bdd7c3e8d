"""Random whole-game playouts in the compiled core: player decisions per second, one core.

A script, not a test: ``python benchmarks/native_playout.py [--games G] [--rounds R]
[--players 2 3 4] [--pack 32] [--max-deal D]``.  Each round plays ``G`` games of the
default rules (or ``--pack 36``) with ``bohmisch_watten._native.random_playouts``: the
loop of the README (a random shuffle at each chance node, a uniformly random legal
action at each decision) run entirely in C, with the core's own seeded generator
(xoshiro256**); a game stops at its end or after deal ``D`` (default 500, as
``benchmarks/readme_loop.py``).  Decisions are counted, shuffles are not.  The clock is
the process's CPU time (``time.process_time``), so that other work on a shared machine
does not count; the figure is the median of the rounds, with their range.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time


def rate(num_players: int, pack: int, games: int, seed: int, max_deal: int) -> float:
    """Decisions per CPU second of ``games`` random playouts of one table."""
    native = importlib.import_module("bohmisch_watten._native")
    start = native.Game(num_players, pack=pack)
    began = time.process_time()
    decisions = native.random_playouts(start, games, seed, max_deal)
    return float(decisions) / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    parser.add_argument("--pack", type=int, default=32, choices=(32, 36))
    parser.add_argument("--max-deal", type=int, default=500)
    args = parser.parse_args()
    for n in args.players:
        rates = [rate(n, args.pack, args.games, seed, args.max_deal) for seed in range(args.rounds)]
        print(
            f"{n} players, {args.pack} cards: {statistics.median(rates) / 1e6:.2f} M decisions/s"
            f" (median of {args.rounds} rounds of {args.games} games;"
            f" range {min(rates) / 1e6:.2f}-{max(rates) / 1e6:.2f})"
        )


if __name__ == "__main__":
    main()
