"""Whole games under Hypothesis: every step of every game keeps the invariants.

:class:`WattenGame` is a ``RuleBasedStateMachine``.  It starts a game with 2-4 players
and drawn :class:`Rules`, then moves on with a mix of rules: one decision drawn by
Hypothesis from ``legal_actions()`` (a shuffle from ``sample_chance`` with a drawn seed),
the rest of a deal with a seeded policy, the rest of a (short) game, and, at the end of a
game, the next game (R5).  Every single ``apply()`` is checked, both the new state on its
own (:func:`check_state`) and the step from the old state to the new one
(:func:`check_step`), so a whole deal played inside one rule is checked card by card.

Bounding the work.  Random play does not guarantee a quick end: a player with no trick
scores +5, so with 3-4 players the scores can drift upward for hundreds of deals (see
the README).  Hypothesis bounds the rules per test case (``stateful_step_count``); each
rule plays at most one deal, except ``play_to_game_over``, which only runs when the game
is short by construction (``start_score`` <= 8 and ``overshoot = wins``: someone must win
three to eight tricks net) and stops with a failure after ``MAX_DEALS`` deals - in
3000 sampled games of that kind none took more than 19 deals.

Set ``BW_STEP_LOG=/some/file`` to append, per test case, the number of machine rules and
engine steps run (used to report the ``thorough`` run).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from bohmisch_watten import (
    Action,
    Exchange,
    Fold,
    GameState,
    LeaveCritical,
    Overshoot,
    Phase,
    PlayCard,
    Rules,
    Shuffle,
    Suit,
    TakeCritical,
    new_game,
    next_game,
)
from bohmisch_watten.cards import pack_cards
from bohmisch_watten.phases import AUTO_TRIGGERS, MACHINE

import reference as ref
from game_strategies import policy, rules_strategy, seeds

MAX_DEALS = 300
"""Deals after which ``play_to_game_over`` gives up on a short game (see the module doc)."""

TRIGGER = {
    Shuffle: "shuffle",
    TakeCritical: "take",
    LeaveCritical: "leave",
    Fold: "fold",
    Exchange: "exchange",
    PlayCard: "play",
}


# ------------------------------------------------------------------ the checks


def machine_paths(source: Phase, trigger: str) -> set[tuple[Phase, ...]]:
    """Every phase path one ``apply()`` may take: the action's transition, then autos.

    Read from the ``transitions`` machine itself (not from the compiled table), ignoring
    guards: the test only asks that the observed phase change is *some* path of machine
    transitions.
    """
    paths: set[tuple[Phase, ...]] = set()
    frontier: list[tuple[Phase, ...]] = [
        (source, Phase[str(t.dest)]) for t in MACHINE.get_transitions(trigger, source=source.name)
    ]
    while frontier:
        path = frontier.pop()
        paths.add(path)
        auto = AUTO_TRIGGERS.get(path[-1])
        if auto is None or len(path) > 6:
            continue
        for t in MACHINE.get_transitions(auto, source=path[-1].name):
            frontier.append((*path, Phase[str(t.dest)]))
    return paths


_PATHS = {(p, trig): machine_paths(p, trig) for p in Phase for trig in TRIGGER.values()}


def cards_out(state: GameState) -> list[Any]:
    """Every card that is somewhere in this deal, each place counted once (R6, R15, R19)."""
    out: list[Any] = [c for hand in state.hands for c in hand]
    out += state.stock
    if state.trump_card is not None and not state.trump_card_taken:
        out.append(state.trump_card)  # a taken trump card is in the dealer's hand
    out += [c for pile in state.discards for c in pile]
    out += [c for trick in state.tricks for _, c in trick.plays]
    out += [c for _, c in state.trick]
    return out


def fold_allowed(state: GameState, seat: int) -> bool:
    """R21, read independently: may ``seat`` (deciding now) fold?"""
    n = state.num_players
    trump = state.trump_card
    assert trump is not None
    others = [s for s in range(n) if s not in (seat, state.dealer)]
    return not (
        state.deal_number == 1  # R21.1
        or trump.suit == Suit.HEARTS  # R21.2 (R16: the printed suit, also for Maxi)
        or state.scores[seat] <= state.rules.min_fold_score  # R21.3
        or (state.last_deal is not None and state.last_deal.folded[seat])  # R21.4
        or seat == state.dealer  # R21.5
        or (seat == (state.dealer - 1) % n and all(state.folded[s] for s in others))  # R21.6
    )


def check_state(state: GameState) -> None:
    """The invariants of one state, whatever led to it."""
    n = state.num_players
    phase = state.phase
    legal = state.legal_actions()

    # current_player is None exactly at chance nodes and at the end; otherwise there is
    # at least one legal action and no action is offered twice.
    assert (state.current_player is None) == (state.is_chance_node or state.is_terminal)
    assert state.is_chance_node == (phase is Phase.DEAL)
    assert state.is_terminal == (phase is Phase.GAME_OVER)
    if state.current_player is None:
        assert legal == ()
    else:
        assert legal
        assert len(set(legal)) == len(legal)
        assert all(state.is_legal(a) for a in legal)
    assert phase is not Phase.SCORE  # always passed through inside apply()

    assert sum(state.tricks_won) == len(state.tricks)
    for trick in state.tricks:
        assert state.tricks_won[trick.winner] >= 1

    # R6: the 32 or 36 cards of the pack are conserved.
    if phase in (Phase.DEAL, Phase.GAME_OVER):  # no cards are out between deals
        assert cards_out(state) == []
        assert state.trump_card is None
        assert state.cut_looks == ()
    else:
        out = cards_out(state)
        assert len(out) == state.rules.pack
        assert set(out) == set(pack_cards(state.rules.pack))

    if phase is Phase.CUT:  # R12-R14: hands hold the Criticals taken so far
        assert state.trump_card is None
        assert state.current_player is not None
        seat, card, taken, _ = state.cut_looks[-1]
        assert not taken
        assert card.is_critical
        assert state.stock[-1] is card  # the card looked at is the bottom card
        assert seat == state.current_player
        taken_cards = [(s, c) for s, c, t, _ in state.cut_looks if t]
        assert all(t for _, _, t, _ in state.cut_looks[:-1])
        for s in range(n):
            assert sorted(state.hands[s]) == sorted(c for t, c in taken_cards if t == s)
            assert all(c.is_critical for c in state.hands[s])

    if phase in (Phase.EXCHANGE, Phase.PLAY):
        active = [s for s in range(n) if not state.folded[s]]
        assert len(active) >= 2  # R22
        assert not state.folded[state.dealer]  # R21.5
        assert state.current_player is not None
        assert not state.folded[state.current_player]
        in_trick = {s for s, _ in state.trick}
        for s in range(n):
            if phase is Phase.EXCHANGE or state.folded[s]:
                expected = 5  # after the deal everybody holds 5 until the first card
            else:
                expected = 5 - len(state.tricks) - (s in in_trick)  # one card per trick
            assert len(state.hands[s]) == expected, (s, state.hands[s])
            if state.folded[s]:
                assert state.exchanged[s] is None
                assert state.discards[s] == ()
            elif state.exchanged[s] is not None:
                assert state.exchanged[s] == len(state.discards[s])
        if state.trump_card_taken:  # R19: the dealer holds it or has played it
            played = [c for t in state.tricks for s, c in t.plays if s == state.dealer]
            played += [c for s, c in state.trick if s == state.dealer]
            assert state.trump_card in (*state.hands[state.dealer], *played)

    if phase is Phase.EXCHANGE:
        decider = state.current_player
        assert decider is not None
        assert (Fold() in legal) == fold_allowed(state, decider)  # R21
        assert state.exchanged[decider] is None

    if phase is Phase.PLAY:
        player = state.current_player
        assert player is not None
        assert player not in {s for s, _ in state.trick}
        assert all(e is not None for s, e in enumerate(state.exchanged) if not state.folded[s])
        trump = state.trump_card
        assert trump is not None
        trick_cards = [c for _, c in state.trick]
        allowed = ref.legal_plays(
            state.hands[player], trick_cards, ref.suit_of(trump), state.rules.must_head
        )
        assert {a.card for a in legal if isinstance(a, PlayCard)} == allowed  # R24-R26
        assert len(legal) == len(allowed)

    if state.is_terminal:  # R34
        assert state.winners
        assert state.losers
        assert not set(state.winners) & set(state.losers)
    else:
        assert state.winners == () == state.losers


def check_scoring(before: GameState, after: GameState) -> None:
    """R27, R29-R34: the deal just finished was scored by the rule book's amounts."""
    summary = after.last_deal
    assert summary is not None
    rules = before.rules
    assert summary.deal_number == before.deal_number
    assert summary.dealer == before.dealer
    assert summary.folded == before.folded
    assert len(summary.tricks) == 5
    trump = ref.suit_of(summary.trump_card)
    assert summary.trump_suit.letter == trump  # R16
    won = [0] * before.num_players
    active = summary.folded.count(False)
    for trick in summary.tricks:
        cards = [c for _, c in trick.plays]
        assert len(cards) == active
        winner = trick.plays[ref.winning_index(cards, trump)][0]  # R27
        assert trick.winner == winner
        won[winner] += 1
    assert list(summary.tricks_won) == won
    points = ref.deal_points(won, summary.folded, trump, rules)
    scores = ref.post(before.scores, points, rules)
    assert list(after.scores) == scores
    assert list(summary.scores) == scores
    assert [b + p for b, p in zip(before.scores, summary.points, strict=True)] == scores
    assert summary.doubled == (trump == ref.HEARTS and rules.hearts_double)
    winners, losers = ref.result(scores, rules)
    if winners:
        assert after.phase is Phase.GAME_OVER
        assert set(after.winners) == winners
        assert set(after.losers) == losers
        assert after.dealer == before.dealer
    else:
        assert after.phase is Phase.DEAL
        assert after.deal_number == before.deal_number + 1
        assert after.dealer == (before.dealer + 1) % before.num_players  # R4


