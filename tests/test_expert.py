"""ExpertBot: legal, deterministic, blind to hidden cards, and its inference model."""

from __future__ import annotations

import math
import pickle
import random
import statistics
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bohmisch_watten import Fold, GameState, Phase, PlayCard, Rules, new_game
from bohmisch_watten.bots import (
    Bot,
    ExpertBot,
    HeuristicBot,
    RandomBot,
    expert,
    inference,
    make_bot,
    play_out,
)
from bohmisch_watten.bots._race import RaceValue
from bohmisch_watten.bots.expert import GAME_BONUS
from bohmisch_watten.bots.policy import choose_exchange, choose_play, rank_exchanges
from bohmisch_watten.cards import DECK, Suit, bits
from bohmisch_watten.position import Position
from bohmisch_watten.solver import solve
from bohmisch_watten.tricks import legal_play_mask as _legal_play_mask
from bohmisch_watten.views import PlayerView

from helpers import VARIANTS

FAST = ExpertBot(samples=4, exchange_samples=2, proposals=2, max_candidates=3)


def decision_state(
    seed: int, phase: Phase, players: int = 4, rules: Rules | None = None, *, fold: bool = False
) -> GameState:
    """The first state of a heuristic game where a seat must choose in ``phase``.

    Heuristic play (not random) so that the opponents' actions carry evidence; with
    ``fold``, the first where folding is among the choices (never in deal 1, R21.1).
    """
    rng = random.Random(seed)
    rules = rules or Rules()
    state = new_game(players, rules=rules, dealer=seed % players)
    bot = HeuristicBot()
    skip = rng.randrange(3)
    while True:
        if state.is_terminal:
            state = new_game(players, rules=rules)
        elif state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        elif (
            state.phase is phase
            and len(state.legal_actions()) > 1
            and (not fold or Fold() in state.legal_actions())
        ):
            if skip == 0:
                return state
            skip -= 1
            state = state.apply(rng.choice(state.legal_actions()))
        else:
            seat = state.current_player
            assert seat is not None
            state = state.apply(bot.choose(state.view(seat), rng))


def view_of(state: GameState):  # type: ignore[no-untyped-def]
    seat = state.current_player
    assert seat is not None
    return state.view(seat)


# ------------------------------------------------------------------ the protocol


def test_the_expert_is_a_picklable_frozen_bot() -> None:
    bot = ExpertBot()
    assert isinstance(bot, Bot)
    assert pickle.loads(pickle.dumps(bot)) == bot
    with pytest.raises(AttributeError):
        bot.samples = 3  # type: ignore[misc]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rules", VARIANTS[:5], ids=str)
def test_legal_games_under_variants(players: int, rules: Rules) -> None:
    bots: list[Bot] = [FAST, HeuristicBot(), RandomBot(), HeuristicBot()][:players]
    end = play_out(new_game(players, rules=rules), bots, random.Random(players), max_deals=2)
    assert end.is_terminal or end.deal_number == 3
    assert any(seat == 0 for seat, _ in end.history)  # the expert did decide


@pytest.mark.parametrize("rules", VARIANTS[5:], ids=str)
def test_legal_games_under_scoring_variants(rules: Rules) -> None:
    end = play_out(new_game(3, rules=rules), [FAST] * 3, random.Random(5), max_deals=2)
    assert end.is_terminal or end.deal_number == 3


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("phase", [Phase.CUT, Phase.EXCHANGE, Phase.PLAY])
def test_choices_are_legal_on_many_views(players: int, phase: Phase) -> None:
    for seed in range(4):
        state = decision_state(seed, phase, players)
        view = view_of(state)
        assert FAST.choose(view, random.Random(seed)) in state.legal_actions()


def test_same_generator_same_choice() -> None:
    for phase in (Phase.EXCHANGE, Phase.PLAY):
        view = view_of(decision_state(3, phase))
        first = FAST.hint(view, random.Random(4))
        assert FAST.hint(view, random.Random(4)) == first
        assert FAST.choose(view, random.Random(4)) == first[0][0]
    bots = [FAST, HeuristicBot()]
    one = play_out(new_game(2), bots, random.Random(9), max_deals=2)
    two = play_out(new_game(2), bots, random.Random(9), max_deals=2)
    assert one.history == two.history


