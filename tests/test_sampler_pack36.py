"""The exact sampler on the 36-card pack (R6, R13, R15, R19, R20, R23): every sample fits
the view, and the samples are distributed exactly as the consistent worlds are.

The exactness tests compare :meth:`PlayerView.sample_state` with an independent brute force
(:func:`consistent_worlds`), which knows nothing of ``bohmisch_watten.determinize``: it moves
the cards the observer cannot place over the places they can occupy, rebuilds the pack,
replays the deal's public actions with :meth:`GameState.apply` (trying every discard a
hidden exchange could have made) and keeps the worlds whose view equals the observed one.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from bohmisch_watten import (
    Exchange,
    Fold,
    GameState,
    IllegalActionError,
    Phase,
    Rules,
    Shuffle,
    TakeCritical,
    new_game,
)
from bohmisch_watten.cards import CARDS, pack_cards
from test_state_machine import check_state
from test_views import replay

PACK36 = Rules(pack=36)

# A world's key: the hands, the discards, the stock (in order) and the ritual's cards.
Key = tuple[object, ...]


def key_of(state: GameState) -> Key:
    return (state.hands, state.discards, state.stock, state.cut_looks)


# ------------------------------------------------------------------ consistency


def play_varied(players: int, rules: Rules, seed: int, deals: int) -> Iterator[GameState]:
    """Every state of a seeded random game for ``deals`` deals; the dealer takes the trump
    card half the time he may (R19) and a player folds a third of the time he may (R21)."""
    rng = random.Random(seed)
    state = new_game(players, rules=rules, dealer=rng.randrange(players))
    while not state.is_terminal and state.deal_number <= deals:
        yield state
        if state.is_chance_node:
            pack = list(state.sample_chance(rng).pack)
            if rng.random() < 0.5:  # a Critical at the bottom: the ritual offers it (R12)
                critical = rng.choice([card for card in pack if card.is_critical])
                pack.remove(critical)
                pack.append(critical)
            state = state.apply(Shuffle(pack))
            continue
        legal = state.legal_actions()
        takes = [a for a in legal if isinstance(a, Exchange) and a.take_trump_card]
        if takes and rng.random() < 0.5:
            state = state.apply(rng.choice(takes))
        elif Fold() in legal and rng.random() < 0.33:
            state = state.apply(Fold())
        else:
            state = state.apply(rng.choice(legal))


RULE_SETS = [PACK36, Rules(pack=36, schleck="cutter_only"), Rules(pack=36, must_head=False)]


@pytest.mark.rule("R6", "R13", "R15", "R19", "R20", "R21", "R23", "R25")
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_every_sample_fits_the_view_and_replays(players: int) -> None:
    """At every step of random 36-card games (the ritual, the exchange, mid-trick, after
    folds and after the dealer took the trump card), for every seat: the sample shows
    that seat its view, holds the 36 cards and replays legally."""
    seen: Counter[str] = Counter()
    for seed in range(6):
        rules = RULE_SETS[seed % 3]
        rng = random.Random(seed)
        for step, state in enumerate(play_varied(players, rules, seed, deals=4)):
            if state.is_chance_node or (step % 3 and state.phase is not Phase.CUT):
                continue
            seen[state.phase.name] += 1
            seen["fold"] += any(state.folded)
            seen["took"] += state.trump_card_taken
            seen["trick"] += bool(state.trick)
            for seat in rng.sample(range(players), min(players, 3)):
                view = state.view(seat)
                sample = view.sample_state(rng)
                assert sample.view(seat) == view
                check_state(sample)  # R6: the 36 cards, each once, among other invariants
                assert replay(sample) == sample
    for fact in ("EXCHANGE", "PLAY", "trick", "took"):  # R19: the dealer took the trump
        assert seen[fact], (fact, seen)
    assert seen["CUT"], seen  # R12: a Critical offered
    assert seen["fold"] or players == 2, seen  # R21: two players cannot fold


@pytest.mark.rule("R6", "R9", "R25")
def test_a_six_as_the_trump_card() -> None:
    """A Six turned up as the trump card names its suit like any other card (R9): the
    plays after it reveal what they reveal of that suit."""
    pack = list(pack_cards(36))
    six = pack.pop(33)  # G6
    pack.insert(6, six)  # two players, 3 cards each, then the trump card (R15)
    state = new_game(2, rules=Rules(pack=36, schleck="none"), dealer=1)
    state = state.apply(Shuffle(pack))
    assert state.trump_card == six
    state = state.apply(Exchange([])).apply(Exchange([]))
    rng = random.Random(3)
    for _ in range(2):  # a whole trick: the second card shows what its player held
        state = state.apply(rng.choice(state.legal_actions()))
    for seat in (0, 1):
        view = state.view(seat)
        for _ in range(20):
            assert view.sample_state(rng).view(seat) == view


# ------------------------------------------------------------------ brute force


def consistent_worlds(state: GameState, observer: int) -> Counter[Key]:
    """Every world consistent with ``state.view(observer)``, counted (first deal only).

    A world is the shuffled pack and the hidden discards.  The cards this seat cannot
    place are the other seats' dealt and drawn cards and the stock (the trump card, the
    Criticals taken, this seat's own cards and a bottom card it looked at stay where they
    are).  The places they can occupy are *groups* of pack positions: a seat's dealt
    positions, its drawn positions, each stock position, and with seven players the
    dealer's last dealt position (the ritual's bottom card, R13).  A group is filled in
    sorted order, which stands for the same number of pack orders in every world, so
    each filling counts once.  A card a seat played was in that seat's hand, so it goes
    to one of that seat's groups; the other cards go anywhere.  Every filling is replayed
    with every discard each hidden exchange could have made (R18, R19).
    """
    history = state.history
    assert isinstance(history[0][1], Shuffle)
    assert not any(isinstance(a, Shuffle) for _, a in history[1:]), "the first deal only"
    n = state.num_players
    start = new_game(n, rules=state.rules, dealer=state.dealer)
    pack = [card.index for card in history[0][1].pack]
    view = state.view(observer)

    # The true deal's layout: who got which positions, replayed once.
    s = start.apply(history[0][1])
    i = 1
    while s.trump_card is None:
        s = s.apply(history[i][1])
        i += 1
    position = {card: p for p, card in enumerate(pack)}
    owner: dict[int, tuple[str, int]] = {}  # position -> (group kind, seat or index)
    taken = {card.index for _, card, took, _ in s.cut_looks if took}
    for q in range(n):
        for card in s.hands[q]:
            if card.index not in taken:
                owner[position[card.index]] = ("dealt", q)
    for stock_index, card in enumerate(s.stock):
        owner[position[card.index]] = ("stock", stock_index)
    for seat, action in history[i:]:
        before = s
        s = s.apply(action)
        if isinstance(action, Exchange) and len(s.stock) < len(before.stock):
            assert seat is not None
            for card in before.stock[: len(before.stock) - len(s.stock)]:
                owner[position[card.index]] = ("drawn", seat)
    looks = s.cut_looks
    bottom = position[looks[-1].card.index] if looks and not looks[-1].taken else -1
    if bottom >= 0 and owner[bottom][0] != "stock":  # R13: drawn or dealt last
        owner[bottom] = ("last " + owner[bottom][0], owner[bottom][1])
    fixed = {p for p, (kind, q) in owner.items() if kind != "stock" and q == observer}
    hidden_bottom = bottom >= 0 and view.cut_looks[-1].card is None
    assert not (hidden_bottom and bottom in fixed), "his own last card: not placed here"
    if bottom >= 0 and not hidden_bottom:
        fixed.add(bottom)  # this seat looked at it
    places = [p for p in owner if p not in fixed]
    groups: dict[tuple[str, int], list[int]] = {}
    for p in sorted(places):
        groups.setdefault(owner[p], []).append(p)
    names = list(groups)
    played = {card.index: seat for trick in state.tricks for seat, card in trick.plays}
    played |= {card.index: seat for seat, card in state.trick}
    loose = [pack[p] for p in places]
    bound = [c for c in loose if c in played]
    free = [c for c in loose if c not in played]

    worlds: Counter[Key] = Counter()
    for fill in _fillings(names, groups, bound, free, played):
        new = list(pack)
        for name, cards in fill.items():
            for p, card in zip(groups[name], sorted(cards), strict=True):
                new[p] = card
        shuffled = start.apply(Shuffle([CARDS[c] for c in new]))
        for world in _replays(shuffled, history[1:], observer):
            if world.view(observer) == view:
                worlds[key_of(world)] += 1
    return worlds


def _fillings(
    names: list[tuple[str, int]],
    groups: dict[tuple[str, int], list[int]],
    bound: list[int],
    free: list[int],
    played: dict[int, int],
) -> Iterator[dict[tuple[str, int], list[int]]]:
    """Every way to put the cards in the groups, a played card in one of its seat's."""
    own = [[name for name in names if name[0] != "stock" and name[1] == played[c]] for c in bound]
    for choice in itertools.product(*own):
        fill: dict[tuple[str, int], list[int]] = {name: [] for name in names}
        for card, name in zip(bound, choice, strict=True):
            fill[name].append(card)
        room = [len(groups[name]) - len(fill[name]) for name in names]
        if min(room) < 0:
            continue
        yield from _spread(names, room, free, fill)


