"""The README's loop written on ``bohmisch_watten._native.Game``: decisions per second.

A script, not a test: ``python benchmarks/native_loop.py [--games G] [--rounds R]``.
The loop of ``benchmarks/readme_loop.py`` (four players, default rules, games capped
at deal 500, ``random.Random(2026)``), but on the compiled core's mutable game and its
action ids instead of ``GameState`` and action objects: ``game.shuffle(order)`` with
``rng.shuffle`` of the 32 indices at each chance node, ``game.apply(rng.choice(
game.legal()))`` at each decision.  Decisions are counted, shuffles are not; CPU clock,
the median of the rounds.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time


def main(games: int) -> int:
    """Play ``games`` games by the loop; return the decisions."""
    native = importlib.import_module("bohmisch_watten._native")
    rng = random.Random(2026)
    decisions = 0
    order = list(range(32))
    for _ in range(games):
        game = native.Game(4)
        while not game.is_terminal and game.deal_number <= 500:
            if game.is_chance_node:
                rng.shuffle(order)
                game.shuffle(order)
            else:
                game.apply(rng.choice(game.legal()))
                decisions += 1
    return decisions


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rates = []
    for _ in range(args.rounds):
        began = time.process_time()
        played = main(args.games)
        rates.append(played / (time.process_time() - began))
    print(
        f"{statistics.median(rates):,.0f} decisions/s (median of {args.rounds} rounds of"
        f" {args.games} games; range {min(rates):,.0f}-{max(rates):,.0f})"
    )
