"""Which core runs: ``bohmisch_watten.native_core``, ``--version`` and the override."""

from __future__ import annotations

import os
import subprocess
import sys

import bohmisch_watten
from bohmisch_watten import _cores

PROBE = "import bohmisch_watten as b; print(bool(b.native_core), b.native_core.name)"


def _run(*args: str, native: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != _cores.ENVIRONMENT_VARIABLE}
    if native is not None:
        env[_cores.ENVIRONMENT_VARIABLE] = native
    result = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, check=True, env=env
    )
    return result.stdout.strip()


def test_the_override_forces_the_python_reference() -> None:
    assert _run("-c", PROBE, native="0") == "False python"
    assert "pure-Python core, forced by BOHMISCH_WATTEN_NATIVE=0" in _run(
        "-m", "bohmisch_watten", "--version", native="0"
    )


def test_without_the_override_the_built_core_runs() -> None:
    built = _cores.NATIVE is not None or os.environ.get(_cores.ENVIRONMENT_VARIABLE) == "0"
    expected = "True native" if built else "False python"
    assert _run("-c", PROBE, native=None) == expected
    version = _run("-m", "bohmisch_watten", "--version", native=None)
    assert version.startswith(f"bohmisch_watten {bohmisch_watten.__version__} (")
    assert ("compiled core" in version) == built


def test_the_info_is_true_exactly_for_the_compiled_core() -> None:
    assert bool(_cores.CoreInfo("native", "compiled core", "/x.so"))
    assert not _cores.CoreInfo("python", "pure-Python core")
    assert bool(bohmisch_watten.native_core) == (_cores.NATIVE is not None)
