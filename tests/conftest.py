"""Shared test configuration: Hypothesis profiles and the tests' import path."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

# ``pytest --rule R25``: the option and its hooks live in rule_selection.py.
from rule_selection import (  # noqa: F401
    pytest_addoption,
    pytest_collection_modifyitems,
    pytest_configure,
)

sys.path.insert(0, str(Path(__file__).parent))

# Hypothesis profiles.  The built-in "ci" profile (loaded automatically when CI is set)
# is derandomized and has no example database, so CI runs the same examples every time;
# we extend it with a budget that keeps the whole `make test` well under ten minutes.
# "dev" (the default elsewhere) draws fresh examples on every run; "thorough"
# (HYPOTHESIS_PROFILE=thorough) is for long local runs before a release.  Tests that
# need more or fewer examples scale these numbers (see test_state_machine.py).
settings.register_profile(
    "ci",
    parent=settings.get_profile("ci"),
    max_examples=60,
    stateful_step_count=50,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=60, stateful_step_count=50, deadline=None)
settings.register_profile(
    "thorough",
    max_examples=2000,
    stateful_step_count=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
if "HYPOTHESIS_PROFILE" in os.environ:
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
elif not os.environ.get("CI"):
    settings.load_profile("dev")


def pytest_sessionstart(session: object) -> None:
    """Under CI the compiled core must run, unless the run asks for the reference.

    The build falls back to pure Python when it cannot compile (by design, for users);
    a CI run that silently tested only the fallback would prove nothing of the native core.
    """
    import bohmisch_watten

    forced = os.environ.get("BOHMISCH_WATTEN_NATIVE", "").strip() == "0"
    if os.environ.get("CI") and not forced and not bohmisch_watten.native_core:
        raise RuntimeError(
            f"CI runs without the compiled core ({bohmisch_watten.native_core.reason});"
            " build it (make native) or set BOHMISCH_WATTEN_NATIVE=0"
        )
