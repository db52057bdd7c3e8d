"""CPU per decision of what a network request can start, at the largest table.

The game server lets a client start three kinds of search: a bot it seats (within the
caps of ``web/network_bots.py``), a hint (``{"type": "hint"}``, the expert's default
budget) and the review of a finished game (``GET /api/tables/ID/review``, the review
judge of ``web/_reviews.py``).  Their budgets are counted in worlds and rollouts, so
their cost is set by the table: the most seats (7, the 36-card pack, R1) and the most
cards in play.  This script plays whole 7-seat games with heuristic bots, keeps every
decision with more than one legal action, and times each budget on the same decisions
(process CPU time, so the figure depends little on other jobs of the machine):

    python benchmarks/request_budgets.py --games 2 --decisions 40

and a whole game's review with the review judge (``--review``), the figure that sizes
the review's queue and its ``Retry-After``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bohmisch_watten import GameState, Rules, new_game
from bohmisch_watten.bots import HeuristicBot, make_bot, play_out
from bohmisch_watten.review import review
from bohmisch_watten.views import PlayerView
from bohmisch_watten.web._reviews import REVIEW_JUDGE
from bohmisch_watten.web.network_bots import NetworkBots

OLD_CAPS = "expert:samples=120:exchange_samples=80:proposals=6:max_candidates=8"
"""The network's caps before the 7-seat measurements (sized at three seats)."""


def at_caps(players: int) -> str:
    """The expert with every parameter at the network's cap for ``players`` seats."""
    caps = NetworkBots().caps("expert", players)
    counts = [f"{key}={cap.high}" for key, cap in caps.items() if hasattr(cap, "high")]
    return ":".join(["expert", *counts])


RULES = Rules(pack=36, plus_fifty=True)
"""The 36-card pack; +50 ends a game (R33): without it a 7-seat game of heuristic bots
may climb for ever."""


def heuristic_game(players: int, seed: int) -> GameState:
    """A game of heuristic bots (at most 40 deals)."""
    return play_out(
        new_game(players, rules=RULES),
        [HeuristicBot()] * players,
        random.Random(seed),
        max_deals=40,
    )


def decisions(games: int, players: int, seed: int) -> list[PlayerView]:
    """Every decision of more than one legal action in ``games`` heuristic games."""
    views: list[PlayerView] = []
    for number in range(games):
        record = heuristic_game(players, seed + number).record()
        state = new_game(players, rules=RULES)
        for action in record.actions:
            seat = state.current_player
            if seat is not None and len(state.legal_actions()) > 1:
                views.append(state.view(seat))
            state = state.apply(action)
    return views


def time_spec(spec: str, views: list[PlayerView], hint: bool) -> list[float]:
    bot = make_bot(spec)
    costs = []
    for number, view in enumerate(views):
        rng = random.Random(number)
        start = time.process_time()
        if hint:
            bot.hint(view, rng)  # type: ignore[attr-defined]
        else:
            bot.choose(view, rng)
        costs.append(time.process_time() - start)
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--decisions", type=int, default=40, help="decisions timed per budget")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--specs", default="", help="extra specs to time, comma-separated")
    parser.add_argument("--old-caps", action="store_true", help="also time the caps before")
    parser.add_argument("--review", action="store_true", help="time a whole game's review")
    args = parser.parse_args()
    views = decisions(args.games, args.players, args.seed)
    rng = random.Random(args.seed)
    # The exchanges are the costly decisions: keep them all, fill up with card plays.
    exchanges = [v for v in views if v.phase.name == "EXCHANGE"]
    plays = [v for v in views if v.phase.name != "EXCHANGE"]
    chosen = exchanges[: args.decisions // 2]
    chosen += rng.sample(plays, min(len(plays), args.decisions - len(chosen)))
    print(f"{len(views)} decisions, {args.games} games of {args.players} seats", flush=True)
    print(f"timing {len(chosen)}, {len(exchanges[: args.decisions // 2])} of them exchanges")
    runs = [
        (f"bot at the caps ({at_caps(args.players)})", at_caps(args.players), False),
        ("hint (the expert's default budget)", "expert", True),
        (f"review judge ({REVIEW_JUDGE})", REVIEW_JUDGE, True),
    ]
    if args.old_caps:
        runs.insert(0, (f"bot at the old caps ({OLD_CAPS})", OLD_CAPS, False))
    runs += [(spec, spec, False) for spec in filter(None, args.specs.split(","))]
    print("| what | mean | p95 | max |")
    print("| --- | --- | --- | --- |")
    for label, spec, hint in runs:
        costs = sorted(time_spec(spec, chosen, hint))
        p95 = costs[min(len(costs) - 1, int(0.95 * len(costs)))]
        print(
            f"| {label} | {statistics.mean(costs) * 1000:.0f} ms | {p95 * 1000:.0f} ms"
            f" | {costs[-1] * 1000:.0f} ms |",
            flush=True,
        )
    if args.review:
        end = heuristic_game(args.players, args.seed)
        for seats in ((0,), tuple(range(args.players))):
            start = time.process_time()
            result = review(end.record(), make_bot(REVIEW_JUDGE), seats=seats)  # type: ignore[arg-type]
            spent = time.process_time() - start
            print(
                f"review of seats {seats}: {len(result.decisions)} decisions,"
                f" {spent:.1f} s CPU ({spent / max(1, len(result.decisions)) * 1000:.0f} ms each)",
                flush=True,
            )


if __name__ == "__main__":
    main()
