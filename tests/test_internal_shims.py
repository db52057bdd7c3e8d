"""The modules made internal keep their old import path for a while, with a warning."""

from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize(
    ("old", "new", "name"),
    [("checks", "_checks", "check_int"), ("sampling", "_sampling", "forbidden_mask")],
)
def test_old_module_names_warn_and_forward(old: str, new: str, name: str) -> None:
    shim = importlib.import_module(f"bohmisch_watten.{old}")
    internal = importlib.import_module(f"bohmisch_watten.{new}")
    with pytest.warns(DeprecationWarning, match=f"bohmisch_watten._{old}"):
        value = getattr(shim, name)
    assert value is getattr(internal, name)
    with pytest.raises(AttributeError):
        shim.no_such_name  # noqa: B018
    assert shim.__all__ == []