def _spread(
    names: list[tuple[str, int]],
    room: list[int],
    cards: list[int],
    fill: dict[tuple[str, int], list[int]],
) -> Iterator[dict[tuple[str, int], list[int]]]:
    if not names:
        yield {name: list(cards) for name, cards in fill.items()}
        return
    for chosen in itertools.combinations(cards, room[0]):
        rest = [c for c in cards if c not in chosen]
        fill[names[0]] = fill[names[0]] + list(chosen)
        yield from _spread(names[1:], room[1:], rest, fill)
        fill[names[0]] = fill[names[0]][: len(fill[names[0]]) - len(chosen)]


def _replays(
    state: GameState, actions: tuple[tuple[int | None, object], ...], observer: int
) -> Iterator[GameState]:
    """The deal replayed, every hidden exchange tried with every discard of its size."""
    for at, (seat, action) in enumerate(actions):
        if isinstance(action, Exchange) and seat != observer:
            if state.current_player != seat or state.phase is not Phase.EXCHANGE:
                return
            for other in state.legal_actions():
                if (
                    isinstance(other, Exchange)
                    and len(other.discard) == len(action.discard)
                    and other.take_trump_card == action.take_trump_card
                ):
                    yield from _replays(state.apply(other), actions[at + 1 :], observer)
            return
        try:
            state = state.apply(action, seat=seat)
        except IllegalActionError:
            return
    yield state


