"""PolicyBot: a bot that plays from a trained policy network (extra ``[train]``, PyTorch).

``examples/train_policy.py`` trains a :class:`PolicyNet` by self-play and saves it with
:func:`save_policy`; ``make_bot("policy:PATH")`` (or ``PolicyBot(PATH)``) plays from the
file.  The network reads :func:`bohmisch_watten.encoding.observation` of the bot's own
view and scores the 99 action ids of :mod:`bohmisch_watten.encoding`; illegal ids
are masked out (R12, R18–R26), so every move is legal.  Those are the 32-card pack's
ids and layout: a :class:`PolicyBot` refuses a game with the 36-card pack (R6), whose
table is another one, by name rather than with a shape error from the network.

A checkpoint is a plain ``torch.save`` of tensors and numbers, read back with
``torch.load(weights_only=True)``: loading one runs no code from the file.

This module imports :mod:`torch`; :func:`~bohmisch_watten.bots.make_bot` imports it only
for a ``policy:`` spec, so the rest of the package never needs PyTorch.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs
import torch
from torch import nn

from ..cards import DECK
from ..encoding import (
    EXCHANGE_BASE,
    NUM_ACTION_IDS,
    action_mask,
    id_to_action,
    layout,
    observation,
    observation_size,
)
from ..errors import check_int

if TYPE_CHECKING:
    from ..actions import Action
    from ..views import PlayerView

__all__ = [
    "CHECKPOINT_FORMAT",
    "PolicyBot",
    "PolicyNet",
    "read_policy",
    "save_policy",
    "torch_threads",
]

CHECKPOINT_FORMAT: Final = "bohmisch_watten.policy/2"
"""The ``format`` entry of a checkpoint written by :func:`save_policy` (version 2 has
the exchange head of :class:`PolicyNet`; version 1 files are refused by name)."""

_HAND_SIZE: Final = 5  # R15: five cards in the exchange
_PATTERNS: Final = 1 << _HAND_SIZE
"""Exchange ids name a set of hand positions: 32 patterns, with and without the trump
card (:mod:`bohmisch_watten.encoding`)."""


class PolicyNet(nn.Module):
    """An MLP from an observation to 99 action logits and a value, with an exchange head.

    An exchange id names *positions* in the hand sorted by card (R18–R20:
    ``exchange [0 3]`` discards the first and the fourth card), so which card an id
    throws away changes from hand to hand; a plain output per id would have to learn
    that sorting.  So the exchange logits get, besides the plain output, the sum of a
    learned score of discarding each card over the cards the pattern's positions hold
    in this hand, plus a learned term per number of discards (and per taking the trump
    card, R19): a discard is scored by its card, as a player thinks of it.

    Args:
        num_players: 2, 3 or 4 (the observation's length depends on it).
        hidden: the width of the two hidden layers.
    """

    def __init__(self, num_players: int, hidden: int = 256) -> None:
        super().__init__()
        self.num_players = num_players
        self.hidden = hidden
        size = observation_size(num_players)
        self.body = nn.Sequential(
            nn.Linear(size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.logits = nn.Linear(hidden, NUM_ACTION_IDS)
        self.value = nn.Linear(hidden, 1)
        self.discard = nn.Linear(hidden, len(DECK))
        self.count = nn.Linear(hidden, 2 * (_HAND_SIZE + 1))
        self.hand_at = {name: at for name, at, _ in layout(num_players)}["hand"]
        positions = [[(p >> j) & 1 for j in range(_HAND_SIZE)] for p in range(_PATTERNS)]
        # Constants of the id table, not weights: kept out of the checkpoint.
        self.pattern_bits = torch.tensor(positions, dtype=torch.float32)
        self.pattern_sizes = torch.tensor([p.bit_count() for p in range(_PATTERNS)])

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits (illegal ids at a large negative number) and values.

        Args:
            obs: ``(batch, observation_size)`` floats.
            mask: ``(batch, 99)``, nonzero at legal ids.
        """
        features = self.body(obs)
        hand = obs[:, self.hand_at : self.hand_at + len(DECK)]
        position = (torch.cumsum(hand, 1) - 1).clamp(0, _HAND_SIZE - 1).long()
        # chosen[b, p, c]: card c is in the hand and at a position of pattern p
        chosen = self.pattern_bits[:, position].permute(1, 0, 2) * hand.unsqueeze(1)
        thrown = torch.einsum("bpc,bc->bp", chosen, self.discard(features))
        count = self.count(features)
        sizes = self.pattern_sizes
        exchange = torch.cat(
            (thrown + count[:, sizes], thrown + count[:, sizes + _HAND_SIZE + 1]), 1
        )
        extra = torch.zeros_like(mask, dtype=obs.dtype)
        extra[:, EXCHANGE_BASE : EXCHANGE_BASE + 2 * _PATTERNS] = exchange
        logits = (self.logits(features) + extra).masked_fill(mask == 0, -1e9)
        return logits, self.value(features).squeeze(-1)


def save_policy(net: PolicyNet, path: str | Path, **extra: Any) -> None:
    """Write ``net`` to ``path`` as a checkpoint :class:`PolicyBot` can play from.

    ``extra`` (numbers, strings, lists of them) is stored beside it, e.g. the training
    minutes and the measured win rates.
    """
    torch.save(
        {
            "format": CHECKPOINT_FORMAT,
            "num_players": net.num_players,
            "hidden": net.hidden,
            "state_dict": net.state_dict(),
            "extra": extra,
        },
        str(path),
    )


def read_policy(path: str | Path) -> PolicyNet:
    """The network saved at ``path``, in evaluation mode.

    A checkpoint is binary tensors, not a text document, so it takes no ``max_chars``
    like the package's document loaders; ``weights_only=True`` keeps it from running
    code.

    Raises:
        ValueError: naming the path if the file is missing or is not a checkpoint of
            :func:`save_policy`.
    """
    try:
        data = torch.load(str(path), weights_only=True, map_location="cpu")
    except FileNotFoundError:
        raise ValueError(f"policy: no checkpoint at {str(path)!r}") from None
    except Exception as error:  # torch raises many kinds for a file that is no checkpoint
        raise ValueError(f"policy: {str(path)!r} is not a checkpoint ({error})") from None
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"policy: {str(path)!r} is not a {CHECKPOINT_FORMAT} checkpoint")
    net = PolicyNet(int(data["num_players"]), int(data["hidden"]))
    net.load_state_dict(data["state_dict"])
    net.eval()
    return net


