"""Where the expert's games are won and lost: reaching the last points, and finishing.

A script, not a test::

    python benchmarks/expert_games.py --players 4 --opponent search --games 120 --seed 82

Whole games of one ``--expert`` against ``--opponent`` bots, the expert's seat turning
with the game (game ``g`` puts it in seat ``g % players``); a game not over after
``--max-deals`` deals is left out.  For the expert and for the others (all their seats
together) it prints:

* the win rate (reaching the goal in the deal that ends the game, R31, R34);
* how often a seat *reached the last points*, a score of ``--near`` or less (5 by
  default: from there a seat may no longer fold, R21.3, and one good deal ends the
  game), and how often such a seat then won;
* the deals a seat began within those points, and the wins per such deal;
* the deals in which a seat took no trick (+5, R29) and the mean final score.

A bot can lead on points and not on wins: the table says whether it gets to the last
points more often than the others, or finishes more often once there.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from bohmisch_watten import new_game
from bohmisch_watten.bots import make_bot

_COLUMNS = (
    "who",
    "seats",
    "win rate",
    "reached the last points",
    "then won",
    "deals begun there, a seat",
    "wins per such deal",
    "deals with no trick, a seat",
    "final score",
)


def play(
    expert: str, opponent: str, players: int, games: int, seed: int, near: int, max_deals: int
) -> tuple[Counter[str], Counter[str], int]:
    """The counts of the expert's seats and of the others' seats, and the games left out."""
    bots = (make_bot(expert), make_bot(opponent))
    mine: Counter[str] = Counter()
    theirs: Counter[str] = Counter()
    left_out = 0
    for game in range(games):
        rng = random.Random(seed * 100_000 + game)
        me = game % players
        seats = [bots[0] if seat == me else bots[1] for seat in range(players)]
        state = new_game(players)
        before = state.scores
        deal = state.deal_number
        reached = [False] * players
        near_deals = [0] * players
        no_trick = [0] * players
        while not state.is_terminal and state.deal_number <= max_deals:
            if state.is_chance_node:
                state = state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player
            assert seat is not None
            state = state.apply(seats[seat].choose(state.view(seat), rng))
            if state.deal_number == deal and not state.is_terminal:
                continue
            for s in range(players):  # a deal was scored (R29-R31)
                near_deals[s] += before[s] <= near
                no_trick[s] += state.scores[s] > before[s]
                reached[s] = reached[s] or state.scores[s] <= near
            before, deal = state.scores, state.deal_number
        if not state.is_terminal:
            left_out += 1
            continue
        won = state.returns()
        for s in range(players):
            counts = mine if s == me else theirs
            counts["seats"] += 1
            counts["won"] += won[s] > 0
            counts["reached"] += reached[s]
            counts["reached and won"] += reached[s] and won[s] > 0
            counts["near deals"] += near_deals[s]
            counts["no trick"] += no_trick[s]
            counts["score"] += state.scores[s]
        print(".", end="", flush=True)
    print()
    return mine, theirs, left_out


def row(who: str, counts: Counter[str]) -> str:
    seats = counts["seats"]
    cells = [
        who,
        str(seats),
        f"{counts['won'] / seats:.1%}",
        f"{counts['reached'] / seats:.1%}",
        f"{counts['reached and won'] / max(1, counts['reached']):.1%}",
        f"{counts['near deals'] / seats:.2f}",
        f"{counts['won'] / max(1, counts['near deals']):.3f}",
        f"{counts['no trick'] / seats:.2f}",
        f"{counts['score'] / seats:.1f}",
    ]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--expert", default="expert", help="the bot spec measured")
    parser.add_argument("--opponent", default="search", help="the bot spec of every other seat")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=82)
    parser.add_argument("--near", type=int, default=5, help="the last points: this score or less")
    parser.add_argument("--max-deals", type=int, default=300)
    args = parser.parse_args()
    mine, theirs, left_out = play(
        args.expert, args.opponent, args.players, args.games, args.seed, args.near, args.max_deals
    )
    print(f"{args.games - left_out} games of {args.players} players, seed {args.seed}", end="")
    print(f" ({left_out} left out: not over after {args.max_deals} deals)" if left_out else "")
    print("| " + " | ".join(_COLUMNS) + " |")
    print("|" + " --- |" * len(_COLUMNS))
    print(row(args.expert, mine))
    print(row(f"{args.opponent} (each seat)", theirs))


if __name__ == "__main__":
    main()
