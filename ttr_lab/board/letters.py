"""Colour letters: a short code for a free route's colour, written in its boxes (standard library only).

A route's colour is otherwise shown by its fill alone, and some fills are
hard to tell apart for colour-blind students (a reviewer's deuteranopia
simulation put pink and gray 8.4 apart in CIELAB, red and green 14.8).  With
``show_color_letters=True`` both drawings (:func:`ttr_lab.board.board_figure`
and :func:`ttr_lab.board.board_svg`) write :data:`COLOR_LETTERS` in every box
of every unclaimed route, trains, tunnels, ships and both rows of a paired
route alike: ``R`` red, ``O`` orange, ``Y`` yellow, ``G`` green, ``B`` blue,
``P`` pink, ``W`` white, ``K`` black, and nothing on gray (any colour pays
for it).  A ferry's locomotive spaces keep their ``L``; a claimed route
shows its owner's pieces instead.  The ink is dark or white, whichever has
the higher WCAG contrast with the box (:func:`ink`).

>>> from ttr_lab.maps import load_map
>>> from ttr_lab.board.scene import Scene
>>> usa = load_map("usa")
>>> first = color_letters(Scene(usa))[0]
>>> usa.route(first.route).color, first.letter, first.ink
('blue', 'B', '#000000')
>>> any(x.route == first.route for x in color_letters(Scene(usa, owners={first.route: 0})))
False
"""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import Space
from .scene import ROUTE_COLORS, Scene

__all__ = ["COLOR_LETTERS", "DARK_INK", "LIGHT_INK", "Letter", "contrast_ratio", "ink", "color_letters", "letter_px"]

#: The code written in a free route's boxes, by map colour ("" for gray: no letter).
COLOR_LETTERS = {
    "red": "R",
    "orange": "O",
    "yellow": "Y",
    "green": "G",
    "blue": "B",
    "pink": "P",
    "white": "W",
    "black": "K",
    "gray": "",
}
DARK_INK = "#000000"
LIGHT_INK = "#ffffff"


def _luminance(color: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    h = color.lstrip("#")
    chans = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in chans)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21).

    >>> round(contrast_ratio("#000000", "#ffffff"))
    21
    """
    la, lb = sorted((_luminance(a), _luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def ink(fill: str) -> str:
    """The letter colour on a box of ``fill``: dark or white, whichever contrasts more.

    >>> ink(ROUTE_COLORS["yellow"]), ink(ROUTE_COLORS["black"])
    ('#000000', '#ffffff')
    """
    return DARK_INK if contrast_ratio(fill, DARK_INK) >= contrast_ratio(fill, LIGHT_INK) else LIGHT_INK


@dataclass(frozen=True, slots=True)
class Letter:
    """The colour letter of one box: route id, the box, the letter and its ink."""

    route: int
    space: Space
    letter: str
    ink: str


def color_letters(scene: Scene) -> list[Letter]:
    """A :class:`Letter` for each box of each unclaimed, non-gray route of the scene, in map order
    (a ferry's locomotive spaces left out: they carry ``L``)."""
    out = []
    for r in scene.map.routes:
        letter = COLOR_LETTERS.get(r.color, "")
        if not letter or r.id in scene.owners:
            continue
        color = ink(ROUTE_COLORS[r.color])
        out += [Letter(r.id, sp, letter, color) for sp in scene.geo.spaces[r.id] if not sp.loco]
    return out


def letter_px(thick_px: float) -> float:
    """The letters' font size for boxes ``thick_px`` pixels thick (as the ferries' ``L``)."""
    return round(max(6.0, 0.95 * thick_px), 1)
