"""How readily a bot folds: its fold rate by the heuristic's value of the hand, and a fit.

A script, not a test::

    python benchmarks/opponent_folds.py --bot search --games 120 --seed 11

Games of ``--players`` seats are played in which ``--bot`` decides every exchange and
fold (R18–R21) and the heuristic policy plays the cards (fast, and the scores still
move as in real games).  At each decision where R21 lets the seat fold, the script
records the heuristic's expected points of the dealt hand after its best exchange
(``gain``, :func:`bohmisch_watten.bots.policy.expected_gain`; negative is good) and
whether the bot folded.  It prints the fold rate by ``gain`` and the ``fold_bias`` and
``fold_temperature`` of :class:`~bohmisch_watten.bots.inference.OpponentModel` that
make those folds most likely (maximum likelihood on a grid), beside the log-likelihood
of the heuristic's own rule (bias 0, temperature 0.3).  The ``opponent_fold_bias`` of
:class:`~bohmisch_watten.bots.ExpertBot` comes from this fit against ``SearchBot()``.
"""

from __future__ import annotations

import argparse
import math
import random
from collections import defaultdict

from bohmisch_watten import Exchange, Fold, GameState, new_game
from bohmisch_watten.bots import make_bot
from bohmisch_watten.bots.policy import _hand_values as hand_values
from bohmisch_watten.bots.policy import decide, expected_gain, rank_exchanges
from bohmisch_watten.phases import Phase

Decision = tuple[float, bool]
"""The heuristic's expected points of the hand (``gain``) and whether the bot folded."""


def collect(players: int, spec: str, games: int, seed: int) -> list[Decision]:
    """The fold decisions of ``spec`` where R21 allowed a fold, with each hand's gain."""
    bot = make_bot(spec)
    rng = random.Random(seed)
    out: list[Decision] = []
    for _ in range(games):
        state: GameState = new_game(players)
        while not state.is_terminal:
            if state.current_player is None:
                state = state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player
            legal = state.legal_actions()
            if state.phase is Phase.EXCHANGE and len(legal) > 1:
                view = state.view(seat)
                action = bot.choose(view, rng)
                if state.fold_forbidden_by() is None:  # R21
                    assert state.trump_card is not None
                    hand = state.hands[seat]
                    best = rank_exchanges(hand, legal, state.trump_card)[0][0]
                    assert isinstance(best, Exchange)
                    gain = expected_gain(hand_values(hand, best, state.trump_card))
                    out.append((gain, isinstance(action, Fold)))
                state = state.apply(action)
                continue
            hand = state.hands[seat] if state.phase is Phase.EXCHANGE else ()
            state = state.apply(decide(state.phase, legal, hand, state.trick, state.trump_card))
    return out


def log_likelihood(decisions: list[Decision], bias: float, temperature: float) -> float:
    """Log-probability of the folds if the bot folds with ``sigmoid((gain - bias) / T)``."""
    total = 0.0
    for gain, folded in decisions:
        p = 1.0 / (1.0 + math.exp((bias - gain) / temperature))
        p = min(max(p, 1e-6), 1 - 1e-6)
        total += math.log(p if folded else 1.0 - p)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="search", help="the bot spec whose folds are fitted")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4))
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    decisions = collect(args.players, args.bot, args.games, args.seed)
    folds = sum(folded for _, folded in decisions)
    print(
        f"{args.bot}, {args.players} players, {args.games} games: {len(decisions)} decisions"
        f" where R21 allowed a fold, {folds} folds ({folds / len(decisions):.1%})"
    )
    bins: defaultdict[float, list[bool]] = defaultdict(list)
    for gain, folded in decisions:
        bins[round(gain * 2) / 2].append(folded)
    print("| gain | decisions | folded |")
    print("| --- | --- | --- |")
    for gain in sorted(bins):
        found = bins[gain]
        print(f"| {gain:+.1f} | {len(found)} | {sum(found) / len(found):.0%} |")
    grid = [(b / 10, t / 10) for b in range(-30, 11) for t in range(1, 16)]
    best = max(grid, key=lambda bt: log_likelihood(decisions, *bt))
    print(
        f"fit: fold_bias {best[0]:+.1f}, fold_temperature {best[1]:.1f},"
        f" log-likelihood {log_likelihood(decisions, *best):.1f};"
        f" the heuristic's rule (0, 0.3): {log_likelihood(decisions, 0.0, 0.3):.1f}"
    )


if __name__ == "__main__":
    main()
