"""Your own bot by name: a dotted path or a file path, and its parameters from text.

:func:`~bohmisch_watten.bots.make_bot` accepts ``package.module.Class`` and
``./file.py:Class``.  When that fails, the message says which of the different causes
it was (the module is not on ``sys.path``, the module's own import raised, the name is
missing, the object is no class) with the underlying message, because "unknown bot"
for all four costs a bot author an afternoon.  Parameters (``:fold_below=3``) are
converted to the constructor's annotations, so ``fold_below=x`` for an ``int`` is
refused naming the parameter instead of reaching the bot as the string ``'x'``.
"""

from __future__ import annotations

import enum
import hashlib
import importlib
import importlib.util
import inspect
import sys
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

__all__ = ["convert_parameters", "is_file_spec", "load_file_object", "load_object"]

_BOOLS: Final = {
    "true": True,
    "yes": True,
    "on": True,
    "1": True,
    "false": False,
    "no": False,
    "off": False,
    "0": False,
}
_NONE: Final = ("none", "null")
_SIMPLE: Final[dict[str, object]] = {
    "int": int,
    "float": float,
    "str": str,
    "bool": bool,
    "None": None,
}


def is_file_spec(name: str) -> bool:
    """Whether the spec's name part is a Python file (``./mybot.py``, ``bots/x.py``)."""
    return name.endswith(".py")


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def _missing_module(error: ModuleNotFoundError, module: str) -> bool:
    """Whether ``error`` is about ``module`` (or a parent) itself, not an import inside it."""
    missing = error.name or ""
    return bool(missing) and (module == missing or module.startswith(missing + "."))


def _attribute(container: object, attribute: str, where: str, spec: str) -> object:
    try:
        return getattr(container, attribute)
    except AttributeError:
        classes = sorted(
            name
            for name, value in vars(container).items()
            if isinstance(value, type)
            and not name.startswith("_")
            and getattr(value, "__module__", None) == getattr(container, "__name__", None)
        )
        offer = f" (its classes: {', '.join(classes)})" if classes else ""
        raise ValueError(f"unknown bot {spec!r}: {where} has no {attribute!r}{offer}") from None


def load_object(path: str) -> object:
    """The object a dotted path ``package.module.Name`` names.

    Raises:
        ValueError: saying which cause: no module on ``sys.path``, the module's own
            import failed (with its message), or no such name in the module.
    """
    module_name, _, attribute = path.rpartition(".")
    if not module_name or not attribute:
        raise ValueError(f"unknown bot {path!r}: a dotted class path is package.module.Class")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if _missing_module(error, module_name):
            raise ValueError(
                f"unknown bot {path!r}: no module {error.name!r} on sys.path (a dotted"
                f" class path needs an importable module; run from the directory that"
                f" holds it, add it to PYTHONPATH, or give a file: ./{module_name.split('.')[0]}"
                f".py:{attribute})"
            ) from None
        raise ValueError(
            f"bot {path!r}: importing module {module_name!r} failed: {_describe(error)}"
        ) from None
    except Exception as error:  # the module's own code raised: say what it said
        raise ValueError(
            f"bot {path!r}: importing module {module_name!r} failed: {_describe(error)}"
        ) from None
    return _attribute(module, attribute, f"module {module_name!r}", path)


def load_file_object(file: str, attribute: str) -> object:
    """The object ``attribute`` of the Python file ``file`` (relative to the working directory).

    The file runs once per process under a private module name derived from its path
    (it is not put on ``sys.path``); the interpreter's own module table keeps it, so the
    same spec gives the same class every time.

    Raises:
        ValueError: for a missing file, a missing class name, a file whose code raised
            (with its message) or a name it does not define.
    """
    spec = f"{file}:{attribute}"
    if not attribute:
        raise ValueError(f"bot {file!r}: name the class after the file: {file}:ClassName")
    path = Path(file).expanduser().resolve()
    if not path.is_file():
        raise ValueError(f"bot {spec!r}: no file {file!r} (from the directory {Path.cwd()})")
    digest = hashlib.sha1(str(path).encode(), usedforsecurity=False).hexdigest()[:12]
    name = f"_bohmisch_watten_bot_{path.stem}_{digest}"
    module = sys.modules.get(name)
    if module is None:
        loader_spec = importlib.util.spec_from_file_location(name, path)
        if loader_spec is None or loader_spec.loader is None:  # pragma: no cover - a .py file
            raise ValueError(f"bot {spec!r}: {file!r} cannot be loaded as Python")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[name] = module  # attrs and dataclasses look their module up
        try:
            loader_spec.loader.exec_module(module)
        except Exception as error:  # the file's own code raised: say what it said
            del sys.modules[name]
            raise ValueError(f"bot {spec!r}: running {file!r} failed: {_describe(error)}") from None
    return _attribute(module, attribute, f"file {file!r}", spec)


