"""The server's scheduled garbage collection: no automatic full collection while it
serves, a full one on its clock (so a cycle is still freed), the process's settings
back when it stops, and the process left alone when not asked."""

from __future__ import annotations

import gc
import time
import weakref
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bohmisch_watten.commands.cli import main
from bohmisch_watten.web._collect import NEVER, ScheduledCollection
from bohmisch_watten.web.backends import open_storage
from bohmisch_watten.web.server import create_server


class _Node:
    """A cycle only the cycle collector frees."""

    def __init__(self) -> None:
        self.me = self


def _old_cycle() -> weakref.ref[_Node]:
    """A garbage cycle already in the oldest generation: young collections skip it."""
    node = _Node()
    gc.collect(1)  # node survives two young collections: it is in the oldest generation
    ref = weakref.ref(node)
    del node
    gc.collect(1)
    return ref


def test_full_collections_run_on_the_clock(tmp_path: Path) -> None:
    before = gc.get_threshold()
    app = create_server(open_storage(str(tmp_path / "t.db")), delay=0, collect_every=0.2)
    with TestClient(app):
        server = app.state.server
        assert gc.get_threshold() == (before[0], before[1], NEVER)
        assert gc.get_freeze_count() > 0
        ref = _old_cycle()
        assert ref() is not None  # no young collection freed it
        deadline = time.monotonic() + 10
        while ref() is not None:
            assert time.monotonic() < deadline, "the scheduled collection never came"
            time.sleep(0.02)
        assert server.collector.collections >= 1
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_an_embedded_server_leaves_the_collector_alone(tmp_path: Path) -> None:
    before = gc.get_threshold()
    app = create_server(open_storage(str(tmp_path / "t.db")), delay=0)
    with TestClient(app):
        assert app.state.server.collector is None
        assert gc.get_threshold() == before
        assert gc.get_freeze_count() == 0


@pytest.mark.parametrize("every", [0, -1.0, float("nan")])
def test_a_bad_clock_is_refused(every: float) -> None:
    with pytest.raises(ValueError, match="collect_every must be a positive number"):
        ScheduledCollection(every)


def test_serve_refuses_a_negative_clock(tmp_path: Path) -> None:
    assert main(["serve", "--db", str(tmp_path / "t.db"), "--collect-every", "-1"]) == 2
