"""OpenSpiel's own IS-MCTS bot against random play, a few deals of Böhmisch Watten.

Needs the ``[openspiel]`` extra.  Run it after ``make demo`` (which creates ``.venv``)
and ``.venv/bin/pip install -e '.[openspiel]'`` (``make test`` installs it too):
``make example NAME=openspiel_ismcts ARGS="4 40 1"`` or
``.venv/bin/python examples/openspiel_ismcts.py [deals] [simulations] [seed]``.

Seat 0 is OpenSpiel's ``ISMCTSBot`` (information-set Monte Carlo tree search; it
samples the hidden cards with the game's ``resample_from_infostate``, which uses the
library's exact sampler); the other three seats play uniformly at random.  Each deal is
one episode of the one-deal mode, from the default position (deal 2, everyone at 20), so
a deal's return is minus the seat's score change: positive is good.
"""

from __future__ import annotations

import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import bohmisch_watten.adapters.openspiel  # noqa: F401  (registers the game)


def main(deals: int = 4, simulations: int = 40, seed: int = 1) -> None:
    game = pyspiel.load_game("python_bohmisch_watten(players=4,mode=deal)")
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rng
    )
    totals = np.zeros(game.num_players())
    for deal in range(1, deals + 1):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        returns = state.returns()
        totals += returns
        print(f"deal {deal}: returns {[int(r) for r in returns]}")
    mean_random = totals[1:].mean() / deals
    print(f"ISMCTS (seat 0): {totals[0] / deals:+.2f} per deal; random seats: {mean_random:+.2f}")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:4]))
