"""Fit the race model of ExpertBot: a seat's chance to win the game from the scores.

A script, not a test: ``python benchmarks/race_model.py [--games 4000] [--seed 11]
[--write]``.  It plays ``--games`` whole games of four, three and two ``HeuristicBot``
players (default rules), records the scores at the start of every deal and who won the
game in the end (R31, R34; a win shared by k counts 1/k), and fits, per number of
players, a table ``strength[s]`` for the scores s = 1 … 100 such that

    P(seat i wins) = exp(strength[s_i]) / sum_j exp(strength[s_j])

(a multinomial logit, the Bradley–Terry model of a race), by maximum likelihood with a
smoothness penalty, then smoothed by a cubic in log(score + 2) fitted to the scores
with data; scores with little data are extrapolated linearly from the populated range,
and the table is made non-increasing: a lower score is never worse.
It prints each fit's mean log-likelihood against the uniform guess and, with
``--write``, writes ``src/bohmisch_watten/bots/_race_tables.py``.  Needs NumPy.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

from bohmisch_watten import new_game
from bohmisch_watten.bots.policy import decide
from bohmisch_watten.phases import Phase

LOW, HIGH = 1, 100
TARGET = Path(__file__).resolve().parents[1] / "src/bohmisch_watten/bots/_race_tables.py"


def play(players: int, rng: random.Random) -> tuple[list[tuple[int, ...]], tuple[int, ...]] | None:
    """One heuristic game: the scores at each deal start, and the winners."""
    state = new_game(players, dealer=rng.randrange(players))
    starts = []
    while not state.is_terminal:
        if state.is_chance_node:
            starts.append(state.scores)
            state = state.apply(state.sample_chance(rng))
            if state.deal_number > 400:
                return None  # a game that drifts away from the goal: rare, left out
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            seat = state.current_player
            phase = state.phase
            hand = state.hands[seat] if phase is Phase.EXCHANGE and seat is not None else ()
            action = decide(phase, legal, hand, state.trick, state.trump_card)
        else:
            action = legal[0]
        state = state.apply(action)
    return starts, state.winners


def fit(players: int, games: int, seed: int) -> tuple[list[float], float, float]:
    """The strength table of ``players``, its mean log-likelihood and the uniform one."""
    rng = random.Random(seed)
    rows: list[list[int]] = []
    targets: list[list[float]] = []
    for _ in range(games):
        game = play(players, rng)
        if game is None:
            continue
        starts, winners = game
        share = [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]
        for scores in starts:
            rows.append([min(max(s, LOW), HIGH) - LOW for s in scores])
            targets.append(share)
    x = np.array(rows)
    y = np.array(targets)
    size = HIGH - LOW + 1
    f = np.zeros(size)
    smooth = 20.0
    for _ in range(4000):
        z = f[x]
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        grad = np.zeros(size)
        np.add.at(grad, x.ravel(), (y - p).ravel())
        second = f[:-2] - 2 * f[1:-1] + f[2:]
        grad[:-2] -= smooth * second
        grad[1:-1] += 2 * smooth * second
        grad[2:] -= smooth * second
        f += 2.0 * players * grad / len(x)
        f -= f[20 - LOW]
    loglik = float((y * np.log(np.maximum(p, 1e-12))).sum() / len(x))
    counts = np.bincount(x.ravel(), minlength=size)
    populated = np.nonzero(counts >= 300)[0]
    last = int(populated.max())
    # The table smoothed: a cubic in log(score + 2) over the populated scores, weighted
    # by their data, and a straight line beyond, so a bot sees no bump of the noise.
    scores = np.arange(LOW, HIGH + 1)
    axis = np.log(scores + 2.0)
    cubic = np.polyfit(axis[populated], f[populated], 3, w=np.sqrt(counts[populated]))
    f = np.polyval(cubic, axis)
    slope = (f[last] - f[last - 10]) / 10
    f[last + 1 :] = f[last] + slope * (np.arange(last + 1, size) - last)
    f -= f[20 - LOW]
    f = np.minimum.accumulate(f)  # a lower score is never worse
    return [round(float(v), 3) for v in f], loglik, float(np.log(1 / players))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--write", action="store_true", help="rewrite _race_tables.py")
    args = parser.parse_args()
    tables = {}
    for players in (2, 3, 4):
        start = time.perf_counter()
        table, loglik, uniform = fit(players, args.games, args.seed)
        tables[players] = table
        print(
            f"{players} players: {args.games} games, mean log-likelihood {loglik:.4f}"
            f" (uniform {uniform:.4f}), {time.perf_counter() - start:.0f} s"
        )
    if args.write:
        lines = [
            '"""The race model\'s strength tables (generated by benchmarks/race_model.py)."""',
            "",
            "from typing import Final",
            "",
            f"LOW: Final = {LOW}",
            '"""The score of the first entry; lower scores use it."""',
            "",
            "STRENGTH: Final = (",
        ]
        for players in (2, 3, 4):
            values = ", ".join(f"{v}" for v in tables[players])
            lines.append(f"    ({values}),")
        lines += [
            ")",
            '"""``STRENGTH[players - 2][score - LOW]``, scores 1 to 100 (higher ones use the',
            f"last): fitted on {args.games} heuristic games per player count, seed {args.seed}.",
            '"""',
            "",
        ]
        TARGET.write_text("\n".join(lines))
        print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
