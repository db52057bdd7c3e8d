"""Random whole-game playouts by the README's loop: player decisions per second.

A script, not a test: ``python benchmarks/playout.py [--seconds S] [--players 2 3 4]
[--rules pack=36] [--compare] [--rounds R]``.  Every game is played to its end, uncapped
(random play can run for hundreds of deals), by exactly the loop of the README::

    while not state.is_terminal:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))

Player decisions are counted, shuffles are timed but not counted.  Games are never cut
off after a number of deals; the clock is read once a deal (at the chance node), and
the rate divides by the time taken.

``--compare`` (needs ``open_spiel``: ``make bench-compare`` installs it into .venv)
also measures, in the same process, OpenSpiel's C++ Hearts (``pyspiel.load_game
("hearts")``) by the same loop: ``while not state.is_terminal(): if
state.is_chance_node(): action = rng.choices(outcomes, probabilities)[0] else: action =
rng.choice(state.legal_actions())`` — once with ``state = state.child(action)`` (value
semantics, like ours) and once with ``state.apply_action(action)`` (mutation).  The
three loops take turns in ``--rounds`` short rounds (the machine may be shared): each
rate is the median of its rounds, and each ratio the median of the ratios measured
round by round (ours against the Hearts loops of the same round), with their range, so
that a change of the machine's load between rounds does not skew it.  ``--clock cpu``
counts the process's CPU time instead of the wall clock (``time.process_time``): on a
machine shared with other work it leaves out the time the process waited for a core.

The 0.3 loop differed from the README's in two ways: it tested ``state.phase`` against
the enum instead of reading ``is_terminal`` and ``is_chance_node``, and it started a
new game after 200 deals.  Random games are mostly short (a median of about 15 deals
with four players) but a few never end (the scores drift away from the goal; one ran
past deal 3,000), so a clock read once per game could wait for minutes: this loop reads
it once a deal and never cuts a game off.  On a shared machine the two loops measured
within noise of each other (round by round the ratio ranged from 0.6 to 1.3); single
short runs there are not comparable, hence the interleaved rounds and medians.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bohmisch_watten import Rules, new_game
from bohmisch_watten.notation import parse_rules

_CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def playout(
    num_players: int, seconds: float, seed: int, rules: Rules, clock: str = "wall"
) -> tuple[int, int, float]:
    """Games by the README's loop for about ``seconds``: (decisions, games finished, elapsed).

    The clock is read at each chance node (once a deal): a random game can go on for
    thousands of deals (scores can drift away from the goal), so waiting for its end
    could take minutes; the game in progress at the deadline is left unfinished.
    """
    rng = random.Random(seed)
    read = _CLOCKS[clock]
    decisions = games = 0
    start = read()
    deadline = start + seconds
    while True:
        state = new_game(num_players, rules=rules)
        while not state.is_terminal:
            if state.is_chance_node:
                if read() >= deadline:
                    return decisions, games, read() - start
                state = state.apply(state.sample_chance(rng))
            else:
                state = state.apply(rng.choice(state.legal_actions()))
                decisions += 1
        games += 1


def hearts(seconds: float, seed: int, *, child: bool, clock: str = "wall") -> tuple[int, float]:
    """OpenSpiel's Hearts by the same loop; return (decisions, elapsed)."""
    import pyspiel  # type: ignore[import-not-found]  # optional: only for --compare

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    read = _CLOCKS[clock]
    decisions = 0
    start = read()
    deadline = start + seconds
    while read() < deadline:  # the clock is read once per game
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
                decisions += 1
            if child:
                state = state.child(action)
            else:
                state.apply_action(action)
    return decisions, read() - start


def compare(seconds: float, seed: int, rounds: int, clock: str = "wall") -> dict[str, float]:
    """Print ours (4 players) beside Hearts with child and with apply_action, same run.

    The three loops take turns, round by round, in an order that rotates, so that none
    always runs first.  Returns the three median rates, decisions per second, by
    ``ours``, ``child``, ``apply``, and the median ratios by ``ours/child`` and
    ``ours/apply``.
    """
    slice_ = seconds / rounds
    rates: dict[str, list[float]] = {"ours": [], "child": [], "apply": []}
    loops = ("ours", "child", "apply")
    for r in range(rounds):
        for key in loops[r % 3 :] + loops[: r % 3]:
            if key == "ours":
                decisions, _, elapsed = playout(4, slice_, seed + r, Rules(), clock)
            else:
                decisions, elapsed = hearts(slice_, seed + r, child=key == "child", clock=clock)
            rates[key].append(decisions / elapsed)
    result = {key: statistics.median(values) for key, values in rates.items()}
    print(f"{'':<36} {'decisions/s':>12} {'ours / this':>12}  {'round by round':>14}")
    print(f"{'bohmisch_watten, 4 players, apply()':<36} {result['ours']:>12,.0f}")
    for key, label in (("child", "child()"), ("apply", "apply_action()")):
        ratios = [a / b for a, b in zip(rates["ours"], rates[key], strict=True)]
        result[f"ours/{key}"] = ratio = statistics.median(ratios)
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
        name = f"OpenSpiel Hearts, {label}"
        print(f"{name:<36} {result[key]:>12,.0f} {ratio:>11.2f}x  {spread:>14}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="", help="rules notation, e.g. pack=36")
    parser.add_argument("--rounds", type=int, default=5, help="turns taken with --compare")
    parser.add_argument(
        "--compare", action="store_true", help="also OpenSpiel's Hearts (needs open_spiel)"
    )
    parser.add_argument(
        "--clock", choices=sorted(_CLOCKS), default="wall", help="wall time or CPU time"
    )
    args = parser.parse_args()
    if args.compare:
        compare(args.seconds, args.seed, args.rounds, args.clock)
        return
    print(f"{'players':>7} {'decisions/s':>12} {'games':>6} {'decisions':>10}")
    for n in args.players:
        rules = parse_rules(args.rules)
        decisions, games, elapsed = playout(n, args.seconds, args.seed, rules, args.clock)
        print(f"{n:>7} {decisions / elapsed:>12,.0f} {games:>6,} {decisions:>10,}")


if __name__ == "__main__":
    main()
