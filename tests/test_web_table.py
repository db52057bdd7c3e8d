"""The web table's game logic without the web: seats, turns, bots, frames, leaks."""

from __future__ import annotations

import json
import random
import secrets
from typing import Any

import attrs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bohmisch_watten import (
    FormatError,
    GameState,
    IllegalActionError,
    LeaveCritical,
    Phase,
    PlayCard,
    Rules,
    TakeCritical,
    load_record,
    parse_action,
    replay,
)
from bohmisch_watten.events import describe
from bohmisch_watten.rules import rules_from_text
from bohmisch_watten.web import Table, TableError
from bohmisch_watten.web._frames import encode
from bohmisch_watten.web._i18n import LANGUAGES
from bohmisch_watten.web._narrate import narrate, narrate_events
from bohmisch_watten.web._public import SPECTATOR, public_events
from bohmisch_watten.web._story import KEPT, RECENT

from game_strategies import policy
from knowledge import cards_in, known_cards

PACK36 = Rules(pack=36)


def drive(table: Table, rng: random.Random, steps: int) -> None:
    """Play ``steps`` moves: chance and bots by the table, people by the random policy."""
    for _ in range(steps):
        if table.state.is_terminal:
            return
        if table.needs_auto:
            table.step()
        else:
            seat = table.state.current_player
            assert seat is not None
            table.act(seat, str(policy(table.state, rng)))


def to_human(table: Table) -> None:
    while table.needs_auto:
        table.step()


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="players"):
        Table(players=5)
    with pytest.raises(ValueError, match="humans must be from 1 to 7"):
        Table(players=7, humans=8, rules=PACK36)
    with pytest.raises(ValueError, match="humans"):
        Table(players=3, humans=0)
    with pytest.raises(ValueError, match="bots: need 3"):
        Table(players=4, bots=["random"])
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        Table(players=2, bots=["clever"])
    with pytest.raises(TypeError, match="players"):
        Table(players="4")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="humans"):
        Table(humans=True)
    with pytest.raises(ValueError, match="dealer must be a seat from 0 to 2"):
        Table(players=3, dealer=3)
    with pytest.raises(TypeError, match="dealer"):
        Table(dealer="1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules"):
        Table(rules="default")  # type: ignore[arg-type]


@pytest.mark.rule("R1")
@pytest.mark.parametrize("players", [1, 5, 8])
def test_the_pack_sets_the_most_seats(players: int) -> None:
    """Up to four seats with the 32-card pack, seven with the 36-card pack (R1): the
    refusal names the rule and, at the 32-card pack, the pack that seats more."""
    if players == 5:
        Table(players=5, rules=PACK36, bots=["random"] * 4)  # seated
        message = r"2 to 4 with the 32-card pack \(R1\) \(the 36-card pack, rules pack=36, seats"
        with pytest.raises(ValueError, match=message):
            Table(players=players)
        return
    with pytest.raises(ValueError, match=r"players must be 2 to 4 with the 32-card pack \(R1\)"):
        Table(players=players)
    with pytest.raises(ValueError, match=r"must be 2 to 7 with the 36-card pack \(R1\), got"):
        Table(players=players, rules=PACK36)


@pytest.mark.rule("R15", "R19", "R20")
def test_seven_seats_exchange_nothing_but_the_dealers_trump_card() -> None:
    """With seven players the stock is empty (R15): the exchange frame offers no card to
    give (R20), the dealer one for the trump card (R19); a person who tries anyway is
    refused naming R20 and the table goes on."""
    table = Table(players=7, humans=7, seed=5, rules=PACK36, dealer=6)
    to_human(table)
    while table.state.phase is Phase.CUT:
        table.act(table.state.current_player or 0, "leave")
    assert table.state.phase is Phase.EXCHANGE
    seat = table.state.current_player
    assert seat is not None
    assert seat != 6
    assert table.frame(seat)["exchange"] == {"max": 0, "max_with_trump": None, "can_fold": False}
    with pytest.raises(IllegalActionError, match="R20: the stock holds only 0 cards"):
        table.act(seat, f"exchange {table.state.hands[seat][0]}")
    while table.state.current_player != 6:
        table.act(table.state.current_player or 0, "exchange")
    assert table.frame(6)["exchange"] == {"max": 0, "max_with_trump": 1, "can_fold": False}
    give = table.state.hands[6][0]
    table.act(6, f"exchange {give} +trump")
    assert table.state.phase is Phase.PLAY
    assert give not in table.state.hands[6]
    assert any(line.startswith("You play and exchange") for line in table.logs[6])


