"""Make the student copies of the lessons in ``notebooks/student/``.

::

    python tools/make_student_copies.py            # (re)write notebooks/student/
    python tools/make_student_copies.py --check    # exit 1, naming the files out of date
    python tools/make_student_copies.py --out DIR  # write the copies into DIR instead

The teacher copies (``notebooks/NN-*.ipynb``) keep their solutions, collapsed.
They mark them with cell tags (see ``docs/teachers/README.md``):

``solution-hint``
    the "Solution / Show the solution" heading of an exercise.  It becomes a
    "Your answer" heading followed by an empty answer cell, ``# your answer here``.
``solution``
    a solution cell, code or markdown: removed.  A run of solution code cells
    with no hint before it is replaced by one answer cell.
``check``
    a hidden ``assert`` that keeps the teacher copy's prose true when it is
    re-run: removed (students do not need it).

Every other cell is kept as it is, with its outputs and execution counts
cleared, its run and display metadata dropped (``execution``, ``jupyter``,
``collapsed``, ``scrolled``) and only the tags that nbval and nbclient read
(``raises-exception``, ``nbval-ignore-output``...).  A note at the top says
that the notebook is a student copy.

Each copy must run when it is the only file handed out (copied alone into an
empty folder): its code may not read a file beside it.  A lesson that does
(a quoted path such as ``"data/..."`` or ``"../..."`` in a code cell) is
refused with the cell named; a lesson reads its saved game from the package
instead (``ttr_lab.records.samples.load("sample-game")``).

The output depends only on the teacher copies: running the script twice
writes the same bytes (the tests regenerate the copies and compare).  The
folder also gets a ``README.md``.

nbval: ``pytest --nbval notebooks`` (``make test``) runs the student copies
too.  nbval compares the outputs of a cell only when the cell has been run
(it has an execution count), and no cell of a student copy has, so their
cells are run and must not fail, exactly as ``pytest --nbval-lax
notebooks/student`` runs them.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

from ttr_lab.io.safeio import atomic_write

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
STUDENT = NOTEBOOKS / "student"
LESSONS = ("01-learn-the-rules", "03-graph-theory", "04-analyse-a-saved-game", "09-probability")

ANSWER = "# your answer here"
DROP = {"solution", "check"}  # cells with these tags are left out
DISPLAY_TAGS = {"solution", "solution-hint", "check", "remove-input", "hide-input", "remove-cell", "hide-cell"}
#: a quoted relative path to a file beside the notebook: what a single handed-out file cannot read
LOCAL_PATH = re.compile(r"""(["'])(?:\.{1,2}/|data/)""")

NOTE = """\
> **Student copy.**  Each exercise ends with an empty answer cell
> (`# your answer here`): write and run your answer there.  Your teacher has
> the solutions.  This notebook runs on its own, wherever it is saved: it
> needs `ttr_lab` and no other file.  (It is made from the teacher's copy,
> `notebooks/{name}`, by `tools/make_student_copies.py`:
> edit that one.)"""

YOUR_ANSWER = "#### Your answer\n\nWrite your answer in the cell below and run it (Shift+Enter)."

README = """\
# Student copies of the lessons

These notebooks are the lessons of `notebooks/` without their solutions:
every exercise ends with an empty answer cell, and no cell stores an output.
Open one and choose *Run > Run All Cells*: it runs from top to bottom and
prints no answer.  Each one runs on its own, so a single file can be handed
out: it needs `ttr_lab` installed (`make lab` in the repository) and no other
file (its saved game ships with `ttr_lab`).

| student copy | lesson | with its solutions |
|---|---|---|
{rows}

**Do not edit these files.**  They are made from the teacher copies by

```bash
python tools/make_student_copies.py           # rewrite this folder
python tools/make_student_copies.py --check   # is it up to date?
```

and `tests/test_student_copies.py` fails when they are out of date.  The
teacher notes are in `docs/teachers/`.

nbval runs them with the teacher copies (`pytest --nbval notebooks`, part
of `make test`): it compares the outputs of the cells that were run, and no
cell here was, so every cell is run and must not fail, as
`pytest --nbval-lax notebooks/student` would run them.
"""


def _tags(cell: nbformat.NotebookNode) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


class LocalFileError(ValueError):
    """A student lesson's code reads a file beside the notebook: a copy handed out alone would fail."""


def _clean(cell: nbformat.NotebookNode, name: str = "") -> nbformat.NotebookNode:
    """A copy of the cell without outputs, run metadata or display tags."""
    tags = [t for t in _tags(cell) if t not in DISPLAY_TAGS]
    metadata = {"tags": tags} if tags else {}
    source = cell.source
    found = LOCAL_PATH.search(source) if cell.cell_type == "code" else None
    if found:
        line = next(t for t in source.splitlines() if found.group(0) in t)
        raise LocalFileError(
            f"{name or 'a lesson'}, cell {cell.get('id', '?')}: {line.strip()[:80]!r} reads a file beside the "
            "notebook, so its student copy would fail when handed out alone; read shipped data instead "
            '(ttr_lab.records.samples.load("sample-game"))'
        )
    if cell.cell_type == "code":
        new = nbformat.v4.new_code_cell(source, metadata=metadata)
    elif cell.cell_type == "markdown":
        new = nbformat.v4.new_markdown_cell(source, metadata=metadata)
    else:
        new = nbformat.v4.new_raw_cell(source, metadata=metadata)
    new.id = cell.id
    return new


def _answer(cell_id: str) -> nbformat.NotebookNode:
    new = nbformat.v4.new_code_cell(ANSWER)
    new.id = f"{cell_id}-answer"[:64]
    return new


def student_copy(teacher: nbformat.NotebookNode, name: str) -> nbformat.NotebookNode:
    """The student copy of a teacher notebook (``name`` is its file name)."""
    note = nbformat.v4.new_markdown_cell(NOTE.format(name=name))
    note.id = "student-copy-note"
    cells = [note]
    in_solution = False  # inside an exercise's solution block, which has its answer cell already
    for cell in teacher.cells:
        tags = _tags(cell)
        if "solution-hint" in tags:
            heading = nbformat.v4.new_markdown_cell(YOUR_ANSWER)
            heading.id = cell.id
            cells += [heading, _answer(cell.id)]
            in_solution = True
        elif "solution" in tags:
            if cell.cell_type == "code" and not in_solution:
                cells.append(_answer(cell.id))
                in_solution = True
        elif "check" in tags:
            continue  # a hidden check neither starts nor ends a solution block
        else:
            cells.append(_clean(cell, name))
            in_solution = False
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata = {k: teacher.metadata[k] for k in ("kernelspec", "language_info") if k in teacher.metadata}
    nb.nbformat, nb.nbformat_minor = 4, max(5, teacher.get("nbformat_minor", 5))
    return nb


def _text(nb: nbformat.NotebookNode) -> str:
    nbformat.validate(nb)
    return nbformat.writes(nb) + "\n"


def expected_files(notebooks: Path = NOTEBOOKS) -> dict[str, str]:
    """Every file of the student folder, by name, with its text."""
    files = {}
    rows = []
    for lesson in LESSONS:
        name = f"{lesson}.ipynb"
        teacher = nbformat.read(notebooks / name, as_version=4)
        files[name] = _text(student_copy(teacher, name))
        title = next(
            (c.source.splitlines()[0].lstrip("# ") for c in teacher.cells if c.cell_type == "markdown"), lesson
        )
        rows.append(f"| [`{name}`]({name}) | {title} | `notebooks/{name}` |")
    files["README.md"] = README.format(rows="\n".join(rows))
    return files


IGNORED = {"__pycache__", ".ipynb_checkpoints", ".pytest_cache"}


def write(out: Path, notebooks: Path = NOTEBOOKS) -> list[Path]:
    """Write the student folder into ``out`` (removing files it no longer has); return the files written."""
    files = expected_files(notebooks)  # every copy is made before any file is replaced
    out.mkdir(parents=True, exist_ok=True)
    for old in out.iterdir():
        if old.is_file() and old.name not in files:
            old.unlink()
    written = []
    for name, text in files.items():
        path = out / name
        atomic_write(path, text)  # UTF-8, "\n" newlines; an existing copy is replaced only by a whole one
        written.append(path)
    return written


def out_of_date(folder: Path = STUDENT, notebooks: Path = NOTEBOOKS) -> list[str]:
    """Names of the files of ``folder`` that differ from a fresh run (missing, changed or extra)."""
    want = expected_files(notebooks)
    stale = []
    for name, text in want.items():
        path = folder / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(name)
    if folder.is_dir():
        stale += sorted(p.name for p in folder.iterdir() if p.name not in want and p.name not in IGNORED)
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that notebooks/student/ is up to date")
    parser.add_argument("--out", type=Path, default=STUDENT, help="the folder to write (default notebooks/student)")
    args = parser.parse_args(argv)
    if args.check:
        stale = out_of_date(args.out)
        if stale:
            print(f"out of date in {args.out}: {', '.join(stale)}; run python tools/make_student_copies.py")
            return 1
        print(f"{args.out} is up to date")
        return 0
    for path in write(args.out):
        print("wrote", path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
