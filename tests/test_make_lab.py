"""``make lab``, the first command of the README, sets up every lesson and opens notebook 01 itself
(issue 19 C1), and running the lessons writes nothing into the repository (issue 19 D7).

* The fast test builds make lab's JupyterLab settings (``overrides.json``) with make itself and asks a
  JupyterLab reading them: autosave is off.  JupyterLab used to save a lesson two minutes after it
  was run (new widget ids and outputs, notebooks/02-play.ipynb in the issue) and after opening it
  under another Python (the kernel rewrites ``language_info``); nothing else was written by a lesson
  (every lesson run with nbconvert changed no other file).
* The slow test (``--runslow``; ``make test`` runs it) works on a copy of the repository, as a new
  user's clone: it runs ``make lab`` there (a fresh venv from PyPI, the settings, the server), reads
  the address it prints, which must be notebook 01's, and the settings that server serves, stops
  it, then runs every lesson and every student copy top to bottom in that same venv with the
  project's runner (``tools/run_notebooks.py --check``: nbclient, which ``[lab]`` brings; nothing
  else is installed into the venv), and checks that ``git status`` of the copy is still clean and
  that nothing but Python's ``__pycache__`` appeared.  It is skipped, with the reason, only when
  PyPI cannot be reached.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NB_URL = "/lab/tree/notebooks/01-learn-the-rules.ipynb"
DOCMANAGER = "@jupyterlab/docmanager-extension:plugin"
IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis",
    ".ipynb_checkpoints", "test-artifacts", "node_modules", "ttr_lab_files",
)  # fmt: skip
OFFLINE_HINTS = ("Failed to establish a new connection", "Temporary failure in name resolution", "NewConnectionError")

make = shutil.which("make")
needs_make = pytest.mark.skipif(make is None, reason="make is not installed")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def _settings(base: str, token: str, plugin: str) -> dict:
    return _get_json(f"{base}/lab/api/settings/{plugin}?token={token}")


def _stop(proc: subprocess.Popen) -> None:
    """Stop a process started in its own session, and its children (make -> jupyter)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@needs_make