@pytest.mark.rule("R13", "R23")
@settings(max_examples=8, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from([Phase.EXCHANGE, Phase.PLAY]),
    st.sampled_from([2, 3, 4]),
)
def test_decides_on_what_the_seat_may_know(seed: int, phase: Phase, players: int) -> None:
    """Two states that differ only in cards the seat cannot see get the same decision."""
    state = decision_state(seed, phase, players)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    other = view.sample_state(random.Random(seed + 1))
    assert other.view(seat) == view
    first = FAST.hint(view, random.Random(seed))
    assert FAST.hint(other.view(seat), random.Random(seed)) == first


# ------------------------------------------------------------------ hint and evaluate


@pytest.mark.parametrize("phase", [Phase.EXCHANGE, Phase.PLAY])
def test_hint_ranks_the_candidates_best_first(phase: Phase) -> None:
    state = decision_state(11, phase, fold=phase is Phase.EXCHANGE)
    view = view_of(state)
    hint = FAST.hint(view)
    actions = [a for a, _ in hint]
    assert actions == FAST.candidates(view) or set(actions) == set(FAST.candidates(view))
    values = [v for _, v in hint]
    assert values == sorted(values, reverse=True)
    assert FAST.hint(view) == hint  # the default generator is seeded
    assert FAST.choose(view, random.Random(0)) == hint[0][0]
    if phase is Phase.PLAY:
        assert set(actions) == set(view.legal_actions())
    else:
        assert Fold() in actions
        assert len(actions) == FAST.max_candidates + 1


def test_hint_is_empty_without_a_decision() -> None:
    state = decision_state(5, Phase.PLAY)
    idle = next(s for s in range(4) if s != state.current_player)
    assert FAST.hint(state.view(idle)) == []


@pytest.mark.parametrize("phase", [Phase.EXCHANGE, Phase.PLAY])
def test_evaluate_agrees_with_hint(phase: Phase) -> None:
    view = view_of(decision_state(8, phase, fold=phase is Phase.EXCHANGE))
    hint = dict(FAST.hint(view, random.Random(3)))
    actions = list(hint)[::-1]
    assert FAST.evaluate(view, actions, random.Random(3)) == [hint[a] for a in actions]
    outside = [a for a in view.legal_actions() if a not in hint]
    if outside:  # an exchange the search would not consider is valued all the same
        assert len(FAST.evaluate(view, outside[:1], random.Random(3))) == 1
    with pytest.raises(ValueError, match="not legal"):
        FAST.evaluate(view, [PlayCard(DECK[0])] if phase is Phase.EXCHANGE else [Fold()])


def test_values_are_points_toward_zero_with_the_game_bonus() -> None:
    view = view_of(decision_state(4, Phase.PLAY))
    for _, value in FAST.hint(view):
        assert -10 <= value <= 10  # +1 per trick, −5 for none, doubled with Hearts (R29, R30)
    values = []
    for seed in range(7, 12):  # deals that can end the game (R31): the bonus shows
        near = decision_state(seed, Phase.PLAY, rules=Rules(start_score=2))
        values += [v for _, v in ExpertBot(samples=8).hint(view_of(near))]
    assert max(values) > GAME_BONUS - 5


def test_the_rollout_leaf_values_exchanges_by_the_policy() -> None:
    """``leaf="rollout"``: the deal finished by the policy for every seat, as SearchBot does."""
    bot = ExpertBot(leaf="rollout", max_candidates=3, race_near=False)
    view = view_of(decision_state(6, Phase.EXCHANGE, 3, fold=True))
    candidates = bot.candidates(view)
    world = view.sample_state(random.Random(3))
    values = bot._exchange_values(view, world, candidates)
    for action, value in zip(candidates, values, strict=True):
        end = play_out(world.apply(action), [HeuristicBot()] * 3, RNG, until="deal")
        assert value == view.scores[view.player] - end.scores[view.player]


def test_the_fold_bonus_tilts_the_fold() -> None:
    """A fold is worth 0 (R29), a played hand −5 to +5 here: a bonus of 10 decides."""
    for seed in range(3):
        view = view_of(decision_state(seed, Phase.EXCHANGE, 4, fold=True))
        assert view.scores[view.player] > 5  # no goal bonus within reach (R31)
        assert (
            ExpertBot(samples=2, exchange_samples=2, fold_bonus=10, race_near=False).choose(
                view, random.Random(1)
            )
            == Fold()
        )
        assert (
            ExpertBot(samples=2, exchange_samples=2, fold_bonus=-10, race_near=False).choose(
                view, random.Random(1)
            )
            != Fold()
        )


