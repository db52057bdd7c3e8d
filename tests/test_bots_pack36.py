"""Every bot at the 36-card pack's tables of five to seven seats (R1, R6).

The searching bots sample the hidden cards, solve worlds and weigh them by an opponent
model: each of those steps has tables of its own, checked here for the Sixes and for
the short stock of five to seven players (R20).
"""

from __future__ import annotations

import math
import random
import sys

import pytest

from bohmisch_watten import Exchange, GameState, Phase, Position, Rules, new_game
from bohmisch_watten.bots import (
    Bot,
    ExpertBot,
    HeuristicBot,
    SearchBot,
    expert,
    inference,
    make_bot,
    play_out,
)
from bohmisch_watten.bots.policy import choose_play
from bohmisch_watten.cards import CARDS, Suit, bits
from bohmisch_watten.engine import Engine
from bohmisch_watten.tricks import legal_play_mask

PACK36 = Rules(pack=36)
PYTHON = sys.executable

FAST_EXPERT = ExpertBot(samples=3, exchange_samples=2, proposals=2, max_candidates=2)
FAST_SEARCH = SearchBot(rollouts=6, max_candidates=2)


def _bot(spec: str) -> Bot:
    """The bot of ``spec``, the searching ones on a small budget (the suite's time)."""
    return {"search": FAST_SEARCH, "expert": FAST_EXPERT}.get(spec) or make_bot(spec)


def _heuristic_until(
    players: int, seed: int, stop: object, rules: Rules = PACK36, dealer: int = 0
) -> GameState:
    """A heuristic game of ``players`` until ``stop(state)`` holds at a decision."""
    rng = random.Random(seed)
    bot = HeuristicBot()
    state = new_game(players, rules=rules, dealer=dealer)
    while True:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
            continue
        if stop(state):  # type: ignore[operator]
            return state
        seat = state.current_player
        assert seat is not None
        state = state.apply(bot.choose(state.view(seat), rng))


# ------------------------------------------------------------------ whole games


@pytest.mark.rule("R1", "R6")
@pytest.mark.parametrize("players", [5, 6, 7])
@pytest.mark.parametrize("spec", ["random", "heuristic", "search", "expert"])
def test_every_bot_plays_the_36_card_pack_at_every_seat(spec: str, players: int) -> None:
    """Two deals with the bot at every seat: each decides, every action is legal."""
    bot = _bot(spec)
    state = new_game(players, rules=PACK36, dealer=players - 1)
    end = play_out(state, [bot] * players, random.Random(players), max_deals=2)
    assert end.is_terminal or end.deal_number == 3
    deciders = {seat for seat, _ in end.history if seat is not None}
    assert deciders == set(range(players))


@pytest.mark.rule("R31", "R34")
def test_seven_seat_games_play_to_their_end_with_the_expert() -> None:
    """The expert at one seat, the heuristic at six, to the end of the game, from scores
    near the goal (from the start the heuristic's games of seven seldom end: every deal at
    least two active seats take no trick and score +5, R29)."""
    bots: list[Bot] = [FAST_EXPERT, *[HeuristicBot()] * 6]
    scores = (2, 3, 4, 5, 6, 7, 8)
    for seed in range(4):
        start = GameState.from_position(Position(7, PACK36, seed, 2, scores, (False,) * 7))
        end = play_out(start, bots, random.Random(seed), max_deals=30)
        assert end.is_terminal
        assert end.winners


@pytest.mark.rule("R1", "R31", "R33")
@pytest.mark.parametrize("spec", ["random", "heuristic", "search", "expert"])
def test_a_fresh_seven_seat_game_plays_to_its_end_with_every_bot(spec: str) -> None:
    """``new_game(7, rules=Rules(pack=36, plus_fifty=True))`` from its first deal to its
    end, the bot at seat 0 and the heuristic at the others (every seat for the cheap
    bots): the variant the rule book advises for six and seven players (RULES.md §9)."""
    rules = Rules(pack=36, plus_fifty=True)
    bot = _bot(spec)
    cheap = spec in ("random", "heuristic")
    bots: list[Bot] = [bot] * 7 if cheap else [bot, *[HeuristicBot()] * 6]
    end = play_out(new_game(7, rules=rules), bots, random.Random(7), max_deals=60)
    assert end.is_terminal
    assert end.winners
    assert any(seat == 0 for seat, _ in end.history)


