"""common.jsonparse: numbers beyond a double's range are refused by name.

Python's own parser raises a bare ``ValueError`` on an integer of more than
4,300 digits (a crash wherever only ``JSONRefused`` was caught) and turns
``1e400`` into ``inf``, which no JSON writer, PostgreSQL's included, takes back.
"""

from __future__ import annotations

import json
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common import jsonparse


@pytest.mark.parametrize(
    "text",
    [
        "9" * 5000,
        "-" + "9" * 5000,
        '{"a": [1, %s]}' % ("1" * (sys.get_int_max_str_digits() + 1)),
        "1" * 309,  # one digit past MAX_INT_DIGITS
        "1e400",
        "-1E+400",
        "1" * 400 + ".5",
    ],
)
def test_a_number_beyond_a_double_is_refused_as_number(text: str) -> None:
    with pytest.raises(jsonparse.JSONRefused) as refused:
        jsonparse.loads(text)
    assert refused.value.reason == "number"


def test_the_integer_limit_is_exact_and_small_magnitudes_are_kept() -> None:
    widest = "9" * jsonparse.MAX_INT_DIGITS
    assert jsonparse.loads(widest) == int(widest)
    assert float(jsonparse.loads(widest)) < float("inf")  # a later float() cannot overflow
    assert jsonparse.loads("-" + widest) == -int(widest)
    assert jsonparse.loads("[1e-400, 1.5e300, -0.0, 12]") == [0.0, 1.5e300, -0.0, 12]


def test_a_5000_digit_integer_costs_no_conversion() -> None:
    """Refused on its length: the integer is never built (conversion is quadratic)."""
    text = "[" + ",".join(["9" * 50_000] * 20) + "]"  # 1 MB of digits
    with pytest.raises(jsonparse.JSONRefused) as refused:
        jsonparse.loads(text)
    assert "50000 digits" in str(refused.value)


@given(st.text(max_size=60) | st.binary(max_size=60))
def test_any_text_parses_or_is_refused_by_name(data: str | bytes) -> None:
    try:
        value = jsonparse.loads(data)
    except jsonparse.JSONRefused as refused:
        assert refused.reason in {"syntax", "encoding", "constant", "surrogate", "number"}
    else:
        json.dumps(value, allow_nan=False).encode("utf-8")  # storable as it came


@given(st.sampled_from(["1", "-1", "0.5", "1e"]), st.integers(0, 6000))
def test_long_numbers_parse_or_are_refused_by_name(head: str, length: int) -> None:
    text = head + "9" * length if not head.endswith("e") else head + str(10 ** min(length, 400))
    try:
        jsonparse.loads(text)
    except jsonparse.JSONRefused as refused:
        assert refused.reason == "number"
