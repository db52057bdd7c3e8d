"""What a bot author reaches for on cards and views: strength, names, forehand, JSON."""

from __future__ import annotations

import ast
import inspect
import pydoc
from pathlib import Path

import pytest

import bohmisch_watten
from bohmisch_watten import BELLI, DECK, MAXI, SPITZ, Card, PlayerView, Rank, Suit, new_game
from bohmisch_watten import tricks as tricks_module
from bohmisch_watten.serialization import view_from_json
from bohmisch_watten.tricks import is_trump

from helpers import random_game


@pytest.mark.rule("R7")
@pytest.mark.rule("R9")
@pytest.mark.parametrize("trump", list(Suit))
def test_card_strength_is_public_and_orders_a_hand(trump: Suit) -> None:
    strength = bohmisch_watten.card_strength
    assert strength is tricks_module.card_strength  # one home for the rule
    ordered = sorted(DECK, key=lambda c: strength(c, trump), reverse=True)
    assert ordered[:3] == [MAXI, BELLI, SPITZ]
    kinds = [0 if c.is_critical else 1 if is_trump(c, trump) else 2 for c in ordered]
    assert kinds == sorted(kinds)  # Criticals, then trumps, then plain cards
    trumps = [c for c in ordered if kinds[ordered.index(c)] == 1]
    assert [c.rank for c in trumps] == sorted((c.rank for c in trumps), reverse=True)


def test_suits_and_ranks_print_as_words_and_stay_ints(capsys: pytest.CaptureFixture[str]) -> None:
    card = Card.parse("HK")
    print(card.suit, card.rank)
    assert capsys.readouterr().out == "Hearts King\n"
    assert f"{Card.parse('SU').suit} {Card.parse('SU').rank}" == "Bells Unter"
    assert [str(r) for r in Rank] == [
        "Six", "Seven", "Eight", "Nine", "Ten", "Unter", "Ober", "King", "Ace",
    ]  # fmt: skip
    assert (int(card.suit), int(card.rank), card.suit + 0, f"{card.rank:d}") == (2, 6, 2, "6")
    assert Rank.ACE > Rank.KING
    assert Rank.KING.label == "King"
    assert repr(Suit.HEARTS) == "<Suit.HEARTS: 2>"


def test_the_view_signature_shows_no_bitmask() -> None:
    parameters = inspect.signature(PlayerView).parameters
    assert not {"hand", "trump", "discards", "tricks", "cut"} & set(parameters)
    text = pydoc.render_doc(PlayerView, renderer=pydoc.plaintext)
    for private in ("hand: int", "trump: int", "discards: int"):
        assert private not in text
    assert "state.view" in text.replace("GameState.view", "state.view")


@pytest.mark.rule("R2")
@pytest.mark.parametrize(("players", "dealer"), [(2, 1), (3, 0), (4, 2)])
def test_the_view_has_forehand_and_cutter(players: int, dealer: int) -> None:
    state = new_game(players, dealer=dealer)
    for seat in range(players):
        view = state.view(seat)
        assert (view.forehand, view.cutter) == (state.forehand, state.cutter)
    _, states = random_game(players, 3, max_deals=3)
    for later in states[::7]:
        assert (later.view(0).forehand, later.view(0).cutter) == (later.forehand, later.cutter)


def test_view_to_json_round_trips() -> None:
    state = random_game(3, 5, max_deals=2)[1][25]
    view = state.view(1)
    text = view.to_json()
    assert bohmisch_watten.from_json(text) == view
    assert view_from_json(text) == view
    assert view.to_json(indent=2) == bohmisch_watten.to_json(view, indent=2)


def test_played_trick_is_documented_next_to_the_trick_objects() -> None:
    tree = ast.parse(Path(tricks_module.__file__).read_text(encoding="utf-8"))
    docs: dict[str, str] = {}
    for before, after in zip(tree.body, tree.body[1:], strict=False):
        if (
            isinstance(before, ast.Assign)
            and isinstance(before.targets[0], ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
        ):
            docs[before.targets[0].id] = str(after.value.value)
    assert "Trick(plays=((seat, Card)" in docs["PlayedTrick"]
    assert "played_tricks" in docs["PlayedTrick"]
    assert "card index" in docs["Play"]
