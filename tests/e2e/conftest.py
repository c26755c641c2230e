"""Fixtures for the browser tests: a private JupyterLab server and a headless Chromium.

The server runs on 127.0.0.1 with a random token, in a temporary root holding a
copy of ``notebooks/``, with fresh settings and workspaces (no news toast, no
reopened tabs).  The shared ``chromium_context`` (tests/conftest.py) is Debian's ``/usr/bin/chromium`` (or ``$CHROMIUM``),
driven through Playwright's ``launch_persistent_context``; never run
``playwright install``.  Without Chromium every browser test is skipped before
a server is started.
"""

from __future__ import annotations

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
from pathlib import Path

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


@pytest.fixture(scope="session")
def voila_server(chromium_context, tmp_path_factory):
    """``(base_url, token)`` of Voila serving ``apps/play.ipynb`` as ``make app`` does (127.0.0.1, a token)."""
    pytest.importorskip("voila", reason="voila is not installed (pip install 'voila>=0.5.13')")
    tmp = tmp_path_factory.mktemp("voila")
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(
        os.environ, JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), JUPYTER_CONFIG_DIR=str(tmp / "config"), PYTHONHASHSEED="0"
    )
    log = open(tmp / "voila.log", "wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "voila",
            str(ROOT / "apps" / "play.ipynb"),
            "--no-browser",
            "--Voila.ip=127.0.0.1",
            f"--port={port}",
            f"--token={token}",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=tmp,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                pytest.fail(f"voila exited with {proc.returncode}; see {tmp / 'voila.log'}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"voila did not listen within 90 s; see {tmp / 'voila.log'}")
                time.sleep(0.2)
        yield base, token
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