def test_confident_compares_world_by_world() -> None:
    """A gain in every world is sure however small; a mean gain that noise could make
    is not; a loss never is."""
    steady = [[0.0, 0.1], [1.0, 1.1], [-2.0, -1.9]]  # +0.1 in each world
    assert expert.confident(steady, 1, 0, 3.0)
    noisy = [[0.0, 2.0], [0.0, -1.9], [0.0, 2.0], [0.0, -1.9]]  # mean +0.05, spread 2
    assert not expert.confident(noisy, 1, 0, 1.0)
    assert expert.confident(noisy, 1, 0, 0.01)
    assert not expert.confident(steady, 0, 1, 0.0)  # column 0 loses in every world
    assert expert.confident([[1.0, 3.0]], 1, 0, 5.0)  # one world: a gain is enough


@pytest.mark.rule("R18", "R19", "R21")
@pytest.mark.parametrize("players", [2, 4])
def test_the_searched_exchange_must_be_sure_to_replace_the_heuristics(players: int) -> None:
    """The choice follows the rule of ``exchange_confidence`` over the same worlds: the
    searched best exchange only when it gains a standard error (world by world) over
    the heuristic's first choice, the fold against the exchange chosen."""
    bot = ExpertBot(samples=4, exchange_samples=12, proposals=2, max_candidates=4)
    overruled = kept = 0
    for seed in range(12):
        # With two seats nobody may fold: the dealer plays, so must the other (R21.5, R21.6).
        fold = players > 2 and seed % 2 == 1
        view = view_of(decision_state(seed, Phase.EXCHANGE, players, fold=fold))
        candidates, rows = bot.world_rows(view, random.Random(seed))
        assert (
            candidates[0] == rank_exchanges(view.hand, view.legal_actions(), view.trump_card)[0][0]
        )
        means = [sum(column) / len(rows) for column in zip(*rows, strict=True)]
        plays = [i for i, a in enumerate(candidates) if a != Fold()]
        best = max(plays, key=means.__getitem__)
        if best != 0:
            gains = [row[best] - row[0] for row in rows]
            sure = statistics.mean(gains) >= statistics.stdev(gains) / math.sqrt(len(gains))
            overruled += sure
            kept += not sure
            best = best if sure else 0
        folds = [i for i, a in enumerate(candidates) if a == Fold()]
        expected = candidates[best]
        if folds and means[folds[0]] + bot.fold_bonus > means[best]:
            expected = Fold()
        assert bot.choose(view, random.Random(seed)) == expected
        plain = attrs.evolve(bot, exchange_confidence=0, fold_bonus=0)
        assert (
            plain.choose(view, random.Random(seed)) == plain.hint(view, random.Random(seed))[0][0]
        )
    assert kept  # the rule changed some choice on these views
    assert overruled  # and let the search overrule the heuristic on others


def test_cut_takes_the_critical() -> None:
    view = view_of(decision_state(1, Phase.CUT))
    hint = FAST.hint(view)
    assert hint[0][1] == 1.0
    assert hint[0][0] == FAST.choose(view, random.Random(1))


def test_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """One batch of worlds at least; more while time is left (a fake clock: 1 ms a look)."""
    view = view_of(decision_state(5, Phase.PLAY))
    hint = ExpertBot(time_ms=0.001, samples=1).hint(view, random.Random(2))
    assert {a for a, _ in hint} == set(view.legal_actions())
    clock = iter(range(1000))
    monkeypatch.setattr(expert.time, "perf_counter", lambda: next(clock) / 1000)
    batches = []
    real = expert.draw_worlds
    monkeypatch.setattr(expert, "draw_worlds", lambda *a: batches.append(1) or real(*a))
    ExpertBot(time_ms=3, samples=1).hint(view, random.Random(2))
    assert len(batches) == 3  # the deadline set at 0 ms: 1 and 2 ms go on, 3 ms stops


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_table_budget_sets_the_worlds_of_a_card_play(players: int) -> None:
    """Left None, ``samples`` and ``proposals`` come from the table's size; given, they
    win.  Counted in the worlds the search draws (one row per world drawn)."""
    view = view_of(decision_state(7, Phase.PLAY, players))
    samples, proposals, exchange_samples, max_nodes = expert.TABLE_BUDGETS[players]
    assert ExpertBot().budget(players) == (samples, proposals, exchange_samples, max_nodes)
    assert ExpertBot(samples=5, proposals=1).budget(players)[:2] == (5, 1)
    assert ExpertBot(proposals=2).budget(players)[:2] == (samples, 2)
    for wrong in (players + 6, 1, True, "3"):
        with pytest.raises(ValueError, match="players must be 2 to 7"):
            ExpertBot().budget(wrong)  # type: ignore[arg-type]
    drawn: list[tuple[int, int]] = []
    real = expert.draw_worlds

    def spy(
        view: PlayerView, rng: random.Random, count: int, tries: int, *rest: object
    ) -> list[GameState]:
        drawn.append((count, tries))
        return real(view, rng, count, tries, *rest)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(expert, "draw_worlds", spy)
        _, rows = ExpertBot().world_rows(view, random.Random(3))
    assert drawn == [(samples, samples * proposals)]
    assert len(rows) == samples


