"""Redraw a board figure in place: :func:`update_board` (re-exported by :mod:`ttr_lab.board`).

Only what changed is set and sent: one ``plotly_restyle`` for every changed
property of every trace, the layout (whose shapes hold the board's spaces)
only when it changed, and a ``FigureWidget``'s synced snapshot refreshed by
copying the changed traces alone.  A board's traces stay where they are
(issue 19): an overlay that goes is emptied, not removed, and a path beyond
those the board had is added at the end, so the clickable ``routes`` and
``cities`` (the first two) and every other trace keep their indices.
"""

from __future__ import annotations

import contextlib
import copy
from typing import Any

from plotly.basedatatypes import Undefined

from ..figure import build_from
from ..options import BoardOptions
from ..overlays import empty_path

__all__ = ["update_board"]


def _key(trace: Any) -> tuple[str, str]:
    return (trace.type, str(trace.meta if trace.meta is not None else trace.name))


def update_board(fig: Any, obj: Any, options: BoardOptions | None = None, /, **keywords: Any) -> Any:
    """Redraw ``fig`` (a ``go.Figure`` or ``go.FigureWidget``) in place.

    Takes the same options as :func:`~ttr_lab.board.board_figure` (a
    :class:`~ttr_lab.board.options.BoardOptions`, keywords, or both).  Traces
    are matched by their ``meta`` key; only the properties whose value changed
    are set, all in one ``plotly_restyle`` (a claim sends the pieces, the
    clickable trace's owners and colours, not the board), so trace objects
    (and callbacks registered with ``on_click``) survive.  No trace moves:
    an overlay that shows nothing now (a highlight, a path) is emptied, and
    a path beyond those the figure has is added at the end.  The axis
    ranges are left alone when the map and the picture's size and margins
    are the same (which :func:`~ttr_lab.board.frame.board_frame` keeps for
    a game), so the user's zoom stays; otherwise they are set anew.  A
    ``FigureWidget``'s synced state is refreshed too, so a late or reloaded
    view is not stale.

    Returns ``fig``.

    >>> from ttr_lab.maps import load_map
    >>> from ttr_lab.board import board_figure, route_trace_index
    >>> usa = load_map("usa")
    >>> fig = board_figure(usa, player_names=["Ada", "Bo"])
    >>> keys = [t.meta for t in fig.data]
    >>> _ = update_board(fig, usa, owners={1: 0}, player_names=["Ada", "Bo"], highlight=[5], paths=[[1, 2]])
    >>> [t.meta for t in fig.data] == keys + ["path:0"], fig.data[route_trace_index(fig)].text[0]
    (True, '2 gray<br>claimed by Ada')
    >>> _ = update_board(fig, usa, owners={1: 0}, player_names=["Ada", "Bo"])
    >>> [t.meta for t in fig.data] == keys + ["path:0"], fig.data[-1].name, len(fig.data[-1].x)
    (True, '', 1)
    """
    traces, layout = build_from(obj, options, **keywords)
    meta = fig.layout.meta
    same_map = isinstance(meta, dict) and meta.get("map") == layout["meta"]["map"]
    slots = sum(1 for t in fig.data if str(t.meta).startswith("path:"))
    shown = sum(1 for t in traces if t["meta"].startswith("path:"))
    traces += [empty_path(i) for i in range(shown, slots)]  # fewer paths than before: the rest emptied
    old = {_key(t): t for t in fig.data}
    if len(old) != len(fig.data):  # not one of ours: start afresh
        old = {}
    wanted = [("scatter", t["meta"]) for t in traces]
    fresh: set[tuple[str, str]] = set()
    if [_key(t) for t in fig.data] != wanted:  # another map, or more paths than before
        keep = set(wanted)
        fig.data = [t for t in fig.data if _key(t) in old and _key(t) in keep]
        missing = [t for t, k in zip(traces, wanted) if k not in old]
        if missing:
            fig.add_traces(missing)
        current = {_key(t): t for t in fig.data}
        fig.data = [current[k] for k in wanted]
        fresh = {k for k in wanted if k not in old}
    edits: dict[int, dict[str, Any]] = {}
    for i, (target, source) in enumerate(zip(fig.data, traces)):
        if _key(target) not in fresh:
            diff = _diff(source, target._props)  # plotly's stored values, read without a deep copy
        else:  # just added: a FigureWidget gave it a random uid of its own
            diff = {"uid": source["uid"]} if target._props.get("uid") != source["uid"] else {}
        if diff:
            edits[i] = diff
    if edits:
        # One restyle for every changed property of every trace.  plotly_restyle sets the values
        # as given: they are built like board_figure's, which plotly validated when it was made.
        order = sorted(edits)
        keys = sorted({k for d in edits.values() for k in d})
        fig.plotly_restyle({k: [edits[i].get(k, Undefined) for i in order] for k in keys}, trace_indexes=order)
    now = fig.layout._props
    if same_map and all(_same(now.get(k), layout[k]) for k in ("width", "height", "margin")):
        for axis in ("xaxis", "yaxis"):  # the same frame: keep what the user zoomed to
            layout[axis].pop("range", None)
    batch = fig.batch_update() if hasattr(fig, "batch_update") else contextlib.nullcontext()
    with batch:
        relaid = _assign(fig.layout, layout, fig.layout._props)
    if hasattr(fig, "_widget_data"):
        _refresh_snapshot(fig, None if fresh or len(old) != len(fig.data) else edits, relaid)
    return fig


