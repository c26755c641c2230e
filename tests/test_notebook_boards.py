"""What is saved shows the board (issue 19 C4): the committed lessons, converted to HTML as GitHub
and nbviewer do (nbconvert, no kernel, no widget state), show a board for every cell that shows one.

A cell shows a board when its stored output holds a board figure (plotly JSON with the board's
clickable ``routes`` trace) or a board widget (a widget-view output whose text names one of the
board widgets), or when its last line calls a function that draws one.  A board in the HTML is an
SVG output holding the board's route groups (``data-route``, as :mod:`ttr_lab.board.drawing` draws
them).  Before the fix the lessons' boards were plotly JSON alone ("not able to be represented") and
widgets saved as ``<PlayWidget usa: ...>``: notebook 01 showed none of its four boards.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbconvert = pytest.importorskip("nbconvert")

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))
PLOTLY, WIDGET, SVG = "application/vnd.plotly.v1+json", "application/vnd.jupyter.widget-view+json", "image/svg+xml"
BOARD_WIDGETS = ("PlayWidget", "TutorialWidget", "ScorerWidget", "EditorWidget", "RecorderWidget", "HistoryWidget")
# a last line that draws a board: a figure or a widget made right there
DRAWS = re.compile(
    r"^(?:board_figure|route_heatmap|city_heatmap|HistoryWidget|ttr_lab\.(?:play|tutorial|scorer|recorder))\("
)


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _is_board_output(out) -> bool:
    data = out.get("data", {})
    if PLOTLY in data:
        traces = data[PLOTLY].get("data", [])
        return any(t.get("meta") == "routes" or t.get("name") == "routes" for t in traces)
    if WIDGET in data:
        return _text(data.get("text/plain", "")).lstrip("<").startswith(BOARD_WIDGETS)
    return False


def board_cells(nb) -> list[int]:
    """The code cells that show a board: by their stored outputs, or by a last line that draws one."""
    cells = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        lines = [line for line in cell.source.strip().splitlines() if line.strip()]
        last = lines[-1].strip() if lines else ""
        by_source = bool(DRAWS.match(last)) and not last.endswith(";")
        if by_source or any(_is_board_output(o) for o in cell.get("outputs", [])):
            cells.append(i)
    return cells


def html_boards(nb) -> int:
    """How many boards nbconvert's HTML shows: SVG outputs (inline, or an ``<img>`` of base64 data, as
    the lab template writes them) holding route groups."""
    html, _ = nbconvert.HTMLExporter().from_notebook_node(nb)
    boards = 0
    for chunk in html.split('data-mime-type="image/svg+xml"')[1:]:
        output = chunk.split("</div>")[0]
        encoded = re.search(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', output)
        svg = base64.b64decode(encoded.group(1)).decode("utf-8") if encoded else output
        boards += "data-route=" in svg
    return boards


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_the_saved_lesson_shows_every_board_without_a_kernel(path):
    nb = nbformat.read(path, as_version=4)
    cells = board_cells(nb)
    shown = html_boards(nb)
    assert shown >= len(cells), f"{path.name}: {shown} boards in its HTML for {len(cells)} board cells {cells}"
    for i in cells:  # each board cell holds its own picture
        outs = nb.cells[i].get("outputs", [])
        assert any(SVG in o.get("data", {}) and "data-route=" in o["data"][SVG] for o in outs), (
            f"{path.name} cell {i} shows a board but saved no SVG of it: {nb.cells[i].source[:80]!r}"
        )


def test_the_lessons_show_boards_at_all():
    """The count above is not vacuous: the lessons show dozens of boards, widgets among them."""
    total = widgets = 0
    for path in LESSONS:
        nb = nbformat.read(path, as_version=4)
        total += len(board_cells(nb))
        widgets += sum(
            1 for c in nb.cells for o in c.get("outputs", []) if WIDGET in o.get("data", {}) and _is_board_output(o)
        )
    assert total >= 25 and widgets >= 6, (total, widgets)


def test_no_widget_state_is_saved():
    """Saved with store_widget_state=False (tools/run_notebooks.py): plotly's widget bundle would add megabytes."""
    for path in LESSONS:
        meta = json.loads(path.read_text(encoding="utf-8"))["metadata"]
        assert "widgets" not in meta, path.name
