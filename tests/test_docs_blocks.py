"""Every Python example of the docs runs as pasted: each block alone, in a fresh
interpreter, without the doctest builder's global setup.

``make docs`` runs the pages' doctests with ``doctest_global_setup`` (docs/conf.py) and
with the blocks of a page sharing one namespace; a reader pastes one block into a new
``python`` session.  So each block of ``README.md`` and of every page under ``docs/``
runs here in a subprocess of its own, with nothing imported beforehand:

- a ``{doctest}`` block, or any block of ``>>>`` lines, by the standard library's
  ``doctest`` with the builder's default flags (its output is compared);
- a ``{testcode}`` block (and a plain ``python`` block) as a script; a ``{testoutput}``
  right after it is compared with what the script prints.

A block that needs an extra says so as the builder reads it (``:skipif: MOCKED &
{"torch"}``): it runs where the extra is installed -- the test venv has every extra --
and is reported as skipped, naming the extra, where it is not.  A block that cannot run
alone says so in its first line: ``# continues the block above`` runs it after the
blocks it continues (the check counts how many do so), and ``# run in the examples/
folder of a checkout`` (a block that imports a script of ``examples/``, which the wheel
does not have) runs it there.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

import bohmisch_watten

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

FENCE = re.compile(r"^([ \t]*)```(\S*)[^\n]*\n(.*?)^\1```[ \t]*$", re.M | re.S)
"""A fenced block (in a list item too): its indent, its info string (``python``,
``{doctest}``) and its body."""

OPTION = re.compile(r"^:(\w[\w-]*):[ \t]*(.*)$")
SRC = Path(bohmisch_watten.__file__).resolve().parents[1]
"""The package under test: the blocks run it, whatever the working directory."""

CONTINUES = "# continues the block above"
IN_EXAMPLES = "# run in the examples/ folder of a checkout"
SKIPIF = re.compile(r'MOCKED & \{"(\w+)"\}')

LAST = "--- the block under test ---"

RUNNER = textwrap.dedent(
    f"""
    import doctest, json, sys
    flags = doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL | doctest.DONT_ACCEPT_TRUE_FOR_1
    namespace = {{"__name__": "__main__"}}
    blocks = json.load(sys.stdin)
    for number, (kind, code) in enumerate(blocks):
        if number == len(blocks) - 1:
            print({LAST!r}, flush=True)
        if kind == "script":
            exec(compile(code, "<block>", "exec"), namespace)
            continue
        test = doctest.DocTestParser().get_doctest(code, namespace, "block", None, 0)
        runner = doctest.DocTestRunner(optionflags=flags | doctest.REPORT_ONLY_FIRST_FAILURE)
        runner.run(test, clear_globs=False)
        namespace = test.globs  # the test ran on a copy
        if runner.failures:
            sys.exit(1)
    """
)
"""Runs the blocks on stdin (a JSON list of ``[kind, code]``) in one fresh ``__main__``
namespace: a script by ``exec``, a doctest as Sphinx's doctest builder would, minus its
setup (the builder's default flags, ``doctest_default_flags``)."""


@dataclass(frozen=True)
class Block:
    """One Python example of a page: where it is, how it runs, what it prints."""

    page: str
    line: int
    kind: str  # "doctest" (>>> lines) or "script"
    code: str
    output: str | None  # a {testoutput} that follows a {testcode}
    extra: str | None  # the module a :skipif: names

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def first_line(self) -> str:
        return self.code.lstrip(">. ").split("\n", 1)[0]

    @property
    def continues(self) -> bool:
        return self.first_line == CONTINUES


def _split_options(body: str) -> tuple[dict[str, str], str]:
    """A MyST directive's ``:name: value`` lines, then its content."""
    options = {}
    lines = body.splitlines(keepends=True)
    while lines and (match := OPTION.match(lines[0].rstrip("\n"))):
        options[match.group(1)] = match.group(2)
        lines.pop(0)
    return options, "".join(lines).lstrip("\n")


def blocks_of(page: str, text: str) -> list[Block]:
    """The Python examples of one page, in order."""
    found: list[Block] = []
    matches = list(FENCE.finditer(text))
    for index, match in enumerate(matches):
        info, body = match.group(2), textwrap.dedent(match.group(3))
        if info not in ("python", "pycon", "{doctest}", "{testcode}"):
            continue
        options, code = _split_options(body)
        output = None
        if info == "{testcode}" and index + 1 < len(matches):
            after = matches[index + 1]
            between = text[match.end() : after.start()]
            if after.group(2) == "{testoutput}" and not between.strip():
                output = _split_options(textwrap.dedent(after.group(3)))[1]
        skip = SKIPIF.search(options.get("skipif", ""))
        kind = "doctest" if re.search(r"^>>> ", code, re.M) else "script"
        line = text.count("\n", 0, match.start()) + 1
        found.append(Block(page, line, kind, code, output, skip.group(1) if skip else None))
    return found


def _pages() -> list[Path]:
    """README.md and every page of the docs (the changelog and the rule book only
    include files of the repository's top level, which hold no Python)."""
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


BLOCKS = [
    block
    for path in _pages()
    for block in blocks_of(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
]


def _run(block: Block, cwd: Path, before: list[Block]) -> subprocess.CompletedProcess[str]:
    """``block`` (after the blocks it continues) in a fresh interpreter in ``cwd``."""
    return subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps([[b.kind, b.code] for b in [*before, block]]),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        check=False,
    )


def _continued(block: Block) -> list[Block]:
    """The blocks a ``# continues the block above`` block runs after."""
    chain: list[Block] = []
    index = BLOCKS.index(block)
    while BLOCKS[index].continues:
        index -= 1
        assert BLOCKS[index].page == block.page, f"{block.name} continues no block of its page"
        chain.insert(0, BLOCKS[index])
    return chain


def _same_output(expected: str, got: str) -> bool:
    """A {testoutput} compared as the builder does: ``...`` matches anything."""
    pattern = ".*?".join(re.escape(part) for part in expected.strip().split("..."))
    return re.fullmatch(pattern, got.strip(), re.S) is not None


def test_the_pages_have_python_examples() -> None:
    pages = {block.page for block in BLOCKS}
    assert len(BLOCKS) >= 60
    assert {"README.md", "docs/ui.md", "docs/tutorial-bots.md", "docs/bots.md"} <= pages


@pytest.mark.parametrize("block", BLOCKS, ids=lambda block: block.name)
def test_each_block_runs_alone_in_a_fresh_interpreter(block: Block, tmp_path: Path) -> None:
    if block.extra is not None and importlib.util.find_spec(block.extra) is None:
        pytest.skip(f"{block.name} needs {block.extra}, which is not installed")
    chain = _continued(block) if block.continues else []
    in_examples = any(b.first_line == IN_EXAMPLES for b in [*chain, block])
    result = _run(block, ROOT / "examples" if in_examples else tmp_path, chain)
    assert result.returncode == 0, f"{block.name}:\n{result.stdout}\n{result.stderr}"
    if block.output is not None:
        printed = result.stdout.split(LAST + "\n", 1)[1]
        assert _same_output(block.output, printed), (block.output, printed)


def test_few_blocks_lean_on_the_one_above() -> None:
    """Continuing a block is the exception a page must state, not the way pages work."""
    leaning = [block.name for block in BLOCKS if block.continues]
    assert len(leaning) <= len(BLOCKS) // 4, leaning


def test_a_block_that_uses_a_name_it_does_not_import_fails(tmp_path: Path) -> None:
    """What the doctest setup hid: ``new_game`` without its import."""
    (block,) = blocks_of("page", "```{doctest}\n>>> state = new_game(4)\n```\n")
    result = _run(block, tmp_path, [])
    assert result.returncode != 0
    assert "NameError: name 'new_game' is not defined" in result.stdout


def test_a_wrong_output_fails(tmp_path: Path) -> None:
    (block,) = blocks_of("page", "```{doctest}\n>>> 1 + 1\n3\n```\n")
    assert _run(block, tmp_path, []).returncode != 0


def test_blocks_are_read_with_their_options_and_output() -> None:
    text = (
        '```{doctest}\n:skipif: MOCKED & {"torch"}\n\n>>> import torch\n```\n'
        "```{testcode}\nprint(1)\n```\n\n```{testoutput}\n1\n```\n"
        "```sh\nmake\n```\n"
    )
    first, second = blocks_of("page", text)
    assert (first.kind, first.extra, first.code) == ("doctest", "torch", ">>> import torch\n")
    assert (second.kind, second.output, second.line) == ("script", "1\n", 6)
    assert _same_output("a ... c", "a b c")
    assert not _same_output("a c", "a b c")
