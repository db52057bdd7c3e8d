"""The engine protocol's overhead per decision (a script, not a timed test).

A random engine over pipes against :class:`~bohmisch_watten.bots.RandomBot` in process,
on the same decisions: the time of each ``choose`` (the host writes ``decide`` with the
seat's view and its legal actions, the engine parses it and answers, the host reads and
checks the answer), median and 99th percentile, and the overhead, the difference of the
medians.  Whole games with the ``event`` messages the arena sends are timed too (per
decision, events included).  Engines: the C example (built with gcc if there is one),
the JavaScript example (if Node is installed) and the standard-library Python example.

``--served`` measures instead the library's own engine (``python -m bohmisch_watten
engine --bot random``) at seat 0 of whole four-player games against random bots, as the
arena plays them (events included), in each protocol: the mean and median milliseconds
of a decision, the mean by deal number, and the largest ``decide`` line the host wrote.
Long games come from a high start score (``--long-start``), the rest from the default
rules.

    nice -n 5 python benchmarks/engine.py                    # 3 repeats of 2000 decisions
    python benchmarks/engine.py --decisions 500 --repeats 1  # a quick look
    python benchmarks/engine.py --served --games 8 --long-games 2   # the served engine
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

from bohmisch_watten import GameState, Rules, new_game
from bohmisch_watten.bots import Bot, RandomBot
from bohmisch_watten.engine import Engine
from bohmisch_watten.engine.protocol import DecideEncoder
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


BUCKETS = ((1, 5), (6, 10), (11, 20), (21, 40), (41, 60), (61, 100), (101, 500))


def served_game(
    engine: Engine, seed: int, rules: Rules, max_deals: int
) -> list[tuple[int, float, int]]:
    """One arena-like game, the engine at seat 0: per decision of seat 0, its deal
    number, its milliseconds (``choose``, the queued events written with it) and the
    bytes the host wrote for it (``deal_over`` lines included), measured untimed."""
    rng = random.Random(seed)
    others = RandomBot()
    protocol = getattr(engine, "protocol", None) or 1  # None: a release without protocol 2
    sizes = DecideEncoder(protocol) if protocol != 1 else DecideEncoder()
    state = new_game(4, rules=rules)
    engine.new_game(4, 0, rules, state.position, seed)
    out = []
    while not state.is_terminal and state.deal_number <= max_deals:
        seat = state.current_player
        if seat is None:
            action = state.sample_chance(rng)
        elif seat == 0:
            view = state.view(0)
            begin = time.perf_counter()
            action = engine.choose(view, rng)
            elapsed = 1000 * (time.perf_counter() - begin)
            out.append((state.deal_number, elapsed, len(sizes.encode(view, engine.timeout_ms)[0])))
        else:
            action = others.choose(state.view(seat), rng)
        after = state.apply(action)
        engine.observe(describe(state, action, after, observer=0))
        state = after
    return out


def warm_up() -> None:
    """Load this process's lazy tables (the exchange's take ~0.1 s, once per process,
    paid in an arena by the first bot to list exchange actions) before timing."""
    rng = random.Random(0)
    state = new_game(4)
    while not state.is_terminal and state.deal_number < 3:
        state = state.apply(
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )


def served(
    games: int,
    long_games: int,
    long_start: int,
    max_deals: int,
    seed: int,
    default_only: bool,
    rows: Sequence[str] = ("1", "2", "floor"),
) -> None:
    """The served random bot in protocols 1 and 2: the table of ``--served``.

    ``default_only``: one row, the engine with its default settings (the way to measure
    an earlier release of the library, which has no ``--protocol``).
    """
    warm_up()
    print(f"python -m bohmisch_watten engine --bot random at seat 0 of {games} default games"
          f" and {long_games} games with start_score={long_start} (cap {max_deals} deals),"
          " 4 players, random bots at the other seats")  # fmt: skip
    heads = " ".join(f"{f'{low}-{high}':>8}" for low, high in BUCKETS)
    print(f"{'protocol':8} {'decisions':>9} {'deals':>5} {'mean':>7} {'median':>7} {heads}"
          f" {'largest decide':>15}")  # fmt: skip
    served_command = [sys.executable, "-m", "bohmisch_watten", "engine", "--bot", "random"]
    floor = [sys.executable, str(EXAMPLES / "random_engine.py")]
    runs = [
        ("1", 1, [*served_command, "--protocol", "1"]),
        ("2", 2, [*served_command, "--protocol", "2"]),
        ("floor", 1, floor),
    ]
    chosen = [run for run in runs if run[0] in rows]
    for label, protocol, command in [("default", 0, served_command)] if default_only else chosen:
        rows: list[tuple[int, float, int]] = []
        deals = 0
        plan = [(seed + g, Rules()) for g in range(games)]
        plan += [(seed + 1000 + g, Rules(start_score=long_start)) for g in range(long_games)]
        with Engine.popen(command, hello_timeout_ms=60_000, timeout_ms=60_000) as engine:
            assert getattr(engine, "protocol", 1) == protocol or not protocol
            for game_seed, rules in plan:
                rows.extend(found := served_game(engine, game_seed, rules, max_deals))
                deals = max(deals, found[-1][0])
        times = [ms for _, ms, _ in rows]
        cells = []
        for low, high in BUCKETS:
            bucket = [ms for deal, ms, _ in rows if low <= deal <= high]
            cells.append(f"{statistics.mean(bucket):8.2f}" if bucket else f"{'-':>8}")
        print(f"{label:<8} {len(times):9d} {deals:5d} {statistics.mean(times):7.2f}"
              f" {statistics.median(times):7.2f} {' '.join(cells)}"
              f" {max(size for _, _, size in rows):15,d}")  # fmt: skip
    print("milliseconds per decision of seat 0 (the mean by deal number under the deal"
          " ranges); largest decide: bytes the host wrote for one decision (protocol 2:"
          " the decide with any deal_over lines before it); floor: the standard-library"
          " example engine examples/engines/random_engine.py, which reads no view, in"
          " protocol 1")  # fmt: skip


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
    parser.add_argument("--served", action="store_true", help="time the served random bot")
    parser.add_argument("--long-games", type=int, default=2, help="with --served")
    parser.add_argument("--long-start", type=int, default=100, help="with --served")
    parser.add_argument("--max-deals", type=int, default=500, help="with --served")
    parser.add_argument(
        "--default-only", action="store_true", help="with --served: the engine's defaults only"
    )
    parser.add_argument(
        "--rows", default="1,2,floor", help="with --served: which of 1, 2, floor to run"
    )
    args = parser.parse_args()
    if args.served:
        served(
            args.games, args.long_games, args.long_start, args.max_deals, args.seed,
            args.default_only, args.rows.split(","),
        )  # fmt: skip
        return
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
