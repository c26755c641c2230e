"""The scorer of notebook 08 fits a 1366x768 screen (issue 19 D4), in JupyterLab with headless Chromium.

At 1366x768 the scorer's *Save* button was clipped to "Sa" and *Load* was
hidden: the side panel (420 px) next to the 620 px board did not fit the
notebook's width beside JupyterLab's file browser, and the file row sat
below a four-player breakdown.  Here notebook 08 is run as a person runs it
(the file browser open, as JupyterLab opens it), its scorer scrolled to the
top of the notebook, and every control a person uses is checked to be on the
screen whole: inside the window, not clipped by a parent (the element under
its centre is itself), its label not cut (its text fits its box).  Then the
ticket search is used as the walkthrough did: "Duluth" matches two tickets,
both are offered as buttons, and a click on one adds it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed").expect

pytestmark = pytest.mark.browser
expect.set_options(timeout=30_000)

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "08-real-games.ipynb"
SCREEN = {"width": 1366, "height": 768}

#: where a control is and whether a person sees all of it: inside the window, the
#: topmost element at its centre (not clipped or covered), its text not cut
_WHOLE_JS = """(el) => {
  const b = el.getBoundingClientRect();
  const x = b.left + b.width / 2, y = b.top + b.height / 2;
  const top = document.elementFromPoint(x, y);
  return {
    left: b.left, right: b.right, top: b.top, bottom: b.bottom, width: b.width,
    innerWidth: window.innerWidth, innerHeight: window.innerHeight,
    onTop: !!top && (top === el || el.contains(top) || top.contains(el)),
    textFits: el.scrollWidth <= el.clientWidth + 1,
    text: (el.innerText || el.value || '').trim(),
  };
}"""

#: the scorer's controls, by the classes the widget gives them (and the label a person reads)
CONTROLS = {
    ".ttr-scorer-save": "Save",
    ".ttr-scorer-load": "Load",
    ".ttr-scorer-add": "Add ticket",
    ".ttr-scorer-remove": "Remove",
    ".ttr-scorer-path input": None,
    ".ttr-scorer-search input": None,
}


#: scroll the notebook so that the widget's top is at the top of the notebook's area; how far off it is
_TO_TOP_JS = """(el) => {
  const scroller = el.closest('.jp-WindowedPanel-outer') || el.closest('.jp-Notebook');
  const off = el.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
  scroller.scrollTop += off;
  return off;
}"""


def to_top(page, widget) -> None:
    """Scroll the widget to the top of the notebook, as a person does, until it stays there
    (JupyterLab draws the notebook's cells as they come into view and may move them)."""
    for _ in range(20):
        off = widget.evaluate(_TO_TOP_JS)
        page.wait_for_timeout(300)
        if abs(off) < 2 and abs(widget.evaluate(_TO_TOP_JS)) < 2:
            return
    raise AssertionError(f"the scorer did not stay at the top of the notebook ({off:.0f} px off)")


def whole(widget, selector: str) -> dict:
    return widget.locator(selector).first.evaluate(_WHOLE_JS)


def test_the_scorer_fits_1366x768_and_offers_the_tickets_a_city_matches(lab_notebook):
    page = lab_notebook(NOTEBOOK, viewport=SCREEN)
    last = page.locator(
        '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stdout"]', has_text="illegal move keep 1 2"
    )
    expect(last).to_be_attached(timeout=180_000)  # Run All reached the last cell
    widget = page.locator(".ttr-scorer").first
    expect(widget).to_be_attached(timeout=120_000)
    expect(widget.locator(".ttr-scorer-breakdown")).to_contain_text("Ada: 0 points", timeout=60_000)
    to_top(page, widget)

    problems = []
    for selector, label in CONTROLS.items():
        expect(widget.locator(selector).first).to_be_visible()
        at = whole(widget, selector)
        where = f"{selector} at x {at['left']:.0f}-{at['right']:.0f}, y {at['top']:.0f}-{at['bottom']:.0f}"
        if at["left"] < 0 or at["right"] > at["innerWidth"] or at["top"] < 0 or at["bottom"] > at["innerHeight"]:
            problems.append(f"{where}: outside the {at['innerWidth']}x{at['innerHeight']} window")
        if not at["onTop"]:
            problems.append(f"{where}: clipped or covered (another element is under its centre)")
        if label is not None and (not at["textFits"] or at["text"] != label):
            problems.append(f"{where}: its label reads {at['text']!r} in a {at['width']:.0f} px box, not {label!r}")
    if problems:
        page.screenshot(path=str(_artifacts() / "scorer-layout.png"))
    assert not problems, "\n".join(problems)

    # the walkthrough's search: a city in two tickets offers both, and a click adds one
    widget.locator(".ttr-scorer-search input").fill("Duluth")
    page.wait_for_timeout(200)  # a person's pace: the typed value reaches the kernel
    widget.locator(".ttr-scorer-add").click()
    choices = widget.locator(".ttr-scorer-choice")
    expect(choices).to_have_count(2)
    expect(widget.locator(".ttr-scorer-message")).to_contain_text("2 tickets match 'Duluth': pick one")
    for i in range(2):
        at = choices.nth(i).evaluate(_WHOLE_JS)
        assert at["textFits"] and at["onTop"] and at["right"] <= at["innerWidth"], at
    choices.filter(has_text="Duluth-Houston").click()
    expect(widget.locator(".ttr-scorer-held")).to_contain_text("Duluth-Houston")
    expect(choices).to_have_count(0)
    expect(widget.locator(".ttr-scorer-breakdown")).to_contain_text("ticket miss Duluth-Houston")


def _artifacts() -> Path:
    out = ROOT / "test-artifacts"
    out.mkdir(exist_ok=True)
    return out
