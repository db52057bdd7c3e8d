"""The phase diagram of the docs, drawn from ``bohmisch_watten.phases.MACHINE``.

Kept apart from the Sphinx extension (``watten_docs``) and free of Sphinx imports, so
that the test suite can draw the diagram and check its geometry without the docs
extra installed (tests/test_docs_layout.py).

Layout: the phases top to bottom in breadth-first order from the initial one; an edge
to the next phase is a straight arrow down, a phase's edges to itself are one loop on
its right, and every other edge (back to DEAL) runs around the left side.  Every
arrowhead meets the straight part of a box edge head-on, never a rounded corner.
"""

from __future__ import annotations

import html
from typing import Any

BOX_W = 150
"""Width of a phase box."""

BOX_H = 44
"""Height of a phase box: its straight right edge must hold a loop's start and end."""

BOX_RX = 8
"""Corner radius of a phase box."""

TOP = 60
"""The top of the first box (the start marker sits above it)."""

STEP = 96
"""Vertical distance between the tops of two consecutive boxes."""

LOOP_OUT = 10
"""Distance of a self-loop's start below the top of its box (on the right edge)."""

LOOP_IN = 30
"""Distance of a self-loop's arrow tip below the top of its box (on the right edge).

The tip must be at least ``BOX_RX`` plus half an arrowhead (6 px) away from either
corner, so that the arrowhead touches the straight edge only."""

LOOP_REACH = 48
"""How far to the right of the box the control points of a self-loop lie."""


def machine_edges() -> tuple[list[str], list[dict[str, Any]], str]:
    """Read the compiled ``transitions`` machine: phase names, edges, initial phase.

    Each edge is ``{"source", "dest", "trigger", "guard", "auto"}``; ``guard`` is
    ``""``, ``"name"`` or ``"not name"``.  The phases come in the machine's own order.
    """
    from bohmisch_watten.phases import AUTO_TRIGGERS, MACHINE

    auto = set(AUTO_TRIGGERS.values())
    phases = list(MACHINE.states)
    edges = []
    for trigger, event in MACHINE.events.items():
        for source, transitions in event.transitions.items():
            for transition in transitions:
                guards = [
                    (str(c.func) if c.target else f"not {c.func}") for c in transition.conditions
                ]
                edges.append(
                    {
                        "source": source,
                        "dest": str(transition.dest),
                        "trigger": trigger,
                        "guard": " and ".join(guards),
                        "auto": trigger in auto,
                    }
                )
    return phases, edges, str(MACHINE.initial)


def _main_line(phases: list[str], edges: list[dict[str, Any]], initial: str) -> list[str]:
    """Phases in breadth-first order from the initial one, the rest after them."""
    order = [initial]
    for name in order:
        for edge in edges:
            if edge["source"] == name and edge["dest"] not in order:
                order.append(edge["dest"])
    return order + [p for p in phases if p not in order]


def _label(edge: dict[str, Any]) -> str:
    text = str(edge["trigger"])
    if edge["guard"]:
        text += f" [{edge['guard']}]"
    if edge["auto"]:
        text += " (auto)"
    return text


