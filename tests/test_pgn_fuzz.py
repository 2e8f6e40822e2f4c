"""Fuzz targets of the PGN import (issue 16 item 4; docs/pgn.md, docs/fuzzing.md).

The invariant for every input: :func:`~crosstable.formats.pgn.read_games` yields games
within the bounds (at most ``MAX_GAMES`` games, ``MAX_MOVES`` moves and
``MAX_GAME_CHARS`` characters a game, a PGN result, every move legal when replayed),
or refuses the text with an :class:`~crosstable.core.errors.InputError` naming the
source — never another exception, never more than the time bound; and a round's
upload through the service is stored whole or refused whole (nothing half-stored).
``CROSSTABLE_FUZZ_EXAMPLES`` runs long.
"""

from __future__ import annotations

import io

import chess.pgn
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import migrated

from crosstable.core.errors import CrosstableError, InputError
from crosstable.formats.pgn import MAX_GAME_CHARS, MAX_GAMES, MAX_MOVES, RESULTS, read_games
from tests.test_fuzz_support import bounded, examples

FUZZ = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

SEED = (
    '[Event "Club"]\n[Round "1.1"]\n[White "Anna"]\n[Black "Dmitri"]\n[Result "1-0"]\n'
    '[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]\n\n'
    "1. e4 {[%clk 1:30:00]} e5 $1 2. Qh5 (2. Nf3 Nc6 (2... d6)) Nc6 3. Bc4 Nf6?? "
    "4. Qxf7# 1-0\n\n"
    '[Round "1.2"]\n[White "Boris"]\n[Black "Clara"]\n[Result "1/2-1/2"]\n\n'
    "1. d4 d5 2. c4 dxc4 3. O-O-O ; a comment\n 1/2-1/2\n"
)
PIECES = [
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    '"',
    "\\",
    ";",
    "%",
    "\n",
    "\n\n",
    "\r\n",
    "\x00",
    "\ufeff",
    "*",
    "1-0",
    "0-1",
    "1/2-1/2",
    "2-0",
    "$",
    "$999999999999",
    "!!",
    "O-O",
    "O-O-O",
    "0-0",
    "Ke2",
    "e8=Q",
    "exd6",
    "Nbd7",
    "Z0",
    "--",
    "1...",
    "999999.",
    '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n',
    '[FEN "k7/8/8/8/8/8/8/K7 w - - 0 1"]\n',
    '[Variant "Chess960"]\n',
    '[Variant "Crazyhouse"]\n',
    '[SetUp "1"]\n',
    '[Result "1-0"]\n',
    '[White ""]\n',
    "Ж",
    " " * 300,
    "(" * 200,
    ")" * 200,
    "{" * 50,
]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = SEED
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "repeat", "replace"]))
        piece = draw(st.sampled_from(PIECES) | st.text(max_size=8))
        if kind == "insert":
            text = text[:at] + piece + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)) :]
        elif kind == "repeat":
            cut = text[at : at + draw(st.integers(1, 80))]
            text = text[:at] + cut * draw(st.integers(2, 40)) + text[at:]
        else:
            text = text[:at] + piece + text[at + len(piece) :]
    return text


def check(text: str) -> None:
    try:
        with bounded("read_games"):
            games = read_games(text, source="fuzz.pgn")
    except InputError as refused:
        assert str(refused).startswith("fuzz.pgn"), refused
        return
    assert len(games) <= MAX_GAMES
    for game in games:
        assert game.result in RESULTS
        assert len(game.moves) <= 2 * MAX_MOVES
        assert len(game.text) <= MAX_GAME_CHARS
        again = chess.pgn.read_game(io.StringIO(game.text))  # what is kept reads back
        assert again is not None and again.errors == []
        board = again.board()
        for san in game.moves:
            board.push_san(san)


@FUZZ
@given(text=mutated())
def test_fuzz_pgn_mutations(text: str) -> None:
    check(text)


@FUZZ
@given(text=st.text(max_size=3000))
def test_fuzz_any_text(text: str) -> None:
    check(text)


def test_deep_nesting_and_long_lines_stay_bounded() -> None:
    for text in (
        "1. e4 " + "(1. d4 " * 20_000 + "*",
        "1. e4 " + "{" * 100_000,
        "[" * 200_000,
        "1. e4 e5 " * 200_000,
        ('[White "x"]\n' * 101) + "\n1. e4 *",
    ):
        check(text)


@pytest.mark.parametrize("case", range(3))
def test_a_mutated_round_is_stored_whole_or_refused_whole(tmp_path: object, case: int) -> None:
    """Through the service (SQLite): a refused upload leaves no game with moves."""
    import random

    from test_service_support import make_service, started

    from crosstable.store import open_store

    service = make_service(open_store(migrated(f"sqlite:///{tmp_path}/fuzz.db")))  # type: ignore[str-bytes-safe]
    tid = started(service, 4)
    rng = random.Random(case)
    for _ in range(25):
        text = SEED.replace("Anna", "Anna" if rng.random() < 0.7 else "Zed")
        at = rng.randrange(len(text))
        text = text[:at] + rng.choice(PIECES) + text[at:]
        before = service.games_with_moves(tid)
        try:
            with bounded("import_pgn"):
                service.import_pgn(tid, text, round_number=1)
        except CrosstableError:
            assert service.games_with_moves(tid) == before
    assert service.verify(tid) == []
