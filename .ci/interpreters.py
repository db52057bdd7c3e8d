"""The package on every interpreter it claims: build it, check its core, run core tests.

``make interpreters`` (part of ``make test``) runs this with the project's interpreter.
For each of Python 3.12 and 3.13 (the dev venv is 3.11): a fresh venv, the package
installed from the checkout with ``[web,gymnasium]`` (not editable, so the compiled core is built
by that interpreter's build), pytest and Hypothesis; then ``--version`` must name the compiled
core and the core rule, property and golden tests given on the command line run
against the installed package.  An interpreter that is missing fails the run under CI
(these machines have both) and is reported and passed over elsewhere.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSIONS = ("3.12", "3.13")
NEEDS_TORCH = (
    "tests/test_pack36.py::test_a_policy_of_the_32_card_table_refuses_a_36_card_game_by_name",
)
"""Core tests that need the [train] extra: PyTorch is on these machines for 3.11 only."""


def find_interpreter(version: str) -> str | None:
    """``pythonX.Y`` on PATH (a working one: pyenv's shims may refuse), else pyenv's copy."""
    candidates = [shutil.which(f"python{version}") or ""]
    homes = [os.environ.get("PYENV_ROOT", ""), str(Path.home() / ".pyenv"), "/root/.pyenv"]
    for home in filter(None, homes):
        candidates += sorted(glob.glob(f"{home}/versions/{version}.*/bin/python{version}"))
    for candidate in filter(None, candidates):
        probe = subprocess.run(
            [candidate, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            check=False,
        )
        if probe.returncode == 0 and probe.stdout.strip() == version:
            return candidate
    return None


def _run(argv: Sequence[str | Path], **kwargs: object) -> None:
    print("+", " ".join(str(arg) for arg in argv), flush=True)
    subprocess.run([str(arg) for arg in argv], check=True, **kwargs)  # type: ignore[call-overload]


def check(interpreter: str, version: str, tests: Sequence[str]) -> None:
    """One interpreter: venv, install, ``--version``, the core tests."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.pop("BOHMISCH_WATTEN_NATIVE", None)
    with tempfile.TemporaryDirectory(prefix=f"py{version}-") as folder:
        venv = Path(folder) / "venv"
        _run([interpreter, "-m", "venv", venv], env=env)
        python = venv / "bin" / "python"
        install = [python, "-m", "pip", "install", "--quiet", "-c", ROOT / "constraints.txt"]
        _run([*install, f"{ROOT}[web,gymnasium]", "pytest", "hypothesis"], env=env, cwd=folder)
        said = subprocess.run(
            [python, "-I", "-m", "bohmisch_watten", "--version"],
            capture_output=True,
            text=True,
            check=True,
            cwd=folder,
            env=env,
        ).stdout
        if "compiled core" not in said:
            raise SystemExit(f"Python {version}: the compiled core was not built: {said!r}")
        print(f"interpreters: Python {version}: {said.strip()}", flush=True)
        # From the checkout's root, so that tests/ and its helpers are found; the package
        # itself comes from the venv (src/ is not on the path).
        deselect = [f"--deselect={test}" for test in NEEDS_TORCH]
        pytest = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *deselect, *tests]
        _run(pytest, env=env, cwd=ROOT)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tests", nargs="+", help="the test files to run on each interpreter")
    args = parser.parse_args(argv)
    for version in VERSIONS:
        interpreter = find_interpreter(version)
        if interpreter is None:
            if os.environ.get("CI"):
                print(f"interpreters: Python {version} is missing", file=sys.stderr)
                return 1
            print(f"interpreters: Python {version} not found here; passed over")
            continue
        begun = time.monotonic()
        check(interpreter, version, args.tests)
        took = time.monotonic() - begun
        print(f"interpreters: Python {version} passed in {took:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