def test_a_served_engine_plays_a_seven_seat_game_through_the_protocol() -> None:
    """The package's own engine (the heuristic, served) at seat 3 plays as the heuristic
    does in-process: the 36-card views, rules and actions cross the protocol whole."""
    spec = f"engine:{PYTHON} -m bohmisch_watten engine --bot heuristic"
    engine = make_bot(spec)
    assert isinstance(engine, Engine)
    with engine.with_timeout(20_000) as served:
        served.hello_timeout_ms = 60_000
        bots: list[Bot] = [HeuristicBot()] * 7
        bots[3] = served
        through = play_out(new_game(7, rules=PACK36), bots, random.Random(8), max_deals=2)
    alone = play_out(new_game(7, rules=PACK36), [HeuristicBot()] * 7, random.Random(8), max_deals=2)
    assert through.history == alone.history
    assert through.deal_number == 3
    assert any(seat == 3 for seat, _ in through.history)


# ------------------------------------------------------------------ the expert's budget


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_32_card_tables_keep_their_budgets(players: int) -> None:
    """The budgets the strength of benchmarks/RESULTS-expert.md was measured with."""
    assert (
        expert.TABLE_BUDGETS[players]
        == {
            2: (40, 3, 40, None),
            3: (120, 6, 40, None),
            4: (40, 3, 40, None),
        }[players]
    )


@pytest.mark.parametrize("players", [5, 6, 7])
def test_larger_tables_have_a_budget_of_their_own(players: int) -> None:
    table = expert.TABLE_BUDGETS[players]
    assert table.max_nodes is not None  # the solver is bounded: a rare deal is hard
    assert ExpertBot().budget(players) == table
    given = ExpertBot(samples=5, proposals=1, exchange_samples=7, max_nodes=9)
    assert given.budget(players) == (5, 1, 7, 9)
    assert ExpertBot(exchange_samples=3).budget(players).exchange_samples == 3


