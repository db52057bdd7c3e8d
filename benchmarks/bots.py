"""Strength and speed of the bots (a script, not a timed test).

Plays two pairings (heuristic against random, search against heuristic) in the
duplicate arena and prints each table (win rates with 95 % Wilson intervals and the
p-value against the fair share), then measures the search: decisions per second at
the default budget and ``sample_state`` calls per second, as medians of repeated runs.

    python benchmarks/bots.py --jobs 2                      # the full measurement
    python benchmarks/bots.py --heuristic-games 200 --search-games 20   # a quick look
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bohmisch_watten import GameState, new_game
from bohmisch_watten.arena import run_arena
from bohmisch_watten.arena.report import to_table
from bohmisch_watten.bots import HeuristicBot, SearchBot
from bohmisch_watten.views import PlayerView


def decision_views(count: int, seed: int, players: int = 4) -> list[PlayerView]:
    """Views with a real choice (two or more legal actions) from heuristic games."""
    rng = random.Random(seed)
    bot = HeuristicBot()
    views: list[PlayerView] = []
    while len(views) < count:
        state: GameState = new_game(players)
        while not state.is_terminal and len(views) < count:
            if state.is_chance_node:
                state = state.apply(state.sample_chance(rng))
                continue
            view = state.view(state.current_player)  # type: ignore[arg-type]
            if len(view.legal_actions()) > 1:
                views.append(view)
            state = state.apply(bot.choose(view, rng))
    return views


def search_speed(views: list[PlayerView], repeats: int) -> None:
    bot = SearchBot()
    rates, sample_rates = [], []
    for r in range(repeats):
        rng = random.Random(r)
        start = time.perf_counter()
        for view in views:
            bot.choose(view, rng)
        rates.append(len(views) / (time.perf_counter() - start))
        start = time.perf_counter()
        for view in views:
            for _ in range(20):
                view.sample_state(rng)
        sample_rates.append(20 * len(views) / (time.perf_counter() - start))
    print(
        f"SearchBot() on {len(views)} decisions with a choice: median"
        f" {statistics.median(rates):.1f} decisions/s"
        f" ({1000 / statistics.median(rates):.1f} ms per decision) over {repeats} runs"
    )
    print(f"sample_state: median {statistics.median(sample_rates):,.0f} samples/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--heuristic-games", type=int, default=2000)
    parser.add_argument("--search-games", type=int, default=200)
    parser.add_argument("--speed-views", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    search_speed(decision_views(args.speed_views, args.seed), args.repeats)
    pairings = [
        ("HeuristicBot vs 3 RandomBots", ["heuristic", "random", "random", "random"],
         args.heuristic_games),
        ("SearchBot vs 3 HeuristicBots", ["search", "heuristic", "heuristic", "heuristic"],
         args.search_games),
    ]  # fmt: skip
    for title, bots, games in pairings:
        start = time.perf_counter()
        summary, _ = run_arena(bots, players=4, games=games, seed=args.seed, jobs=args.jobs)
        print(f"\n{title} ({time.perf_counter() - start:.0f} s, --jobs {args.jobs})")
        print(to_table(summary))


if __name__ == "__main__":
    main()
