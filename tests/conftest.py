"""Shared test configuration: Hypothesis profiles and the tests' import path."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

# The built-in "ci" profile (loaded automatically when CI is set) is derandomized;
# extend it so the whole `make test` stays well under ten minutes.
settings.register_profile(
    "ci",
    parent=settings.get_profile("ci"),
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile("thorough", max_examples=2000, deadline=None)
if "HYPOTHESIS_PROFILE" in os.environ:
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
elif not os.environ.get("CI"):
    settings.load_profile("dev")
