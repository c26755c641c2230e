"""The scorer's side panel: which widgets, where (the widget wires what they do).

Beside the board, 420 pixels wide::

    Tickets of the selected player
    [ticket number or city      ] [Add ticket]
    (a button per matching ticket, when several match)
    [held tickets  ] [Remove]
    Exchanged [0]                      (Rails & Sails only)
    File [table-game.json     ] [Save] [Load]
    message
    breakdown

Each widget carries a ``ttr-scorer-*`` CSS class, which the browser tests find it by.
"""

from __future__ import annotations

from dataclasses import dataclass

import ipywidgets as W

__all__ = ["SidePanel", "side_panel"]


@dataclass(frozen=True)
class SidePanel:
    """The side panel's widgets, and ``box``, the panel that holds them."""

    search: W.Combobox
    add: W.Button
    choices: W.HBox  # several tickets match what was typed: one button each, to pick the one meant
    held: W.Select
    remove: W.Button
    exchange: W.BoundedIntText
    path: W.Text
    save: W.Button
    load: W.Button
    message: W.HTML
    breakdown: W.HTML
    box: W.VBox


def side_panel(entries: list[str], exchanged: bool) -> SidePanel:
    """The panel, its search offering ``entries`` (the tickets' list entries); the *Exchanged* box
    shows only where the edition's scorer takes ``exchanged``."""
    search = W.Combobox(options=entries, placeholder="ticket number or city", ensure_option=False)
    add, remove = W.Button(description="Add ticket"), W.Button(description="Remove")
    held = W.Select(options=[], rows=5, layout=W.Layout(width="280px"))
    exchange = W.BoundedIntText(min=0, max=1000, description="Exchanged")
    if not exchanged:
        exchange.layout.display = "none"
    # the file row fits the 420 px panel (at 1366x768 Save was clipped to "Sa" and Load hidden)
    path = W.Text(value="table-game.json", description="File")
    path.layout = W.Layout(width="auto", flex="1 1 auto", min_width="120px")
    path.style.description_width = "initial"
    save, load = W.Button(description="Save"), W.Button(description="Load")
    for button in (save, load):
        button.layout = W.Layout(width="auto", min_width="64px", flex="0 0 auto")
    choices = W.HBox(layout=W.Layout(flex_flow="row wrap"))
    message, breakdown = W.HTML(), W.HTML()
    named = {"search": search, "add": add, "choices": choices, "held": held, "remove": remove}
    named |= {"exchanged": exchange, "path": path, "save": save, "load": load}
    for css, widget in {**named, "message": message, "breakdown": breakdown}.items():
        widget.add_class(f"ttr-scorer-{css}")
    box = W.VBox(
        [
            W.HTML("<b>Tickets of the selected player</b>"),
            W.HBox([search, add]),
            choices,
            W.HBox([held, remove]),
            exchange,
            W.HBox([path, save, load], layout=W.Layout(width="100%")),
            message,
            breakdown,
        ],
        layout=W.Layout(width="420px"),
    )
    return SidePanel(search, add, choices, held, remove, exchange, path, save, load, message, breakdown, box)
