"""The base install (no extras) runs the command line; a missing extra is one line.

``pip install bohmisch-watten`` brings attrs, transitions and tqdm and nothing else, so
``--help``, the demo, ``arena``, ``review`` and ``engine`` must start without Babel,
Starlette, NumPy …  The tests here run the command line in a fresh interpreter in which
every extra's module refuses to import (as on a base install), and check that importing
the package loads none of them even where they are installed.  ``make wheel-smoke``
(.ci/wheel_smoke.py) checks the same on a real install of the built wheel.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import bohmisch_watten
from bohmisch_watten.commands.cli import main
from bohmisch_watten.commands.serve import EXTRA_HINT

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_RECORD = ROOT / "examples" / "sample_record.txt"


def _wheel_smoke_module() -> ModuleType:
    """``.ci/wheel_smoke.py``, the one list of the extras' modules both checks block."""
    spec = importlib.util.spec_from_file_location("wheel_smoke", ROOT / ".ci" / "wheel_smoke.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXTRA_MODULES: tuple[str, ...] = _wheel_smoke_module().EXTRA_MODULES

BLOCKED = """
import importlib.abc, runpy, sys

class NoExtras(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {extras!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, NoExtras())
sys.argv = ["bohmisch_watten", *{args!r}]
runpy.run_module("bohmisch_watten", run_name="__main__", alter_sys=True)
"""


def without_extras(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m bohmisch_watten ARGS`` where no extra's module can be imported."""
    code = BLOCKED.format(extras=EXTRA_MODULES, args=list(args))
    return subprocess.run(
        [sys.executable, "-c", code],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_importing_the_package_and_its_command_line_loads_no_extra() -> None:
    code = (
        "import sys, bohmisch_watten, bohmisch_watten.commands.cli, bohmisch_watten.bots\n"
        "print(' '.join(sorted({m.partition('.')[0] for m in sys.modules})))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    loaded = set(result.stdout.split())
    assert "bohmisch_watten" in loaded
    assert loaded.isdisjoint(EXTRA_MODULES), sorted(loaded & set(EXTRA_MODULES))


def test_the_blocker_blocks() -> None:
    """The check can fail: serve's module needs the [web] extra, and does not get it."""
    code = BLOCKED.format(extras=EXTRA_MODULES, args=[]).replace(
        "runpy.run_module", "import bohmisch_watten.web.cli  #"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 1
    assert re.search(r"No module named '(babel|uvicorn)'", result.stderr)


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--seed", "1"],
        ["demo", "--seed", "2", "--players", "2"],
        ["arena", "--players=2", "--bots=heuristic,random", "--games=2", "--jobs=1", "--quiet"],
        ["review", str(SAMPLE_RECORD)],
    ],
    ids=["help", "demo", "demo-subcommand", "arena", "review"],
)
def test_each_command_runs_without_the_extras(args: list[str]) -> None:
    result = without_extras(*args)
    assert result.returncode == 0, result.stderr
    assert result.stdout
    assert "Traceback" not in result.stderr


def test_the_engine_runs_without_the_extras() -> None:
    dialogue = '{"type": "hello", "protocol": 1}\n{"type": "quit"}\n'
    result = without_extras("engine", "--bot", "random", stdin=dialogue)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[0])["type"] == "hello"


@pytest.mark.parametrize("args", [["serve"], ["serve", "--port", "0"], ["serve", "--help"]])
def test_serve_without_web_is_one_line_and_status_2(args: list[str]) -> None:
    result = without_extras(*args)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: serve needs the [web] extra (babel is missing): pip install 'bohmisch-watten[web]'"
    ]
    assert result.stdout == ""


def test_arena_plot_without_matplotlib_is_one_line_and_status_2(tmp_path: Path) -> None:
    result = without_extras("arena", "--games=1", "--plot", str(tmp_path / "x.png"))
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1
    assert "pip install 'bohmisch-watten[plot]'" in result.stderr


@pytest.fixture
def no_web(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process as on a base install: the web package unloaded, Babel not importable.

    The modules are put back as they were afterwards, so later tests see the same
    classes.
    """
    saved = {name: module for name, module in sys.modules.items() if _is_web(name)}
    for name in saved:
        monkeypatch.delitem(sys.modules, name)
    for name in [name for name in sys.modules if name.partition(".")[0] == "babel"]:
        monkeypatch.setitem(sys.modules, name, None)  # None: importing it fails
    monkeypatch.setitem(sys.modules, "babel", None)
    monkeypatch.delattr(bohmisch_watten, "web", raising=False)
    yield
    for name in [name for name in sys.modules if _is_web(name)]:
        del sys.modules[name]


def _is_web(name: str) -> bool:
    return name == "bohmisch_watten.web" or name.startswith("bohmisch_watten.web.")


@pytest.mark.usefixtures("no_web")
def test_serve_names_the_extra_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:  # (bad options: no server if this regresses)
        main(["serve", "--max-tables", "0"])
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.err == f"error: serve needs the [web] extra (babel is missing): {EXTRA_HINT}\n"
    assert captured.out == ""


@pytest.mark.usefixtures("no_web")
def test_a_missing_module_of_the_package_itself_keeps_its_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only a third-party module is a missing extra; a missing own module is a bug."""
    monkeypatch.setitem(sys.modules, "bohmisch_watten.web.cli", None)
    with pytest.raises(ModuleNotFoundError, match="bohmisch_watten.web.cli"):
        main(["serve", "--max-tables", "0"])


def test_make_demo_installs_no_extra_and_pins_with_the_constraints() -> None:
    result = subprocess.run(
        ["make", "--no-print-directory", "-n", "-B", "demo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    installs = [line for line in result.stdout.splitlines() if " install " in line]
    package = [line for line in installs if line.endswith(" -e .")]
    assert len(package) == 1, result.stdout
    assert "-c constraints.txt" in package[0]
    assert result.stdout.rstrip().splitlines()[-1].endswith("-m bohmisch_watten --seed 2026")


@pytest.mark.parametrize(
    "args",
    [
        ["--bots", "policy:net.pt", "--players", "2"],
        ["arena", "--bots", "policy:net.pt,random", "--players=2", "--games=1", "--jobs=1"],
        ["engine", "--bot", "policy:net.pt"],
    ],
    ids=["demo", "arena", "engine"],
)
def test_a_bot_whose_extra_is_missing_is_one_line_and_status_2(args: list[str]) -> None:
    result = without_extras(*args, stdin="")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: policy: needs PyTorch, the extra [train]: pip install 'bohmisch-watten[train]'"
    ]


def _install_block(page: Path) -> list[str]:
    """The ``pip install bohmisch-watten…`` lines of a page, in order."""
    text = page.read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.startswith("pip install ")]


def test_the_readme_and_the_installation_page_agree_on_the_install_lines() -> None:
    readme = _install_block(ROOT / "README.md")
    assert readme == _install_block(ROOT / "docs" / "installation.md")
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for_users = set(pyproject["project"]["optional-dependencies"]) - {"dev", "test", "docs"}
    named = [re.findall(r"bohmisch-watten\[(\w+)\]", line) for line in readme]
    assert named[0] == []  # the base install first
    assert sorted(extra for (extra,) in named[1:]) == sorted(for_users)  # one line each


def test_the_extras_state_ranges_and_the_constraints_pin_them() -> None:
    """Ranges in pyproject.toml, exact versions in constraints.txt, and they agree."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.split(";")[0].partition("==")
            pins[name.strip().lower()] = version.strip()
    assert pins["torch"] == "2.13.0"  # any other torch spec downloads a CUDA build
    for extra, requirements in pyproject["project"]["optional-dependencies"].items():
        for requirement in requirements:
            if requirement.startswith("bohmisch-watten["):
                continue
            assert "==" not in requirement, f"[{extra}] pins {requirement}: state a range"
            name = re.split(r"[\[<>=!~; ]", requirement)[0].lower()
            assert name in pins, f"constraints.txt has no version of {name}"
            floor = re.search(r">=([\w.]+)", requirement)
            assert floor is not None, f"[{extra}] {requirement} has no floor"
            assert _version(pins[name]) >= _version(floor.group(1)), requirement
            cap = re.search(r",<([\w.]+)", requirement)
            assert cap is None or _version(pins[name]) < _version(cap.group(1)), requirement


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))