def test_seats_tokens_and_default_bots() -> None:
    table = Table(players=4, humans=2, seed=1)
    assert [s.kind for s in table.seats] == ["human", "human", "search", "heuristic"]
    assert table.human_seats == (0, 1)
    tokens = [s.token for s in table.seats]
    assert tokens[2:] == [None, None]
    assert all(len(t) >= 20 for t in tokens[:2] if t)
    assert tokens[0] != tokens[1]
    assert table.seat_of(tokens[1]) == 1
    assert table.seat_of("nope") is None
    assert table.seat_of(None) is None
    assert Table(players=4, humans=2, seed=1).seats[0].token != tokens[0]  # random, not seeded
    assert table.names_for(1)[1] == "You"
    assert table.names_for(0)[2] == "Seat 2 (search bot)"
    assert [s.kind for s in Table(players=2).seats] == ["human", "search"]


def test_moves_are_checked_and_refusals_change_nothing() -> None:
    table = Table(players=4, humans=2, seed=5, rules=Rules())
    to_human(table)
    seat = table.state.current_player
    assert seat in (0, 1)
    other = 1 - seat
    before = table.state
    with pytest.raises(TableError, match="not your turn"):
        table.act(other, "fold")
    with pytest.raises(TableError, match="at most"):
        table.act(seat, "x" * 100)
    with pytest.raises(TableError, match="short text"):
        table.act(seat, 42)
    with pytest.raises(FormatError):
        table.act(seat, "dance")
    with pytest.raises(IllegalActionError, match=r"^R21\.1"):
        table.act(seat, "fold")  # nobody may fold in the first deal
    with pytest.raises(TableError, match="no automatic move"):
        table.step()
    with pytest.raises(TableError, match="not your turn"):
        table.hint(other)
    assert table.state is before
    hint = table.hint(seat)
    assert table.hint(seat) is hint  # asked again: the same answer, not a new search
    table.act(seat, hint)
    assert table.state is not before


def test_a_game_under_way_ends_early_only_if_every_person_asks() -> None:
    table = Table(players=3, humans=2, seed=2)
    to_human(table)
    before, version = table.state, table.version
    with pytest.raises(TableError, match="every person asks.*waiting for Seat 1"):
        table.new_game(0)  # the host alone may not throw the deal away
    assert (table.state, table.version, table.game_number) == (before, version, 1)
    with pytest.raises(TableError, match="people at the table"):
        table.new_game(2)  # the bot's seat has no say
    table.new_game(1)  # the last person agrees: the new game begins
    assert table.game_number == 2
    assert table.state.dealer == 0
    assert table.state.deal_number == 1
    assert table.state.is_chance_node
    assert table.logs[1][-1] == "Game 2 begins."
    to_human(table)
    with pytest.raises(TableError, match="waiting for Seat 0$"):
        table.new_game(1)  # the wishes of the game before were for that game only


def test_alone_at_a_table_a_person_restarts_at_will_and_after_the_end_the_host() -> None:
    alone = Table(players=2, humans=1, seed=3)
    to_human(alone)
    alone.new_game(0)
    assert alone.game_number == 2
    finished = Table(players=2, humans=2, seed=11, rules=Rules(start_score=3))
    drive(finished, random.Random(0), 5000)
    assert finished.state.is_terminal
    with pytest.raises(TableError, match="host"):
        finished.new_game(1)
    finished.new_game(0)
    assert finished.game_number == 2