# ------------------------------------------------------------------ exactness


def keep_or_take(take: bool) -> Policy:
    """Everybody keeps his cards; the dealer takes the trump card if ``take`` (R19)."""

    def policy(state: GameState, rng: random.Random) -> object:
        if state.phase is Phase.EXCHANGE:
            takes = [a for a in state.legal_actions() if getattr(a, "take_trump_card", False)]
            if take and state.current_player == state.dealer and takes:
                return rng.choice(takes)
            return Exchange([])
        return rng.choice(state.legal_actions())

    return policy


def forehand_and_dealer_exchange(state: GameState, rng: random.Random) -> object:
    """Forehand and the dealer exchange up to two cards, the others keep theirs."""
    if state.phase is Phase.EXCHANGE:
        n = state.num_players
        if state.current_player in (state.dealer, (state.dealer + 1) % n):
            legal = state.legal_actions()
            return rng.choice([a for a in legal if isinstance(a, Exchange) and len(a.discard) <= 2])
        return Exchange([])
    return rng.choice(state.legal_actions())


def taker_exchanges(state: GameState, rng: random.Random) -> object:
    """The ritual's Criticals are taken (R12); who took one exchanges one or two cards."""
    if state.phase is Phase.CUT:
        return TakeCritical()
    if state.phase is Phase.EXCHANGE:
        if state.current_player in [look.seat for look in state.cut_looks if look.taken]:
            legal = state.legal_actions()
            return rng.choice(
                [a for a in legal if isinstance(a, Exchange) and 1 <= len(a.discard) <= 2]
            )
        return Exchange([])
    return rng.choice(state.legal_actions())


