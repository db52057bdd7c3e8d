"""Loading your own bot: which cause failed, file paths, parameters checked by annotation."""

from __future__ import annotations

import random
import re
import textwrap
from pathlib import Path

import pytest

from bohmisch_watten import new_game
from bohmisch_watten.bots import make_bot
from bohmisch_watten.bots.function_bot import FunctionBot
from bohmisch_watten.commands.cli import main

MYBOT = """
from __future__ import annotations

import enum
import random
from typing import Literal

import attrs

from bohmisch_watten import Suit


def greedy(view, rng):
    return view.legal_actions()[0]


def needs_more(view, rng, depth):
    return view.legal_actions()[0]


LIMIT = 3


@attrs.frozen
class CountingBot:
    fold_below: int = 3
    margin: float = 0.5
    careful: bool = False
    label: str | None = None
    style: Literal["calm", "wild"] = "calm"
    suit: Suit = Suit.HEARTS

    def choose(self, view, rng: random.Random):
        return view.legal_actions()[0]


class PlainBot:
    def __init__(self, anything=None, **more):
        self.anything = anything

    def choose(self, view, rng):
        return view.legal_actions()[-1]
"""


TYPED = """
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections import OrderedDict


class Base:
    def __init__(self, depth: int = 1, note: str | None = None, table: OrderedDict = None):
        self.depth, self.note = depth, note

    def choose(self, view, rng):
        return view.legal_actions()[0]


class Inherited(Base):
    pass
"""