def test_a_table_journal_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bohmisch_watten.web.table.MAX_JOURNAL", 40)
    table = Table(players=2, humans=1, seed=5)
    while True:
        to_human(table)
        if table.version >= 40:
            break
        table.new_game(0)  # alone at the table: at will, until the journal is full
    with pytest.raises(TableError, match="played its fill"):
        table.new_game(0)
    assert table.version <= 41  # a shuffle may follow the last new game


def test_unseeded_tables_shuffle_from_the_operating_systems_csprng() -> None:
    assert isinstance(Table(players=2).rng, secrets.SystemRandom)
    restored = Table.restore(
        Table(players=2).seats, str(Table(players=2).start.position), ["!new_game"]
    )
    assert isinstance(restored.rng, secrets.SystemRandom)
    seeded = Table(players=2, seed=4)
    assert type(seeded.rng) is random.Random  # --seed, tests and the arena replay
    to_human(seeded)
    again = Table(players=2, seed=4)
    to_human(again)
    assert again.state.hands == seeded.state.hands


@pytest.mark.rule("R5")
def test_a_whole_game_the_record_and_the_next_game() -> None:
    table = Table(players=2, humans=1, seed=11, rules=Rules(start_score=3))
    rng = random.Random(0)
    drive(table, rng, 5000)
    state = table.state
    assert state.is_terminal
    text = table.record_text()
    assert text is not None
    assert replay(load_record(text)) == state
    frame = table.frame(0)
    assert frame["text"] == str(state.view(0))
    assert frame["game_over"] is True
    assert frame["view"]["winners"] == list(state.winners)
    assert any(line.startswith("Game over. Winners:") for line in frame["log"])
    with pytest.raises(TableError, match="game is over"):
        table.act(0, "fold")
    table.new_game(0)
    assert table.record_text() is None
    assert table.state.dealer == min(state.winners, key=lambda s: state.scores[s])


def test_frames_offer_the_cut_and_the_exchange() -> None:
    """Find a deal where a Critical is offered to a person, then check the frame's help."""
    for seed in range(200):
        table = Table(players=2, humans=2, seed=seed)
        to_human(table)
        if table.state.phase is Phase.CUT:
            break
    else:  # pragma: no cover - a Critical is cut in about one deal of ten
        pytest.fail("no Critical offered in 200 deals")
    seat = table.state.current_player
    assert seat is not None
    frame = table.frame(seat)
    assert frame["your_turn"] is True
    assert frame["offer"] == str(table.state.cut_looks[-1].card)
    other = table.frame(1 - seat)
    assert other["offer"] is None
    assert frame["offer"] not in cards_in(json.dumps(other))  # R13: only the looker knows
    table.act(seat, "leave")
    assert any("leave" in line and frame["offer"] in line for line in table.logs[seat])
    assert not any(frame["offer"] in line for line in table.logs[1 - seat])
    to_human(table)
    while table.state.phase is Phase.CUT:  # the other seat may be offered the next card
        table.act(table.state.current_player or 0, "take")
    exchange = table.frame(table.state.current_player or 0)["exchange"]
    assert exchange["max"] == 3
    assert exchange["max_with_trump"] is None
    assert exchange["can_fold"] is False


def test_narration_hides_other_exchanges() -> None:
    table = Table(players=4, humans=4, seed=3)
    to_human(table)
    while table.state.phase is not Phase.EXCHANGE:
        table.act(table.state.current_player or 0, "take")
    seat = table.state.current_player
    assert seat is not None
    hand = table.state.hands[seat]
    table.act(seat, f"exchange {hand[0]} {hand[1]}")
    mine = table.logs[seat][-1]
    theirs = table.logs[(seat + 1) % 4][-1]
    assert mine.startswith(f"You play and exchange {hand[0]} {hand[1]}, draw ")
    assert theirs == f"Seat {seat} plays and exchanges 2 cards."