def forehand_three_next_two(state: GameState, rng: random.Random) -> object:
    """Forehand exchanges three cards and the next seat two: six players empty the
    stock of five (R18, R20), and the second draws its bottom card."""
    if state.phase is Phase.EXCHANGE:
        n = state.num_players
        want = {(state.dealer + 1) % n: 3, (state.dealer + 2) % n: 2}.get(state.current_player, 0)
        legal = state.legal_actions()
        return rng.choice([a for a in legal if isinstance(a, Exchange) and len(a.discard) == want])
    return rng.choice(state.legal_actions())


Policy = Callable[[GameState, random.Random], object]


def first_deal_at(
    players: int,
    rules: Rules,
    seed: int,
    policy: Policy,
    tricks: int,
    plays: int,
    offer: bool = False,
) -> GameState:
    """The first deal of a seeded game, played by ``policy`` until ``tricks`` complete
    tricks and ``plays`` cards of the next; if ``offer``, a Critical lies at the bottom of
    the pack, so the ritual offers it (R12)."""
    rng = random.Random(seed)
    state = new_game(players, rules=rules, dealer=rng.randrange(players))
    pack = list(state.sample_chance(rng).pack)
    if offer:
        critical = rng.choice([card for card in pack if card.is_critical])
        pack.remove(critical)
        pack.append(critical)
    state = state.apply(Shuffle(pack))
    while not (
        state.phase is Phase.PLAY and len(state.tricks) == tricks and len(state.trick) == plays
    ):
        state = state.apply(policy(state, rng))
    return state


def check_exact(state: GameState, observer: int, runs: int) -> tuple[float, float]:
    """Sample ``runs`` worlds and compare them with :func:`consistent_worlds`.

    Returns the chi-square statistic of the worlds' frequencies in standard units, and
    the largest deviation of one card's frequency in one place (a seat's hand or
    discards, a stock position) from its exact probability, in standard deviations.
    """
    worlds = consistent_worlds(state, observer)
    total = sum(worlds.values())
    view = state.view(observer)
    rng = random.Random(2026)
    drawn = Counter(key_of(view.sample_state(rng)) for _ in range(runs))
    assert set(drawn) <= set(worlds), "a sample the brute force does not know"
    chi = sum((drawn[k] - runs * w / total) ** 2 / (runs * w / total) for k, w in worlds.items())
    df = len(worlds) - 1
    exact: Counter[tuple[object, ...]] = Counter()
    seen: Counter[tuple[object, ...]] = Counter()
    for table, source in ((exact, worlds), (seen, drawn)):
        for key, weight in source.items():
            for place in places(key):
                table[place] += weight
    worst = 0.0
    for place, weight in exact.items():
        p = weight / total
        sd = math.sqrt(runs * p * (1 - p)) or 1.0
        worst = max(worst, abs(seen[place] - runs * p) / sd)
    return (chi - df) / math.sqrt(2 * df), worst


def places(key: Key) -> Iterator[tuple[object, ...]]:
    hands, discards, stock, _ = key
    for seat, cards in enumerate(hands):
        for card in cards:
            yield ("hand", seat, card)
    for seat, cards in enumerate(discards):
        for card in cards:
            yield ("discard", seat, card)
    for i, card in enumerate(stock):
        yield ("stock", i, card)


SEVEN = Rules(pack=36)


