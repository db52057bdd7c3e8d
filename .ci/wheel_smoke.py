"""The package as a user installs it: build, check, install the wheel, run it.

``make wheel-smoke`` (part of ``make test``) runs this with the project's interpreter:

1. ``python -m build`` makes the sdist and, from the sdist, the wheel; ``twine check
   --strict`` checks both; every file of ``src/bohmisch_watten`` under version control
   (code, ``py.typed``, the web assets, the translation catalogs) must be in the wheel,
   and so must the compiled core (``_native*.so``).  The sdist, installed with a C
   compiler that fails (``CC=/bin/false``), gives a pure-Python install and one line
   saying so.
2. The wheel (not an editable install) goes into a fresh venv with no extras, where
   the compiled core runs and plays seeded games exactly as the Python core
   (``BOHMISCH_WATTEN_NATIVE=0``), ``--help``, the demo, ``arena`` with built-in bots,
   ``review`` of a record, ``engine`` answering ``hello`` and ``quit``, and every Python
   block of the README run; ``serve`` and ``arena --plot`` exit 2 with one line naming
   their extra; and importing the package and its command line loads no extra's module.
3. The same wheel with each extra alone: ``[web]`` (``serve`` starts and answers HTTP in
   both languages), ``[plot]`` (``arena --plot`` writes a PNG), ``[gymnasium]``,
   ``[pettingzoo]`` and ``[openspiel]`` (their entry points load and play).

Installs take their versions from ``constraints.txt`` and come from pip's cache after
the first run; the venvs are made without pip (``pip --python`` installs into them), so
the whole check costs a minute or two.  ``--inside KIND`` is the half that runs inside
a venv: it uses only the standard library and the installed package.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "bohmisch_watten"
EXTRAS = ("web", "plot", "gymnasium", "pettingzoo", "openspiel")
EXTRA_MODULES = (
    "babel",
    "starlette",
    "uvicorn",
    "uvloop",
    "websockets",
    "matplotlib",
    "numpy",
    "torch",
    "gymnasium",
    "pettingzoo",
    "pyspiel",
    "open_spiel",
    "ray",
    "psycopg",
)
"""Top-level modules of the extras: none may be loaded by ``import bohmisch_watten``."""

TIMEOUT = 300


class SmokeError(Exception):
    """A check failed; the message says which and shows the output."""


def _run(
    argv: Sequence[str | os.PathLike[str]],
    *,
    cwd: Path,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(arg) for arg in argv],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env=env,
    )


def _expect(
    result: subprocess.CompletedProcess[str], what: str, status: int = 0
) -> subprocess.CompletedProcess[str]:
    if result.returncode != status:
        raise SmokeError(
            f"{what}: exit status {result.returncode}, expected {status}\n"
            f"--- stdout\n{result.stdout[-3000:]}\n--- stderr\n{result.stderr[-3000:]}"
        )
    return result


# ------------------------------------------------------------------ inside a venv


def _clean_env() -> dict[str, str]:
    """The environment without PYTHONPATH: only the installed package may be found."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def _cli(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return _run([sys.executable, "-I", "-m", PACKAGE, *args], cwd=cwd, stdin=stdin)


def _check_imports(kind: str) -> None:
    """The installed package, not the checkout; ``py.typed``; no extra module loaded."""
    import importlib

    package = importlib.import_module(PACKAGE)
    home = Path(package.__file__ or "").resolve().parent
    if Path(sys.prefix).resolve() not in home.parents:
        raise SmokeError(f"{PACKAGE} imported from {home}, not from the venv {sys.prefix}")
    if not (home / "py.typed").is_file():
        raise SmokeError(f"py.typed is missing from the installed package ({home})")
    importlib.import_module(f"{PACKAGE}.commands.cli")
    importlib.import_module(f"{PACKAGE}.bots")
    loaded = sorted({name.partition(".")[0] for name in sys.modules} & set(EXTRA_MODULES))
    if loaded:
        raise SmokeError(f"[{kind}] importing {PACKAGE} and its cli loaded {loaded}")


def _check_missing_extra(args: Sequence[str], extra: str, cwd: Path) -> None:
    result = _expect(_cli(*args, cwd=cwd), f"{' '.join(args)} without [{extra}]", status=2)
    lines = result.stderr.strip().splitlines()
    if len(lines) != 1 or f"bohmisch-watten[{extra}]" not in lines[0]:
        raise SmokeError(
            f"{' '.join(args)} without [{extra}] should print one line naming"
            f" bohmisch-watten[{extra}], printed:\n{result.stderr}"
        )


