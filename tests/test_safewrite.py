"""ttr_lab.io.safewrite (re-exported by ttr_lab.io.safeio): a file the user had is never destroyed.

The target is replaced only by a complete, synced file, or not at all; every
failure is the caller's TtrError and leaves the target byte-identical and no
temporary file behind.
"""

from __future__ import annotations

import errno
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ttr_lab.errors import MapDataError, RecordError
from ttr_lab.io import safewrite
from ttr_lab.io.safeio import atomic_open, atomic_write

OLD = b"ply,move\n1,keep 1 2\n"


@pytest.fixture
def keep(tmp_path: Path) -> Path:
    path = tmp_path / "keep.csv"
    path.write_bytes(OLD)
    return path


def untouched(path: Path, content: bytes = OLD) -> None:
    """The target holds exactly what it held, and nothing else is in its folder."""
    assert path.read_bytes() == content
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_reexported_by_safeio():
    from ttr_lab.io import safeio

    assert safeio.atomic_write is atomic_write and safeio.atomic_open is atomic_open
    assert {"atomic_write", "atomic_open"} <= set(safeio.__all__)


def test_writes_a_new_file_exactly(tmp_path):
    path = tmp_path / "game.json"
    atomic_write(path, "Zürich\r\n")
    assert path.read_bytes() == "Zürich\r\n".encode()
    atomic_write(str(tmp_path / "b.bin"), b"\x00\xff")
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\xff"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.bin", "game.json"]


def test_replaces_an_existing_file_and_keeps_its_permissions(keep):
    keep.chmod(0o600)
    atomic_write(keep, "new\n")
    untouched(keep, b"new\n")
    assert stat.S_IMODE(keep.stat().st_mode) == 0o600


def test_a_new_file_gets_the_usual_permissions(tmp_path):
    umask = os.umask(0o022)
    try:
        atomic_write(tmp_path / "n.json", "{}")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "n.json").stat().st_mode) == 0o644


def test_relative_path_in_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    atomic_write("here.json", "[]")
    assert (tmp_path / "here.json").read_text() == "[]"


def test_text_file_with_newline_option(tmp_path):
    with atomic_open(tmp_path / "rows.csv", newline="") as f:
        f.write("a,b\r\n")
    assert (tmp_path / "rows.csv").read_bytes() == b"a,b\r\n"


@pytest.mark.parametrize("exc", [ValueError("review failed"), KeyboardInterrupt(), SystemExit(3)])
def test_a_failure_in_the_block_keeps_the_old_file(keep, exc):
    with pytest.raises(type(exc)):
        with atomic_open(keep) as f:
            f.write("half a review" * 10_000)
            f.flush()
            raise exc
    untouched(keep)


