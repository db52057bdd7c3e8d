"""A game server as a real process on a real socket, for tests that attack it.

``python -m bohmisch_watten serve`` is started from the source of the package the tests
import (so ``PYTHONPATH=OTHER/src pytest …`` attacks another version), in a working
directory of the test's own, and asked over plain HTTP with exactly the headers a test
gives (``http.client``: no library adds any).
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import bohmisch_watten

SRC = Path(bohmisch_watten.__file__).resolve().parents[1]
JSON = {"Content-Type": "application/json"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class Server:
    """A running server: its address, its ``serve`` process (None for one in this
    process) and its working directory."""

    def __init__(
        self, process: subprocess.Popen[bytes] | None, port: int, home: Path, db: str
    ) -> None:
        self.process = process
        self.port = port
        self.home = home
        self.db = db
        self.base = f"http://127.0.0.1:{port}"
        self.host = f"127.0.0.1:{port}"

    def request(
        self,
        method: str,
        path: str,
        body: bytes | str | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float = 30,
    ) -> tuple[int, dict[str, str], bytes]:
        """One request with only the headers given (and Host, Content-Length)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = body.encode() if isinstance(body, str) else body
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            given = {k.lower(): v for k, v in (headers or {}).items()}
            connection.putheader("Host", given.pop("host", self.host))
            for name, value in given.items():
                connection.putheader(name, value)
            if data is not None:
                connection.putheader("Content-Length", str(len(data)))
            connection.endheaders(data)
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def post(self, body: Any, headers: Mapping[str, str] = JSON) -> tuple[int, Any]:
        """``POST /api/tables`` with a JSON body; the status and the JSON answer."""
        status, _, data = self.request("POST", "/api/tables", json.dumps(body), headers)
        return status, json.loads(data)

    def get(self, path: str) -> tuple[int, Any]:
        status, _, data = self.request("GET", path)
        return status, json.loads(data)

    def tables(self) -> list[dict[str, Any]]:
        """Every table served since the start, finished ones too."""
        status, data = self.get("/api/tables?all=1")
        assert status == 200
        tables: list[dict[str, Any]] = data["tables"]
        return tables

    def ws(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"


@contextmanager
def serving(home: Path, *options: str, db: str | None = None) -> Iterator[Server]:
    """``serve`` with ``options`` in ``home`` (on ``PYTHONPATH`` too), until it answers."""
    port = free_port()
    db = db or str(home / "tables.sqlite")
    path = os.pathsep.join([str(SRC), str(home)])
    env = {**os.environ, "PYTHONPATH": path}
    command = [sys.executable, "-m", "bohmisch_watten", "serve", "--db", db, "--port", str(port)]
    log = (home / f"server-{port}.log").open("wb")
    process = subprocess.Popen([*command, *options], cwd=home, env=env, stdout=log, stderr=log)
    server = Server(process, port, home, db)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, "the server exited"
            assert time.monotonic() < deadline, "the server did not start"
            try:
                if server.request("GET", "/api/tables", timeout=2)[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        yield server
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
        log.close()


def peak_memory(pid: int) -> int:
    """The peak resident memory of process ``pid`` so far, in bytes (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM in /proc")
