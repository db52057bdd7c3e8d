"""Schemathesis, every phase, against a real ``serve`` process: the schema and the server agree.

The ``schemathesis run`` command line with its four phases — the schema's examples,
the coverage phase (boundary values, every undeclared method, missing parameters), the
fuzzing phase (positive and negative data) and the stateful phase (following the
schema's links from a created table to its lookups) — and every check but one, on a
server on a real socket.  Any answer the schema does not declare, a 5xx, a header that
``Retry-After`` or ``Allow`` should carry, a method that is not 405: the run fails and
the test prints Schemathesis's report.

One check is left out: ``positive_data_acceptance`` asks that every body the schema
allows is accepted, and a schema cannot say all that the server checks of a table (a
bot's caps depend on the seats, the humans on the players, the seats on the pack); each
such body gets a 400 naming why, which the schema declares.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from live_server import serving

CONFIG = """\
[checks.negative_data_rejection]
# 413: a body over 4 KiB is refused before it is read, whatever it holds.
expected-statuses = [400, 404, 405, 408, 409, 413, 415, 429]
"""
EXAMPLES = 40
"""Per operation and phase: the run takes about 10 s on a quiet machine (80 s with
seven other jobs on two cores, at 25)."""


def test_schemathesis_every_phase_finds_nothing(tmp_path: Path) -> None:
    config = tmp_path / "schemathesis.toml"
    config.write_text(CONFIG)
    options = ["--tables-per-client", "100000", "--max-tables", "100000", "--delay", "10"]
    with serving(tmp_path, *options) as server:
        command = [
            sys.executable,
            "-m",
            "schemathesis.cli",
            "--config-file",
            str(config),
            "--no-color",
            "run",
            f"{server.base}/openapi.json",
            "--phases",
            "examples,coverage,fuzzing,stateful",
            "--checks",
            "all",
            "--exclude-checks",
            "positive_data_acceptance",
            "--mode",
            "all",
            "--max-examples",
            str(EXAMPLES),
            "--seed",
            "1",
            "--workers",
            "1",
            "--generation-database",
            "none",
            "--suppress-health-check",
            "all",
            "--request-timeout",
            "30",
        ]
        run = subprocess.run(
            command, cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False
        )
        assert server.process is not None
        assert server.process.poll() is None, "the server died"
        assert server.get("/api/tables")[0] == 200  # still answering
    report = run.stdout[-8000:] + run.stderr[-2000:]
    assert run.returncode == 0, report
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in run.stdout, report  # each phase ran, and passed
