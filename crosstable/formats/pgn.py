"""PGN read and written with python-chess (docs/pgn.md).

:func:`read_games` reads a PGN text of one or more games into :class:`PgnGame` values,
checked and bounded: at most :data:`MAX_PGN_BYTES` of text, :data:`MAX_GAMES` games and
:data:`MAX_MOVES` moves a game, each move legal (an illegal, ambiguous or unreadable one
is refused with its move number and its SAN), the result one of PGN's four. What is
kept of a game (:attr:`PgnGame.text`) is the game as python-chess writes it back: its
headers as given, the main line with comments and NAGs, no variations.

:func:`tournament_game` writes one game of a tournament: the tournament's headers (the
Seven Tag Roster, ``Round "r.b"``, Elo, FIDE ids, ``EventDate``, ``TimeControl``) over
the stored game's own, and its moves when it has some.

>>> (game,) = read_games('[White "Anna"]\\n[Result "1-0"]\\n\\n1. e4 e5 2. Qh5 Nc6 '
...                      '3. Bc4 Nf6 4. Qxf7# 1-0\\n')
>>> game.result, len(game.moves), game.moves[-1], game.header("White")
('1-0', 7, 'Qxf7#', 'Anna')
>>> read_games("1. e4 e5 2. Ke3 *", source="r2.pgn")
Traceback (most recent call last):
...
crosstable.core.errors.InputError: r2.pgn:1: game 1: White's move 2, Ke3, is illegal
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import chess
import chess.pgn

from crosstable.core.duration import parse_time_control
from crosstable.core.errors import CrosstableError, InputError, RuleError
from crosstable.core.text import Message

__all__ = [
    "MAX_GAMES",
    "MAX_GAME_CHARS",
    "MAX_MOVES",
    "MAX_PGN_BYTES",
    "MAX_TOTAL_MOVES",
    "RESULTS",
    "PgnGame",
    "names_agree",
    "pgn_time_control",
    "positions",
    "read_games",
    "tournament_game",
]

#: Bytes of one PGN upload or import: a round of 500 boards with 80-move games is 1 MB.
MAX_PGN_BYTES = 4 * 1024 * 1024
#: Games in one PGN text (a round of 1 000 boards; a whole event is imported round by round
#: or through ``crosstable pgn import``, which takes the same bound per file).
MAX_GAMES = 2_000
#: Moves of one game (each side's move counted once: 600 moves are 1 200 plies); the
#: longest tournament game on record has 269.
MAX_MOVES = 600
#: Moves of all games of one text (a round of 500 boards with 100-move games): the time a
#: text takes grows with its moves, python-chess replaying each (docs/pgn.md, "Bounds").
MAX_TOTAL_MOVES = 50_000
#: Characters of one game as kept (headers, moves, comments).
MAX_GAME_CHARS = 64 * 1024
#: Headers of one game.
MAX_HEADERS = 100
#: PGN's results
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

# python-chess logs each error of a game it reads; we report them ourselves
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)


@dataclass(frozen=True, slots=True)
class PgnGame:
    """One game of a PGN text, checked."""

    #: 1, 2, 3… in the text
    index: int
    #: the line of the text the game starts on
    line: int
    #: its headers in their order
    headers: tuple[tuple[str, str], ...]
    #: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``
    result: str
    #: the main line in SAN
    moves: tuple[str, ...]
    #: the game as kept: python-chess's PGN of it (headers, main line, comments)
    text: str

    def header(self, name: str) -> str:
        """The header's value ("" when the game has none, or ``?``)."""
        for key, value in self.headers:
            if key == name:
                return "" if value.strip() in ("?", "-") else value.strip()
        return ""

    @property
    def label(self) -> Message:
        """How a message names the game: ``game 3 (White "Anna" – Black "Boris")``."""
        return Message(
            'game {index} (White "{white}" – Black "{black}", Round "{round}")',
            index=self.index,
            white=self.header("White") or "?",
            black=self.header("Black") or "?",
            round=self.header("Round") or "?",
        )


