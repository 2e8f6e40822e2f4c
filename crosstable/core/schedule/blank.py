"""What a blank paper table holds, before any drawing: the FIDE Berger tables of 4 to 16
players as an arbiter prints them to pin on the wall, and the size of a blank crosstable.

A Berger sheet is the table of one field size: every round's pairs, the left number
playing White. An odd field uses the table of the next even size, and the pair with the
highest number of that table is the free round, kept in its place (board 1) with the
number left out (``None``), so the sheet reads as FIDE prints it (``1 — bye``):

>>> sheet = berger_sheet(5)
>>> sheet.table, sheet.rounds[0]
(6, BlankRound(number=1, pairs=((1, None), (2, 5), (3, 4))))
>>> [r.bye for r in sheet.rounds]
[1, 4, 2, 5, 3]
>>> len(berger_sheets()), berger_sheets()[0].players, berger_sheets()[-1].players
(13, 4, 16)
"""

from __future__ import annotations

from dataclasses import dataclass

from crosstable.core.errors import RuleError
from crosstable.core.schedule.berger import berger_table, table_size

__all__ = [
    "BERGER_SIZES",
    "CROSSTABLE_SIZES",
    "MAX_TIEBREAKS",
    "BergerSheet",
    "BlankRound",
    "berger_sheet",
    "berger_sheets",
    "check_blank_crosstable",
    "whole_number",
]

#: the field sizes a blank Berger table is printed for (the sizes FIDE prints, 3/4 … 15/16)
BERGER_SIZES = range(4, 17)
#: the field sizes of a blank crosstable
CROSSTABLE_SIZES = range(2, 101)
#: at most this many tie-break columns on a blank crosstable
MAX_TIEBREAKS = 6


@dataclass(frozen=True, slots=True)
class BlankRound:
    """One round of a blank Berger table: ``(white, black)`` per board, board 1 first;
    ``None`` stands for the free round of an odd field."""

    number: int
    pairs: tuple[tuple[int | None, int | None], ...]

    @property
    def bye(self) -> int | None:
        """The player with the free round (None in an even field)."""
        for white, black in self.pairs:
            if white is None:
                return black
            if black is None:
                return white
        return None

    def to_json(self) -> dict[str, object]:
        return {"round": self.number, "pairs": [list(p) for p in self.pairs], "bye": self.bye}


@dataclass(frozen=True, slots=True)
class BergerSheet:
    """The blank Berger table of ``players``: ``table`` is the even table used."""

    players: int
    table: int
    rounds: tuple[BlankRound, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "table": self.table,
            "rounds": [r.to_json() for r in self.rounds],
        }


def _check_berger(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise RuleError(
            "the number of players must be a whole number, not {players}", players=repr(players)
        )
    if players not in BERGER_SIZES:
        raise RuleError(
            "blank Berger tables are printed for {low} to {high} players, not {players}",
            low=BERGER_SIZES.start,
            high=BERGER_SIZES.stop - 1,
            players=players,
        )
    return players


def berger_sheet(players: int) -> BergerSheet:
    """The blank Berger table of ``players`` (4 to 16): the core's FIDE Berger table of the
    next even size, its highest number shown as the free round when ``players`` is odd."""
    _check_berger(players)
    size = table_size(players)
    ghost = size if size != players else None
    rounds = tuple(
        BlankRound(
            r.number,
            tuple((None if w == ghost else w, None if b == ghost else b) for w, b in r.boards),
        )
        for r in berger_table(size).rounds
    )
    return BergerSheet(players, size, rounds)


def berger_sheets() -> tuple[BergerSheet, ...]:
    """Every blank Berger table, 4 to 16 players, one per size."""
    return tuple(berger_sheet(n) for n in BERGER_SIZES)


def check_blank_crosstable(players: object, tiebreaks: object = 2) -> tuple[int, int]:
    """``(players, tiebreaks)`` of a blank crosstable, or a :class:`RuleError` naming the bad
    value: 2 to 100 players, 0 to :data:`MAX_TIEBREAKS` tie-break columns.

    >>> check_blank_crosstable(12, 3)
    (12, 3)
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise RuleError(
            "the number of players must be a whole number, not {players}", players=repr(players)
        )
    if isinstance(tiebreaks, bool) or not isinstance(tiebreaks, int):
        raise RuleError(
            "the number of tie-breaks must be a whole number, not {tiebreaks}",
            tiebreaks=repr(tiebreaks),
        )
    if players not in CROSSTABLE_SIZES:
        raise RuleError(
            "a blank crosstable is printed for {low} to {high} players, not {players}",
            low=CROSSTABLE_SIZES.start,
            high=CROSSTABLE_SIZES.stop - 1,
            players=players,
        )
    if not 0 <= tiebreaks <= MAX_TIEBREAKS:
        raise RuleError(
            "a blank crosstable has 0 to {high} tie-break columns, not {tiebreaks}",
            high=MAX_TIEBREAKS,
            tiebreaks=tiebreaks,
        )
    return players, tiebreaks


def whole_number(text: str, what: str) -> int:
    """A number typed on a command line or in an address, for the checks above: ``text``
    as an int, else a RuleError naming ``what`` (``players`` or ``tie-breaks``).

    >>> whole_number(" 12 ", "players")
    12
    """
    stripped = text.strip()
    body = stripped[1:] if stripped[:1] in "+-" else stripped
    if not body.isdecimal() or len(body) > 9:
        if what == "tie-breaks":
            raise RuleError(
                "the number of tie-breaks must be a whole number, not {tiebreaks}",
                tiebreaks=repr(text),
            )
        raise RuleError(
            "the number of players must be a whole number, not {players}", players=repr(text)
        )
    return int(stripped)
