"""Find a board's traces and points in the browser by name, never by their place in the DOM.

A board (:func:`ttr_lab.board.board_figure`, in every widget) gives each
trace a ``uid`` made from its ``meta`` key by :func:`ttr_lab.board.trace_uid`
(``"routes"``, ``"cities"``, ``"seat-0"``, ``"path-2"``, ``"highlight"``...),
and plotly draws a scatter trace as ``<g class="trace scatter trace<uid>">``.
So a trace is found by its class, whatever traces come before it and
whichever ``zorder`` layer (``.subplot.xy``, ``.subplot.xy-z2``...) draws
it; ``.scatterlayer .trace`` taken by index is not used.  A point is found
by the data index plotly binds to its ``path.point`` (``__data__.i``), not
by its rank among the drawn points (points without coordinates are not
drawn).

Every function takes ``root``, a Playwright ``Locator`` holding one board
(the widget's root, e.g. ``page.locator(".ttr-play").first``); the board is
its first ``.js-plotly-plot``.  ``key`` is a trace's ``meta`` key (or its
uid).  A figure whose traces have no such uid (a board drawn before issue
19, another plotly figure) is searched by the ``meta`` or ``name`` plotly
binds to each trace's group instead.  Functions that read return ``None``
while the board is not drawn yet.

>>> trace_selector("seat:1")
'.js-plotly-plot .trace.traceseat-1'
"""

from __future__ import annotations

import re
import time
from typing import Any

__all__ = [
    "trace_uid",
    "trace_selector",
    "trace_locator",
    "point_position",
    "point_fill",
    "hover_label",
    "trace_data",
    "plot_area",
    "board_print",
    "settle",
    "hover",
]


def trace_uid(key: str) -> str:
    """The uid a board gives trace ``key`` (as :func:`ttr_lab.board.trace_uid`): the ``meta`` key
    with every character but letters, digits, ``_`` and ``-`` made a ``-`` (``"seat:1"`` -> ``"seat-1"``)."""
    return re.sub(r"[^A-Za-z0-9_-]", "-", str(key))


def trace_selector(key: str) -> str:
    """The CSS selector of trace ``key``'s group (``g.trace``) inside a board."""
    return f".js-plotly-plot .trace.trace{trace_uid(key)}"


def trace_locator(root: Any, key: str) -> Any:
    """A Locator for the drawn group of trace ``key`` (its ``path.point`` are the markers)."""
    return root.locator(trace_selector(key))


#: JS: the group (``g.trace``) of trace ``uid``/``key`` in graph div ``gd``, by its class, else by its bound trace
_FIND = """const findTrace = (gd, uid, key) => gd && (gd.querySelector('.trace.trace' + CSS.escape(uid)) ||
  [...gd.querySelectorAll('.trace')].find(g => { const t = g.__data__ && g.__data__[0] && g.__data__[0].trace;
                                              return t && (t.meta === key || t.name === key); }) || null);"""

_POINT_JS = """(el, [uid, key, i, scroll]) => {
  FIND
  const g = findTrace(el.querySelector('.js-plotly-plot'), uid, key);
  if (!g) return null;
  for (const p of g.querySelectorAll('path.point')) {
    if (!p.__data__ || p.__data__.i !== i) continue;
    const b0 = p.getBoundingClientRect();
    if (scroll && (b0.top < 40 || b0.bottom > window.innerHeight - 40)) p.scrollIntoView({block: 'center'});
    const b = p.getBoundingClientRect();
    return [b.x + b.width / 2, b.y + b.height / 2];
  }
  return null;
}""".replace("FIND", _FIND)


def point_position(root: Any, key: str, i: int, *, scroll: bool = True) -> tuple[float, float] | None:
    """The page coordinates (centre, CSS pixels) of data point ``i`` of trace ``key``.

    ``scroll``: first scroll the point into view when it is near the window's edge.
    """
    at = root.evaluate(_POINT_JS, [trace_uid(key), key, int(i), bool(scroll)])
    return None if at is None else (float(at[0]), float(at[1]))


_FILL_JS = """(el, [uid, key, i]) => {
  FIND
  const g = findTrace(el.querySelector('.js-plotly-plot'), uid, key);
  if (!g) return null;
  const p = [...g.querySelectorAll('path.point')].find(p => p.__data__ && p.__data__.i === i);
  return p ? p.style.fill : null;
}""".replace("FIND", _FIND)


