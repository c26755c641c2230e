"""ttr_lab.io.safeio: reading the files a user names, bounded and strict.

Every failure must be a :class:`~ttr_lab.errors.TtrError` (here built by the
factory the caller passes) naming the file and the problem: never a hang, a
RecursionError, a bare ValueError or a UnicodeDecodeError.  The property
tests (hypothesis) are in ``test_safeio_properties.py``.
"""

from __future__ import annotations

import ast
import json
import os
import re
import sys
import threading
import time
from pathlib import Path

import pytest

from ttr_lab.errors import MapDataError, RecordError, TtrError
from ttr_lab.io import safeio
from ttr_lab.io.safeio import (
    MAP_LIMIT,
    MAX_DEPTH,
    MAX_NUMBER_DIGITS,
    RECORD_LIMIT,
    decode_text,
    load_json,
    loads_json,
    read_text,
    record_error,
)

SAFEIO = Path(safeio.__file__)
# the reading, and the strict JSON and atomic writing it re-exports
SAFE_MODULES = (SAFEIO, SAFEIO.with_name("safejson.py"), SAFEIO.with_name("safewrite.py"))


def read(path, **kw) -> str:
    kw.setdefault("limit", MAP_LIMIT)
    kw.setdefault("error", MapDataError)
    return read_text(path, **kw)


def loads(text: str, **kw):
    return loads_json(text, where="x.json", error=MapDataError, **kw)


def refused(fn, *args, **kw) -> MapDataError:
    with pytest.raises(MapDataError) as info:
        fn(*args, **kw)
    return info.value


