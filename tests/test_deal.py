"""Seats, the shuffle, the cutting ritual, dealing and trumps (R1–R5, R11–R17)."""

from __future__ import annotations

import random

import pytest

from bohmisch_watten import (
    DECK,
    MAXI,
    Card,
    Exchange,
    IllegalActionError,
    LeaveCritical,
    Phase,
    PlayCard,
    Rules,
    Shuffle,
    Suit,
    TakeCritical,
    new_game,
    next_game,
)

from helpers import cards, codes, dealt_state, keep_all, play_out_deal, stack_pack


@pytest.mark.rule("R1")
@pytest.mark.parametrize("bad", [0, 1, 5])
def test_new_game_rejects_player_counts(bad: int) -> None:
    with pytest.raises(ValueError, match="num_players"):
        new_game(bad)


@pytest.mark.rule("R1")
@pytest.mark.parametrize("bad", [True, "4", 4.0, None])
def test_new_game_rejects_player_counts_of_another_type(bad: object) -> None:
    with pytest.raises(TypeError, match=r"num_players must be an int, got"):
        new_game(bad)  # type: ignore[arg-type]


@pytest.mark.rule("R3")
@pytest.mark.parametrize(("n", "dealer"), [(4, 4), (3, -1), (2, 2)])
def test_new_game_rejects_dealer_out_of_range(n: int, dealer: int) -> None:
    with pytest.raises(ValueError, match="dealer"):
        new_game(n, dealer=dealer)


@pytest.mark.rule("R3")
@pytest.mark.parametrize("dealer", [True, "0", None])
def test_new_game_rejects_a_dealer_of_another_type(dealer: object) -> None:
    with pytest.raises(TypeError, match=r"dealer must be an int, got"):
        new_game(4, dealer=dealer)  # type: ignore[arg-type]


def test_new_game_rejects_non_rules() -> None:
    with pytest.raises(TypeError, match=r"rules must be a Rules, got dict"):
        new_game(4, rules={"schleck": "none"})  # type: ignore[arg-type]


@pytest.mark.rule("R1", "R28")
@pytest.mark.parametrize("n", [2, 3, 4])
def test_new_game_is_a_chance_node_with_start_scores(n: int) -> None:
    state = new_game(n, dealer=n - 1, rules=Rules(start_score=15))
    assert state.num_players == n
    assert state.phase is Phase.DEAL
    assert state.is_chance_node
    assert state.current_player is None
    assert state.legal_actions() == ()
    assert state.scores == (15,) * n
    assert state.deal_number == 1
    assert state.dealer == n - 1
    assert state.history == ()


@pytest.mark.rule("R2")
@pytest.mark.parametrize(
    ("n", "dealer", "forehand", "cutter"),
    [(4, 0, 1, 3), (4, 3, 0, 2), (3, 1, 2, 0), (2, 0, 1, 1), (2, 1, 0, 0)],
)
def test_forehand_and_cutter(n: int, dealer: int, forehand: int, cutter: int) -> None:
    state = new_game(n, dealer=dealer)
    assert state.forehand == forehand
    assert state.cutter == cutter


@pytest.mark.rule("R11")
def test_sample_chance_is_seeded_and_uniform_in_shape() -> None:
    state = new_game(4)
    a = state.sample_chance(random.Random(5))
    b = state.sample_chance(random.Random(5))
    c = state.sample_chance(random.Random(6))
    assert a == b
    assert a != c
    assert sorted(a.pack) == list(DECK)
    assert state.is_legal(a)


@pytest.mark.rule("R11")
@pytest.mark.parametrize(
    ("pack", "message"),
    [
        (DECK[:31], "31 cards"),
        ((*DECK[:31], DECK[0]), "missing SA"),
        ((*DECK[:31], "SA"), "Card objects only"),
    ],
)
def test_shuffle_must_be_a_permutation(pack: tuple[object, ...], message: str) -> None:
    state = new_game(4)
    with pytest.raises(IllegalActionError, match=message):
        state.apply(Shuffle(pack))  # type: ignore[arg-type]
    assert not state.is_legal(Shuffle(pack))  # type: ignore[arg-type]


def test_shuffle_rejects_non_sequences() -> None:
    with pytest.raises(TypeError):
        Shuffle("HK S7")  # type: ignore[arg-type]


@pytest.mark.rule("R11")
def test_sample_chance_outside_chance_node_is_an_error() -> None:
    state = dealt_state(4, {}, "G9")
    with pytest.raises(IllegalActionError, match="R11"):
        state.sample_chance(random.Random(1))
    with pytest.raises(IllegalActionError, match="R11"):
        state.apply(Shuffle(DECK))