class _TooLongError(Exception):
    pass


class _Builder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's game builder, bounded, without variations, noting the first bad move."""

    def itself(self) -> _Builder:
        """The builder as its own factory (``read_game`` makes its visitor by a call)."""
        return self

    #: plies the text may still have (set by :func:`read_games` before each game)
    left = 2 * MAX_TOTAL_MOVES

    def begin_game(self) -> None:
        super().begin_game()
        self.plies = 0
        self.headers_seen = 0
        self.bad_move: tuple[int, bool, str, str] | None = None
        self.problems: list[Exception] = []

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.headers_seen += 1
        if self.headers_seen > MAX_HEADERS:
            raise _TooLongError("headers")
        super().visit_header(tagname, tagvalue)

    def begin_variation(self) -> chess.pgn.SkipType:  # type: ignore[override]
        return chess.pgn.SKIP  # variations are left out (docs/pgn.md)

    def end_variation(self) -> None:
        pass  # (called when a skipped variation ends: nothing was pushed)

    def parse_san(self, board: chess.Board, san: str) -> chess.Move:
        try:
            return board.parse_san(san)
        except chess.IllegalMoveError:
            self._note(board, san, "illegal")
            raise
        except chess.AmbiguousMoveError:
            self._note(board, san, "ambiguous")
            raise
        except ValueError:
            self._note(board, san, "unreadable")
            raise

    def _note(self, board: chess.Board, san: str, kind: str) -> None:
        if self.bad_move is None:
            self.bad_move = (board.fullmove_number, board.turn == chess.WHITE, san, kind)

    def visit_move(self, board: chess.Board, move: chess.Move) -> None:
        self.plies += 1
        if self.plies > 2 * MAX_MOVES:
            raise _TooLongError("moves")
        if self.plies > self.left:
            raise _TooLongError("all moves")
        super().visit_move(board, move)

    def handle_error(self, error: Exception) -> None:
        self.problems.append(error)


def read_games(text: str, *, source: str = "<input>") -> list[PgnGame]:
    """The games of a PGN text, each checked; an :class:`InputError` for the first fault
    (naming the file, the line the game starts on, the game's number and its fault)."""
    if len(text) > MAX_PGN_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_PGN_BYTES:
        raise InputError("the PGN is larger than {most} bytes", source=source, most=MAX_PGN_BYTES)
    if "\x00" in text:
        raise InputError("the PGN contains a NUL character", source=source)
    handle = io.StringIO(text)
    lines = _Lines(text)
    games: list[PgnGame] = []
    plies = 0
    while True:
        offset = handle.tell()
        made = _Builder()
        made.left = 2 * MAX_TOTAL_MOVES - plies
        try:
            game = chess.pgn.read_game(handle, Visitor=made.itself)
        except _TooLongError as which:
            line = lines.at(offset)
            index = len(games) + 1
            if str(which) == "all moves":
                raise InputError(
                    "more than {most} moves in all the games of one PGN",
                    source=source,
                    line=line,
                    most=MAX_TOTAL_MOVES,
                ) from None
            if str(which) == "headers":
                raise InputError(
                    "game {index}: more than {most} headers",
                    source=source,
                    line=line,
                    index=index,
                    most=MAX_HEADERS,
                ) from None
            raise InputError(
                "game {index}: more than {most} moves",
                source=source,
                line=line,
                index=index,
                most=MAX_MOVES,
            ) from None
        except (ValueError, KeyError, IndexError, RecursionError) as error:
            # (python-chess is forgiving; anything it still raises is the text's fault)
            raise InputError(
                "game {index}: not readable as PGN ({why})",
                source=source,
                line=lines.at(offset),
                index=len(games) + 1,
                why=type(error).__name__,
            ) from None
        if game is None:
            break
        if len(games) >= MAX_GAMES:
            raise InputError("more than {most} games in one PGN", source=source, most=MAX_GAMES)
        games.append(_checked(game, made, len(games) + 1, lines.at(offset), source))
        plies += made.plies
    return [g for g in games if g.moves or _has_content(g)]