def in_time(fn, seconds: float = 10.0):
    """Run ``fn`` in a thread; fail (instead of hanging the suite) if it blocks."""
    out: dict = {}

    def run() -> None:
        try:
            out["value"] = fn()
        except BaseException as e:
            out["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"blocked for more than {seconds} s"
    if "error" in out:
        raise out["error"]
    return out["value"]


# ---------------------------------------------------------------- the module


def test_limits():
    assert MAP_LIMIT == 4 * 1024 * 1024
    assert RECORD_LIMIT == 16 * 1024 * 1024
    assert MAX_DEPTH == 64
    assert MAX_NUMBER_DIGITS == 4300


@pytest.mark.parametrize("path", SAFE_MODULES, ids=lambda p: p.name)
def test_imports_only_the_standard_library_and_errors(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    stdlib = set(sys.stdlib_module_names)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name.split(".")[0] in stdlib, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                assert node.module in ("errors", "safejson", "safewrite"), node.module
            else:
                assert node.module.split(".")[0] in stdlib or node.module == "__future__", node.module


@pytest.mark.parametrize("path", SAFE_MODULES, ids=lambda p: p.name)
def test_never_pickles_or_evaluates(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not names & {"eval", "exec", "compile", "__import__"}
    assert not modules & {"pickle", "marshal", "shelve"}


def test_all_is_complete():
    import inspect

    functions = {n for n, f in vars(safeio).items() if inspect.isfunction(f) and f.__module__ == safeio.__name__}
    assert {n for n in functions if not n.startswith("_")} <= set(safeio.__all__)
    for name in safeio.__all__:
        assert hasattr(safeio, name), name


# ---------------------------------------------------------------- read_text


def test_reads_a_regular_file(tmp_path):
    path = tmp_path / "m.json"
    path.write_text('{"name": "Zürich"}\n', encoding="utf-8")
    assert read(path) == '{"name": "Zürich"}\n'
    assert read(str(path)) == '{"name": "Zürich"}\n'


def test_byte_order_mark_is_dropped(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf[1]")
    assert read(path) == "[1]"


def test_newlines_are_kept(tmp_path):
    path = tmp_path / "crlf.json"
    path.write_bytes(b"[1,\r\n2]")
    assert read(path) == "[1,\r\n2]"


def test_missing_file(tmp_path):
    path = tmp_path / "nowhere.json"
    err = refused(read, path)
    assert (err.file, err.entry) == (str(path), "file")
    assert err.problem == "cannot read: No such file or directory"


def test_path_with_a_nul_character(tmp_path):
    err = refused(read, str(tmp_path / "a\0b.json"))
    assert (err.entry, err.problem) == ("file", "cannot read: embedded null byte")


def test_a_file_descriptor_is_not_a_path():
    with pytest.raises(TypeError):
        read(0)


def test_name_overrides_the_path_in_messages(tmp_path):
    err = refused(read, tmp_path / "nowhere.json", name="my map")
    assert str(err) == "my map: file: cannot read: No such file or directory"


def test_directory_is_refused(tmp_path):
    err = refused(read, tmp_path, what="map file")
    assert str(err) == f"{tmp_path}: file: not a regular file (a directory); give the path of a map file"


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_devices_are_refused_quickly(device):
    start = time.monotonic()
    err = in_time(lambda: refused(read, device))
    assert str(err) == f"{device}: file: not a regular file (a character device); give the path of a file"
    assert time.monotonic() - start < 2


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_symlink_to_a_device_is_refused(tmp_path):
    link = tmp_path / "innocent.json"
    link.symlink_to("/dev/zero")
    err = in_time(lambda: refused(read, link))
    assert err.problem.startswith("not a regular file (a character device)")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_named_pipe_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    err = in_time(lambda: refused(read, fifo), seconds=5)
    assert err.problem.startswith("not a regular file (a named pipe)")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_pipe_swapped_in_after_the_check_does_not_block(tmp_path, monkeypatch):
    """If the path turns into a FIFO between stat and open, the non-blocking
    open plus fstat still refuse it."""
    regular = tmp_path / "regular.json"
    regular.write_text("[]", encoding="utf-8")
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    real_stat = os.stat
    monkeypatch.setattr(
        safeio.os, "stat", lambda p, *a, **k: real_stat(regular) if Path(p) == fifo else real_stat(p, *a, **k)
    )
    err = in_time(lambda: refused(read, fifo), seconds=5)
    assert err.problem.startswith("not a regular file (a named pipe)")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX stdin")
def test_dev_stdin_when_it_is_a_pipe(tmp_path):
    import subprocess

    code = (
        "from ttr_lab.io.safeio import read_text, MAP_LIMIT\n"
        "from ttr_lab.errors import MapDataError\n"
        "try:\n"
        "    read_text('/dev/stdin', limit=MAP_LIMIT, error=MapDataError)\n"
        "except MapDataError as e:\n"
        "    print(e)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        stdin=subprocess.PIPE,
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "PYTHONPATH": str(SAFEIO.parents[1])},
    )
    assert proc.returncode == 0, proc.stderr
    assert "/dev/stdin: file: not a regular file (a named pipe)" in proc.stdout


def test_size_limit(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 101)
    assert read(path, limit=101) == " " * 101
    err = refused(read, path, limit=100, what="map file")
    assert err.entry == "file"
    assert err.problem == "too large: 101 bytes; the limit for a map file is 100 bytes"
    path.write_bytes(b" " * (MAP_LIMIT + 1))
    err = refused(read, path, what="map file")
    assert err.problem == f"too large: {MAP_LIMIT + 1} bytes; the limit for a map file is 4 MiB"


def test_reads_at_most_limit_plus_one_bytes(tmp_path, monkeypatch):
    """A file that claims to be small (as /proc files do) is still cut off."""
    path = tmp_path / "growing.json"
    path.write_bytes(b" " * 5000)
    real_fstat, real_read = os.fstat, os.read
    got: list[int] = []

    def small_fstat(fd):
        st = list(real_fstat(fd))
        st[6] = 0  # st_size
        return os.stat_result(st)

    def counting_read(fd, n):
        data = real_read(fd, n)
        got.append(len(data))
        return data

    monkeypatch.setattr(safeio.os, "fstat", small_fstat)
    monkeypatch.setattr(safeio.os, "read", counting_read)
    err = refused(read, path, limit=1000)
    assert err.problem == "too large: more than 1000 bytes; the limit for a file is 1000 bytes"
    assert sum(got) == 1001


def test_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('[\n"Zürich",\n"Montréal"]'.encode("latin-1"))
    err = refused(read, path)
    assert (err.file, err.entry) == (str(path), "line 2")
    assert err.problem == "not UTF-8 text (byte 4); save the file as UTF-8"


def test_not_utf8_after_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom_latin1.json"
    path.write_bytes(b"\xef\xbb\xbf[\n\n\xff]")
    err = refused(read, path)
    assert (err.entry, err.problem) == ("line 3", "not UTF-8 text (byte 6); save the file as UTF-8")


def test_a_truncated_utf8_sequence_at_the_end(tmp_path):
    path = tmp_path / "cut.json"
    path.write_bytes('"Zü'.encode()[:-1])
    assert refused(read, path).problem.startswith("not UTF-8 text (byte 2)")


def test_decode_text_refuses_surrogates_encoded_in_utf8():
    # CESU-style bytes for U+D800 are not UTF-8
    err = refused(decode_text, b"\xed\xa0\x80", where="x", error=MapDataError)
    assert err.entry == "line 1"


def test_record_error_factory(tmp_path):
    with pytest.raises(RecordError) as info:
        read_text(tmp_path, limit=RECORD_LIMIT, what="game record", error=record_error)
    err = info.value
    assert err.where == str(tmp_path)
    assert err.problem == "file: not a regular file (a directory); give the path of a game record"
    assert isinstance(err, TtrError)


def test_load_json(tmp_path):
    path = tmp_path / "game.json"
    path.write_text('{"moves": []}', encoding="utf-8")
    assert load_json(path, limit=RECORD_LIMIT, error=record_error) == {"moves": []}
    path.write_text('{"moves": [NaN]}', encoding="utf-8")
    with pytest.raises(
        RecordError, match=rf"^{re.escape(str(path))}: line 1 column 12: invalid JSON: NaN is not a JSON number"
    ):
        load_json(path, limit=RECORD_LIMIT, error=record_error)


# ---------------------------------------------------------------- loads_json


def test_valid_json():
    assert loads('{"a": [1, 2.5, "x", true, null], "b": {"c": -3}}') == {"a": [1, 2.5, "x", True, None], "b": {"c": -3}}


def test_syntax_error_names_line_and_column():
    err = refused(loads, '{\n  "a": 1,,\n}')
    assert (err.file, err.entry) == ("x.json", "line 2 column 10")
    assert err.problem == "invalid JSON: Expecting property name enclosed in double quotes"


@pytest.mark.parametrize("text", ["", "   ", "[1,]", "{'a': 1}", '"unterminated', "[1] [2]", '"\x01"', "\ufeff[]"])
def test_other_syntax_errors(text):
    err = refused(loads, text)
    assert err.entry.startswith("line ") and err.problem.startswith("invalid JSON: ")


@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_deep_nesting_is_refused_quickly(opener):
    closer = "]" if opener == "[" else "}"
    text = opener * 100_000 + "1" + closer * 100_000
    start = time.monotonic()
    err = refused(loads, text)
    assert time.monotonic() - start < 5
    assert err.problem == "invalid JSON: nested deeper than 64 levels"
    assert err.entry == f"line 1 column {1 + MAX_DEPTH * len(opener)}"


def test_deep_unclosed_nesting():
    err = refused(loads, "[" * 100_000)
    assert err.problem in ("invalid JSON: nested deeper than 64 levels", "invalid JSON: Expecting value")


def test_nesting_up_to_the_limit():
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    err = refused(loads, "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert (err.entry, err.problem) == (f"line 1 column {MAX_DEPTH + 1}", "invalid JSON: nested deeper than 64 levels")
    assert loads("[[[]]]", max_depth=3) == [[[]]]
    assert refused(loads, "[[[]]]", max_depth=2).entry == "line 1 column 3"


def test_moderately_deep_nesting_below_the_recursion_limit_is_refused_too():
    text = '{"a": ' + "[" * 500 + "]" * 500 + "}"
    err = refused(loads, text)
    assert (err.entry, err.problem) == ("line 1 column 70", "invalid JSON: nested deeper than 64 levels")


def test_brackets_inside_strings_do_not_count():
    text = json.dumps(["[" * 1000, "{" * 1000, '\\"[[[[' * 100])
    assert loads(text) == ["[" * 1000, "{" * 1000, '\\"[[[[' * 100]


def test_wide_shallow_json_is_fine():
    text = json.dumps([[i, {"k": [i]}] for i in range(20_000)])
    assert len(loads(text)) == 20_000


def test_huge_integer_is_refused():
    text = '{"length": ' + "1" * 5000 + "}"
    err = refused(loads, text)
    assert (err.entry, err.problem) == ("line 1 column 12", "invalid JSON: an integer with more than 4300 digits")


def test_huge_integer_is_refused_even_without_the_interpreter_limit():
    if not hasattr(sys, "set_int_max_str_digits"):
        pytest.skip("no int conversion limit in this Python")
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        start = time.monotonic()
        err = refused(loads, "[-" + "9" * 1_000_000 + "]")
        assert time.monotonic() - start < 5
        assert (err.entry, err.problem) == ("line 1 column 2", "invalid JSON: an integer with more than 4300 digits")
        assert loads("[" + "1" * 5000 + ".5e-5000]") == [pytest.approx(1 / 9)]  # a float
    finally:
        sys.set_int_max_str_digits(old)


def test_integer_under_a_lowered_interpreter_limit():
    if not hasattr(sys, "set_int_max_str_digits"):
        pytest.skip("no int conversion limit in this Python")
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(1000)
    try:
        err = refused(loads, "[1.5,\n" + "7" * 2000 + "]")
        assert (err.entry, err.problem) == ("line 2 column 1", "invalid JSON: an integer with more than 1000 digits")
    finally:
        sys.set_int_max_str_digits(old)


def test_long_numbers_within_the_limit_and_long_digit_strings():
    assert loads("[" + "1" * MAX_NUMBER_DIGITS + "]") == [int("1" * MAX_NUMBER_DIGITS)]
    assert loads('["' + "1" * 10_000 + '"]') == ["1" * 10_000]
    assert loads("[0." + "0" * 5000 + "1]") == [0.0]  # a float: no int() involved
    err = refused(loads, '["' + "1" * 10_000 + '", 0.5, -' + "1" * 5000 + "]")
    assert (err.entry, err.problem) == ("line 1 column 10011", "invalid JSON: an integer with more than 4300 digits")


@pytest.mark.parametrize(
    "text, column, name",
    [("[NaN]", 2, "NaN"), ('{"a": Infinity}', 7, "Infinity"), ("[1, -Infinity]", 5, "-Infinity")],
)
def test_nan_and_infinity_are_refused(text, column, name):
    err = refused(loads, text)
    assert (err.entry, err.problem) == (
        f"line 1 column {column}",
        f"invalid JSON: {name} is not a JSON number; write a number",
    )


def test_nan_inside_a_string_is_text():
    assert loads('["NaN", "Infinity"]') == ["NaN", "Infinity"]
    err = refused(loads, '["NaN",\n NaN]')
    assert err.entry == "line 2 column 2"


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1" * 400 + ".5"])
def test_float_overflow_is_refused(number):
    err = refused(loads, f'{{"lat": {number}}}')
    assert err.entry == "line 1 column 9"
    assert err.problem.startswith("invalid JSON: number ") and err.problem.endswith(" is too large")


def test_tiny_floats_are_fine():
    assert loads("[1e-400, 2.5e-3]") == [0.0, 0.0025]


def test_duplicate_keys_are_refused():
    err = refused(loads, '{"id": 3, "a": "Ashford", "id": 4}')
    assert err.entry == "JSON"
    assert err.problem == """invalid JSON: duplicate key 'id' in the object {"id": 3, "a": "Ashford", "id": 4}"""


def test_duplicate_keys_in_a_nested_object():
    err = refused(loads, '{"routes": [{"x": [1, 2], "y": {}, "x": 1}]}')
    assert err.problem == """invalid JSON: duplicate key 'x' in the object {"x": [...], "y": {...}, "x": 1}"""


def test_duplicate_key_message_is_short():
    pairs = ", ".join(f'"k{i}": "{"v" * 100}"' for i in range(50))
    err = refused(loads, "{" + pairs + ', "k0": 1}')
    assert err.problem.startswith("invalid JSON: duplicate key 'k0' in the object {")
    assert len(err.problem) < 150


def test_same_key_in_different_objects_is_fine():
    assert loads('[{"id": 1}, {"id": 2}]') == [{"id": 1}, {"id": 2}]


def test_lone_surrogate_escape_is_refused():
    err = refused(loads, '{"name": "Zu\\udc00rich"}')
    assert (err.entry, err.problem) == (
        "line 1 column 10",
        'invalid JSON: "Zu\\udc00rich" is half of a surrogate pair, not text',
    )


def test_surrogate_pairs_and_escaped_backslashes_are_text():
    assert loads('["\\ud83d\\ude82", "\\\\ud800"]') == ["\U0001f682", "\\ud800"]


def test_every_error_is_the_factorys():
    for text in ("[", "[NaN]", "[1e999]", '{"a":1,"a":2}', "[" * 2000, "[" + "1" * 5000 + "]", '["\\ud800"]'):
        with pytest.raises(RecordError):
            loads_json(text, where="g.json", error=record_error)
