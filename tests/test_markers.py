"""The quick run: what a bare ``pytest`` leaves to ``--runslow`` (the root conftest.py)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
assert _spec is not None and _spec.loader is not None
root_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(root_conftest)


def test_every_slow_test_named_exists():
    """A renamed or removed test leaves no stale name in the table."""
    assert root_conftest.SLOW and len(root_conftest.SLOW) == sum(map(len, root_conftest.SLOW_TESTS.values()))
    for node in root_conftest.SLOW:
        path, _, name = node.partition("::")
        assert (ROOT / path).is_file(), node
        name = name.split("[", 1)[0]
        if path.startswith("ttr_lab/"):  # a module's doctests
            assert name == path.removesuffix(".py").replace("/", "."), node
        else:
            text = (ROOT / path).read_text(encoding="utf-8")
            assert re.search(rf"^def {re.escape(name)}\(", text, re.M), node


class Item:
    """Just enough of a pytest item for the collection hook."""

    def __init__(self, nodeid: str, *marks: str) -> None:
        self.nodeid = nodeid
        self.path = ROOT / nodeid.split("::", 1)[0]
        self.keywords: dict[str, object] = dict.fromkeys(marks, True)
        self.added: list[pytest.MarkDecorator] = []

    def add_marker(self, mark: pytest.MarkDecorator) -> None:
        self.keywords[mark.name] = mark
        self.added.append(mark)

    def skipped(self) -> str | None:
        return next((m.kwargs["reason"] for m in self.added if m.name == "skip"), None)


class Config:
    def __init__(self, runslow: bool) -> None:
        self.runslow = runslow

    def getoption(self, name: str) -> bool:
        assert name == "--runslow"
        return self.runslow


@pytest.mark.parametrize("runslow", [False, True])
def test_slow_and_browser_tests_wait_for_runslow(runslow):
    named = "tests/test_agents.py::test_agents_are_deterministic_across_processes"
    one_set = "tests/test_properties.py::test_conservation_at_every_ply_and_termination[great_lakes]"
    items = {
        "browser": Item("tests/e2e/test_play_browser.py::test_x"),
        "named": Item(named),
        "named set": Item(one_set),
        "other set": Item(one_set.replace("great_lakes", "usa")),
        "marked": Item("tests/test_packaging.py::test_x", "slow"),
        "quick": Item("tests/test_move_types.py::test_the_issues_examples"),
    }
    root_conftest.pytest_collection_modifyitems(Config(runslow), list(items.values()))
    assert "browser" in items["browser"].keywords
    assert {k for k, item in items.items() if "slow" in item.keywords} == {"named", "named set", "marked"}
    skipped = {k: item.skipped() for k, item in items.items() if item.skipped()}
    if runslow:
        assert skipped == {}
    else:
        assert set(skipped) == {"browser", "named", "named set", "marked"}
        assert skipped["browser"].startswith("drives Chromium") and skipped["named"].startswith("slow")
