"""The lobby's rule choices: one named, explained control per field of ``Rules``, in both
languages, starting at ``suggested_rules`` for each table size (RULES.md §8, §9.3)."""

from __future__ import annotations

import enum
import json
import re
from html.parser import HTMLParser

import attrs
import pytest

from bohmisch_watten import Rules, suggested_rules
from bohmisch_watten.rules import rules_values
from bohmisch_watten.web._i18n import LANGUAGES
from bohmisch_watten.web._page import render_lobby


class _Form(HTMLParser):
    """The lobby's elements by id, with their attributes, options and text."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: dict[str, dict[str, str]] = {}
        self.options: dict[str, list[tuple[str, str]]] = {}
        self.labels: dict[str, str] = {}
        self.texts: dict[str, str] = {}
        self._open: list[tuple[str, str | None]] = []  # (tag, id or label's for)
        self._select: str | None = None
        self._option: str | None = None

    def handle_starttag(self, tag: str, attributes: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attributes}
        if "id" in found:
            self.elements[found["id"]] = {"tag": tag, **found}
        if tag == "select":
            self._select = found.get("id")
            self.options[self._select or ""] = []
        elif tag == "option":
            self._option = found.get("value", "")
        if tag in ("label", "p"):
            key = found.get("for") if tag == "label" else found.get("id")
            self._open.append((tag, key))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        if self._open and self._open[-1][0] == tag:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._select is not None and self._option is not None and data.strip():
            self.options[self._select].append((self._option, data.strip()))
            self._option = None
        if self._open:
            tag, key = self._open[-1]
            if key:
                target = self.labels if tag == "label" else self.texts
                target[key] = (target.get(key, "") + data).strip()


def _form(lang: str) -> _Form:
    form = _Form()
    form.feed(render_lobby(lang))
    return form


@pytest.mark.rule("R12", "R14", "R19", "R25", "R26", "R28", "R30", "R31", "R32", "R33", "R21")
def test_every_variant_is_a_named_choice_explained_in_both_languages() -> None:
    default = Rules()
    forms = {lang: _form(lang) for lang in LANGUAGES}
    fields = [f.name for f in attrs.fields(Rules) if f.name != "pack"]  # the pack: its own
    for lang, form in forms.items():
        controls = [i for i, e in form.elements.items() if "data-rule" in e]
        assert [form.elements[i]["data-rule"] for i in controls] == fields  # in field order
        for control in controls:
            element, name = form.elements[control], form.elements[control]["data-rule"]
            assert form.labels[control], (lang, name)  # a name the page says ...
            help_id = element["aria-describedby"]
            assert re.search(r"\(R\d+", form.texts[help_id]), (lang, name)  # ... and one line
            value = getattr(default, name)
            if isinstance(value, bool):
                assert element.get("type") == "checkbox", name
            elif isinstance(value, enum.Enum):
                assert [v for v, _ in form.options[control]] == [m.value for m in type(value)]
            elif name == "dealer_stock_limit":
                assert [v for v, _ in form.options[control]] == ["2", "3"]
            else:  # an integer field: the bounds Rules checks
                low, high = int(element["min"]), int(element["max"])
                Rules(**{name: low})
                Rules(**{name: high})
                for outside in (low - 1, high + 1):
                    with pytest.raises(ValueError, match=name):
                        Rules(**{name: outside})
        assert form.elements["rules"]["tag"] == "input"  # the advanced text stays
    english, german = forms["en"], forms["de"]
    for key, text in english.labels.items():
        if key.startswith("rule-"):
            assert german.labels[key] != text, key  # translated, not the English id
    for key, text in english.texts.items():
        if key.startswith("rule-"):
            assert german.texts[key] != text, key
    for control, options in english.options.items():
        if control.startswith("rule-"):
            assert [t for _, t in german.options[control]] != [t for _, t in options], control


@pytest.mark.rule("R1", "R33")
def test_the_page_carries_the_suggested_rules_of_each_table_size() -> None:
    script = render_lobby("en")
    shipped = json.loads(re.search(r"const RULES = (\{.*?\});", script).group(1))  # type: ignore[union-attr]
    assert shipped["defaults"] == rules_values(Rules())
    sizes = {pack: range(2, Rules(pack=pack).max_players + 1) for pack in (32, 36)}
    assert {int(p): [int(n) for n in by] for p, by in shipped["suggested"].items()} == {
        pack: list(players) for pack, players in sizes.items()
    }
    for pack, players in sizes.items():
        for n in players:
            named = shipped["suggested"][str(pack)][str(n)]
            assert Rules(**{**shipped["defaults"], **named}) == suggested_rules(n, pack)
    assert shipped["suggested"]["36"]["7"] == {"plus_fifty": True, "pack": 36}