@pytest.mark.parametrize("players", [2, 3])
def test_the_solver_leaf_values_exchanges(players: int) -> None:
    """``leaf="solver"``: the other exchanges by the heuristic, then the play solved."""
    bot = ExpertBot(
        samples=2,
        exchange_samples=2,
        max_candidates=2,
        leaf="solver",
        race_near=False,
    )
    state = decision_state(3, Phase.EXCHANGE, players, fold=players > 2)  # R21.6
    hint = bot.hint(view_of(state), random.Random(1))
    if players > 2:
        assert dict(hint)[Fold()] == 0.0  # R29: a folded seat scores nothing
    for _, value in hint:
        assert -10 <= value <= 10 + GAME_BONUS
    play = view_of(decision_state(4, Phase.PLAY, players))
    assert bot.choose(play, random.Random(1)) in play.legal_actions()
    after = state.apply(HeuristicBot().choose(view_of(state), random.Random(1)))
    if after.phase is Phase.EXCHANGE:  # a later seat: somebody else leads the first trick
        assert bot.choose(view_of(after), random.Random(1)) in after.legal_actions()


def test_the_best_reply_tempers_the_solver_with_three_or_more_seats() -> None:
    """The solver's value mixed with the best reply to the policy's cards."""
    pure = ExpertBot(samples=6, rollout_weight=0.0)
    mixed = ExpertBot(samples=6, rollout_weight=1.0)
    differ = 0
    for seed in range(12, 18):
        view = view_of(decision_state(seed, Phase.PLAY, 4))
        first, second = pure.hint(view, random.Random(5)), mixed.hint(view, random.Random(5))
        assert dict(first).keys() == dict(second).keys()
        differ += first != second
        two = view_of(decision_state(seed, Phase.PLAY, 2))  # two seats: the minimax alone
        assert pure.hint(two, random.Random(5)) == mixed.hint(two, random.Random(5))
    assert differ  # the best reply changes the values


# ------------------------------------------------------------------ configuration


@pytest.mark.parametrize(
    ("kwargs", "error", "field"),
    [
        ({"samples": 0}, ValueError, "samples"),
        ({"samples": 2.5}, TypeError, "samples"),
        ({"exchange_samples": True}, TypeError, "exchange_samples"),
        ({"proposals": 0}, ValueError, "proposals"),
        ({"proposals": "6"}, TypeError, "proposals"),
        ({"max_candidates": "3"}, TypeError, "max_candidates"),
        ({"time_ms": -1}, ValueError, "time_ms"),
        ({"time_ms": "fast"}, TypeError, "time_ms"),
        ({"leaf": "oracle"}, ValueError, "leaf"),
        ({"race_near": "yes"}, TypeError, "race_near"),
        ({"race_near": 2}, TypeError, "race_near"),
        ({"fold_bonus": "x"}, TypeError, "fold_bonus"),
        ({"fold_bonus": 11}, ValueError, "fold_bonus"),
        ({"rollout_weight": 1.5}, ValueError, "rollout_weight"),
        ({"rollout_weight": "half"}, TypeError, "rollout_weight"),
        ({"exchange_confidence": -0.5}, ValueError, "exchange_confidence"),
        ({"exchange_confidence": "1"}, TypeError, "exchange_confidence"),
        ({"opponent_play_noise": 0}, ValueError, "opponent_play_noise"),
        ({"opponent_play_noise": 1.0}, ValueError, "opponent_play_noise"),
        ({"opponent_play_noise": "low"}, TypeError, "opponent_play_noise"),
    ],
)
def test_budget_validators_name_the_field(
    kwargs: dict[str, object], error: type[Exception], field: str
) -> None:
    with pytest.raises(error, match=f"ExpertBot.{field}"):
        ExpertBot(**kwargs)  # type: ignore[arg-type]


