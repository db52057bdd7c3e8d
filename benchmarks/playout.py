"""Random whole-game playouts: player decisions per second and deals per second.

A script, not a test: ``python benchmarks/playout.py [--seconds S] [--players 2 3 4]``.
Each playout uses only the public API the way a bot would: ``legal_actions()``, a random
choice, ``apply()``, and ``sample_chance()`` at chance nodes.  Shuffles are counted in
the time but not as decisions.
"""

from __future__ import annotations

import argparse
import random
import time

from bohmisch_watten import Phase, Rules, new_game

MAX_DEALS = 200


def playout(num_players: int, seconds: float, seed: int, rules: Rules) -> tuple[int, int, float]:
    """Play random games for about ``seconds``; return (decisions, deals, elapsed)."""
    rng = random.Random(seed)
    choice = rng.choice
    decisions = deals = 0
    start = time.perf_counter()
    deadline = start + seconds
    state = new_game(num_players, rules=rules)
    while True:
        if state.phase is Phase.DEAL:
            # Random play can let scores drift upwards for hundreds of deals, so the
            # clock is read once per deal and such a game is cut off after MAX_DEALS.
            if time.perf_counter() >= deadline:
                break
            if state.deal_number > MAX_DEALS:
                state = new_game(num_players, rules=rules)
            state = state.apply(state.sample_chance(rng))
            deals += 1
        elif state.phase is Phase.GAME_OVER:
            state = new_game(num_players, rules=rules)
        else:
            state = state.apply(choice(state.legal_actions()))
            decisions += 1
    return decisions, deals, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'players':>7} {'decisions/s':>12} {'deals/s':>9} {'decisions':>10} {'deals':>7}")
    for n in args.players:
        decisions, deals, elapsed = playout(n, args.seconds, args.seed, Rules())
        print(
            f"{n:>7} {decisions / elapsed:>12,.0f} {deals / elapsed:>9,.0f}"
            f" {decisions:>10,} {deals:>7,}"
        )


if __name__ == "__main__":
    main()
