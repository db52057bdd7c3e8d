"""The 36-card pack (R1, R6): the Sixes, ``Rules(pack=36)`` and up to seven players."""

from __future__ import annotations

import json
import random

import pytest

from bohmisch_watten import (
    DECK,
    Card,
    Exchange,
    GameState,
    PlayCard,
    Position,
    Rank,
    Rules,
    Shuffle,
    Suit,
    new_game,
)
from bohmisch_watten.cards import PACK_SIZES, SIXES, pack_cards
from bohmisch_watten.errors import FormatError, IllegalActionError
from bohmisch_watten.notation import parse_rules
from bohmisch_watten.serialization import rules_from_json, to_json
from bohmisch_watten.svg import card_svg

PACK36 = Rules(pack=36)


@pytest.mark.rule("R6")
def test_the_sixes_rank_below_the_sevens_and_keep_the_32_ids() -> None:
    assert Rank.SIX < Rank.SEVEN
    assert next(iter(Rank)) is Rank.SIX
    assert [str(c) for c in SIXES] == ["E6", "G6", "H6", "S6"]
    assert [c.index for c in SIXES] == [32, 33, 34, 35]
    assert Card.parse("e6") is Card(Suit.ACORNS, Rank.SIX) is SIXES[0]
    assert Rank.SIX.symbol == "6"
    assert str(Rank.SIX) == "Six"
    assert not any(c.is_critical for c in SIXES)
    # The 32 cards keep their ids and order: DECK is unchanged.
    assert [c.index for c in DECK] == list(range(32))
    assert SIXES[0] not in DECK
    assert sorted([SIXES[0], DECK[31], DECK[0]]) == [DECK[0], DECK[31], SIXES[0]]


@pytest.mark.rule("R6")
def test_the_pack_of_a_rule_set_is_one_function() -> None:
    assert PACK_SIZES == (32, 36)
    assert pack_cards(Rules().pack) is DECK
    cards = pack_cards(PACK36.pack)
    assert cards == DECK + SIXES
    assert [c.index for c in cards] == list(range(36))
    with pytest.raises(ValueError, match="R6: a pack has 32 or 36 cards, got 33"):
        pack_cards(33)


@pytest.mark.rule("R6")
def test_rules_pack_is_validated() -> None:
    assert Rules().pack == 32
    assert PACK36.pack == 36
    with pytest.raises(ValueError, match=r"Rules.pack must be 32 or 36 \(R6\), got 40"):
        Rules(pack=40)
    with pytest.raises(TypeError, match="pack must be an int"):
        Rules(pack="36")  # type: ignore[arg-type]


@pytest.mark.rule("R6")
def test_pack_36_in_every_text_form() -> None:
    assert str(PACK36) == "pack=36"
    assert parse_rules("pack=36") == PACK36
    assert parse_rules(" PACK = 36 , schleck=none") == Rules(pack=36, schleck="none")
    position = Position.start(7, rules=PACK36)
    assert str(position).endswith("/pack:36")
    assert Position.parse(str(position)) == position
    document = json.loads(to_json(PACK36))
    assert document["rules"]["pack"] == 36
    assert rules_from_json(to_json(PACK36)) == PACK36
    with pytest.raises(FormatError, match="pack must be 32 or 36"):
        parse_rules("pack=35")


def test_documents_of_the_32_card_game_have_no_pack_field() -> None:
    """0.1.0 and 0.2.0 documents stay what they were: ``pack`` is written only at 36."""
    document = json.loads(to_json(Rules()))
    assert "pack" not in document["rules"]
    assert rules_from_json(json.dumps(document)) == Rules()
    document["rules"]["pack"] = 32
    assert rules_from_json(json.dumps(document)) == Rules()
    document["rules"]["pack"] = "36"
    with pytest.raises(FormatError, match="rules.pack: expected an integer"):
        rules_from_json(json.dumps(document))


@pytest.mark.rule("R1")
@pytest.mark.parametrize("players", [5, 6, 7])
def test_five_to_seven_players_need_the_36_card_pack(players: int) -> None:
    with pytest.raises(ValueError, match=r"num_players must be 2 to 4 with the 32-card pack"):
        new_game(players)
    with pytest.raises(ValueError, match=r"need the 36-card pack \(R1\)"):
        Position.start(players)
    assert Position.start(players, rules=PACK36).num_players == players


@pytest.mark.rule("R1")
@pytest.mark.parametrize("players", [1, 8])
def test_no_pack_seats_one_or_eight(players: int) -> None:
    with pytest.raises(ValueError, match=r"num_players must be 2 to 7 with the 36-card pack"):
        new_game(players, rules=PACK36)
    with pytest.raises(ValueError, match="Position.num_players must be 2 to 4, or to 7"):
        Position.start(players, rules=PACK36)


@pytest.mark.parametrize("players", [2, 7])
def test_a_state_not_yet_dealing_36_cards_refuses_clearly(players: int) -> None:
    with pytest.raises(NotImplementedError, match=r"Rules\(pack=36\): the game state plays only"):
        new_game(players, rules=PACK36)
    with pytest.raises(NotImplementedError, match="32-card pack so far"):
        GameState.from_position(Position.start(players, rules=PACK36))


@pytest.mark.rule("R6")
def test_a_six_is_no_card_of_the_32_card_game() -> None:
    state = new_game(2)
    with pytest.raises(IllegalActionError):
        state.apply(Shuffle((*DECK[:31], SIXES[0])))
    state = state.apply(state.sample_chance(random.Random(1)))
    while state.current_player is None or not any(
        isinstance(a, PlayCard) for a in state.legal_actions()
    ):
        state = state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalActionError):
        state.apply(PlayCard(SIXES[2]))


@pytest.mark.rule("R6")
@pytest.mark.parametrize("six", SIXES, ids=str)
def test_a_six_is_drawn_with_six_pips(six: Card) -> None:
    svg = card_svg(six)
    assert f'data-card="{six}"' in svg
    # the corner mark, and six pips of the suit besides the two corner symbols
    assert ">6</text>" in svg
    assert svg.count("scale(0.575)") == 6


def test_an_exchange_or_play_of_a_six_in_the_32_card_game_is_illegal() -> None:
    rng = random.Random(5)
    state = new_game(3)
    state = state.apply(state.sample_chance(rng))
    while not any(isinstance(a, Exchange) for a in state.legal_actions()):
        state = state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalActionError):
        state.apply(Exchange([SIXES[1]]))
    assert "S6" in str(PlayCard(SIXES[3]))