@pytest.mark.parametrize("phase", [Phase.EXCHANGE, Phase.PLAY])
def test_the_expert_draws_the_tables_worlds_at_seven_seats(
    phase: Phase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Left None, the worlds of a decision are the seven-seat table's."""
    state = _heuristic_until(
        7,
        1,
        lambda s: s.phase is phase and len(s.legal_actions()) > 1,
    )
    drawn: list[int] = []
    real = expert.draw_worlds

    def spy(view, rng, count, tries, *rest):  # type: ignore[no-untyped-def]
        drawn.append(count)
        return real(view, rng, count, tries, *rest)

    monkeypatch.setattr(expert, "draw_worlds", spy)
    seat = state.current_player
    assert seat is not None
    action = ExpertBot().choose(state.view(seat), random.Random(1))
    assert action in state.legal_actions()
    table = expert.TABLE_BUDGETS[7]
    assert drawn == [table.samples if phase is Phase.PLAY else table.exchange_samples]


def test_a_world_too_hard_for_the_solver_is_valued_by_the_best_reply() -> None:
    """``max_nodes``: past it the solver gives up and the best reply alone values the
    world, as with ``rollout_weight=1``; within it nothing changes."""
    state = _heuristic_until(7, 2, lambda s: s.phase is Phase.PLAY and len(s.legal_actions()) > 1)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    cards = list(view.legal_actions())
    capped = ExpertBot(max_nodes=1).world_values(view, state, cards)
    assert capped == ExpertBot(rollout_weight=1.0).world_values(view, state, cards)
    free = ExpertBot(max_nodes=10**9).world_values(view, state, cards)
    assert ExpertBot().world_values(view, state, cards) in (free, capped)


def test_the_solver_leaf_falls_back_to_the_best_reply_past_its_limit() -> None:
    state = _heuristic_until(
        5, 3, lambda s: s.phase is Phase.EXCHANGE and len(s.legal_actions()) > 1
    )
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    actions = list(view.legal_actions())[:3]
    capped = ExpertBot(leaf="solver", max_nodes=1).world_values(view, state, actions)
    assert capped == ExpertBot(leaf="respond").world_values(view, state, actions)


@pytest.mark.rule("R6", "R16")
def test_the_expert_plays_a_deal_whose_trump_card_is_a_six() -> None:
    """The trump suit of a Six is its printed suit: its id is no ``suit * 8 + rank``."""
    for seed in range(200):
        state = _heuristic_until(
            6,
            seed,
            lambda s: s.phase is not Phase.CUT and s.deal_number == 1,
        )
        assert state.trump_card is not None
        if state.trump_card.index >= 32:
            break
    else:  # pragma: no cover - a Six turns up in about one deal of nine
        pytest.fail("no Six turned up")
    rng = random.Random(seed)
    end = play_out(state, [FAST_EXPERT] * 6, rng, until="deal")
    assert end.deal_number == 2 or end.is_terminal


# ------------------------------------------------------------------ the opponent model


def test_heuristic_play_is_the_policy_on_bitmasks_with_the_sixes() -> None:
    rng = random.Random(2)
    for _ in range(300):
        trump = rng.randrange(4)
        cards = rng.sample(range(36), 12)
        hand = sum(1 << c for c in cards[:5])
        trick = tuple((seat, c) for seat, c in enumerate(cards[5 : 5 + rng.randrange(7)]))
        legal = legal_play_mask(hand, trick, trump, True) if trick else hand
        expected = choose_play(
            [CARDS[c] for c in bits(legal)], [(s, CARDS[c]) for s, c in trick], Suit(trump)
        )
        assert inference.heuristic_play(legal, trick, trump) == expected.index


@pytest.mark.parametrize("players", [2, 5, 6, 7])
def test_drawn_cards_match_the_views_with_36_cards(players: int) -> None:
    for seed in range(4):
        state = _heuristic_until(players, seed, lambda s: s.phase is Phase.PLAY)
        seat = state.current_player
        assert seat is not None
        world = state.view(seat).sample_state(random.Random(seed))
        drawn = inference._drawn(world)
        for q in range(players):
            assert drawn[q] == sum(1 << c for c in world.view(q).draw_indices)


@pytest.mark.rule("R18", "R20")
@pytest.mark.parametrize(("players", "seed"), [(5, 0), (5, 1), (6, 2), (7, 3)])
def test_the_exchange_model_sums_to_one_over_the_legal_exchanges(players: int, seed: int) -> None:
    """Each seat's exchange probabilities add up to 1 over what R18–R20 allowed it, the
    stock's size then included: with five to seven players late seats draw fewer, or none
    (the seven-seat stock is empty)."""
    rng = random.Random(seed)
    state = new_game(players, rules=PACK36, dealer=seed % players)
    checked = 0
    while state.phase is not Phase.PLAY:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
            continue
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        if state.phase is Phase.EXCHANGE:
            hand = state.hand_masks[seat]
            after = state.apply(rng.choice(legal))
            view = after.view((seat + 1) % players)  # another seat's view: public facts
            if seat != state.dealer:  # the dealer's take is read from the view (R19)
                total = 0.0
                for action in legal:
                    assert isinstance(action, Exchange)  # deal 1: nobody may fold (R21.1)
                    log_p = inference._exchange_log_p(
                        view, seat, hand, action.discard_mask, inference.DEFAULT_MODEL
                    )
                    total += math.exp(log_p)
                assert total == pytest.approx(1.0)
                checked += 1
            state = after
            continue
        state = state.apply(rng.choice(legal))
    assert checked == players - 1


@pytest.mark.rule("R20")
def test_with_seven_seats_keeping_the_hand_proves_nothing() -> None:
    """The seven-seat stock is empty (R20): a seat that exchanged nothing had no choice,
    so no world is more likely for it; the dealer's trump-card take (R19) still counts."""
    state = _heuristic_until(7, 5, lambda s: s.phase is Phase.PLAY)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    for q in range(7):
        if q in (seat, view.dealer):
            continue
        hand = state.hand_masks[q]
        assert inference._exchange_log_p(view, q, hand, 0, inference.DEFAULT_MODEL) == 0.0
