"""Sphinx extension of the bohmisch_watten docs: everything generated from the code.

* ``phase-diagram`` — an inline SVG of the phase machine, drawn at build time from
  :data:`bohmisch_watten.phases.MACHINE` itself (states, triggers, guards), plus its
  Mermaid ``stateDiagram-v2`` source.  No network, no external renderer: the SVG is
  laid out by ``phase_svg`` (beside this file) and uses ``currentColor`` so it follows
  the light and dark themes.
* ``phase-transitions`` — the machine's transitions as a table, with each guard's
  docstring, read from the same machine.
* ``api-names`` — every name of ``bohmisch_watten.__all__`` with a link to the place
  where it is documented.
* ``command-help NAME`` — the ``--help`` of a subcommand of the command line, as
  argparse prints it (88 columns), so the reference cannot drift from the options.
* ``{rule}`R25.1``` — a role that links a rule ID to its anchor on the rules page (the
  ``<a id="r25"></a>`` anchors of RULES.md, registered as labels).
* A completeness check: every name in the ``__all__`` of every public module must be
  documented somewhere, or the build warns (and ``-W`` turns that into a failure).
* Short cross-references (``:class:`GameState``` in any module's docstring) resolve to
  the one documented object with that name.
* Checks of what the reference shows, warnings under ``-W``: no signature names a type
  a reader cannot look up (``CutEntry``, ``_TrickData``; the rule is
  ``api_surface.private_names``), no function or property is documented twice (a
  mixin's properties again on each subclass), and no page lists what Python defines
  (``count`` and ``index`` of a tuple), which autodoc skips in the first place; no
  signature or value shows an object's ``repr`` (``<function …>``, ``<module …>``).
"""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

from api_surface import FACTORY_MADE, PACKAGE, private_names, public_modules, signature_text
from docutils import nodes
from phase_svg import machine_edges, render_mermaid, render_svg
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

logger = logging.getLogger(__name__)


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
        import bohmisch_watten.state as state

        self.env.note_dependency(phases.__file__)
        self.env.note_dependency(state.__file__)
        _, edges, _ = machine_edges()
        header = ["From", "Trigger", "Guard", "To", "Guard means"]
        rows = []
        for edge in edges:
            name = edge["guard"].removeprefix("not ")
            meaning = _first_line(state.GUARDS[name]) if name else ""
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


class CommandHelp(SphinxDirective):
    """``command-help NAME``: ``python -m bohmisch_watten NAME --help``, generated."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        import os

        from bohmisch_watten.commands.cli import build_main_parser, build_parser

        name = self.arguments[0]
        previous = os.environ.get("COLUMNS")
        os.environ["COLUMNS"] = "88"  # argparse wraps to the terminal's width
        try:
            parser = build_main_parser() if name == "-" else build_parser(name)
            text = parser.format_help()
        finally:
            if previous is None:
                del os.environ["COLUMNS"]
            else:
                os.environ["COLUMNS"] = previous
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


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
    the class docstring documents them.  Hide members a class inherits from outside the
    package too (``count`` and ``index`` of ``tuple`` or ``Sequence``): they are Python's,
    documented by Python."""
    doc = getattr(obj, "__doc__", None) or ""
    if what == "class" and doc.startswith("Alias for field number"):
        return True
    owner = foreign_module(obj)
    if owner is not None:
        return True
    return None


def foreign_module(obj: object) -> str | None:
    """The module outside the package that defines a function, method or property.

    ``None`` when ``obj`` is defined in the package, or is a value (a constant, an enum
    member) rather than code.
    """
    if isinstance(obj, property):
        obj = obj.fget
    if isinstance(obj, (classmethod, staticmethod)):
        obj = obj.__func__
    objclass = getattr(obj, "__objclass__", None)  # methods of builtin types
    if objclass is not None:
        module = getattr(objclass, "__module__", None)
    elif inspect.isfunction(obj) or inspect.isbuiltin(obj):
        module = getattr(obj, "__module__", None)
    else:
        return None
    if isinstance(module, str) and module.split(".")[0] != PACKAGE:
        return module
    return None


