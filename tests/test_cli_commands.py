"""The subcommands: the registry, ``--rules`` everywhere, and ``arena`` end to end."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bohmisch_watten import load_record, replay
from bohmisch_watten.commands import COMMANDS, DEFAULT_COMMAND
from bohmisch_watten.commands.cli import build_parser, main


def test_every_subcommand_has_the_registry_interface() -> None:
    assert DEFAULT_COMMAND == "demo"
    assert {"demo", "arena"} <= set(COMMANDS)
    takes = {name for name, module in COMMANDS.items() if module.TAKES_RULES}
    assert takes == {"demo", "arena", "serve"}  # review and engine games bring their rules
    for name, module in COMMANDS.items():
        parser = build_parser(name)
        assert parser.prog.endswith(name)
        assert ("--rules" in parser.format_help()) is module.TAKES_RULES
        assert callable(module.run)
        assert module.DESCRIPTION


def test_rules_option_and_variant_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--rules", "schleck=none,must_head=false", "--seed", "1"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "schleck=none" in first
    assert "must_head=false" in first
    assert main(["--rules", "schleck=none", "--schleck", "cutter_only", "--seed", "1"]) == 0
    assert "schleck=cutter_only" in capsys.readouterr().out.splitlines()[0]
    with pytest.raises(SystemExit):
        main(["arena", "--rules", "schleck=sometimes"])
    assert "schleck" in capsys.readouterr().err


def test_arena_help_documents_every_option() -> None:
    text = build_parser("arena").format_help()
    for option in ("--players", "--bots", "--games", "--seed", "--jobs", "--backend",
                   "--address", "--decision-timeout", "--max-deals", "--records", "--json",
                   "--csv", "--plot", "--quiet", "--rules"):  # fmt: skip
        assert option in text
    actions = [a for a in build_parser("arena")._actions if not isinstance(a, argparse._HelpAction)]
    assert all(a.help for a in actions)


def test_arena_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--players", "3", "--bots", "heuristic,random,random", "--games", "3",
            "--seed", "1", "--jobs", "1", "--rules", "must_head=false", "--quiet",
            "--json", str(tmp_path / "out.json"), "--csv", str(tmp_path / "out.csv"),
            "--plot", str(tmp_path / "out.png"), "--records", str(tmp_path / "games")]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "random#2" in out
    assert "95% CI" in out
    assert "rules: must_head=false" in out
    document = json.loads((tmp_path / "out.json").read_text())
    assert (document["players"], document["games"], document["seed"]) == (3, 3, 1)
    assert document["rules"] == "must_head=false"
    assert len((tmp_path / "out.csv").read_text().splitlines()) == 4
    assert (tmp_path / "out.png").read_bytes()[:4] == b"\x89PNG"
    records = sorted((tmp_path / "games").iterdir())
    assert len(records) == 3
    end = replay(load_record(records[0].read_text()))
    assert end.is_terminal
    assert str(end.rules) == "must_head=false"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "random,random,random"], "4 seats need at least 4 bots"),
        (["--bots", "random,chess,random,random"], "unknown bot"),
    ],
)
def test_arena_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--quiet", "--jobs", "1", *argv]) == 2
    assert message in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["arena", "--games", "0"])
    with pytest.raises(SystemExit):
        main(["arena", "--decision-timeout", "-1"])


def test_missing_extras_are_explained(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "ray", None)
    assert main(["arena", "--plot", "x.png"]) == 2
    assert "[plot]" in capsys.readouterr().err
    assert main(["arena", "--backend", "ray"]) == 2
    assert "[ray]" in capsys.readouterr().err


def test_progress_bar_is_quiet_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--players", "2", "--bots", "random,random", "--games", "2",
                 "--jobs", "1"]) == 0  # fmt: skip
    assert capsys.readouterr().err == ""


def test_arena_from_the_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bohmisch_watten", "arena", "--help"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "--decision-timeout" in result.stdout
    assert "random#2" in result.stdout


def test_progress_bar_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    argv = ["arena", "--players", "2", "--bots", "random,random", "--games", "2", "--jobs", "1"]
    assert main(argv) == 0
    assert "2/2" in capsys.readouterr().err
    assert main([*argv, "--quiet"]) == 0
    assert capsys.readouterr().err == ""
