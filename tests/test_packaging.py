"""Packaging: the wheel carries the maps, and ``ttr_lab.maps`` stays light.

The slow tests build a wheel from a copy of the project, install it into a
fresh virtual environment (no ``--system-site-packages``, not editable) and
load every shipped map from a directory outside the project.  They skip with
a reason when the wheel cannot be built (for example when pip cannot reach
PyPI to fetch the build backend).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAPS = ("europe", "rails_and_sails_great_lakes", "rails_and_sails_world", "usa")
HEAVY = ("plotly", "ipywidgets", "IPython", "anywidget", "jupyterlab")
# Words in pip's output that mean "no network / no index", not a broken project.
OFFLINE_HINTS = (
    "Could not find a version that satisfies",
    "No matching distribution found",
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "NewConnectionError",
    "ProxyError",
    "ConnectTimeout",
    "ReadTimeout",
    "SSLError",
)


def clean_env() -> dict[str, str]:
    """The environment minus anything that would leak this project into a subprocess."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_", "VIRTUAL_ENV"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PYTHONNOUSERSITE"] = "1"
    return env


def run(cmd: list, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(c) for c in cmd], cwd=cwd, env=clean_env(), capture_output=True, text=True, timeout=timeout
    )


def offline(proc: subprocess.CompletedProcess) -> bool:
    out = proc.stdout + proc.stderr
    return any(hint in out for hint in OFFLINE_HINTS)


def tail(proc: subprocess.CompletedProcess, n: int = 25) -> str:
    return "\n".join((proc.stdout + proc.stderr).splitlines()[-n:])


