"""The HTTP API's schema (``GET /openapi.json``) and Schemathesis against the live server.

The schema is checked against the routes, then Schemathesis sends what the schema
allows and what it does not (a bounded number of examples, so that CI can afford it)
to a server running in real uvicorn on a real socket: no answer may be a 5xx, every
answer must match the schema (every error JSON with a message), and the server must
still answer afterwards.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from starlette.routing import Route
from starlette.testclient import TestClient

from bohmisch_watten.web.backends import open_storage
from bohmisch_watten.web.server import Limits, create_server
from threaded_server import running

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
EXAMPLES = 40
"""Per generation mode: a few seconds, and it found every 5xx of the first version."""


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = str(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite")
    limits = Limits(max_tables=30, tables_per_client=20, expire_unjoined=None)
    app = create_server(open_storage(db), limits=limits, delay=10)
    with running(app) as port:
        yield f"http://127.0.0.1:{port}"


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def test_the_schema_describes_every_api_route(tmp_path: Path) -> None:
    app = create_server(open_storage(str(tmp_path / "t.sqlite")), allowed_hosts=["testserver"])
    paths = {
        route.path
        for route in app.routes
        if isinstance(route, Route) and (route.path.startswith("/api/") or "openapi" in route.path)
    }
    with TestClient(app) as client:
        response = client.get("/openapi.json")
        assert response.status_code == 200
        document = response.json()
        assert document["openapi"].startswith("3.")
        assert set(document["paths"]) == paths
        assert len(paths) == 5
        for path, item in document["paths"].items():
            operations = set(item) - {"parameters"}  # a path's parameters, not a method
            concrete = path.replace("{table}", "1")
            allowed = client.options(concrete)  # OPTIONS lists what the schema declares
            assert allowed.status_code == 204, path
            methods = {m.strip() for m in allowed.headers["allow"].split(",")}
            assert methods == {m.upper() for m in operations} | {"HEAD"}, path
            for method in ("TRACE", "PUT", "DELETE", "PATCH"):  # undeclared: 405, not 415
                if method.lower() not in operations:
                    refused = client.request(method, concrete)
                    assert refused.status_code == 405, (method, path, refused.text)
                    assert refused.headers["allow"] == allowed.headers["allow"]
        assert client.request("TRACE", "/api/tables").status_code == 405  # not 415
        assert client.get("/api/tables?all=AAA").status_code == 400
        assert client.get("/api/tables?all=true").status_code == 200


@pytest.mark.parametrize(
    "mode", [schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE]
)
def test_schemathesis_finds_no_server_error(base: str, mode: schemathesis.GenerationMode) -> None:
    schema = schemathesis.openapi.from_url(f"{base}/openapi.json")

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=schema.as_strategy(generation_mode=mode))
    def attack(case: Any) -> None:
        case.call_and_validate(base_url=base, checks=CHECKS, timeout=30)

    attack()
    assert isinstance(_get(f"{base}/api/tables"), dict)  # still answering
