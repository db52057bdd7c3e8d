"""What the hidden cards are worth: the expert when it may look at every card.

A script, not a test::

    python benchmarks/expert_ceiling.py --players 2 --opponent search --games 100
    python benchmarks/expert_ceiling.py --players 4 --opponent heuristic --sees play

A *seer* plays one seat against ``--opponent`` bots.  It is :class:`ExpertBot` with its
sampled worlds replaced by the true state (:meth:`ExpertBot.world_values
<bohmisch_watten.bots.ExpertBot.world_values>`), so its decisions are those of the
expert's search in the one world that is real:

* ``--sees all``: in the exchange and the fold (R18–R21) and in card play (R24–R27)
  it knows every hand and the order of the stock, so it knows what it would draw;
* ``--sees play``: it decides the exchange and the fold as the fair expert does, from
  its view, and sees every hand in card play only.

The games are played in the duplicate format: game ``g`` deals the same shuffles
whichever seat the seer holds, and the seer takes each seat in turn.  Each line prints
the seer's win rate with its 95 % Wilson interval.  Comparing it with the fair expert's
rate against the same opponents (``benchmarks/expert.py``) splits the expert's distance
from a perfect player into what card play could still gain and what only the exchange
and the fold (and the stock's luck) hold.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time

from bohmisch_watten import GameState, new_game
from bohmisch_watten.actions import Action
from bohmisch_watten.arena.stats import wilson_interval
from bohmisch_watten.bots import ExpertBot, make_bot
from bohmisch_watten.phase import Phase


def seer_action(
    state: GameState, fair: ExpertBot, seer: ExpertBot, sees: str, rng: random.Random
) -> Action:
    """The seer's action at its decision in the true ``state``."""
    seat = state.current_player
    assert seat is not None
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    view = state.view(seat)
    looks = state.phase is Phase.PLAY or (sees == "all" and state.phase is Phase.EXCHANGE)
    if not looks:  # the cut, or a fair exchange
        return fair.choose(view, rng)
    values = seer.world_values(view, state, legal)
    return legal[max(range(len(legal)), key=values.__getitem__)]


def one_game(task: tuple[int, int, int, str, str, int]) -> tuple[bool, bool]:
    """Whether the seer in ``seat`` won and whether it lost game ``g``."""
    g, seat, players, opponent, sees, seed = task
    chance = random.Random(seed * 1_000_003 + g)  # the same shuffles for every seat
    rng = random.Random(seed * 7_919 + 31 * g + seat)
    bot = make_bot(opponent)
    fair, seer = ExpertBot(), ExpertBot(leaf="respond" if players > 2 else "solver")
    state = new_game(players, dealer=g % players)
    while not state.is_terminal:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(chance))
        elif state.current_player == seat:
            state = state.apply(seer_action(state, fair, seer, sees, rng))
        else:
            state = state.apply(bot.choose(state.view(state.current_player), rng))  # type: ignore[arg-type]
    return seat in state.winners, seat in state.losers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--opponent", default="search", help="the other seats' bot spec")
    parser.add_argument("--sees", default="all", choices=("all", "play"))
    parser.add_argument("--games", type=int, default=100, help="deal sequences (x seats)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    tasks = [
        (g, seat, args.players, args.opponent, args.sees, args.seed)
        for g in range(args.games)
        for seat in range(args.players)
    ]
    wins = losses = done = 0
    start = time.perf_counter()
    print(
        f"seer (sees {args.sees}) against {args.players - 1} x {args.opponent},"
        f" {len(tasks)} games, seed {args.seed}"
    )
    with multiprocessing.Pool(args.jobs) as pool:
        for won, lost in pool.imap_unordered(one_game, tasks):
            wins, losses, done = wins + won, losses + lost, done + 1
            if done % (5 * args.players) == 0 or done == len(tasks):
                low, high = wilson_interval(wins, done)
                print(
                    f"{done:5d} games: wins {wins / done:6.1%} (95 % CI {low:.1%}–{high:.1%}),"
                    f" losses {losses / done:6.1%}, {time.perf_counter() - start:.0f} s",
                    flush=True,
                )


if __name__ == "__main__":
    main()
