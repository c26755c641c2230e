"""What the widgets say: a move as a log line, a refusal with its rule.

A log line is what **every** player may learn of a move
(:meth:`~ttr_lab.engine.moves.Move.announce`): "Ada kept 2 tickets", never which
ones; "Bo chose how to split the pieces", never the split.  A refusal names
the rule section that forbids the move and quotes it from the rules
reference (:func:`ttr_lab.engine.reference.explain`).

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

A refusal in words, built from the library's answer (its reason stays quoted):

>>> g = ttr_lab.new_game("usa", players=["You", "Bo"], seed=7)
>>> g.play(g.legal_moves[0]); g.play(g.legal_moves[0])
>>> rule, reason = g.why_illegal("claim 2 red:1")
>>> print(claim_refusal(g, 2, rule, reason))
Atlanta–Miami needs 5 blue cards; you hold 0 blue and 1 locomotive (rule A4: must pay exactly 5 cards, not 1).
>>> wild_word(g), wild_word(ttr_lab.new_game("rails_and_sails", players=2))
('locomotive', 'wild')
"""

from __future__ import annotations

import colorsys
import html
import re
from typing import Any

from ..board import scene as board_scene
from ..engine.moves import Move
from ..engine.phases import Phase
from ..engine.reference import explain, rule_title
from ..errors import TtrError
from .card_chips import WILD_WORDS, card_label

__all__ = [
    "move_line",
    "rule_details",
    "rule_heading",
    "wild_word",
    "route_words",
    "claim_refusal",
    "drawn_cards",
    "rule_paragraph",
    "colour_name",
    "highlight_words",
]

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


# --------------------------------------------------------------------------- what the board draws, in words

#: hue bands (degrees, upper bound) and their names, for :func:`colour_name`
_HUES = (
    (15, "red"),
    (40, "orange"),
    (70, "yellow"),
    (165, "green"),
    (195, "cyan"),
    (250, "blue"),
    (290, "violet"),
    (350, "pink"),
    (360, "red"),
)


def colour_name(hex_colour: str) -> str:
    """The everyday name of colour ``"#rrggbb"``, from its hue (gray, black or
    white when it has hardly any).

    >>> colour_name("#5500ff"), colour_name("#ffbf00"), colour_name("#9e9e9e")
    ('violet', 'yellow', 'gray')
    """
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))
    hue, light, sat = colorsys.rgb_to_hls(r, g, b)
    if sat < 0.15 or light < 0.08 or light > 0.95:
        return "black" if light < 0.2 else "white" if light > 0.9 else "gray"
    return next(name for top, name in _HUES if hue * 360 < top)


def highlight_words() -> str:
    """How the board marks a lit route, in words derived from the drawing's own
    constants (:data:`ttr_lab.board.scene.HIGHLIGHT` and its pen), so a text
    that says what is drawn follows the drawing: ``"in dashed violet frames"``."""
    _, _, gap = board_scene.highlight_pen(9.0)
    return f"in {'dashed ' if gap > 0 else ''}{colour_name(board_scene.HIGHLIGHT)} frames"


# --------------------------------------------------------------------------- refusals in words


def wild_word(game: Any) -> str:
    """The one word for the edition's wild card: "locomotive" (USA, Europe), "wild" (Rails & Sails)."""
    ed = game.edition
    name = game.card_name(ed.wild_cards[0]) if ed.wild_cards else "wild"
    return WILD_WORDS.get(name, name)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 or word.endswith("s") else "s")


def route_words(route: Any) -> str:
    """``"Atlanta–Miami"``: a route's ends, joined by an en dash."""
    return f"{route.a}–{route.b}"


def _needs(game: Any, route: Any) -> str:
    """What a route asks to be paid with, in words (its colour, length and kind)."""
    spaces = route.length * (2 if getattr(route, "paired", False) else 1)
    wild = wild_word(game)
    ship = route.kind == "ship"
    if route.color == "gray":
        what = f"{_plural(spaces, 'card')} of one colour"
    else:
        what = _plural(spaces, f"{route.color}{' ship' if ship else ''} card")
    if ship:
        what = what.replace("cards", "spaces of ship cards") if spaces != 1 else what
    extra = []
    if getattr(route, "locomotives", 0):
        extra.append(f"{_plural(route.locomotives, wild)} among them")
    if getattr(route, "paired", False):
        extra.append(f"two cards a space over {route.length} spaces")
    if route.kind == "tunnel":
        extra.append("perhaps more once three cards are turned up")
    return what + (f" ({'; '.join(extra)})" if extra else "")