def check_ritual_and_deal(state: GameState, pack: tuple[Any, ...]) -> None:
    """R12-R15: the cut ritual so far and the dealt cards agree with the shuffled pack."""
    n = state.num_players
    looks = state.cut_looks
    seats = ref.ritual_looks(pack, n, state.dealer, state.rules.schleck)
    assert [s for s, _, _, _ in looks] == seats[: len(looks)]
    for i, (_, card, taken, critical) in enumerate(looks):
        assert card is pack[-1 - i]  # the cut card, then the cards above it (R11)
        assert critical is card.is_critical
        assert critical or not taken
        if i < len(looks) - 1:
            assert taken  # the ritual goes on only after a card was taken
    if state.phase is Phase.CUT:
        return
    # The ritual is over: everyone who could look has, or the last card stayed (R12).
    if seats:
        assert looks
        assert len(looks) == 3 or not looks[-1][2]
    else:
        assert looks == ()
    taken_by = [[c for s, c, t, _ in looks if t and s == seat] for seat in range(n)]
    rest = pack[: len(pack) - sum(map(len, taken_by))]
    hands, trump, stock = ref.deal(rest, n, state.dealer, taken_by)
    assert state.trump_card is trump
    if state.phase is Phase.EXCHANGE and all(e is None for e in state.exchanged):
        assert [sorted(h) for h in state.hands] == [sorted(h) for h in hands]
        assert list(state.stock) == stock


