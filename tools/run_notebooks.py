"""Run every lesson again and store its outputs; remake the student copies and run each one alone.

::

    python tools/run_notebooks.py                      # every lesson in notebooks/, then the student copies
    python tools/run_notebooks.py 01 05                # only the lessons whose names start so
    python tools/run_notebooks.py --check              # run everything, write nothing (exit 1 on an error)
    make notebooks                                     # the same as the first line, in make lab's venv

After a change to the boards, the widgets or the lessons, the stored outputs
(which ``make test`` compares with nbval, and which GitHub and nbviewer show)
are made again by this script, never by hand.  Each lesson runs top to
bottom in a fresh kernel from ``notebooks/`` (where its relative paths
point), as nbconvert's ``--execute`` does, with:

* no widget state stored (``store_widget_state=False``: plotly's widget
  bundle would add about 5 MB a notebook; the widgets' static SVG and text
  stay in their outputs);
* no per-cell timing metadata (``record_timing=False``), so a run changes a
  notebook only where an output changed;
* the notebook written whole or not at all (a temporary file beside it,
  renamed), and only when every cell ran (cells tagged ``raises-exception``
  may raise: they teach an error).

The student copies (``notebooks/student/``) are made from the lessons by
``tools/make_student_copies.py`` and stored without outputs; this script
remakes them and runs each one copied alone into an empty folder, as a
student who was handed that one file would.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from ttr_lab.io.safeio import atomic_write

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
TIMEOUT = 900  # seconds a cell may take (lesson 07's simulations are the longest, about 15 s)
MAX_NOTEBOOKS = 100


def _student_tool():
    spec = importlib.util.spec_from_file_location("make_student_copies", ROOT / "tools" / "make_student_copies.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def execute(path: Path, cwd: Path, *, timeout: int = TIMEOUT) -> nbformat.NotebookNode:
    """The notebook at ``path`` run top to bottom in a fresh kernel whose working folder is ``cwd``."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        store_widget_state=False,
        record_timing=False,
        resources={"metadata": {"path": str(cwd)}},
    )
    client.execute()
    return nb


def lessons(prefixes: list[str]) -> list[Path]:
    """The lessons of ``notebooks/`` (the student copies aside), those starting with one of ``prefixes`` if any."""
    found = sorted(NOTEBOOKS.glob("*.ipynb"))[:MAX_NOTEBOOKS]
    if prefixes:
        found = [p for p in found if any(p.name.startswith(x) for x in prefixes)]
        if not found:
            raise SystemExit(f"no lesson in {NOTEBOOKS} starts with {', '.join(prefixes)}")
    return found


def run_lesson(path: Path, *, write: bool) -> None:
    start = time.perf_counter()
    nb = execute(path, path.parent)
    text = nbformat.writes(nb) + "\n"
    nbformat.validate(nbformat.reads(text, as_version=4))
    changed = text != path.read_text(encoding="utf-8")
    if write and changed:
        atomic_write(path, text)
    state = ("rewritten" if write else "would change") if changed else "unchanged"
    print(f"{path.relative_to(ROOT)}: ran in {time.perf_counter() - start:.0f} s, {state}", flush=True)


def run_student_copies(*, write: bool) -> None:
    tool = _student_tool()
    if write:
        tool.write(tool.STUDENT)
    elif tool.out_of_date():
        raise SystemExit(f"the student copies are out of date: {', '.join(tool.out_of_date())}")
    for lesson in tool.LESSONS:
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="handed-out-") as folder:
            alone = Path(folder) / f"{lesson}.ipynb"
            shutil.copy(tool.STUDENT / alone.name, alone)
            execute(alone, alone.parent)
        print(f"notebooks/student/{lesson}.ipynb: ran alone in {time.perf_counter() - start:.0f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", help="only the lessons whose file names start so (01, 05-editions...)")
    parser.add_argument("--check", action="store_true", help="run everything, write nothing")
    parser.add_argument("--no-students", action="store_true", help="leave the student copies alone")
    args = parser.parse_args(argv)
    try:
        for path in lessons(args.lessons):
            run_lesson(path, write=not args.check)
        if not args.no_students:
            run_student_copies(write=not args.check)
    except CellExecutionError as e:
        print(f"a cell failed, nothing more written:\n{str(e)[-3000:]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
