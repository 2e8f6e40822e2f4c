"""Hypothesis strategies that several test modules share."""

from __future__ import annotations

from hypothesis import strategies as st

#: any value a JSON document can hold: null, booleans, numbers, short strings, and lists
#: and objects of them
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