@pytest.fixture
def mybot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``mybot.py`` in the working directory, importable as a module too."""
    path = tmp_path / "mybot.py"
    path.write_text(textwrap.dedent(MYBOT), encoding="utf-8")
    (tmp_path / "brokenbot.py").write_text("import numpyy\n", encoding="utf-8")
    (tmp_path / "badfile.py").write_text("1 / 0\n", encoding="utf-8")
    (tmp_path / "typedbot.py").write_text(TYPED, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return path


def test_a_module_not_on_sys_path_says_so() -> None:
    with pytest.raises(ValueError, match=r"no module 'nomodule_xyz' on sys\.path") as error:
        make_bot("nomodule_xyz.CountingBot")
    assert "./nomodule_xyz.py:CountingBot" in str(error.value)  # the way out


def test_a_module_whose_import_fails_gives_its_message(mybot: Path) -> None:
    with pytest.raises(ValueError, match="importing module 'brokenbot' failed") as error:
        make_bot("brokenbot.CountingBot")
    assert "No module named 'numpyy'" in str(error.value)


def test_a_misspelt_class_names_the_classes_there(mybot: Path) -> None:
    with pytest.raises(ValueError, match="module 'mybot' has no 'CountngBot'") as error:
        make_bot("mybot.CountngBot")
    assert "CountingBot" in str(error.value)
    assert "Suit" not in str(error.value)  # imported, not defined there


def test_functions_and_other_objects(mybot: Path) -> None:
    bot = make_bot("mybot.greedy")
    assert isinstance(bot, FunctionBot)
    state = new_game(2)
    state = state.apply(state.sample_chance(random.Random(1)))
    assert state.current_player is not None
    assert (
        bot.choose(state.view(state.current_player), random.Random(1)) == (state.legal_actions()[0])
    )
    with pytest.raises(ValueError, match="is a function, not a bot class"):
        make_bot("mybot.greedy:depth=2")
    with pytest.raises(ValueError, match="is a int, not a bot class"):
        make_bot("mybot.LIMIT")
    with pytest.raises(TypeError, match="function must be callable"):
        FunctionBot(3)  # type: ignore[arg-type]


def test_a_file_path_loads_once(mybot: Path) -> None:
    first = make_bot("./mybot.py:CountingBot:fold_below=5")
    assert first.fold_below == 5  # type: ignore[attr-defined]
    again = make_bot(f"{mybot}:CountingBot:fold_below=5")
    assert again == first  # the same class: the file ran once
    with pytest.raises(ValueError, match=r"no file './nobot\.py'"):
        make_bot("./nobot.py:CountingBot")
    with pytest.raises(ValueError, match="name the class after the file"):
        make_bot("./mybot.py")
    with pytest.raises(ValueError, match="name the class after the file"):
        make_bot("./mybot.py:fold_below=3")
    with pytest.raises(ValueError, match=r"running './badfile\.py' failed: ZeroDivisionError"):
        make_bot("./badfile.py:Bot")
    with pytest.raises(ValueError, match="file './mybot.py' has no 'Nope'"):
        make_bot("./mybot.py:Nope")


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ("fold_below=7", {"fold_below": 7}),
        ("margin=2", {"margin": 2.0}),
        ("careful=yes", {"careful": True}),
        ("careful=0", {"careful": False}),
        ("label=none", {"label": None}),
        ("label=x1", {"label": "x1"}),
        ("style=wild", {"style": "wild"}),
        ("suit=bells", {"suit": "BELLS"}),
    ],
)
def test_parameters_follow_the_annotations(
    mybot: Path, params: str, expected: dict[str, object]
) -> None:
    bot = make_bot(f"mybot.CountingBot:{params}")
    for key, value in expected.items():
        got = getattr(bot, key)
        assert (got.name if key == "suit" else got) == value
        assert type(got) is not str or key in ("label", "style")


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ("fold_below=x", r"parameter fold_below='x' must be an int \(the constructor says"),
        ("margin=lots", "parameter margin='lots' must be a number"),
        ("careful=maybe", "parameter careful='maybe' must be a bool"),
        ("style=mild", "parameter style='mild' must be one of 'calm', 'wild'"),
        ("suit=clubs", "parameter suit='clubs' must be one of"),
        ("depth=3", r"bad parameter 'depth=3' \(fields: careful, fold_below"),
    ],
)
def test_bad_parameters_are_named(mybot: Path, params: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(f"mybot.CountingBot:{params}")


def test_library_bots_and_unannotated_bots(mybot: Path) -> None:
    with pytest.raises(ValueError, match="parameter rollout='randm' must be one of"):
        make_bot("search:rollout=randm")
    with pytest.raises(ValueError, match="parameter time_ms='soon' must be a number or None"):
        make_bot("search:time_ms=soon")
    assert make_bot("search:time_ms=none") == make_bot("search")
    plain = make_bot("mybot.PlainBot:anything=3:other=x")  # **more takes any key
    assert plain.anything == 3  # type: ignore[attr-defined]


def test_the_arena_measures_a_bot_from_a_file(
    mybot: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["arena", "--players", "2", "--bots", "./mybot.py:CountingBot:fold_below=2,random",
            "--games", "2", "--jobs", "1", "--quiet", "--max-deals", "3"]  # fmt: skip
    assert main(argv) == 0
    assert "mybot.py:CountingBot" in capsys.readouterr().out
    assert main([*argv[:4], "./mybot.py:CountingBot:fold_below=x,random", *argv[5:]]) == 2
    assert "fold_below='x' must be an int" in capsys.readouterr().err


def test_annotations_only_for_type_checking_and_inherited_constructors(mybot: Path) -> None:
    bot = make_bot("typedbot.Inherited:depth=4:note=none:table=x")
    assert (bot.depth, bot.note) == (4, None)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"depth='deep' must be an int \(the constructor says"):
        make_bot("typedbot.Inherited:depth=deep")
    assert make_bot("typedbot.Base:note=x").note == "x"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="importing module 'badfile' failed: ZeroDivisionError"):
        make_bot("badfile.Bot")
    with pytest.raises(ValueError, match="a dotted class path is package.module.Class"):
        make_bot("mybot.")


def test_a_file_named_without_dot_slash_and_py_gets_the_spec_meant(mybot: Path) -> None:
    """``mybot:CountingBot`` beside ./mybot.py: the message gives ./mybot.py:CountingBot."""
    with pytest.raises(ValueError, match="unknown bot 'mybot'") as error:
        make_bot("mybot:CountingBot")
    assert str(error.value).endswith("; ./mybot.py is here: did you mean ./mybot.py:CountingBot?")
    with pytest.raises(ValueError, match=r"did you mean ./mybot\.py:ClassName\?$"):
        make_bot("mybot:fold_below=2")  # no class named: say where it goes
    with pytest.raises(ValueError, match="unknown bot 'nosuchbot'") as error:
        make_bot("nosuchbot:CountingBot")
    assert "did you mean" not in str(error.value)  # no such file: no hint


@pytest.mark.parametrize(
    ("wrong", "message"),
    [
        ("fold_below=x", "parameter fold_below='x' must be an int"),
        ("speed=3", "bad parameter 'speed=3' (fields: "),
    ],
)
def test_a_wrong_parameter_names_the_class_not_only_the_file(
    mybot: Path, wrong: str, message: str
) -> None:
    expected = "^" + re.escape(f"bot './mybot.py:CountingBot': {message}")
    with pytest.raises(ValueError, match=expected):
        make_bot(f"./mybot.py:CountingBot:{wrong}")
