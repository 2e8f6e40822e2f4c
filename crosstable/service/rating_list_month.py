"""The month each imported rating list is valid for, and the check of a tournament's
ratings against the lists.

FIDE publishes its lists once a month, and the ratings of an event are those of the list
valid when it starts; for an event of more than 30 days, the list of the current month.
Each import records its list's month: the one the user gives (``YYYY-MM``), else the one
FIDE's archive names carry (``standard_dec26frl.zip``: December 2026), else the month of
the import. It is kept beside the list's rows in the small per-database settings
(``preferences``: ``rating-list-month:<file>@<import date>``), so no column is needed; a
player's list is the file and import date their row keeps.

:meth:`RatingListMonths.check` compares every registered player who has a FIDE id with
the lists: the rating in the tournament against the list's rating of the event's type,
and the list's month against the tournament's month (the month of its start date, or
the current month when it has none or lasts more than 30 days). Each difference is a
warning naming the player.

The months themselves are read in :mod:`crosstable.service.list_month`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from crosstable.core.ratings import RatingType
from crosstable.core.text import Message
from crosstable.service.errors import NotFoundError
from crosstable.service.list_month import month_key
from crosstable.service.long_event_settings import long_event
from crosstable.service.rating_lists import current_generation, rating_type_of
from crosstable.service.read_views import JsonObject
from crosstable.store.models import EntryRow, PreferenceRow, TournamentRow
from crosstable.store.rating_list_models import RatingListPlayerRow


@dataclass(frozen=True, slots=True)
class CheckedPlayer:
    """A registered player with a FIDE id, against the lists."""

    number: int
    name: str
    fide_id: int
    rating: int | None
    #: the list's rating of the event's type (None: not in the lists, or unrated there)
    listed: int | None
    #: the month of the list their row came from ("" when not in the lists)
    month: str
    found: bool

    def as_json(self) -> JsonObject:
        return {
            "number": self.number,
            "name": self.name,
            "fide_id": self.fide_id,
            "rating": self.rating,
            "listed": self.listed,
            "month": self.month or None,
            "in_lists": self.found,
        }


@dataclass(frozen=True, slots=True)
class RatingCheck:
    """A tournament's ratings against the lists (module docstring)."""

    tournament: int
    rating_type: RatingType
    #: the month whose list the ratings should come from
    month: str
    players: tuple[CheckedPlayer, ...]

    @property
    def differing(self) -> tuple[CheckedPlayer, ...]:
        return tuple(p for p in self.players if p.found and p.listed != p.rating)

    @property
    def other_month(self) -> tuple[CheckedPlayer, ...]:
        return tuple(p for p in self.players if p.found and p.month != self.month)

    @property
    def not_listed(self) -> tuple[CheckedPlayer, ...]:
        return tuple(p for p in self.players if not p.found)

    def month_warnings(self) -> list[Message]:
        """One warning per player whose list is of another month than the tournament's."""
        return [
            Message(
                "player {number} {name}: the rating list is of {month}, not of {expected} "
                "(the tournament's month)",
                number=p.number,
                name=p.name,
                month=p.month,
                expected=self.month,
            )
            for p in self.other_month
        ]

    def warnings(self) -> list[Message]:
        """The month warnings, then one per player whose rating is not the list's."""
        return self.month_warnings() + [
            Message(
                "player {number} {name}: rating {rating} in the tournament, {listed} in the list",
                number=p.number,
                name=p.name,
                rating="-" if p.rating is None else p.rating,
                listed="-" if p.listed is None else p.listed,
            )
            for p in self.differing
        ]

    def as_json(self) -> JsonObject:
        return {
            "tournament": self.tournament,
            "rating_type": self.rating_type.value,
            "month": self.month,
            "consistent": not self.differing and not self.other_month,
            "players": [p.as_json() for p in self.players],
            "warnings": [str(w) for w in self.warnings()],
        }


class RatingListMonths:
    """The lists' months over a :class:`~crosstable.service.Service`'s store and clock."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self.store = service.store

    def months(self, lists: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
        """The month of each list (file name, import date): recorded, else the import's."""
        wanted = {(name, date): month_key(name, date) for name, date in lists}
        if not wanted:
            return {}
        with self.store.reading() as session:
            rows = session.scalars(
                select(PreferenceRow).where(PreferenceRow.key.in_(list(wanted.values())))
            ).all()
        stored = {row.key: row.value for row in rows}
        return {pair: stored.get(key) or pair[1][:7] for pair, key in wanted.items()}

    def check(self, tournament_id: int) -> RatingCheck:
        """The tournament's players with a FIDE id against the current lists."""
        with self.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database", tournament=tournament_id
                )
            kind = rating_type_of(row.time_control)
            month = self.tournament_month(row)
            entries = session.scalars(
                select(EntryRow)
                .where(EntryRow.tournament_id == tournament_id)
                .order_by(EntryRow.number)
            ).all()
            ids = {
                int(e.fide_id): e
                for e in entries
                if e.fide_id.isascii() and e.fide_id.isdigit() and 0 < len(e.fide_id) <= 12
            }
            generation = current_generation(session)
            listed: dict[int, RatingListPlayerRow] = {}
            numbers = sorted(ids)
            for start in range(0, len(numbers), 500):
                listed.update(
                    (r.fide_id, r)
                    for r in session.scalars(
                        select(RatingListPlayerRow).where(
                            RatingListPlayerRow.generation == generation,
                            RatingListPlayerRow.fide_id.in_(numbers[start : start + 500]),
                        )
                    )
                )
        months = self.months({(r.list_name, r.list_date) for r in listed.values()})
        players = []
        for fide_id, entry in sorted(ids.items(), key=lambda item: item[1].number):
            found = listed.get(fide_id)
            players.append(
                CheckedPlayer(
                    number=entry.number,
                    name=entry.name,
                    fide_id=fide_id,
                    rating=entry.rating,
                    listed=None if found is None else _rating(found, kind),
                    month="" if found is None else months[(found.list_name, found.list_date)],
                    found=found is not None,
                )
            )
        return RatingCheck(tournament_id, kind, month, tuple(players))

    def tournament_month(self, row: TournamentRow) -> str:
        """The month whose list a tournament's ratings come from: its start date's, or
        the current month when it has none or lasts more than 30 days."""
        if row.start_date and not long_event(row.regulations):
            return row.start_date[:7]
        return str(self.service.clock.now().date().isoformat()[:7])


def _rating(row: RatingListPlayerRow, kind: RatingType) -> int | None:
    return {
        RatingType.STANDARD: row.standard,
        RatingType.RAPID: row.rapid,
        RatingType.BLITZ: row.blitz,
    }[kind]
