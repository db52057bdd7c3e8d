"""The build of the optional compiled core, ``bohmisch_watten._native`` (src/native/).

Everything else about the package is declared in ``pyproject.toml``; this file only
adds the C extension, because setuptools declares extensions in code.  The core is
*optional*: where no C compiler works (a compiler-less machine, Pyodide) the build says
so in one line and the package installs as pure Python, whose modules stay the
reference the compiled core is tested against.

Environment variables read at build time:

* ``BOHMISCH_WATTEN_BUILD_NATIVE=0`` -- do not build the core (the pure-Python install
  that the fallback tests check);
* ``BOHMISCH_WATTEN_REQUIRE_NATIVE=1`` -- a failed compile is an error, not a fallback
  (the Makefile's development builds: a C mistake must not pass unnoticed);
* ``BOHMISCH_WATTEN_SANITIZE=1`` -- build it with AddressSanitizer and
  UndefinedBehaviorSanitizer (CI's sanitizer run; not for a release).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NATIVE_DIR = Path("src") / "native"


class OptionalBuildExt(build_ext):
    """``build_ext`` whose failure leaves a pure-Python install, with one line saying so."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any compiler failure: fall back
            self._fell_back(error)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            self._fell_back(error)

    @staticmethod
    def _fell_back(error: BaseException) -> None:
        if os.environ.get("BOHMISCH_WATTEN_REQUIRE_NATIVE") == "1":
            raise error
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        print(
            f"bohmisch_watten: no compiled core ({first}); installing the pure-Python core",
            file=sys.stderr,
        )


def _extensions() -> list[Extension]:
    if os.environ.get("BOHMISCH_WATTEN_BUILD_NATIVE", "1") == "0":
        return []
    compile_args = ["-O2", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"]
    link_args: list[str] = []
    if os.environ.get("BOHMISCH_WATTEN_SANITIZE") == "1":
        flags = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g"]
        compile_args = [*compile_args, *flags, "-fno-sanitize-recover=undefined"]
        link_args = flags
    sources = sorted(str(path) for path in NATIVE_DIR.glob("*.c"))
    headers = sorted(str(path) for path in NATIVE_DIR.glob("*.h"))
    return [
        Extension(
            "bohmisch_watten._native",
            sources=sources,
            depends=headers,
            include_dirs=[str(NATIVE_DIR)],
            extra_compile_args=compile_args,
            extra_link_args=link_args,
            optional=True,
        )
    ]


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
