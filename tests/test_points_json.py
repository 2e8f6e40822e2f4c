"""One ``points_json`` (core/scoring.py) for every "points as a JSON number or text"
(issue 14 item 5). Each form gives, byte for byte, what the copy it replaced gave: the
export files, the knockout's scores, the duration estimate, the standings' points and
tie-break columns of the JSON API and of the live table."""

from __future__ import annotations

import json
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.scoring import points_json
from crosstable.formats.trf_text import decimal_text

values = st.one_of(
    st.integers(-(10**6), 10**6),
    st.fractions(max_denominator=1000).filter(lambda f: abs(f) < 10**6),
    st.sampled_from([Fraction(4), Fraction(9, 2), Fraction(1, 10), Fraction(1, 3), 0]),
)


def _export_copy(value: Fraction | int) -> int | float | str:
    """formats/json_io.json_number as it was (an int went through unchanged)."""
    if isinstance(value, int):
        return value
    if value.denominator == 1:
        return value.numerator
    try:
        text = decimal_text(value)
    except ValueError:
        return str(value)
    if len(text.partition(".")[2]) > 6 or Fraction(repr(float(text))) != value:
        return str(value)
    return float(text)


def _number_copy(value: Fraction | int) -> int | float:
    """core/duration.json_number, core/pairing/knockout._number, service knockout's."""
    return int(value.numerator) if value.denominator == 1 else float(value)


def _typed_copy(value: Fraction | int | None) -> int | float | None:
    """core/tiebreaks/explain.number_json."""
    if value is None or isinstance(value, int):
        return value
    return float(value)


def _text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@settings(max_examples=300)
@given(values)
def test_each_form_writes_what_its_copy_wrote(value: Fraction | int) -> None:
    assert _text(points_json(value, "exact")) == _text(_export_copy(value))
    assert _text(points_json(value)) == _text(_number_copy(value))
    assert _text(points_json(value, "typed")) == _text(_typed_copy(value))
    assert _text(points_json(value, "float")) == _text(float(value))


@settings(max_examples=300)
@given(values)
def test_the_exact_form_reads_back_as_the_value(value: Fraction | int) -> None:
    written = json.loads(_text(points_json(value, "exact")))
    assert Fraction(str(written)) == value


def test_the_forms_differ_where_the_outputs_did() -> None:
    """The forms are not one in disguise: each pinned output keeps its own shape."""
    four = Fraction(4)
    assert [_text(points_json(four, form)) for form in ("number", "exact", "float", "typed")] == [
        "4",
        "4",
        "4.0",
        "4.0",
    ]
    third = Fraction(1, 3)
    assert _text(points_json(third, "exact")) == '"1/3"'
    assert _text(points_json(third)) == "0.3333333333333333"
    assert points_json(None) is None and points_json(None, "float") is None
    assert _text(points_json(3, "typed")) == "3" and _text(points_json(3, "float")) == "3.0"
