"""Speed of the batched API of the compiled core, and of the vector env.

A script, not a test: ``python benchmarks/native_batch.py [--games N] [--seconds S]
[--repeats R] [--clock cpu|wall] [--only CASES]``.  Needs the compiled core and the
``[gymnasium]`` extra.  Each figure is the median of ``--repeats`` runs of about
``--seconds`` each, in this one process; a step is one game's step, so a call of N
games counts N.  Cases:

* ``self-play``: :class:`~bohmisch_watten.adapters.batch.BatchGames` with
  ``opponents="self"``, every seat's decision by the caller, random masked actions
  drawn in C (``random_actions()``); observations, masks, rewards and autoresets
  written each step;
* ``self-play numpy ids``: the same, the ids drawn from the mask by numpy
  (``argmax(random × mask)``), what a Python caller without the helper pays;
* ``vs heuristic`` / ``vs random``: one learning seat against the built-in bots played
  in C (their moves happen inside each step);
* ``vector python`` / ``vector native``: ``WattenVectorEnv`` (the Gymnasium vector
  entry point) against RandomBots with ``native=False`` and with the compiled core,
  numpy-drawn masked ids, the returned copies and infos included.

``--players 7 --rules pack=36`` measures another table (default: four players, the
32-card pack).  ``--clock cpu`` (default) times the process's CPU time, which the other
jobs of a shared machine do not inflate.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from bohmisch_watten import native_core
from bohmisch_watten.adapters.batch import BatchGames
from bohmisch_watten.adapters.vector import WattenVectorEnv


def numpy_ids(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.asarray((rng.random(masks.shape) * masks).argmax(axis=1))


def batch_case(
    games: int, players: int, rules: str, opponents: str, picker: str
) -> Callable[[int], int]:
    batch = BatchGames(games, players, rules=rules, opponents=opponents)
    batch.reset(seed=1)
    rng = np.random.default_rng(1)

    def run(steps: int) -> int:
        for _ in range(steps):
            ids = batch.random_actions() if picker == "c" else numpy_ids(batch.action_masks, rng)
            batch.step(ids)
        return steps * games

    return run


def vector_case(games: int, players: int, rules: str, native: bool) -> Callable[[int], int]:
    envs = WattenVectorEnv(games, players, rules=rules, native=native)
    _, infos = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    state = {"infos": infos}

    def run(steps: int) -> int:
        infos = state["infos"]
        for _ in range(steps):
            infos = envs.step(numpy_ids(infos["action_mask"], rng))[-1]
        state["infos"] = infos
        return steps * games

    return run


def measure(
    run: Callable[[int], int], seconds: float, repeats: int, clock: Callable[[], float]
) -> list[float]:
    run(3)  # warm up
    steps = 1
    while True:  # calibrate the calls of one run
        start = clock()
        run(steps)
        spent = clock() - start
        if spent > seconds / 4:
            break
        steps *= 2
    calls = max(1, int(steps * seconds / spent))
    rates = []
    for _ in range(repeats):
        start = clock()
        done = run(calls)
        rates.append(done / (clock() - start))
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--vector-games", type=int, default=64)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    if not native_core:
        raise SystemExit(f"the compiled core is not running: {native_core.reason}")
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    n, p, rules = args.games, args.players, args.rules
    cases: dict[str, Callable[[], Callable[[int], int]]] = {
        "self-play": lambda: batch_case(n, p, rules, "self", "c"),
        "self-play numpy ids": lambda: batch_case(n, p, rules, "self", "numpy"),
        "vs heuristic": lambda: batch_case(n, p, rules, "heuristic", "c"),
        "vs random": lambda: batch_case(n, p, rules, "random", "c"),
        "vector python": lambda: vector_case(args.vector_games, p, rules, False),
        "vector native": lambda: vector_case(args.vector_games, p, rules, True),
    }
    chosen = [name.strip() for name in args.only.split(",") if name.strip()] or list(cases)
    print(
        f"{p} players, rules {rules or 'default'}, {args.clock} clock, "
        f"medians of {args.repeats} runs of about {args.seconds} s"
    )
    for name in chosen:
        games = args.vector_games if name.startswith("vector") else n
        rates = measure(cases[name](), args.seconds, args.repeats, clock)
        print(
            f"{name:22s} N={games:5d}  {statistics.median(rates):12,.0f} steps/s  "
            f"(range {min(rates):,.0f}-{max(rates):,.0f})"
        )


if __name__ == "__main__":
    main()
