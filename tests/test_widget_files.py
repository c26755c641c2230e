"""Files in the widgets: one folder, file names only, nothing replaced unasked (issue 20, item 1).

The classroom app's scorer tab (and the scorer widget anywhere) is driven the
way a page user drives it: type in the *File* box, press *Save* or *Load*.
Checks: traversal names, absolute paths and symbolic links never write, read
or probe anything outside the folder, and the messages for a file outside
that exists and one that does not are the same; an existing file is replaced
only by a second press of *Save*.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")

from ttr_lab.errors import RecordError, TtrError
from ttr_lab.io.files import DEFAULT_NAME, ENV_VAR, MAX_NAME_LENGTH, Folder, NameTakenError, check_name
from ttr_lab.widgets.app import PlayApp
from ttr_lab.widgets.scorer import ScorerWidget, scorer

from .test_widgets import all_widgets, find

KEY = "a key for the tests only, long enough"
VICTIM = '{"players": ["Secret", "Data"], "private": true}\n'


def the_scorer(app) -> ScorerWidget:
    return next(w for w in all_widgets(app) if isinstance(w, ScorerWidget))


def press(w: ScorerWidget, button: str, name: str) -> str:
    """Type ``name`` in the File box, press Save or Load; the message shown, as text."""
    w.path.value = name
    find(w, f"ttr-scorer-{button}").click()
    return w.message.value


def shown(name: str) -> str:
    """How a refused name is echoed (shortened past 60 characters)."""
    return repr(name) if len(name) <= 60 else repr(name[:57]) + "..."


def outside_names(outside: Path, work: Path) -> list[str]:
    """Ways to name a file in ``outside`` from a folder under ``work``."""
    rel = os.path.relpath(outside, work / DEFAULT_NAME)
    return [
        str(outside),  # absolute
        f"{rel}",
        f"{rel}/../{outside.name}",
        f"../../../../../../../../..{outside}",
        f"..\\{outside.name}",
        f"./{outside.name}",
        "..",
        f"{DEFAULT_NAME}/../{outside.name}",
    ]


@pytest.fixture
def work(tmp_path, monkeypatch):
    """A working directory with nothing else in it; ``TTR_LAB_FILES`` unset."""
    root = tmp_path / "work"
    root.mkdir()
    monkeypatch.chdir(root)
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setenv("TTR_LAB_APP_KEY", KEY)
    return root


def test_the_app_scorer_tab_never_writes_or_reads_outside_its_folder(work, tmp_path):
    """The app as `make app` starts it (no folder given): traversal names and absolute paths
    typed in the File box neither replace a file outside nor read one, and the messages for an
    existing and a missing outside file are the same."""
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "victim.json"
    victim.write_text(VICTIM)
    w = the_scorer(PlayApp())
    w.click_route(1)
    tries = 0
    for target in (victim, outside / "absent.json"):
        messages = []
        for name in outside_names(target, work):
            for button in ("save", "save", "load"):  # a second Save is the confirm to replace
                tries += 1
                said = press(w, button, name).replace(shown(name), "NAME")
                assert "NAME: a file name" in said, (name, said)
                assert "Secret" not in said and "victim" not in said and str(tmp_path) not in said
                messages.append(said)
        assert victim.read_text() == VICTIM and not (outside / "absent.json").exists()
        if target == victim:
            first = messages
        else:
            assert messages == first, "an outside file that exists and one that does not (same length) read the same"
    assert w.routes == [[1], []]  # nothing loaded
    assert sorted(os.listdir(tmp_path)) == ["outside", "work"] and os.listdir(outside) == ["victim.json"]
    assert tries == 2 * 3 * len(outside_names(victim, work))
    assert press(w, "save", "sheet") == '<span style="color:#1b5e20">saved sheet.json</span>'
    assert json.loads((work / DEFAULT_NAME / "sheet.json").read_text())["players"] == ["Player 1", "Player 2"]


def test_system_files_are_not_probed(work):
    """/etc/shadow (unreadable), /etc/passwd (readable, not JSON) and a missing file: one message each,
    all the same but for the name typed."""
    w = the_scorer(PlayApp())
    said = {
        name: press(w, "load", name).replace(shown(name), "NAME") for name in ("/etc/shadow", "/etc/passwd", "/nope")
    }
    assert len(set(said.values())) == 1 and "a file name only" in said["/etc/passwd"]
    assert "root" not in said["/etc/passwd"] and "JSON" not in said["/etc/passwd"]


BAD_NAMES = [
    "",
    " ",
    ".",
    "..",
    "../x.json",
    "a/b.json",
    "a\\b.json",
    "/tmp/x.json",
    "C:x.json",
    "C:\\x.json",
    ".hidden.json",
    ".x.json.1f2e3d4c.tmp",  # a save's temporary file
    "x\x00.json",
    "x\n.json",
    "\u202enosj.x",  # right-to-left override
    "CON.json",
    "x.json.",
    "a" * (MAX_NAME_LENGTH + 1),
    "notes.txt",
]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_name_that_is_not_a_plain_file_name_is_refused(tmp_path, name):
    folder = tmp_path / "files"
    w = scorer("usa", players=["Ada", "Bob"], folder=folder)
    for button in ("save", "save", "load"):
        said = press(w, button, name)
        assert "color:#b71c1c" in said and str(tmp_path) not in said
    assert not folder.exists() or os.listdir(folder) == []
    with pytest.raises(RecordError):
        check_name(name, ".json")


def test_symbolic_links_out_of_the_folder_are_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "victim.json"
    victim.write_text(VICTIM)
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "out.json").symlink_to(victim)
    (folder / "gone.json").symlink_to(outside / "absent.json")
    (folder / "up.json").symlink_to("../outside/victim.json")
    (folder / "dir.json").symlink_to(outside)
    w = scorer("usa", players=["Ada", "Bob"], folder=folder)
    said = set()
    for name in ("out.json", "gone.json", "up.json", "dir.json"):
        for button in ("load", "save", "save", "load"):
            message = press(w, button, name)
            assert "a link out of the files folder" in message, (name, button, message)
            said.add(message.replace(name, "NAME"))
    assert len(said) == 1  # a link to a file that exists reads as one to a missing file
    assert victim.read_text() == VICTIM and os.listdir(outside) == ["victim.json"]
    assert (folder / "out.json").is_symlink() and (folder / "gone.json").is_symlink()
    assert Folder(folder).names() == []  # links are not listed


def test_a_link_inside_the_folder_is_read_but_never_written_through(tmp_path):
    folder = tmp_path / "files"
    w = scorer("usa", players=["Ada", "Bob"], folder=folder)
    w.click_route(1)
    assert w.save("real")
    (folder / "alias.json").symlink_to("real.json")
    other = scorer("usa", players=["Ada", "Bob"], folder=folder)
    assert other.load("alias.json") and other.routes == [[1], []]
    before = (folder / "real.json").read_text()
    w.click_route(2)
    assert not w.save("alias.json") and not w.save("alias.json")  # confirmed, but a link is not replaced
    assert "symbolic link" in w.message.value
    assert (folder / "real.json").read_text() == before and (folder / "alias.json").is_symlink()


def test_saving_never_replaces_a_file_unasked(tmp_path):
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "table-game.json").write_text("my notes\n")
    w = scorer("usa", players=["Ada", "Bob"], folder=folder)
    w.click_route(1)
    said = press(w, "save", "table-game.json")
    assert "table-game.json exists: press Save again to replace it" in said
    assert (folder / "table-game.json").read_text() == "my notes\n"
    assert press(w, "save", "other").endswith("saved other.json</span>")  # a new name: saved, the confirm gone
    assert (folder / "other.json").exists()
    assert "exists" in press(w, "save", "table-game.json")  # asks again
    press(w, "load", "other")  # any other action disarms it too
    assert "exists" in press(w, "save", "table-game.json")
    assert (folder / "table-game.json").read_text() == "my notes\n"
    assert press(w, "save", "table-game.json").endswith("saved table-game.json</span>")  # the second press
    assert json.loads((folder / "table-game.json").read_text())["routes"] == [[1], []]
    w.click_route(2)
    assert not w.save("table-game.json") and w.save("table-game.json", overwrite=True)
    assert json.loads((folder / "table-game.json").read_text())["routes"] == [[1, 2], []]
    assert sorted(os.listdir(folder)) == ["other.json", "table-game.json"]  # no temporary file left


def test_the_folder_is_chosen_by_whoever_starts_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert Folder().root == os.path.realpath(tmp_path / DEFAULT_NAME)
    assert not (tmp_path / DEFAULT_NAME).exists()  # made on the first save only
    assert scorer("usa", players=["Ada", "Bob"]).save("a")
    assert os.listdir(tmp_path / DEFAULT_NAME) == ["a.json"]
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "class"))
    assert the_scorer(PlayApp(key=KEY)).save("b") and os.listdir(tmp_path / "class") == ["b.json"]
    app = PlayApp(key=KEY, folder=tmp_path / "given")
    assert app.folder == Folder(tmp_path / "given") and the_scorer(app).folder == app.folder
    assert the_scorer(app).save("c") and os.listdir(tmp_path / "given") == ["c.json"]
    (tmp_path / "file").write_text("x")
    with pytest.raises(TtrError, match="not a folder"):
        scorer("usa", folder=tmp_path / "file")


def test_load_reports_only_what_is_in_the_folder(tmp_path):
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "bad.json").write_text("{not json")
    (folder / "sub.json").mkdir()
    w = scorer("usa", players=["Ada", "Bob"], folder=folder)
    assert "bad.json: line 1" in press(w, "load", "bad.json")
    assert "not a regular file" in press(w, "load", "sub.json")
    assert "missing.json: file: cannot read: No such file" in press(w, "load", "missing")
    assert str(folder) not in w.message.value
    assert Folder(folder).names(".json") == ["bad.json"]


def test_folder_api(tmp_path):
    f = Folder(tmp_path)
    assert f.save("x.json", "1\n") == "x.json" and f.load_text("x.json") == "1\n"
    with pytest.raises(NameTakenError) as e:
        f.save("x.json", "2\n")
    assert e.value.name == "x.json" and f.load_json("x.json") == 1
    assert f.save("x.json", "2\n", overwrite=True) and f.load_json("x", suffix=".json") == 2
    assert f.exists("x.json") and not f.exists("y.json") and f.names() == ["x.json"]
    with pytest.raises(RecordError, match="limit"):
        f.names(limit=10**9)
    with pytest.raises(RecordError, match="a file name is text"):
        f.path(None)  # type: ignore[arg-type]