@pytest.mark.rule("R6", "R15", "R23")
def test_exact_at_the_last_trick_of_seven_keeping_players() -> None:
    """Seven players, nobody exchanged, no ritual: six hidden cards, one per hand."""
    state = first_deal_at(7, Rules(pack=36, schleck="none"), 7, keep_or_take(False), 4, 0)
    observer = (state.dealer + 2) % 7
    assert len(state.view(observer).hand) == 1
    z, worst = check_exact(state, observer, 10_000)
    assert z < 5
    assert worst < 4.5


@pytest.mark.rule("R12", "R13", "R15")
def test_exact_with_the_hidden_bottom_card_dealt_to_the_dealer() -> None:
    """Seven players: the ritual left a Critical at the bottom that the observer did not
    see, so the dealer's last dealt card is one of his Criticals (R13)."""
    state = first_deal_at(7, SEVEN, 174, keep_or_take(False), 4, 0)
    look = state.cut_looks[-1]
    assert look.critical
    assert not look.taken
    assert 0 not in (look.seat, state.dealer)
    assert state.view(0).cut_looks[-1].card is None
    z, worst = check_exact(state, 0, 10_000)
    assert z < 5
    assert worst < 4.5


@pytest.mark.rule("R13", "R15", "R19")
@pytest.mark.parametrize("looked", [False, True])
def test_exact_when_the_dealer_of_seven_took_the_trump_card(looked: bool) -> None:
    """Seven players, the dealer gave up one card for the trump card: the bottom card he
    was dealt last may be played, held, or given up, hidden (or seen by its looker)."""
    state = first_deal_at(7, SEVEN, 4, keep_or_take(True), 4, 2)
    assert state.trump_card_taken
    look = state.cut_looks[-1]
    assert not look.taken
    observer = look.seat if looked else 2
    assert observer != state.dealer
    assert (state.view(observer).cut_looks[-1].card is not None) == looked
    z, worst = check_exact(state, observer, 10_000)
    assert z < 5
    assert worst < 4.5


@pytest.mark.rule("R13", "R18", "R20", "R23")
def test_exact_for_six_players_late_with_cards_in_the_stock() -> None:
    """Six players, two exchanged (which of their cards were drawn is hidden, R23), the
    bottom card of the stock still in it and hidden from the observer (R13)."""
    state = first_deal_at(6, Rules(pack=36), 1, forehand_and_dealer_exchange, 4, 4)
    assert state.stock
    assert sum(state.exchange_counts) >= 2
    look = state.cut_looks[-1]
    observer = 2
    assert not look.taken
    assert look.seat != observer
    z, worst = check_exact(state, observer, 10_000)
    assert z < 5
    assert worst < 4.5


@pytest.mark.rule("R12", "R13", "R18", "R20", "R23")
def test_exact_for_six_players_when_a_taken_critical_may_be_kept_or_discarded() -> None:
    """Six players: the seat that took a Critical in the ritual exchanged one card and has
    not played the Critical, so it was kept or discarded; the worlds then differ in how
    many histories (which card was drawn) lead to them (R18, R23)."""
    state = first_deal_at(6, Rules(pack=36), 60, taker_exchanges, 4, 4, offer=True)
    taker = next(look for look in state.cut_looks if look.taken)
    assert state.exchange_counts[taker.seat] == 1
    played = {card for trick in state.tricks for _, card in trick.plays}
    assert taker.card not in played
    assert state.stock
    z, worst = check_exact(state, 0, 10_000)
    assert z < 5
    assert worst < 4.5


@pytest.mark.rule("R13", "R18", "R20", "R23")
def test_exact_for_six_players_when_the_bottom_card_was_drawn() -> None:
    """Six players empty the stock: the ritual's bottom card, hidden from the observer
    (forehand, who drew the first three), is among the second seat's draws (R13, R20)."""
    state = first_deal_at(6, Rules(pack=36), 7, forehand_three_next_two, 4, 3)
    observer = (state.dealer + 1) % 6
    assert state.stock == ()
    assert state.exchange_counts[(state.dealer + 2) % 6] == 2
    look = state.cut_looks[-1]
    assert not look.taken
    assert look.seat != observer
    z, worst = check_exact(state, observer, 10_000)
    assert z < 5
    assert worst < 4.5
