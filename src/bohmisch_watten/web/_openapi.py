"""The HTTP API as an OpenAPI 3.0 document, served at ``GET /openapi.json``.

Written by hand, beside the routes it describes (a test checks that the two agree, and
a fuzzer checks the live server against it): clients and tools read what a request may
hold and what every answer looks like; every error is ``{"error": "…"}``.
"""

from __future__ import annotations

from typing import Any, Final

from .network_bots import NETWORK_PARAMETERS

__all__ = ["openapi"]

_ERROR: Final = {"$ref": "#/components/schemas/Error"}
_TABLE_ID: Final = {
    "name": "table",
    "in": "path",
    "required": True,
    "description": "A table's number (1 up to 18 digits).",
    "schema": {"type": "integer", "minimum": 1, "maximum": 999_999_999_999_999_999},
}


def _errors(*codes: int) -> dict[str, Any]:
    why = {
        400: "A request that is refused (also one naming a host the server does not"
        " serve): the message says why; nothing changed.",
        404: "No such table (or it expired).",
        408: "The body did not come in time.",
        409: "The game is not over yet.",
        413: "The body is over 4 KiB (refused before it is read).",
        415: "Not sent as application/json.",
        429: "Too many open tables, or too many created by this address lately.",
    }
    return {
        str(code): {"description": why[code], "content": {"application/json": {"schema": _ERROR}}}
        for code in codes
    }


_RETRY_AFTER: Final = {
    "Retry-After": {
        "description": "Whole seconds to wait before asking again.",
        "required": True,
        "schema": {"type": "integer", "minimum": 1},
    }
}


def _busy(why: str) -> dict[str, Any]:
    """An answer that says when to ask again (``Retry-After``)."""
    return {
        "description": why,
        "headers": _RETRY_AFTER,
        "content": {"application/json": {"schema": _ERROR}},
    }


def _options(methods: str, *codes: int) -> dict[str, Any]:
    """The ``OPTIONS`` operation of a path taking ``methods`` (``codes``: its errors)."""
    return {
        "summary": "The methods this path takes, in Allow.",
        "responses": {
            "204": {
                "description": f"Allow: {methods}.",
                "headers": {"Allow": {"schema": {"type": "string"}, "required": True}},
            },
            **_errors(400, *codes),
        },
    }


def _link(operation: str, parameter: str = "table") -> dict[str, Any]:
    """A link from a created table to ``operation`` on it (Schemathesis's stateful
    phase follows them)."""
    return {"operationId": operation, "parameters": {parameter: "$response.body#/table"}}


def _bots_text() -> str:
    caps = "; ".join(
        f"{name}" + "".join(f" {key}={cap}" for key, cap in params.items())
        for name, params in NETWORK_PARAMETERS.items()
    )
    return (
        "One bot per seat without a person (players - humans of them: [] when every seat"
        " is a person's, else a 400 saying how many; left out, the default bots), each a"
        " name: a built-in bot with parameters"
        f" within their caps at 2 to 4 seats ({caps}; lower at 5 to 7 seats, see"
        " docs/server.md; e.g. search:rollouts=200), or a name the operator"
        " registered (serve --bot NAME=SPEC).  Anything else is 400 naming the allowed bots."
    )


