"""Sphinx configuration of the bohmisch_watten documentation.

Builds offline: no intersphinx, no remote assets.  The phase diagram is drawn at build
time from ``bohmisch_watten.phases.MACHINE`` by the local extension ``_ext/watten_docs``.

Builds without the heavy extras: PyTorch (``[train]``), OpenSpiel (``[openspiel]``) and
Ray (``[ray]``) are mocked when they are not installed, so that ``make docs`` installs
only Sphinx and the light extras whose examples run as doctests (Gymnasium, PettingZoo,
numpy).  A doctest that needs a mocked package is skipped (``:skipif: MOCKED & {"torch"}``, the
``MOCKED`` set of ``doctest_global_setup``); where the package is installed it runs.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from sphinx.ext.autodoc.mock import MockFinder

import bohmisch_watten

HEAVY_EXTRAS = ("torch", "pyspiel", "ray")
"""Top-level modules of the extras the docs build does not install."""

MOCKED = sorted(name for name in HEAVY_EXTRAS if importlib.util.find_spec(name) is None)
autodoc_mock_imports = MOCKED
if MOCKED:
    # Not only while autodoc imports a module: the docs' own extension walks every public
    # module of the package (the completeness check), PolicyBot's and OpenSpiel's too.
    sys.meta_path.insert(0, MockFinder(MOCKED))

DOCS = Path(__file__).parent
sys.path.insert(0, str(DOCS / "_ext"))
# The guides import the bots of examples/ (greedy_bot.py), so that the code shown on
# the pages and the code the example scripts run is the same code.
sys.path.insert(0, str(DOCS.parent / "examples"))

project = "bohmisch_watten"
author = "bohmisch_watten developers"
copyright = "2026, bohmisch_watten developers"
release = bohmisch_watten.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "watten_docs",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []

# MyST: ``(R25)=`` targets, ``{rule}`` roles, ```{doctest}`` blocks, definition lists.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# autodoc + napoleon (Google style docstrings).
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"show-inheritance": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False
napoleon_use_ivar = True  # "Attributes:" as a field list, never a second object entry
add_module_names = False
python_display_short_literal_types = True

# Doctests: every ``>>>`` block and every doctest/testcode directive, pages and docstrings.
# The setup defines only what the ``:skipif:`` options read (MOCKED, and NATIVE for the
# examples of the compiled core): every example imports what it uses, as a reader who
# pastes it into a fresh interpreter needs (tests/test_docs_blocks.py runs each page's
# blocks alone, without this setup).
doctest_global_setup = (
    f"MOCKED = {set(MOCKED)!r}\nfrom bohmisch_watten import native_core as NATIVE"
)
doctest_test_doctest_blocks = "default"

html_theme = "furo"
html_title = f"bohmisch_watten {release}"
html_static_path = ["_static"]
html_css_files = ["watten.css"]
html_show_sourcelink = False
