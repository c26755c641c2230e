"""Fixtures for the browser tests: a private JupyterLab server, the classroom app, a headless Chromium.

The JupyterLab server runs on 127.0.0.1 with a random token, in a temporary root holding a
copy of ``notebooks/``, with fresh settings and workspaces (no news toast, no
reopened tabs).  The classroom app is started by ``make app`` itself
(:func:`make_app`: the Makefile's command, settings and Voila configuration).  The shared ``chromium_context`` (tests/conftest.py) is Debian's ``/usr/bin/chromium`` (or ``$CHROMIUM``),
driven through Playwright's ``launch_persistent_context``; never run
``playwright install``.  Without Chromium every browser test is skipped before
a server is started.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = ROOT / "notebooks"
KERNEL_READY = re.compile(r"Python 3 \(ipykernel\) \| Idle")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get_json(url: str) -> object:
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.load(r)


@pytest.fixture(scope="session")
def jupyter_server(chromium_context, tmp_path_factory):
    """``(base_url, token, root)`` of a JupyterLab serving a copy of notebooks/."""
    tmp = tmp_path_factory.mktemp("jlab")
    root = tmp / "root"
    shutil.copytree(
        NOTEBOOK_DIR, root, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", ".ipynb_checkpoints")
    )
    settings = tmp / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false", "checkForUpdates": false}')
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(
        os.environ, JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), JUPYTER_CONFIG_DIR=str(tmp / "config"), PYTHONHASHSEED="0"
    )
    log = open(tmp / "server.log", "wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            "--ip=127.0.0.1",
            f"--port={port}",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={root}",
            f"--LabApp.user_settings_dir={tmp / 'settings'}",
            f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"jupyter lab exited with {proc.returncode}; see {tmp / 'server.log'}")
            try:
                _get_json(f"{base}/api/status?token={token}")
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"jupyter lab did not answer within 60 s; see {tmp / 'server.log'}")
                time.sleep(0.2)
        yield base, token, root
    finally:
        proc.terminate()  # the server shuts its kernels down on SIGTERM
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture
def lab_notebook(chromium_context, jupyter_server):
    """Open a notebook in JupyterLab, run all cells, and return the page."""
    base, token, _ = jupyter_server
    expect = pytest.importorskip("playwright.sync_api").expect
    page = chromium_context.new_page()

    def open_and_run_all(name: str, viewport: dict[str, int] | None = None):
        if viewport is not None:
            page.set_viewport_size(viewport)
        page.goto(f"{base}/lab/tree/{name}?reset&token={token}")
        page.wait_for_selector("#jupyterlab-splash", state="detached", timeout=60_000)
        page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]', timeout=60_000)
        # the indicator says idle before a kernel is attached ("No Kernel | Initializing");
        # Run All then only clears the outputs, so wait for the kernel itself
        expect(page.locator("#jp-main-statusbar")).to_contain_text(KERNEL_READY, timeout=60_000)
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator('li[data-command="runmenu:run-all"]').click()
        return page

    yield open_and_run_all
    page.close()
    for s in _get_json(f"{base}/api/sessions?token={token}"):  # a fresh kernel for the next test
        req = urllib.request.Request(f"{base}/api/sessions/{s['id']}?token={token}", method="DELETE")
        urllib.request.urlopen(req, timeout=10).close()


@dataclass(frozen=True)
class AppServer:
    """The classroom app as ``make app`` serves it: its address, token and processes."""

    base: str  #: ``http://127.0.0.1:<port>``
    token: str
    pid: int  #: the ``make`` process (Voila is its child, the kernels Voila's)
    log: Path  #: what ``make app`` and Voila printed
    key: str  #: the app's key for game numbers (``APP_KEY``)

    @property
    def url(self) -> str:
        """The app's page, with the token."""
        return f"{self.base}/?token={self.token}"

    def kernels(self) -> list[Any]:
        """The kernel processes alive under this server (``psutil.Process``)."""
        import psutil

        try:
            procs = psutil.Process(self.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []
        alive = []
        for p in procs:
            try:
                if "ipykernel" in " ".join(p.cmdline()):
                    alive.append(p)
            except psutil.NoSuchProcess:
                pass
        return alive


#: the key game numbers are hashed with in the tests' app (make app APP_KEY=...)
APP_KEY = "ttr-lab-browser-tests-not-a-secret"


def app_seed(number: int = 7) -> int:
    """The seed of the app's game ``number`` under :data:`APP_KEY`."""
    try:
        from ttr_lab.widgets.app import deal_seed
    except ImportError:  # an app whose game number is the seed
        return number
    return int(deal_seed(APP_KEY, number))


@contextlib.contextmanager
def make_app(tmp: Path, **variables: str) -> Iterator[AppServer]:
    """Run ``make app`` (the Makefile's own command) on a free port, with ``variables``
    (``APP_CULL_IDLE="20"``...) and :data:`APP_KEY`; stop it (and so its kernels) afterwards.
    Uses this Python's environment (``VENV``) without reinstalling it."""
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    pytest.importorskip("voila", reason="voila is not installed (pip install 'voila>=0.5.13')")
    psutil = pytest.importorskip("psutil")
    port = _free_port()
    env = dict(
        os.environ, JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), JUPYTER_CONFIG_DIR=str(tmp / "config"), PYTHONHASHSEED="0"
    )
    venv = Path(sys.prefix)
    settings = {"VENV": str(venv), "PY": sys.executable, "APP_PORT": str(port), "APP_KEY": APP_KEY}
    settings["APP_FILES"] = str(tmp / "files")
    settings.update(variables)
    args = [make, "--no-print-directory", "-o", str(venv / ".app-installed"), "app"]
    args += [f"{k}={v}" for k, v in settings.items()]
    log_path = tmp / "app.log"
    log = open(log_path, "wb")
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        token = None
        while True:
            if proc.poll() is not None:
                pytest.fail(f"make app exited with {proc.returncode}: {log_path.read_text(errors='replace')[-2000:]}")
            if token is None:
                said = re.search(
                    rf"The app: {re.escape(base)}/\?token=([0-9a-f]+)", log_path.read_text(errors="replace")
                )
                token = said.group(1) if said else None
            if token is not None:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    pass
            if time.monotonic() > deadline:
                pytest.fail(f"make app did not serve within 90 s; see {log_path}")
            time.sleep(0.2)
        yield AppServer(base, token, proc.pid, log_path, APP_KEY)
    finally:
        try:  # Voila (make's child) shuts its kernels down on SIGTERM; then make ends
            children = psutil.Process(proc.pid).children()
        except psutil.NoSuchProcess:
            children = []
        for child in children:
            child.terminate()
        psutil.wait_procs(children, timeout=20)
        for child in children:
            if child.is_running():
                child.kill()
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="session")
def voila_server(chromium_context, tmp_path_factory) -> Iterator[AppServer]:
    """The classroom app served by ``make app`` with its default settings (127.0.0.1, a token)."""
    with make_app(tmp_path_factory.mktemp("app")) as server:
        yield server
