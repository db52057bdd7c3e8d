"""The SVG drawings: every card recognisable, valid markup, views drawn without leaks."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given

from bohmisch_watten import (
    BELLI,
    DECK,
    MAXI,
    SPITZ,
    Card,
    GameState,
    Phase,
    PlayCard,
    Suit,
    new_game,
)
from bohmisch_watten.cards import CARDS
from bohmisch_watten.svg import (
    card_back_svg,
    card_svg,
    hand_svg,
    state_svg,
    suit_symbol,
    table_svg,
)

from game_strategies import game_states
from knowledge import known_cards

SVG = "{http://www.w3.org/2000/svg}"


def cards_drawn(svg: str) -> list[str]:
    """The data-card values of every card element, in document order."""
    root = ET.fromstring(svg)
    return [e.attrib["data-card"] for e in root.iter() if "data-card" in e.attrib]


def play_until(predicate, seed: int = 3, players: int = 4) -> GameState:
    state = new_game(players)
    rng = random.Random(seed)
    while not predicate(state):
        state = state.apply(
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
    return state


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_every_card_is_valid_svg_carrying_its_notation(card: Card) -> None:
    root = ET.fromstring(card_svg(card))
    assert root.tag == SVG + "svg"
    assert root.attrib["data-card"] == str(card)
    assert "data-legal" not in root.attrib
    assert root.attrib["viewBox"] == "0 0 60 90"


@pytest.mark.rule("R7")
def test_the_criticals_carry_their_names_and_no_other_card_does() -> None:
    names = {MAXI: "Maxi", BELLI: "Belli", SPITZ: "Spitz"}
    for card in DECK:
        text = card_svg(card)
        for critical, name in names.items():
            assert (name in text) == (card is critical), (card, name)


@pytest.mark.rule("R6")
def test_the_four_suits_are_four_different_pictures() -> None:
    pictures = {suit_symbol(suit) for suit in Suit}
    assert len(pictures) == 4
    # each card shows the picture of its own suit and no other
    for card in DECK:
        inner = {suit: suit_symbol(suit, 0, 0, 20).split(">", 1)[1] for suit in Suit}
        shown = {suit for suit, body in inner.items() if body[:60] in card_svg(card)}
        assert shown == {card.suit}, card


def test_unter_shows_the_suit_low_and_ober_high() -> None:
    def symbol_y(code: str) -> float:
        root = ET.fromstring(card_svg(Card.parse(code)))
        ys = [
            float(g.attrib["transform"].split(",")[1].split(")")[0])
            for g in root.iter(SVG + "g")
            if "scale(0.8)" in g.attrib.get("transform", "")
        ]
        return ys[0]

    assert symbol_y("GO") < 45 < symbol_y("GU")


def test_legal_and_selected_marks() -> None:
    root = ET.fromstring(card_svg(MAXI, legal=True, selected=True, width=90))
    assert root.attrib["data-legal"] == "true"
    assert root.attrib["class"].split() == ["card", "legal", "selected"]
    assert root.attrib["width"] == "90"
    assert root.attrib["height"] == "135"
    back = ET.fromstring(card_back_svg())
    assert "data-card" not in back.attrib
    assert back.attrib["class"] == "card back"


def test_hand_draws_its_cards_in_order_and_marks_the_legal_ones() -> None:
    cards = [Card.parse(c) for c in ("E8", "HK", "S7")]
    svg = hand_svg(cards, legal=[MAXI])
    assert cards_drawn(svg) == ["E8", "HK", "S7"]
    root = ET.fromstring(svg)
    legal = [e.attrib["data-card"] for e in root.iter() if e.attrib.get("data-legal") == "true"]
    assert legal == ["HK"]
    assert cards_drawn(hand_svg([])) == []


def test_wrong_argument_types_raise_type_error_naming_them() -> None:
    with pytest.raises(TypeError, match="card"):
        card_svg("HK")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="suit"):
        suit_symbol("hearts")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="view"):
        table_svg(new_game(4))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="state"):
        state_svg(new_game(4).view(0))  # type: ignore[arg-type]


def test_repr_svg_for_jupyter() -> None:
    state = play_until(lambda s: s.phase is Phase.PLAY and len(s.trick) == 2)
    assert cards_drawn(MAXI._repr_svg_()) == ["HK"]
    everything = cards_drawn(state._repr_svg_())
    for hand in state.hands:
        assert {str(c) for c in hand} <= set(everything)
    seat = state.current_player
    assert seat is not None
    mine = cards_drawn(state.view(seat)._repr_svg_())
    assert {str(c) for c in state.hands[seat]} <= set(mine)


@pytest.mark.rule("R27")
def test_the_table_marks_who_is_winning_the_trick() -> None:
    state = play_until(lambda s: s.phase is Phase.PLAY and len(s.trick) == 2)
    view = state.view(state.current_player or 0)
    root = ET.fromstring(table_svg(view))
    labels = [t.text or "" for t in root.iter(SVG + "text")]
    assert sum(1 for label in labels if label.endswith(" wins")) == 1


@pytest.mark.rule("R13", "R23")
@given(game_states())
def test_a_view_drawing_shows_only_cards_the_seat_knows(state: GameState) -> None:
    for seat in range(state.num_players):
        view = state.view(seat)
        drawn = set(cards_drawn(table_svg(view)))
        assert drawn <= known_cards(state, seat)
        assert {str(c) for c in view.hand} <= drawn
        legal = {str(a.card) for a in view.legal_actions() if isinstance(a, PlayCard)}
        root = ET.fromstring(table_svg(view))
        marked = {
            e.attrib["data-card"] for e in root.iter() if e.attrib.get("data-legal") == "true"
        }
        assert marked == legal