def _refresh_snapshot(fig: Any, edits: dict[int, dict[str, Any]] | None, relaid: bool) -> None:
    """Refresh a FigureWidget's synced snapshot: copy what changed, share what did not.

    A FigureWidget syncs ``_widget_data``/``_widget_layout`` only when built or
    displayed; edits travel as one-off messages.  The snapshot is refreshed so a
    view that connects later (Voila, a reload) is not stale.  Private plotly
    API; the front end ignores it for live views.  ``edits`` (trace index ->
    dotted property -> new value) says what changed; None: copy everything.
    The new values are fresh lists that nothing changes in place afterwards,
    so the snapshot may share them.
    """
    old = fig._widget_data
    if edits is None or len(old) != len(fig._data):
        fig._widget_data = copy.deepcopy(fig._data)
    elif edits:
        snap = list(old)
        for i, diff in edits.items():
            snap[i] = _with(old[i], diff)
        fig._widget_data = snap
    if relaid or fig._widget_layout != fig._layout_obj._props:
        fig._widget_layout = copy.deepcopy(fig._layout_obj._props)


def _with(trace: dict[str, Any], diff: dict[str, Any]) -> dict[str, Any]:
    """A copy of snapshot ``trace`` with the dotted properties of ``diff`` set (None removes one)."""
    out = dict(trace)
    for key, value in diff.items():
        *path, last = key.split(".")
        node = out
        for part in path:
            child = node.get(part)
            node[part] = dict(child) if isinstance(child, dict) else {}
            node = node[part]
        if value is None:
            node.pop(last, None)
        else:
            node[last] = value
    return out


def _plain(value: Any) -> Any:
    return value.to_plotly_json() if hasattr(value, "to_plotly_json") else value


def _same(current: Any, new: Any) -> bool:
    """Equal as plotly stores them (validated arrays may be tuples)."""
    if isinstance(new, dict):
        return (
            isinstance(current, dict)
            and current.keys() == new.keys()
            and all(_same(current[k], v) for k, v in new.items())
        )
    if isinstance(new, (list, tuple)):
        return isinstance(current, (list, tuple)) and len(current) == len(new) and list(current) == list(new)
    return bool(current == new)


def _diff(props: dict[str, Any], current: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """The dotted properties (``"marker.color"``) of a built trace that differ from the stored ones;
    None for a stored property the trace no longer has.  Nested objects are compared key by key, so
    a claim re-sends ``marker.color`` rather than the whole marker."""
    out: dict[str, Any] = {}
    for k in current:
        if k not in props and k not in ("type", "uid") and current[k] is not None:
            out[prefix + k] = None
    for k, v in props.items():
        if k == "type":
            continue
        cur = current.get(k)
        if isinstance(v, dict) and isinstance(cur, dict) and v and k != "meta":  # meta is data, not an object
            out.update(_diff(v, cur, f"{prefix}{k}."))
        elif not _same(cur, v):
            out[prefix + k] = v
    return out


def _assign(obj: Any, props: dict[str, Any], current: dict[str, Any], prefix: str = "") -> bool:
    """Set (validated) the layout properties that differ from ``props``; True if any did.

    Properties that ``props`` lacks are kept: what the user or plotly added,
    such as a zoomed range or the template.
    """
    changed = False
    for k, v in props.items():
        cur = current.get(k)
        if isinstance(v, dict) and isinstance(cur, dict) and v and k != "meta":  # meta is data, not an object
            changed = _assign(obj, v, cur, f"{prefix}{k}.") or changed
        elif not _same(cur, v):
            obj[prefix + k] = v
            changed = True
    return changed
