"""The expert at the 36-card pack's tables of five to seven: its time and its strength.

A script, not a test::

    python benchmarks/pack36_bots.py --players 5 6 7 --games 24 --deals 25 --seed 1

For each table size it plays ``--games`` seeded games of the 36-card pack (R1, R6),
``ExpertBot()`` (the table's default budget, or ``--expert SPEC``) at one seat (seat
``game % players``) and ``HeuristicBot`` at the others, each game to its end or to
``--deals`` deals, and prints:

* the expert's time per decision (only decisions with two or more legal actions): the
  median, the 90th percentile and the maximum of the process's CPU time and of the
  wall clock, for all decisions and per phase;
* its results: the games that ended and the expert's share of their wins (a shared win
  counts 1/k, R34) against the fair share 1/N; for every game, ended or not, its share
  of the lowest score at the end (the leader at the cap); and the points per deal, the
  expert's and the mean of the heuristic seats' in the same deal (a paired difference
  with its standard error, negative: the expert gains more toward zero, R28–R30).

Games of five to seven heuristic players seldom end quickly: every deal at least
N − 5 active seats take no trick and score +5 (R29), so the scores drift; hence the cap
and the per-deal figure.  ``--jobs`` plays the table sizes in parallel processes (the
CPU times are per process).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from typing import Any

from bohmisch_watten import Phase, Rules, new_game
from bohmisch_watten.bots import HeuristicBot, make_bot


def _pct(values: list[float]) -> str:
    if not values:
        return "-"
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    return (
        f"n={len(values):4}  median {statistics.median(values) * 1e3:6.1f}  "
        f"p90 {p90 * 1e3:6.1f}  max {values[-1] * 1e3:7.1f} ms"
    )


def table(players: int, games: int, deals: int, seed: int, spec: str) -> dict[str, Any]:
    """Play the games of one table size; the raw figures."""
    rules = Rules(pack=36)
    expert = make_bot(spec)
    heuristic = HeuristicBot()
    cpu: dict[str, list[float]] = {"all": [], "exchange": [], "play": []}
    wall: dict[str, list[float]] = {"all": [], "exchange": [], "play": []}
    ended = 0
    wins = 0.0
    leads = 0.0
    differences: list[float] = []
    for game in range(games):
        rng = random.Random(seed * 1000 + 100 * players + game)
        me = game % players
        state = new_game(players, rules=rules, dealer=rng.randrange(players))
        before: tuple[int, ...] | None = None
        while True:
            if state.is_terminal or state.is_chance_node:
                if before is not None:  # a deal was just scored
                    points = [a - b for a, b in zip(state.scores, before, strict=True)]
                    others = [p for s, p in enumerate(points) if s != me]
                    differences.append(points[me] - sum(others) / len(others))
                    before = None
                if state.is_terminal or state.deal_number > deals:
                    break
                before = state.scores
                state = state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player
            assert seat is not None
            view = state.view(seat)
            if seat != me:
                state = state.apply(heuristic.choose(view, rng))
                continue
            choices = len(view.legal_actions())
            start, start_cpu = time.perf_counter(), time.process_time()
            action = expert.choose(view, rng)
            spent_cpu = time.process_time() - start_cpu
            spent = time.perf_counter() - start
            if choices > 1:
                phase = "play" if view.phase is Phase.PLAY else "exchange"
                for name in ("all", phase):
                    cpu[name].append(spent_cpu)
                    wall[name].append(spent)
            state = state.apply(action)
        if state.is_terminal:
            ended += 1
            if me in state.winners:
                wins += 1 / len(state.winners)
        low = min(state.scores)
        leaders = [s for s, score in enumerate(state.scores) if score == low]
        if me in leaders:
            leads += 1 / len(leaders)
    return {
        "players": players,
        "games": games,
        "cpu": cpu,
        "wall": wall,
        "ended": ended,
        "wins": wins,
        "leads": leads,
        "differences": differences,
    }


def _report(result: dict[str, Any]) -> None:
    players, games = result["players"], result["games"]
    print(f"== {players} players, pack=36, {games} games")
    for name in ("all", "exchange", "play"):
        print(f"  {name:8} cpu  {_pct(result['cpu'][name])}")
        print(f"  {'':8} wall {_pct(result['wall'][name])}")
    ended = result["ended"]
    share = f"{result['wins'] / ended:.3f}" if ended else "-"
    print(f"  games ended: {ended} of {games}; expert's win share {share} (fair {1 / players:.3f})")
    print(f"  leader at the end or cap: {result['leads'] / games:.3f} (fair {1 / players:.3f})")
    d = result["differences"]
    if len(d) > 1:
        se = statistics.stdev(d) / math.sqrt(len(d))
        print(
            f"  points per deal, expert less the heuristic seats' mean: "
            f"{statistics.mean(d):+.3f} ± {se:.3f} over {len(d)} deals"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[5, 6, 7])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--deals", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--expert", default="expert")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    jobs = [(n, args.games, args.deals, args.seed, args.expert) for n in args.players]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.starmap(table, jobs)
    else:
        results = [table(*job) for job in jobs]
    for result in results:
        _report(result)


if __name__ == "__main__":
    main()
