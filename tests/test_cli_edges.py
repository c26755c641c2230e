"""The command line at its edges (issue 20.2, 20.9), in real subprocesses: Ctrl-C
while it starts and while it reviews, a closed or full standard output,
``--version``, the program's name in usage lines, and a file the user had
that a failed or interrupted ``review --save`` must leave byte-identical."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ttr_lab
from ttr_lab.bots import make_bot, play_game
from ttr_lab.records import Record

POSIX = pytest.mark.skipif(os.name != "posix", reason="POSIX signals and devices")
PY = [sys.executable, "-m", "ttr_lab"]
SCRIPT = Path(sys.executable).with_name("ttr-lab")  # the console script, beside the interpreter
OLD = b"ply,seat,move\n1,0,keep 1 2\n"  # what the user had in keep.csv


@pytest.fixture(scope="module")
def record_file(tmp_path_factory) -> Path:
    game = play_game("usa", [make_bot("greedy", seed=1), make_bot("greedy", seed=2)], seed=3)
    path = tmp_path_factory.mktemp("edges") / "game.json"
    Record.from_state(game).save(path)
    return path


def run(args: list[str], **kw) -> subprocess.CompletedProcess:
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.run(args, text=True, timeout=300, **kw)


def one_error_line(stderr: str, text: str) -> None:
    assert "Traceback" not in stderr
    assert stderr.count("\n") == 1 and stderr.startswith("error: ") and text in stderr, stderr


def only_old_file(folder: Path) -> None:
    """keep.csv holds what the user had, and no temporary file is left beside it."""
    assert (folder / "keep.csv").read_bytes() == OLD
    assert sorted(p.name for p in folder.iterdir()) == ["keep.csv"]


# ---------------------------------------------------------------- --version and the program's name
def test_version():
    done = run([*PY, "--version"])
    assert (done.returncode, done.stdout, done.stderr) == (0, f"ttr_lab {ttr_lab.__version__}\n", "")


@pytest.mark.skipif(not SCRIPT.exists(), reason="the console script is not installed")
def test_the_console_script_names_itself():
    done = run([str(SCRIPT), "--version"])
    assert (done.returncode, done.stdout) == (0, f"ttr_lab {ttr_lab.__version__}\n")
    done = run([str(SCRIPT), "nope"])
    assert done.returncode == 2
    one_error_line(done.stderr, "(see 'ttr-lab --help')")
    assert "python -m" not in run([str(SCRIPT), "--help"]).stdout
    assert run([str(SCRIPT), "review", "--help"]).stdout.startswith("usage: ttr-lab review")


def test_python_dash_m_names_itself():
    done = run([*PY, "nope"])
    assert done.returncode == 2
    one_error_line(done.stderr, "(see 'python -m ttr_lab --help')")


def test_which_processes_are_the_command_line():
    from ttr_lab.io.cli_guard import is_command_line

    assert is_command_line(["/venv/bin/ttr-lab"], ["python", "/venv/bin/ttr-lab"])
    assert is_command_line(["-m"], ["python", "-X", "importtime", "-m", "ttr_lab", "play"])
    assert is_command_line(["-m"], ["python", "-mttr_lab"])
    for orig in (["python", "-m", "pytest"], ["python", "-c", "import ttr_lab"], ["python", "x.py", "-m", "ttr_lab"]):
        assert not is_command_line([orig[-1]], orig)
    assert not is_command_line()  # this test process


def test_importing_ttr_lab_elsewhere_leaves_ctrl_c_alone():
    code = "import signal, ttr_lab; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    assert run([sys.executable, "-c", code]).stdout == "True\n"


# ---------------------------------------------------------------- closed and full standard output
@POSIX
def test_closed_standard_output_is_one_line(record_file):
    for command in ("editions", f"replay {record_file}"):
        done = run(["sh", "-c", f"exec '{sys.executable}' -m ttr_lab {command} >&-"])
        assert done.returncode == 1
        one_error_line(done.stderr, "standard output is closed")


@POSIX
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("command", [["editions"], ["replay", "{file}", "--moves"], ["--help"]])
def test_a_full_device_is_one_line(command, record_file):
    with open("/dev/full", "w") as full:
        done = run([*PY, *(c.format(file=record_file) for c in command)], stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 1
    one_error_line(done.stderr, "cannot write the output: No space left on device")


@POSIX
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_full_standard_output_and_error_still_exit_1():
    with open("/dev/full", "w") as full:
        done = subprocess.run([*PY, "editions"], stdout=full, stderr=full, timeout=300)
    assert done.returncode == 1


# ---------------------------------------------------------------- Ctrl-C
def _first_ttr_lab_import(child: subprocess.Popen) -> list[str]:
    """Read the child's ``-X importtime`` lines until the first ttr_lab module is imported."""
    lines = []
    for line in child.stderr:
        lines.append(line)
        if line.startswith("import time:") and line.split("|")[-1].strip().startswith("ttr_lab"):
            return lines
    return lines


