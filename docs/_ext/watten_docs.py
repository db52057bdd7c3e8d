"""Sphinx extension of the bohmisch_watten docs: everything generated from the code.

* ``phase-diagram`` — an inline SVG of the phase machine, drawn at build time from
  :data:`bohmisch_watten.phases.MACHINE` itself (states, triggers, guards), plus its
  Mermaid ``stateDiagram-v2`` source.  No network, no external renderer: the SVG is
  laid out here and uses ``currentColor`` so it follows the light and dark themes.
* ``phase-transitions`` — the machine's transitions as a table, with each guard's
  docstring, read from the same machine.
* ``api-names`` — every name of ``bohmisch_watten.__all__`` with a link to the place
  where it is documented.
* ``{rule}`R25.1``` — a role that links a rule ID to its anchor on the rules page (the
  ``<a id="r25"></a>`` anchors of RULES.md, registered as labels).
* A completeness check: every name in the ``__all__`` of every public module must be
  documented somewhere, or the build warns (and ``-W`` turns that into a failure).
* Short cross-references (``:class:`GameState``` in any module's docstring) resolve to
  the one documented object with that name.
"""

from __future__ import annotations

import html
import importlib
import pkgutil
import re
from collections.abc import Iterator
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

logger = logging.getLogger(__name__)

PACKAGE = "bohmisch_watten"


