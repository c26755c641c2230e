"""The board's ``FigureWidget``: plotly's, with a front end that never loses the kernel's updates.

plotly's ``go.FigureWidget`` is an anywidget whose ``_esm`` is plotly's whole
front end (``plotly/package_data/widgetbundle.js``, about 5 MB).  anywidget
(0.11.0) gives a model 2 seconds to load its ``_esm`` and run its
``initialize``; past that it logs "[anywidget] Failed to initialize model."
and, because every later message to the model first awaits that failed
start, drops every update the kernel sends afterwards: the view draws once and
then stops following the game.  A page that attaches to a running kernel
(JupyterLab reloaded or reopened, a Voila page) builds all its models at
once while it is busy loading, so the 5 MB bundle often misses the 2 seconds
on a loaded machine.  Reproduced in Chromium with the CPU slowed 8 times
(DevTools throttling) on a JupyterLab reload: with ``go.FigureWidget`` the
error came and the board stayed as it was; with this class it did not, and
the board followed the next move (one run each).

:class:`FigureWidget` sends the same bundle in another trait,
``_plotly_esm``, and a few lines of ``_esm`` that start loading it and
return at once, so the model is ready within anywidget's deadline and
receives every message; each view waits for the bundle, then is plotly's own
view.  The bundle is evaluated once per page (keyed by plotly's version and
the bundle's hash), however many figures the page shows.  What is left to
anywidget's 2 seconds is a 1 kB module: a page starved of CPU for longer
than that (12 times slowed, on a loaded machine) still times out, and the
fix for that belongs upstream (anywidget's ``Runtime``: a deadline that
rejects ``ready`` for good).

>>> import plotly.graph_objects as go
>>> fig = FigureWidget(go.Figure(go.Scatter(x=[0, 1], y=[1, 0])))
>>> isinstance(fig, go.FigureWidget), len(fig.data), fig._esm == ESM
(True, 1, True)
>>> len(fig._plotly_esm) > 1_000_000 and fig._plotly_bundle_key.startswith("plotly ")
True
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import plotly
import plotly.graph_objects as go
import traitlets

__all__ = ["FigureWidget", "ESM", "plotly_bundle"]

#: the front end: loads plotly's bundle without holding up the model, then hands
#: the model and every view to plotly's own widget
ESM = """\
const CACHE = Symbol.for("ttr_lab.plotly_widget_bundle");
function bundle(model) {
  const cache = (globalThis[CACHE] ??= new Map());
  const key = model.get("_plotly_bundle_key");
  let mod = cache.get(key);
  if (!mod) {
    const url = URL.createObjectURL(new Blob([model.get("_plotly_esm")], { type: "text/javascript" }));
    mod = import(/* webpackIgnore: true */ url).finally(() => URL.revokeObjectURL(url));
    cache.set(key, mod);
  }
  return mod;
}
export default () => {
  let widget, ready;
  return {
    initialize({ model, experimental }) {
      ready = bundle(model).then(async (mod) => {
        widget = typeof mod.default === "function" ? await mod.default() : mod.default;
        await widget.initialize?.({ model, experimental });
      });
      ready.catch((error) => console.error("[ttr_lab] plotly's widget bundle did not load", error));
    },
    async render({ model, el, experimental }) {
      await ready;
      return widget.render({ model, el, experimental });
    },
  };
};
"""


@functools.cache
def plotly_bundle() -> tuple[str, str]:
    """plotly's widget front end (the ``_esm`` of ``go.FigureWidget``) and its key."""
    path = Path(plotly.__file__).parent / "package_data" / "widgetbundle.js"
    text = path.read_text(encoding="utf-8")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return text, f"plotly {plotly.__version__} {digest}"


class FigureWidget(go.FigureWidget):  # type: ignore[misc]
    """``go.FigureWidget`` with the front end of this module (same Python API)."""

    _esm = ESM
    _plotly_esm = traitlets.Unicode().tag(sync=True)
    _plotly_bundle_key = traitlets.Unicode().tag(sync=True)

    @traitlets.default("_plotly_esm")
    def _default_plotly_esm(self) -> str:
        return plotly_bundle()[0]

    @traitlets.default("_plotly_bundle_key")
    def _default_plotly_bundle_key(self) -> str:
        return plotly_bundle()[1]