def test_make_bot_expert() -> None:
    assert make_bot("expert") == ExpertBot()
    assert make_bot("expert:samples=12:time_ms=30") == ExpertBot(samples=12, time_ms=30)
    assert make_bot("expert:samples=None:proposals=4") == ExpertBot(proposals=4)
    assert make_bot("expert:proposals=1") == ExpertBot(proposals=1)  # uniform worlds
    with pytest.raises(ValueError, match="must be at least 1"):
        make_bot("expert:samples=0")


# ------------------------------------------------------------------ the opponent model


def test_heuristic_play_is_the_policy_on_bitmasks() -> None:
    rng = random.Random(1)
    for _ in range(300):
        trump = rng.randrange(4)
        cards = rng.sample(range(32), 9)
        hand = sum(1 << c for c in cards[:5])
        trick = tuple((seat, c) for seat, c in enumerate(cards[5 : 5 + rng.randrange(4)]))
        legal = _legal_play_mask(hand, trick, trump, True) if trick else hand
        expected = choose_play(
            [DECK[c] for c in bits(legal)], [(s, DECK[c]) for s, c in trick], Suit(trump)
        )
        assert inference.heuristic_play(legal, trick, trump) == expected.index


def _heuristic_views(seed: int) -> Iterator[PlayerView]:
    """Every decision's view of four-player heuristic games, one game after another."""
    rng = random.Random(seed)
    bot = HeuristicBot()
    state = new_game(4)
    while True:
        if state.is_terminal:
            state = new_game(4)
        elif state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            view = view_of(state)
            state = state.apply(bot.choose(view, rng))
            yield view


def _weighted(view, model):  # type: ignore[no-untyped-def]
    worlds = [view.sample_state(random.Random(i)) for i in range(60)]
    return worlds, [inference.log_likelihood(view, w, model) for w in worlds]


def test_a_player_who_kept_his_hand_is_inferred_strong() -> None:
    """Worlds where a seat that exchanged nothing holds strong cards weigh more (R18)."""
    for seed in range(40):
        state = decision_state(seed, Phase.PLAY)
        view = view_of(state)
        me = view.player
        keepers = [
            s for s in range(4) if s != me and not state.folded[s] and view.exchange_counts[s] == 0
        ]
        if keepers and not view.played_tricks and not view.trick_plays:
            break
    else:  # pragma: no cover - the seeds above contain such a deal
        pytest.fail("no deal with a seat that kept his hand")
    q = keepers[0]
    worlds, logs = _weighted(view, inference.DEFAULT_MODEL)
    trump = view.trump_index >> 3
    strength = [sum(inference._VALUE[trump][c] for c in bits(w.hand_masks[q])) for w in worlds]
    weights = [math.exp(x - max(logs)) for x in logs]
    weighted = sum(s * w for s, w in zip(strength, weights, strict=True)) / sum(weights)
    assert weighted > sum(strength) / len(strength)


@pytest.mark.rule("R21")
def test_a_player_who_may_fold_and_plays_is_inferred_stronger_when_folds_are_common() -> None:
    """With a negative ``fold_bias`` staying in proves more: the worlds where a seat that
    could have folded played on hold stronger hands than under the heuristic's rule."""
    found = 0
    for view in _heuristic_views(5):
        if found == 3:
            break
        if view.phase is not Phase.PLAY or view.played_tricks or view.trick_plays:
            continue
        stayed = [
            s
            for s in range(4)
            if s not in (view.player, view.dealer)
            and not view.folded[s]
            and inference._fold_allowed(view, s)
        ]
        if not stayed:
            continue
        q = stayed[0]
        trump = view.trump_index >> 3
        means = []
        for bias in (0.0, -1.3):
            model = attrs.evolve(inference.DEFAULT_MODEL, fold_bias=bias)
            worlds, logs = _weighted(view, model)
            strength = [
                sum(inference._VALUE[trump][c] for c in bits(w.hand_masks[q])) for w in worlds
            ]
            weights = [math.exp(x - max(logs)) for x in logs]
            means.append(sum(s * w for s, w in zip(strength, weights, strict=True)) / sum(weights))
        assert means[1] > means[0]
        found += 1


@pytest.mark.rule("R21")
def test_fold_at_moves_the_heuristics_fold_threshold() -> None:
    """Rule 3 of the policy folds above ``fold_at``: −10 folds wherever R21 allows, +10
    never."""
    checked = 0
    for seed in range(6):
        state = decision_state(seed, Phase.EXCHANGE, fold=True)
        me, legal, trump_card = state.current_player, state.legal_actions(), state.trump_card
        assert me is not None
        assert trump_card is not None
        hand = state.hands[me]
        assert choose_exchange(hand, legal, trump_card, fold_at=-10) == Fold()
        assert choose_exchange(hand, legal, trump_card, fold_at=10) != Fold()
        checked += 1
    assert checked > 0