def _readme_blocks(readme: Path) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", readme.read_text(encoding="utf-8"), re.S | re.M)


_AGREEMENT = """
import hashlib, random, sys
import bohmisch_watten as bw
digest = hashlib.sha256()
for number, (players, pack) in enumerate([(2, 32), (3, 32), (4, 32), (5, 36), (7, 36)] * 4):
    rules = bw.Rules(pack=pack, plus_fifty=players > 4)
    rng = random.Random(number)
    state = bw.new_game(players, rules=rules)
    for _ in range(3000):
        if state.is_terminal:
            break
        action = state.sample_chance(rng) if state.is_chance_node else rng.choice(
            state.legal_actions()
        )
        state = state.apply(action)
        digest.update(repr((state.phase, state.current_player, state.legal_actions(),
                            state.hands, state.scores, state.winners)).encode())
print(bool(bw.native_core), digest.hexdigest())
"""
"""Seeded random games through the public API; prints which core ran and a digest of
every state's phase, seat, legal actions, hands, scores and winners."""


def _check_cores_agree(work: Path) -> None:
    """The wheel's compiled core runs by default and plays exactly as the Python core."""
    version = _expect(_cli("--version", cwd=work), "--version").stdout
    if "compiled core" not in version:
        raise SmokeError(f"--version does not name the compiled core: {version!r}")
    native = _expect(_run([sys.executable, "-I", "-c", _AGREEMENT], cwd=work), "native games")
    reference_env = {**_clean_env(), "BOHMISCH_WATTEN_NATIVE": "0"}
    reference = _run([sys.executable, "-I", "-c", _AGREEMENT], cwd=work, env=reference_env)
    _expect(reference, "the same games on the Python core")
    ran_native, native_digest = native.stdout.split()
    ran_python, python_digest = reference.stdout.split()
    if (ran_native, ran_python) != ("True", "False"):
        raise SmokeError(f"expected the native then the Python core, ran {ran_native, ran_python}")
    if native_digest != python_digest:
        raise SmokeError("the compiled and the Python core played the same games differently")


def _base(work: Path, readme: Path) -> None:
    _check_cores_agree(work)
    _expect(_cli("--help", cwd=work), "--help")
    script = Path(sys.executable).with_name("bohmisch-watten")
    _expect(_run([script, "--help"], cwd=work), "the bohmisch-watten script's --help")
    demo = _expect(_cli("--seed", "1", cwd=work), "the demo")
    if "Game over" not in demo.stdout:
        raise SmokeError(f"the demo printed no result:\n{demo.stdout[-2000:]}")
    records = work / "records"
    arena = _cli(
        "arena",
        "--players=2",
        "--bots=heuristic,random",
        "--games=4",
        "--jobs=1",
        "--quiet",
        f"--records={records}",
        cwd=work,
    )
    _expect(arena, "arena with built-in bots")
    if "heuristic" not in arena.stdout:
        raise SmokeError(f"the arena printed no table:\n{arena.stdout}")
    record = sorted(records.glob("*.txt"))[0]
    _expect(_cli("review", str(record), cwd=work), "review of an arena record")
    hello = json.dumps({"type": "hello", "protocol": 1})
    quit_ = json.dumps({"type": "quit"})
    engine = _expect(
        _cli("engine", "--bot", "random", cwd=work, stdin=f"{hello}\n{quit_}\n"), "engine"
    )
    answer = json.loads(engine.stdout.splitlines()[0])
    if answer.get("type") != "hello":
        raise SmokeError(f"the engine answered hello with {engine.stdout!r}")
    for number, code in enumerate(_readme_blocks(readme), 1):
        _expect(_run([sys.executable, "-I", "-c", code], cwd=work), f"README block {number}")
    _check_missing_extra(["serve"], "web", work)
    _check_missing_extra(["arena", "--plot", str(work / "x.png")], "plot", work)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        body: bytes = response.read()
        if response.status != 200:
            raise SmokeError(f"GET {url}: {response.status}")
        return body.decode("utf-8")


