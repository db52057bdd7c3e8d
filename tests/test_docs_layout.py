"""The documentation site's layout, checked without building it.

The docs build (``make docs``, Sphinx with ``-W``) checks what autodoc renders; these
tests check the same things from the code and the docs' own files, so that plain
``make test`` catches them too: the sidebar title that must not split a word, the
phase diagram whose arrowheads must meet the boxes head-on, and the public signatures
that must name only types a reader can look up.
"""

from __future__ import annotations

import importlib.util
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import bohmisch_watten

DOCS = Path(__file__).resolve().parent.parent / "docs"
SVG = "{http://www.w3.org/2000/svg}"


def _load(name: str) -> ModuleType:
    """A Sphinx-free helper module of docs/_ext (the docs extra is not installed here)."""
    spec = importlib.util.spec_from_file_location(name, DOCS / "_ext" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- the sidebar title

SIDEBAR_REM = 15 - 2 * 1
"""furo's sidebar is 15em wide with 1rem of padding on each side of the title."""

WIDE_GLYPH_EM = 0.62
"""Mean advance of a lowercase letter or "_" in a wide sans-serif font (DejaVu Sans:
"bohmisch_watte" fits 13rem at 1.5rem, "bohmisch_watten" does not)."""


def _css_rule(selector: str) -> dict[str, str]:
    css = (DOCS / "_static" / "watten.css").read_text(encoding="utf-8")
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    match = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", css)
    assert match, f"watten.css has no rule for {selector}"
    return {
        key.strip(): value.strip()
        for key, _, value in (item.partition(":") for item in match.group(1).split(";"))
        if key.strip()
    }


def test_sidebar_title_never_splits_a_word() -> None:
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    match = re.search(r'^html_title = f?"(.*)"$', conf, flags=re.M)
    assert match, "conf.py sets html_title"
    title = match.group(1).replace("{release}", bohmisch_watten.__version__)
    rule = _css_rule(".sidebar-brand-text")
    # furo's own rule is overflow-wrap: break-word, which splits a word that does not fit.
    assert rule.get("overflow-wrap") == "normal"
    size = rule.get("font-size", "1.5rem")
    assert size.endswith("rem")
    longest = max(title.split(), key=len)
    width = len(longest) * WIDE_GLYPH_EM * float(size.removesuffix("rem"))
    assert width <= SIDEBAR_REM, f"{longest!r} needs {width:.1f}rem of {SIDEBAR_REM}rem"


# ------------------------------------------------------------------ the phase diagram


def _numbers(text: str) -> list[float]:
    return [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", text)]


def _arrow_end(d: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The tip of a path and the unit direction it arrives in (M, L and C commands)."""
    points = _numbers(d)
    pairs = list(zip(points[::2], points[1::2], strict=True))
    tip, before = pairs[-1], pairs[-2]
    dx, dy = tip[0] - before[0], tip[1] - before[1]
    length = math.hypot(dx, dy)
    assert length > 0, f"path {d!r} ends in a point"
    return tip, (dx / length, dy / length)


def _diagram() -> ET.Element:
    return ET.fromstring(_load("phase_svg").render_svg())


def test_diagram_arrowheads_meet_a_box_head_on_away_from_its_corners() -> None:
    svg = _diagram()
    marker = svg.find(f"{SVG}defs/{SVG}marker")
    group = svg.find(f"{SVG}g")
    assert marker is not None
    assert group is not None
    # The marker scales with the stroke width (markerUnits="strokeWidth").
    head = float(marker.get("markerWidth", "3")) * float(group.get("stroke-width", "1"))
    boxes = [
        tuple(float(r.get(k, "0")) for k in ("x", "y", "width", "height", "rx"))
        for r in group.iter(f"{SVG}rect")
    ]
    arrows = [p.get("d", "") for p in group.iter(f"{SVG}path") if p.get("marker-end")]
    assert len(arrows) >= 10  # every transition and the start marker
    for d in arrows:
        (tx, ty), (ux, uy) = _arrow_end(d)
        hits = []
        for x, y, w, h, rx in boxes:
            # (inward normal, position of the tip along that edge, edge length)
            for normal, on_edge, along, length in (
                ((1, 0), abs(tx - x) < 0.5, ty - y, h),  # left edge
                ((-1, 0), abs(tx - x - w) < 0.5, ty - y, h),  # right edge
                ((0, 1), abs(ty - y) < 0.5, tx - x, w),  # top edge
                ((0, -1), abs(ty - y - h) < 0.5, tx - x, w),  # bottom edge
            ):
                if on_edge and 0 <= along <= length:
                    hits.append((normal, along, length, rx))
        assert hits, f"arrow {d!r} does not end on the edge of a box"
        normal, along, length, rx = hits[0]
        angle = math.degrees(math.acos(max(-1.0, min(1.0, ux * normal[0] + uy * normal[1]))))
        assert angle <= 10, f"arrow {d!r} meets its box at {angle:.0f}° off head-on"
        clearance = rx + head / 2
        assert clearance <= along <= length - clearance, (
            f"the head of arrow {d!r} touches a rounded corner of its box"
        )


def test_diagram_labels_start_right_of_the_self_loops() -> None:
    svg = _diagram()
    group = svg.find(f"{SVG}g")
    assert group is not None
    loops = [
        numbers
        for p in group.iter(f"{SVG}path")
        if " C" in p.get("d", "") and (numbers := _numbers(p.get("d", "")))[0] == numbers[-2]
    ]
    assert len(loops) == 3, "CUT, EXCHANGE and PLAY have moves that stay in the phase"
    # The x of a cubic Bezier curve whose two control points share one x (the loop's
    # reach) and whose ends share another (the box edge) peaks at 3/4 of the way out.
    edge = loops[0][0]
    bulge = max(edge + 0.75 * (max(numbers[0::2]) - edge) for numbers in loops)
    labels = [float(t.get("x", "0")) for t in svg.iter(f"{SVG}text")]
    beside = [x for x in labels if x > edge]
    assert beside, "the loops are labelled"
    assert min(beside) > bulge + 4


# ---------------------------------------------------------- names in the signatures


def test_private_names_are_found() -> None:
    surface = _load("api_surface")
    assert surface.private_names("tuple[NoSuchAlias, ...] | _TrickData | int") == [
        "NoSuchAlias",
        "_TrickData",
    ]
    assert surface.private_names("random.Random | Sequence[Card] | Literal['x']") == []


def test_public_signatures_name_only_public_types() -> None:
    surface = _load("api_surface")
    found = {
        name: sorted(set(hidden))
        for name, text, namespace in surface.documented_signatures()
        if (hidden := surface.private_names(text, namespace))
    }
    assert found == {}
