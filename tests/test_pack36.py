"""The 36-card pack (R1, R6): the Sixes, ``Rules(pack=36)`` and up to seven players."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bohmisch_watten import (
    DECK,
    Card,
    Exchange,
    GameState,
    Phase,
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
from bohmisch_watten.records import load_record
from bohmisch_watten.serialization import rules_from_json, to_json
from bohmisch_watten.svg import card_svg, state_svg
from bohmisch_watten.tricks import winning_play
from test_state_machine import check_state

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


def play_deals(players: int, seed: int, deals: int = 2) -> GameState:
    """``deals`` deals of a seeded random game with the 36-card pack, checked each step."""
    rng = random.Random(seed)
    state = new_game(players, rules=PACK36, dealer=seed % players)
    while state.deal_number <= deals and not state.is_terminal:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
        check_state(state)
    return state


@pytest.mark.rule("R1", "R6", "R15", "R22")
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_every_table_size_plays_the_36_card_pack(players: int) -> None:
    for seed in range(3):
        play_deals(players, seed)


@pytest.mark.rule("R15", "R20")
@pytest.mark.parametrize(("players", "stock"), [(2, 25), (5, 10), (6, 5), (7, 0)])
def test_the_stock_is_35_minus_five_per_player(players: int, stock: int) -> None:
    state = new_game(players, rules=Rules(pack=36, schleck="none"))
    state = state.apply(Shuffle(pack_cards(36)))
    assert state.phase is Phase.EXCHANGE
    assert len(state.stock) == stock
    assert all(len(hand) == 5 for hand in state.hands)


@pytest.mark.rule("R19", "R20")
def test_with_seven_players_only_the_dealer_changes_a_card_the_trump_card() -> None:
    state = new_game(7, rules=Rules(pack=36, schleck="none"))
    state = state.apply(Shuffle(pack_cards(36)))
    for _ in range(6):  # first deal: nobody folds (R21.1); the stock is empty (R20)
        assert state.legal_actions() == (Exchange([]),)
        with pytest.raises(IllegalActionError, match="R20"):
            state.apply(Exchange([state.hands[state.current_player][0]]))
        state = state.apply(Exchange([]))
    assert state.current_player == state.dealer
    legal = state.legal_actions()
    assert legal[0] == Exchange([])
    assert all(a.take_trump_card and len(a.discard) == 1 for a in legal[1:])
    assert len(legal) == 6
    give = state.hands[state.dealer][0]
    trump = state.trump_card
    state = state.apply(Exchange([give], take_trump_card=True))
    assert trump in state.hands[state.dealer]
    assert give not in state.hands[state.dealer]


@pytest.mark.rule("R12", "R13")
def test_with_seven_players_the_card_left_at_the_bottom_is_the_dealers_last() -> None:
    """R13 with an empty stock: the cut card is dealt, as the dealer's last card."""
    rest = [c for c in pack_cards(36) if str(c) != "G9"]
    pack = (*rest, Card.parse("G9"))  # G9 at the bottom: looked at, not a Critical
    state = new_game(7, rules=PACK36, dealer=3).apply(Shuffle(pack))
    assert state.phase is Phase.EXCHANGE
    assert state.cut_looks[0].card == Card.parse("G9")
    assert Card.parse("G9") in state.hands[3]
    assert state.stock == ()


@pytest.mark.rule("R6", "R9", "R27")
def test_the_six_is_the_lowest_trump_and_the_lowest_of_its_suit() -> None:
    assert winning_play([(0, Card.parse("G6")), (1, Card.parse("EA"))], Suit.LEAVES)[0] == 0
    assert winning_play([(0, Card.parse("E6")), (1, Card.parse("G7"))], Suit.LEAVES)[0] == 1
    assert winning_play([(0, Card.parse("E6")), (1, Card.parse("E8"))], Suit.LEAVES)[0] == 1
    assert winning_play([(0, Card.parse("H7")), (1, Card.parse("H6"))], Suit.HEARTS)[0] == 0


def test_a_36_card_game_survives_every_text_form() -> None:
    state = play_deals(7, 4, deals=1)
    assert GameState.from_json(state.to_json()) == state
    assert load_record(state.record().to_text()).rules == PACK36
    assert json.loads(state.to_json())["record"]["rules"]["pack"] == 36
    view = state.view(0)
    assert view.rules == PACK36
    assert str(state).startswith("Deal")
    svg = state_svg(state)
    assert svg.count("<svg") >= 1


