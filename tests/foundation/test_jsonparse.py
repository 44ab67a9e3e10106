"""common.jsonparse: JSON from strangers never recurses without bound."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common import jsonparse

DEEP = "[" * 5000 + "]" * 5000


def test_deep_nesting_is_refused_by_name_not_a_recursion_error() -> None:
    with pytest.raises(jsonparse.JSONRefused) as refused:
        jsonparse.loads(DEEP)
    assert refused.value.reason == "too_deep"
    assert "5000 levels" in str(refused.value)
    with pytest.raises(jsonparse.JSONRefused):
        jsonparse.loads('{"a":' * 5000 + "1" + "}" * 5000)


def test_the_limit_is_exact_and_brackets_inside_strings_do_not_count() -> None:
    assert jsonparse.loads("[" * 64 + "]" * 64, max_depth=64) is not None
    with pytest.raises(jsonparse.JSONRefused):
        jsonparse.loads("[" * 65 + "]" * 65, max_depth=64)
    text = json.dumps({"action": {"type": "x", "note": "[[[[{{{{" * 100 + '\\"[['}})
    assert jsonparse.nesting_depth(text) == 2
    assert jsonparse.loads(text, max_depth=2)["action"]["type"] == "x"


def test_unclosed_or_malformed_deep_text_is_refused_too() -> None:
    for text in ('"' + "[" * 5000, "[" * 5000, '["\\x' + "[" * 5000, "[1 " + "[" * 5000):
        with pytest.raises(jsonparse.JSONRefused):
            jsonparse.loads(text)


def test_not_json_constants_surrogates_and_bad_utf8_are_refused() -> None:
    cases = {
        "{": "syntax",
        "[NaN]": "constant",
        '{"x": Infinity}': "constant",
        '"\\ud800"': "surrogate",
        '{"\\udc00": 1}': "surrogate",
    }
    for text, reason in cases.items():
        with pytest.raises(jsonparse.JSONRefused) as refused:
            jsonparse.loads(text)
        assert refused.value.reason == reason, text
    with pytest.raises(jsonparse.JSONRefused) as refused:
        jsonparse.loads(b'"\xff"')
    assert refused.value.reason == "encoding"
    assert jsonparse.loads('"\\ud83d\\ude00"') == "\U0001f600"  # a proper pair is fine


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(exclude_categories=["Cs"])),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(alphabet=st.characters(exclude_categories=["Cs"])), inner, max_size=4
        )
    ),
    max_leaves=20,
)


@given(json_values)
def test_agrees_with_the_standard_library_on_ordinary_json(value) -> None:
    text = json.dumps(value)
    assert jsonparse.loads(text) == json.loads(text)
    assert jsonparse.loads(text.encode()) == json.loads(text)