#: a subpackage the tests add to their copy of the tree, as a new edition would be added: the
#: wheel must carry it with no edit of the packaging (a hand-written package list left one out)
NEW_PACKAGE = "ttr_lab/editions/packaging_probe"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Build the wheel from a copy of the tree, so the shared tree gets no build/ or egg-info writes.

    The copy (``<wheel's folder>/../src``) gets one new subpackage, :data:`NEW_PACKAGE`."""
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    shutil.copytree(
        ROOT,
        src,
        ignore=shutil.ignore_patterns(
            ".git",
            "build",
            "dist",
            "*.egg-info",
            "__pycache__",
            ".venv",
            ".pytest_cache",
            ".hypothesis",
            "test-artifacts",
            ".ipynb_checkpoints",
        ),
    )
    (src / NEW_PACKAGE).mkdir()
    (src / NEW_PACKAGE / "__init__.py").write_text('"""A new package, added after the package list was written."""\n')
    (src / NEW_PACKAGE / "rules.py").write_text("RULE = 1\n")
    out = base / "dist"
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-cache-dir", "-w", out, "."]
    proc = run(cmd, cwd=src)
    if proc.returncode != 0 and offline(proc):
        # No index to fetch the build backend from: try the backend already installed here.
        proc = run([*cmd, "--no-build-isolation"], cwd=src)
        if proc.returncode != 0:
            pytest.skip(f"pip wheel cannot run here (offline?):\n{tail(proc)}")
    if proc.returncode != 0 and "No module named pip" in proc.stderr:
        pytest.skip("pip is not available in this interpreter")
    assert proc.returncode == 0, f"pip wheel failed:\n{tail(proc, 60)}"
    wheels = list(out.glob("ttr_lab-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv (no system site-packages) with the wheel and its dependencies; returns its python."""
    env_dir = tmp_path_factory.mktemp("venv") / "env"
    venv.EnvBuilder(with_pip=True, system_site_packages=False, clear=True).create(env_dir)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    work = tmp_path_factory.mktemp("outside")
    # Not editable, and pip resolves the declared dependencies (networkx) from PyPI.
    proc = run([python, "-m", "pip", "install", "--no-cache-dir", wheel], cwd=work)
    if proc.returncode != 0 and offline(proc):
        pytest.skip(f"cannot install the wheel's dependencies (PyPI unreachable?):\n{tail(proc)}")
    assert proc.returncode == 0, f"pip install of the wheel failed:\n{tail(proc, 60)}"
    return python


@pytest.mark.slow
def test_wheel_contains_the_maps(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for m in MAPS:
        assert f"ttr_lab/maps/files/{m}.json" in names
    assert "ttr_lab/maps/files/__init__.py" in names and "ttr_lab/maps/__init__.py" in names
    assert "ttr_lab/maps/loading.py" in names and "ttr_lab/errors.py" in names
    # the top-level maps/ folder is packaged as ttr_lab.maps.files, not as a package named "maps"
    assert not any(n.startswith("maps/") for n in names)
    assert not any(n.startswith("tests/") for n in names)


def tree_files(src: Path) -> set[str]:
    """The files the wheel must hold, by their path in it: every module of every package under
    ``ttr_lab/``, its package data, and the maps and docs mapped into ``ttr_lab.maps.files`` and ``ttr_lab.docs``."""
    out = set()
    for path in (src / "ttr_lab").rglob("*"):
        rel = path.relative_to(src)
        if path.is_file() and "__pycache__" not in rel.parts and path.suffix in (".py", ".json", ".typed", ".c", ".h"):
            out.add(rel.as_posix())
    out |= {f"ttr_lab/maps/files/{p.name}" for p in (src / "maps").iterdir() if p.suffix in (".py", ".json")}
    out |= {f"ttr_lab/docs/{p.name}" for p in (src / "docs").glob("*.md")}
    return out


@pytest.mark.slow
def test_wheel_holds_every_package_of_the_tree(wheel):
    src = wheel.parents[1] / "src"
    names = set(zipfile.ZipFile(wheel).namelist())
    want = tree_files(src)
    packages = {p.parent.relative_to(src).as_posix() for p in (src / "ttr_lab").rglob("*.py")}
    assert NEW_PACKAGE in packages and len(packages) >= 12
    assert all(f"{p}/__init__.py" in want for p in packages), "a folder of modules without __init__.py"
    assert sorted(want - names) == [], "files of the tree missing from the wheel"
    assert f"{NEW_PACKAGE}/rules.py" in names and "ttr_lab/py.typed" in names
    kernel = "ttr_lab/bots/kernel/_playout."  # the compiled playout kernel, built where a C compiler is found
    assert {n for n in names if n.startswith("ttr_lab/") and not n.endswith(".md") and not n.startswith(kernel)} <= want


#: what the installed wheel imports: every module of the package, each in turn (those that need
#: an extra this bare environment lacks may say so, nothing else)
IMPORT_ALL = """
import importlib, pkgutil, sys
import ttr_lab
from ttr_lab.io.extras import MissingExtraError
EXTRAS = {"plotly", "ipywidgets", "anywidget", "traitlets", "IPython", "pandas", "tqdm", "dask", "distributed",
          "voila", "jupyterlab", "nbformat"}
ok, extra, broken = [], [], []
for info in pkgutil.walk_packages(ttr_lab.__path__, "ttr_lab."):
    if info.name.endswith(".__main__"):  # python -m ttr_lab: runs the command line
        continue
    try:
        importlib.import_module(info.name)
    except MissingExtraError:
        extra.append(info.name)
    except ImportError as e:
        if (e.name or "").split(".")[0] in EXTRAS:
            extra.append(info.name)
        else:
            broken.append(f"{info.name}: {e!r}")
    except Exception as e:
        broken.append(f"{info.name}: {e!r}")
    else:
        ok.append(info.name)
print(" ".join(ok))
print(" ".join(extra))
print("\\n".join(broken))
"""


@pytest.mark.slow
def test_installed_wheel_imports_every_module(installed, tmp_path):
    proc = run([installed, "-c", IMPORT_ALL], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    ok, extra, broken = proc.stdout.split("\n", 2)
    assert broken.strip() == ""
    ok, extra = ok.split(), extra.split()
    # the core, the editions (the new one too), the analysis, records, the command line
    assert len(ok) > 100 and {
        "ttr_lab.editions.packaging_probe.rules",
        "ttr_lab.analysis.advisor",
        "ttr_lab.cli",
    } <= set(ok)
    assert all(m.split(".")[1] in ("widgets", "simulate") or m.startswith("ttr_lab.board") for m in extra), extra


@pytest.mark.slow
def test_installed_wheel_loads_every_map_outside_the_project(installed, tmp_path):
    python = installed
    code = (
        "import ttr_lab, ttr_lab.maps as d\n"
        "from ttr_lab.maps import load_map, available_maps\n"
        "maps = [load_map(m) for m in available_maps()]\n"
        "print(ttr_lab.__file__)\n"
        "print(','.join(available_maps()))\n"
        "print(','.join(f'{m.id}:{len(m.cities)}:{len(m.routes)}:{len(m.tickets)}' for m in maps))\n"
    )
    proc = run([python, "-c", code], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    location, names, sizes = proc.stdout.split("\n")[:3]
    location = Path(location).resolve()
    assert ROOT not in location.parents, f"imported the source tree, not the wheel: {location}"
    assert python.parent.parent.resolve() in location.parents
    assert names.split(",") == list(MAPS)
    assert sizes.split(",") == [
        "europe:47:101:46",
        "rails_and_sails_great_lakes:37:110:55",
        "rails_and_sails_world:48:130:65",
        "usa:36:100:169",
    ]


@pytest.mark.slow
def test_installed_wheel_pulls_networkx(installed, tmp_path):
    python = installed
    proc = run([python, "-c", "import networkx; print(networkx.__version__)"], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout.split(".")[0]) >= 3


@pytest.mark.slow
def test_installed_data_module_is_light(installed, tmp_path):
    python = installed
    code = "import sys, ttr_lab.maps; print(sorted(m for m in sys.modules if m.split('.')[0] in %r))" % (HEAVY,)
    proc = run([python, "-c", code], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_importing_data_does_not_import_notebook_libraries(tmp_path):
    """In the development venv, where plotly and ipywidgets *are* installed."""
    code = (
        "import sys\n"
        "import ttr_lab.maps\n"
        "from ttr_lab.maps import load_map, available_maps\n"
        "[load_map(m) for m in available_maps()]\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(%r)))\n" % (HEAVY,)
    )
    env = clean_env()
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]", f"ttr_lab.maps pulled in notebook libraries: {proc.stdout}"
