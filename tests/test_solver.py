"""The exact solver against brute force through ``GameState.apply`` (R24–R32).

Every expected value here is computed by a plain recursive search over
``legal_actions()`` and ``apply()``, reading ``last_deal.points`` at the end of the
deal, so the solver's bitmask search, its transposition table and its merging of
interchangeable cards are checked against the engine itself.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bohmisch_watten import (
    DECK,
    Card,
    Fold,
    GameState,
    Phase,
    PlayCard,
    Position,
    Rules,
    Suit,
    new_game,
)
from bohmisch_watten.cards import CARDS
from bohmisch_watten.solver import (
    NodeLimitReached,
    point_table,
    principal_variation,
    solve,
    solve_masks,
)

# ------------------------------------------------------------------ positions

DEFAULT = Rules()


def _to_play(state: GameState, rng: random.Random, *, fold: bool) -> GameState:
    """Random actions up to the first card of the deal; folds only if ``fold``."""
    while state.phase is not Phase.PLAY:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
            continue
        actions = state.legal_actions()
        choices = [a for a in actions if fold or not isinstance(a, Fold)] or list(actions)
        if fold and any(isinstance(a, Fold) for a in actions) and rng.random() < 0.5:
            choices = [a for a in actions if isinstance(a, Fold)]
        state = state.apply(rng.choice(choices))
    return state


def _positions(
    num_players: int,
    seed: int,
    count: int,
    *,
    plays: int,
    rules: Rules = DEFAULT,
    hearts: bool | None = None,
    scores: tuple[int, ...] | None = None,
    fold: bool = False,
) -> Iterator[GameState]:
    """``count`` seeded positions ``plays`` random cards into the deal.

    ``hearts`` keeps only deals with (True) or without (False) Hearts as trumps;
    ``scores`` starts the deal from those scores (deal 2, so folding is allowed).
    """
    rng = random.Random(seed)
    found = 0
    while found < count:
        if scores is None:
            start = new_game(num_players, rules=rules, dealer=rng.randrange(num_players))
        else:
            position = Position(
                num_players, rules, rng.randrange(num_players), 2, scores, (False,) * num_players
            )
            start = GameState.from_position(position)
        state = _to_play(start, rng, fold=fold)
        if hearts is not None and (state.trump_suit is Suit.HEARTS) != hearts:
            continue
        for _ in range(plays):
            state = state.apply(rng.choice(state.legal_actions()))
        found += 1
        yield state


# ------------------------------------------------------------------ brute force


def _in_deal(state: GameState, deal_number: int) -> bool:
    return state.deal_number == deal_number and state.phase is Phase.PLAY


def _paranoid(state: GameState, mover: int, deal_number: int) -> int:
    if not _in_deal(state, deal_number):
        summary = state.last_deal
        assert summary is not None
        return summary.points[mover]
    values = [_paranoid(state.apply(a), mover, deal_number) for a in state.legal_actions()]
    return min(values) if state.current_player == mover else max(values)


def brute_paranoid(state: GameState) -> dict[PlayCard, int]:
    mover = state.current_player
    assert mover is not None
    return {
        a: _paranoid(state.apply(a), mover, state.deal_number)
        for a in state.legal_actions()
        if isinstance(a, PlayCard)
    }


def _selfish(state: GameState, deal_number: int) -> tuple[int, ...]:
    """Max^n through apply: each seat minimises its own points, lowest card on ties."""
    if not _in_deal(state, deal_number):
        summary = state.last_deal
        assert summary is not None
        return summary.points
    seat = state.current_player
    assert seat is not None
    best: tuple[int, ...] | None = None
    plays = [a for a in state.legal_actions() if isinstance(a, PlayCard)]
    for action in sorted(plays, key=lambda a: a.card.index):
        points = _selfish(state.apply(action), deal_number)
        if best is None or points[seat] < best[seat]:
            best = points
    assert best is not None
    return best


def brute_selfish(state: GameState) -> dict[PlayCard, int]:
    mover = state.current_player
    assert mover is not None
    return {
        a: _selfish(state.apply(a), state.deal_number)[mover]
        for a in state.legal_actions()
        if isinstance(a, PlayCard)
    }


# ------------------------------------------------------------------ exactness

CASES = [
    # (players, plays already made, rules, hearts, count)
    (2, 0, Rules(), False, 6),
    (2, 0, Rules(), True, 4),
    (2, 0, Rules(must_head=False), False, 5),
    (2, 0, Rules(must_head=False), True, 3),
    (2, 1, Rules(hearts_double=False), True, 3),
    (3, 3, Rules(), False, 5),
    (3, 3, Rules(), True, 3),
    (3, 4, Rules(must_head=False), False, 4),
    (3, 5, Rules(must_head=False), True, 3),
    (4, 8, Rules(), False, 4),
    (4, 8, Rules(), True, 3),
    (4, 8, Rules(must_head=False), False, 4),
    (4, 9, Rules(must_head=False), True, 2),
]


@pytest.mark.parametrize(("players", "plays", "rules", "hearts", "count"), CASES)
def test_paranoid_equals_brute_force(
    players: int, plays: int, rules: Rules, hearts: bool, count: int
) -> None:
    seed = 1000 * players + 10 * plays + hearts + 2 * rules.must_head
    for state in _positions(players, seed, count, plays=plays, rules=rules, hearts=hearts):
        assert solve(state) == brute_paranoid(state), state.to_json()


def test_paranoid_with_folded_players() -> None:
    """Folded seats do not play (R24); a position with folds, deals 2 on."""
    seen_fold = False
    for state in _positions(4, 77, 6, plays=3, scores=(20, 20, 20, 20), fold=True):
        seen_fold |= any(state.folded)
        assert solve(state) == brute_paranoid(state)
    assert seen_fold


@pytest.mark.parametrize("score", [1, 2, 3, 4, 6])
def test_overshoot_added_back(score: int) -> None:
    """R32: the points are not monotone in the tricks any more (e.g. 2 tricks best)."""
    rules = Rules(overshoot="added_back")
    for state in _positions(3, 300 + score, 3, plays=3, rules=rules, scores=(score,) * 3):
        assert solve(state) == brute_paranoid(state)


def test_tricks_already_taken_count() -> None:
    """A few tricks in, a mover who already took one can no longer score +5 (R29)."""
    with_a_trick = 0
    for state in _positions(2, 9, 6, plays=4):
        mover = state.current_player
        assert mover is not None
        values = solve(state)
        assert values == brute_paranoid(state)
        if state.tricks_won[mover]:
            with_a_trick += 1
            assert max(values.values()) < 0
    assert with_a_trick


PACK36 = Rules(pack=36)

CASES_36 = [
    # (players, plays already made, rules, count): the 36-card pack (R1, R6), where the
    # Sixes are in the hands and the seats go up to seven; late enough in the deal that
    # the brute force through apply() stays quick.
    (2, 0, PACK36, 4),
    (4, 8, PACK36, 3),
    (5, 10, PACK36, 3),
    (5, 11, Rules(pack=36, must_head=False), 2),
    (6, 12, PACK36, 3),
    (6, 13, Rules(pack=36, must_head=False), 2),
    (7, 14, PACK36, 3),
    (7, 17, Rules(pack=36, must_head=False), 2),
]


@pytest.mark.rule("R6")
@pytest.mark.parametrize(("players", "plays", "rules", "count"), CASES_36)
def test_paranoid_equals_brute_force_with_36_cards(
    players: int, plays: int, rules: Rules, count: int
) -> None:
    seed = 3600 + 100 * players + plays
    sixes = 0
    for state in _positions(players, seed, count, plays=plays, rules=rules):
        sixes += sum(card.index >= 32 for hand in state.hands for card in hand)
        assert solve(state) == brute_paranoid(state), state.to_json()
    assert sixes  # the Sixes are in play


def test_paranoid_with_folded_players_and_36_cards() -> None:
    """Seven seats, some folded (R21, R24): the others play on; deals 2 on."""
    seen_fold = False
    rng = random.Random(78)
    for state in _positions(7, 78, 3, plays=0, rules=PACK36, scores=(20,) * 7, fold=True):
        seen_fold |= any(state.folded)
        while len(state.hands[state.current_player or 0]) > 2 or state.trick:
            state = state.apply(rng.choice(state.legal_actions()))  # on to the last two tricks
        assert solve(state) == brute_paranoid(state)
    assert seen_fold


@pytest.mark.rule("R6")
def test_the_six_of_trumps_as_a_seats_only_trump() -> None:
    """The trump bounds see the Six as the lowest trump (R9, R27): it takes nothing here."""
    hands = [Card.parse(c) for c in ("E6", "G8", "G9")], [Card.parse(c) for c in ("EA", "GA", "GK")]
    masks = [sum(1 << card.index for card in hand) for hand in hands]
    values = solve_masks(masks, [], [0, 0], int(Suit.ACORNS), player=0)
    assert values == {card.index: 5 for card in hands[0]}  # no trick: +5 (R29)


@pytest.mark.parametrize(("players", "plays"), [(2, 2), (3, 5), (4, 10), (5, 13), (7, 21)])
def test_selfish_equals_brute_force(players: int, plays: int) -> None:
    rules = DEFAULT if players <= 4 else PACK36
    for state in _positions(players, 40 + players, 4, plays=plays, rules=rules):
        assert solve(state, others="selfish") == brute_selfish(state)


def test_selfish_with_added_back() -> None:
    rules = Rules(overshoot="added_back", must_head=False)
    for state in _positions(3, 51, 3, plays=4, rules=rules, scores=(2, 3, 6)):
        assert solve(state, others="selfish") == brute_selfish(state)


# ------------------------------------------------------------------ principal variation


def _replay(state: GameState, line: tuple[tuple[int, object], ...]) -> GameState:
    for seat, card in line:
        assert state.current_player == seat
        state = state.apply(PlayCard(card))  # type: ignore[arg-type]
    return state


@pytest.mark.parametrize("others", ["paranoid", "selfish"])
@pytest.mark.parametrize(("players", "plays"), [(2, 0), (3, 3), (4, 6), (7, 14)])
def test_principal_variation_replays_to_the_value(players: int, plays: int, others: str) -> None:
    rules = Rules(must_head=False, pack=32 if players <= 4 else 36)
    for state in _positions(players, 60 + players, 3, plays=plays, rules=rules):
        mover = state.current_player
        assert mover is not None
        values = solve(state, others=others)
        line = principal_variation(state, others=others)
        end = _replay(state, line)
        assert end.deal_number != state.deal_number or end.is_terminal
        summary = end.last_deal
        assert summary is not None
        first = PlayCard(line[0][1])
        assert summary.points[mover] == values[first]
        if others == "paranoid":
            assert values[first] == min(values.values())


# ------------------------------------------------------------------ the low-level entry point


def test_solve_masks_matches_solve() -> None:
    for state in _positions(3, 88, 3, plays=2, rules=Rules(must_head=False)):
        player = state.current_player
        assert player is not None
        trump = state.trump_suit
        assert trump is not None
        masks = [sum(1 << c.index for c in hand) for hand in state.hands]
        values = solve_masks(
            masks,
            [(seat, card.index) for seat, card in state.trick],
            state.tricks_won,
            int(trump),
            player=player,
            must_head=False,
            folded=state.folded,
            points=point_table(int(trump), state.rules, state.scores),
        )
        assert {PlayCard(DECK[i]): v for i, v in values.items()} == solve(state)


def test_solve_masks_defaults_and_other_mover() -> None:
    """Default points are R29/R30; ``mover`` may be another seat than the one to act."""
    state = next(_positions(2, 5, 1, plays=1))
    player = state.current_player
    assert player is not None
    trump = state.trump_suit
    assert trump is not None
    masks = [sum(1 << c.index for c in hand) for hand in state.hands]
    trick = [(seat, card.index) for seat, card in state.trick]
    other = 1 - player
    values = solve_masks(masks, trick, state.tricks_won, int(trump), player=player, mover=other)
    for card, value in values.items():
        after = state.apply(PlayCard(DECK[card]))
        assert value == _paranoid(after, other, state.deal_number)


@pytest.mark.parametrize(("others", "plays"), [("paranoid", 0), ("selfish", 10)])
def test_max_nodes_bounds_the_work(others: str, plays: int) -> None:
    """Past ``max_nodes`` tricks started the search gives up; within it, the same values."""
    state = next(_positions(7, 12, 1, plays=plays, rules=PACK36))
    player = state.current_player
    assert player is not None
    trump = state.trump_suit
    assert trump is not None
    masks = [sum(1 << c.index for c in hand) for hand in state.hands]
    points = point_table(int(trump), state.rules, state.scores)
    trick = [(seat, card.index) for seat, card in state.trick]
    args = (masks, trick, state.tricks_won, int(trump))
    with pytest.raises(NodeLimitReached):
        solve_masks(*args, player=player, points=points, others=others, max_nodes=1)
    values = solve_masks(*args, player=player, points=points, others=others, max_nodes=10**7)
    assert {PlayCard(CARDS[i]): v for i, v in values.items()} == solve(state, others=others)


def test_point_table_follows_the_rules() -> None:
    assert point_table(0, Rules(), (20, 20)) == ((5, -1, -2, -3, -4, -5),) * 2
    assert point_table(2, Rules(), (20,))[0] == (10, -2, -4, -6, -8, -10)
    assert point_table(2, Rules(hearts_double=False), (20,))[0] == (5, -1, -2, -3, -4, -5)
    # R32: from 2 points, 3 tricks end at 3 points (+1).
    assert point_table(0, Rules(overshoot="added_back"), (2,))[0] == (5, -1, -2, 1, 2, 3)


# ------------------------------------------------------------------ errors


def test_errors() -> None:
    with pytest.raises(TypeError, match="state"):
        solve("state")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="state"):
        principal_variation(None)  # type: ignore[arg-type]
    fresh = new_game(2)
    with pytest.raises(ValueError, match="PLAY"):
        solve(fresh)  # a chance node
    rng = random.Random(1)
    state = fresh.apply(fresh.sample_chance(rng))
    while state.phase is not Phase.EXCHANGE:
        state = state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="PLAY"):
        solve(state)
    game = new_game(2)
    while not game.is_terminal:
        game = game.apply(
            game.sample_chance(rng) if game.is_chance_node else rng.choice(game.legal_actions())
        )
    with pytest.raises(ValueError, match="PLAY"):
        principal_variation(game)
    playing = next(_positions(2, 3, 1, plays=0))
    with pytest.raises(ValueError, match="others"):
        solve(playing, others="optimistic")
    with pytest.raises(TypeError, match="others"):
        solve(playing, others=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="others"):
        solve_masks([1, 2], [], [0, 0], 0, player=0, others="maxn")