def _has_content(game: PgnGame) -> bool:
    return bool(game.headers) or game.result != "*"


class _Lines:
    """The line a game starts on, counted forwards only (linear in the text, however
    many games it holds)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.offset = 0
        self.line = 1

    def at(self, offset: int) -> int:
        text = self.text
        if offset >= self.offset:
            self.line += text.count("\n", self.offset, offset)
        else:
            self.line = text.count("\n", 0, offset) + 1
        self.offset = offset
        # the game starts after the blank lines and comments that follow the offset
        line, start = self.line, offset
        while start < len(text):
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            piece = text[start:end]
            if piece.strip() and not piece.startswith(("%", ";")):
                break
            line += 1
            start = end + 1
        return line


def _checked(
    game: chess.pgn.Game, builder: _Builder, index: int, line: int, source: str
) -> PgnGame:
    where = Message("game {index}", index=index)
    if builder.bad_move is not None:
        number, white, san, kind = builder.bad_move
        raise InputError(
            _BAD_MOVES[(kind, white)], source=source, line=line, where=where, number=number, san=san
        )
    for problem in builder.problems:
        if "variant" in str(problem).lower():
            raise InputError(
                "{where}: the variant {variant} is not played here",
                source=source,
                line=line,
                where=where,
                variant=repr(game.headers.get("Variant", "?")),
            )
        raise InputError(
            "{where}: the FEN header is not a position a game can start from",
            source=source,
            line=line,
            where=where,
        )
    variant = game.headers.get("Variant", "")
    if variant and type(game.board()) is not chess.Board:
        raise InputError(
            "{where}: the variant {variant} is not played here",
            source=source,
            line=line,
            where=where,
            variant=repr(variant),
        )
    result = game.headers.get("Result", "*").strip()
    if result not in RESULTS:
        raise InputError(
            "{where}: Result {result} is not 1-0, 0-1, 1/2-1/2 or *",
            source=source,
            line=line,
            where=where,
            result=repr(result[:40]),
        )
    game.headers["Result"] = result
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    kept = game.accept(exporter)
    if len(kept) > MAX_GAME_CHARS:
        raise InputError(
            "{where}: {count} characters, at most {most} are kept of one game",
            source=source,
            line=line,
            where=where,
            count=len(kept),
            most=MAX_GAME_CHARS,
        )
    moves = _sans_of(kept)
    return PgnGame(
        index=index,
        line=line,
        headers=tuple((k, v) for k, v in game.headers.items() if not _empty_roster(k, v)),
        result=result,
        moves=tuple(moves),
        text=kept,
    )


_ROSTER_DEFAULTS = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": "*",
}


def _empty_roster(key: str, value: str) -> bool:
    """A Seven Tag Roster header python-chess filled in itself (the text had none)."""
    return _ROSTER_DEFAULTS.get(key) == value and key != "Result"


_BAD_MOVES = {
    ("illegal", True): "{where}: White's move {number}, {san}, is illegal",
    ("illegal", False): "{where}: Black's move {number}, {san}, is illegal",
    ("ambiguous", True): "{where}: White's move {number}, {san}, is ambiguous",
    ("ambiguous", False): "{where}: Black's move {number}, {san}, is ambiguous",
    ("unreadable", True): "{where}: White's move {number}, {san}, is not a move",
    ("unreadable", False): "{where}: Black's move {number}, {san}, is not a move",
}


_NOT_A_MOVE = re.compile(r"\{[^}]*\}|\$\d+|\d+\.+|1-0|0-1|1/2-1/2|\*")


def _sans_of(kept: str) -> list[str]:
    """The main line's moves in SAN, read off the text python-chess wrote (its comments
    hold no brace, it writes no variation here): faster than replaying the game."""
    movetext = kept.split("\n\n", 1)[1] if "\n\n" in kept else kept
    return _NOT_A_MOVE.sub(" ", movetext).split()


def positions(text: str) -> tuple[list[str], list[chess.Board], list[chess.Move | None]]:
    """A kept game's moves in SAN, the position before the first move and after each
    (one more than the moves), and the move that led to each position (None first)."""
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        raise RuleError("the game's moves cannot be read")
    board = game.board()
    sans: list[str] = []
    boards = [board.copy(stack=False)]
    moves: list[chess.Move | None] = [None]
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
        boards.append(board.copy(stack=False))
        moves.append(move)
    return sans, boards, moves


_TOKENS = re.compile(r"[^\W_]+", re.UNICODE)


def name_tokens(name: str) -> frozenset[str]:
    """The words of a player's name, case-folded (``Carlsen, Magnus`` and ``Magnus
    Carlsen`` have the same)."""
    return frozenset(t.casefold() for t in _TOKENS.findall(name))


def same_name(pgn_name: str, player: str) -> bool:
    """The PGN's name is the player's: the same words in any order."""
    words = name_tokens(pgn_name)
    return bool(words) and words == name_tokens(player)


def names_agree(pgn_name: str, player: str) -> bool:
    """The PGN's name does not contradict the player's: none given, or a word of at
    least two letters in common (``Carlsen, M.`` agrees with ``Magnus Carlsen``)."""
    words = {w for w in name_tokens(pgn_name) if len(w) > 1}
    if not words:
        return True
    return bool(words & name_tokens(player))


def pgn_time_control(text: str) -> str:
    """The tournament's time control in PGN's form (seconds: ``40/5400+30:1800+30``),
    or "" when it has none PGN can say (a delay, a fraction of a second, no text)."""
    if not text.strip():
        return ""
    try:
        control = parse_time_control(text)
    except CrosstableError:
        return ""
    parts: list[str] = []
    for period in control.periods:
        seconds = period.minutes * 60
        if period.delay_seconds or seconds.denominator != 1:
            return ""
        part = str(int(seconds))
        if period.moves is not None:
            part = f"{period.moves}/{part}"
        if period.increment_seconds:
            if Fraction(period.increment_seconds).denominator != 1:
                return ""
            part += f"+{int(period.increment_seconds)}"
        parts.append(part)
    return ":".join(parts)


#: the headers the tournament writes over a stored game's own
TOURNAMENT_HEADERS = (
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteTitle",
    "BlackTitle",
    "WhiteElo",
    "BlackElo",
    "WhiteFideId",
    "BlackFideId",
    "EventDate",
    "TimeControl",
)


def tournament_game(
    headers: Sequence[tuple[str, str]], stored: str | None, comment: str = ""
) -> str:
    """One game of the tournament's PGN: ``headers`` (the tournament's, in order; an empty
    value leaves the header out, or keeps the stored game's) over the stored game's own,
    its moves when it has some, else ``comment`` (why it has none, e.g. a forfeit)."""
    game: Any = None
    if stored:
        game = chess.pgn.read_game(io.StringIO(stored))
    if game is None:
        game = chess.pgn.Game()
    own = dict(game.headers)
    given = {name: value for name, value in headers}
    game.headers.clear()
    for name in TOURNAMENT_HEADERS:
        value = given.get(name, "")
        if value:
            game.headers[name] = value
        elif name in _ROSTER_DEFAULTS:
            game.headers[name] = own.get(name, _ROSTER_DEFAULTS[name])
        elif own.get(name):
            game.headers[name] = own[name]
    for name, value in own.items():
        if name not in TOURNAMENT_HEADERS:
            game.headers[name] = value
    if comment and not game.variations:
        game.comment = comment
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    text: str = game.accept(exporter)
    return text