def point_fill(root: Any, key: str, i: int) -> str | None:
    """The fill drawn for data point ``i`` of trace ``key`` (``"rgb(r, g, b)"``)."""
    return root.evaluate(_FILL_JS, [trace_uid(key), key, int(i)])  # type: ignore[no-any-return]


_HOVER_JS = """(el) => {
  const t = el.querySelector('.js-plotly-plot .hoverlayer .hovertext text.nums tspan.line');
  if (t) return t.textContent;
  const one = el.querySelector('.js-plotly-plot .hoverlayer .hovertext text.nums');
  return one ? one.textContent : null;
}"""


def hover_label(root: Any) -> str | None:
    """The first line of the hover label shown now (a route's name, ``"Denver – Omaha #..."``), or None."""
    return root.evaluate(_HOVER_JS)  # type: ignore[no-any-return]


_DATA_JS = """(el, [uid, key, props]) => {
  const gd = el.querySelector('.js-plotly-plot');
  const t = gd && gd.data ? (gd.data.find(t => t.uid === uid) || gd.data.find(t => t.meta === key || t.name === key)) : null;
  if (!t) return null;
  const out = {index: gd.data.indexOf(t)};
  for (const p of props) {
    let v = t;
    for (const part of p.split('.')) v = v == null ? undefined : v[part];
    out[p] = v === undefined ? null : (ArrayBuffer.isView(v) ? Array.from(v) : v);
  }
  return out;
}"""


def trace_data(root: Any, key: str, *props: str) -> dict[str, Any] | None:
    """What the browser holds for trace ``key``: its index in ``gd.data`` and each dotted property asked for.

    >>> # trace_data(board, "routes", "text", "marker.color")  ->  {"index": 0, "text": [...], "marker.color": [...]}
    """
    return root.evaluate(_DATA_JS, [trace_uid(key), key, list(props)])  # type: ignore[no-any-return]


_AREA_JS = """(el) => {
  const gd = el.querySelector('.js-plotly-plot');
  const fl = gd && gd._fullLayout;
  if (!fl || !fl._size || !fl.xaxis || !fl.yaxis) return null;
  const box = gd.getBoundingClientRect(), s = fl._size;
  return {x: box.x + s.l, y: box.y + s.t, width: s.w, height: s.h,
          xrange: fl.xaxis.range.slice(), yrange: fl.yaxis.range.slice(),
          figure: [fl.width, fl.height]};
}"""


def plot_area(root: Any) -> dict[str, Any] | None:
    """The board's drawing area as drawn now: page position and size (``x``, ``y``, ``width``,
    ``height``), the axis ranges shown (``xrange``, ``yrange``) and the figure's size (``figure``)."""
    return root.evaluate(_AREA_JS)  # type: ignore[no-any-return]


_PRINT_JS = """(el) => {
  const gd = el.querySelector('.js-plotly-plot');
  if (!gd || !gd.data || !gd._fullLayout) return null;
  const n = v => v == null ? 0 : (v.length === undefined ? 1 : v.length);
  const fl = gd._fullLayout;
  return JSON.stringify([gd.data.map(t => [t.uid, t.name, n(t.x), String(t.text || '').length,
                                           String(t.marker && t.marker.color || '').length]),
                         fl._size, fl.xaxis && fl.xaxis.range, fl.yaxis && fl.yaxis.range]);
}"""


def board_print(root: Any) -> str | None:
    """A fingerprint of the board as the browser holds it (traces, their sizes, the plot area)."""
    return root.evaluate(_PRINT_JS)  # type: ignore[no-any-return]


def settle(page: Any, root: Any, *, quiet: int = 3, timeout: float = 10.0) -> bool:
    """Wait until the board has not changed for ``quiet`` looks 100 ms apart (as a person glances
    at a board before the next click); False if it was still changing after ``timeout`` seconds."""
    last, same = None, 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = board_print(root)
        same = same + 1 if now is not None and now == last else 0
        if same >= quiet:
            return True
        last = now
        page.wait_for_timeout(100)
    return False


def hover(page: Any, x: float, y: float, *, steps: int = 4, pause_ms: int = 200) -> None:
    """Move the mouse onto ``(x, y)`` from a little up and left, as a hand does (plotly fires a
    click only where a hover was seen), then pause ``pause_ms``."""
    page.mouse.move(x - 12, y - 12)
    page.mouse.move(x, y, steps=steps)
    page.wait_for_timeout(pause_ms)