@contextmanager
def torch_threads(threads: int | None) -> Iterator[None]:
    """Run the block with PyTorch's intra-op threads set to ``threads``, then restore them.

    :func:`torch.set_num_threads` is process-wide, so a bot must not leave it changed
    behind its user's back: the setting is put back as soon as the block ends (the pair
    of calls costs about a microsecond).  None leaves torch's setting alone.
    """
    before = torch.get_num_threads()
    if threads is None or threads == before:
        yield
        return
    torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _check_threads(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is None:
        return
    check_int(value, "threads", "PolicyBot(threads=)")
    if not (isinstance(value, int) and value >= 1):  # int: checked above
        raise ValueError(f"PolicyBot.threads must be at least 1 or None, got {value!r}")


@attrs.frozen
class PolicyBot:
    """Plays the legal action its network scores highest, from its own view only.

    One decision is one forward pass of a small network on a batch of one.  Spread
    over PyTorch's default of one thread per core, such a pass spends most of its time
    waking and joining threads (far more so when the cores are busy, as in an arena
    whose workers fill them), so the bot runs its inference on ``threads`` threads, one
    by default, inside :func:`torch_threads`: torch's own setting is restored after
    every decision, so the rest of the program (training, say) keeps its threads.

    Attributes:
        path: the checkpoint written by :func:`save_policy`, read when the bot is made
            (a bad path fails there, not at a decision, and no decision's time holds
            the reading) and kept by the bot, which pickles as its path.
        sample: draw the action from the network's distribution with the generator it
            is handed instead of taking the best one.
        threads: PyTorch's intra-op threads during the bot's own inference (default
            1); None uses torch's setting as it stands.  Torch's setting is
            process-wide: another thread running torch while this bot decides sees it
            too.
    """

    path: str = attrs.field(converter=str)
    sample: bool = False
    threads: int | None = attrs.field(default=1, validator=_check_threads)
    _net: PolicyNet | None = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)
    """The network, read from :attr:`path` when the bot is made."""

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_net", read_policy(self.path))

    def __reduce__(self) -> tuple[type[PolicyBot], tuple[str, bool, int | None]]:
        """Pickle as the path and the settings: the network is read again where it lands."""
        return (PolicyBot, (self.path, self.sample, self.threads))

    def network(self) -> PolicyNet:
        """The bot's network, read from :attr:`path` when the bot was made."""
        assert self._net is not None  # read in __attrs_post_init__
        return self._net

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The network's action for the seat of ``view`` (always a legal one).

        Raises:
            ValueError: if the game is of the 36-card pack (the network reads the
                32-card pack's observation and scores its ids, R6), or the checkpoint
                is for another number of players.
        """
        net = self.network()
        pack = view.rules.pack
        if pack != 32:
            raise ValueError(
                f"policy: {self.path!r} was trained on the 32-card pack's action ids and "
                f"observation; this game is played with the {pack}-card pack (R6), whose "
                "table is another one"
            )
        if net.num_players != view.num_players:
            raise ValueError(
                f"policy: {self.path!r} was trained for {net.num_players} players, "
                f"this game has {view.num_players}"
            )
        obs = torch.tensor([observation(view)], dtype=torch.float32)
        mask = torch.tensor([action_mask(view)], dtype=torch.int8)
        with torch.no_grad(), torch_threads(self.threads):
            logits, _ = net(obs, mask)
        if self.sample:
            probs = torch.softmax(logits[0], 0).tolist()
            index = rng.choices(range(NUM_ACTION_IDS), weights=probs)[0]
        else:
            index = int(logits[0].argmax())
        return id_to_action(view, index)
