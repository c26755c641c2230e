"""Build the JupyterLite site (``make lite``): the whole kit in a browser, offline.

    python3 tools/build_lite.py [--out build/lite] [--cache build/lite-cache]

What the site is made of, every piece from the package registries (PyPI, npm) and
this repository, nothing from any other host:

- JupyterLab and the Pyodide kernel: ``jupyterlite-core`` and
  ``jupyterlite-pyodide-kernel`` (lite/build-requirements.txt), installed once into
  ``<cache>/venv``;
- Python in WebAssembly: the ``pyodide`` npm package (:data:`PYODIDE`, the core
  runtime only, fetched once with ``npm pack``);
- pure-Python wheels (lite/wheels.txt, fetched once with ``pip download``) and a
  wheel of ttr_lab built from this checkout, all registered in the site's
  ``pyodide-lock.json``, so ``import ttr_lab`` in a first cell loads them (the
  kernel loads what a cell imports) with no ``%pip`` line;
- the widgets' and plotly's JupyterLab extensions, taken from the same wheels;
- the lessons: ``notebooks/*.ipynb``, their ``data/`` and the student copies,
  the site opening on notebook 01.

Downloads are kept in the cache folder, so a second build needs no network.  The
new site is built beside the old one and put in its place only when complete.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LITE = ROOT / "lite"
PYODIDE = "314.0.6"  # what jupyterlite-pyodide-kernel 0.8.6's JavaScript expects
FIRST = "01-learn-the-rules.ipynb"
# wheels whose only use is their JupyterLab extension (the browser side of the widgets and plots)
FRONT_END = {"jupyterlab-widgets", "widgetsnbextension"}
EXTENSIONS = {"jupyterlab-widgets", "anywidget", "plotly"}
# what a cell's `import ttr_lab` loads with it: Pyodide loads a package's lock "depends" with it,
# and ttr_lab imports its [lab] extra (boards, widgets) and tqdm (progress bars) only when used,
# where the kernel, which loads what a cell's own imports name, would not see them
WITH_TTR_LAB = ("plotly", "ipywidgets", "anywidget", "tqdm")
# files of the npm package the site does not need (types, maps, a demo console)
PYODIDE_SKIP = (".d.ts", ".map", ".html", "README.md")
# what pip markers see in Pyodide 314 (Python 3.14, Emscripten)
PYODIDE_MARKERS = {
    "python_version": "3.14",
    "python_full_version": "3.14.2",
    "sys_platform": "emscripten",
    "platform_system": "Emscripten",
    "platform_machine": "wasm32",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "extra": "",
}
# files of a wheel Python never reads in the browser: plotly's JupyterLab extension, twice in
# its wheel (the site's front end takes it from the unslimmed wheel)
SLIM = {"plotly": ("plotly/labextension/", "plotly-7.1.0.data/")}
# lessons that need pandas (tables of results), which cannot be had for Pyodide 314 from the
# registries: PyPI holds pandas for Pyodide only as cp312 wheels (pyemscripten_2024_0) and no numpy
# at all; the npm package is the core alone.  The site opens them with a note saying so.
NEEDS_PANDAS = ("06-ask-the-advisor.ipynb", "07-simulate.ipynb")
PANDAS_NOTE = (
    "**In the browser version of the kit this lesson cannot run:** it needs pandas, which is not "
    "available for the browser's Python (Pyodide) here.  Read it here, and run it in JupyterLab on a "
    "computer with the kit installed (`make lab`)."
)
LESSON_SKIP = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__", "*.pyc", "nbval-sanitize.cfg")


def say(*words: object) -> None:
    print("[lite]", *words, flush=True)


def run(*cmd: object, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    args = [str(c) for c in cmd]
    say("$", " ".join(args))
    done = subprocess.run(args, cwd=cwd, env=None if env is None else {**os.environ, **env})
    if done.returncode:
        sys.exit(f"[lite] failed ({done.returncode}): {' '.join(args)}")


def digest(*paths: Path) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.read_bytes())
    return h.hexdigest()


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# ----------------------------------------------------------------------------- the tools


def venv_python(cache: Path) -> Path:
    return cache / "venv" / "bin" / "python"


def ensure_venv(cache: Path) -> Path:
    """The build tools in their own virtual environment, installed once per requirements file."""
    requirements = LITE / "build-requirements.txt"
    stamp = cache / "venv" / ".installed"
    want = digest(requirements)
    if stamp.is_file() and stamp.read_text() == want and venv_python(cache).is_file():
        return venv_python(cache)
    say("installing the build tools into", cache / "venv")
    venv.EnvBuilder(with_pip=True, clear=True).create(cache / "venv")
    run(venv_python(cache), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", requirements)
    stamp.write_text(want)
    return venv_python(cache)


def ensure_pyodide(cache: Path) -> Path:
    """The npm package ``pyodide`` (pinned), unpacked once into ``<cache>/pyodide-<version>``."""
    folder = cache / f"pyodide-{PYODIDE}"
    if (folder / "pyodide-lock.json").is_file():
        return folder
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("[lite] npm is needed once, to fetch the pyodide package (apt-get install npm)")
    packs = cache / "npm"
    packs.mkdir(parents=True, exist_ok=True)
    tgz = packs / f"pyodide-{PYODIDE}.tgz"
    if not tgz.is_file():
        run(npm, "pack", f"pyodide@{PYODIDE}", "--pack-destination", packs, "--silent")
    tmp = Path(tempfile.mkdtemp(dir=cache, prefix=".pyodide-"))
    with tarfile.open(tgz) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(tmp, filter="data")
        else:  # pragma: no cover - Python < 3.11.4
            tar.extractall(tmp)
    os.replace(tmp / "package", folder)
    shutil.rmtree(tmp)
    return folder


def pinned() -> list[tuple[str, str]]:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins = []
    for line in (LITE / "wheels.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            req = Requirement(line)
            (spec,) = req.specifier
            pins.append((canonicalize_name(req.name), spec.version))
    return pins


def ensure_wheels(cache: Path) -> dict[str, Path]:
    """Every pinned wheel, by its normalised name, downloaded once into ``<cache>/wheels``."""
    from packaging.utils import parse_wheel_filename

    folder = cache / "wheels"
    folder.mkdir(parents=True, exist_ok=True)

    def present() -> dict[str, Path]:
        found = {}
        for whl in folder.glob("*.whl"):
            name, version, _, _ = parse_wheel_filename(whl.name)
            found[(name, str(version))] = whl
        return {name: found[name, version] for name, version in pins if (name, version) in found}

    pins = pinned()
    have = present()
    if len(have) < len(pins):
        run(
            sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
            "--only-binary=:all:", "--platform", "any", "--python-version", "3.14", "--implementation", "py",
            "-d", folder, "-r", LITE / "wheels.txt",
        )  # fmt: skip
        have = present()
    missing = [name for name, _ in pins if name not in have]
    if missing:
        sys.exit(f"[lite] no wheel for {missing} in {folder}")
    return have


def build_ttr_lab_wheel(into: Path) -> Path:
    """A pure-Python wheel of this checkout (no compiled playout kernel: ttr_lab plays its
    playouts in Python), built from a copy, so nothing is written into the tree."""
    with tempfile.TemporaryDirectory(prefix="ttr-lab-src-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):
            shutil.copy2(ROOT / name, src / name)
        for name in ("ttr_lab", "maps", "docs"):
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        run(
            sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
            "--no-build-isolation", "--no-index", "-w", into, src, env={"TTR_LAB_BUILD_KERNEL": "0"},
        )  # fmt: skip
    (wheel,) = into.glob("ttr_lab-*.whl")
    if not wheel.name.endswith("-py3-none-any.whl"):
        sys.exit(f"[lite] {wheel.name} is not a pure-Python wheel; Pyodide cannot load it")
    return wheel


def slim_wheel(whl: Path, drop: tuple[str, ...], into: Path) -> Path:
    """A copy of a wheel without the files under ``drop`` (its RECORD kept in step)."""
    into.mkdir(parents=True, exist_ok=True)
    out = into / whl.name
    stamp = into / f"{whl.name}.from"
    source = sha256_file(whl)
    if out.is_file() and stamp.is_file() and stamp.read_text() == source:
        return out
    tmp = into / f".{whl.name}.tmp"
    with zipfile.ZipFile(whl) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename.startswith(drop):
                continue
            data = src.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                lines = data.decode("utf-8").splitlines(keepends=True)
                data = "".join(line for line in lines if not line.startswith(drop)).encode("utf-8")
            dst.writestr(info, data)
    os.replace(tmp, out)
    stamp.write_text(source)
    return out


# ----------------------------------------------------------------------------- the lock


def wheel_entry(whl: Path, shipped: set[str]) -> dict[str, object]:
    """A pyodide-lock.json entry for a pure-Python wheel: what it imports, what it needs."""
    from email.parser import Parser

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name, parse_wheel_filename

    name, version, _, _ = parse_wheel_filename(whl.name)
    with zipfile.ZipFile(whl) as z:
        names = z.namelist()
        (meta_name,) = [n for n in names if n.count("/") == 1 and n.endswith(".dist-info/METADATA")]
        meta = Parser().parsestr(z.read(meta_name).decode("utf-8"))
    depends = list(WITH_TTR_LAB) if name == "ttr-lab" else []
    for line in meta.get_all("Requires-Dist") or []:
        req = Requirement(line)
        if req.marker is not None and not req.marker.evaluate(PYODIDE_MARKERS):
            continue
        dep = canonicalize_name(req.name)
        if dep in shipped:
            depends.append(dep)
        elif dep not in FRONT_END:
            sys.exit(f"[lite] {name} needs {dep}, which lite/wheels.txt does not ship")
    imports = set()
    for n in names:
        top = n.split("/")[0]
        if top.endswith((".dist-info", ".data")) or top.endswith(".pth"):
            continue
        if "/" in n and n.endswith(".py"):
            imports.add(top)
        elif "/" not in n and n.endswith(".py"):
            imports.add(top[:-3])
    return {
        "name": meta["Name"],
        "version": str(version),
        "file_name": whl.name,
        "install_dir": "site",
        "sha256": sha256_file(whl),
        "package_type": "package",
        "imports": sorted(imports),
        "depends": sorted(set(depends)),
        "unvendored_tests": False,
        "shared_library": False,
    }


def write_lock(pyodide: Path, wheels: list[Path], dest: Path) -> None:
    """The npm package's lock, holding only the wheels the site ships.

    Pyodide's own lock names 357 packages whose files are not in the npm package;
    an entry left in would send an ``import numpy`` looking for a file the site
    does not have, so only the site's wheels stay (an import of anything else is
    a plain ``ModuleNotFoundError``).
    """
    from packaging.utils import canonicalize_name, parse_wheel_filename

    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    by_name = {canonicalize_name(str(parse_wheel_filename(w.name)[0])): w for w in wheels}
    lock["packages"] = {name: wheel_entry(whl, set(by_name)) for name, whl in sorted(by_name.items())}
    dest.write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n", encoding="utf-8")


# ----------------------------------------------------------------------------- the site


def stage_site(stage: Path, cache: Path, pyodide: Path, wheels: dict[str, Path], ttr_wheel: Path) -> None:
    """The lite folder ``jupyter lite build`` reads: config, settings, Pyodide, lessons."""
    static = stage / "static" / "pyodide"
    static.mkdir(parents=True)
    for f in pyodide.iterdir():
        if f.is_file() and not f.name.endswith(PYODIDE_SKIP):
            shutil.copy2(f, static / f.name)
    python_wheels = [ttr_wheel]
    for name, w in wheels.items():
        if name in SLIM:
            w = slim_wheel(w, SLIM[name], cache / "slim")
        if name not in FRONT_END:
            python_wheels.append(w)
    for w in python_wheels:
        shutil.copy2(w, static / w.name)
    write_lock(pyodide, python_wheels, static / "pyodide-lock.json")

    config = json.loads((LITE / "jupyter_lite_config.json").read_text(encoding="utf-8"))
    build = config.setdefault("LiteBuildConfig", {})
    build["federated_extensions"] = [str(wheels[name]) for name in sorted(EXTENSIONS)]
    build["contents"] = [str(stage / "contents")]
    (stage / "jupyter_lite_config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    for name in ("jupyter-lite.json", "overrides.json"):
        shutil.copy2(LITE / name, stage / name)

    contents = stage / "contents"
    shutil.copytree(ROOT / "notebooks", contents, ignore=LESSON_SKIP)
    for nb in contents.rglob("*.ipynb"):
        clear_outputs(nb, PANDAS_NOTE if nb.name in NEEDS_PANDAS else None)


def clear_outputs(nb: Path, note: str | None = None) -> None:
    """A lesson as a student first sees it: no stored outputs (they are made by running it;
    stored widget outputs would only say their model is not found), a third of the size;
    ``note``, if given, as a cell after the title."""
    data = json.loads(nb.read_text(encoding="utf-8"))
    for cell in data["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    if note is not None:
        cell = {"cell_type": "markdown", "metadata": {}, "source": [note]}
        if data.get("nbformat", 4) == 4 and data.get("nbformat_minor", 0) >= 5:
            cell["id"] = "ttr-lite-note"
        data["cells"].insert(1, cell)
    nb.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def opening_page(out: Path) -> None:
    """The site's front door opens notebook 01 in JupyterLab.

    The root index.html stays JupyterLite's (every page reads its configuration
    from it); only its script, which would open an empty JupyterLab, now opens
    the first lesson.
    """
    index = out / "index.html"
    html = index.read_text(encoding="utf-8")
    start = "await import('./config-utils.js');"
    if html.count(start) != 1:
        sys.exit(f"[lite] {index}: JupyterLite's start script not found; the site would not open on {FIRST}")
    index.write_text(
        html.replace(start, f"window.location.replace('./lab/index.html?path={FIRST}');"), encoding="utf-8"
    )


def build(out: Path, cache: Path) -> None:
    pyodide = ensure_pyodide(cache)
    wheels = ensure_wheels(cache)
    work = Path(tempfile.mkdtemp(dir=cache, prefix=".build-"))
    try:
        ttr_wheel = build_ttr_lab_wheel(work / "dist")
        stage = work / "lite"
        stage_site(stage, cache, pyodide, wheels, ttr_wheel)
        new = out.parent / f".{out.name}.new"
        shutil.rmtree(new, ignore_errors=True)
        jupyter = Path(sys.executable).parent / "jupyter"
        run(jupyter, "lite", "build", "--lite-dir", stage, "--output-dir", new, cwd=stage)
        opening_page(new)
        old = out.parent / f".{out.name}.old"
        shutil.rmtree(old, ignore_errors=True)
        if out.exists():
            os.replace(out, old)
        os.replace(new, out)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    say(f"the site: {out} ({size / 1e6:.1f} MB); make lite-serve shows it")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "lite", help="the site's folder")
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "lite-cache", help="downloads kept here")
    args = parser.parse_args(argv)
    out, cache = args.out.resolve(), args.cache.resolve()
    cache.mkdir(parents=True, exist_ok=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    python = ensure_venv(cache)
    if Path(sys.prefix).resolve() != (cache / "venv").resolve():
        # the rest runs with the build tools' Python (packaging, pip wheel, jupyter lite)
        os.execv(python, [str(python), __file__, "--out", str(out), "--cache", str(cache)])
    build(out, cache)


if __name__ == "__main__":
    main()