@pytest.mark.rule("R15", "R16")
def test_deal_packets_and_trump_card() -> None:
    # Dealer 0: forehand 1 gets the top 3, then 2 and 3 and 0; the 13th card is the trump.
    state = new_game(4).apply(Shuffle(DECK[::-1]))  # top is SA, bottom E7 (Spitz!)
    assert state.phase is Phase.CUT  # Spitz is the cut card: the cutter may take it
    state = state.apply(LeaveCritical())
    pack = DECK[::-1]
    assert state.hands[1] == tuple(sorted(pack[0:3] + pack[13:15]))
    assert state.hands[2] == tuple(sorted(pack[3:6] + pack[15:17]))
    assert state.hands[3] == tuple(sorted(pack[6:9] + pack[17:19]))
    assert state.hands[0] == tuple(sorted(pack[9:12] + pack[19:21]))
    assert state.trump_card is pack[12]
    assert state.trump_suit is pack[12].suit
    assert state.stock == pack[21:]
    assert len(state.stock) == 11


@pytest.mark.rule("R15")
@pytest.mark.parametrize(("n", "stock"), [(2, 21), (3, 16), (4, 11)])
def test_stock_sizes(n: int, stock: int) -> None:
    state = dealt_state(n, {}, "G9")
    assert len(state.stock) == stock
    assert all(len(h) == 5 for h in state.hands)
    assert state.current_player == state.forehand


@pytest.mark.rule("R16")
def test_critical_as_trump_card_makes_its_printed_suit_trumps() -> None:
    state = dealt_state(4, {}, "HK")
    assert state.trump_card is MAXI
    assert state.trump_suit is Suit.HEARTS


@pytest.mark.rule("R12", "R13", "R15")
def test_alternate_ritual_cutter_dealer_cutter() -> None:
    # Dealer 0, cutter 3.  Bottom: C1 = HK (Maxi), C2 = S7 (Belli), C3 = E7 (Spitz).
    pack = stack_pack(4, 0, {}, "G9", bottom="HK S7 E7", taken={3: 2, 0: 1})
    state = new_game(4).apply(pack)
    assert state.phase is Phase.CUT
    assert state.current_player == 3
    assert state.legal_actions() == (TakeCritical(), LeaveCritical())
    state = state.apply(TakeCritical())
    assert state.current_player == 0  # the dealer looks at C2
    assert state.hands[3] == (MAXI,)
    state = state.apply(TakeCritical())
    assert state.current_player == 3
    state = state.apply(TakeCritical())
    assert state.phase is Phase.EXCHANGE
    assert [(s, str(c), t) for s, c, t, _ in state.cut_looks] == [
        (3, "HK", True),
        (0, "S7", True),
        (3, "E7", True),
    ]
    assert Card.parse("HK") in state.hands[3]
    assert Card.parse("E7") in state.hands[3]
    assert Card.parse("S7") in state.hands[0]
    assert all(len(h) == 5 for h in state.hands)  # R15: packets of 3 − k, then 2
    assert len(state.stock) == 11


@pytest.mark.rule("R12", "R13")
def test_ritual_ends_when_the_cut_card_is_no_critical() -> None:
    pack = stack_pack(4, 0, {}, "G9", bottom="GA HK")
    state = new_game(4).apply(pack)
    assert state.phase is Phase.EXCHANGE  # passed through: nobody had a choice
    assert [(s, str(c), t) for s, c, t, _ in state.cut_looks] == [(3, "GA", False)]
    assert state.stock[-1] == Card.parse("GA")  # stays at the bottom (R13)


@pytest.mark.rule("R12")
def test_ritual_ends_when_c2_is_no_critical_and_dealer_saw_it() -> None:
    pack = stack_pack(4, 0, {}, "G9", bottom="HK GA S7", taken={3: 1})
    state = new_game(4).apply(pack).apply(TakeCritical())
    assert state.phase is Phase.EXCHANGE
    assert [(s, str(c), t) for s, c, t, _ in state.cut_looks] == [(3, "HK", True), (0, "GA", False)]
    assert state.stock[-1] == Card.parse("GA")


@pytest.mark.rule("R12", "R13")
def test_leaving_a_critical_ends_the_ritual_and_it_stays_at_the_bottom() -> None:
    pack = stack_pack(4, 0, {}, "G9", bottom="S7 HK")
    state = new_game(4).apply(pack).apply(LeaveCritical())
    assert state.phase is Phase.EXCHANGE
    assert state.stock[-1] == Card.parse("S7")
    assert state.stock[-2] == Card.parse("HK")
    assert [(s, str(c), t) for s, c, t, _ in state.cut_looks] == [(3, "S7", False)]