def _web(work: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    argv = [sys.executable, "-I", "-m", PACKAGE, "serve", f"--port={port}"]
    argv += [f"--db={work / 'tables.sqlite'}", "--players=2", "--bots=random", "--seed=1"]
    log = (work / "serve.log").open("w+", encoding="utf-8")
    server = subprocess.Popen(argv, cwd=work, stdout=log, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                english = _get(f"{base}/?lang=en")
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise SmokeError(f"serve did not answer at {base}:\n{log.read()}") from None
                time.sleep(0.2)
        german = _get(f"{base}/?lang=de")
        if english == german or 'lang="de"' not in german:
            raise SmokeError("the lobby is not translated: the German catalog did not load")
        log.seek(0)
        links = re.findall(r"/play/\S+", log.read())
        if not links:
            raise SmokeError("serve printed no seat link")
        page = _get(base + links[0])
        if not re.search(r"<style>[^<]{200}", page) or "{script}" in page:
            raise SmokeError("the table page lacks its style or its script (web assets)")
        tables = json.loads(_get(f"{base}/api/tables"))
        if not tables:
            raise SmokeError("GET /api/tables listed no table")
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def _plot(work: Path) -> None:
    png = work / "arena.png"
    args = ["arena", "--players=2", "--bots=heuristic,random", "--games=2", "--jobs=1"]
    _expect(_cli(*args, "--quiet", f"--plot={png}", cwd=work), "arena --plot")
    if not png.read_bytes().startswith(b"\x89PNG"):
        raise SmokeError("arena --plot wrote no PNG")


_ENTRY_POINTS = {
    "gymnasium": """
import gymnasium, numpy
import bohmisch_watten.adapters.gymnasium
env = gymnasium.make("BohmischWatten-v0", players=3)
observation, info = env.reset(seed=1)
for _ in range(50):
    action = int(numpy.flatnonzero(info["action_mask"])[0])
    observation, reward, terminated, truncated, info = env.step(action)
    if terminated or truncated:
        observation, info = env.reset()
""",
    "pettingzoo": """
import numpy
from bohmisch_watten.adapters.pettingzoo import env as make_env
env = make_env(players=3)
env.reset(seed=1)
for agent in env.agent_iter(max_iter=60):
    observation, reward, terminated, truncated, info = env.last()
    mask = observation["action_mask"]
    env.step(None if terminated or truncated else int(numpy.flatnonzero(mask)[0]))
""",
    "openspiel": """
import random
import pyspiel
import bohmisch_watten.adapters.openspiel
game = pyspiel.load_game("python_bohmisch_watten(players=3,mode=deal)")
state, rng = game.new_initial_state(), random.Random(1)
while not state.is_terminal():
    if state.is_chance_node():
        actions, weights = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(actions, weights)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))
assert len(state.returns()) == 3
""",
}


def inside(kind: str, readme: Path) -> None:
    """The checks of one venv: ``base`` (no extras) or one extra's name."""
    with tempfile.TemporaryDirectory(prefix="smoke-") as folder:
        work = Path(folder)
        _check_imports(kind)
        if kind == "base":
            _base(work, readme)
        elif kind == "web":
            _web(work)
        elif kind == "plot":
            _plot(work)
        else:
            _expect(_run([sys.executable, "-I", "-c", _ENTRY_POINTS[kind]], cwd=work), kind)


# ------------------------------------------------------------------ outside


def _package_files() -> set[str]:
    """The files of the package under version control, as wheel paths."""
    listed = _run(["git", "ls-files", "-z", f"src/{PACKAGE}"], cwd=ROOT)
    if listed.returncode == 0 and listed.stdout:
        names = [name for name in listed.stdout.split("\0") if name]
    else:  # not a git checkout: every file but caches
        names = [
            str(path.relative_to(ROOT))
            for path in (ROOT / "src" / PACKAGE).rglob("*")
            if path.is_file() and "__pycache__" not in path.parts
        ]
    return {name.removeprefix("src/") for name in names}


def _build(dist: Path) -> tuple[Path, Path]:
    python = sys.executable
    _expect(_run([python, "-m", "build", "--outdir", dist, ROOT], cwd=ROOT), "python -m build")
    wheels, sdists = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        raise SmokeError(f"expected one wheel and one sdist in {dist}, got {wheels + sdists}")
    _expect(_run([python, "-m", "twine", "check", "--strict", *wheels, *sdists], cwd=ROOT), "twine")
    with zipfile.ZipFile(wheels[0]) as wheel:
        shipped = set(wheel.namelist())
    missing = sorted(_package_files() - shipped)
    if missing:
        raise SmokeError(f"files of the package missing from the wheel: {missing}")
    if not any(re.fullmatch(rf"{PACKAGE}/_native\.[^/]*\.so", name) for name in shipped):
        raise SmokeError(f"the wheel carries no compiled core ({PACKAGE}/_native.*.so)")
    return wheels[0], sdists[0]


def _venv(folder: Path, wheel: Path, extra: str | None) -> Path:
    """A fresh venv without pip, the wheel (and one extra) installed into it by our pip."""
    _expect(_run([sys.executable, "-m", "venv", "--without-pip", folder], cwd=ROOT), "venv")
    python = folder / "bin" / "python"
    requirement = f"{PACKAGE.replace('_', '-')}[{extra}] @ {wheel.as_uri()}" if extra else wheel
    install = [sys.executable, "-m", "pip", "--python", python, "install", "--quiet"]
    install += ["-c", ROOT / "constraints.txt", requirement]
    _expect(_run(install, cwd=ROOT, env=_clean_env()), f"installing the wheel [{extra or ''}]")
    return python


_FELL_BACK = "bohmisch_watten: no compiled core"
"""The one line setup.py prints when it cannot compile the core."""


def _sdist_without_compiler(folder: Path, sdist: Path) -> None:
    """The sdist on a machine whose C compiler fails: pure Python, and one line says so."""
    _expect(_run([sys.executable, "-m", "venv", "--without-pip", folder], cwd=ROOT), "venv")
    python = folder / "bin" / "python"
    env = {**_clean_env(), "CC": "/bin/false"}
    install = [sys.executable, "-m", "pip", "--python", python, "install", "--verbose"]
    install += ["--no-cache-dir", "-c", ROOT / "constraints.txt", sdist]
    result = _expect(_run(install, cwd=ROOT, env=env), "installing the sdist without a compiler")
    said = [line for line in (result.stdout + result.stderr).splitlines() if _FELL_BACK in line]
    if len(said) != 1:
        raise SmokeError(f"expected one line {_FELL_BACK!r} from the build, got {said}")
    version = _expect(_run([python, "-I", "-m", PACKAGE, "--version"], cwd=folder), "--version")
    if "pure-Python core" not in version.stdout:
        raise SmokeError(f"the compiler-less install does not run Python: {version.stdout!r}")
    demo = _expect(_run([python, "-I", "-m", PACKAGE, "--seed", "1"], cwd=folder), "demo")
    if "Game over" not in demo.stdout:
        raise SmokeError("the compiler-less install's demo printed no result")


def main(argv: Sequence[str] | None = None) -> int:
    """Build, install and check; the status is 1 with the failing check's output."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inside", metavar="KIND", help=argparse.SUPPRESS)
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md", help=argparse.SUPPRESS)
    parser.add_argument(
        "--extras", default=",".join(EXTRAS), help=f"the extras to check (default {EXTRAS})"
    )
    args = parser.parse_args(argv)
    try:
        if args.inside:
            inside(args.inside, args.readme)
            return 0
        started = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="wheel-smoke-") as folder:
            work = Path(folder)
            wheel, sdist = _build(work / "dist")
            print(f"wheel-smoke: built and checked {sdist.name}, {wheel.name}", flush=True)
            begun = time.monotonic()
            _sdist_without_compiler(work / "venv-no-compiler", sdist)
            took = time.monotonic() - begun
            print(f"wheel-smoke: the sdist without a compiler is pure Python ({took:.0f} s)")
            kinds = [None, *(e for e in args.extras.split(",") if e)]
            for extra in kinds:
                begun = time.monotonic()
                python = _venv(work / f"venv-{extra or 'base'}", wheel, extra)
                kind = extra or "base"
                check = [python, "-I", Path(__file__).resolve(), "--inside", kind]
                _expect(_run([*check, "--readme", args.readme], cwd=work), f"checks of {kind}")
                shutil.rmtree(work / f"venv-{kind}")
                took = time.monotonic() - begun
                print(f"wheel-smoke: [{kind}] installed and checked in {took:.0f} s", flush=True)
        print(f"wheel-smoke: passed in {time.monotonic() - started:.0f} s")
    except (SmokeError, subprocess.TimeoutExpired) as error:
        print(f"wheel-smoke: FAILED: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