def test_narration_of_the_ritual_names_taken_cards_to_all() -> None:
    for seed in range(300):
        table = Table(players=4, humans=4, seed=seed)
        to_human(table)
        if TakeCritical() in table.state.legal_actions():
            break
    seat = table.state.current_player
    assert seat is not None
    card = str(table.state.cut_looks[-1].card)
    before = table.state
    table.act(seat, "take")
    for observer in range(4):
        names = table.names_for(observer)
        lines = narrate(before, seat, TakeCritical(), table.state, observer, names)
        assert card in lines[0]
        left = narrate(before, seat, LeaveCritical(), before, observer, names)
        assert (card in left[0]) == (observer == seat)


@pytest.mark.rule("R13", "R23")
@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 7),
    pack=st.sampled_from([32, 36]),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 150),
)
@example(players=7, pack=36, seed=2, steps=150)  # seven seats every run
@example(players=5, pack=36, seed=9, steps=90)
def test_frames_carry_only_cards_the_seat_knows(
    players: int, pack: int, seed: int, steps: int
) -> None:
    rules = Rules(start_score=6, pack=36 if players > 4 else pack)
    table = Table(players=players, humans=players, seed=seed, rules=rules)
    drive(table, random.Random(seed), steps)
    for seat in range(players):
        frame = json.dumps(table.frame(seat))
        assert cards_in(frame) <= known_cards(table.state, seat)
        assert {str(c) for c in table.state.hands[seat]} <= cards_in(frame) or (
            table.state.phase is Phase.DEAL or table.state.is_terminal
        )


@settings(max_examples=60, deadline=None)
@given(
    text=st.one_of(st.text(max_size=120), st.sampled_from(["take", "leave", "fold", "exchange"]))
)
def test_any_text_is_a_move_or_a_clean_refusal(text: str) -> None:
    """Whatever a page sends as an action, the table applies a legal move or refuses it
    with one of its three errors; a refusal changes nothing."""
    table = Table(players=3, humans=3, seed=4)
    to_human(table)
    seat = table.state.current_player
    assert seat is not None
    before = table.state
    try:
        table.act(seat, text)
    except (TableError, FormatError, IllegalActionError):
        assert table.state is before
    else:
        assert table.state is not before
        assert before.history != table.state.history


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    players=st.sampled_from([2, 3, 4, 7]),
    rules=st.sampled_from(["", "must_head=false,schleck=none", "start_score=10"]),
)
@example(seed=3, players=7, rules="start_score=10")  # seven seats every run
def test_the_cached_frame_text_is_the_frame_at_every_move(
    seed: int, players: int, rules: str
) -> None:
    """``frame_text`` reuses pieces of earlier moves (past deals, tricks, rules, names):
    at every move, for every seat in turn, it is exactly ``encode(frame(seat))``, across
    new games, a seat handed to a bot and back, and a table restored from its journal."""
    rng = random.Random(seed)
    if players > 4:  # the 36-card pack, bots that play it (R1)
        rules = ",".join(filter(None, ["pack=36", rules]))
    bots = ["random"] * (players - 2) if players > 4 else None
    table = Table(players=players, humans=2, seed=seed, rules=rules_from_text(rules), bots=bots)
    named = attrs.evolve(table.seats[1], display='Zoë \u0000"x"')  # escapes in JSON
    table.seats = (table.seats[0], named, *table.seats[2:])
    checked, handed = 0, False
    for step in range(250):
        if table.state.is_terminal:
            table.new_game(table.host)
        elif step >= 40 and not handed:
            table.hand_to_bot(1, "random")
            handed = True
        elif step >= 90 and not table.seats[1].is_human:
            table.hand_back(1)
        else:
            drive(table, rng, 1)
        for seat in rng.sample(range(players), players):
            assert table.frame_text(seat) == encode(table.frame(seat))
            checked += 1
    again = Table.restore(table.seats, str(table.start.position), table.journal, seed=seed)
    for seat in range(players):
        assert again.frame_text(seat) == encode(table.frame(seat))
    assert checked == 250 * players


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**16), players=st.sampled_from([2, 3, 4]))
def test_logs_told_late_are_the_logs_told_at_once(seed: int, players: int) -> None:
    """A seat's log and events are told when read: a table read after every move and
    one that reads each seat only now and then (or never until the end) show the same
    logs, events and frames, also across new games and a seat handed to a bot."""
    rng, look = random.Random(seed), random.Random(seed + 1)
    eager = Table(players=players, humans=2, seed=seed)
    for step in range(300):
        if eager.state.is_terminal:
            eager.new_game(eager.host)
        elif step == 60:
            eager.hand_to_bot(1, "random")
        elif step == 140 and not eager.seats[1].is_human:
            eager.hand_back(1)
        else:
            drive(eager, rng, 1)
        eager_frames = [eager.frame(seat) for seat in range(players)]
        assert eager.public_frame()["version"] == eager.version
        assert all(f["version"] == eager.version for f in eager_frames)
    lazy = Table.restore(eager.seats, str(eager.start.position), [], seed=seed)
    for entry in eager.journal:
        lazy.replay(entry)
        for seat in range(players):
            if look.random() < 0.2:
                assert lazy.frame(seat)["version"] == lazy.version  # told up to here
    for seat in range(players):
        assert lazy.frame(seat) == eager.frame(seat)
    assert lazy.public_frame() == eager.public_frame()
    assert [list(log) for log in lazy.logs] == [list(log) for log in eager.logs]
    assert lazy.events == eager.events
    assert list(lazy.public_log) == list(eager.public_log)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**16), players=st.sampled_from([2, 3, 4]))
