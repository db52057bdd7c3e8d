"""ExpertBot against OpenSpiel's ISMCTSBot, through the OpenSpiel adapter (a script, not a test).

For information: the expert plays one-deal episodes of the project's
OpenSpiel game ``python_bohmisch_watten(players=N,mode=deal)`` (the default position:
deal 2, everyone at the start score) against OpenSpiel's own information-set MCTS,
``ismcts.ISMCTSBot`` with a random-rollout evaluator, given about the expert's time per
decision.  The expert sees only its seat's view, ``state.game_state.view(seat)``, and its
action goes back through :func:`bohmisch_watten.encoding.action_to_id`; ISMCTS samples
hidden cards with the adapter's ``resample_from_infostate``.

Paired deals: deal ``i`` draws its chance outcomes (the 32 cards of the shuffle) from a
generator seeded by ``(seed, i)`` and is played once per seat of the expert (two plays in
a two-player game, seats swapped; with 3 or 4 players the expert rotates through the
seats, ISMCTS in every other seat), so every play of a deal has the same cards.  A
play's points are the adapter's returns, minus each seat's score change: positive is
good.  The table gives each bot's mean points per deal, the expert's paired advantage
(per deal: the expert's mean over its seats minus ISMCTS's mean over its seats and the
plays) with its standard error over the deals, and each bot's median and mean wall and
CPU milliseconds per decision (decisions with at least two legal actions; a forced
action is applied without asking either bot).

``--simulations`` defaults to a count at which ISMCTS's median CPU time per decision
was about the expert's on an idle-ish 2-core machine (14 with two players, 12 with
three, 11 with four); the printed times show how close they are on the machine at hand::

    python benchmarks/expert_ismcts.py --deals 60                 # two players
    python benchmarks/expert_ismcts.py --players 4 --deals 15
    python benchmarks/expert_ismcts.py --deals 20 --simulations 40 --expert expert:samples=20
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import bohmisch_watten.adapters.openspiel  # noqa: F401  (registers the game)
from bohmisch_watten.bots import Bot, make_bot
from bohmisch_watten.encoding import action_to_id

DEFAULT_SIMULATIONS = {2: 14, 3: 12, 4: 11}
"""ISMCTS simulations per decision at about the expert's median CPU time (see above)."""


class Timer:
    """Wall and CPU milliseconds of one bot's decisions."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def add(self, wall0: float, cpu0: float) -> None:
        self.wall.append(1000 * (time.perf_counter() - wall0))
        self.cpu.append(1000 * (time.process_time() - cpu0))

    def row(self, name: str) -> str:
        if not self.cpu:
            return f"{name:8s} {0:6d}"
        return (
            f"{name:8s} {len(self.cpu):6d} {statistics.median(self.wall):12.1f}"
            f" {statistics.mean(self.wall):10.1f} {statistics.median(self.cpu):11.1f}"
            f" {statistics.mean(self.cpu):9.1f}"
        )


def play_deal(
    game: pyspiel.Game,
    deal_rng: np.random.RandomState,
    expert: Bot,
    expert_seat: int,
    expert_rng: random.Random,
    search: ismcts.ISMCTSBot,
    timers: dict[str, Timer],
) -> list[float]:
    """One deal with the expert in ``expert_seat``, ISMCTS elsewhere: the returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(deal_rng.choice(outcomes, p=probs)))
            continue
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        seat = state.current_player()
        wall0, cpu0 = time.perf_counter(), time.process_time()
        if seat == expert_seat:
            view = state.game_state.view(seat)
            action = action_to_id(view, expert.choose(view, expert_rng))
            timers["expert"].add(wall0, cpu0)
        else:
            action = int(search.step(state))
            timers["ismcts"].add(wall0, cpu0)
        state.apply_action(action)
    return [float(r) for r in state.returns()]


def report(
    args: argparse.Namespace,
    expert_points: list[float],
    ismcts_points: list[float],
    timers: dict[str, Timer],
    seconds: float,
) -> None:
    """Print the table of the deals played so far."""
    deals = len(expert_points)
    diffs = [e - s for e, s in zip(expert_points, ismcts_points, strict=True)]
    error = statistics.stdev(diffs) / math.sqrt(deals) if deals > 1 else float("nan")
    print(
        f"\n{args.players} players, {deals} deals x {args.players} seats (paired), seed"
        f" {args.seed}, {seconds:.0f} s; expert {args.expert!r}; ISMCTS"
        f" max_simulations={args.simulations}, n_rollouts={args.rollouts},"
        f" uct_c={args.uct_c}"
    )
    print(f"expert  {statistics.mean(expert_points):+.3f} points per deal")
    print(f"ismcts  {statistics.mean(ismcts_points):+.3f} points per deal")
    print(f"expert - ismcts  {statistics.mean(diffs):+.3f} ± {error:.3f} (paired, per deal)")
    print(
        f"{'ms/dec':8s} {'n':>6s} {'median wall':>12s} {'mean wall':>10s}"
        f" {'median cpu':>11s} {'mean cpu':>9s}"
    )
    for name in ("expert", "ismcts"):
        print(timers[name].row(name))
    print(flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--deals", type=int, default=60, help="deal seeds, each played per seat")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")
    parser.add_argument("--expert", default="expert", help="the expert's bot spec")
    parser.add_argument(
        "--simulations", type=int, default=0, help="ISMCTS simulations (0: the default)"
    )
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts per leaf")
    parser.add_argument("--uct-c", type=float, default=2.0, help="ISMCTS exploration constant")
    parser.add_argument("--report-every", type=int, default=10, help="print the table so far")
    args = parser.parse_args()
    if args.simulations <= 0:
        args.simulations = DEFAULT_SIMULATIONS[args.players]

    game = pyspiel.load_game(f"python_bohmisch_watten(players={args.players},mode=deal)")
    expert = make_bot(args.expert)
    timers = {"expert": Timer(), "ismcts": Timer()}
    expert_points: list[float] = []
    ismcts_points: list[float] = []
    start = time.perf_counter()
    for deal in range(args.deals):
        mine: list[float] = []
        theirs: list[float] = []
        for seat in range(args.players):
            bot_rng = np.random.RandomState([args.seed, deal, seat])
            search = ismcts.ISMCTSBot(
                game,
                mcts.RandomRolloutEvaluator(n_rollouts=args.rollouts, random_state=bot_rng),
                uct_c=args.uct_c,
                max_simulations=args.simulations,
                random_state=bot_rng,
            )
            returns = play_deal(
                game,
                np.random.RandomState([args.seed, deal]),
                expert,
                seat,
                random.Random(f"{args.seed}/{deal}/{seat}"),
                search,
                timers,
            )
            mine.append(returns[seat])
            theirs += [r for other, r in enumerate(returns) if other != seat]
        expert_points.append(statistics.mean(mine))
        ismcts_points.append(statistics.mean(theirs))
        done = deal + 1
        if done == args.deals or (args.report_every and done % args.report_every == 0):
            report(args, expert_points, ismcts_points, timers, time.perf_counter() - start)


if __name__ == "__main__":
    main()
