"""The project's rules reference, section by section.

The engine names a rule section whenever it refuses a move
(``IllegalMoveError.rule``, or the first item of ``game.why_illegal(move)``):
``"A4"`` for claiming a route, ``"B3"`` for Europe, ``"notation"`` for text
that does not parse, and so on.  This module reads the reference that ships
with ttr_lab (``docs/rules.md``, installed as the package data
``ttr_lab.docs``) and returns the text of one section, so a notebook, the
command line or a widget can show the rule behind a refusal.

Sections are headed ``### <ID>. <Title>`` in the document; parts are headed
``## <letter>. <Title>``.  A section's text runs from its heading to the next
heading of either kind.  The document is read and parsed once, then cached.

Examples
--------
>>> from ttr_lab.engine.reference import explain, rule_ids, rule_title
>>> rule_ids()[:3]
('A1', 'A2', 'A3')
>>> rule_title("a4")
'Claiming a route'
>>> print(explain("C1").splitlines()[0])
### C1. Repeated wild resets
>>> explain("moon")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ttr_lab.errors.TtrError: unknown rule id 'moon' (known: A1, A2, ...)
"""

from __future__ import annotations

import importlib.resources
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import TtrError

__all__ = ["explain", "rule_ids", "rule_title"]

_FILE = "rules.md"
_HEADING = re.compile(r"^(#{2,3})[ \t]+(.*?)[ \t]*$")
_SECTION = re.compile(r"^(?P<id>[A-Za-z][A-Za-z0-9_]*)\.[ \t]+(?P<title>\S.*)$")
_FENCE = re.compile(r"^[ \t]{0,3}(```|~~~)")


@dataclass(frozen=True)
class _Section:
    id: str
    title: str
    text: str


@dataclass(frozen=True)
class _Reference:
    order: tuple[str, ...]
    by_key: dict[str, _Section]


def _read_document() -> str:
    """The text of ``rules.md``: the installed package data ``ttr_lab.docs``
    if that package is importable, else the ``docs`` folder of a source
    checkout (a plain checkout run without installing)."""
    try:
        resource = importlib.resources.files("ttr_lab.docs").joinpath(_FILE)
        if resource.is_file():
            return resource.read_text(encoding="utf-8")
    except (ImportError, OSError, TypeError):  # not importable (or not readable there)
        pass
    package = Path(__file__).resolve().parents[1]  # ttr_lab/ (this module is ttr_lab/engine/reference.py)
    candidates = (package.parent / "docs" / _FILE, package / "docs" / _FILE)
    for path in candidates:
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise TtrError(f"the rules reference {_FILE} was not found (looked in ttr_lab.docs and {candidates[0]})")


def _parse(text: str) -> _Reference:
    """Split the document into its ``###`` sections.  A section ends at the
    next ``##`` or ``###`` heading; lines inside fenced code blocks are never
    headings."""
    found: list[tuple[str, str, list[str]]] = []
    body: list[str] | None = None  # the lines of the section being read
    in_fence = False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
        heading = None if in_fence else _HEADING.match(line)
        if heading is None:
            if body is not None:
                body.append(line)
            continue
        body = None
        if len(heading.group(1)) == 3:
            m = _SECTION.match(heading.group(2))
            if m is None:
                raise TtrError(f"{_FILE}: section heading {line!r} is not of the form '### <ID>. <Title>'")
            body = [line]
            found.append((m.group("id"), m.group("title"), body))
    by_key: dict[str, _Section] = {}
    for sid, title, lines in found:
        key = sid.lower()
        if key in by_key:
            raise TtrError(f"{_FILE}: rule id {sid!r} has two sections")
        by_key[key] = _Section(sid, title, "\n".join(lines).strip())
    return _Reference(tuple(sid for sid, _, _ in found), by_key)


@lru_cache(maxsize=1)
def _reference() -> _Reference:
    return _parse(_read_document())


def _section(rule_id: str) -> _Section:
    ref = _reference()
    key = rule_id.strip().lower() if isinstance(rule_id, str) else None
    section = ref.by_key.get(key) if key is not None else None
    if section is None:
        raise TtrError(f"unknown rule id {rule_id!r} (known: {', '.join(ref.order)})")
    return section


def rule_ids() -> tuple[str, ...]:
    """Every section id of the rules reference, in document order.

    Returns
    -------
    tuple of str
        ``("A1", ..., "A7", "B1", ..., "C16", "notation")``: the ids the
        engine cites in ``IllegalMoveError.rule`` and ``why_illegal``.

    Examples
    --------
    >>> from ttr_lab.engine.reference import rule_ids
    >>> ids = rule_ids()
    >>> ids[0], "B3" in ids, ids[-1]
    ('A1', True, 'notation')
    """
    return _reference().order


def rule_title(rule_id: str) -> str:
    """The title of one section, without its id.

    Parameters
    ----------
    rule_id : str
        A section id such as ``"A4"``; case does not matter.

    Returns
    -------
    str
        The heading's title, e.g. ``"Claiming a route"``.

    Raises
    ------
    TtrError
        If there is no section with that id; the message lists the known ids.

    Examples
    --------
    >>> from ttr_lab.engine.reference import rule_title
    >>> rule_title("B3")
    'Europe'
    """
    return _section(rule_id).title


def explain(rule_id: str) -> str:
    """The text of one section of the rules reference.

    Parameters
    ----------
    rule_id : str
        A section id as the engine cites it (``"A2"``, ``"B4"``, ``"C7"``,
        ``"notation"``...); case does not matter.

    Returns
    -------
    str
        The section's heading line and its body, up to the next heading,
        with surrounding blank lines stripped (Markdown text).

    Raises
    ------
    TtrError
        If there is no section with that id; the message names the id and
        lists the known ones.

    Examples
    --------
    >>> import ttr_lab
    >>> from ttr_lab.engine.reference import explain
    >>> game = ttr_lab.new_game("usa", players=2, seed=1)
    >>> rule, reason = game.why_illegal("tickets")
    >>> rule
    'A5'
    >>> print(explain(rule).splitlines()[0])
    ### A5. Drawing destination tickets
    >>> explain("a5") == explain("A5")
    True
    """
    return _section(rule_id).text
