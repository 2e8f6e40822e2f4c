"""Which table a round robin is played on: FIDE's Berger tables (the default), the
circle method or US Chess's Crenshaw-Berger tables, as the organiser chose it in the
regulations' ``schedule`` setting.

The choice is kept in the regulations' details (``{"schedule": "circle"}``), read here
as a :class:`ScheduleKind`, and stated in a TRF export as one ``###`` comment
(``### Schedule: circle``) that an import and the checker read back.

>>> schedule_kind({"schedule": " Circle "})
<ScheduleKind.CIRCLE: 'circle'>
>>> schedule_kind({})
<ScheduleKind.BERGER: 'berger'>
>>> [r.boards for r in round_robin_table(ScheduleKind.CIRCLE, 4).rounds][0]
((1, 4), (3, 2))
>>> schedule_comment(ScheduleKind.CIRCLE), schedule_from_comments([" Schedule: circle"])
(' Schedule: circle', <ScheduleKind.CIRCLE: 'circle'>)
>>> schedule_details(schedule_header([" Schedule: circle"]))
{'schedule': 'circle'}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from crosstable.core.errors import RuleError
from crosstable.core.schedule.crenshaw import crenshaw_fits, crenshaw_schedule
from crosstable.core.schedule.cycles import berger_schedule, circle_schedule
from crosstable.core.schedule.types import Schedule
from crosstable.core.system_settings import SettingError

__all__ = [
    "SCHEDULE_HEADER",
    "SCHEDULE_KEY",
    "ScheduleKind",
    "check_schedule_fits",
    "round_robin_table",
    "schedule_comment",
    "schedule_details",
    "schedule_from_comments",
    "schedule_header",
    "schedule_kind",
]

#: the regulations' detail that names the table
SCHEDULE_KEY = "schedule"
#: what starts the TRF's ``###`` comment stating the table (after the ``###``)
_COMMENT = "Schedule:"
#: the key that carries the comment's statement in a read TRF's headers (no record has it)
SCHEDULE_HEADER = "###schedule"


class ScheduleKind(StrEnum):
    """A round robin's table: FIDE Berger (C.05 Annex 1), the circle method or
    US Chess's Crenshaw-Berger tables."""

    BERGER = "berger"
    CIRCLE = "circle"
    CRENSHAW = "crenshaw"

    @property
    def label(self) -> str:
        """How the pages and prints name it."""
        return _LABELS[self]


_LABELS = {
    ScheduleKind.BERGER: "FIDE Berger tables",
    ScheduleKind.CIRCLE: "circle method",
    ScheduleKind.CRENSHAW: "Crenshaw-Berger tables",
}


def schedule_kind(details: Mapping[str, Any] | None) -> ScheduleKind:
    """The table the regulations' details choose (Berger when they say nothing);
    a :class:`SettingError` naming the setting for anything else."""
    text = str((details or {}).get(SCHEDULE_KEY) or "").strip().lower()
    if not text:
        return ScheduleKind.BERGER
    try:
        return ScheduleKind(text)
    except ValueError:
        raise SettingError(
            "schedule {schedule}: use berger, circle or crenshaw",
            setting=SCHEDULE_KEY,
            given=text,
            why="use berger, circle or crenshaw",
            schedule=repr(text),
        ) from None


def check_schedule_fits(kind: ScheduleKind, players: int) -> None:
    """Refuse a table that cannot seat the field: each needs 3 players or more, and the
    Crenshaw-Berger tables are not published for 5 or 6 players."""
    if kind is ScheduleKind.CRENSHAW and players >= 3 and not crenshaw_fits(players):
        raise RuleError(
            "the Crenshaw-Berger table for {players} players is not published: choose the "
            "FIDE Berger tables or the circle method",
            players=players,
        )
    if players < 3 and kind is ScheduleKind.CRENSHAW:
        raise RuleError(
            "the Crenshaw-Berger tables need at least 3 players, not {players}", players=players
        )
    if players < 3 and kind is ScheduleKind.CIRCLE:
        raise RuleError(
            "the circle method needs at least 3 players, not {players}", players=players
        )
    if players < 3:
        raise RuleError("the Berger tables need at least 3 players, not {players}", players=players)


def round_robin_table(
    kind: ScheduleKind, players: int, cycles: int = 1, *, swap_last_rounds: bool = True
) -> Schedule:
    """The whole schedule of ``players`` on the chosen table, ``cycles`` times (the
    second cycle with colours reversed, the last two rounds of the first exchanged)."""
    check_schedule_fits(kind, players)
    return _BUILDERS[kind](players, cycles, swap_last_rounds=swap_last_rounds)


_BUILDERS = {
    ScheduleKind.BERGER: berger_schedule,
    ScheduleKind.CIRCLE: circle_schedule,
    ScheduleKind.CRENSHAW: crenshaw_schedule,
}


def schedule_comment(kind: ScheduleKind) -> str:
    """The text of the TRF's ``###`` comment stating the table (after the ``###``)."""
    return f" {_COMMENT} {kind.value}"


def schedule_from_comments(texts: Iterable[str]) -> ScheduleKind | None:
    """The table a TRF's ``###`` comments state (None: none states one; an unknown
    word is None too, and the file is then read as Berger)."""
    for text in texts:
        head, _, rest = text.strip().partition(":")
        if f"{head}:".lower() == _COMMENT.lower():
            try:
                return ScheduleKind(rest.strip().lower())
            except ValueError:
                return None
    return None


def schedule_header(comments: Iterable[str]) -> dict[str, str]:
    """A read TRF's statement of its table, as an entry of its headers ({} when the
    comments state none): what an import hands the service with the header records."""
    kind = schedule_from_comments(comments)
    return {} if kind is None else {SCHEDULE_HEADER: kind.value}


def schedule_details(headers: Mapping[str, str] | None) -> dict[str, str]:
    """The regulations' details an imported TRF's stated table gives ({} for Berger,
    the default, or when nothing is stated)."""
    text = (headers or {}).get(SCHEDULE_HEADER, "")
    try:
        kind = ScheduleKind(text)
    except ValueError:
        return {}
    return {} if kind is ScheduleKind.BERGER else {SCHEDULE_KEY: kind.value}