def test_missed_events_are_the_events_described_again(seed: int, players: int) -> None:
    """What a socket that skipped versions is sent (:meth:`Table.missed`, kept from the
    telling of the logs) is what describing each missed entry again gives, for every
    seat and the spectators, from any version, also past the kept ones (R13, R23)."""
    rng = random.Random(seed)
    table = Table(players=players, humans=2, seed=seed)
    for step in range(400):
        if table.state.is_terminal:
            table.new_game(table.host)
        elif step == 50:
            table.hand_to_bot(1, "random")
        elif step == 90:
            table.hand_back(1)
        else:
            drive(table, rng, 1)
        if rng.random() < 0.1:
            for seat in (*range(players), None):
                since = rng.randrange(table.version + 1)
                assert table.missed(seat, since) == table.described(seat, since)
    assert table.version > RECENT  # the oldest entries are described again
    for seat in (*range(players), None):
        for since in (0, table.version - RECENT - 1, table.version - RECENT, table.version):
            missed = table.missed(seat, since)
            assert missed == table.described(seat, since)
            assert len(missed) == table.version - since


def test_encode_writes_what_json_dumps_writes() -> None:
    """A frame's text is ``json.dumps`` with compact separators, whatever the fields
    (the encoder made once writes what ``json.dumps`` makes afresh)."""
    rng = random.Random(3)
    table = Table(players=3, humans=2, seed=3)
    table.seats = (attrs.evolve(table.seats[0], display='Zoë "Z" \\ \u2603'), *table.seats[1:])
    odd: list[Any] = [
        "",
        "ü\n\t\"'\\\u2028",
        1.5,
        -0.0,
        float("inf"),
        2**70,
        None,
        True,
        {1: "a", None: [], "x": {"y": [1, 2.25, "z"]}},
        [[], {}, ""],
    ]
    for value in odd:
        assert encode(value) == json.dumps(value, separators=(",", ":"))
    for _ in range(150):
        drive(table, rng, 1)
        for seat in range(3):
            assert encode(table.frame(seat)) == json.dumps(table.frame(seat), separators=(",", ":"))
        public = table.public_frame()
        assert encode(public) == json.dumps(public, separators=(",", ":"))
    with pytest.raises(TypeError, match="not JSON serializable"):
        encode({"a": object()})


def _long_table(seed: int, entries: int, players: int = 3) -> tuple[Table, list[GameState]]:
    """A table driven past ``entries`` journal entries across games, with the state
    after every entry as it was made."""
    rng = random.Random(seed)
    table = Table(players=players, humans=2, seed=seed, rules=rules_from_text("start_score=6"))
    states = [table.state]
    while table.version < entries:
        if table.state.is_terminal:
            table.new_game(table.host)
        elif table.version == 300 and table.seats[1].is_human:
            table.hand_to_bot(1, "random")
        elif table.version > 420 and not table.seats[1].is_human:
            table.hand_back(1)
        else:
            drive(table, rng, 1)
        while len(states) <= table.version:
            states.append(table.state)
    return table, states


