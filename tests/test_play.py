"""Trick play: leading, following, heading, trumping, overtrumping, winners (R24–R27)."""

from __future__ import annotations

import pytest

from bohmisch_watten import (
    Card,
    Fold,
    GameState,
    IllegalActionError,
    Phase,
    PlayCard,
    Rules,
    Suit,
)
from bohmisch_watten.tricks import winning_play

from helpers import cards, dealt_state, keep_all, play_cards


def legal(state: GameState) -> set[str]:
    return {str(a.card) for a in state.legal_actions() if isinstance(a, PlayCard)}


def play_state(n: int, dealt: dict[int, str], trump: str, rules: Rules | None = None) -> GameState:
    return keep_all(dealt_state(n, dealt, trump, rules=rules))


# Two players, dealer 0, forehand 1 leads; Leaves are trumps (trump card G8).
TWO = {1: "SU E8 E9 E10 H7", 0: "SA S10 S9 GA H8"}


@pytest.mark.rule("R24")
def test_forehand_leads_anything() -> None:
    state = play_state(2, TWO, "G8")
    assert state.phase is Phase.PLAY
    assert state.current_player == 1
    assert legal(state) == {"SU", "E8", "E9", "E10", "H7"}


@pytest.mark.rule("R25.1")
def test_must_follow_and_head() -> None:
    state = play_cards(play_state(2, TWO, "G8"), "SU")
    assert legal(state) == {"SA"}  # SA heads SU; S10 and S9 would not
    with pytest.raises(IllegalActionError, match="R25.1: must head the trick with SA"):
        state.apply(PlayCard(Card.parse("S9")))
    with pytest.raises(IllegalActionError, match="R25.1: must follow Bells with S9, S10 or SA"):
        state.apply(PlayCard(Card.parse("GA")))
    with pytest.raises(IllegalActionError, match="R24: seat 0 does not hold EA"):
        state.apply(PlayCard(Card.parse("EA")))


@pytest.mark.rule("R26")
def test_heading_not_compulsory_variant() -> None:
    state = play_cards(play_state(2, TWO, "G8", Rules(must_head=False)), "SU")
    assert legal(state) == {"SA", "S10", "S9"}  # follow suit still compulsory
    with pytest.raises(IllegalActionError, match="R25.1: must follow Bells"):
        state.apply(PlayCard(Card.parse("GA")))


@pytest.mark.rule("R25.1")
def test_any_card_when_following_cannot_head() -> None:
    state = play_cards(play_state(2, {1: "SA E8 E9 E10 H7", 0: "SK S10 S9 GA H8"}, "G8"), "SA")
    assert legal(state) == {"SK", "S10", "S9"}


# Three players, dealer 0: forehand 1, then 2, then the dealer 0.  Leaves are trumps.
THREE = {
    1: "EA E9 SA SK SO",
    2: "G9 GA H9 H10 HA",
    0: "GK G7 E8 S10 HO",
}


@pytest.mark.rule("R25.2")
def test_void_must_trump_and_overtrump() -> None:
    state = play_cards(play_state(3, THREE, "G8"), "EA")
    assert legal(state) == {"G9", "GA"}  # void in Acorns: must trump
    with pytest.raises(IllegalActionError, match="R25.2: void in Acorns, must trump with G9 or GA"):
        state.apply(PlayCard(Card.parse("H9")))
    state = play_cards(state, "G9")
    # Seat 0 holds E8: must follow Acorns; E8 cannot beat a trumped trick, fine.
    assert legal(state) == {"E8"}


@pytest.mark.rule("R25.2")
def test_overtrump_when_possible_else_still_trump() -> None:
    dealt = {1: "EA E9 SA SK SO", 2: "G9 GA H9 H10 HA", 0: "GK G7 S8 S10 HO"}
    state = play_cards(play_state(3, dealt, "G8"), "EA G9")
    assert legal(state) == {"GK"}  # GK overtrumps G9, G7 would not
    with pytest.raises(IllegalActionError, match="R25.2: must overtrump with GK"):
        state.apply(PlayCard(Card.parse("G7")))
    state = play_cards(play_state(3, dealt, "G8"), "EA GA")
    assert legal(state) == {"GK", "G7"}  # cannot overtrump GA: must still trump
    relaxed = play_cards(play_state(3, dealt, "G8", Rules(must_head=False)), "EA G9")
    assert legal(relaxed) == {"GK", "G7"}


@pytest.mark.rule("R25.1")
def test_any_suit_card_once_the_plain_lead_is_trumped() -> None:
    dealt = {1: "E9 EU SA SK SO", 2: "G9 GA H9 H10 HA", 0: "EA E8 S8 S10 HO"}
    state = play_cards(play_state(3, dealt, "G8"), "E9 G9")
    assert legal(state) == {"EA", "E8"}


@pytest.mark.rule("R25.3")
def test_trump_lead_must_overtrump() -> None:
    dealt = {1: "GU E9 SA SK SO", 2: "G9 GA H9 H10 S7", 0: "GK G7 E8 S10 HO"}
    state = play_cards(play_state(3, dealt, "G8"), "GU")
    assert legal(state) == {"GA", "S7"}  # Belli is a trump and beats GU too (R8)
    with pytest.raises(IllegalActionError, match="R25.3: must overtrump with GA or S7"):
        state.apply(PlayCard(Card.parse("G9")))
    with pytest.raises(
        IllegalActionError, match="R25.3: must play a trump on a trump lead with G9, GA or S7"
    ):
        state.apply(PlayCard(Card.parse("H9")))


