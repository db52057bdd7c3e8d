"""Importing an adapter without its extra names the extra.

Each case runs in a fresh interpreter whose ``sys.meta_path`` starts with a finder that
refuses the blocked packages, as if they were not installed: the real import system,
no mock of the adapter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

_PROBE = """
import importlib, importlib.abc, json, sys

BLOCKED = set(sys.argv[2].split(","))

class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
try:
    importlib.import_module(sys.argv[1])
except ImportError as error:
    print(json.dumps({"type": type(error).__name__, "message": str(error), "name": error.name,
                      "import_error": isinstance(error, ImportError)}))
else:
    print(json.dumps(None))
"""


def _import_without(module: str, blocked: str) -> dict[str, object] | None:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, module, blocked],
        env=env, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    result: dict[str, object] | None = json.loads(done.stdout)
    return result


@pytest.mark.parametrize(
    ("module", "blocked", "extra", "missing", "named"),
    [
        ("gymnasium", "gymnasium", "gymnasium", "gymnasium", "gymnasium"),
        ("vector", "gymnasium", "gymnasium", "gymnasium", "vector"),
        ("pettingzoo", "pettingzoo", "pettingzoo", "pettingzoo", "pettingzoo"),
        ("openspiel", "pyspiel", "openspiel", "pyspiel", "openspiel"),
        ("fast", "numpy", "gymnasium", "numpy", "fast"),
        ("arrays", "numpy", "gymnasium", "numpy", "arrays"),
        ("gymnasium", "numpy", "gymnasium", "numpy", "fast"),  # the first module needing it
    ],
)
def test_an_adapter_without_its_extra_names_it(
    module: str, blocked: str, extra: str, missing: str, named: str
) -> None:
    error = _import_without(f"bohmisch_watten.adapters.{module}", blocked)
    assert error is not None, f"{module} imported without {blocked}"
    assert error["import_error"] is True
    assert error["message"] == (
        f"bohmisch_watten.adapters.{named} needs the [{extra}] extra ({missing} is missing):"
        f" pip install 'bohmisch-watten[{extra}]'"
    )
    assert error["name"] == missing


def test_the_blocker_blocks_and_the_rest_of_the_package_needs_no_extra() -> None:
    """The check above can fail: with nothing blocked the adapter imports, and the
    package, its bots and the arena import with every extra blocked."""
    assert _import_without("bohmisch_watten.adapters.fast", "nothing_blocked") is None
    every = "numpy,gymnasium,pettingzoo,pyspiel,torch"
    for module in ("bohmisch_watten", "bohmisch_watten.bots", "bohmisch_watten.arena"):
        assert _import_without(module, every) is None