def check_step(before: GameState, action: Action, after: GameState) -> None:
    """The change from ``before`` to ``after`` made by ``action``."""
    seat = before.current_player
    assert after.num_players == before.num_players
    assert after.rules == before.rules

    # Every phase change is a path of transitions of the `transitions` machine.
    scored = after.last_deal is not before.last_deal
    paths = _PATHS[(before.phase, TRIGGER[type(action)])]
    matching = {p for p in paths if p[-1] is after.phase and (Phase.SCORE in p) == scored}
    assert matching, (before.phase, action, after.phase)

    # Scores change only when a deal is scored, and then by the R29-R33 amounts.
    if scored:
        assert isinstance(action, PlayCard)
        assert len(before.tricks) == 4
        check_scoring(before, after)
    else:
        assert after.scores == before.scores
        assert after.deal_number == before.deal_number
        assert after.dealer == before.dealer

    # Folding: never the dealer, never in the first deal, with Hearts trumps, with
    # min_fold_score points or fewer, or twice in a row (R21).
    if isinstance(action, Fold):
        assert seat is not None
        assert fold_allowed(before, seat)
        assert after.folded[seat]
    if before.phase is Phase.EXCHANGE and after.phase in (Phase.EXCHANGE, Phase.PLAY):
        changed = [s for s in range(before.num_players) if after.folded[s] != before.folded[s]]
        assert changed == ([seat] if isinstance(action, Fold) else [])

    # R18-R20: an exchange discards exactly the named cards and draws from the top.
    if isinstance(action, Exchange):
        assert seat is not None
        assert set(after.discards[seat]) == set(action.discard)
        assert after.exchanged[seat] == len(action.discard)
        drawn = len(action.discard) - action.take_trump_card
        assert after.stock == before.stock[drawn:]
        received = set(before.stock[:drawn])
        if action.take_trump_card:
            assert seat == before.dealer  # R19
            assert after.trump_card_taken
            assert before.trump_card is not None
            received.add(before.trump_card)
        assert set(after.hands[seat]) == (set(before.hands[seat]) - action.discard) | received

    # R24: a played card leaves the hand and joins the trick.
    if isinstance(action, PlayCard):
        assert seat is not None
        assert action.card in before.hands[seat]
        if not scored:
            assert action.card not in after.hands[seat]
            last = after.trick[-1] if after.trick else after.tricks[-1].plays[-1]
            assert last == (seat, action.card)
            if not after.trick:  # the trick is complete: its winner leads next (R24, R27)
                assert after.current_player == after.tricks[-1].winner


