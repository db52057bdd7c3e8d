"""Shuffle.deal: the pack that deals given hands, the inverse of R15 (R11–R15)."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bohmisch_watten import (
    Card,
    GameState,
    LeaveCritical,
    Phase,
    Rules,
    Shuffle,
    TakeCritical,
    new_game,
)

from game_strategies import rules_strategy, seeds
from helpers import cards


def _dealt(n: int, rules: Rules, dealer: int, seed: int) -> tuple[GameState, list[Any]]:
    """A random deal up to the exchange, and the ritual decisions taken on the way."""
    rng = random.Random(seed)
    state = new_game(n, rules=rules, dealer=dealer)
    state = state.apply(state.sample_chance(rng))
    decisions = []
    while state.phase is Phase.CUT:
        action = rng.choice(state.legal_actions())
        decisions.append(action)
        state = state.apply(action)
    return state, decisions


@pytest.mark.rule("R12", "R15")
@given(st.integers(2, 4), rules_strategy, st.data(), seeds, st.booleans())
def test_deal_reproduces_any_deal(
    n: int, rules: Rules, data: st.DataObject, seed: int, full_stock: bool
) -> None:
    """Any dealt position is reproduced: hands, trump card, stock, ritual (R12–R15)."""
    dealer = data.draw(st.integers(0, n - 1))
    target, decisions = _dealt(n, rules, dealer, seed)
    taken = [card for _, card, took, _ in target.cut_looks if took]
    stock = target.stock if full_stock else target.stock[:3]
    shuffle = Shuffle.deal(
        target.hands,
        target.trump_card,  # type: ignore[arg-type]
        dealer=dealer,
        stock=stock,
        cut_card=target.stock[-1],
        taken=taken,
        rules=rules,
    )
    state = new_game(n, rules=rules, dealer=dealer).apply(shuffle)
    for action in decisions:
        state = state.apply(action)
    assert state.phase is Phase.EXCHANGE
    assert state.hands == target.hands
    assert state.trump_card == target.trump_card
    assert state.cut_looks == target.cut_looks
    if full_stock:
        assert state.stock == target.stock
    assert state.stock[:3] == target.stock[:3]
    assert state.stock[-1] == target.stock[-1]


@pytest.mark.rule("R1", "R6", "R13", "R15")
@given(st.integers(2, 7), rules_strategy, st.data(), seeds)
def test_deal_reproduces_any_deal_of_the_36_card_pack(
    n: int, rules: Rules, data: st.DataObject, seed: int
) -> None:
    """With 36 cards too; with seven players the cut card is the dealer's last card."""
    rules = attrs.evolve(rules, pack=36)
    dealer = data.draw(st.integers(0, n - 1))
    target, decisions = _dealt(n, rules, dealer, seed)
    taken = [card for _, card, took, _ in target.cut_looks if took]
    left = [card for _, card, took, _ in target.cut_looks if not took]
    cut = target.stock[-1] if target.stock else (left[-1] if left else None)
    shuffle = Shuffle.deal(
        target.hands,
        target.trump_card,  # type: ignore[arg-type]
        dealer=dealer,
        stock=target.stock,
        cut_card=cut,
        taken=taken,
        rules=rules,
    )
    assert len(shuffle.pack) == 36
    state = new_game(n, rules=rules, dealer=dealer).apply(shuffle)
    for action in decisions:
        state = state.apply(action)
    assert state.phase is Phase.EXCHANGE
    assert state.hands == target.hands
    assert state.trump_card == target.trump_card
    assert state.cut_looks == target.cut_looks
    assert state.stock == target.stock
    assert len(state.stock) == 35 - 5 * n


@pytest.mark.rule("R13", "R15")
def test_with_seven_players_the_cut_card_is_in_the_dealers_hand() -> None:
    rules = Rules(pack=36)
    hands = [cards(h) for h in SEVEN]
    pack = Shuffle.deal(hands, Card.parse("S6"), dealer=2, rules=rules).pack
    assert pack[-1] == Card.parse("HA")  # the dealer's last card that is no Critical
    state = new_game(7, rules=rules, dealer=2).apply(Shuffle.deal(hands, Card.parse("S6"),
        dealer=2, cut_card=Card.parse("HK"), rules=rules))  # fmt: skip
    assert state.phase is Phase.CUT  # the Maxi at the bottom is offered (R12)
    assert (
        state.apply(LeaveCritical()).hands
        == new_game(7, rules=rules, dealer=2)
        .apply(Shuffle.deal(hands, Card.parse("S6"), dealer=2, rules=rules))
        .hands
    )
    with pytest.raises(ValueError, match=r"R13: with 7 players the cut card is the dealer's"):
        Shuffle.deal(hands, Card.parse("S6"), dealer=2, cut_card=Card.parse("EA"), rules=rules)
    with pytest.raises(ValueError, match=r"R6: EA is named twice"):  # every card is dealt
        Shuffle.deal(hands, Card.parse("S6"), stock=cards("EA"), rules=rules)
    with pytest.raises(ValueError, match=r"R6: the named cards do not make a 32-card pack"):
        Shuffle.deal([cards("E6 EK EO EU E10"), cards(FIVE[1])], Card.parse("HA"))


