"""ttr_lab.io.safeio's property tests (hypothesis, the [test] extra): any text
or bytes is read or refused with the library's error, and valid JSON
round-trips.  tests/conftest.py leaves this module out when hypothesis is
not installed."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_lab.errors import MapDataError
from ttr_lab.io.safeio import decode_text, loads_json


def loads(text: str):
    return loads_json(text, where="x.json", error=MapDataError)


JSONISH = st.text(alphabet='[]{}",:0123456789.eE+-NaInfinityrulsx \\\n\t\u00e9', max_size=200)


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSONISH, st.text(max_size=100)))
def test_any_text_parses_or_raises_the_librarys_error(text):
    try:
        loads(text)
    except MapDataError as e:
        assert e.file == "x.json" and e.entry and e.problem


@settings(max_examples=100, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
        lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
        max_leaves=20,
    )
)
def test_round_trip_of_valid_json(value):
    # json.dumps writes astral characters as escaped surrogate pairs: accepted
    assert loads(json.dumps(value)) == value
    assert loads(json.dumps(value, ensure_ascii=False, indent=1)) == value


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_decode_or_raise_the_librarys_error(data):
    try:
        text = decode_text(data, where="x.json", error=MapDataError)
    except MapDataError as e:
        assert e.entry.startswith("line ") and e.problem.endswith("save the file as UTF-8")
    else:
        assert text == data.decode("utf-8-sig")