@pytest.mark.rule("R6", "R23")
@pytest.mark.parametrize("players", [5, 6, 7])
def test_the_sampler_deals_the_36_card_pack(players: int) -> None:
    """The exact sampler covers the pack (tests/test_sampler_pack36.py tests it through)."""
    state = play_deals(players, 1, deals=1)
    while state.is_chance_node:
        state = state.apply(state.sample_chance(random.Random(0)))
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    sample = view.sample_state(random.Random(0))
    assert sample.view(seat) == view
    check_state(sample)  # the 36 cards conserved, among other invariants


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


@pytest.mark.rule("R6")
def test_the_encoding_and_the_adapters_take_the_36_card_pack() -> None:
    """Its own table of ids and layout (tests/test_adapter_pack36.py tests them)."""
    from bohmisch_watten.adapters._config import rules_argument
    from bohmisch_watten.encoding import action_mask, action_to_id, observation

    state = play_deals(7, 2, deals=1)
    while state.is_chance_node:
        state = state.apply(state.sample_chance(random.Random(0)))
    seat = state.current_player
    assert seat is not None
    assert len(observation(state.view(seat))) == 192 + 89 * 7
    assert len(action_mask(state.view(seat))) == 103
    assert action_to_id(state, PlayCard(SIXES[0])) == 99
    for given in ("pack=36", PACK36, {"pack": 36}):
        assert rules_argument(given) == PACK36
    assert rules_argument("pack=32") == Rules()


@pytest.mark.rule("R6")
def test_a_policy_of_the_32_card_table_refuses_a_36_card_game_by_name(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from bohmisch_watten.bots.learned import PolicyBot, PolicyNet, save_policy

    path = tmp_path / "net.pt"
    save_policy(PolicyNet(4, hidden=8), path)
    state = play_deals(4, 3, deals=1)
    rng = random.Random(1)
    while state.current_player is None:
        state = state.apply(state.sample_chance(rng))
    with pytest.raises(ValueError, match="32-card pack's action ids .* the 36-card pack"):
        PolicyBot(str(path)).choose(state.view(state.current_player), rng)


@pytest.mark.rule("R1")
@pytest.mark.parametrize("players", [2, 5, 7])
def test_the_web_table_seats_the_36_card_pack(players: int) -> None:
    """The web layer's part of the pack: a table of up to seven seats plays it, and a
    32-card table of more than four is refused naming R1."""
    from bohmisch_watten.web.table import Table

    table = Table(players=players, humans=1, bots=["random"] * (players - 1), rules=PACK36)
    assert table.rules == PACK36
    assert len(table.seats) == players
    with pytest.raises(ValueError, match=r"players must be 2 to 4 with the 32-card pack \(R1\)"):
        Table(players=5)
    with pytest.raises(ValueError, match=r"players must be 2 to 7 with the 36-card pack \(R1\)"):
        Table(players=8, rules=PACK36)


@pytest.mark.parametrize("spec", ["search", "expert"])
def test_the_sampling_bots_play_the_36_card_pack(spec: str) -> None:
    """With their default budgets, at a four-seat table of the 36-card pack (more seats:
    tests/test_bots_pack36.py)."""
    from bohmisch_watten.bots.registry import make_bot

    state = play_deals(4, 3, deals=1)
    rng = random.Random(1)
    while state.current_player is None:
        state = state.apply(state.sample_chance(rng))
    bot = make_bot(spec)
    for _ in range(3):
        while state.current_player is None:
            state = state.apply(state.sample_chance(rng))
        action = bot.choose(state.view(state.current_player), rng)
        assert action in state.legal_actions()
        state = state.apply(action)


@pytest.mark.parametrize("spec", ["random", "heuristic"])
def test_the_random_and_heuristic_bots_play_seven_seats(spec: str) -> None:
    from bohmisch_watten.bots.registry import make_bot

    bot = make_bot(spec)
    rng = random.Random(7)
    state = new_game(7, rules=PACK36)
    while state.deal_number <= 3:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(bot.choose(state.view(state.current_player), rng))
    assert state.last_deal is not None
    assert sum(state.last_deal.tricks_won) == 5