@POSIX
@pytest.mark.parametrize("launch", ["module", "script"])
def test_ctrl_c_while_starting_is_one_line(launch):
    """SIGINT at random moments once ttr_lab's first module is loaded (the
    interpreter's own start-up before it is Python's): never a traceback."""
    if launch == "script" and not SCRIPT.exists():
        pytest.skip("the console script is not installed")
    start = [*PY] if launch == "module" else [str(SCRIPT)]
    rng = random.Random(9)
    interrupted = 0
    for _ in range(7):
        env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}
        child = subprocess.Popen(
            [*start, "editions"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )
        head = _first_ttr_lab_import(child)
        time.sleep(rng.uniform(0.0, 0.15))
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
        err = "".join(head) + err
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-800:]
        messages = [x for x in err.splitlines() if not x.startswith("import time:")]
        if child.returncode == 130:
            interrupted += 1
            assert messages == ["error: interrupted"]
        else:  # it had finished
            assert child.returncode == 0 and messages == [] and "usa" in out
    assert interrupted >= 3  # most signals came while it was starting


@POSIX
def test_ctrl_c_during_review_save_keeps_the_old_file(record_file, tmp_path):
    """SIGINT at random moments of 'review --save keep.csv' (once the review
    runs): the file the user had is byte-identical, or, if the review had
    finished, the complete new review; never a leftover temporary file."""
    keep = tmp_path / "keep.csv"
    rng = random.Random(20)
    interrupted = 0
    for _ in range(5):
        keep.write_bytes(OLD)
        args = [*PY, "review", str(record_file), "--playouts", "60", "--plies", "1-40", "--save", str(keep)]
        child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        seen = b""
        while b"review" not in seen:  # the progress bar: the review has started
            chunk = child.stderr.read1(1024)
            assert chunk, "the review ended before it started"
            seen += chunk
        time.sleep(rng.uniform(0.0, 1.0))
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=300)
        assert b"Traceback" not in seen + err
        if child.returncode == 130:
            interrupted += 1
            assert (seen + err).rstrip().endswith(b"error: interrupted")
            only_old_file(tmp_path)
        else:
            assert child.returncode == 0 and keep.read_bytes().startswith(b"ply,seat,move,")
            assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.csv"]
    assert interrupted >= 3


def test_a_failing_review_keeps_the_old_file(record_file, tmp_path):
    keep = tmp_path / "keep.csv"
    keep.write_bytes(OLD)
    done = run([*PY, "review", str(record_file), "--seconds-per-ply", "0", "--save", str(keep), "--no-progress"])
    assert done.returncode == 1 and "seconds_per_ply" in done.stderr
    only_old_file(tmp_path)


def test_a_review_that_cannot_be_written_keeps_the_old_file(record_file, tmp_path):
    """The CSV cannot be written in full (a file-size limit stands in for a full disk)."""
    if os.name != "posix":
        pytest.skip("resource limits")
    import resource

    keep = tmp_path / "keep.csv"
    keep.write_bytes(OLD)

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), not the process
        resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))

    args = [*PY, "review", str(record_file), "--playouts", "1", "--plies", "1-6", "--save", str(keep), "--no-progress"]
    done = run(args, preexec_fn=small_files)
    assert done.returncode == 1
    one_error_line(done.stderr, "cannot write: File too large")
    only_old_file(tmp_path)
