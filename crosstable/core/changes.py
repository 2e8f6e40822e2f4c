"""Typed change records: what one recorded event did to a tournament, read once.

Every committed change is an event of the history with the rows it changed
(:class:`~crosstable.core.row_changes.RowChange` records, stored as ``{"table", "key",
"before", "after"}`` each). :func:`read_event` is the one reading of those row changes
for everything kept in memory: the write side's live table, the pages' read model and
the live pages all take the same records.
A change of game results becomes one record per game (recorded, corrected,
cleared, or only noted: reports, the reason, the moves); anything else becomes
one :class:`Reload` record, whose subclass names what happened (a pairing
published, a player added or withdrawn, an undo, a revert…): whoever keeps a
copy reads the tournament again.

:func:`apply_record` is the one way a game record changes the kept state of a
game; it answers the game's step (its result before and after), which the
standings and the tables take up.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass

from crosstable.core.row_changes import ColumnValue, RowChange

#: the game columns a game record may change (the moves change no standing, only
#: the row's version)
GAME_COLUMNS = frozenset({"result", "reason", "white_report", "black_report", "moves"})
REPORTS = ("white_report", "black_report")


@dataclass(slots=True)
class GameRow:
    """One game's row as a kept copy holds it (starting numbers, TRF result code)."""

    white: int
    black: int
    result: str | None  # "10", "==", "+-"…; None: no result yet
    reason: str
    version: int
    white_report: str | None = None
    black_report: str | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A change of one game's row: its reason and reports when they changed."""

    round: int
    board: int
    reason: str | None = None  # None: unchanged
    #: (column, new code) of the reports that changed
    reports: tuple[tuple[str, str | None], ...] = ()

    @property
    def spot(self) -> tuple[int, int]:
        return (self.round, self.board)


@dataclass(frozen=True, slots=True)
class GameNoted(GameRecord):
    """Only a report, the reason or the moves changed: no standing moves."""


@dataclass(frozen=True, slots=True)
class ResultRecorded(GameRecord):
    """A game without a result got one."""

    result: str = ""


@dataclass(frozen=True, slots=True)
class ResultCorrected(GameRecord):
    """A game's result became another."""

    result: str = ""


@dataclass(frozen=True, slots=True)
class ResultCleared(GameRecord):
    """A game's result was taken away (an undo, a revert, a rejection)."""


@dataclass(frozen=True, slots=True)
class Reload:
    """A change a kept copy does not apply: it reads the tournament again."""

    kind: str


@dataclass(frozen=True, slots=True)
class PairingPublished(Reload):
    pass


@dataclass(frozen=True, slots=True)
class PlayerAdded(Reload):
    pass


@dataclass(frozen=True, slots=True)
class PlayerWithdrawn(Reload):
    pass


@dataclass(frozen=True, slots=True)
class Undone(Reload):
    pass


@dataclass(frozen=True, slots=True)
class Reverted(Reload):
    pass


ChangeRecord = GameRecord | Reload

_RELOADS: dict[str, type[Reload]] = {
    "draw": PairingPublished,
    "round": PairingPublished,
    "pairing": PairingPublished,
    "player-add": PlayerAdded,
    "withdraw": PlayerWithdrawn,
    "withdrawal": PlayerWithdrawn,
    "player-remove": PlayerWithdrawn,
    "undo": Undone,
    "revert": Reverted,
}


def reload_of(kind: str) -> Reload:
    """The reload record of an event of ``kind`` that is not game results alone.

    >>> reload_of("undo"), reload_of("regulations")
    (Undone(kind='undo'), Reload(kind='regulations'))
    """
    return _RELOADS.get(kind, Reload)(kind)


def read_event(kind: str, changes: Sequence[RowChange]) -> tuple[ChangeRecord, ...]:
    """The records of one event: one per game when every row change is a game's result,
    reason, reports or moves; else one :class:`Reload`.

    >>> change = RowChange("games", {"round": 2, "board": 1}, {"result": None}, {"result": "10"})
    >>> read_event("result", [change])
    (ResultRecorded(round=2, board=1, reason=None, reports=(), result='10'),)
    >>> read_event("player-add", [RowChange("entries", {"number": 3}, None, {})])
    (PlayerAdded(kind='player-add'),)
    """
    try:
        records = tuple(_game_record(change) for change in changes)
    except (LookupError, TypeError, ValueError):
        return (reload_of(kind),)
    return records if records else (reload_of(kind),)


def _game_record(change: RowChange) -> GameRecord:
    before, after, spot = change.before, change.after, change.game
    if spot is None or before is None or after is None or not set(after) <= GAME_COLUMNS:
        raise LookupError("not a game's result")
    round_number, board = spot
    reason = after.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise TypeError("reason")
    reports = tuple((column, _code(after[column])) for column in REPORTS if column in after)
    if "result" not in after:
        return GameNoted(round_number, board, reason, reports)
    result, was = _code(after["result"]), _code(before.get("result"))
    if result is None:
        return ResultCleared(round_number, board, reason, reports)
    if was is None:
        return ResultRecorded(round_number, board, reason, reports, result)
    return ResultCorrected(round_number, board, reason, reports, result)


def _code(value: ColumnValue | None) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise TypeError("not a code")


@dataclass(frozen=True, slots=True)
class GameStep:
    """What a game record did to a game's result (the standings take it up)."""

    round: int
    white: int
    black: int
    before: str | None
    after: str | None


def apply_record(games: MutableMapping[tuple[int, int], GameRow], record: GameRecord) -> GameStep:
    """Apply a game record to the kept rows (the row's version goes up by one, as the
    store's does with each row change); the game's step. ``KeyError``: no such game
    (the copy reloads)."""
    row = games[record.spot]
    row.version += 1
    if record.reason is not None:
        row.reason = record.reason
    for column, code in record.reports:
        if column == "white_report":
            row.white_report = code
        else:
            row.black_report = code
    before = row.result
    if isinstance(record, ResultRecorded | ResultCorrected):
        row.result = record.result
    elif isinstance(record, ResultCleared):
        row.result = None
    return GameStep(record.round, row.white, row.black, before, row.result)
