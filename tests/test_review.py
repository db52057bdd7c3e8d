"""The review of a game: invariants, what the judge sees, determinism, the command."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

from bohmisch_watten import (
    Action,
    Card,
    Exchange,
    Fold,
    FormatError,
    GameRecord,
    LeaveCritical,
    Phase,
    PlayCard,
    PlayerView,
    Rules,
    TakeCritical,
    load_record,
    new_game,
    replay,
)
from bohmisch_watten.bots import ExpertBot, HeuristicBot, RandomBot, SearchBot, play_out, registry
from bohmisch_watten.commands.cli import build_parser, main
from bohmisch_watten.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Judge,
    Review,
    Situation,
    default_judge,
    in_words,
    label_for,
    review,
)
from bohmisch_watten.review.report import format_table, write_plot

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SAMPLE = EXAMPLES / "sample_record.txt"
JUDGE = SearchBot(rollouts=12)


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return load_record(SAMPLE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def judged(record: GameRecord) -> Review:
    return review(record, JUDGE, seed=3)


def decisions_with_a_choice(record: GameRecord) -> dict[int, tuple[int, PlayerView]]:
    """Action number -> (seat, view) of every decision with two or more legal actions."""
    state = replay(attrs.evolve(record, actions=()))
    out = {}
    for number, action in enumerate(record.actions, 1):
        seat = state.current_player
        if seat is not None and len(state.legal_actions()) >= 2:
            out[number] = (seat, state.view(seat))
        state = state.apply(action)
    return out


def short_game(seed: int = 3) -> GameRecord:
    game = new_game(2, rules=Rules(start_score=5))
    return play_out(game, [HeuristicBot(), HeuristicBot()], random.Random(seed)).record()


# ------------------------------------------------------------------ the invariants


def test_every_decision_with_a_choice_is_judged(record: GameRecord, judged: Review) -> None:
    expected = decisions_with_a_choice(record)
    assert [d.number for d in judged.decisions] == sorted(expected)
    for decision in judged.decisions:
        seat, view = expected[decision.number]
        assert decision.seat == seat
        assert decision.action == record.actions[decision.number - 1]
        assert decision.legal == len(view.legal_actions()) >= 2
        assert decision.score == view.scores[seat]
        assert decision.deal == view.deal_number
        assert decision.phase is view.phase
    assert judged.seats == (0, 1, 2)
    assert judged.actions == len(record.actions)
    assert judged.final_scores == replay(record).scores


def test_losses_values_and_labels(judged: Review) -> None:
    assert judged.decisions
    for decision in judged.decisions:
        values = [a.value for a in decision.alternatives]
        assert values == sorted(values, reverse=True)
        actions = [a.action for a in decision.alternatives]
        assert len(set(actions)) == len(actions)
        assert decision.action in actions
        assert decision.value == decision.alternatives[actions.index(decision.action)].value
        assert decision.loss >= 0
        assert decision.loss == pytest.approx(decision.best.value - decision.value)
        assert decision.label == label_for(decision.loss)
        if decision.best.action == decision.action:
            assert decision.loss == 0
        if decision.loss == 0:  # ties: the action taken is listed first
            assert decision.best.action == decision.action
        assert decision.expected_score == decision.score - decision.best.value
    # a real review of random play finds both good and bad decisions
    assert any(d.loss == 0 for d in judged.decisions)
    assert any(d.label == "blunder" for d in judged.decisions)


def test_summaries_add_up(judged: Review) -> None:
    assert [s.seat for s in judged.summaries] == list(judged.seats)
    assert sum(s.decisions for s in judged.summaries) == len(judged.decisions)
    for summary in judged.summaries:
        mine = judged.of_seat(summary.seat)
        assert summary.decisions == len(mine) > 0
        assert summary.total_loss == pytest.approx(sum(d.loss for d in mine))
        assert summary.average_loss == pytest.approx(summary.total_loss / len(mine))
        labels = [d.label for d in mine]
        assert summary.inaccuracies == labels.count("inaccuracy")
        assert summary.mistakes == labels.count("mistake")
        assert summary.blunders == labels.count("blunder")


def test_label_thresholds() -> None:
    assert 0 < INACCURACY < MISTAKE < BLUNDER
    assert label_for(0.0) is None
    assert label_for(INACCURACY - 1e-9) is None
    assert label_for(INACCURACY) == "inaccuracy"
    assert label_for(MISTAKE - 1e-9) == "inaccuracy"
    assert label_for(MISTAKE) == "mistake"
    assert label_for(BLUNDER - 1e-9) == "mistake"
    assert label_for(BLUNDER) == "blunder"
    assert label_for(25.0) == "blunder"


def test_to_dict_is_json(judged: Review) -> None:
    data = json.loads(json.dumps(judged.to_dict()))
    assert data["format"] == "bohmisch_watten.review"
    assert data["players"] == 3
    assert data["rules"] == "start_score=10"
    assert data["thresholds"] == {"inaccuracy": 0.5, "mistake": 1.0, "blunder": 2.0}
    assert len(data["decisions"]) == len(judged.decisions)
    first = data["decisions"][0]
    decision = judged.decisions[0]
    assert first["action"] == str(decision.action)
    assert first["best"] == str(decision.best.action)
    assert first["phase"] == decision.phase.name.lower()
    assert first["alternatives"][0] == {"action": first["best"], "value": first["best_value"]}
    assert data["summaries"][1]["decisions"] == judged.summaries[1].decisions
    assert data["judge"] == "search:rollouts=12"
    for entry, decision in zip(data["decisions"], judged.decisions, strict=True):
        assert entry["played"] == in_words(decision.action)
        assert entry["better"] == decision.better
        assert entry["situation"]["text"] == decision.situation.text(decision.phase)
        assert entry["situation"]["hand"] == [str(c) for c in decision.situation.hand]
        trick = [{"seat": seat, "card": str(card)} for seat, card in decision.situation.trick]
        assert entry["situation"]["trick"] == trick


# ----------------------------------------------------------------- what the judge sees


@attrs.define
class RecordingJudge:
    """Rates the i-th legal action -i; its hint names only the first legal action, so
    every other action taken must be valued through evaluate()."""

    seen: list[tuple[str, Any]] = attrs.Factory(list)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return view.legal_actions()[0]

    def hint(
        self, view: PlayerView, rng: random.Random | None = None
    ) -> list[tuple[Action, float]]:
        self.seen.append(("hint", view))
        return [(view.legal_actions()[0], 0.0)]

    def evaluate(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random
    ) -> list[float]:
        self.seen.append(("evaluate", view))
        legal = view.legal_actions()
        return [-float(legal.index(action)) for action in actions]


def test_the_judge_gets_the_deciding_seats_view_only(record: GameRecord) -> None:
    judge = RecordingJudge()
    result = review(record, judge)
    expected = decisions_with_a_choice(record)
    hints = [view for kind, view in judge.seen if kind == "hint"]
    assert len(hints) == len(expected)
    for kind, view in judge.seen:
        assert type(view) is PlayerView, kind
        assert view.current_player == view.player
    for view, (seat, wanted) in zip(hints, expected.values(), strict=True):
        assert view.player == seat
        assert view == wanted
    for decision in result.decisions:
        index = expected[decision.number][1].legal_actions().index(decision.action)
        assert decision.loss == index  # best is the first legal action, valued 0
        assert decision.best.action == expected[decision.number][1].legal_actions()[0]
    assert any(d.loss > 0 for d in result.decisions)
    assert len([k for k, _ in judge.seen if k == "evaluate"]) == sum(
        1 for d in result.decisions if d.loss > 0
    )


@attrs.frozen
class Spy:
    """The real SearchBot, with a check of every view on the way in."""

    bot: SearchBot
    players: list[int] = attrs.field(factory=list, eq=False)

    def hint(
        self, view: PlayerView, rng: random.Random | None = None
    ) -> list[tuple[Action, float]]:
        assert type(view) is PlayerView
        self.players.append(view.player)
        return self.bot.hint(view, rng)

    def evaluate(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random
    ) -> list[float]:
        assert type(view) is PlayerView
        return self.bot.evaluate(view, actions, rng)


def test_search_bot_path_sees_views_and_matches_its_own_figures(
    record: GameRecord, judged: Review
) -> None:
    spy = Spy(JUDGE)
    result = review(record, spy, seed=3)
    assert spy.players == [d.seat for d in judged.decisions]
    assert [d.to_dict() for d in result.decisions] == [d.to_dict() for d in judged.decisions]
    # an exchange the hint did not search is valued all the same, with the searched ones
    views = decisions_with_a_choice(record)
    unsearched = [
        d for d in judged.decisions if d.action not in JUDGE.candidates(views[d.number][1])
    ]
    assert unsearched
    for decision in unsearched:
        assert len(decision.alternatives) == len(JUDGE.candidates(views[decision.number][1])) + 1


def test_search_bot_evaluate_shares_the_search() -> None:
    state = new_game(4)
    rng = random.Random(8)
    while state.phase.name != "EXCHANGE":
        state = state.apply(
            state.sample_chance(rng) if state.is_chance_node else state.legal_actions()[0]
        )
    assert state.current_player is not None
    view = state.view(state.current_player)
    bot = SearchBot(rollouts=30)
    searched = bot.search(view, random.Random(1))
    candidates = bot.candidates(view)
    values = bot.evaluate(view, candidates, random.Random(1))
    assert sorted(zip(values, map(str, candidates), strict=True), key=lambda p: -p[0]) == [
        (v, str(a)) for a, v in searched
    ]
    outside = [a for a in view.legal_actions() if a not in candidates]
    assert outside
    assert len(bot.evaluate(view, outside[:2], random.Random(1))) == 2
    with pytest.raises(ValueError, match="empty"):
        bot.evaluate(view, [], random.Random(1))
    with pytest.raises(ValueError, match="not a legal"):
        bot.evaluate(state.view((view.player + 1) % 4), candidates[:1], random.Random(1))


# ------------------------------------------------------------------ determinism


def test_same_seed_same_review_and_seats_are_independent(
    record: GameRecord, judged: Review
) -> None:
    again = review(record, JUDGE, seed=3)
    assert again == judged
    other = review(record, JUDGE, seed=4)
    assert [d.value for d in other.decisions] != [d.value for d in judged.decisions]
    only = review(record, JUDGE, seats=[2], seed=3)
    assert only.seats == (2,)
    assert only.decisions == judged.of_seat(2)
    assert only.summaries == (judged.summaries[2],)
    by_rng = review(record, JUDGE, seats=(1,), rng=random.Random(5))
    assert by_rng == review(record, JUDGE, seats=(1,), rng=random.Random(5))


def test_progress_is_reported() -> None:
    calls: list[tuple[int, int]] = []
    result = review(short_game(), JUDGE, progress=lambda done, total: calls.append((done, total)))
    total = len(result.decisions)
    assert calls == [(done, total) for done in range(total + 1)]


# ------------------------------------------------------------------ errors and defaults


def test_bad_arguments(record: GameRecord) -> None:
    with pytest.raises(TypeError, match="record"):
        review(SAMPLE.read_text(), JUDGE)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="bot"):
        review(record, HeuristicBot())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat 3"):
        review(record, JUDGE, seats=[3])
    with pytest.raises(ValueError, match="at least one"):
        review(record, JUDGE, seats=[])
    with pytest.raises(TypeError, match="seats"):
        review(record, JUDGE, seats="0")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seats"):
        review(record, JUDGE, seats=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seat is an int"):
        review(record, JUDGE, seats=[True])
    with pytest.raises(ValueError, match="not both"):
        review(record, JUDGE, seed=1, rng=random.Random(1))
    with pytest.raises(TypeError, match="seed"):
        review(record, JUDGE, seed="1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rng"):
        review(record, JUDGE, rng=1)  # type: ignore[arg-type]
    illegal = attrs.evolve(record, actions=record.actions[:1] + record.actions[2:])
    with pytest.raises(FormatError, match="record action 2"):
        review(illegal, JUDGE)


def test_a_judge_that_says_nothing_is_refused() -> None:
    class Silent(RecordingJudge):
        def hint(
            self, view: PlayerView, rng: random.Random | None = None
        ) -> list[tuple[Action, float]]:
            return []

    class Miscounting(RecordingJudge):
        def evaluate(
            self, view: PlayerView, actions: Sequence[Action], rng: random.Random
        ) -> list[float]:
            return [0.0]

    with pytest.raises(ValueError, match="no action"):
        review(short_game(), Silent())
    with pytest.raises(ValueError, match="a value per action"):
        review(short_game(), Miscounting())


def test_duplicate_seats_and_an_empty_record(record: GameRecord) -> None:
    result = review(short_game(), RecordingJudge(), seats=[1, 1, 0])
    assert result.seats == (0, 1)
    empty = review(attrs.evolve(record, actions=()), JUDGE)
    assert empty.decisions == ()
    assert [s.decisions for s in empty.summaries] == [0, 0, 0]
    assert [s.average_loss for s in empty.summaries] == [0.0, 0.0, 0.0]
    assert "(no decision to judge)" in format_table(empty)


def test_default_judge_is_the_expert_once_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    if "expert" in registry.BOT_NAMES:
        assert isinstance(default_judge(), type(registry.make_bot("expert")))
    else:
        assert default_judge() == SearchBot()
    monkeypatch.setattr(registry, "BOT_NAMES", (*registry.BOT_NAMES, "expert"))
    monkeypatch.setitem(registry._CLASSES, "expert", RecordingJudge)
    judge = default_judge()
    assert isinstance(judge, RecordingJudge)
    assert isinstance(judge, Judge)
    monkeypatch.setitem(registry._CLASSES, "expert", HeuristicBot)  # cannot judge
    assert default_judge() == SearchBot()


def test_default_judge_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bohmisch_watten.review.default_judge", RecordingJudge)
    result = review(short_game())
    assert result.judge == "test_review.RecordingJudge"  # no bot of the registry: its path


# ------------------------------------------------------------------ the report


def test_the_default_rules_are_written_default(judged: Review) -> None:
    default = attrs.evolve(judged, rules=Rules())
    assert format_table(default).splitlines()[0] == "Review of a 3-player game (rules: default)"
    assert default.to_dict()["rules"] == "default"  # as records write them


def test_table_lists_every_decision(judged: Review) -> None:
    text = format_table(judged)
    lines = text.splitlines()
    assert lines[0] == "Review of a 3-player game (rules: start_score=10)"
    assert lines[1] == "judge: search:rollouts=12, seed 3"  # the spec, not the repr
    heads = [line for line in lines if line.startswith("#")]
    assert [int(line[1:].split()[0]) for line in heads] == [d.number for d in judged.decisions]
    for decision in judged.decisions:
        at = lines.index(next(h for h in heads if h.startswith(f"#{decision.number} ")))
        head, situation, played = lines[at : at + 3]
        assert head.endswith(f"loss {decision.loss:.2f}")
        assert (f": {decision.label}, " in head) == (decision.label is not None)
        assert situation == "    " + decision.situation.text(decision.phase)
        assert played.startswith(f"    you {in_words(decision.action)} ({decision.value:+.2f})")
        if decision.better is None:
            assert played.endswith(", the judge's choice too")
        else:
            assert lines[at + 3] == f"    better: {decision.better} ({decision.best.value:+.2f})"
    rows = [line.split() for line in lines if line[:4].strip().isdigit()]
    for row, summary in zip(rows, judged.summaries, strict=True):
        assert row == [str(summary.seat), str(summary.decisions), f"{summary.average_loss:.2f}",
                       f"{summary.total_loss:.2f}", str(summary.inaccuracies),
                       str(summary.mistakes), str(summary.blunders)]  # fmt: skip


# ------------------------------------------------------- what a player reads in it


def test_actions_in_the_words_of_a_player() -> None:
    hk, s9 = Card.parse("HK"), Card.parse("S9")
    assert in_words(Exchange(frozenset())) == "kept your hand"  # not "played: exchange"
    assert in_words(Exchange({s9, hk})) == "exchanged HK, S9"
    assert in_words(Exchange({s9}, take_trump_card=True)) == "exchanged S9 and took the trump card"
    assert in_words(Fold()) == "folded"
    assert in_words(PlayCard(hk)) == "played HK"
    assert in_words(TakeCritical()) == "took the Critical"
    assert in_words(LeaveCritical()) == "left the Critical"
    shuffle = new_game(2).sample_chance(random.Random(1))  # never judged: its notation
    assert in_words(shuffle) == str(shuffle)


def test_each_decision_shows_what_the_seat_knew(record: GameRecord, judged: Review) -> None:
    views = decisions_with_a_choice(record)
    phases = set()
    for decision in judged.decisions:
        view = views[decision.number][1]
        situation = decision.situation
        assert situation == Situation.of(view)
        assert situation.hand == view.hand
        assert situation.trump_card == view.trump_card
        text = situation.text(decision.phase)
        phases.add(decision.phase)
        if decision.phase is Phase.PLAY:
            assert situation.trick == view.trick
            assert text.startswith("hand " + " ".join(map(str, view.hand)) + "; trump ")
            assert f"({view.trump_suit})" in text
            for seat, card in view.trick:
                assert f"seat {seat} {card}" in text
            assert ("you lead" in text) == (not view.trick)
        elif decision.phase is Phase.EXCHANGE:
            decided = [s for s in range(3) if s != view.player and view.exchange_counts[s] >= 0]
            decided += [s for s in range(3) if view.folded[s]]
            assert sorted(seat for seat, _ in situation.before) == sorted(decided)
            assert ("before you: " in text) == bool(decided)
            assert ("you deal" in text) == (view.dealer == view.player)
        else:
            assert decision.phase is Phase.CUT
            assert situation.offered is not None
            assert situation.offered.is_critical
            assert f"offered the Critical {situation.offered}" in text
    assert phases == {Phase.CUT, Phase.EXCHANGE, Phase.PLAY}  # the sample has all three


def test_the_exchange_situation_in_words() -> None:
    situation = Situation(
        hand=tuple(Card.parse(c) for c in ("E7", "GA", "HK")),
        trump_card=Card.parse("SU"),
        dealer=True,
        before=((1, 0), (2, None), (3, 2)),
    )
    assert situation.text(Phase.EXCHANGE) == (
        "hand E7 GA HK; trump SU (Bells); you deal;"
        " before you: seat 1 kept its hand, seat 2 folded, seat 3 exchanged 2"
    )
    assert situation.to_dict()["before"] == [
        {"seat": 1, "exchanged": 0},
        {"seat": 2, "exchanged": None},
        {"seat": 3, "exchanged": 2},
    ]
    first = attrs.evolve(situation, before=(), dealer=False)
    assert first.text(Phase.EXCHANGE).endswith("; you decide first")
    assert Situation((), None, False, offered=Card.parse("HK")).text(Phase.CUT) == (
        "no cards yet; offered the Critical HK"
    )
    assert Situation((), None, False).text(Phase.CUT) == "no cards yet"


def test_the_judge_is_named_by_its_spec() -> None:
    game = short_game()
    assert review(game, ExpertBot(samples=8, exchange_samples=4)).judge == (
        "expert:samples=8:exchange_samples=4"
    )
    assert review(game, SearchBot()).judge == "search"


@pytest.mark.parametrize(
    "bot",
    [
        ExpertBot(),
        ExpertBot(race_near=False, proposals=1, leaf="rollout", time_ms=12.5, evidence=1.0),
        SearchBot(rollouts=240, rollout="random"),
        HeuristicBot(),
        RandomBot(),
    ],
    ids=repr,
)
def test_a_bots_spec_makes_the_same_bot(bot: object) -> None:
    spec = registry.bot_spec(bot)
    assert registry.make_bot(spec) == bot
    assert "(" not in spec


def test_the_spec_of_a_bot_the_registry_does_not_know() -> None:
    assert registry.bot_spec(object()) == "builtins.object"


def test_plot_is_a_png(judged: Review, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "review.png"
    write_plot(judged, path)
    assert path.read_bytes()[:4] == b"\x89PNG"
    empty = tmp_path / "empty.png"
    write_plot(
        attrs.evolve(judged, decisions=(), seats=(0,), summaries=judged.summaries[:1]), empty
    )
    assert empty.read_bytes()[:4] == b"\x89PNG"


# ------------------------------------------------------------------ the command


def test_command_text_json_plot(
    tmp_path: Path, judged: Review, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    out_json, out_png = tmp_path / "r.json", tmp_path / "r.png"
    argv = ["review", str(SAMPLE), "--bot", "search:rollouts=12", "--seed", "3", "--quiet",
            "--json", str(out_json), "--plot", str(out_png)]  # fmt: skip
    assert main(argv) == 0
    assert capsys.readouterr().out == format_table(judged)
    assert json.loads(out_json.read_text(encoding="utf-8")) == json.loads(
        json.dumps(judged.to_dict())
    )
    assert out_png.read_bytes()[:4] == b"\x89PNG"


def test_command_on_json_with_seats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    record = short_game()
    path.write_text(record.to_json(), encoding="utf-8")
    assert main(["review", str(path), "--bot", "search:rollouts=12", "--seats", "1"]) == 0
    expected = review(record, JUDGE, seats=[1], seed=0)
    assert capsys.readouterr().out == format_table(expected)


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        (None, [], "cannot read"),
        ("garbage\n", [], "line 1"),
        ("{not json", [], "game.txt"),
        ("SAMPLE-ILLEGAL", [], "record action 2"),
        ("SAMPLE", ["--bot", "heuristic"], "cannot judge"),
        ("SAMPLE", ["--bot", "chess"], "unknown bot"),
        ("SAMPLE", ["--seats", "5"], "seat 5"),
    ],
)
def test_command_errors(
    tmp_path: Path,
    content: str | None,
    extra: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "game.txt"
    if content == "SAMPLE":
        path.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    elif content == "SAMPLE-ILLEGAL":
        lines = SAMPLE.read_text(encoding="utf-8").splitlines()
        first = next(i for i, line in enumerate(lines) if line.startswith("leave"))
        path.write_text("\n".join(lines[:first] + lines[first + 1 :]), encoding="utf-8")
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["review", str(path), "--quiet", *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ")
    assert message in err
    assert err.count("\n") == 1


def test_command_help_documents_every_option() -> None:
    parser = build_parser("review")
    text = parser.format_help()
    for option in ("GAME", "--seats", "--bot", "--seed", "--json", "--plot", "--quiet"):
        assert option in text
    assert all(action.help for action in parser._actions)
    assert "--rules" not in text  # the record brings its rules: no option to ignore


def test_command_needs_matplotlib_for_plot(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["review", str(SAMPLE), "--plot", "x.png"]) == 2
    assert "[plot]" in capsys.readouterr().err


def test_command_bad_seats_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["review", str(SAMPLE), "--seats", "0,x"])
    assert exit_.value.code == 2
    assert "seats are numbers" in capsys.readouterr().err


def test_command_default_judge(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("bohmisch_watten.commands.review.default_judge", RecordingJudge)
    assert main(["review", str(SAMPLE), "--quiet", "--seats", "0"]) == 0
    assert "judge: test_review.RecordingJudge," in capsys.readouterr().out


# ------------------------------------------------------------------ the web table


def finish(table: Any) -> None:
    """Play the game of a web table to its end, the people taking their first legal action."""
    while not table.state.is_terminal:
        if table.needs_auto:
            table.step()
        else:
            seat = table.state.current_player
            table.act(seat, str(table.state.legal_actions()[0]))


def test_web_review_of_the_human_seats() -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from bohmisch_watten.web import Table
    from bohmisch_watten.web.app import create_app

    table = Table(players=3, humans=2, seed=4, rules=Rules(start_score=3), judge=JUDGE)
    with TestClient(create_app(table, delay=0)) as client:
        assert client.get("/review").status_code == 409
        page = client.get(f"/play/{table.seats[0].token}").text
        assert 'id="review-button"' in page
        assert 'fetch("/review")' in page
        finish(table)
        response = client.get("/review")
        assert response.status_code == 200
        assert response.headers["cache-control"] == "no-store"
        data = response.json()
        expected = review(table.state.record(), JUDGE, seats=[0, 1])
        assert data == json.loads(json.dumps(expected.to_dict()))
        assert data["seats"] == [0, 1]
        assert {d["seat"] for d in data["decisions"]} == {0, 1}  # never the bot's seat 2
        assert client.get("/review").json() == data


def test_web_review_is_computed_once_with_the_default_judge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bohmisch_watten.web import Table

    judges: list[RecordingJudge] = []

    def make() -> RecordingJudge:
        judges.append(RecordingJudge())
        return judges[-1]

    monkeypatch.setattr("bohmisch_watten.web.table.default_judge", make)
    table = Table(players=2, humans=1, seed=2, rules=Rules(start_score=2))
    assert table.review() is None
    table.state = replay(short_game())
    first = table.review()
    assert first is not None
    assert first["judge"] == "test_review.RecordingJudge"
    assert first["seats"] == [0]
    assert table.review() is first
    assert len(judges) == 1
    with pytest.raises(TypeError, match="judge"):
        Table(players=2, judge=HeuristicBot())  # type: ignore[arg-type]


def test_the_guides_example_is_the_commands_output(capsys: pytest.CaptureFixture[str]) -> None:
    guide = (Path(__file__).resolve().parent.parent / "docs" / "review.md").read_text("utf-8")
    assert main(["review", str(SAMPLE), "--bot", "search", "--seats", "0", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    example = guide.split("```text\nReview of a ", 1)[1].split("```", 1)[0]
    lines = ("Review of a " + example).splitlines()
    cut = lines.index("…")  # an excerpt: the first decisions, then the summary
    assert lines[:cut] == out[:cut]
    assert lines[cut + 1 :] == out[len(out) - len(lines) + cut + 1 :]
    assert cut > 20


def test_a_record_from_a_position() -> None:
    from bohmisch_watten import GameState, Position

    start = GameState.from_position(Position.parse("p3/d1/n4/s3.5.2/f000/default"))
    record = play_out(start, [HeuristicBot()] * 3, random.Random(1)).record()
    assert not record.starts_fresh
    result = review(record, JUDGE)
    state, expected = start, []
    for number, action in enumerate(record.actions, 1):
        if state.current_player is not None and len(state.legal_actions()) > 1:
            expected.append(number)
        state = state.apply(action)
    assert [d.number for d in result.decisions] == expected
    first = result.decisions[0]
    assert first.deal == 4
    assert first.score == (3, 5, 2)[first.seat]