@pytest.mark.rule("R25.4")
def test_neither_suit_nor_trump_any_card() -> None:
    dealt = {1: "EA E9 SA SK SO", 2: "H8 H9 H10 HA S9", 0: "GK G7 E8 S10 HO"}
    state = play_cards(play_state(3, dealt, "G8"), "EA")
    assert legal(state) == {"H8", "H9", "H10", "HA", "S9"}


@pytest.mark.rule("R8", "R25")
def test_critical_does_not_follow_its_printed_suit() -> None:
    # Hearts led, Leaves trumps: Maxi (HK) is no Heart, so the holder must follow with H9.
    dealt = {1: "HA E9 SA SK SO", 2: "HK H9 E10 EU EO", 0: "GK G7 E8 S10 HO"}
    state = play_cards(play_state(3, dealt, "G8"), "HA")
    assert legal(state) == {"H9"}
    # Holding Maxi but no other Heart, he is void in Hearts and must trump: Maxi.
    dealt = {1: "HA E9 SA SK SO", 2: "HK E7 E10 EU EO", 0: "GK G7 E8 S10 S9"}
    state = play_cards(play_state(3, dealt, "G8"), "HA")
    assert legal(state) == {"HK", "E7"}
    state = play_cards(state, "E7")  # Spitz wins so far; the dealer must overtrump: none
    assert legal(state) == {"GK", "G7"}  # he must still trump (R25.2)


@pytest.mark.rule("R8", "R10")
def test_lead_of_a_critical_is_a_trump_lead() -> None:
    dealt = {1: "S7 E9 SA SK SO", 2: "SU S9 E10 GA EO", 0: "GK G7 E8 S10 HO"}
    state = play_cards(play_state(3, dealt, "G8"), "S7")
    assert legal(state) == {"GA"}  # Belli led: a trump lead, not a Bells lead


@pytest.mark.rule("R7", "R9", "R27")
def test_trick_winners() -> None:
    maxi, belli, spitz = (Card.parse(c) for c in ("HK", "S7", "E7"))
    ga, gk, g7, ea, e8, sa = (Card.parse(c) for c in ("GA", "GK", "G7", "EA", "E8", "SA"))
    leaves = Suit.LEAVES

    def winner(*cards: Card, trump: Suit = leaves) -> int:
        return winning_play(list(enumerate(cards)), trump)[0]

    assert winner(spitz, belli, maxi) == 2  # R7
    assert winner(ga, spitz, g7) == 1  # Spitz > trump A
    assert winner(g7, gk, ga) == 2  # R9
    assert winner(e8, ea, sa) == 1  # suit led, SA off-suit
    assert winner(ea, g7) == 1  # the lowest trump beats
    assert winner(belli, sa, trump=Suit.BELLS) == 0  # Belli is a trump, above SA


@pytest.mark.rule("R9")
@pytest.mark.parametrize(("trump", "count"), [("G8", 11), ("E8", 10), ("H8", 10), ("S8", 10)])
def test_number_of_trumps(trump: str, count: int) -> None:
    from bohmisch_watten.tricks import FULL_DECK, TRUMP_MASK

    assert (TRUMP_MASK[Card.parse(trump).suit] & FULL_DECK).bit_count() == count
    # the 36-card pack adds the Six of the trump suit, the lowest trump (R6, R9)
    assert TRUMP_MASK[Card.parse(trump).suit].bit_count() == count + 1


@pytest.mark.rule("R24", "R27")
def test_winner_leads_and_trick_is_recorded() -> None:
    state = play_cards(play_state(3, THREE, "G8"), "EA G9 E8")
    assert state.trick == ()
    assert state.tricks_won == (0, 0, 1)
    assert state.current_player == 2
    (trick,) = state.tricks
    assert trick.winner == 2
    assert trick.leader == 1
    assert [str(c) for _, c in trick.plays] == ["EA", "G9", "E8"]


@pytest.mark.rule("R24")
def test_folded_forehand_the_next_active_player_leads_and_folded_are_skipped() -> None:
    from helpers import play_out_deal

    state = play_out_deal(keep_all(dealt_state(4, {}, "G8", dealer=3)))
    state = dealt_state(4, {}, "G9", state=state)  # deal 2, dealer 0, forehand 1
    state = state.apply(Fold())  # forehand folds
    state = keep_all(state)
    assert state.current_player == 2
    for _ in range(3):
        state = state.apply(state.legal_actions()[0])
    assert [s for s, _ in state.trick] == []  # trick of three complete
    assert sum(state.tricks_won) == 1
    assert 1 not in [s for s, _ in state.tricks[0].plays]


@pytest.mark.rule("R24")
def test_five_tricks_then_scoring() -> None:
    state = play_state(2, TWO, "G8")
    for _ in range(10):
        assert state.phase is Phase.PLAY
        state = state.apply(state.legal_actions()[0])
    assert state.phase is Phase.DEAL
    assert state.last_deal is not None
    assert sum(state.last_deal.tricks_won) == 5
    assert len(state.last_deal.tricks) == 5
    assert state.hands == ((), ())


def test_cards_list_helper() -> None:
    assert [str(c) for c in cards("HK G10")] == ["HK", "G10"]