def openapi() -> dict[str, Any]:
    """The OpenAPI document of the game server's HTTP API."""
    table_summary = {
        "type": "object",
        "required": ["table", "players", "rules", "seats", "free_seats", "version", "watch"],
        "properties": {
            "table": {"type": "integer"},
            "players": {"type": "integer"},
            "rules": {"type": "string", "description": "the rules notation, or 'default'"},
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "seat": {"type": "integer"},
                        "kind": {"type": "string"},
                        "name": {"type": "string"},
                        "connected": {"type": "boolean"},
                    },
                },
            },
            "free_seats": {"type": "integer"},
            "spectators": {"type": "integer"},
            "turn": {"type": "integer", "nullable": True},
            "game": {"type": "integer"},
            "deal": {"type": "integer"},
            "scores": {"type": "array", "items": {"type": "integer"}},
            "game_over": {"type": "boolean"},
            "version": {"type": "integer"},
            "watch": {"type": "string"},
        },
    }
    new_table = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "players": {
                "type": "integer",
                "minimum": 2,
                "maximum": 7,
                "default": 4,
                "description": "Seats (R1): at most 4 with the 32-card pack (the default),"
                " 7 with rules pack=36; more than the pack seats is a 400.",
            },
            "humans": {"type": "integer", "minimum": 1, "maximum": 7, "default": 1},
            "bots": {
                "type": "array",
                "maxItems": 8,
                "items": {"type": "string", "maxLength": 120},
                "description": _bots_text(),
            },
            "rules": {"type": "string", "maxLength": 400, "example": "must_head=false"},
            "delay": {"type": "number", "minimum": 0, "maximum": 10},
            "names": {
                "type": "array",
                "maxItems": 8,
                "items": {"type": "string", "maxLength": 30},
                "description": "The people's display names, read in NFKC: no control or"
                " direction characters, no lookalike alphabets mixed (Latin with Cyrillic or"
                " Greek), nothing that reads like 'You' or 'Seat N'.",
            },
        },
    }
    created = {
        "type": "object",
        "required": ["table", "seats", "watch"],
        "properties": {
            "table": {"type": "integer"},
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "seat": {"type": "integer"},
                        "token": {"type": "string"},
                        "url": {"type": "string"},
                    },
                },
            },
            "watch": {"type": "string"},
        },
    }
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Böhmisch Watten game server",
            "version": "1",  # the API's, not the package's: it changes when the API does
            "description": "Tables of people and bots (docs/server.md).  State-changing"
            " requests are JSON from the server's own pages or from clients without an"
            " Origin; the Host header must name a host the server serves.",
        },
        "paths": {
            "/api/tables": {
                "get": {
                    "operationId": "listTables",
                    "summary": "The open tables (all=1: the finished ones too).",
                    "parameters": [
                        {
                            "name": "all",
                            "in": "query",
                            "required": False,
                            "schema": {"type": "string", "enum": ["0", "1", "true", "false"]},
                        }
                    ],
                    "responses": {
                        "200": {
                            "description": "The tables.",
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "type": "object",
                                        "required": ["tables"],
                                        "properties": {
                                            "tables": {"type": "array", "items": table_summary}
                                        },
                                    }
                                }
                            },
                        },
                        **_errors(400),
                    },
                },
                "post": {
                    "operationId": "createTable",
                    "summary": "Create a table; each person gets a link.",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": new_table}},
                    },
                    "responses": {
                        "201": {
                            "description": "The table and its links.",
                            "content": {"application/json": {"schema": created}},
                            "links": {
                                "GetTable": _link("getTable"),
                                "GetRecord": _link("getRecord"),
                                "GetReview": _link("getReview"),
                            },
                        },
                        **_errors(400, 408, 413, 415, 429),
                    },
                },
                "options": _options("GET, POST, HEAD, OPTIONS"),
            },
            "/api/tables/{table}": {
                "parameters": [_TABLE_ID],
                "get": {
                    "operationId": "getTable",
                    "summary": "One table, as the list shows it.",
                    "responses": {
                        "200": {
                            "description": "The table.",
                            "content": {"application/json": {"schema": table_summary}},
                        },
                        **_errors(400, 404),
                    },
                },
                "options": _options("GET, HEAD, OPTIONS", 404),
            },
            "/api/tables/{table}/record": {
                "parameters": [_TABLE_ID],
                "get": {
                    "operationId": "getRecord",
                    "summary": "The game's record (load_record reads it) once it is over.",
                    "responses": {
                        "200": {
                            "description": "The record.",
                            "content": {"text/plain": {"schema": {"type": "string"}}},
                        },
                        **_errors(400, 404, 409),
                    },
                },
                "options": _options("GET, HEAD, OPTIONS", 404),
            },
            "/api/tables/{table}/review": {
                "parameters": [_TABLE_ID],
                "get": {
                    "operationId": "getReview",
                    "summary": "The review of the people's decisions once the game is over:"
                    " computed once per game by review workers of its own (docs/server.md).",
                    "responses": {
                        "200": {
                            "description": "The review.",
                            "content": {"application/json": {"schema": {"type": "object"}}},
                        },
                        **_errors(400, 404, 409),
                        "429": _busy("This address started too many reviews lately."),
                        "503": _busy("Every review worker is busy and the queue full."),
                    },
                },
                "options": _options("GET, HEAD, OPTIONS", 404),
            },
            "/openapi.json": {
                "get": {
                    "operationId": "openapi",
                    "summary": "This document.",
                    "responses": {
                        "200": {
                            "description": "The OpenAPI document.",
                            "content": {"application/json": {"schema": {"type": "object"}}},
                        },
                        **_errors(400),
                    },
                },
                "options": _options("GET, HEAD, OPTIONS"),
            },
        },
        "components": {
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["error"],
                    "properties": {"error": {"type": "string", "minLength": 1}},
                }
            }
        },
    }