def test_make_lab_turns_autosave_off_where_jupyterlab_reads_it(tmp_path):
    venv = tmp_path / "venv"  # a venv that make takes as set up: its python is this one
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    (venv / ".lab-installed").touch()
    settings = venv / "share" / "jupyter" / "lab" / "settings"
    done = subprocess.run(
        [make, f"VENV={venv}", str(settings / "overrides.json")], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    port, token = _free_port(), secrets.token_hex(8)
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "rt"), JUPYTER_CONFIG_DIR=str(tmp_path / "cfg"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={tmp_path}",
         f"--LabApp.app_settings_dir={settings}", f"--LabApp.user_settings_dir={tmp_path / 'user'}",
         f"--LabApp.workspaces_dir={tmp_path / 'ws'}"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                doc = _settings(base, token, DOCMANAGER)
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "jupyter lab did not start"
                time.sleep(0.3)
        assert doc["schema"]["properties"]["autosave"]["default"] is False  # JupyterLab's own default is True
        news = _settings(base, token, "@jupyterlab/apputils-extension:notification")
        assert news["schema"]["properties"]["fetchNews"]["default"] == "false"
    finally:
        _stop(proc)


# ---------------------------------------------------------------- the whole first command, in a clone


def _git(repo: Path, *args: str) -> str:
    cmd = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.autocrlf=false", *args]
    return subprocess.run(cmd, cwd=repo, capture_output=True, text=True, check=True, timeout=300).stdout


def _files(repo: Path) -> set[str]:
    """Every file of the copy outside its venv and .git."""
    out = set()
    for path in repo.rglob("*"):
        rel = path.relative_to(repo).as_posix()
        if path.is_file() and not rel.startswith((".git/", "venv/")):
            out.add(rel)
    return out


def _clean_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "JUPYTER", "PIP_"))}
    env["PYTHONNOUSERSITE"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    for name in ("CONFIG", "DATA", "RUNTIME"):  # no user-level kernels, settings or workspaces
        (tmp / f"jupyter-{name.lower()}").mkdir(exist_ok=True)
        env[f"JUPYTER_{name}_DIR"] = str(tmp / f"jupyter-{name.lower()}")
    return env


@pytest.mark.slow
@needs_make
@pytest.mark.skipif(os.name == "nt", reason="make lab's venv layout is POSIX")
def test_make_lab_sets_up_and_runs_every_lesson_and_writes_nothing_into_the_repository(tmp_path):
    repo = tmp_path / "ttr_lab"
    shutil.copytree(ROOT, repo, ignore=IGNORE)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "a clone")
    env = _clean_env(tmp_path)
    venv = repo / "venv"  # ignored by the repository's .gitignore, as .venv is
    (repo / ".git" / "info" / "exclude").write_text("/venv/\n", encoding="utf-8")
    port = _free_port()
    log = tmp_path / "make-lab.log"
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(
            [make, "lab", f"VENV={venv}", f"PYTHON={sys.executable}",
             f"LAB_ARGS=--no-browser --ip=127.0.0.1 --port={port} --ServerApp.port_retries=0"],
            cwd=repo, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        address = None
        deadline = time.monotonic() + 1200  # pip installs [lab,sim] into a fresh venv first
        while address is None:
            text = log.read_text(encoding="utf-8", errors="replace")
            found = re.search(r"http://(?:127\.0\.0\.1|localhost):(\d+)(/\S*)\?token=([0-9a-f]+)", text)
            if found:
                address = found
                break
            if proc.poll() is not None:
                if any(hint in text for hint in OFFLINE_HINTS):
                    pytest.skip(f"PyPI is unreachable:\n{text[-1500:]}")
                pytest.fail(f"make lab stopped (exit {proc.returncode}) before printing an address:\n{text[-3000:]}")
            assert time.monotonic() < deadline, f"make lab printed no address in 20 minutes:\n{text[-3000:]}"
            time.sleep(1)
        printed_port, path, token = address.groups()
        assert path == NB_URL, f"make lab printed {path}, not notebook 01 (the old make lab: /lab, the Launcher)"
        assert int(printed_port) == port, "LAB_ARGS did not reach jupyter lab"
        base = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(f"{base}{path}?token={token}", timeout=30) as r:
            assert r.status == 200
        contents = _get_json(f"{base}/api/contents/notebooks/01-learn-the-rules.ipynb?content=0&token={token}")
        assert contents["type"] == "notebook"
        doc = _settings(base, token, DOCMANAGER)
        assert doc["schema"]["properties"]["autosave"]["default"] is False
    finally:
        _stop(proc)
    assert _git(repo, "status", "--porcelain", "--untracked-files=all") == "", "make lab changed the repository"
    before = _files(repo)
    python = venv / "bin" / "python"
    for module in ("pandas", "tqdm", "dask", "distributed", "plotly", "anywidget", "ipywidgets", "nbclient"):
        check = subprocess.run([python, "-c", f"import {module}"], env=env, capture_output=True, timeout=120)
        assert check.returncode == 0, f"make lab's venv lacks {module}: {check.stderr.decode()[-500:]}"
    run = subprocess.run(
        [python, "tools/run_notebooks.py", "--check"], cwd=repo, env=env, capture_output=True, text=True, timeout=2400
    )
    assert run.returncode == 0, f"a lesson failed in make lab's venv:\n{(run.stdout + run.stderr)[-4000:]}"
    ran = re.findall(r"^(notebooks/\S+\.ipynb): ran", run.stdout, re.M)
    lessons = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks").glob("*.ipynb"))
    students = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks" / "student").glob("*.ipynb"))
    assert sorted(ran) == sorted(lessons + students), run.stdout
    # D7: running every lesson wrote nothing into the repository (Python's bytecode cache aside)
    assert _git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    new = sorted(f for f in _files(repo) - before if "__pycache__/" not in f)
    assert new == [], f"running the lessons wrote into the repository: {new[:20]}"
