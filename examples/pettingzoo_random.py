"""A masked random policy through PettingZoo's AEC loop, one whole game.

Needs the ``[pettingzoo]`` extra.  Run it after ``make demo`` (which creates ``.venv``)
and ``.venv/bin/pip install -e '.[pettingzoo]'`` (``make test`` installs it too):
``make example NAME=pettingzoo_random ARGS="4 7"`` or
``.venv/bin/python examples/pettingzoo_random.py [players] [seed]``.

Every agent picks a uniformly random id among those its ``action_mask`` allows, so no
action is ever illegal.  Rewards are minus each deal's score change, plus +1 / −1 at the
end for the winners and losers.
"""

from __future__ import annotations

import sys

import numpy as np

from bohmisch_watten.adapters.pettingzoo import env


def main(players: int = 4, seed: int = 7) -> None:
    table = env(players=players, render_mode="ansi")
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    steps = 0
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, _ = table.last()
        totals[agent] += reward
        if terminated or truncated:
            table.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        table.step(int(rng.choice(legal)))
        steps += 1
    game = table.unwrapped.game_state
    print(f"{steps} decisions, {game.deal_number} deals, final scores {list(game.scores)}")
    for agent, total in totals.items():
        print(f"{agent}: total reward {total:+.0f}")
    print(f"winners {list(game.winners)}, losers {list(game.losers)}")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
