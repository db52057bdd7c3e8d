"""Play one game between random players and print the result.

Run it after ``make demo`` (which creates ``.venv`` and installs the package there):
``make example NAME=random_game ARGS=7`` or ``.venv/bin/python examples/random_game.py [seed]``.
"""

from __future__ import annotations

import random
import sys

from bohmisch_watten import new_game


def main(seed: int = 1) -> None:
    rng = random.Random(seed)
    state = new_game(4)
    while not state.is_terminal and state.deal_number <= 500:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    print(f"after {state.deal_number} deals: scores {state.scores}")
    print(f"winners {state.winners}, losers {state.losers}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
