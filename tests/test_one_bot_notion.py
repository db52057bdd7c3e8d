"""One notion of a bot: an object with ``choose(view, rng)``, on every page and in every example."""

from __future__ import annotations

import importlib.util
import pickle
import random
import re
from pathlib import Path
from types import ModuleType

from bohmisch_watten import new_game
from bohmisch_watten.bots import Bot, RandomBot, make_bot, play_out
from bohmisch_watten.bots.function_bot import FunctionBot
from bohmisch_watten.bots.random_bot import RandomBot as Same

ROOT = Path(__file__).resolve().parent.parent
PAGES = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))

_CALLED_AS_FUNCTION = re.compile(r"bots\[\w+\]\(|\bBot = Callable\b|Callable\[\[PlayerView")


def _example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_page_or_example_calls_a_bot_as_a_function() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in [*PAGES, *EXAMPLES]
        for match in _CALLED_AS_FUNCTION.finditer(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
    assert "FunctionBot" in (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")


def test_the_greedy_example_is_a_bot_for_play_out() -> None:
    greedy = _example("greedy_bot").GREEDY
    assert isinstance(greedy, Bot)
    end = play_out(new_game(2), [greedy, RandomBot()], random.Random(3), max_deals=40)
    assert end.deal_number >= 2


def test_a_function_bot_pickles_and_plays_like_its_function() -> None:
    bot = FunctionBot(Same().choose)
    assert isinstance(bot, Bot)
    copy = pickle.loads(pickle.dumps(FunctionBot(_module_level_choice)))
    state = new_game(3)
    state = state.apply(state.sample_chance(random.Random(1)))
    assert state.current_player is not None
    view = state.view(state.current_player)
    assert copy.choose(view, random.Random(2)) == RandomBot().choose(view, random.Random(2))
    assert make_bot(f"{__name__}._module_level_choice") == FunctionBot(_module_level_choice)


def _module_level_choice(view: object, rng: random.Random) -> object:
    return RandomBot().choose(view, rng)  # type: ignore[arg-type]
