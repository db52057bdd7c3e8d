"""Every rule with behaviour has a marked test, and ``pytest --rule`` runs exactly those."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import rule_selection
from rule_selection import selects
from rulebook import ROOT, RULE_ID, rule_items, unknown_rule_ids

TESTS = Path(__file__).resolve().parent

WITHOUT_BEHAVIOUR = {
    "R35": "bookkeeping only: the engine is the scribe, nothing to decide or check",
}
"""Rules of the rule book that no code can break, with the reason; every other rule
must be named by at least one ``@pytest.mark.rule`` marker."""

NO_SUCH_RULE = f"R{len(rule_items()) + 1}"  # spelled out it would be a dead reference

_MARKER = re.compile(r"mark\.rule\(([^)]*)\)")


def marked_rules(source: str) -> list[str]:
    """The rule IDs named by ``pytest.mark.rule(...)`` markers in a test module's source."""
    return [m.group(0) for args in _MARKER.findall(source) for m in RULE_ID.finditer(args)]


def all_marked_rules() -> set[str]:
    found: set[str] = set()
    for path in sorted(TESTS.rglob("*.py")):
        found |= set(marked_rules(path.read_text(encoding="utf-8")))
    return found


def test_every_rule_with_behaviour_has_a_marked_test() -> None:
    assert set(WITHOUT_BEHAVIOUR) <= set(rule_items())
    marked = {rule.split(".")[0] for rule in all_marked_rules()}
    missing = sorted(set(rule_items()) - set(WITHOUT_BEHAVIOUR) - marked, key=lambda r: int(r[1:]))
    assert missing == [], "rules without a @pytest.mark.rule test"


def test_every_rule_item_the_library_cites_has_a_marked_test() -> None:
    """``R21.3: seat 1 may not fold …``: ``pytest --rule R21.3`` finds the tests of it."""
    source = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "src").rglob("*.py"))
    cited = {m.group(0) for m in RULE_ID.finditer(source) if m.group(2)}
    assert {"R21.1", "R25.1"} <= cited
    assert sorted(cited - all_marked_rules()) == []


def test_every_marker_names_a_rule_of_the_rule_book() -> None:
    unknown = sorted(r for r in all_marked_rules() if list(unknown_rule_ids(r)))
    assert unknown == []


def test_the_marker_scan_reads_every_form() -> None:
    source = (
        '@pytest.mark.rule("R13", "R23")\n'
        'pytestmark = pytest.mark.rule("R1")\n'
        'pytest.param(1, marks=pytest.mark.rule("R25.1"))\n'
    )
    assert marked_rules(source) == ["R13", "R23", "R1", "R25.1"]


@pytest.mark.parametrize(
    ("wanted", "marked", "selected"),
    [
        ("R25", "R25", True),
        ("R25", "R25.1", True),
        ("R25.1", "R25", True),
        ("R25.1", "R25.1", True),
        ("R25.1", "R25.2", False),
        ("R2", "R25", False),
        ("R25", "R2", False),
    ],
)
def test_selection_by_prefix(wanted: str, marked: str, selected: bool) -> None:
    assert selects(wanted, marked) is selected


_MODULE = """
import pytest

@pytest.mark.rule("R25")
def test_follow(): pass

@pytest.mark.rule("R25.1")
def test_heading(): pass

@pytest.mark.rule("R2", "R27")
def test_winner(): pass

def test_unmarked(): pass

pytestmark = []

class TestGroup:
    pytestmark = [pytest.mark.rule("R21")]

    def test_fold(self): pass
"""


class _Recorder:
    """A plugin for a nested pytest run: records the names of the tests it selected."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.names = sorted(item.name for item in session.items)


def collect(tmp_path: Path, *options: str) -> list[str]:
    """Collect a throwaway module in a nested pytest run with the --rule plugin."""
    module = tmp_path / "test_module.py"
    module.write_text(_MODULE, encoding="utf-8")
    recorder = _Recorder()
    args = ["--collect-only", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path)]
    code = pytest.main([*args, *options, str(module)], plugins=[rule_selection, recorder])
    assert code == pytest.ExitCode.OK
    return recorder.names


def test_rule_option_selects_by_marker(tmp_path: Path) -> None:
    assert len(collect(tmp_path)) == 5
    assert collect(tmp_path, "--rule", "R25") == ["test_follow", "test_heading"]
    assert collect(tmp_path, "--rule", "R25.1") == ["test_follow", "test_heading"]
    assert collect(tmp_path, "--rule", "R27", "--rule", "R21") == ["test_fold", "test_winner"]


@pytest.mark.parametrize(
    ("option", "message"),
    [(NO_SUCH_RULE, f"RULES.md has no rule {NO_SUCH_RULE}"), ("25", "a rule ID looks like R25")],
)
def test_rule_option_refuses_what_is_not_a_rule(option: str, message: str) -> None:
    with pytest.raises(pytest.UsageError, match=message):
        rule_selection.check_options([option])


def test_rule_option_is_wired_into_the_test_suite() -> None:
    options = ["-p", "no:cacheprovider", "--collect-only", "-q", "--rule", "R5"]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", *options, "tests/test_arguments.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    names = [line for line in result.stdout.splitlines() if "::" in line]
    assert names
    assert all("next_game" in name for name in names), names
    assert "deselected" in result.stdout
