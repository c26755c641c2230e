"""The tests' shared configuration (``--runslow`` and the markers are the
root ``conftest.py``'s).

* Test modules whose optional dependencies are missing are not collected,
  so the core tests run with networkx alone: the ``[lab]`` modules listed
  here, and every module that imports hypothesis (the ``[test]`` extra).
* ``chromium_context``: one headless Chromium (Debian's ``/usr/bin/chromium``
  or ``$CHROMIUM``, through Playwright) for the whole session, shared by the
  browser tests: Playwright's sync API allows one instance per thread.
"""

from __future__ import annotations

import importlib.util
import os
import re
import tempfile
from pathlib import Path

import pytest


def _missing(*modules: str) -> bool:
    return any(importlib.util.find_spec(m) is None for m in modules)


# modules that need the [lab] extra (plotly, ipywidgets, anywidget)
_LAB_TESTS = ["test_render.py", "test_widgets.py", "test_widgets_editions.py", "e2e"]
collect_ignore = _LAB_TESTS if _missing("plotly", "ipywidgets", "anywidget") else []
_HYPOTHESIS = re.compile(r"^(?:from|import) hypothesis\b", re.M)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave out a test module that imports hypothesis (the [test] extra) when it is missing."""
    if collection_path.suffix != ".py" or not collection_path.name.startswith("test_") or not _missing("hypothesis"):
        return None
    return True if _HYPOTHESIS.search(collection_path.read_text(encoding="utf-8")) else None


CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROME_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def chromium_context():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":  # CI must run the browser tests, not skip them
            pytest.fail(f"{CHROMIUM} is not installed on this CI machine (make browser installs it)")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install -y chromium); browser tests skipped")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")
    with sync_api.sync_playwright() as p, tempfile.TemporaryDirectory(prefix="chromium-") as profile:
        ctx = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=CHROME_ARGS, viewport={"width": 1400, "height": 1100}
        )
        ctx.set_default_timeout(30_000)
        yield ctx
        ctx.close()
