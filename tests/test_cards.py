"""Cards, notation and the Criticals (R6–R10)."""

from __future__ import annotations

import copy
import pickle

import pytest

from bohmisch_watten import BELLI, CRITICALS, DECK, MAXI, SPITZ, Card, Rank, Suit


@pytest.mark.rule("R6")
def test_deck_has_32_distinct_cards_in_canonical_order() -> None:
    assert len(DECK) == 32
    assert len(set(DECK)) == 32
    assert sorted(DECK) == list(DECK)
    assert [c.index for c in DECK] == list(range(32))
    assert {c.rank for c in DECK} == set(Rank) - {Rank.SIX}
    assert {c.suit for c in DECK} == set(Suit)


@pytest.mark.rule("R6")
@pytest.mark.parametrize("card", DECK, ids=str)
def test_notation_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(str(card).lower()) is card
    assert Card(card.suit, card.rank) is card
    assert eval(repr(card), {"Card": Card}) is card


def test_notation_letters() -> None:
    assert [str(c) for c in DECK[:8]] == ["E7", "E8", "E9", "E10", "EU", "EO", "EK", "EA"]
    assert {c.suit.letter for c in DECK} == {"E", "G", "H", "S"}


@pytest.mark.parametrize("text", ["", "X7", "H1", "HKK", "H 7", "10H", "E5", "S66"])
def test_parse_rejects_non_cards(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(text)


def test_parse_rejects_non_strings() -> None:
    with pytest.raises(TypeError, match=r"Card\.parse\(text\): text must be a str, got int"):
        Card.parse(7)  # type: ignore[arg-type]


def test_card_constructor_rejects_ints() -> None:
    with pytest.raises(TypeError):
        Card(2, 6)  # type: ignore[arg-type]


@pytest.mark.rule("R7")
def test_criticals_are_maxi_belli_spitz() -> None:
    assert str(MAXI) == "HK"
    assert str(BELLI) == "S7"
    assert str(SPITZ) == "E7"
    assert CRITICALS == (MAXI, BELLI, SPITZ)
    assert [c for c in DECK if c.is_critical] == sorted(CRITICALS)


def test_cards_are_immutable_singletons() -> None:
    with pytest.raises(AttributeError):
        MAXI.rank = Rank.ACE  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del MAXI.rank
    assert copy.copy(MAXI) is MAXI
    assert copy.deepcopy(MAXI) is MAXI
    assert pickle.loads(pickle.dumps(MAXI)) is MAXI
    assert hash(MAXI) == MAXI.index


def test_ordering_and_comparisons() -> None:
    e7, ea = Card.parse("E7"), Card.parse("EA")
    assert e7 < ea
    assert e7 <= ea
    assert ea > e7
    assert ea >= e7
    assert e7 != ea
    assert e7 != "E7"
    for op in ("__lt__", "__le__", "__gt__", "__ge__"):
        assert getattr(e7, op)("E7") is NotImplemented


def test_suit_and_rank_labels() -> None:
    assert Suit.BELLS.label == "Bells"
    assert Rank.TEN.symbol == "10"
    assert list(Rank) == sorted(Rank)  # ordered low to high
