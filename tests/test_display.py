"""str(state) and str(view): readable tables; hidden cards as ?? (R13, R23)."""

from __future__ import annotations

import json
import re

from hypothesis import given

from bohmisch_watten import GameState, Phase
from bohmisch_watten.state_text import turn_text
from bohmisch_watten.views import PlayerView

from game_strategies import game_states
from helpers import random_game

CODE = re.compile(r"\b[EGHS](?:10|[AKOU987])\b")


@given(game_states(max_steps=200))
def test_view_table_shows_only_what_the_seat_knows(state: GameState) -> None:
    for seat in range(state.num_players):
        view = state.view(seat)
        text = str(view)
        known = set(CODE.findall(json.dumps(view.to_dict())))
        assert set(CODE.findall(text)) <= known, text
        hidden = sum(size for s, size in enumerate(view.hand_sizes) if s != seat)
        assert text.count("??") >= hidden
        for card in view.hand:
            assert str(card) in text
        assert "\n" not in repr(view)


@given(game_states(max_steps=200))
def test_state_table_shows_every_hand_and_whose_turn(state: GameState) -> None:
    text = str(state)
    lines = text.splitlines()
    assert lines[0].startswith(f"Deal {state.deal_number}, dealer seat {state.dealer}")
    for seat, hand in enumerate(state.hands):
        row = next(line for line in lines if f"seat {seat}:" in line)
        assert all(str(card) in row for card in hand)
        assert f"score {state.scores[seat]:>3}" in row
        assert row.startswith("D") == (seat == state.dealer)
        assert (row[1] == ">") == (seat == state.current_player)
    assert "??" not in text
    assert "\n" not in repr(state)
    assert text != repr(state)


def test_finished_game_repr_says_so() -> None:
    """A finished view or state names the result, never "chance" (R34)."""
    final, _ = random_game(3, seed=2)
    assert final.phase is Phase.GAME_OVER
    for seat in range(3):
        text = repr(final.view(seat))
        assert "chance" not in text
        assert f"winners {list(final.winners)}" in text
    assert "To act: game over" in str(final)
    assert "Last deal:" in str(final)


def test_the_ritual_shows_the_cut_card_to_the_seat_that_looks() -> None:
    """R13: the card looked at is known to the looker only."""
    from bohmisch_watten import Card, Shuffle, new_game

    from helpers import cards

    hands = [cards("EA EK EO EU E10"), cards("GA GK GO GU G10")]
    shuffle = Shuffle.deal(hands, Card.parse("H9"), cut_card=Card.parse("HK"))
    state = new_game(2).apply(shuffle)
    assert state.current_player == 1
    assert "Ritual: seat 1 looks at HK" in str(state)
    assert "Ritual: seat 1 looks at HK" in str(state.view(1))
    assert "Ritual: seat 1 looks at ??" in str(state.view(0))


def _reference_view_table(view: PlayerView) -> str:
    """``str(view)`` written from the view's public card properties, the plain way."""
    hands = [
        " ".join(str(c) for c in view.hand) or "-"
        if seat == view.player
        else " ".join(["??"] * size) or "-"
        for seat, size in enumerate(view.hand_sizes)
    ]
    notes = []
    if view.phase is Phase.CUT:
        looks = [
            f"seat {s} {'took' if taken else 'looks at'} {'??' if card is None else card}"
            for s, card, taken, _ in view.cut_looks
        ]
        notes.append("Ritual: " + ", ".join(looks))
    last = view.last_deal
    if last is not None and view.phase in (Phase.DEAL, Phase.GAME_OVER):
        notes.append(
            f"Last deal: deal {last.deal_number}, points {' '.join(f'{p:+d}' for p in last.points)}"
        )
    trump = view.trump_card
    lines = [
        f"Deal {view.deal_number}, dealer seat {view.dealer}, {view.phase.name}, "
        f"seen by seat {view.player}",
        "Trump card: "
        + (
            "not turned"
            if trump is None or view.trump_suit is None
            else f"{trump} ({view.trump_suit.label})"
            + (", taken by the dealer" if view.trump_card_taken else "")
        ),
    ]
    width = max(len(hand) for hand in hands)
    for seat, hand in enumerate(hands):
        marks = ("D" if seat == view.dealer else " ") + (
            ">" if seat == view.current_player else " "
        )
        lines.append(
            f"{marks} seat {seat}: {hand:<{width}}  score {view.scores[seat]:>3}"
            f"  tricks {view.tricks_won[seat]}" + ("  folded" if view.folded[seat] else "")
        )
    lines.append(f"Stock: {view.stock_size} cards" if view.stock_size else "Stock: -")
    lines.append("Trick: " + (", ".join(f"{s}:{c}" for s, c in view.trick) or "-"))
    lines.append(f"To act: {turn_text(view.phase, view.current_player, view.winners, view.losers)}")
    return "\n".join(lines + notes)


@given(game_states(max_steps=200))
def test_view_table_is_drawn_from_the_compact_fields_as_from_the_cards(
    state: GameState,
) -> None:
    for seat in range(state.num_players):
        view = state.view(seat)
        assert str(view) == _reference_view_table(view)