def _hints(target: Callable[..., object]) -> dict[str, object]:
    """The constructor's annotations, resolved where possible (string forms of builtins else)."""
    init: object = vars(target).get("__init__", target) if isinstance(target, type) else target
    if isinstance(target, type) and init is target:
        init = target.__init__  # type: ignore[misc]  # inherited: the class's own constructor
    module = sys.modules.get(getattr(target, "__module__", "") or "")
    try:
        return typing.get_type_hints(init, globalns=vars(module) if module else None)
    except Exception:  # names only imported for type checking: use what reads plainly
        raw: dict[str, object] = dict(getattr(init, "__annotations__", {}))
        simple: dict[str, object] = {}
        for key, value in raw.items():
            if isinstance(value, str):
                parts = [part.strip() for part in value.split("|")]
                if all(part in _SIMPLE for part in parts):
                    kinds = [_SIMPLE[part] for part in parts]
                    simple[key] = kinds[0] if len(kinds) == 1 else tuple(kinds)
            else:
                simple[key] = value
        return simple


def _kind_name(kind: object) -> str:
    if kind is None or kind is type(None):
        return "None"
    name = getattr(kind, "__name__", None)
    return {"int": "an int", "float": "a number", "bool": "a bool (true/false)"}.get(
        str(name), str(name or kind)
    )


def guess(text: str) -> object:
    """A value without an annotation to go by: an int, then a float, else the text."""
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def _convert(text: str, kind: object) -> object:
    """``text`` as a value of the annotation ``kind``; ValueError saying what was expected."""
    options: tuple[object, ...]
    origin = typing.get_origin(kind)
    if isinstance(kind, tuple):
        options = kind
    elif origin is typing.Union or origin is types.UnionType:
        options = typing.get_args(kind)
    else:
        options = (kind,)
    if len(options) > 1:
        if (None in options or type(None) in options) and text.lower() in _NONE:
            return None
        for option in options:
            if option is None or option is type(None):
                continue
            try:
                return _convert(text, option)
            except ValueError:
                pass
        raise ValueError("must be " + " or ".join(_kind_name(o) for o in options))
    if origin is typing.Literal:
        for value in typing.get_args(kind):
            if str(value) == text:
                return value
        raise ValueError(f"must be one of {', '.join(repr(v) for v in typing.get_args(kind))}")
    if kind is bool:
        if text.lower() in _BOOLS:
            return _BOOLS[text.lower()]
        raise ValueError("must be a bool (true/false)")
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise ValueError("must be an int") from None
    if kind is float:
        try:
            return float(text)
        except ValueError:
            raise ValueError("must be a number") from None
    if kind is str:
        return text
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        for member in kind:
            if text in (str(member.value), member.name, member.name.lower()):
                return member
        raise ValueError(f"must be one of {', '.join(str(m.value) for m in kind)}")
    return guess(text)


def convert_parameters(
    target: Callable[..., object], name: str, params: list[str]
) -> dict[str, object]:
    """The keyword arguments ``key=value`` texts give, checked against the constructor.

    A key the constructor does not take is refused with the ones it does; a value is
    converted to the parameter's annotation (``int``, ``float``, ``bool``, ``str``,
    ``X | None``, ``Literal``, an enum); a parameter without one is guessed as before
    (int, then float, else the text).

    Raises:
        ValueError: naming the bad parameter and what it must be.
    """
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        signature = None
    parameters = dict(signature.parameters) if signature is not None else {}
    open_ended = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    fields = {
        key
        for key, p in parameters.items()
        if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    }
    hints: dict[str, Any] = _hints(target) if params else {}
    kwargs: dict[str, object] = {}
    for param in params:
        key, sep, raw = param.partition("=")
        key = key.strip()
        if not sep or not key or (not open_ended and key not in fields):
            known = ", ".join(sorted(fields)) or "none"
            raise ValueError(f"bot {name!r}: bad parameter {param!r} (fields: {known})")
        text = raw.strip()
        if key in hints:
            try:
                kwargs[key] = _convert(text, hints[key])
            except ValueError as error:
                raise ValueError(
                    f"bot {name!r}: parameter {key}={text!r} {error}"
                    f" (the constructor says {key}: {_annotation_text(hints[key])})"
                ) from None
        else:
            kwargs[key] = guess(text)
    return kwargs


def _annotation_text(kind: object) -> str:
    if isinstance(kind, tuple):
        return " | ".join(_annotation_text(k) for k in kind)
    if isinstance(kind, type):
        return kind.__name__
    return str(kind).replace("typing.", "")
