"""The demo as a newcomer meets it: a legend, the library's bots, quiet pipes, real subcommands."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from bohmisch_watten import Rules
from bohmisch_watten.bots import RandomBot
from bohmisch_watten.commands import COMMANDS
from bohmisch_watten.commands.cli import BROKEN_PIPE_STATUS, main, play_and_print

_DISCARDS_A_CRITICAL = re.compile(r"discards \d \([^)]*\b(HK|S7|E7)\b", re.M)


def _demo(**kwargs: object) -> str:
    out = io.StringIO()
    play_and_print(4, Rules(), 1, 0, 40, out, **kwargs)  # type: ignore[arg-type]
    return out.getvalue()


def test_a_legend_once_at_the_top() -> None:
    text = _demo()
    head = "\n".join(text.splitlines()[:5])
    for entry in ("E = Acorns", "G = Leaves", "H = Hearts", "S = Bells", "O = Ober", "U = Unter"):
        assert entry in head
        assert text.count(entry) == 1
    assert re.search(r'"seat N plays" = the seat stays in', head)


@pytest.mark.rule("R7")
def test_the_library_bots_play_and_keep_their_criticals() -> None:
    for seed in (1, 2, 3):
        out = io.StringIO()
        play_and_print(4, Rules(), seed, 0, 40, out)
        assert not _DISCARDS_A_CRITICAL.search(out.getvalue())
    assert _DISCARDS_A_CRITICAL.search(_demo(bots=[RandomBot()] * 4))  # the check can fail


def test_bots_option_and_its_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--bots", "random", "--seed", "1", "--max-deals", "2"]) == 0
    assert "Legend" in capsys.readouterr().out
    assert main(["--bots", "random,heuristic"]) == 2
    assert "4 seats need 1 or 4" in capsys.readouterr().err
    assert main(["--bots", "chess"]) == 2
    assert "chess" in capsys.readouterr().err
    with pytest.raises(ValueError, match="4 seats need 4 bots"):
        play_and_print(4, Rules(), 1, 0, 1, io.StringIO(), bots=[RandomBot()])


def test_help_lists_the_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    listing = text[text.index("subcommands:") :]
    for name in COMMANDS:
        assert re.search(rf"^    {name} +\S", listing, re.M)
    assert "--players" in text  # the demo's options: it runs without a subcommand
    with pytest.raises(SystemExit):
        main(["chess"])
    assert "invalid choice: 'chess'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--seed", "1", "arena"])
    assert "name the subcommand first" in capsys.readouterr().err


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_exits_quietly_on_a_closed_pipe(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def closed(args: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(COMMANDS[command], "run", closed)
    needed = ["game.json"] if command == "review" else []
    assert main([command, *needed]) == BROKEN_PIPE_STATUS


def test_demo_into_a_closed_pipe_prints_no_traceback() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "bohmisch_watten", "--seed", "1", "--bots", "random"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    assert process.stderr is not None
    process.stdout.readline()
    process.stdout.close()  # like `| head -1`
    error = process.stderr.read().decode()
    assert process.wait(timeout=60) == BROKEN_PIPE_STATUS
    assert "Traceback" not in error
    assert "BrokenPipeError" not in error
