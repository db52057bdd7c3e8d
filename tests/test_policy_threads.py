"""PolicyBot decides on one PyTorch thread and gives torch its setting back.

A forward pre-hook on the bot's own network (torch's hook, not a mock) records the
thread count each pass really runs with.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from bohmisch_watten import new_game  # noqa: E402
from bohmisch_watten.bots import make_bot  # noqa: E402
from bohmisch_watten.bots.learned import (  # noqa: E402
    PolicyBot,
    PolicyNet,
    save_policy,
    torch_threads,
)
from bohmisch_watten.views import PlayerView  # noqa: E402


@pytest.fixture
def checkpoint(tmp_path: Path) -> Path:
    path = tmp_path / "policy.pt"
    save_policy(PolicyNet(4, hidden=16), path)
    return path


@pytest.fixture
def three_threads() -> object:
    before = torch.get_num_threads()
    torch.set_num_threads(3)
    yield
    torch.set_num_threads(before)


def _views(count: int) -> list[PlayerView]:
    rng, state, views = random.Random(3), new_game(4), []
    while len(views) < count:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
            continue
        assert state.current_player is not None
        views.append(state.view(state.current_player))
        state = state.apply(rng.choice(state.legal_actions()))
    return views


def _threads_seen(bot: PolicyBot, views: list[PlayerView]) -> list[int]:
    seen: list[int] = []
    bot.network().register_forward_pre_hook(
        lambda module, args: seen.append(torch.get_num_threads())
    )
    rng = random.Random(0)
    for view in views:
        bot.choose(view, rng)
    return seen


@pytest.mark.usefixtures("three_threads")
def test_inference_runs_on_one_thread_and_torch_keeps_its_setting(checkpoint: Path) -> None:
    views = _views(12)
    assert _threads_seen(PolicyBot(checkpoint), views) == [1] * 12
    assert torch.get_num_threads() == 3  # put back after every decision
    assert _threads_seen(make_bot(f"policy:{checkpoint}"), views) == [1] * 12  # type: ignore[arg-type]
    assert _threads_seen(PolicyBot(checkpoint, threads=2), views) == [2] * 12
    assert _threads_seen(PolicyBot(checkpoint, threads=None), views) == [3] * 12  # as it stands
    assert torch.get_num_threads() == 3


@pytest.mark.usefixtures("three_threads")
def test_the_setting_comes_back_when_the_block_raises() -> None:
    seen: list[int] = []

    def fail_inside() -> None:
        with torch_threads(1):
            seen.append(torch.get_num_threads())
            raise RuntimeError("inside")

    with pytest.raises(RuntimeError, match="inside"):
        fail_inside()
    assert seen == [1]
    assert torch.get_num_threads() == 3


def test_threads_is_checked_and_pickled(checkpoint: Path) -> None:
    with pytest.raises(ValueError, match="PolicyBot.threads must be at least 1 or None, got 0"):
        PolicyBot(checkpoint, threads=0)
    with pytest.raises(TypeError, match=r"PolicyBot\(threads=\): threads must be an int, got str"):
        PolicyBot(checkpoint, threads="1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got bool"):
        PolicyBot(checkpoint, threads=True)
    bot = PolicyBot(checkpoint, sample=True, threads=2)
    copy = pickle.loads(pickle.dumps(bot))
    assert (copy.path, copy.sample, copy.threads) == (str(checkpoint), True, 2)


def test_the_checkpoint_is_read_when_the_bot_is_made(checkpoint: Path, tmp_path: Path) -> None:
    """Not inside the first decision, where the arena timed it (about 70 ms a game, the
    arena making each game's bots anew); a bad path fails at once."""
    bot = make_bot(f"policy:{checkpoint}")
    checkpoint.unlink()  # read already: the decisions need no file
    view = _views(1)[0]
    assert bot.choose(view, random.Random(0)) in view.legal_actions()
    with pytest.raises(ValueError, match="no checkpoint at"):
        PolicyBot(tmp_path / "missing.pt")
