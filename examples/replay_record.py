"""Load a saved game (a record, text or JSON, or a saved state) and print it, deal by deal.

Run it after ``make demo`` (which creates ``.venv`` and installs the package there):
``make example NAME=replay_record ARGS=examples/sample_record.txt`` or
``.venv/bin/python examples/replay_record.py examples/sample_record.txt`` (the text
form; ``examples/sample_record.json`` is the JSON form).  A state saved with
``state.to_json()`` works too: its record is the game up to that state
(:func:`bohmisch_watten.review.load_game` reads either).

A record holds the rules, the players, the first dealer and every action, shuffles
included (see :mod:`bohmisch_watten.records`); replaying it rebuilds every state of
the game, so the printout can show each hand although the record never lists one.
To make a record of your own game: ``Path("game.txt").write_text(state.record().to_text())``,
or ``python -m bohmisch_watten --save game.txt`` for one of the demo's games.

The sample records were made with
``.venv/bin/python examples/replay_record.py --make-sample``:
a seeded random three-player game, the seed chosen so that the record shows a Critical
taken and one left in the cutting ritual, a fold and the dealer taking the trump card.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable
from pathlib import Path

from bohmisch_watten import (
    Action,
    Card,
    Exchange,
    Fold,
    FormatError,
    GameState,
    LeaveCritical,
    PlayCard,
    Rules,
    Shuffle,
    TakeCritical,
    new_game,
    replay,
)
from bohmisch_watten.review import load_game

HERE = Path(__file__).resolve().parent


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards) or "-"


def print_game(initial: GameState, actions: tuple[Action, ...]) -> GameState:
    """Apply ``actions`` to ``initial`` one by one and print what happens."""
    state = initial
    print(
        f"Böhmisch Watten, {state.num_players} players, "
        f"rules: {str(state.rules) or 'default'}, first dealer: seat {state.dealer}"
    )
    for action in actions:
        seat = state.current_player
        before = state
        state = state.apply(action)
        if isinstance(action, Shuffle):
            print(f"\n=== Deal {before.deal_number}: seat {before.dealer} deals ===")
        elif isinstance(action, TakeCritical):
            print(f"seat {seat} takes the Critical {before.cut_looks[-1].card}")
        elif isinstance(action, LeaveCritical):
            print(f"seat {seat} leaves the Critical {before.cut_looks[-1].card} at the bottom")
        elif isinstance(action, Fold):
            print(f"seat {seat} folds")
        elif isinstance(action, Exchange):
            trump = " and takes the trump card" if action.take_trump_card else ""
            print(f"seat {seat} plays, discards {_cards(sorted(action.discard))}{trump}")
        elif isinstance(action, PlayCard):
            print(f"seat {seat} plays {action.card}")
            scored = state.last_deal is not before.last_deal  # the fifth trick ends a deal
            done = state.last_deal.tricks if scored and state.last_deal else state.tricks
            if len(done) > len(before.tricks):
                print(f"  trick {len(done)} to seat {done[-1].winner}")
        if state.phase.name == "EXCHANGE" and before.phase.name in ("DEAL", "CUT"):
            print(f"trump card {state.trump_card}; hands:")
            for s, hand in enumerate(state.hands):
                print(f"  seat {s}: {_cards(hand)}")
        summary = state.last_deal
        if summary is not None and summary is not before.last_deal:
            points = ", ".join(f"seat {s}: {p:+d}" for s, p in enumerate(summary.points))
            print(f"points: {points}; scores: {list(summary.scores)}")
    if state.is_terminal:
        deals = "1 deal" if state.deal_number == 1 else f"{state.deal_number} deals"
        print(f"\nGame over after {deals}.")
        print(f"Winners: {', '.join(f'seat {s}' for s in state.winners)}")
        print(f"Losers: {', '.join(f'seat {s}' for s in state.losers)}")
    else:
        print(f"\nThe record stops in deal {state.deal_number}, phase {state.phase.name}.")
    return state


def make_sample(seed: int = 206) -> None:
    """Write examples/sample_record.txt and .json from a seeded random game."""
    rng = random.Random(seed)
    state = new_game(3, rules=Rules(start_score=10), dealer=1)
    while not state.is_terminal:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    record = state.record()
    (HERE / "sample_record.txt").write_text(record.to_text(), encoding="utf-8")
    (HERE / "sample_record.json").write_text(record.to_json(indent=1) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    if argv == ["--make-sample"]:
        make_sample()
        return 0
    if len(argv) != 1:
        print(
            "usage: python examples/replay_record.py GAME (a record, .txt or .json,"
            " or a state saved with state.to_json())",
            file=sys.stderr,
        )
        return 2
    try:
        record = load_game(Path(argv[0]).read_bytes())
        replay(record)  # check it first: an illegal action is a FormatError naming it
    except (OSError, FormatError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if record.starts_fresh:
        initial = new_game(record.num_players, rules=record.rules, dealer=record.first_dealer)
    else:  # a record that starts at a position, e.g. a game set up by Position
        initial = GameState.from_position(record.start)
    print_game(initial, record.actions)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
