"""Random whole-game playouts: player decisions per second and deals per second.

A script, not a test: ``python benchmarks/playout.py [--seconds S] [--players 2 3 4]
[--compare]``.  Each playout uses only the public API the way a bot would:
``legal_actions()``, a random choice, ``apply()``, and ``sample_chance()`` at chance
nodes.  Shuffles are counted in the time but not as decisions.

``--compare`` (needs ``open_spiel``: ``make bench-compare`` installs it into .venv)
also measures, in the same process, OpenSpiel's C++ Hearts (``pyspiel.load_game
("hearts")``) driven from Python by the same loop: whole games from
``new_initial_state()``; at a chance node an outcome drawn from ``chance_outcomes()``
with ``random.Random.choices``; at a player node ``rng.choice(legal_actions())``; player
decisions counted only.  Once with ``apply_action`` (mutating the state) and once with
``state = state.child(action)`` for every action (value semantics, as a search over
immutable states uses it).  It prints our four-player rate as a ratio of each.
"""

from __future__ import annotations

import argparse
import random
import statistics
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


def hearts(seconds: float, seed: int, *, child: bool) -> tuple[int, float]:
    """OpenSpiel's Hearts by the same loop; return (decisions, elapsed)."""
    import pyspiel  # type: ignore[import-not-found]  # optional: only for --compare

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    choice, choices = rng.choice, rng.choices
    decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:  # the clock is read once per game
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = choice(state.legal_actions())
                decisions += 1
            if child:
                state = state.child(action)
            else:
                state.apply_action(action)
    return decisions, time.perf_counter() - start


def compare(seconds: float, seed: int, rounds: int = 5) -> None:
    """Print ours (4 players) beside Hearts with child and with apply_action, same run.

    The machine may be shared, so the three loops take turns in ``rounds`` short
    rounds and each figure is the median of its rounds.
    """
    slice_ = seconds / rounds
    rates: dict[str, list[float]] = {"ours": [], "child": [], "apply": []}
    for r in range(rounds):
        decisions, _, elapsed = playout(4, slice_, seed + r, Rules())
        rates["ours"].append(decisions / elapsed)
        for key, use_child in (("child", True), ("apply", False)):
            done, spent = hearts(slice_, seed + r, child=use_child)
            rates[key].append(done / spent)
    ours = statistics.median(rates["ours"])
    rows = [
        ("bohmisch_watten, 4 players, apply()", ours),
        ("OpenSpiel Hearts, child()", statistics.median(rates["child"])),
        ("OpenSpiel Hearts, apply_action()", statistics.median(rates["apply"])),
    ]
    print(f"{'':<36} {'decisions/s':>12} {'ours / this':>12}")
    for label, rate in rows:
        print(f"{label:<36} {rate:>12,.0f} {ours / rate:>11.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--compare", action="store_true", help="also OpenSpiel's Hearts (needs open_spiel)"
    )
    args = parser.parse_args()
    if args.compare:
        compare(args.seconds, args.seed)
        return
    print(f"{'players':>7} {'decisions/s':>12} {'deals/s':>9} {'decisions':>10} {'deals':>7}")
    for n in args.players:
        decisions, deals, elapsed = playout(n, args.seconds, args.seed, Rules())
        print(
            f"{n:>7} {decisions / elapsed:>12,.0f} {deals / elapsed:>9,.0f}"
            f" {decisions:>10,} {deals:>7,}"
        )


if __name__ == "__main__":
    main()
