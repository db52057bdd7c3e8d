"""Play or fold, the exchange with the stock and the dealer's trump card (R18–R23)."""

from __future__ import annotations

import pytest

from bohmisch_watten import (
    Card,
    Exchange,
    Fold,
    GameState,
    IllegalActionError,
    Phase,
    Rules,
    new_game,
)

from helpers import cards, dealt_state, keep_all, play_out_deal


def ex(codes: str, trump: bool = False) -> Exchange:
    return Exchange(frozenset(cards(codes)), take_trump_card=trump)


HANDS = {
    1: "EA EK EO EU E10",
    2: "GA GK GO GU G10",
    3: "HA H10 HO HU H9",
    0: "SA SK SO SU S10",
}


def second_deal(rules: Rules | None = None, trump: str = "G9", n: int = 4) -> GameState:
    """Deal 2 of a game (folding is allowed from the second deal on, R21.1)."""
    state = play_out_deal(keep_all(dealt_state(n, {}, "G8", rules=rules, dealer=n - 1)))
    assert state.deal_number == 2
    assert state.dealer == 0
    return dealt_state(n, {}, trump, state=state)


@pytest.mark.rule("R18", "R20", "R23")
def test_exchange_draws_from_the_top_of_the_stock_in_turn() -> None:
    state = dealt_state(4, HANDS, "E9", stock="G9 G8 G7 H8 H7 S9")
    assert state.current_player == 1  # forehand first
    state = state.apply(ex("EA EK EO"))
    assert state.hands[1] == tuple(sorted(cards("EU E10 G9 G8 G7")))
    assert state.discards[1] == tuple(sorted(cards("EA EK EO")))
    assert state.exchanged == (None, 3, None, None)
    assert state.current_player == 2
    state = state.apply(ex(""))
    state = state.apply(ex("H10 HA"))
    assert state.hands[3] == tuple(sorted(cards("HO HU H9 H8 H7")))
    assert state.current_player == 0  # the dealer decides last
    state = state.apply(ex("S10"))
    assert state.phase is Phase.PLAY
    assert state.exchanged == (1, 3, 0, 2)  # R23: public counts
    assert state.current_player == 1  # R24: forehand leads
    # R20: discards are out of play for the deal and never redrawn.
    assert not set(state.stock) & {c for d in state.discards for c in d}


@pytest.mark.rule("R18")
def test_at_most_three_cards() -> None:
    state = dealt_state(4, HANDS, "E9")
    with pytest.raises(IllegalActionError, match="R18: a player may exchange at most 3"):
        state.apply(ex("EA EK EO EU"))
    sizes = {len(a.discard) for a in state.legal_actions() if isinstance(a, Exchange)}
    assert sizes == {0, 1, 2, 3}
    assert len(state.legal_actions()) == 1 + 5 + 10 + 10  # no fold in the first deal


@pytest.mark.rule("R18")
def test_discard_must_come_from_the_hand() -> None:
    state = dealt_state(4, HANDS, "E9")
    with pytest.raises(IllegalActionError, match="R18: seat 1 cannot discard GA"):
        state.apply(ex("GA"))


@pytest.mark.rule("R19")
def test_dealer_takes_the_trump_card() -> None:
    state = dealt_state(4, HANDS, "E9")
    for _ in range(3):
        state = state.apply(ex(""))
    assert state.current_player == 0
    top2 = state.stock[:2]
    state = state.apply(ex("SA SK SO", trump=True))
    assert state.trump_card_taken
    assert Card.parse("E9") in state.hands[0]
    assert set(top2) <= set(state.hands[0])
    assert len(state.hands[0]) == 5
    assert state.trump_card == Card.parse("E9")  # still the trump card of the deal
    assert state.trump_suit == Card.parse("E9").suit  # taking it changes nothing (R19)


@pytest.mark.rule("R19")
def test_dealer_stock_limit_two() -> None:
    state = keep_all_but_dealer(dealt_state(4, HANDS, "E9"))
    with pytest.raises(IllegalActionError, match="R19: the dealer may exchange at most 2"):
        state.apply(ex("SA SK SO"))
    with pytest.raises(IllegalActionError, match="R19: the dealer may exchange at most 2"):
        state.apply(ex("SA SK SO SU", trump=True))
    actions = state.legal_actions()
    plain = [a for a in actions if isinstance(a, Exchange) and not a.take_trump_card]
    with_trump = [a for a in actions if isinstance(a, Exchange) and a.take_trump_card]
    assert len(plain) == 1 + 5 + 10
    assert len(with_trump) == 5 + 10 + 10
    assert not any(isinstance(a, Fold) for a in actions)


@pytest.mark.rule("R19")
def test_dealer_stock_limit_three_variant() -> None:
    state = dealt_state(3, {}, "E9", rules=Rules(dealer_stock_limit=3))
    state = keep_all_but_dealer(state)
    actions = state.legal_actions()
    assert ex("", False) in actions
    plain = [a for a in actions if isinstance(a, Exchange) and not a.take_trump_card]
    with_trump = [a for a in actions if isinstance(a, Exchange) and a.take_trump_card]
    assert len(plain) == 1 + 5 + 10 + 10
    assert len(with_trump) == 5 + 10 + 10 + 5
    hand = state.hands[state.dealer]
    after = state.apply(Exchange(frozenset(hand[:4]), take_trump_card=True))
    assert after.trump_card_taken
    assert after.phase is Phase.PLAY


