"""Binder: the ``binder/`` folder builds an environment that runs every notebook.

mybinder.org builds the image with repo2docker, which reads only ``binder/``
(docs/source/use/repository.md): ``runtime.txt`` picks Python,
``pip install -r binder/requirements.txt`` runs from the repository root, and
``postBuild`` runs last.  Docker is not needed to check the parts that can
break: the fast tests read the three files; the slow test builds the same pip
environment in a clean virtual environment (from PyPI) and runs strict nbval
on every notebook inside it, which is what a Binder user launches.

The slow test works on a copy of the repository, as repo2docker does, so the
shared working tree gets no ``build/`` or egg-info writes.  It is skipped, with
the reason, only when PyPI cannot be reached.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"
NOTEBOOKS = "notebooks"  # every notebook, as users launch them
SANITIZE = "notebooks/nbval-sanitize.cfg"
# The packages a Binder user needs, each pinned in binder/requirements.txt.
PINNED = (
    "jupyterlab",
    "notebook",
    "ipywidgets",
    "anywidget",
    "plotly",
    "networkx",
    "nbval",
    "pytest",
    "pandas",
    "tqdm",
    "dask",
)
# What repo2docker 2026.4.0's base environment already holds (py3.11/3.12: jupyterlab 4.4.9 and
# notebook 7.4.7, which requires jupyterlab<4.5): pip install -r binder/requirements.txt runs on top.
BASE_ENV = ("jupyterlab==4.4.9", "notebook==7.4.7")
# Words in pip's output that mean "no network / no index", not a broken requirements file.
OFFLINE_HINTS = (
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "NewConnectionError",
    "ProxyError",
    "ConnectTimeout",
    "ReadTimeout",
    "Connection refused",
    "SSLError",
)
IGNORE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    ".ipynb_checkpoints",
    "test-artifacts",
    "node_modules",
)


def requirement_lines() -> list[str]:
    lines = (BINDER / "requirements.txt").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


# ---------------------------------------------------------------- fast checks of the files


def test_runtime_txt_names_a_supported_python():
    text = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip()
    # repo2docker's format is name-version[-date]; "python3.12" is a ValueError there.
    assert re.fullmatch(r"python-3\.(11|12)", text), text


def test_requirements_pin_the_stack_and_install_this_package():
    lines = requirement_lines()
    pins = {}
    for line in lines:
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)(?:\[[a-z,]+\])?==([0-9][0-9A-Za-z.]*)", line)
        if m:
            pins[m.group(1).lower()] = m.group(2)
    assert set(PINNED) <= set(pins), f"not pinned: {sorted(set(PINNED) - set(pins))}"
    # a local reference: repo2docker then copies the repository before pip runs
    assert any(line in (".", "-e .", "-e.") for line in lines), lines
    assert not (ROOT / ".binder").exists(), "a binder/ and a .binder/ folder are exclusive"


def test_requirement_pins_satisfy_the_package_metadata():
    tomllib = pytest.importorskip("tomllib")
    specifiers = pytest.importorskip("packaging.specifiers")
    requirements = pytest.importorskip("packaging.requirements")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    declared = [requirements.Requirement(r) for r in project["dependencies"] + extras["lab"] + extras["sim"]]
    pins = {requirements.Requirement(line).name: line.split("==")[1] for line in requirement_lines() if "==" in line}
    for req in declared:
        if req.name in pins:
            assert specifiers.SpecifierSet(str(req.specifier)).contains(pins[req.name]), (req, pins[req.name])


def test_postbuild_writes_the_lab_overrides(tmp_path):
    script = BINDER / "postBuild"
    text = script.read_text(encoding="utf-8")
    assert text.startswith("#!/bin/bash\n")
    assert re.search(r"^set -e", text, re.M), "without set -e a failing postBuild does not stop the build"
    assert os.access(script, os.X_OK), "postBuild must be executable"
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    env = dict(os.environ, NB_PYTHON_PREFIX=str(tmp_path))
    subprocess.run([bash, str(script)], cwd=ROOT, env=env, check=True, timeout=60)
    overrides = json.loads((tmp_path / "share/jupyter/lab/settings/overrides.json").read_text(encoding="utf-8"))
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"


# ---------------------------------------------------------------- the real environment


def clean_env(env_dir: Path, tmp: Path) -> dict[str, str]:
    """This process's environment, minus anything that would leak it into the new venv."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "JUPYTER"))}
    env["PATH"] = str(env_dir / "bin") + os.pathsep + env.get("PATH", "")
    env["VIRTUAL_ENV"] = str(env_dir)
    env["PYTHONNOUSERSITE"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    for name in ("CONFIG", "DATA", "RUNTIME"):  # no user-level kernels or settings
        (tmp / f"jupyter-{name.lower()}").mkdir(exist_ok=True)
        env[f"JUPYTER_{name}_DIR"] = str(tmp / f"jupyter-{name.lower()}")
    return env


def tail(proc: subprocess.CompletedProcess, n: int = 40) -> str:
    return "\n".join((proc.stdout + proc.stderr).splitlines()[-n:])


def offline(proc: subprocess.CompletedProcess) -> bool:
    out = proc.stdout + proc.stderr
    return any(hint in out for hint in OFFLINE_HINTS)


@pytest.mark.slow
@pytest.mark.skipif(os.name == "nt", reason="Binder images are Linux; the venv layout here is POSIX")
def test_binder_requirements_run_every_notebook_under_strict_nbval(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=IGNORE)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False, clear=True).create(env_dir)
    python = env_dir / "bin" / "python"
    env = clean_env(env_dir, tmp_path)

    def run(*args: object, timeout: float) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(a) for a in args], cwd=repo, env=env, capture_output=True, text=True, timeout=timeout
        )

    probe = run(python, "-m", "pip", "index", "versions", "nbval", timeout=120)
    if probe.returncode != 0:
        pytest.skip(f"PyPI is unreachable (pip index versions nbval failed):\n{tail(probe, 8)}")

    # repo2docker's base environment first (its notebook 7.4.7 needs jupyterlab<4.5)...
    base = run(python, "-m", "pip", "install", *BASE_ENV, timeout=600)
    if base.returncode != 0 and offline(base):
        pytest.skip(f"PyPI became unreachable during pip install:\n{tail(base, 8)}")
    assert base.returncode == 0, f"pip install {' '.join(BASE_ENV)} failed:\n{tail(base)}"
    # ... then what repo2docker does: pip from the repository root, so "-e ." is this checkout.
    install = run(python, "-m", "pip", "install", "-r", "binder/requirements.txt", timeout=600)
    if install.returncode != 0 and offline(install):
        pytest.skip(f"PyPI became unreachable during pip install:\n{tail(install, 8)}")
    assert install.returncode == 0, f"pip install -r binder/requirements.txt failed:\n{tail(install)}"
    # every installed package's requirements hold, the base environment's included
    check = run(python, "-m", "pip", "check", timeout=120)
    assert check.returncode == 0, f"pip check after binder/requirements.txt:\n{tail(check)}"

    # postBuild writes JupyterLab's settings overrides where this environment's Lab reads them.
    subprocess.run(
        ["bash", "binder/postBuild"], cwd=repo, env=dict(env, NB_PYTHON_PREFIX=str(env_dir)), check=True, timeout=60
    )
    app_dir = run(python, "-c", "from jupyterlab.commands import get_app_dir; print(get_app_dir())", timeout=120)
    assert app_dir.returncode == 0, tail(app_dir)
    assert (Path(app_dir.stdout.strip()) / "settings" / "overrides.json").is_file()

    nbval = run(
        python,
        "-m",
        "pytest",
        "--nbval",
        NOTEBOOKS,
        "--nbval-sanitize-with",
        SANITIZE,
        "-p",
        "no:cacheprovider",
        timeout=600,
    )
    assert nbval.returncode == 0, f"strict nbval of {NOTEBOOKS} failed in the Binder environment:\n{tail(nbval, 80)}"
    assert re.search(r"\b\d+ passed\b", nbval.stdout), tail(nbval)