@pytest.mark.rule("R25")
def test_the_expert_hands_its_play_noise_to_the_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """``opponent_play_noise`` is the noise of the model that weighs the worlds."""
    view = view_of(decision_state(6, Phase.PLAY))
    noises: list[float] = []
    draw = expert.draw_worlds
    monkeypatch.setattr(
        expert, "draw_worlds", lambda *a: noises.append(a[4].play_noise) or draw(*a)
    )
    attrs.evolve(FAST, opponent_play_noise=0.02).choose(view, random.Random(1))
    assert noises
    assert set(noises) == {0.02}


def test_likelihood_reads_only_the_world_and_public_facts() -> None:
    state = decision_state(6, Phase.PLAY)
    view = view_of(state)
    world = view.sample_state(random.Random(2))
    first = inference.log_likelihood(view, world, inference.DEFAULT_MODEL)
    assert first == inference.log_likelihood(view, world, inference.DEFAULT_MODEL)
    assert math.isfinite(first)
    assert first <= 0.0
    assert (
        inference.log_likelihood(
            view_of(decision_state(1, Phase.CUT)), world, inference.DEFAULT_MODEL
        )
        == 0.0
    )


@pytest.mark.rule("R21")
def test_the_fold_model_knows_who_may_fold() -> None:
    """The model gives a fold probability exactly where R21 allowed a fold."""
    rng = random.Random(3)
    bot = HeuristicBot()
    checked = forbidden = 0
    state = new_game(4, rules=Rules(min_fold_score=8))
    while checked < 300:
        if state.is_terminal:
            state = new_game(4, rules=Rules(min_fold_score=8))
        elif state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            seat = state.current_player
            assert seat is not None
            if state.phase is Phase.EXCHANGE:
                allowed = state.fold_forbidden_by() is None
                assert inference._fold_allowed(state.view(seat), seat) is allowed
                checked += 1
                forbidden += not allowed
            state = state.apply(bot.choose(state.view(seat), rng))
    assert 0 < forbidden < checked


def test_drawn_cards_match_the_views() -> None:
    for players in (2, 3, 4):
        for seed in range(6):
            state = decision_state(seed, Phase.PLAY, players)
            world = view_of(state).sample_state(random.Random(seed))
            drawn = inference._drawn(world)
            for q in range(players):
                assert drawn[q] == sum(1 << c for c in world.view(q).draw_indices)


def test_draw_worlds_resamples_consistent_worlds() -> None:
    view = view_of(decision_state(9, Phase.PLAY))
    worlds = inference.draw_worlds(view, random.Random(1), 10, 40)
    assert len(worlds) == 10
    assert all(w.view(view.player) == view for w in worlds)
    plain = inference.draw_worlds(view, random.Random(1), 5, 40, model=None)
    assert len(plain) == 5


def test_tempered_evidence_spreads_the_weight_over_more_worlds() -> None:
    """``evidence`` below 1 keeps more distinct worlds; 0 is the uniform sample."""
    sharp = tempered = 0
    for seed in range(4):
        view = view_of(decision_state(seed + 30, Phase.PLAY))
        full = inference.draw_worlds(view, random.Random(seed), 40, 120)
        soft = inference.draw_worlds(view, random.Random(seed), 40, 120, evidence=0.3)
        sharp += len({w.hand_masks for w in full})
        tempered += len({w.hand_masks for w in soft})
        assert all(w.view(view.player) == view for w in soft)
        uniform = inference.draw_worlds(view, random.Random(seed), 5, 120, evidence=0.0)
        assert uniform == inference.draw_worlds(view, random.Random(seed), 5, 120, model=None)
    assert tempered > sharp
    with pytest.raises(ValueError, match="evidence"):
        ExpertBot(evidence=1.5)


# ------------------------------------------------------------------ strength (robust)


def test_the_expert_beats_random_bots() -> None:
    """Over a few deals the expert gains far more points than random players (R29)."""
    rng = random.Random(2026)
    gained = [0, 0]
    for _ in range(6):
        state = new_game(2)
        end = play_out(state, [ExpertBot(samples=8), RandomBot()], rng, until="deal")
        for seat in (0, 1):
            gained[seat] += end.scores[seat] - state.scores[seat]
    assert gained[0] < gained[1]


