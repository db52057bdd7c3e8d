"""Deprecations go through one place and end on time.

Old module names live in the package's ``__getattr__``; every deprecation warns through
:func:`bohmisch_watten.errors.warn_deprecated`, which names the release that removes it.
"""

from __future__ import annotations

import importlib
import warnings
from pathlib import Path

import pytest

import bohmisch_watten
from bohmisch_watten import _DEPRECATED_MODULES, __version__
from bohmisch_watten.errors import REMOVED_IN as _REMOVED_IN


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".")[:3])


def test_the_deprecations_are_removed_in_the_release_they_name() -> None:
    """Fails once ``__version__`` reaches the release that removes them: delete them then."""
    assert _release(__version__) < _release(_REMOVED_IN), (
        f"release {__version__} must remove the deprecated names (due in {_REMOVED_IN})"
    )


@pytest.mark.parametrize(("old", "new"), sorted(_DEPRECATED_MODULES.items()))
def test_an_old_module_name_gives_its_new_module_with_a_warning(old: str, new: str) -> None:
    with pytest.warns(DeprecationWarning, match=rf"bohmisch_watten\.{old} .*{_REMOVED_IN}.*{new}"):
        module = getattr(bohmisch_watten, old)
    assert module is importlib.import_module(f"bohmisch_watten.{new}")
    with pytest.raises(ModuleNotFoundError):  # the file is gone: one home per name
        importlib.import_module(f"bohmisch_watten.{old}")


def test_an_unknown_name_is_an_attribute_error_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="no_such_name"):
            bohmisch_watten.no_such_name  # noqa: B018


@pytest.mark.parametrize("module", ["checks", "sampling", "jsonread"])
def test_the_modules_deprecated_in_0_2_0_are_gone(module: str) -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"bohmisch_watten.{module}")


def test_every_deprecation_warns_through_the_one_helper() -> None:
    """No module raises its own DeprecationWarning: one wording, one removal release."""
    package = Path(bohmisch_watten.__file__).resolve().parent
    raising = sorted(
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if "DeprecationWarning," in path.read_text(encoding="utf-8")
    )
    assert raising == ["errors.py"]


def test_the_deprecated_reads_name_the_release_that_removes_them() -> None:
    from bohmisch_watten import new_game
    from bohmisch_watten.serialization import state_from_json

    state = new_game(2)
    with pytest.warns(DeprecationWarning, match=rf"GameState.cut_cards .*{_REMOVED_IN}"):
        assert state.cut_cards == ()
    with pytest.warns(DeprecationWarning, match=rf"PlayerView.cut_cards .*{_REMOVED_IN}"):
        assert state.view(0).cut_cards == ()
    with pytest.warns(DeprecationWarning, match=rf"max_chars=None.*{_REMOVED_IN}"):
        assert state_from_json(state.to_json(), max_chars=None) == state  # type: ignore[arg-type]


OLD_NAMES = {
    "phase": ["Phase"],
    "facts": ["CutEntry", "CutLook", "DealFacts", "DealFields", "DealScore", "GameFields"],
    "summary": ["DealSummary", "PastDeals", "PublicDeal", "Trick"],
    "tables": ["bits", "TRUMP", "FULL_DECK", "CRITICAL_MASK", "TRUMP_MASK", "BEATS", "STRENGTH"],
    "turns": ["check_seat", "seat_may_act", "turn_message"],
    "exchange_options": ["exchange_options"],
    "action_ids": [
        "ACTION_ID_NAMES", "ACTION_TABLE_VERSION", "EXCHANGE_BASE", "EXCHANGE_TRUMP_BASE",
        "FOLD_ID", "LEAVE_ID", "NUM_ACTION_IDS", "PLAY_BASE", "TAKE_ID", "action_to_id",
        "id_to_action", "legal_action_mask",
    ],
    "display": ["render_state", "render_view", "turn_text"],
    "cli": ["BROKEN_PIPE_STATUS", "build_main_parser", "build_parser", "main", "play_and_print"],
}  # fmt: skip
"""The public names of each merged module in release 0.2.0."""


@pytest.mark.parametrize("old", sorted(OLD_NAMES))
def test_every_0_2_0_name_of_a_merged_module_is_still_there(old: str) -> None:
    assert set(OLD_NAMES) == set(_DEPRECATED_MODULES)
    with pytest.warns(DeprecationWarning, match=old):
        module = getattr(bohmisch_watten, old)
    missing = [name for name in OLD_NAMES[old] if not hasattr(module, name)]
    assert missing == []
