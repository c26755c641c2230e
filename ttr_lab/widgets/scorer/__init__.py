"""The table-game scorer widget: score a finished real game by clicking the board.

``ttr_lab.scorer("usa", players=["Ada", "Bob", "Cy"])`` shows the board:

1. pick a player (the buttons above the board);
2. click their routes on the board (a second click takes a route back; a
   route someone else owns is refused, naming the owner);
3. in Europe and Rails & Sails, switch the click to *stations* or *harbors*
   and click the cities;
4. type a ticket's number, its cities (either order) or part of them in the
   search box and press *Add ticket* (or pick the full entry from the list);
   when several tickets match (``Duluth``), each is offered as a button to
   pick; *Remove* takes the selected one back;
5. read the breakdown, updated after every click, with the selected player's
   completed tickets' paths and longest path drawn on the board;
6. *Save* / *Load* the sheet as JSON: the *File* box takes a file name, never
   a path, in the one folder the widget was given (``folder=``; by default
   ``ttr_lab_files`` under the working directory, see :mod:`ttr_lab.io.files`);
   an existing file is replaced only by pressing *Save* a second time.

The widget is a thin controller: every check and every point comes from
:func:`ttr_lab.tabletop.score`, one concern per module:

==========  ==============================================================
``widget``  :class:`ScorerWidget`: the board, buttons, breakdown, Save and Load
``tickets`` what a typed ticket names: its id, or the tickets it matches
==========  ==============================================================

Methods :meth:`ScorerWidget.click_route`, :meth:`~ScorerWidget.click_city`,
:meth:`~ScorerWidget.add_ticket` do what the clicks do (for notebooks and tests).
"""

from .widget import ScorerWidget, scorer

__all__ = ["ScorerWidget", "scorer"]