def test_a_full_disk_is_the_callers_error_and_keeps_the_old_file(keep, monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(safewrite.os, "fsync", full)
    with pytest.raises(MapDataError) as info:
        atomic_write(keep, "new", error=MapDataError, name="keep.csv")
    assert str(info.value) == "keep.csv: file: cannot write: No space left on device"
    assert isinstance(info.value.__cause__, OSError)
    monkeypatch.undo()
    untouched(keep)


def test_an_oserror_while_writing_in_the_block_is_the_callers_error(keep):
    with pytest.raises(RecordError, match="cannot write: Input/output error"):
        with atomic_open(keep) as f:
            f.write("x")
            raise OSError(errno.EIO, os.strerror(errno.EIO))
    untouched(keep)


def test_interrupted_at_the_rename_keeps_the_old_file(keep, monkeypatch):
    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(safewrite.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(keep, "new")
    monkeypatch.undo()
    untouched(keep)


def test_no_overwrite_refuses_an_existing_file(keep):
    with pytest.raises(RecordError) as info:
        atomic_write(keep, "new", overwrite=False, name="keep.csv")
    assert str(info.value) == "keep.csv: file: exists already; choose another name, or allow replacing it"
    assert isinstance(info.value.__cause__, FileExistsError)
    untouched(keep)


def test_no_overwrite_refuses_a_file_made_meanwhile(tmp_path):
    """Someone else creates the name while we write: theirs is kept (atomic, not check-then-write)."""
    path = tmp_path / "sheet.json"
    with pytest.raises(RecordError) as info:
        with atomic_open(path, overwrite=False) as f:
            f.write("ours")
            path.write_bytes(OLD)
    assert isinstance(info.value.__cause__, FileExistsError)
    untouched(path)


@pytest.mark.parametrize("code", [errno.EPERM, errno.ENOTSUP])
def test_no_overwrite_without_hard_links(tmp_path, keep, monkeypatch, code):
    def no_links(src, dst):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(safewrite.os, "link", no_links)
    atomic_write(tmp_path / "new.json", "{}", overwrite=False)
    assert (tmp_path / "new.json").read_text() == "{}"
    with pytest.raises(RecordError, match="exists already"):
        atomic_write(keep, "new", overwrite=False)
    assert keep.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.csv", "new.json"]


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(RecordError, match=r"not a regular file \(a directory\); give the path of a score sheet"):
        atomic_write(tmp_path, "x", what="score sheet")
    assert list(tmp_path.iterdir()) == []


def test_a_symbolic_link_is_refused_and_kept(tmp_path, keep):
    link = tmp_path / "link.csv"
    link.symlink_to(keep)
    with pytest.raises(RecordError, match=r"not a regular file \(a symbolic link\)"):
        atomic_write(link, "new")
    assert link.is_symlink() and keep.read_bytes() == OLD
    dangling = tmp_path / "dangling.csv"
    dangling.symlink_to(tmp_path / "nowhere")
    with pytest.raises(RecordError, match="a symbolic link"):
        atomic_write(dangling, "new")
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_named_pipe_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    with pytest.raises(RecordError, match=r"a named pipe"):
        atomic_write(fifo, "x")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null")
def test_a_device_is_refused():
    with pytest.raises(RecordError, match=r"/dev/null: file: not a regular file \(a character device\)"):
        atomic_write("/dev/null", "x")


def test_a_missing_folder(tmp_path):
    with pytest.raises(RecordError, match="cannot write: No such file or directory"):
        atomic_write(tmp_path / "no" / "x.json", "x")


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes anywhere")
def test_a_read_only_folder(tmp_path, keep):
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(RecordError, match="cannot write: Permission denied"):
            atomic_write(keep, "new")
    finally:
        tmp_path.chmod(0o700)
    untouched(keep)


@pytest.mark.parametrize("bad", ["a\0b.json", b"x.json", str(Path("/") / "")])
def test_bad_paths(bad):
    with pytest.raises(RecordError):
        atomic_write(bad, "x")


# A child process writes the file over and over (each time larger than the
# page cache flushes at once); SIGINT arrives at random moments.  Whatever the
# moment, the file holds one complete version and no temporary file is left.
CHILD = r"""
import sys
from ttr_lab.io.safeio import atomic_write
path = sys.argv[1]
print("ready", flush=True)
for i in range(10**6):
    atomic_write(path, (str(i % 10) * 999 + "\n") * 2000)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
def test_sigint_at_random_moments_leaves_a_whole_file(keep):
    rng = random.Random(20)
    versions = {OLD} | {(str(d) * 999 + "\n").encode() * 2000 for d in range(10)}
    for _run in range(8):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(keep)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        assert child.stdout is not None and child.stdout.readline() == b"ready\n"
        time.sleep(rng.uniform(0.0, 0.3))
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
        assert child.returncode != 0, "the child was interrupted"
        assert b"KeyboardInterrupt" in err
        assert keep.read_bytes() in versions
        assert sorted(p.name for p in keep.parent.iterdir()) == ["keep.csv"]


# The library's own saves, each given a file that cannot be written in full (a
# file-size limit stands in for a full disk): the user's file must survive.
SAVES = r"""
import resource, signal, sys
from pathlib import Path
import ttr_lab
from ttr_lab.errors import TtrError
from ttr_lab.records import Record, save_position
from ttr_lab.tabletop import save_sheet

folder = Path(sys.argv[1])
game = ttr_lab.new_game("usa", players=2, seed=1)
saves = {
    "record": lambda p: Record.from_state(game).save(p),
    "position": lambda p: save_position(game, p),
    "sheet": lambda p: save_sheet(p, "usa", players=["Ada", "Bob"], routes={"Ada": [1, 2]}),
}
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), not the process
resource.setrlimit(resource.RLIMIT_FSIZE, (40, 40))
for name, save in saves.items():
    try:
        save(folder / f"{name}.json")
    except TtrError as e:
        print(name, "refused:", e)
    else:
        print(name, "saved")
"""


@pytest.mark.skipif(os.name != "posix", reason="resource limits")
def test_the_librarys_saves_never_destroy_a_file(tmp_path):
    old = {name: f'{{"mine": "{name}", "pad": "{"x" * 60}"}}\n'.encode() for name in ("record", "position", "sheet")}
    for name, content in old.items():
        (tmp_path / f"{name}.json").write_bytes(content)
    done = subprocess.run([sys.executable, "-c", SAVES, str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for name, content in old.items():
        assert (tmp_path / f"{name}.json").read_bytes() == content, name
    assert [x.split(":")[0] for x in lines] == ["record refused", "position refused", "sheet refused"]
    assert all(x.endswith(": file: cannot write: File too large") for x in lines), lines
    assert sorted(p.name for p in tmp_path.iterdir()) == ["position.json", "record.json", "sheet.json"]


def test_a_tournaments_rows_replace_old_ones_whole(tmp_path):
    pd = pytest.importorskip("pandas")
    from ttr_lab.simulate.tournaments import Tournament

    rows = pd.DataFrame({"agent": ["a", "b"], "score": [1, 2]})
    t = Tournament(games=rows, table=rows)
    for name in ("t.csv", "t.csv.gz"):
        (tmp_path / name).write_bytes(OLD)
        assert t.save(tmp_path / name).name == "t-table.csv"
        assert pd.read_csv(tmp_path / name).equals(rows)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t-table.csv", "t.csv", "t.csv.gz"]