@pytest.mark.rule("R19")
def test_only_the_dealer_takes_the_trump_card() -> None:
    state = dealt_state(4, HANDS, "E9")
    with pytest.raises(IllegalActionError, match=r"R19: only the dealer \(seat 0\)"):
        state.apply(ex("EA", trump=True))
    state = keep_all_but_dealer(state)
    with pytest.raises(IllegalActionError, match="R19: taking the trump card needs one card"):
        state.apply(ex("", trump=True))


@pytest.mark.rule("R20")
def test_nobody_draws_more_than_the_stock_holds() -> None:
    # Four players, dealer limit 3: after 3 + 3 + 3 only 2 cards are left for the dealer.
    state = dealt_state(4, HANDS, "E9", rules=Rules(dealer_stock_limit=3))
    state = state.apply(ex("EA EK EO")).apply(ex("GA GK GO")).apply(ex("HA H10 HO"))
    assert len(state.stock) == 2
    with pytest.raises(IllegalActionError, match="R20: the stock holds only 2 cards"):
        state.apply(ex("SA SK SO"))
    with pytest.raises(IllegalActionError, match="R20: the stock holds only 2 cards"):
        state.apply(ex("SA SK SO SU", trump=True))
    assert max(len(a.discard) for a in state.legal_actions() if isinstance(a, Exchange)) == 3
    assert state.apply(ex("SA SK SO", trump=True)).stock == ()


def keep_all_but_dealer(state: GameState) -> GameState:
    while state.current_player != state.dealer:
        state = state.apply(ex(""))
    return state


@pytest.mark.rule("R21.1")
def test_r21_1_no_fold_in_the_first_deal() -> None:
    state = dealt_state(4, HANDS, "E9")
    with pytest.raises(IllegalActionError, match="R21.1: nobody may fold in the first deal"):
        state.apply(Fold())
    assert Fold() not in state.legal_actions()


@pytest.mark.rule("R17", "R21.2")
def test_r21_2_no_fold_with_hearts_trumps() -> None:
    state = second_deal(trump="H9")
    with pytest.raises(IllegalActionError, match="R21.2"):
        state.apply(Fold())


@pytest.mark.rule("R21.3")
def test_r21_3_no_fold_with_few_points() -> None:
    state = second_deal(Rules(min_fold_score=40))
    with pytest.raises(IllegalActionError, match=r"R21.3: seat 1 may not fold with 40 points"):
        state.apply(Fold())
    assert Fold() not in state.legal_actions()


@pytest.mark.rule("R21")
def test_fold_allowed_from_the_second_deal() -> None:
    state = second_deal()
    assert state.fold_forbidden_by() is None
    assert state.legal_actions()[0] == Fold()
    after = state.apply(Fold())
    assert after.folded == (False, True, False, False)
    assert after.exchanged[1] is None
    assert after.hands[1] == state.hands[1]  # set aside, kept
    assert after.current_player == 2


@pytest.mark.rule("R21.4")
def test_r21_4_no_fold_twice_in_a_row() -> None:
    state = second_deal().apply(ex("")).apply(Fold())  # seat 1 plays, seat 2 folds
    state = play_out_deal(keep_all(state))
    assert state.last_deal is not None
    assert state.last_deal.folded == (False, False, True, False)
    state = dealt_state(4, {}, "G9", state=state)
    assert state.deal_number == 3
    assert state.current_player == 2  # dealer 1, forehand 2
    with pytest.raises(IllegalActionError, match="R21.4: seat 2 folded in the previous deal"):
        state.apply(Fold())
    assert Fold() not in state.legal_actions()
    assert state.fold_forbidden_by(3) is None  # seat 3 did not fold last time


@pytest.mark.rule("R21.5")
def test_r21_5_dealer_must_play() -> None:
    state = keep_all_but_dealer(second_deal())
    with pytest.raises(IllegalActionError, match="R21.5: the dealer must play"):
        state.apply(Fold())


@pytest.mark.rule("R21.6", "R22")
def test_r21_6_last_non_dealer_may_not_fold_when_all_others_did() -> None:
    state = second_deal().apply(Fold()).apply(Fold())
    assert state.current_player == 3  # the cutter, last non-dealer
    with pytest.raises(IllegalActionError, match="R21.6: seat 3 is the last non-dealer"):
        state.apply(Fold())
    # With one other non-dealer still in, he may fold.
    state = second_deal().apply(Fold()).apply(ex(""))
    assert state.fold_forbidden_by() is None


@pytest.mark.rule("R21", "R22")
def test_two_players_never_fold() -> None:
    state = second_deal(n=2)
    assert state.fold_forbidden_by() is not None
    assert state.fold_forbidden_by().startswith("R21.6")  # type: ignore[union-attr]


@pytest.mark.rule("R18")
def test_fold_outside_the_exchange() -> None:
    state = new_game(4)
    with pytest.raises(IllegalActionError, match="R18: Fold is only possible in the exchange"):
        state.apply(Fold())
    assert state.fold_forbidden_by() == "R18: nobody is deciding whether to fold now"


def test_exchange_rejects_bad_arguments() -> None:
    with pytest.raises(TypeError, match="Card objects"):
        Exchange(frozenset({"SA"}))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="set of Card"):
        Exchange("SA")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="take_trump_card must be a bool, got int"):
        Exchange(frozenset(), take_trump_card=1)  # type: ignore[arg-type]
    assert str(ex("S9 G8", trump=True)) == "exchange G8 S9 +trump"
