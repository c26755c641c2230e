"""The board's ``FigureWidget``: plotly's, with a front end that survives a reload.

plotly's ``go.FigureWidget`` is an anywidget whose ``_esm`` trait is plotly's
whole front end (``plotly/package_data/widgetbundle.js``, about 5 MB).  That
trait is part of the widget's state, and two deadlines in the browser meet it:

* a page that attaches to a running kernel (JupyterLab reloaded or a notebook
  reopened, every Voila page) asks for every widget's state in one message and
  gives the answer 4 seconds (``@jupyter-widgets/base``, ``_loadFromKernel``);
  with 5 MB a board (15.7 MB for the classroom app's three boards) it often
  missed that on a loaded machine, and the page then showed "Error displaying
  widget: model not found" (4 of 10 JupyterLab reloads in issue 19);
* anywidget (0.11.0) gives a model 2 seconds to load its ``_esm`` and run its
  ``initialize``; past that it logs "[anywidget] Failed to initialize model."
  and drops every later update from the kernel: the board draws once and then
  stops following the game.

:class:`FigureWidget` keeps plotly's bundle out of the state.  Its ``_esm``
(:data:`ESM`, 2 kB) returns at once; on a page's first board it asks the
kernel for the bundle with an anywidget command (``experimental.invoke``,
answered by :meth:`FigureWidget._plotly_bundle` as one binary buffer),
evaluates it once per page (keyed by plotly's version and the bundle's hash,
:func:`plotly_bundle`), and then hands the model and each view to plotly's
own widget.  A board's state is its figure alone (about 0.1 MB), so the
state request answers in time, and the model is ready within anywidget's
deadline and receives every message.  The figure a late view draws is the
synced ``_widget_data``/``_widget_layout``, which
:func:`ttr_lab.board.update_board` keeps current.

>>> import plotly.graph_objects as go
>>> fig = FigureWidget(go.Figure(go.Scatter(x=[0, 1], y=[1, 0])))
>>> isinstance(fig, go.FigureWidget), len(fig.data), fig._esm == ESM
(True, 1, True)
>>> "_plotly_esm" in fig.get_state(), fig._plotly_bundle_key.startswith("plotly ")
(False, True)
>>> key, (js,) = fig._plotly_bundle(fig._plotly_bundle_key, [])
>>> key == fig._plotly_bundle_key and len(js) > 1_000_000
True
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

import plotly
import plotly.graph_objects as go
import traitlets
from anywidget.experimental import command

__all__ = ["FigureWidget", "ESM", "plotly_bundle", "BUNDLE_WAIT_MS"]

#: how long a page waits for the kernel to send plotly's front end (a kernel busy
#: with a long cell answers when the cell ends)
BUNDLE_WAIT_MS = 600_000

#: the front end: asks the kernel for plotly's bundle without holding up the model,
#: then hands the model and every view to plotly's own widget
ESM = """\
const CACHE = Symbol.for("ttr_lab.plotly_widget_bundle");
function bundle(model, invoke) {
  const cache = (globalThis[CACHE] ??= new Map());
  const key = model.get("_plotly_bundle_key");
  let mod = cache.get(key);
  if (!mod) {
    mod = invoke("_plotly_bundle", key, { signal: AbortSignal.timeout(%(wait)d) }).then(([sent, buffers]) => {
      if (sent !== key) throw new Error(`the kernel sent ${sent}, not ${key}`);
      const url = URL.createObjectURL(new Blob(buffers, { type: "text/javascript" }));
      return import(/* webpackIgnore: true */ url).finally(() => URL.revokeObjectURL(url));
    });
    mod.catch(() => cache.delete(key));  // the next board asks again
    cache.set(key, mod);
  }
  return mod;
}
export default () => {
  let widget, ready;
  return {
    initialize({ model, experimental }) {
      ready = bundle(model, experimental.invoke).then(async (mod) => {
        widget = typeof mod.default === "function" ? await mod.default() : mod.default;
        await widget.initialize?.({ model, experimental });
      });
      ready.catch((error) => console.error("[ttr_lab] plotly's widget bundle did not load", error));
    },
    async render({ model, el, experimental }) {
      el.textContent = "Loading the board...";
      try {
        await ready;
      } catch (error) {
        el.textContent = "The board could not load plotly's front end from the kernel: run the cell again.";
        return;
      }
      el.textContent = "";
      return widget.render({ model, el, experimental });
    },
  };
};
""" % {"wait": BUNDLE_WAIT_MS}


@functools.cache
def plotly_bundle() -> tuple[bytes, str]:
    """plotly's widget front end (the ``_esm`` of ``go.FigureWidget``, UTF-8) and its key."""
    data = (Path(plotly.__file__).parent / "package_data" / "widgetbundle.js").read_bytes()
    digest = hashlib.sha256(data).hexdigest()[:16]
    return data, f"plotly {plotly.__version__} {digest}"


class FigureWidget(go.FigureWidget):  # type: ignore[misc]
    """``go.FigureWidget`` with the front end of this module (same Python API)."""

    _esm = ESM
    _plotly_bundle_key = traitlets.Unicode().tag(sync=True)

    @traitlets.default("_plotly_bundle_key")
    def _default_plotly_bundle_key(self) -> str:
        return plotly_bundle()[1]

    @command  # type: ignore[untyped-decorator,unused-ignore]
    def _plotly_bundle(self, key: Any, buffers: list[bytes]) -> tuple[str, list[bytes]]:
        """Answer a page's request for plotly's front end (one buffer, whatever ``key`` asked)."""
        data, mine = plotly_bundle()
        return mine, [data]

    # plotly's front end reports back, after each edit, what plotly.js filled in ("deltas": its
    # full data or layout against the synced snapshot, trace by trace in the snapshot's order),
    # and plotly's handlers move every reported property into the defaults and delete it from the
    # figure's own data.  The snapshot is refreshed by update_board (the board's state for late
    # views), so a view still applying an edit pairs its traces with other traces of the newer
    # snapshot: the deltas then hold another trace's x, y and name, and the handlers deleted them
    # from the figure (seen in JupyterLab: the cities' and then the routes' x and name gone after a
    # few moves, and every later click on them raised in the kernel and was lost).  The deltas
    # only fill defaults the board never reads, so they are not applied; the edit bookkeeping is.
    @traitlets.observe("_js2py_traceDeltas")
    def _handler_js2py_traceDeltas(self, change: dict[str, Any]) -> None:
        msg = change["new"]
        if not msg:
            return
        if msg.get("trace_edit_id") == self._last_trace_edit_id:
            self._trace_edit_in_process = False
            self._run_waiting_callbacks()
        self._js2py_traceDeltas = None

    @traitlets.observe("_js2py_layoutDelta")
    def _handler_js2py_layoutDelta(self, change: dict[str, Any]) -> None:
        msg = change["new"]
        if not msg:
            return
        if msg.get("layout_edit_id") == self._last_layout_edit_id:
            self._layout_edit_in_process = False
            self._run_waiting_callbacks()
        self._js2py_layoutDelta = None

    def _run_waiting_callbacks(self) -> None:
        """What plotly's handlers do once no edit is in process: call the callbacks waiting for it."""
        if not (self._trace_edit_in_process or self._layout_edit_in_process):
            while self._waiting_edit_callbacks:
                self._waiting_edit_callbacks.pop()()
