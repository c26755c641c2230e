"""What the widgets say: a move as a log line, a refusal with its rule.

A log line is what **every** player may learn of a move
(:meth:`~ttr_lab.moves.Move.announce`): "Ada kept 2 tickets", never which
ones; "Bo chose how to split the pieces", never the split.  A refusal names
the rule section that forbids the move and quotes it from the rules
reference (:func:`ttr_lab.rules.explain`).

>>> import ttr_lab
>>> g = ttr_lab.new_game("usa", players=["Ada", "Bo"], seed=7)
>>> move_line(g, g.legal_moves[0])
'Ada kept 2 tickets'
>>> g.play(g.legal_moves[0]); g.play(g.legal_moves[0])
>>> move_line(g, g.legal_moves[0])
'Ada: take the face-up green (slot 1)'
>>> print(rule_details("A4").splitlines()[0])
<details class="ttr-rule"><summary><b>Rule A4: Claiming a route</b> (from the rules reference)</summary>
>>> "<b>double-route rule</b>" in rule_details("A4") and "**" not in rule_details("A4")
True
>>> rule_details("?")
''
"""

from __future__ import annotations

import html
import re
from typing import Any

from ..errors import TtrError
from ..moves import Move
from ..rules import explain, rule_title

__all__ = ["move_line", "rule_details", "rule_heading"]

#: past tenses for announcements that read as a sentence about the player
#: ("keep 2 tickets" -> "Ada kept 2 tickets"); other lines are "Ada: ..."
_PAST = {"keep": "kept", "choose": "chose"}


def move_line(state: Any, move: Move) -> str:
    """The public log line for ``move``, played by the current player of ``state``
    (call it before the move is played)."""
    name = state.player_names[state.current_player]
    said = move.announce(state)
    verb, _, rest = said.partition(" ")
    if verb in _PAST:
        return f"{name} {_PAST[verb]} {rest}".rstrip()
    return f"{name}: {said}"


def rule_heading(rule: str) -> str | None:
    """``"Rule A4: Claiming a route"``, or None for an id the reference does not have."""
    try:
        return f"Rule {rule}: {rule_title(rule)}"
    except TtrError:
        return None


_BOLD = re.compile(r"\*\*([^*]+)\*\*")  # may span a line break
_CODE = re.compile(r"`([^`]+)`")


def _markdown_lite(text: str) -> str:
    """The reference's markdown as HTML that keeps its lines: escaped, with
    bold and code spans (lists and tables read well as they are)."""
    out = html.escape(text)
    out = _BOLD.sub(r"<b>\1</b>", out)
    return _CODE.sub(r"<code>\1</code>", out)


def rule_details(rule: str | None) -> str:
    """A collapsed ``<details>`` block quoting the rules reference's section
    ``rule`` (empty for None or an id the reference does not have)."""
    if not rule:
        return ""
    heading = rule_heading(rule)
    if heading is None:
        return ""
    text = explain(rule)
    body = text.split("\n", 1)[1].strip() if text.startswith("#") and "\n" in text else text
    return (
        f'<details class="ttr-rule"><summary><b>{html.escape(heading)}</b> (from the rules reference)</summary>\n'
        f'<div class="ttr-rule-text" style="white-space:pre-wrap;max-height:18em;overflow:auto;'
        f'font-size:90%;border-left:3px solid #90a4ae;padding-left:6px">{_markdown_lite(body)}</div></details>'
    )
