"""Structured mutations of TRF and tournament-JSON inputs, and a time bound per input,
for the fuzz targets (tests/test_fuzz_*.py, docs/fuzzing.md).

The seeds are the files of ``tests/fuzz_corpus``. A TRF is mutated by columns and
words (a digit for a Unicode digit, a result code for another, a record line
repeated, a huge number in a field …), a JSON document by paths (a value replaced
by 10¹², ``"2"``, a newline, a list; a key dropped; an item duplicated), the way
the probes of issue 13 item 4 found their 560 tracebacks.
"""

from __future__ import annotations

import copy
import json
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

CORPUS = Path(__file__).parent / "fuzz_corpus"
#: examples per target: small in CI, CROSSTABLE_FUZZ_EXAMPLES for a long run
EXAMPLES = int(os.environ.get("CROSSTABLE_FUZZ_EXAMPLES", "0")) or None
#: seconds one input may take before it counts as a hang (a guard, not a measurement)
BOUND = float(os.environ.get("CROSSTABLE_FUZZ_BOUND", "20"))


def examples(ci: int) -> int:
    return EXAMPLES or ci


def seeds(*suffixes: str) -> list[bytes]:
    return [p.read_bytes() for p in sorted(CORPUS.iterdir()) if p.name.endswith(suffixes)]


class Hang(Exception):  # noqa: N818 - the name is what the report should say
    """An input took longer than the bound."""


@contextmanager
def bounded(what: str, seconds: float = BOUND) -> Iterator[None]:
    """Raise :class:`Hang` (naming ``what``) if the block runs longer than ``seconds``."""

    def expire(signum: int, frame: object) -> None:
        raise Hang(f"{what} took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ---------------------------------------------------------------- TRF mutations

CHARACTERS = [*list("0123456789 -+=.,wbWBHFUZDL*mfu?\t"), "²", "６", "é", "Ж", "\r", "\x00"]
WORDS = [
    "0",
    "0000",
    "9999",
    "10000",
    "999999999999",
    "1" * 30,
    "-1",
    "10.25",
    "0.333",
    "1e9",
    "²874",
    "６",
    "u",
    "XXR",
    "XXA",
    "240",
    "250",
    "260",
    "299",
    "001",
    "132",
    "162",
    "W",
    "=",
    "+",
    "   1 b 0",
    "0000 - U",
]
LINES = [
    "XXR 999",
    "XXR 0",
    "142 1000",
    "240 H 001 0001",
    "240 Z 999 0009",
    "250    1.0 001 999 0001 0009",
    "260 001 003 0001 0001",
    "299 W   1.0   1.0  000 0001",
    "XXA    1  1.0  1.0  1.0",
    "XXP 1 1",
    "XXZ 1 2 3",
    "XXS W=3 D=1",
    "162 W  3.0    D  1.0",
    "092 Individual: Round-Robin",
    "092 Individual: Swiss-System",
    "192 FIDE_DOUBLEROUNDROBIN",
    "152 B",
    "013 Team                            1    2",
    "310   1 Team                             TT    1.00    1.0    1.0   1  0001 0002",
    "172 RUS NRO",
    "RUS    1 m    Name                              1500",
    "### comment",
    "",
]


@st.composite
def mutated_trf(draw: st.DrawFn) -> str:
    """A corpus TRF with 1–6 mutations at columns, words and lines."""
    data = draw(st.sampled_from(seeds(".trf")))
    from crosstable.formats.trf import decode_trf

    lines = decode_trf(data).split("\n")
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.integers(0, 7))
        index = draw(st.integers(0, max(0, len(lines) - 1)))
        line = lines[index] if lines else ""
        column = draw(st.integers(0, max(0, len(line))))
        if kind == 0:  # one character replaced
            char = draw(st.sampled_from(CHARACTERS))
            lines[index] = line[:column] + char + line[column + 1 :]
        elif kind == 1:  # a word over the columns there
            word = draw(st.sampled_from(WORDS))
            lines[index] = line[:column] + word + line[column + len(word) :]
        elif kind == 2:  # a word inserted (shifts the rest of the line)
            lines[index] = line[:column] + draw(st.sampled_from(WORDS)) + line[column:]
        elif kind == 3:  # a record added
            lines.insert(index, draw(st.sampled_from(LINES)))
        elif kind == 4 and lines:  # a line repeated or dropped
            if draw(st.booleans()):
                lines.insert(index, line)
            else:
                del lines[index]
        elif kind == 5:  # a line cut short
            lines[index] = line[:column]
        elif kind == 6:  # a round entry rewritten from a grammar
            opponent = draw(st.sampled_from(["0000", "   1", "   2", "   9", "  10", "    "]))
            colour = draw(st.sampled_from("wb- B"))
            result = draw(st.sampled_from("10=+-WDLHFUZ* "))
            lines[index] = line[:column] + f"{opponent} {colour} {result}" + line[column + 8 :]
        else:  # any text from a small alphabet
            text = draw(st.text(st.sampled_from(CHARACTERS), max_size=12))
            lines[index] = line[:column] + text + line[column:]
    return "\n".join(lines)


# ---------------------------------------------------------------- JSON mutations

VALUES: list[Any] = [
    None,
    0,
    -1,
    1,
    2,
    7,
    9999,
    10_000,
    10**12,
    2**63,
    1e308,
    0.1,
    10.25,
    "",
    "2",
    "a\nb",
    "²",
    "1/3",
    "free",
    "H",
    "U",
    "w",
    "x" * 40,
    True,
    [],
    {},
    [1, 1],
    {"white": "0", "black": "0"},
    {"white": "+", "black": "+"},
]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


def _parent(document: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        document = document[key]
    return document


@st.composite
def mutated_json(draw: st.DrawFn, seed_documents: list[Any]) -> Any:
    """A copy of one of ``seed_documents`` with 1–4 values replaced, dropped or doubled."""
    document = copy.deepcopy(draw(st.sampled_from(seed_documents)))
    for _ in range(draw(st.integers(1, 4))):
        paths = [p for p in _paths(document) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = _parent(document, path)
        key = path[-1]
        kind = draw(st.integers(0, 3))
        if kind <= 1:
            parent[key] = copy.deepcopy(draw(st.sampled_from(VALUES)))
        elif kind == 2:
            if isinstance(parent, list):
                parent.insert(key, copy.deepcopy(parent[key]))
            else:
                del parent[key]
        else:  # a value moved elsewhere (a round number into a starting number …)
            other = draw(st.sampled_from(paths))
            with suppress(KeyError, IndexError, TypeError):
                parent[key] = copy.deepcopy(_parent(document, other)[other[-1]])
    return document


def json_seeds() -> list[Any]:
    return [json.loads(data) for data in seeds(".json")]