# --------------------------------------------------------------- the phase machine


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
    text = edge["trigger"]
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
    box_w, box_h, top, step = 150, 40, 60, 96
    cx = 110 + 24 * backs + box_w // 2
    left, right = cx - box_w // 2, cx + box_w // 2
    longest = max(len(_label(e)) for e in edges)
    width = right + 60 + int(longest * 8.2)

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
        y0 = y(src)
        line(
            f"M{right},{y0 + 10} C{right + 45},{y0 - 10} {right + 45},{y0 + box_h + 10} "
            f"{right},{y0 + box_h - 10}",
            all(e["auto"] for e in group),
        )
        for i, edge in enumerate(group):
            label(right + 44, y0 + box_h / 2 + 5 + 17 * (i - (len(group) - 1) / 2), _label(edge))
    for name in order:
        y0 = y(name)
        dash = ' stroke-dasharray="6 4"' if name in only_auto else ""
        out.append(f'<rect x="{left}" y="{y0}" width="{box_w}" height="{box_h}" rx="8"{dash}/>')
        if name not in sources:  # a final phase: double border
            out.append(
                f'<rect x="{left + 4}" y="{y0 + 4}" width="{box_w - 8}" '
                f'height="{box_h - 8}" rx="6"/>'
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


class PhaseDiagram(SphinxDirective):
    """``phase-diagram``: the SVG (HTML builders) and the Mermaid source."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        import bohmisch_watten.phases as phases

        self.env.note_dependency(phases.__file__)
        figure = nodes.raw("", render_svg(), format="html")
        source = render_mermaid()
        literal = nodes.literal_block(source, source)
        literal["language"] = "text"
        caption = nodes.paragraph(
            "", "The same machine as Mermaid stateDiagram-v2 source, generated at build time:"
        )
        return [figure, caption, literal]


def _first_line(obj: object) -> str:
    doc = (getattr(obj, "__doc__", None) or "").strip()
    return doc.splitlines()[0] if doc else ""


class PhaseTransitions(SphinxDirective):
    """``phase-transitions``: a table of every transition of the machine."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        import bohmisch_watten.phases as phases

        self.env.note_dependency(phases.__file__)
        _, edges, _ = machine_edges()
        header = ["From", "Trigger", "Guard", "To", "Guard means"]
        rows = []
        for edge in edges:
            name = edge["guard"].removeprefix("not ")
            meaning = _first_line(phases.GUARDS[name]) if name else ""
            if edge["guard"].startswith("not "):
                meaning = f"Otherwise (not: {meaning})"
            trigger = edge["trigger"] + (" (auto)" if edge["auto"] else "")
            rows.append([edge["source"], trigger, edge["guard"] or "—", edge["dest"], meaning])
        return [_table(header, rows, widths=[12, 14, 20, 12, 42])]


def _table(header: list[str], rows: list[list[Any]], widths: list[int]) -> nodes.table:
    """A docutils table; cells are strings (made literal when ``code``) or nodes."""
    table = nodes.table(classes=["generated-table"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    thead = nodes.thead()
    group += thead
    tbody = nodes.tbody()
    group += tbody

    def make_row(cells: list[Any]) -> nodes.row:
        row = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            if isinstance(cell, nodes.Node):
                entry += nodes.paragraph("", "", cell)
            else:
                entry += nodes.paragraph("", str(cell))
            row += entry
        return row

    thead += make_row(header)
    for cells in rows:
        tbody += make_row(cells)
    return table


# ----------------------------------------------------------------- the public API


def public_modules() -> Iterator[Any]:
    """The package and every public submodule (name without a leading underscore)."""
    package = importlib.import_module(PACKAGE)
    yield package
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.startswith("_"):
            yield importlib.import_module(f"{PACKAGE}.{info.name}")


def defining_module(name: str) -> str:
    """Where a name of ``bohmisch_watten.__all__`` is defined (the module to link to)."""
    package = importlib.import_module(PACKAGE)
    obj = getattr(package, name)
    candidates = [
        module.__name__
        for module in public_modules()
        if module is not package
        and name in getattr(module, "__all__", ())
        and getattr(module, name) is obj
    ]
    if len(candidates) == 1:
        return candidates[0]
    owner = getattr(obj, "__module__", None)
    if isinstance(owner, str) and owner in candidates:
        return owner
    return PACKAGE


class ApiNames(SphinxDirective):
    """``api-names``: every name importable from the package, linked to its docs."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        package = importlib.import_module(PACKAGE)
        self.env.note_dependency(package.__file__)
        rows = []
        for name in sorted(package.__all__, key=str.lower):
            module = defining_module(name)
            target = f"{module}.{name}"
            ref = addnodes.pending_xref(
                "", refdomain="py", reftype="obj", reftarget=target, refexplicit=True,
                refwarn=True,
            )  # fmt: skip
            ref += nodes.literal(name, name)
            summary = _first_line(getattr(package, name))
            if not isinstance(getattr(package, name), (type,)) and not callable(
                getattr(package, name)
            ):
                summary = ""  # a constant: its repr is no summary
            rows.append([ref, nodes.literal(module, module), summary])
        return [_table(["Name", "Documented in", "Summary"], rows, widths=[22, 28, 50])]


def check_api_documented(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn for every name in a public module's ``__all__`` that is not documented."""
    objects = env.get_domain("py").objects  # type: ignore[attr-defined]
    for module in public_modules():
        for name in getattr(module, "__all__", ()):
            if module.__name__ == PACKAGE:
                where = defining_module(name)
            else:
                where = module.__name__
                if defining_module_of(module, name) != where:
                    continue  # re-exported from elsewhere: documented there
            if f"{where}.{name}" not in objects:
                logger.warning(
                    "public name %s.%s is not documented in the API reference", where, name
                )


def defining_module_of(module: Any, name: str) -> str:
    """Where ``module.name`` comes from, for classes and functions re-exported between modules."""
    obj = getattr(module, name)
    owner = getattr(obj, "__module__", None)
    if callable(obj) and isinstance(owner, str) and owner.startswith(PACKAGE + "."):
        return owner
    return str(module.__name__)


def resolve_short_names(
    app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref, contnode: nodes.Element
) -> nodes.Element | None:
    """Resolve ``GameState.apply`` or ``bohmisch_watten.GameState`` to its one documentation."""
    if node.get("refdomain") != "py":
        return None
    target = str(node["reftarget"]).lstrip("~.")
    if target.startswith(PACKAGE + "."):
        target = target[len(PACKAGE) + 1 :]
    objects = env.get_domain("py").objects  # type: ignore[attr-defined]
    matches = [key for key in objects if key.endswith("." + target)]
    if len(matches) != 1:
        return None
    entry = objects[matches[0]]
    return make_refnode(
        app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, matches[0]
    )


# --------------------------------------------------------------------- rule links

_RULE = re.compile(r"^R(\d+)(\.\d+)?$")


def rule_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Any,
    options: dict[str, Any] | None = None,
    content: list[str] | None = None,
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """``{rule}`R25.1``` links to the anchor of R25 on the rules page."""
    match = _RULE.match(text.strip())
    if not match:
        msg = inliner.reporter.error(f"not a rule ID: {text!r}", line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    ref = addnodes.pending_xref(
        rawtext, refdomain="std", reftype="ref", reftarget=f"r{match.group(1)}",
        refexplicit=True, refwarn=True,
    )  # fmt: skip
    ref += nodes.inline(text, text, classes=["rule-id"])
    return [ref], []


_HTML_ANCHOR = re.compile(r'<a id="([a-z0-9][\w.-]*)">')


def register_html_anchors(app: Sphinx, doctree: nodes.document) -> None:
    """Make the ``<a id="r25"></a>`` anchors of RULES.md targets of ``{rule}`` and links.

    RULES.md is included by the rules page and must also read well on a code host, which
    shows MyST's ``(R25)=`` target lines as text; so it marks each rule with a raw HTML
    anchor instead, and this registers every such anchor as a label of the page.
    """
    std = app.env.domaindata["std"]
    docname = app.env.docname
    for raw in doctree.findall(nodes.raw):
        if raw.get("format") != "html":
            continue
        for name in _HTML_ANCHOR.findall(raw.astext()):
            std["anonlabels"][name] = (docname, name)
            std["labels"][name] = (docname, name, name.upper())


def skip_namedtuple_aliases(
    app: Sphinx, what: str, name: str, obj: object, skip: bool, options: Any
) -> bool | None:
    """Hide ``NamedTuple`` fields (their docstring is "Alias for field number N");
    the class docstring documents them."""
    doc = getattr(obj, "__doc__", None) or ""
    if what == "class" and doc.startswith("Alias for field number"):
        return True
    return None


FACTORY_MADE = {
    f"{PACKAGE}.state.GameState": "made by new_game() and apply()",
    f"{PACKAGE}.views.PlayerView": "made by GameState.view()",
}
"""Classes whose attrs constructor is internal: their signature would list private fields."""


def hide_internal_constructors(
    app: Sphinx,
    what: str,
    name: str,
    obj: object,
    options: Any,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str, str | None] | None:
    """Show ``GameState`` and ``PlayerView`` without their positional internal fields."""
    if what == "class" and name in FACTORY_MADE:
        return "", None
    return None


def _attribute_docstring_as_prose(self: Any) -> list[str]:
    """Napoleon reads a property's first line as ``type: description``.

    This project's properties carry type hints and start with prose that often holds a
    colon ("The ritual so far: ``(seat, card)`` …"), which napoleon would cut into a
    bogus type.  Parse the whole docstring as ordinary Google-style text instead.
    """
    lines = list(self._dedent(self._consume_to_end()))
    return list(type(self)(lines, self._config).lines())


def setup(app: Sphinx) -> dict[str, Any]:
    from sphinx.ext.napoleon.docstring import GoogleDocstring

    GoogleDocstring._parse_attribute_docstring = _attribute_docstring_as_prose  # type: ignore[method-assign]
    app.connect("autodoc-process-signature", hide_internal_constructors)
    app.connect("autodoc-skip-member", skip_namedtuple_aliases)
    app.add_directive("phase-diagram", PhaseDiagram)
    app.add_directive("phase-transitions", PhaseTransitions)
    app.add_directive("api-names", ApiNames)
    app.add_role("rule", rule_role)
    app.connect("doctree-read", register_html_anchors)
    app.connect("env-check-consistency", check_api_documented)
    app.connect("missing-reference", resolve_short_names)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
