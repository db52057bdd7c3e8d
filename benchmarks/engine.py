"""The engine protocol's overhead per decision (a script, not a timed test).

A random engine over pipes against :class:`~bohmisch_watten.bots.RandomBot` in process,
on the same decisions: the time of each ``choose`` (the host writes ``decide`` with the
seat's view and its legal actions, the engine parses it and answers, the host reads and
checks the answer), median and 99th percentile, and the overhead, the difference of the
medians.  Whole games with the ``event`` messages the arena sends are timed too (per
decision, events included).  Engines: the C example (built with gcc if there is one),
the JavaScript example (if Node is installed) and the standard-library Python example.

    nice -n 5 python benchmarks/engine.py                    # 3 repeats of 2000 decisions
    python benchmarks/engine.py --decisions 500 --repeats 1  # a quick look
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bohmisch_watten import GameState, new_game
from bohmisch_watten.bots import Bot, RandomBot
from bohmisch_watten.engine import Engine
from bohmisch_watten.events import describe
from bohmisch_watten.views import PlayerView

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "engines"


def games_of_views(decisions: int, seed: int) -> list[tuple[GameState, list[PlayerView]]]:
    """Random 4-player games, as (start, views of seat 0's decisions), ``decisions`` in all."""
    rng = random.Random(seed)
    out: list[tuple[GameState, list[PlayerView]]] = []
    total = 0
    while total < decisions:
        start = state = new_game(4)
        views = []
        while not state.is_terminal and total + len(views) < decisions:
            if state.is_chance_node:
                state = state.apply(state.sample_chance(rng))
                continue
            view = state.view(state.current_player)  # type: ignore[arg-type]
            if view.player == 0:
                views.append(view)
            state = state.apply(rng.choice(view.legal_actions()))
        out.append((start, views))
        total += len(views)
    return out


def choose_times(
    bot: Bot, games: Sequence[tuple[GameState, list[PlayerView]]]
) -> tuple[list[float], float]:
    """Milliseconds of each ``choose``, and the host's CPU milliseconds per decision;
    an engine is told ``new_game`` outside the clock."""
    rng = random.Random(1)
    times = []
    cpu = 0.0
    for start, views in games:
        if isinstance(bot, Engine):
            bot.new_game(4, 0, start.rules, start.position, 1)
        for view in views:
            begin, begin_cpu = time.perf_counter(), time.process_time()
            bot.choose(view, rng)
            times.append(1000 * (time.perf_counter() - begin))
            cpu += time.process_time() - begin_cpu
    return times, 1000 * cpu / len(times)


def game_time(bot: Bot, games: int, seed: int) -> tuple[float, int]:
    """Seconds and decisions of seat 0 over whole games, with events sent to an engine."""
    rng = random.Random(seed)
    others = RandomBot()
    spent, decisions = 0.0, 0
    for _ in range(games):
        state = new_game(4)
        if isinstance(bot, Engine):
            bot.new_game(4, 0, state.rules, state.position, 1)
        while not state.is_terminal:
            seat = state.current_player
            if seat is None:
                action = state.sample_chance(rng)
            elif seat == 0:
                view = state.view(0)
                begin = time.perf_counter()
                action = bot.choose(view, rng)
                spent += time.perf_counter() - begin
                decisions += 1
            else:
                action = others.choose(state.view(seat), rng)
            after = state.apply(action)
            if isinstance(bot, Engine):
                begin = time.perf_counter()
                bot.observe(describe(state, action, after, observer=0))
                spent += time.perf_counter() - begin
            state = after
    return spent, decisions


def p99(values: Sequence[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


def engines(build_dir: Path) -> dict[str, list[str]]:
    found = {}
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler:
        binary = build_dir / "random-engine"
        subprocess.run([compiler, "-O2", "-o", str(binary), str(EXAMPLES / "random.c")], check=True)
        found["C (random.c)"] = [str(binary)]
    node = shutil.which("node")
    if node:
        found["JavaScript (random.js)"] = [node, str(EXAMPLES / "random.js")]
    found["Python stdlib (random_engine.py)"] = [sys.executable, str(EXAMPLES / "random_engine.py")]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, default=10, help="whole games per repeat")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = games_of_views(args.decisions, args.seed)
    with tempfile.TemporaryDirectory() as build:
        commands = engines(Path(build))
        rows: dict[str, list[tuple[float, float, float, float]]] = {"RandomBot in process": []}
        rows.update({name: [] for name in commands})
        for _ in range(args.repeats):
            for name in rows:
                if name in commands:
                    bot: Bot = Engine.popen(commands[name], hello_timeout_ms=30_000)
                else:
                    bot = RandomBot()
                try:
                    times, cpu = choose_times(bot, games)
                    spent, decisions = game_time(bot, args.games, args.seed)
                finally:
                    if isinstance(bot, Engine):
                        bot.close()
                rows[name].append(
                    (statistics.median(times), p99(times), 1000 * spent / decisions, cpu)
                )
    base = statistics.median(row[0] for row in rows["RandomBot in process"])
    print(f"{args.decisions} decisions of seat 0 in random 4-player games, median of"
          f" {args.repeats} repeats (ms per decision)")  # fmt: skip
    print(f"{'bot':34} {'median':>8} {'p99':>8} {'overhead':>9} {'host CPU':>9}"
          f" {'whole games':>12}")  # fmt: skip
    for name, values in rows.items():
        median = statistics.median(v[0] for v in values)
        tail = statistics.median(v[1] for v in values)
        whole = statistics.median(v[2] for v in values)
        cpu = statistics.median(v[3] for v in values)
        print(f"{name:34} {median:8.3f} {tail:8.3f} {median - base:9.3f} {cpu:9.3f}"
              f" {whole:12.3f}")  # fmt: skip
    print("overhead: the engine's median minus RandomBot's; host CPU: this process's CPU"
          " time per decision (the rest of the median is the engine and the scheduler);"
          " whole games: seat 0's decisions and the event messages sent to it, per"
          " decision")  # fmt: skip


if __name__ == "__main__":
    main()