def test_a_long_table_keeps_a_bounded_story_and_trail() -> None:
    """Many games at one table: the story and the trail keep the last entries only,
    yet every state and every missed entry is still given exactly (older ones replayed
    from the start and the journal)."""
    table, states = _long_table(5, 2 * KEPT + 300)
    table.frame(0)  # seat 0 is told everything; seat 2 (a bot) and spectators nothing
    assert len(table.story._entries) <= KEPT + 256
    assert len(table.trail(table.version - KEPT)) == KEPT
    for version in (0, 1, 17, KEPT, table.version - KEPT - 1, table.version - 3, table.version):
        assert (
            table.state_at(version) is states[version]
            or table.state_at(version) == (states[version])
        )
    replayed = table.trail(0)  # past the kept entries: replayed, the same states
    assert [after for _, _, after in replayed] == states[1:]
    for seat in (0, 2, None):
        for since in (0, table.version - KEPT - 10, table.version - RECENT - 1):
            assert table.missed(seat, since) == table.described(seat, since)
    with pytest.raises(ValueError, match="version must be from 0"):
        table.state_at(table.version + 1)


def test_observers_told_after_the_dropped_entries_show_what_they_would_have() -> None:
    """A bot's seat and the spectators, never read while hundreds of entries were
    dropped, show the same logs, events and frames as a table that told them at once
    (the kept entries hold enough lines, events and a move)."""
    eager, _ = _long_table(8, 3 * KEPT)
    lazy = Table.restore(eager.seats, str(eager.start.position), [], seed=8)
    for number, entry in enumerate(eager.journal):
        lazy.replay(entry)
        if number % 500 == 0:
            lazy.frame(0)  # seat 0 now and then; the others only at the end
    assert lazy.story._first > 0  # entries were dropped before seat 2 was ever told
    for seat in range(len(eager.seats)):
        assert lazy.frame(seat) == eager.frame(seat)
    assert lazy.public_frame() == eager.public_frame()
    assert [list(log) for log in lazy.logs] == [list(log) for log in eager.logs]
    assert list(lazy.public_log) == list(eager.public_log)


def test_a_card_played_is_a_line_for_every_observer() -> None:
    """What the story counts on to drop entries: every card played is told to every
    seat and to the spectators as a line, in every language."""
    table, _ = _long_table(11, 400, players=4)
    checked = 0
    for before, action, after in table.trail(0):
        if not isinstance(action, PlayCard):
            continue
        names = [f"P{s}" for s in range(4)]
        for observer in (*range(4), SPECTATOR):
            for lang in LANGUAGES:
                if observer == SPECTATOR:
                    events = public_events(describe(before, action, after, 0))
                else:
                    events = describe(before, action, after, observer)
                assert narrate_events(events, before, observer, names, lang=lang)
                checked += 1
    assert checked > 1000


@pytest.mark.rule("R1", "R6")
def test_a_seven_seat_table_with_the_default_bots_gives_hints_and_a_review() -> None:
    """The default bots (a search bot first), the hint button (the expert) and the
    review after the game (the expert as judge) work at a seven-seat 36-card table."""
    rules = Rules(pack=36, start_score=3, plus_fifty=True)
    table = Table(players=7, humans=1, seed=4, rules=rules)
    assert table.seats[1].kind == "search"
    rng = random.Random(4)
    hints = 0
    while not table.state.is_terminal:
        if table.needs_auto:
            table.step()
            continue
        hint = table.hint(0)
        assert parse_action(hint) in table.state.legal_actions()
        hints += 1
        table.act(0, hint if hints % 2 else str(rng.choice(table.state.legal_actions())))
    assert hints >= 5
    review = table.review()
    assert review is not None
    assert review["players"] == 7
    assert review["decisions"]