def render_svg() -> str:
    """The phase machine as an inline SVG: phases top to bottom, loops right, returns left."""
    phases, edges, initial = machine_edges()
    order = _main_line(phases, edges, initial)
    row = {name: i for i, name in enumerate(order)}
    sources = {e["source"] for e in edges}
    only_auto = {p for p in sources if all(e["auto"] for e in edges if e["source"] == p)}

    backs = sum(
        1 for e in edges if e["source"] != e["dest"] and row[e["dest"]] != row[e["source"]] + 1
    )
    box_w, box_h, top, step = BOX_W, BOX_H, TOP, STEP
    cx = 110 + 24 * backs + box_w // 2
    left, right = cx - box_w // 2, cx + box_w // 2
    longest = max(len(_label(e)) for e in edges)
    width = right + LOOP_REACH + 20 + int(longest * 8.2)

    def y(name: str) -> int:
        return top + row[name] * step

    height = top + (len(order) - 1) * step + box_h + 30
    out = [
        f'<svg class="phase-diagram" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'viewBox="0 0 {width} {height}" style="max-width: {width}px; width: 100%; height: auto" '
        'font-family="sans-serif" font-size="14">',
        "<title>The phase machine of bohmisch_watten, generated from phases.MACHINE</title>",
        '<defs><marker id="pd-arrow" viewBox="0 0 10 10" refX="10" refY="5" '
        'markerWidth="8" markerHeight="8" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z" fill="currentColor"/></marker></defs>',
        '<g fill="none" stroke="currentColor" stroke-width="1.5">',
    ]
    text: list[str] = []

    def line(d: str, auto: bool) -> None:
        dash = ' stroke-dasharray="6 4"' if auto else ""
        out.append(f'<path d="{d}"{dash} marker-end="url(#pd-arrow)"/>')

    def label(x: float, y_: float, s: str, anchor: str = "start") -> None:
        text.append(
            f'<text x="{x:.0f}" y="{y_:.0f}" text-anchor="{anchor}" fill="currentColor" '
            f'stroke="none">{html.escape(s)}</text>'
        )

    # Start marker into the initial phase.
    out.append(f'<circle cx="{cx}" cy="{top - 40}" r="6" fill="currentColor"/>')
    line(f"M{cx},{top - 34} L{cx},{top}", False)
    label(cx + 12, top - 30, "new_game()")

    loops: dict[str, list[dict[str, Any]]] = {}
    back = 0
    for edge in edges:
        src, dst = edge["source"], edge["dest"]
        if src == dst:
            loops.setdefault(src, []).append(edge)
        elif row[dst] == row[src] + 1:
            y0, y1 = y(src) + box_h, y(dst)
            line(f"M{cx},{y0} L{cx},{y1}", edge["auto"])
            label(cx + 10, (y0 + y1) / 2 + 5, _label(edge))
        else:  # a jump back (or over phases): around the left side
            back += 1
            x = left - 30 - 24 * back
            y0, y1 = y(src) + box_h / 2 + 6, y(dst) + box_h / 2 - 6
            line(f"M{left},{y0} L{x},{y0} L{x},{y1} L{left},{y1}", edge["auto"])
            mid = (y0 + y1) / 2
            text.append(
                f'<text x="{x - 8}" y="{mid:.0f}" text-anchor="middle" fill="currentColor" '
                f'stroke="none" transform="rotate(-90 {x - 8} {mid:.0f})">'
                f"{html.escape(_label(edge))}</text>"
            )
    for src, group in loops.items():
        # Out of the right edge going right, back into it going left: both ends of
        # the curve are horizontal, so the arrowhead meets the edge head-on.
        y_out, y_in = y(src) + LOOP_OUT, y(src) + LOOP_IN
        reach = right + LOOP_REACH
        line(
            f"M{right},{y_out} C{reach},{y_out} {reach},{y_in} {right},{y_in}",
            all(e["auto"] for e in group),
        )
        middle = (y_out + y_in) / 2 + 5
        for i, edge in enumerate(group):
            label(reach - 4, middle + 17 * (i - (len(group) - 1) / 2), _label(edge))
    for name in order:
        y0 = y(name)
        dash = ' stroke-dasharray="6 4"' if name in only_auto else ""
        out.append(
            f'<rect x="{left}" y="{y0}" width="{box_w}" height="{box_h}" rx="{BOX_RX}"{dash}/>'
        )
        if name not in sources:  # a final phase: double border
            out.append(
                f'<rect x="{left + 4}" y="{y0 + 4}" width="{box_w - 8}" '
                f'height="{box_h - 8}" rx="{BOX_RX - 2}"/>'
            )
        text.append(
            f'<text x="{cx}" y="{y0 + box_h / 2 + 5:.0f}" text-anchor="middle" '
            f'fill="currentColor" stroke="none" font-weight="bold">{html.escape(name)}</text>'
        )
    out.append("</g>")
    out.extend(text)
    out.append("</svg>")
    return "\n".join(out)


def render_mermaid() -> str:
    """The phase machine as Mermaid ``stateDiagram-v2`` source."""
    phases, edges, initial = machine_edges()
    lines = ["stateDiagram-v2", f"    [*] --> {initial}"]
    for edge in edges:
        lines.append(f"    {edge['source']} --> {edge['dest']}: {_label(edge)}")
    sources = {e["source"] for e in edges}
    lines.extend(f"    {p} --> [*]" for p in phases if p not in sources)
    return "\n".join(lines)