SEVEN = [
    "EA EK EO EU E10",
    "GA GK GO GU G10",
    "HK H10 HA S7 E7",
    "E9 E8 E6 G9 G8",
    "G7 G6 H9 H8 H7",
    "H6 HO HU SA SK",
    "SO SU S10 S9 S8",
]


def test_default_cut_card_ends_the_ritual() -> None:
    """Without a cut card the bottom card is no Critical, so nothing is offered (R12)."""
    hands = [cards("HK S7 E7 EA EK"), cards("GA GK GO GU G10")]
    state = new_game(2).apply(Shuffle.deal(hands, Card.parse("H9")))
    assert state.phase is Phase.EXCHANGE
    assert not state.stock[-1].is_critical


def test_taken_criticals_follow_the_ritual() -> None:
    """R12: cutter (seat 3), then dealer (seat 0), then cutter take C1, C2, C3."""
    hands = [cards("S7 EA EK EO EU"), cards(""), cards(""), cards("HK E7 GA")]
    hands[1] = cards("G7 G8 G9 G10 GU")
    hands[2] = cards("H7 H8 H9 H10 HU")
    hands[3] += cards("GO GK")
    shuffle = Shuffle.deal(hands, Card.parse("SA"), taken=cards("HK S7 E7"))
    state = new_game(4).apply(shuffle)
    for _ in range(3):
        state = state.apply(TakeCritical())
    assert [set(h) for h in state.hands] == [set(h) for h in hands]
    assert state.trump_card == Card.parse("SA")


def test_a_critical_cut_card_is_offered_and_left() -> None:
    hands = [cards("EA EK EO EU E10"), cards("GA GK GO GU G10")]
    state = new_game(2).apply(Shuffle.deal(hands, Card.parse("H9"), cut_card=Card.parse("HK")))
    assert state.phase is Phase.CUT
    state = state.apply(LeaveCritical())
    assert state.stock[-1] == Card.parse("HK")


FIVE = ["EA EK EO EU E10", "GA GK GO GU G10"]
ALL_OTHERS = "H7 H8 H9 H10 HU HO HK S7 S8 S9 S10 SU SO SK SA E7 E8 E9 G7 G8 G9"


@pytest.mark.parametrize(
    ("hands", "kwargs", "message"),
    [
        (["EA EK EO EU", FIVE[1]], {}, "R15: every hand has 5 cards"),
        ([FIVE[0], "EA GK GO GU G10"], {}, "R6: EA is named twice"),
        ([FIVE[0]], {}, r"R1: hands must give 2 to 4 seats with the 32-card pack, got 1"),
        (FIVE, {"trump": "EA"}, "R6: EA is named twice"),
        (FIVE, {"taken": "EA"}, "R12: only a Critical can be taken"),
        (FIVE, {"taken": "HK"}, "must be in the hand of the seat taking it"),
        (["HK EK EO EU E10", FIVE[1]], {"taken": "HK"}, "step 1 of the ritual is seat 1's"),
        (["EA EK EO EU E10", "HK GK GO GU G10"], {"taken": "HK", "schleck": "none"}, "R14"),
        (FIVE, {"cut": "EA"}, "R6: EA is named twice"),
        (FIVE, {"stock": ALL_OTHERS}, "R15: the stock holds 21 cards"),
        (FIVE, {"stock": "H7 H8", "cut": "H8"}, "R13: the cut card H8 can only be the last"),
        (FIVE, {"dealer": 2}, "dealer must be a seat from 0 to 1"),
        (["HK EK EO EU E10", FIVE[1]], {"taken": "HK HK"}, "R12: a Critical can be taken only"),
        (FIVE, {"stock": ALL_OTHERS.replace("HK ", "")}, "R12: no card that is not"),
    ],
)
def test_impossible_requests_say_why(
    hands: list[str], kwargs: dict[str, Any], message: str
) -> None:
    trump = Card.parse(kwargs.pop("trump", "HA"))
    options: dict[str, Any] = {}
    if "taken" in kwargs:
        options["taken"] = cards(kwargs["taken"])
    if "cut" in kwargs:
        options["cut_card"] = Card.parse(kwargs["cut"])
    if "stock" in kwargs:
        options["stock"] = cards(kwargs["stock"])
    if "schleck" in kwargs:
        options["rules"] = Rules(schleck=kwargs["schleck"])
    if "dealer" in kwargs:
        options["dealer"] = kwargs["dealer"]
    with pytest.raises(ValueError, match=message):
        Shuffle.deal([cards(h) for h in hands], trump, **options)


@pytest.mark.parametrize(
    ("args", "kwargs", "name"),
    [
        (("EA EK", Card.parse("HA")), {}, "hands"),
        (([cards(FIVE[0]), "EA EK"], Card.parse("HA")), {}, r"hands\[1\]"),
        (([cards(h) for h in FIVE], "HA"), {}, "trump_card"),
        (([cards(h) for h in FIVE], Card.parse("HA")), {"dealer": "0"}, "dealer"),
        (([cards(h) for h in FIVE], Card.parse("HA")), {"stock": ["H7"]}, "stock"),
        (([cards(h) for h in FIVE], Card.parse("HA")), {"rules": "alternate"}, "rules"),
    ],
)
def test_wrong_types_name_the_argument(
    args: tuple[Any, ...], kwargs: dict[str, Any], name: str
) -> None:
    with pytest.raises(TypeError, match=name):
        Shuffle.deal(*args, **kwargs)