def check_signature_names(
    app: Sphinx,
    what: str,
    name: str,
    obj: object,
    options: Any,
    signature: str | None,
    return_annotation: str | None,
) -> None:
    """Warn when a documented signature names a type a reader cannot look up.

    The rule (:func:`api_surface.private_names`) is the one the test suite applies to
    every public signature; this applies it to what autodoc actually renders.
    """
    if what == "class" and name in FACTORY_MADE:
        return
    target = obj.fget if isinstance(obj, property) else obj
    if not callable(target):
        return
    module = inspect.getmodule(target)
    hidden = private_names(signature_text(target), vars(module) if module else None)
    if hidden:
        logger.warning(
            "the documented signature of %s names %s, which the API reference does not "
            "document: spell the type out or make the name public",
            name,
            ", ".join(sorted(set(hidden))),
            type="watten",
            subtype="private-name",
        )


_OBJECT_REPR = re.compile(r"<(?:function|module|bound method|class) |<locals>|object at 0x")


def check_rendered_reprs(app: Sphinx, doctree: nodes.document) -> None:
    """Warn when a documented signature or value shows an object's ``repr``.

    ``<function compile_decider.<locals>.<lambda>>`` or ``<module … from '/home/…'>``
    tells a reader nothing and leaks private names and build paths: a default should
    be a value (``None``), and a table of functions is documented without its value
    (``:meta hide-value:`` in its docstring).
    """
    for signature in doctree.findall(addnodes.desc_signature):
        text = signature.astext()
        if _OBJECT_REPR.search(text):
            logger.warning(
                "a documented signature or value shows an object repr: %s",
                text[:120],
                location=(app.env.docname, signature.line),
                type="watten",
                subtype="object-repr",
            )


def _resolve(fullname: str) -> tuple[object, object] | None:
    """The documented object of a py-domain name and its parent (class or module)."""
    parts = fullname.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            parent: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for part in parts[cut:-1]:
                parent = getattr(parent, part)
            if inspect.isclass(parent):
                return inspect.getattr_static(parent, parts[-1]), parent
            return getattr(parent, parts[-1]), parent
        except AttributeError:
            return None
    return None


CODE_OBJTYPES = frozenset(
    {"class", "exception", "function", "method", "classmethod", "staticmethod", "property"}
)
"""Py-domain entries that document code (one object each), not values."""


def check_documented_once(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn when one function or property is documented under two names, or when a
    page documents a member that Python (not the package) defines.

    A mixin's properties belong on the mixin's entry; a class that inherits them links
    to it through its "Bases:" line.  Repeating them (``:inherited-members:``) makes two
    entries for one object, and short references to them ambiguous.
    """
    objects = env.get_domain("py").objects  # type: ignore[attr-defined]
    seen: dict[int, str] = {}
    for fullname, entry in sorted(objects.items()):
        if entry.objtype not in CODE_OBJTYPES or entry.aliased:
            continue
        resolved = _resolve(fullname)
        if resolved is None:
            continue
        obj = resolved[0]
        module = foreign_module(obj)
        if module is not None:
            logger.warning(
                "%s is documented, but %s defines it (a member inherited from Python)",
                fullname,
                module,
                location=entry.docname,
                type="watten",
                subtype="foreign-member",
            )
            continue
        key = getattr(obj, "__func__", None) or obj
        if isinstance(key, property):
            key = key.fget
        first = seen.setdefault(id(key), fullname)
        if first != fullname:
            logger.warning(
                "%s is documented twice, as %s and as %s",
                fullname.rsplit(".", 1)[-1],
                first,
                fullname,
                location=entry.docname,
                type="watten",
                subtype="documented-twice",
            )


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
    app.add_directive("command-help", CommandHelp)
    app.add_role("rule", rule_role)
    app.connect("doctree-read", register_html_anchors)
    app.connect("doctree-read", check_rendered_reprs)
    app.connect("env-check-consistency", check_api_documented)
    app.connect("env-check-consistency", check_documented_once)
    app.connect("autodoc-process-signature", check_signature_names)
    app.connect("missing-reference", resolve_short_names)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
