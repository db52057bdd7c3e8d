"""The README's loop over a fixed number of seeded four-player games, capped at 500 deals.

A script for instruction counts, which do not depend on the machine's load::

    PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/readme_loop.py 100
    PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/readme_loop.py 0

The difference of the two totals is the loop's cost without the interpreter's start and
the imports.  ``python benchmarks/readme_loop.py N`` prints the decisions played.
"""

from __future__ import annotations

import random
import sys

from bohmisch_watten import new_game


def main(games: int) -> int:
    """Play ``games`` games of random players by the README's loop; return the decisions."""
    rng = random.Random(2026)
    decisions = 0
    for _ in range(games):
        state = new_game(4)
        while not state.is_terminal and state.deal_number <= 500:
            if state.is_chance_node:
                state = state.apply(state.sample_chance(rng))
            else:
                state = state.apply(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions


if __name__ == "__main__":
    print("decisions", main(int(sys.argv[1])))
