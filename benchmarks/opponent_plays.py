"""How much a bot's cards tell about its hand: what a model of its play could predict.

A script, not a test::

    python benchmarks/opponent_plays.py --bot search --players 2 --games 10 --seed 3

Games of ``--players`` seats of ``--bot`` are played.  At each card play with a choice
(R24-R27) the script checks the card the bot played against two models that know the
true state, so that they see the bot's own hand as any model of its play would in a
world where that hand is right:

* the heuristic's card (:func:`bohmisch_watten.bots.policy.decide`), the model of
  :mod:`bohmisch_watten.bots.inference`;
* the set of cards the exact solver finds best for the bot in the true state
  (:func:`bohmisch_watten.solver.solve`, its points guaranteed, R29-R30): the cards a
  player who sees every card could play.

A model tells something about the hand only where it predicts the card better than
chance: so beside each hit rate the script prints the share of the legal cards the
solver's set holds (a set of every legal card would be hit every time and say nothing).
Rows are by lead or follow and the number of cards in the hand.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

from bohmisch_watten import GameState, new_game
from bohmisch_watten.bots import make_bot
from bohmisch_watten.bots.policy import decide
from bohmisch_watten.phases import Phase
from bohmisch_watten.solver import solve

Row = list[float]
"""Plays, the heuristic's card played, a solver's best played, the best set's share."""

Kind = tuple[str, int]
"""A kind of play: ``"lead"`` or ``"follow"``, and the cards in the player's hand."""


def collect(players: int, spec: str, games: int, seed: int) -> dict[Kind, Row]:
    """Per kind of play, the counts of a :data:`Row`."""
    bot = make_bot(spec)
    rng = random.Random(seed)
    rows: defaultdict[Kind, Row] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for _ in range(games):
        state: GameState = new_game(players)
        while not state.is_terminal:
            seat = state.current_player
            if seat is None:
                state = state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if len(legal) == 1:
                state = state.apply(legal[0])
                continue
            action = bot.choose(state.view(seat), rng)
            if state.phase is Phase.PLAY:
                kind = ("follow" if state.trick else "lead", len(state.hands[seat]))
                heuristic = decide(state.phase, legal, (), state.trick, state.trump_card)
                values = solve(state)
                best = min(values.values())  # the mover's points: lower is better
                optimal = [a for a in legal if values[a] == best]  # type: ignore[index]
                row = rows[kind]
                row[0] += 1
                row[1] += action == heuristic
                row[2] += action in optimal
                row[3] += len(optimal) / len(legal)
            state = state.apply(action)
    return dict(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="search", help="the bot spec whose cards are read")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    rows = collect(args.players, args.bot, args.games, args.seed)
    print(f"{args.bot}, {args.players} players, {args.games} games, seed {args.seed}")
    print("| play, cards in hand | plays | the heuristic's card | a solver's best | its share |")
    print("| --- | --- | --- | --- | --- |")
    totals: defaultdict[str, Row] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for play, cards in sorted(rows, key=lambda kind: (kind[0], -kind[1])):
        row = rows[play, cards]
        total = totals[play]
        for i, value in enumerate(row):
            total[i] += value
        print(_line(f"{play} {cards}", row))
    for kind in sorted(totals):
        print(_line(f"every {kind}", totals[kind]))


def _line(kind: str, row: Row) -> str:
    plays = row[0]
    return (
        f"| {kind} | {plays:.0f} | {row[1] / plays:.1%} | {row[2] / plays:.1%}"
        f" | {row[3] / plays:.1%} |"
    )


if __name__ == "__main__":
    main()
