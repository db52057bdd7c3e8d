"""A soak of the compiled core: millions of decisions through every entry point, memory flat.

Reference counting is where a C extension leaks: a getter that forgets one ``Py_DECREF``
keeps every tuple it built alive, and a loop of millions of calls shows it as growth.
This script plays ``--decisions`` decisions in rounds, each round through every
Python-facing entry point of ``bohmisch_watten._native``:

* whole random playouts inside C (``random_playouts``: most of the decisions);
* a game stepped one id at a time (``Game.legal``, ``apply``, a refused id, ``copy``
  and every getter read after each step);
* the public API on the compiled core: ``GameState.apply`` in a seeded loop, a view of
  the seat to act and a sampled world from it, and ``solver.solve`` in trick play;
* the batched API (``adapters.batch.BatchGames``: random masked actions, self-play).

After each round it empties the library's bounded caches and records the interpreter's
allocated blocks
(``sys.getallocatedblocks``: every Python object kept alive by a lost reference is one
or more) and the process's resident memory.  Memory is flat when the last round holds
no more than the first one after warm-up, within a small tolerance; the JSON output
lists every round.  tests/test_native_soak.py runs it under CI::

    python benchmarks/soak.py --decisions 10000000 --json
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import bohmisch_watten as bw
from bohmisch_watten import _cores, solver
from bohmisch_watten.phases import Phase

ROUNDS = 10
GETTERS = [
    "phase",
    "current_player",
    "dealer",
    "deal_number",
    "num_players",
    "pack",
    "hand_masks",
    "discards",
    "stock",
    "trump",
    "took_trump",
    "folded",
    "prev_folded",
    "exchanged",
    "cut",
    "trick",
    "played_tricks",
    "tricks_won",
    "scores",
    "winners",
    "losers",
    "play_mask",
    "is_terminal",
    "is_chance_node",
]


def _rss_kib() -> int:
    with Path("/proc/self/statm").open() as statm:
        pages = int(statm.read().split()[1])
    return pages * 4


def _clear_caches() -> None:
    """Empty the library's bounded ``lru_cache`` tables, which fill with work, not leaks.

    Without this the blocks grow for a long while as the caches of exchange masks and
    solver tables fill up to their bounds (the Python core shows the same growth); a
    leak is what remains after them.
    """
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] != "bohmisch_watten":
            continue
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


def _stepped(native: Any, rng: random.Random, decisions: int) -> int:
    """Decisions one id at a time on ``_native.Game``, every getter read after each."""
    done = 0
    while done < decisions:
        players = rng.randint(2, 7)
        pack = 36 if players > 4 or rng.random() < 0.5 else 32
        game = native.Game(players, pack=pack, plus_fifty=True)
        while not game.is_terminal and done < decisions:
            if game.is_chance_node:
                cards = list(range(pack))
                rng.shuffle(cards)
                game.shuffle(cards)
                continue
            with contextlib.suppress(ValueError):  # no id of either table: refused
                game.apply(200)
            legal = game.legal()
            game.apply(legal[rng.randrange(len(legal))])
            for name in GETTERS:
                getattr(game, name)
            if done % 97 == 0:
                game = game.copy()
            done += 1
    return done


def _public(rng: random.Random, decisions: int) -> int:
    """The user's loop on the compiled core, with views, sampled worlds and the solver."""
    done = 0
    while done < decisions:
        players = rng.randint(2, 7)
        rules = bw.Rules(pack=36 if players > 4 else 32, plus_fifty=players > 4)
        state = bw.new_game(players, rules=rules)
        while not state.is_terminal and done < decisions:
            if state.is_chance_node:
                state = state.apply(state.sample_chance(rng))
                continue
            if done % 50 == 0:
                view = state.view(state.current_player)
                world = view.sample_state(rng)
                if world.phase is Phase.PLAY and players <= 4 and done % 200 == 0:
                    solver.solve(world)
            state = state.apply(rng.choice(state.legal_actions()))
            done += 1
    return done


def _batched(steps: int) -> int:
    try:
        from bohmisch_watten.adapters.batch import BatchGames
    except ImportError:  # no numpy (the [gymnasium] extra): the batch is not soaked
        return 0
    games = BatchGames(64, 4)
    games.reset(seed=1)
    for number in range(steps):
        games.step(games.random_actions(seed=number))
    return steps * 64


def soak(decisions: int) -> dict[str, Any]:
    native = _cores.NATIVE
    if native is None:
        raise SystemExit(f"the compiled core is not running ({bw.native_core.reason})")
    per_round = decisions // ROUNDS
    stepped, public, batched_steps = per_round // 40, per_round // 400, per_round // 6400
    rng = random.Random(2026)
    rounds = []
    started = time.perf_counter()
    total = 0
    for number in range(ROUNDS):
        done = _stepped(native, rng, stepped) + _public(rng, public) + _batched(batched_steps)
        start = native.Game(4, plus_fifty=True)
        while done < per_round:
            done += native.random_playouts(start, 16, seed=number * 1_000_003 + done)
        total += done
        _clear_caches()
        gc.collect()
        rounds.append({"round": number, "blocks": sys.getallocatedblocks(), "rss_kib": _rss_kib()})
    return {
        "decisions": total,
        "seconds": round(time.perf_counter() - started, 1),
        "rounds": rounds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=10_000_000)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    result = soak(args.decisions)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['decisions']:,} decisions in {result['seconds']} s")
    for row in result["rounds"]:
        print(f"round {row['round']}: {row['blocks']:,} blocks, {row['rss_kib']:,} KiB")


if __name__ == "__main__":
    main()