# ------------------------------------------------------------------ the best response


RNG = random.Random(0)  # the heuristic does not use it


def _best_response(state: GameState, me: int, before: GameState, race: bool = False) -> float:
    """Brute force through ``apply``: ``me`` picks his best card, the others the policy's.

    A finished deal is worth its points plus the goal's bonus (``race=False``), or the
    race model's value of the scores it leaves (``race=True``).
    """
    if state.phase is not Phase.PLAY:
        if race:
            return RaceValue(before.scores, me, before.rules).value(state.scores)
        points = state.last_deal.points[me]  # type: ignore[union-attr]
        return -points + (GAME_BONUS if state.scores[me] <= 0 else 0.0)  # R31
    legal = state.legal_actions()
    if state.current_player != me:
        seat = state.current_player
        assert seat is not None
        after = state.apply(HeuristicBot().choose(state.view(seat), RNG))
        return _best_response(after, me, before, race)
    return max(_best_response(state.apply(action), me, before, race) for action in legal)


@pytest.mark.parametrize("race", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_best_response_to_the_policy_is_exact(players: int, race: bool) -> None:
    """The best reply: per card, the best ``me`` can do against the policy's cards."""
    checked = 0
    rules = Rules(start_score=6) if race else Rules()  # the race's end within reach
    for seed in range(20, 40):
        state = decision_state(seed, Phase.PLAY, players, rules)
        while state.phase is Phase.PLAY and (
            sum(state.tricks_won) < 2 or len(state.legal_actions()) < 2
        ):  # a brute force from the first trick is slow
            state = state.apply(HeuristicBot().choose(view_of(state), random.Random(0)))
        if state.phase is not Phase.PLAY:
            continue
        me = state.current_player
        assert me is not None
        judge = expert._Judge(state.scores, me, state.rules, race)
        found = expert._respond_cards(
            state.hand_masks,
            state.trick_plays,
            state.tricks_won,
            me,
            expert._Table(state, judge),
            {},
        )
        for action in state.legal_actions():
            assert isinstance(action, PlayCard)
            expected = _best_response(state.apply(action), me, state, race)
            assert found[action.card.index] == pytest.approx(expected)
        checked += 1
        hint = ExpertBot(samples=3).hint(view_of(state), random.Random(1))
        assert {a for a, _ in hint} == set(state.legal_actions())
    assert checked >= 3


def _minimax(state: GameState, me: int, before: GameState) -> float:
    """Brute force through ``apply``: ``me`` maximises the race value, the other minimises."""
    if state.phase is not Phase.PLAY:
        return RaceValue(before.scores, me, before.rules).value(state.scores)
    values = [_minimax(state.apply(action), me, before) for action in state.legal_actions()]
    return max(values) if state.current_player == me else min(values)


@pytest.mark.rule("R29", "R31", "R34")
def test_with_two_seats_the_solver_is_exact_for_the_race_value() -> None:
    """Two seats in the deal: the other takes the tricks ``me`` does not, so the solver's
    rows carry the race value exactly (a minimax through ``apply`` agrees)."""
    checked = 0
    for seed in range(40, 52):
        state = decision_state(seed, Phase.PLAY, 2, Rules(start_score=5))
        while state.phase is Phase.PLAY and sum(state.tricks_won) < 1:
            state = state.apply(HeuristicBot().choose(view_of(state), random.Random(0)))
        if state.phase is not Phase.PLAY or len(state.legal_actions()) < 2:
            continue
        me = state.current_player
        assert me is not None
        judge = expert._Judge(state.scores, me, state.rules, race=True)
        found = expert._solve(state, me, judge.rows(state))
        for action in state.legal_actions():
            assert isinstance(action, PlayCard)
            expected = _minimax(state.apply(action), me, state)
            assert -found[action.card.index] / expert._SCALE == pytest.approx(expected, abs=1e-3)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("race", [False, True])
@pytest.mark.parametrize("players", [2, 3])
def test_the_respond_leaf_values_exchanges_by_the_best_response(
    players: int, race: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``leaf="respond"``: the others' exchanges and cards the policy's, ``me`` at his best.

    A fold is worth 0 by points (R29); in the race the others still play the deal out.
    """
    bot = ExpertBot(leaf="respond", max_candidates=3)
    monkeypatch.setattr(ExpertBot, "_race", lambda self, view: race)  # the value it judges by
    state = decision_state(6, Phase.EXCHANGE, players, fold=players > 2)
    view = view_of(state)
    candidates = bot.candidates(view)
    world = view.sample_state(random.Random(3))
    values = bot._exchange_values(view, world, candidates)
    for action, value in zip(candidates, values, strict=True):
        after = expert._finish_exchange(world.apply(action))
        if after.folded[view.player] and not race:
            expected = 0.0
        else:
            expected = _best_response(after, view.player, state, race)
        assert value == pytest.approx(expected)
    assert bot.choose(view, random.Random(1)) in candidates


@pytest.mark.parametrize("players", [2, 4])
def test_world_values_are_the_search_in_the_one_true_world(players: int) -> None:
    """In the true state the cards' values are the solver's (R24-R32): with two seats the
    exact minimax, so the best card's value is what the solver guarantees."""
    bot = ExpertBot(samples=1, exchange_samples=1, max_candidates=2, race_near=False)
    state = decision_state(5, Phase.PLAY, players)
    view = view_of(state)
    legal = view.legal_actions()
    values = bot.world_values(view, state, legal)
    assert values == bot._play_values(view, state, legal)
    if players == 2:
        solved = solve(state)  # the mover's deal points per card, paranoid = minimax
        before = view.scores[view.player]
        for action, value in zip(legal, values, strict=True):
            points = solved[action]  # type: ignore[index]
            bonus = GAME_BONUS if before + points <= 0 else 0.0
            assert value == pytest.approx(-points + bonus)
    exchange = decision_state(5, Phase.EXCHANGE, players)
    candidates = bot.candidates(view_of(exchange))
    assert bot.world_values(view_of(exchange), exchange, candidates) == bot._exchange_values(
        view_of(exchange), exchange, candidates
    )
    with pytest.raises(ValueError, match="not at the view's decision"):
        bot.world_values(view, exchange, candidates)
    cut = decision_state(1, Phase.CUT, players)
    with pytest.raises(ValueError, match="no world values in the cut"):
        bot.world_values(view_of(cut), cut, cut.legal_actions())


def _decision_from(scores: tuple[int, ...], seed: int, phase: Phase) -> GameState:
    """The first decision in ``phase`` of a deal begun at ``scores`` (deal 8, dealer 0)."""
    n = len(scores)
    state = GameState.from_position(Position(n, Rules(), 0, 8, scores, (False,) * n))
    rng = random.Random(seed)
    state = state.apply(state.sample_chance(rng))
    bot = HeuristicBot()
    while state.phase is not phase or len(state.legal_actions()) < 2:
        seat = state.current_player
        assert seat is not None
        assert state.deal_number == 8
        state = state.apply(bot.choose(state.view(seat), rng))
    return state


@pytest.mark.rule("R31")
@pytest.mark.parametrize("phase", [Phase.EXCHANGE, Phase.PLAY])
@pytest.mark.parametrize(
    "scores", [(12, 3, 14, 15), (12, 13, 14, 15), (3, 4, 14, 15), (9, 12, 8, 15), (2, 13, 6, 9)]
)
def test_race_near_values_by_the_race_only_when_another_seat_may_end_the_game(
    scores: tuple[int, ...], phase: Phase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``race_near``: the race's value in a deal in which another seat in it may reach the
    goal (five tricks, ten points with Hearts doubled: R29-R31) and the bot may not; the
    points' value otherwise, world by world."""
    contested = 0
    for seed in range(6):
        state = _decision_from(scores, seed, phase)
        view = view_of(state)
        reach = 10 if state.trump_index >> 3 == Suit.HEARTS else 5
        near = [
            not folded and score <= reach
            for score, folded in zip(state.scores, state.folded, strict=True)
        ]
        others = any(near[s] for s in range(len(near)) if s != view.player)
        expected = not near[view.player] and others
        bot = ExpertBot(race_near=True, max_candidates=3)
        assert bot._race(view) is expected
        assert ExpertBot(race_near=False)._race(view) is False
        world = view.sample_state(random.Random(seed))
        candidates = bot.candidates(view)
        found = bot.world_values(view, world, candidates)
        with monkeypatch.context() as patch:  # the same bot told which value to judge by
            patch.setattr(ExpertBot, "_race", lambda self, view, value=expected: value)
            assert found == ExpertBot(race_near=False, max_candidates=3).world_values(
                view, world, candidates
            )
        contested += near[view.player] and others
    if sorted(scores)[1] <= 5:  # two seats near: some view sees a race of both
        assert contested
