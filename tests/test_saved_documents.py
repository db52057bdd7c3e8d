"""Documents and records written by release 0.1.0 still load (tests/data/release_0_1_*).

They were written before states carried positions and their public record; their view
documents spell a past deal with eight fields and have no ``position``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bohmisch_watten import FormatError, GameRecord, GameState, Phase, load_record, replay
from bohmisch_watten.serialization import view_from_json

DATA = Path(__file__).parent / "data"


def _read(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def test_state_document_loads_and_matches_its_record() -> None:
    state = GameState.from_json(_read("release_0_1_state.json"))
    assert state.deal_number == 3
    assert state.phase is Phase.PLAY
    assert state.record() == GameRecord.from_json(_read("release_0_1_record.json"))
    assert replay(load_record(_read("release_0_1_record.txt"))) == state
    assert len(state.past_deals) == 2


def test_view_documents_load_and_equal_the_views_of_the_game() -> None:
    state = GameState.from_json(_read("release_0_1_state.json"))
    assert state.current_player is not None
    view = view_from_json(_read("release_0_1_view.json"))
    assert view == state.view(state.current_player)
    final = view_from_json(_read("release_0_1_final_view.json"))
    assert final.phase is Phase.GAME_OVER
    assert len(final.past_deals) == final.deal_number
    assert final.last_deal is not None
    assert final.last_deal.scores == final.past_deals[-1].scores == final.scores
    assert final.position.deal_number == final.deal_number + 1


@pytest.mark.parametrize("name", ["release_0_1_view.json", "release_0_1_final_view.json"])
def test_old_view_documents_are_still_checked(name: str) -> None:
    text = _read(name).replace('"scores": [', '"scores": [1, ', 1)
    with pytest.raises(FormatError, match="view"):
        view_from_json(text)
