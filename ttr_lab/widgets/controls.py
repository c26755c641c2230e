"""The registry of the play widget's edition controls, by the names editions declare.

* ``"build"``: :class:`~ttr_lab.widgets.control_build.BuildControl`, stations
  and harbors: a click on a city (``control_build.py``);
* ``"tunnel"``: :class:`~ttr_lab.widgets.control_tunnel.TunnelControl`, a
  tunnel's pay-or-decline decision (``control_tunnel.py``);
* ``"piles"``: :class:`~ttr_lab.widgets.control_piles.PilesControl`, a deck
  button per pile and the refill toggle (``control_piles.py``);
* ``"pieces"``: :class:`~ttr_lab.widgets.control_pieces.PiecesControl`, the
  secret train/ship split at setup (``control_pieces.py``);
* ``"exchange"``: :class:`~ttr_lab.widgets.control_exchange.ExchangeControl`,
  piece exchanges with the box (``control_exchange.py``).

The base class and what a control may ask of the widget are in
:mod:`ttr_lab.widgets.control_base`.  (The controls are modules of
``ttr_lab.widgets`` rather than a subpackage, so the package list in
``pyproject.toml`` needs no new entry.)

>>> import ttr_lab
>>> ttr_lab.find_edition("europe").widget_controls
('build', 'tunnel')
>>> sorted(CONTROLS)
['build', 'exchange', 'pieces', 'piles', 'tunnel']
"""

from __future__ import annotations

from ..errors import TtrError
from .control_base import Control, Decision, Host
from .control_build import BuildControl
from .control_exchange import ExchangeControl
from .control_pieces import PiecesControl
from .control_piles import PilesControl
from .control_tunnel import TunnelControl

__all__ = ["CONTROLS", "make_controls", "Control", "Decision", "Host"]

#: control name (as editions declare it in ``controls``) -> control class
CONTROLS: dict[str, type[Control]] = {
    "build": BuildControl,
    "tunnel": TunnelControl,
    "piles": PilesControl,
    "pieces": PiecesControl,
    "exchange": ExchangeControl,
}


def make_controls(host: Host) -> dict[str, Control]:
    """The controls ``host.game.edition.widget_controls`` names, built for ``host``, in that order."""
    ed = host.game.edition
    out: dict[str, Control] = {}
    for name in ed.widget_controls:
        cls = CONTROLS.get(name)
        if cls is None:
            raise TtrError(
                f"edition {ed.name!r} needs the widget control {name!r}, which ttr_lab.widgets "
                f"does not have (known: {', '.join(sorted(CONTROLS))})"
            )
        out[name] = cls(host)
    return out
