"""PolicyBot and examples/train_policy.py: a few seconds of training, legal play after.

Nothing is downloaded: the network starts from random weights and trains on games the
engine plays.
"""

from __future__ import annotations

import importlib.util
import json
import pickle
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

torch = pytest.importorskip("torch")

from bohmisch_watten import Exchange, Phase, id_to_action, new_game  # noqa: E402
from bohmisch_watten.bots import HeuristicBot, RandomBot, make_bot, play_out  # noqa: E402
from bohmisch_watten.bots.learned import (  # noqa: E402
    PolicyBot,
    PolicyNet,
    read_policy,
    save_policy,
)
from bohmisch_watten.encoding import action_mask, observation  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_policy.py"


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_policy", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, float]]]:
    """Three seconds of training of a small network (one imitating the heuristic, then
    PPO); its checkpoint and history."""
    torch.set_num_threads(1)
    path = tmp_path_factory.mktemp("policy") / "policy.pt"
    _, history = example().train(
        2.5, out=path, eval_games=0, log=False, games=8, hidden=32, batch=256, minibatch=128,
        imitation=1.0, keep=0.05,
    )  # fmt: skip
    return path, history


def test_training_lowers_the_loss_of_every_update(
    trained: tuple[Path, list[dict[str, float]]],
) -> None:
    _, history = trained
    phases = [update["imitation"] for update in history]
    assert phases[0] == 1.0  # imitation first, then PPO
    assert phases[-1] == 0.0
    assert phases == sorted(phases, reverse=True)
    for update in history:
        assert update["loss_after"] < update["loss_before"]


@pytest.mark.rule("R18")
def test_the_exchange_head_scores_a_discard_by_its_card() -> None:
    """Exchange ids name hand positions (R18); the head maps them to the cards there."""
    net = PolicyNet(4, 8)
    with torch.no_grad():
        for parameter in net.parameters():
            parameter.zero_()
    rng = random.Random(8)
    checked = 0
    while checked < 30:
        state = new_game(4)
        state = state.apply(state.sample_chance(rng))
        while state.phase is Phase.CUT:
            state = state.apply(rng.choice(state.legal_actions()))
        view = state.view(state.current_player)
        thrown = rng.choice(view.hand)
        with torch.no_grad():
            net.discard.bias.fill_(-1.0)
            net.discard.bias[thrown.index] = 5.0  # throwing this card is worth the most
            obs = torch.tensor([observation(view)], dtype=torch.float32)
            logits, _ = net(obs, torch.tensor([action_mask(view)], dtype=torch.int8))
        action = id_to_action(view, int(logits[0].argmax()))
        assert isinstance(action, Exchange)
        assert action.discard == {thrown}
        checked += 1


def test_the_checkpoint_plays_legal_games_from_its_views(
    trained: tuple[Path, list[dict[str, float]]],
) -> None:
    path, _ = trained
    bot = make_bot(f"policy:{path}")
    assert bot == PolicyBot(str(path))
    sampling = PolicyBot(path, sample=True)
    rng = random.Random(3)
    for game in range(2):
        # apply() refuses an illegal action, so finishing a game proves every move legal
        end = play_out(new_game(4, dealer=game), [bot, RandomBot(), sampling, HeuristicBot()], rng)
        assert end.is_terminal
    # the greedy bot is deterministic, the sampling one draws from the generator it gets
    state = new_game(4)
    state = state.apply(state.sample_chance(random.Random(1)))
    view = state.view(state.current_player)
    assert bot.choose(view, random.Random(1)) == bot.choose(view, random.Random(2))
    assert sampling.choose(view, random.Random(5)) in view.legal_actions()
    # the network is read once and kept by the bot, which still pickles as its path
    assert isinstance(bot, PolicyBot)
    assert bot.network() is bot.network()
    copy = pickle.loads(pickle.dumps(bot))
    assert copy == bot
    assert copy.choose(view, random.Random(1)) == bot.choose(view, random.Random(1))
    assert copy.network() is not bot.network()


def test_the_example_runs_from_its_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p.pt"
    example().main(
        ["--minutes", "0.005", "--eval-games", "2", "--games", "4", "--batch", "64",
         "--hidden", "16", "--out", str(out)]
    )  # fmt: skip
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 2  # before training and after it
    assert all('"vs_heuristic"' in line for line in printed)
    assert read_policy(out).hidden == 16
    assert out.with_suffix(".json").read_text().startswith("[")
    picture = tmp_path / "curve.png"
    example().main(["--from-curve", str(out.with_suffix(".json")), "--plot", str(picture)])
    assert picture.read_bytes().startswith(b"\x89PNG")
    example().main(["--evaluate", str(out), "--eval-games", "4"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["vs"] for row in rows] == ["heuristic", "random"]
    for row in rows:
        assert row["games"] == 4
        assert row["win_rate"] in (0, 0.25, 0.5, 0.75, 1)  # whole games of four
        assert 0 <= row["ci95"][0] <= row["win_rate"] <= row["ci95"][1] <= 1


def test_bad_checkpoints_and_specs_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no checkpoint"):
        read_policy(tmp_path / "missing.pt")
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="not a checkpoint"):
        read_policy(junk)
    other = tmp_path / "other.pt"
    torch.save({"format": "something else"}, str(other))
    with pytest.raises(ValueError, match="bohmisch_watten.policy/2"):
        read_policy(other)
    with pytest.raises(ValueError, match="checkpoint path"):
        make_bot("policy:")
    two = tmp_path / "two.pt"
    save_policy(PolicyNet(2, 8), two)
    state = new_game(3)
    state = state.apply(state.sample_chance(random.Random(1)))
    with pytest.raises(ValueError, match="2 players"):
        PolicyBot(two).choose(state.view(state.current_player), random.Random(0))


def test_without_torch_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now fails
    monkeypatch.delitem(sys.modules, "bohmisch_watten.bots.learned", raising=False)
    with pytest.raises(ImportError, match=r"\[train\]"):
        make_bot("policy:whatever.pt")
