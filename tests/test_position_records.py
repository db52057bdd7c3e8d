"""Records, documents and samples of games that start at a position or carry past deals."""

from __future__ import annotations

import json
import random

import attrs
import pytest

from bohmisch_watten import (
    FormatError,
    GameRecord,
    GameState,
    Phase,
    Position,
    Rules,
    load_record,
    new_game,
    replay,
)
from bohmisch_watten.deals import PastDeals
from bohmisch_watten.serialization import to_json, view_from_json


def _random_until(state: GameState, rng: random.Random, stop: object) -> GameState:
    while not state.is_terminal and not stop(state):  # type: ignore[operator]
        state = state.apply(
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
    return state


def _mid_play(state: GameState) -> bool:
    return state.phase is Phase.PLAY and len(state.tricks) == 2


@pytest.fixture
def positioned() -> GameState:
    """Two deals into a game started at deal 7 with a fold in the previous deal."""
    start = Position.parse("p4/d2/n7/s9.12.20.8/f0010/must_head:false")
    rng = random.Random(8)
    state = _random_until(GameState.from_position(start), rng, lambda s: s.deal_number == 9)
    return _random_until(state, rng, _mid_play)


def test_record_of_a_positioned_game_round_trips(positioned: GameState) -> None:
    record = positioned.record()
    assert record.start == positioned.start_position
    assert record.past == ()
    assert not record.starts_fresh
    assert replay(record) == positioned
    assert GameRecord.from_json(record.to_json()) == record
    assert load_record(record.to_text()) == record
    assert "start: p4/d2/n7/s9.12.20.8/f0010/must_head:false" in record.to_text()
    assert GameState.from_json(positioned.to_json()) == positioned


def test_sample_records_carry_the_past(positioned: GameState) -> None:
    player = positioned.current_player
    assert player is not None
    view = positioned.view(player)
    sample = view.sample_state(random.Random(1))
    record = sample.record()
    assert record.start == positioned.position == view.position
    assert len(record.past) == 2
    assert record.first_dealer == record.past[0].dealer
    assert replay(record) == sample
    assert GameRecord.from_json(record.to_json()) == record
    text = record.to_text()
    assert text.count("\npast: ") == 2
    assert load_record(text) == record
    assert replay(load_record(text)) == sample
    assert GameState.from_json(sample.to_json()) == sample
    assert view_from_json(to_json(view)) == view


def test_tampered_past_deals_are_rejected(positioned: GameState) -> None:
    player = positioned.current_player
    assert player is not None
    record = positioned.view(player).sample_state(random.Random(1)).record()
    first, second = record.past
    cases = [
        (attrs.evolve(first, scores=tuple(s + 1 for s in first.scores)), second),
        (first, attrs.evolve(second, dealer=(second.dealer + 1) % 4)),
        (first, attrs.evolve(second, deal_number=second.deal_number + 1)),
        (first, attrs.evolve(second, tricks_won=(5, 0, 0, 0))),
        (second, first),
    ]
    for past in cases:
        bad = attrs.evolve(record, past=past, first_dealer=past[0].dealer)
        with pytest.raises(FormatError, match="record past"):
            replay(bad)
    with pytest.raises(FormatError, match="first_dealer"):
        attrs.evolve(record, first_dealer=(record.first_dealer + 1) % 4)
    with pytest.raises(FormatError, match="DealSummary"):
        attrs.evolve(record, past=(1,))
    with pytest.raises(FormatError, match="DealSummary"):
        attrs.evolve(record, past=5)
    with pytest.raises(FormatError, match="setup"):
        attrs.evolve(record, start=Position.start(3))
    with pytest.raises(FormatError, match="Position"):
        attrs.evolve(record, start="p4")


def test_a_finished_game_seen_from_its_last_position() -> None:
    state = _random_until(
        new_game(2, rules=Rules(start_score=4)), random.Random(3), lambda s: False
    )
    assert state.is_terminal
    sample = state.view(1).sample_state(random.Random(0))
    assert sample.is_terminal
    assert sample.view(1) == state.view(1)
    assert replay(sample.record()) == sample
    with pytest.raises(FormatError, match="end the game"):
        replay(GameRecord(2, state.rules, state.position.dealer, (), start=state.position))


def test_text_records_with_bad_start_or_past_lines() -> None:
    head = (
        "format: bohmisch_watten.record\nversion: 1\nplayers: 2\nfirst_dealer: 0\nrules: default\n"
    )
    with pytest.raises(FormatError, match="line 6"):
        load_record(head + "start: p2/d0\n")
    with pytest.raises(FormatError, match="line 7"):
        load_record(head + "start: p2/d0/n2/s20.20/f00/default\npast: {\n")
    with pytest.raises(FormatError, match="line 7"):
        load_record(head + "start: p2/d0/n2/s20.20/f00/default\npast: " + "[" * 20 + "\n")
    with pytest.raises(FormatError, match="line 7"):
        load_record(head + "start: p2/d0/n2/s20.20/f00/default\npast: {}\n")
    with pytest.raises(FormatError, match="players"):
        load_record(
            head.replace("players: 2", "players: 7") + "start: p2/d0/n1/s20.20/f00/default\n"
        )
    record = load_record(head + "start: p2/d0/n3/s20.20/f00/default\n")
    assert record.start.deal_number == 3
    assert replay(record).deal_number == 3
    document = json.loads(record.to_json())
    assert document["start"] == "p2/d0/n3/s20.20/f00/default"
    assert document["past"] == []


def test_fresh_records_are_written_as_before() -> None:
    record = new_game(3).record()
    assert record.starts_fresh
    assert "start" not in json.loads(record.to_json())
    assert "start:" not in record.to_text()


def test_view_document_of_the_first_deal_after_a_position() -> None:
    start = Position.parse("p4/d2/n7/s9.12.20.8/f0010/default")
    state = _random_until(GameState.from_position(start), random.Random(2), _mid_play)
    assert state.deal_number == 7
    player = state.current_player
    assert player is not None
    view = state.view(player)
    assert view.last_deal is None
    assert view.position == start  # the fold of the previous deal comes from the position
    document = json.loads(to_json(view))
    assert document["view"]["position"] == str(start)
    assert view_from_json(json.dumps(document)) == view
    document["view"]["position"] = "p4/d2/n7/s9.12.20.9/f0010/default"
    with pytest.raises(FormatError, match="no game gives this view"):
        view_from_json(json.dumps(document))


@pytest.mark.rule("R11", "R13", "R23")
def test_public_history_is_the_deal_as_the_seat_saw_it() -> None:
    from bohmisch_watten import Exchange, Shuffle

    rng = random.Random(6)
    for seed in range(6):
        state = new_game(3, dealer=seed % 3)
        for _ in range(rng.randrange(1, 60)):
            if state.is_terminal:
                break
            state = state.apply(
                state.sample_chance(rng)
                if state.is_chance_node
                else rng.choice(state.legal_actions())
            )
        history = state.history
        starts = [i for i, (_, a) in enumerate(history) if isinstance(a, Shuffle)]
        deal = history[starts[-1] :] if starts and not state.is_chance_node else ()
        for player in range(3):
            expected = []
            for seat, action in deal:
                if isinstance(action, Shuffle):
                    expected.append((None, None))
                elif isinstance(action, Exchange) and seat != player:
                    expected.append((seat, None))
                else:
                    expected.append((seat, action))
            assert state.view(player).public_history() == tuple(expected)


def test_past_deals_that_do_not_fit_together_are_named() -> None:
    from bohmisch_watten.records import past_problem

    rng = random.Random(9)
    state = _random_until(new_game(3), rng, lambda s: s.deal_number == 4 and s.is_chance_node)
    deals = tuple(state.past_deals)
    position = state.position
    assert past_problem(state.past_deals, position, Phase.DEAL) is None
    skipped = (deals[0], deals[2])
    assert "follows deal" in str(past_problem(PastDeals(skipped), position, Phase.DEAL))
    wrong = (deals[0], attrs.evolve(deals[1], dealer=(deals[1].dealer + 1) % 3), deals[2])
    assert "R4" in str(past_problem(PastDeals(wrong), position, Phase.DEAL))
    short = (attrs.evolve(deals[0], scores=(1, 2)),)
    assert "3-player" in str(past_problem(PastDeals(short), position, Phase.DEAL))
    moved = attrs.evolve(position, deal_number=position.deal_number + 1)
    assert "does not follow" in str(past_problem(state.past_deals, moved, Phase.DEAL))
    assert "end" in str(past_problem(state.past_deals, position, Phase.GAME_OVER))