@pytest.mark.rule("R14")
def test_cutter_only_ritual() -> None:
    pack = stack_pack(4, 0, {}, "G9", bottom="HK S7 E7", taken={3: 3})
    state = new_game(4, rules=Rules(schleck="cutter_only")).apply(pack)
    for _ in range(3):
        assert state.current_player == 3
        state = state.apply(TakeCritical())
    assert state.phase is Phase.EXCHANGE
    assert sorted(cards("HK S7 E7")) == sorted(c for c in state.hands[3] if c.is_critical)
    assert len(state.hands[3]) == 5  # first packet of 0 cards, then 2 (R15)


@pytest.mark.rule("R14")
def test_no_ritual_with_schleck_none() -> None:
    pack = stack_pack(4, 0, {}, "G9", bottom="HK")
    state = new_game(4, rules=Rules(schleck="none")).apply(pack)
    assert state.phase is Phase.EXCHANGE
    assert state.cut_looks == ()
    assert state.stock[-1] is MAXI


@pytest.mark.rule("R2", "R12")
def test_two_player_ritual_alternates_between_non_dealer_and_dealer() -> None:
    pack = stack_pack(2, 1, {}, "G9", bottom="HK S7", taken={0: 1, 1: 1})
    state = new_game(2, dealer=1).apply(pack)
    assert state.current_player == 0
    state = state.apply(TakeCritical())
    assert state.current_player == 1
    state = state.apply(TakeCritical())
    assert state.phase is Phase.EXCHANGE
    assert MAXI in state.hands[0]


@pytest.mark.rule("R12")
def test_cut_actions_outside_the_ritual_are_illegal() -> None:
    state = dealt_state(4, {}, "G9")
    with pytest.raises(IllegalActionError, match="R12: TakeCritical is only possible"):
        state.apply(TakeCritical())


@pytest.mark.rule("R4")
def test_the_deal_passes_clockwise() -> None:
    state = play_out_deal(keep_all(dealt_state(4, {}, "G9", dealer=3)))
    assert state.phase is Phase.DEAL
    assert state.dealer == 0
    assert state.deal_number == 2
    state = play_out_deal(keep_all(dealt_state(4, {}, "G9", state=state)))
    assert state.dealer == 1


@pytest.mark.rule("R5")
def test_next_game_winner_deals() -> None:
    rng = random.Random(3)
    state = new_game(3, rules=Rules(start_score=2))
    while not state.is_terminal:
        state = state.apply(
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
    fresh = next_game(state)
    low = min(state.scores[w] for w in state.winners)
    assert fresh.dealer in state.winners
    assert state.scores[fresh.dealer] == low
    assert fresh.rules == state.rules
    assert fresh.phase is Phase.DEAL
    assert fresh.scores == (2, 2, 2)


@pytest.mark.rule("R5", "R34")
def test_next_game_tie_goes_clockwise_from_the_dealers_left() -> None:
    # Find a seeded game where several winners share the lowest score.
    for seed in range(400):
        rng = random.Random(seed)
        state = new_game(3, rules=Rules(start_score=1), dealer=seed % 3)
        while not state.is_terminal:
            state = state.apply(
                state.sample_chance(rng)
                if state.is_chance_node
                else rng.choice(state.legal_actions())
            )
        low = min(state.scores)
        tied = [s for s in state.winners if state.scores[s] == low]
        if len(tied) >= 2:
            break
    else:
        pytest.fail("no game with tied winners found")
    fresh = next_game(state)
    seat = (state.dealer + 1) % 3
    while seat not in tied:
        seat = (seat + 1) % 3
    assert fresh.dealer == seat


def test_next_game_needs_a_finished_game() -> None:
    with pytest.raises(ValueError, match="finished game"):
        next_game(new_game(4))


@pytest.mark.rule("R17", "R21")
def test_hearts_trumps_forbid_folding_even_later() -> None:
    state = play_out_deal(keep_all(dealt_state(4, {}, "G9")))
    state = dealt_state(4, {}, "H9", state=state)
    assert state.deal_number == 2
    assert state.fold_forbidden_by() == "R21.2: nobody may fold when Hearts are trumps"
    assert all(type(a) is Exchange for a in state.legal_actions())


def test_repr_mentions_phase_and_scores() -> None:
    state = dealt_state(3, {}, "G9")
    assert "EXCHANGE" in repr(state)
    assert "seat 1" in repr(state)
    assert codes(state.hands[0])
    with pytest.raises(IllegalActionError, match="not an action"):
        state.apply("play HK")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="R24: PlayCard is only possible"):
        state.apply(PlayCard(state.hands[1][0]))
