"""The student copies of the lessons (``notebooks/student/``, made by
``tools/make_student_copies.py``) are up to date, hold no outputs and no
solutions, and print no answer when they are run from top to bottom, each
one copied alone into an empty folder (a single file handed out: it reads its
saved game from the package, not from a file beside it).

The teacher copies keep their solutions, collapsed under a "Show the solution"
hint.  Running a student copy is checked against the teacher copy: no line
that a solution cell of the teacher copy prints (and no other cell of the
lesson prints) may appear in the output of the student copy.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
STUDENT = NOTEBOOKS / "student"


def _tool():
    spec = importlib.util.spec_from_file_location("make_student_copies", ROOT / "tools" / "make_student_copies.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _tool()
LESSONS = TOOL.LESSONS


def teacher(lesson: str):
    return nbformat.read(NOTEBOOKS / f"{lesson}.ipynb", as_version=4)


def student(lesson: str):
    return nbformat.read(STUDENT / f"{lesson}.ipynb", as_version=4)


def tags(cell) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def output_lines(outputs) -> list[str]:
    """The text lines a cell's outputs show (streams, plain-text results, errors)."""
    lines = []
    for out in outputs:
        if out.get("output_type") == "stream":
            text = out.get("text", "")
        elif out.get("output_type") in ("execute_result", "display_data"):
            text = out.get("data", {}).get("text/plain", "")
        elif out.get("output_type") == "error":
            text = f"{out.get('ename')}: {out.get('evalue')}"
        else:
            text = ""
        text = "".join(text) if isinstance(text, list) else text
        lines += [line.strip() for line in text.splitlines()]
    return [line for line in lines if line]


def answer_lines(nb) -> set[str]:
    """Lines only the solution cells of a teacher copy print: the answers."""
    solution, lesson = set(), set()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        (solution if "solution" in tags(cell) else lesson).update(output_lines(cell.get("outputs", [])))
    # a line the lesson prints anyway gives nothing away; very short lines ("...", "None") are not answers
    return {line for line in solution - lesson if len(line) >= 8 and re.search(r"[A-Za-z0-9]", line)}


# ---------------------------------------------------------------- the copies are made by the tool


def test_student_copies_are_in_sync_with_the_teacher_copies(tmp_path):
    written = TOOL.write(tmp_path / "student")
    names = sorted(p.name for p in written)
    assert names == sorted([f"{lesson}.ipynb" for lesson in LESSONS] + ["README.md"])
    for path in written:
        ours = STUDENT / path.name
        assert ours.is_file(), f"{ours} is missing: run python tools/make_student_copies.py"
        assert ours.read_bytes() == path.read_bytes(), (
            f"{ours.relative_to(ROOT)} is out of date: run python tools/make_student_copies.py"
        )
    extra = sorted(p.name for p in STUDENT.iterdir() if p.name not in names and p.name not in TOOL.IGNORED)
    assert not extra, f"files in notebooks/student/ the tool does not make: {extra}"
    assert TOOL.out_of_date() == []
    assert TOOL.main(["--check"]) == 0


def test_the_check_mode_names_a_stale_copy(tmp_path, capsys):
    folder = tmp_path / "student"
    TOOL.write(folder)
    stale = folder / f"{LESSONS[0]}.ipynb"
    stale.write_text(stale.read_text(encoding="utf-8").replace("your answer here", "42"), encoding="utf-8")
    (folder / "old-lesson.ipynb").write_text("{}", encoding="utf-8")
    assert TOOL.out_of_date(folder) == [stale.name, "old-lesson.ipynb"]
    assert TOOL.main(["--check", "--out", str(folder)]) == 1
    assert stale.name in capsys.readouterr().out


def test_making_the_copies_twice_gives_the_same_bytes(tmp_path):
    first = {p.name: p.read_bytes() for p in TOOL.write(tmp_path / "a")}
    second = {p.name: p.read_bytes() for p in TOOL.write(tmp_path / "b")}
    assert first == second


