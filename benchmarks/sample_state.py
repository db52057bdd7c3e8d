"""Determinization speed: ``PlayerView.sample_state`` samples per second.

A script, not a test: ``python benchmarks/sample_state.py [--players N] [--rules TEXT]
[--seconds S | --samples K] [--views V]``.  It plays random games (4 players and the
default rules unless told) into the second deal until two tricks are complete (a mid-deal
view: hands partly played, voids possibly revealed, discards hidden), takes the view of
the seat to act, and draws samples from it: for ``--seconds`` each, or exactly
``--samples`` each (a fixed amount of work, for timing the whole process).  The first
sample of a view builds its counting tables; the figure "first" reports that cost
separately, "samples/s" is the steady rate a searching bot sees.
"""

from __future__ import annotations

import argparse
import random
import time

from bohmisch_watten import Phase, PlayerView, Rules, new_game
from bohmisch_watten.notation import parse_rules


def mid_deal_view(seed: int, rules: Rules, players: int = 4) -> PlayerView:
    """The view of the seat to act after two tricks of the second deal."""
    rng = random.Random(seed)
    while True:
        state = new_game(players, rules=rules)
        while not state.is_terminal:
            if state.is_chance_node:
                state = state.apply(state.sample_chance(rng))
                continue
            if state.deal_number == 2 and state.phase is Phase.PLAY and len(state.tricks) == 2:
                assert state.current_player is not None
                return state.view(state.current_player)
            state = state.apply(rng.choice(state.legal_actions()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per view")
    parser.add_argument("--samples", type=int, default=0, help="samples per view instead")
    parser.add_argument("--views", type=int, default=5, help="number of mid-deal views")
    parser.add_argument("--players", type=int, default=4, help="table size (R1)")
    parser.add_argument("--rules", default="", help='rules text, e.g. "pack=36"')
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = parse_rules(args.rules) if args.rules else Rules()
    rng = random.Random(args.seed)
    print(f"{'view':>4} {'first (ms)':>10} {'samples/s':>10} {'samples':>8}")
    rates = []
    for v in range(args.views):
        view = mid_deal_view(args.seed * 1000 + v, rules, args.players)
        start = time.perf_counter()
        view.sample_state(rng)
        first = time.perf_counter() - start
        count = 0
        start = time.perf_counter()
        deadline = start + args.seconds
        while count < args.samples if args.samples else time.perf_counter() < deadline:
            for _ in range(100):
                view.sample_state(rng)
            count += 100
        rate = count / (time.perf_counter() - start)
        rates.append(rate)
        print(f"{v:>4} {first * 1000:>10.2f} {rate:>10,.0f} {count:>8,}")
    print(f"mean {sum(rates) / len(rates):,.0f} samples/s")


if __name__ == "__main__":
    main()
