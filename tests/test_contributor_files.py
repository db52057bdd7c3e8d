"""The contributor files say what the project really does (CONTRIBUTING, pre-commit, CI).

Read as text (no YAML parser is a dependency), so that a version bump or a new check in
one place and not the other fails here instead of surprising a contributor.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _read(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def _pins() -> dict[str, str]:
    """The exact versions CI tests with (constraints.txt; pyproject.toml states ranges)."""
    lines = [line.split(";")[0].strip() for line in _read("constraints.txt").splitlines()]
    return dict(line.split("==") for line in lines if "==" in line and not line.startswith("#"))


def test_pre_commit_runs_ruff_at_the_pinned_version_and_mypy_strict() -> None:
    config = _read(".pre-commit-config.yaml")
    assert f"rev: v{_pins()['ruff']}" in config
    for hook in ("id: ruff-check", "id: ruff-format", "id: mypy"):
        assert hook in config
    assert "mypy --strict src" in config  # as make typecheck runs it
    assert "mypy --strict src" in _read("Makefile")


def test_ci_runs_the_ci_script_on_every_supported_python() -> None:
    workflow = _read(".github/workflows/ci.yml")
    matrix = re.search(r"python-version: \[(.*?)\]", workflow)
    assert matrix is not None
    versions = [v.strip().strip('"') for v in matrix.group(1).split(",")]
    assert versions == ["3.11", "3.12", "3.13"]
    minimum = tomllib.loads(_read("pyproject.toml"))["project"]["requires-python"]
    assert minimum == f">={versions[0]}"
    assert "run: .ci/run" in workflow
    script = _read(".ci/run")
    assert "make test" in script
    assert "make docs" in script
    assert "apt-get install" in script
    assert "chromium" in script


def test_contributing_names_the_real_commands_and_files() -> None:
    text = _read("CONTRIBUTING.md")
    targets = set(re.findall(r"^([a-z-]+):", _read("Makefile"), flags=re.M))
    for command in re.findall(r"`make ([a-z-]+)", text):
        assert command in targets, f"CONTRIBUTING.md names make {command}"
    for path in re.findall(r"`((?:tests|docs|src|\.ci|\.github)/[\w./-]+)`", text):
        assert (ROOT / path).exists() or (ROOT / "src/bohmisch_watten" / path).exists(), path
    for module in re.findall(r"`(\w+\.py)`", text):
        found = list((ROOT / "src" / "bohmisch_watten").rglob(module)) + list(
            (ROOT / "tests").rglob(module)
        )
        assert found, f"CONTRIBUTING.md names {module}"


def test_the_architecture_page_is_in_the_docs() -> None:
    index = _read("docs/index.md")
    assert re.search(r"^architecture$", index, flags=re.M)