# ------------------------------------------------------------ the state machine


class WattenGame(RuleBasedStateMachine):
    """Plays games with drawn players and rules, checking every step."""

    totals: ClassVar[Counter[str]] = Counter()

    def __init__(self) -> None:
        super().__init__()
        self.state = new_game(2)
        self.pack: tuple[Any, ...] = ()
        self.log: list[tuple[int | None, Action]] = []
        self.counts: Counter[str] = Counter()

    def _apply(self, action: Action) -> None:
        before = self.state
        after = before.apply(action)
        if isinstance(action, Shuffle):
            self.pack = action.pack
        self.log.append((before.current_player, action))
        check_step(before, action, after)
        check_state(after)
        if after.phase in (Phase.CUT, Phase.EXCHANGE, Phase.PLAY):
            check_ritual_and_deal(after, self.pack)
        if after.last_deal is not before.last_deal:  # once per deal: the whole history
            assert after.history == tuple(self.log)
        self.counts["steps"] += 1
        self.counts[type(action).__name__] += 1
        if after.is_terminal:
            self.counts["games finished"] += 1
        self.state = after

    @initialize(
        num_players=st.integers(2, 7),
        rules=rules_strategy,
        pack=st.sampled_from([32, 36]),
        dealer=st.integers(0, 6),
    )
    def start(self, num_players: int, rules: Rules, pack: int, dealer: int) -> None:
        # R1: five to seven players need the 36-card pack; two to four play either
        rules = attrs.evolve(rules, pack=36 if num_players > 4 else pack)
        self.state = new_game(num_players, rules=rules, dealer=dealer % num_players)
        assert self.state.scores == (rules.start_score,) * num_players  # R28
        assert self.state.deal_number == 1

    @precondition(lambda self: not self.state.is_terminal)
    @rule(data=st.data())
    def decide(self, data: st.DataObject) -> None:
        """One step: a Hypothesis-drawn legal action, or a shuffle from a drawn seed."""
        state = self.state
        if state.is_chance_node:
            action: Action = state.sample_chance(random.Random(data.draw(seeds, label="seed")))
        else:
            action = data.draw(st.sampled_from(state.legal_actions()), label="action")
        self._apply(action)

    @precondition(lambda self: not self.state.is_terminal)
    @rule(seed=seeds)
    def finish_deal(self, seed: int) -> None:
        """The rest of the current deal (and the next shuffle) with a seeded policy."""
        rng = random.Random(seed)
        deal = self.state.deal_number
        self._apply(policy(self.state, rng))
        while self.state.deal_number == deal and not self.state.is_terminal:
            self._apply(policy(self.state, rng))

    @precondition(
        lambda self: (
            not self.state.is_terminal
            and self.state.num_players <= 4  # R29: with more, +5 for no trick drifts up
            and self.state.rules.start_score <= 8
            and self.state.rules.overshoot is Overshoot.WINS
        )
    )
    @rule(seed=seeds)
    def play_to_game_over(self, seed: int) -> None:
        """A short game ends (R31): someone reaches the goal within MAX_DEALS deals."""
        rng = random.Random(seed)
        first = self.state.deal_number
        while not self.state.is_terminal:
            assert self.state.deal_number - first < MAX_DEALS, "a short game did not end"
            self._apply(policy(self.state, rng))

    @precondition(lambda self: self.state.is_terminal)
    @rule()
    def start_next_game(self) -> None:
        """R5: the next game is dealt first by the winner with the lowest score."""
        old = self.state
        self.state = next_game(old)
        self.log = []
        check_state(self.state)
        n = old.num_players
        low = min(old.scores[w] for w in old.winners)
        first = [s for s in ((old.dealer + 1 + i) % n for i in range(n)) if s in old.winners]
        assert self.state.dealer == next(s for s in first if old.scores[s] == low)
        assert self.state.scores == (old.rules.start_score,) * n
        assert self.state.rules == old.rules

    @invariant()
    def state_is_consistent(self) -> None:
        check_state(self.state)

    def teardown(self) -> None:
        WattenGame.totals.update(self.counts)
        WattenGame.totals["test cases"] += 1
        log = os.environ.get("BW_STEP_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write(f"{self.counts['steps']} {self.counts['games finished']}\n")


# Whole games are the heart of the suite: twice the profile's examples (120 in CI).
WattenGame.TestCase.settings = settings(max_examples=2 * settings().max_examples)
TestWattenGame = pytest.mark.rule(
    "R4", "R5", "R6", "R12", "R15", "R19", "R21", "R22", "R24", "R25", "R27", "R29", "R34"
)(WattenGame.TestCase)