# ---------------------------------------------------------------- what a student copy holds


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_student_copy_has_no_outputs_and_no_solutions(lesson):
    nb, source = student(lesson), teacher(lesson)
    nbformat.validate(nb)
    for cell in nb.cells:
        assert not tags(cell) & {"solution", "solution-hint", "check"}, cell.source[:80]
        assert "jupyter" not in cell.metadata and "execution" not in cell.metadata
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:80]
    hints = sum("solution-hint" in tags(c) for c in source.cells)
    answers = [c for c in nb.cells if c.cell_type == "code" and c.source == TOOL.ANSWER]
    assert hints >= 3 and len(answers) == hints, "one empty answer cell per exercise"
    text = "\n".join(c.source for c in nb.cells)
    for cell in source.cells:
        if "solution" in tags(cell) or "check" in tags(cell):
            body = cell.source.strip()
            assert body not in text, f"a solution of {lesson} is in the student copy: {body[:80]}"
    assert "Student copy" in nb.cells[0].source
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert not TOOL.LOCAL_PATH.search(code), "a student copy reads a file beside it"


def test_a_lesson_that_reads_a_file_beside_it_gets_no_student_copy(tmp_path):
    """The tool refuses a lesson whose code reads a local file, naming the cell: its copy would fail alone."""
    lesson = LESSONS[0]
    nb = teacher(lesson)
    cell = next(c for c in nb.cells if c.cell_type == "code")
    cell.source += '\nrecord = Record.load("../data/sample-game.json")'
    folder = tmp_path / "notebooks"
    folder.mkdir()
    nbformat.write(nb, folder / f"{lesson}.ipynb")
    for other in LESSONS[1:]:
        shutil.copy(NOTEBOOKS / f"{other}.ipynb", folder / f"{other}.ipynb")
    with pytest.raises(TOOL.LocalFileError, match=rf"{lesson}.ipynb, cell {cell.id}: .*\.\./data/sample-game\.json"):
        TOOL.expected_files(folder)


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_teacher_copy_hides_its_solutions_until_asked(lesson):
    nb = teacher(lesson)
    exercises = [i for i, c in enumerate(nb.cells) if c.cell_type == "markdown" and "### Exercise" in c.source]
    assert exercises
    for i in exercises:
        after = nb.cells[i + 1]
        assert "solution-hint" in tags(after) and "Show the solution" in after.source, nb.cells[i].source[:60]
        assert any("solution" in tags(c) and c.cell_type == "code" for c in nb.cells[i + 2 : i + 5])
    for cell in nb.cells:
        if "solution" in tags(cell) or "check" in tags(cell):
            shown = cell.metadata.get("jupyter", {})
            assert shown.get("source_hidden") is True, cell.source[:80]
            if cell.cell_type == "code":
                assert shown.get("outputs_hidden") is True, cell.source[:80]
        if cell.cell_type == "code":
            assert cell.execution_count is not None, "teacher copies are stored with their outputs"
    assert answer_lines(nb), f"{lesson}: the solutions print nothing the test could look for"


# ---------------------------------------------------------------- Run All prints no answer


@pytest.mark.slow  # runs every student copy, about a minute in all (make test runs it)
@pytest.mark.parametrize("lesson", LESSONS)
def test_run_all_in_a_student_copy_prints_no_answer(lesson, tmp_path):
    """Run All in a student copy handed out alone: the file copied into an empty folder, run there."""
    nbclient = pytest.importorskip("nbclient")
    alone = tmp_path / "handed-out"
    alone.mkdir()
    shutil.copy(STUDENT / f"{lesson}.ipynb", alone / f"{lesson}.ipynb")
    nb = nbformat.read(alone / f"{lesson}.ipynb", as_version=4)
    # raises on any error, except in the cells tagged raises-exception (the lessons' deliberate errors)
    nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(alone)}}
    ).execute()
    assert sorted(p.name for p in alone.iterdir()) == [f"{lesson}.ipynb"], "running it wrote files beside it"
    printed = {line for cell in nb.cells if cell.cell_type == "code" for line in output_lines(cell.outputs)}
    assert printed, "the student copy printed nothing at all"
    answers = answer_lines(teacher(lesson))
    leaked = sorted(answers & printed)
    assert not leaked, f"Run All in the student copy of {lesson} prints answers: {leaked[:5]}"
    stubs = [c for c in nb.cells if c.cell_type == "code" and c.source == TOOL.ANSWER]
    assert all(c.outputs == [] for c in stubs)