def _holds(game: Any, route: Any, hand: dict[str, int]) -> str:
    """What the hand holds towards a route: its colour (or the commonest colour) and wilds."""
    wild_name = game.card_name(game.edition.wild_cards[0]) if game.edition.wild_cards else None
    wilds = hand.get(wild_name, 0) if wild_name else 0
    colours: dict[str, int] = {}
    for name, k in hand.items():
        if name == wild_name:
            continue
        ct = game.edition.card_types[game.edition.card_index[name]]
        if (ct.kind == "ship") != (route.kind == "ship") and route.kind in ("ship", "train"):
            continue
        colours[ct.color or name] = colours.get(ct.color or name, 0) + k * max(1, ct.value)
    if route.color == "gray":
        best = max(colours, key=lambda c: (colours[c], c)) if colours else None
        held = f"at most {colours[best]} of one colour ({best})" if best else "no coloured card"
    else:
        held = f"{colours.get(route.color, 0)} {route.color}"
    return f"{held} and {_plural(wilds, wild_word(game))}"


def _closed_why(game: Any, route: Any, p: int, you: str) -> str:
    """Why the double-route rule (A4) closes ``route`` to seat ``p``: who owns its twin."""
    twin = game.map.route(route.double_of) if route.double_of is not None else None
    owner = game.route_owner(twin.id) if twin is not None else None
    if twin is None or owner is None:
        return "the other route between these cities rules it out"
    what = f"its twin, route {twin.id} ({twin.length} {twin.color})"
    if owner == p:
        own = "own" if you == "you" else "owns"
        return f"{you} already {own} {what}, and no player may own both routes of a double route"
    return (
        f"{what}, is claimed by {game.player_names[owner]}, and with {game.n} players only one route "
        "of a double route is used"
    )


def claim_refusal(game: Any, route_id: int, rule: str, reason: str, *, you: str = "you") -> str:
    """Why the player to move cannot claim ``route_id``, for people, built from
    the library's ``(rule, reason)`` (quoted at the end) and the route and hand.

    ``you`` is how to address the player ("you", or a name in hot-seat)."""
    quote = f" (rule {rule}: {reason})."
    m = game.map
    if not isinstance(route_id, int) or not m.has_route(route_id):
        return f"There is no such route on this map{quote}"
    route = m.route(route_id)
    name = route_words(route)
    p = game.current_player
    owner = game.route_owner(route_id)
    if owner is not None:
        who = "you" if owner == p else game.player_names[owner]
        return f"{name} is taken: {who} claimed it already{quote}"
    if rule == "A6":
        return f"The game is over: nothing more can be claimed{quote}"
    if rule != "A4":
        now = {
            Phase.SECOND_CARD: "take your second card first",
            Phase.SETUP_TICKETS: "choose your tickets first",
            Phase.KEEP_TICKETS: "choose your tickets first",
        }.get(game.phase, "finish the decision that is due first")
        return f"{name} cannot be claimed now: {now}{quote}"
    if not game.route_open_to(route_id, p):
        return f"{name} is closed to {you}: {_closed_why(game, route, p, you)}{quote}"
    have, hold = ("have", "hold") if you == "you" else ("has", "holds")
    if reason.startswith("not enough pieces"):
        return f"{name} needs {route.length} pieces; {you} {have} too few left{quote}"
    hand = game.hand(p)
    return f"{name} needs {_needs(game, route)}; {you} {hold} {_holds(game, route, hand)}{quote}"


def drawn_cards(game: Any, before: dict[str, int], after: dict[str, int]) -> list[str]:
    """The cards a hand gained (from ``before`` to ``after``), in people's words."""
    out = []
    for name, k in sorted(after.items()):
        out += [card_label(game, name)] * max(0, k - before.get(name, 0))
    return out


def rule_paragraph(rule: str, phrase: str) -> str:
    """The paragraph of rule section ``rule`` that contains ``phrase``
    (case-insensitive), as plain text without markdown bold; the section's
    first paragraph if no paragraph contains it."""
    text = explain(rule)
    paragraphs = [
        " ".join(_BOLD.sub(r"\1", p).split()) for p in text.split("\n\n") if p.strip() and not p.startswith("#")
    ]
    want = " ".join(_BOLD.sub(r"\1", phrase).split()).lower()
    return next((p for p in paragraphs if want in p.lower()), paragraphs[0] if paragraphs else "")
