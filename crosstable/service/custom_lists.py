"""Custom rating lists: a national federation's or a club's list, each its own list.

A custom list has a name the user gives (``RUS``, ``club``) and its own id space: each
player is known by the list's own id (a national id, a club number), with name,
federation, birth year, sex, title, ratings and, when the list gives one, a FIDE id
(:mod:`crosstable.formats.custom_list` reads the CSV). A list is kept with its file,
the month it is valid for and the day it was imported; importing a list of the same
name again replaces it (the new one is written in short batches and becomes current at
once when complete, so readers never see half a list and other writes go on); a list
can be deleted.

A tournament's order of lists (:mod:`crosstable.service.rating_list_order`) names the
custom lists beside FIDE's (``custom:RUS,standard``); a look-up searches the lists in
that order, and a player registered from a custom list keeps the list and the id they
came from (``entries.rating_source``, ``RUS:12345``) and the list's rating as their
national rating (the one the rating methods NRO, FIDON and NIDOF read).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from crosstable.core.errors import InputError, RuleError
from crosstable.core.ratings import RatingType
from crosstable.formats.custom_list import CustomPlayer, folded_name, read_custom_list
from crosstable.formats.rating_list import ListReport
from crosstable.service.custom_list_ratings import list_rating
from crosstable.service.errors import ConflictError, NotFoundError
from crosstable.service.list_month import list_month
from crosstable.service.rating_list_order import (
    check_list_name,
    fide_part,
)
from crosstable.service.rating_lists import ImportReport, RatingLists
from crosstable.service.read_views import JsonObject
from crosstable.service.registration import PlayerInfo
from crosstable.service.safeguard import before_risky
from crosstable.store.custom_list_models import CustomListPlayerRow, CustomListRow

#: players written per transaction
BATCH = 2_000
#: answers to one look-up at most
MAX_FOUND = 50


@dataclass(frozen=True, slots=True)
class CustomListInfo:
    """A custom list as kept: name, file, month, import date, players."""

    name: str
    file: str
    month: str
    imported: str
    players: int

    def as_json(self) -> JsonObject:
        return {
            "name": self.name,
            "file": self.file,
            "month": self.month,
            "imported": self.imported,
            "players": self.players,
        }


@dataclass(frozen=True, slots=True)
class CustomEntry:
    """A player as a custom list has them, with the list's name."""

    list_name: str
    player_id: str
    name: str
    federation: str = ""
    sex: str = ""
    title: str = ""
    birth_year: int | None = None
    standard: int | None = None
    rapid: int | None = None
    blitz: int | None = None
    fide_id: int | None = None

    @property
    def source(self) -> str:
        """Where the player came from, as a tournament's player keeps it: ``RUS:12345``."""
        return f"{self.list_name}:{self.player_id}"

    def rating(self, kind: RatingType) -> int | None:
        """The list's rating of ``kind``; a rapid or blitz one falls back on the
        standard one (the effective rating)."""
        return list_rating(self, kind)

    def as_json(self) -> JsonObject:
        return {
            "list": self.list_name,
            "id": self.player_id,
            "source": self.source,
            "name": self.name,
            "federation": self.federation,
            "sex": self.sex,
            "title": self.title,
            "birth_year": self.birth_year,
            "standard": self.standard,
            "rapid": self.rapid,
            "blitz": self.blitz,
            "fide_id": self.fide_id,
        }


class CustomLists:
    """The custom-list use cases over a :class:`~crosstable.service.Service`."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self.store = service.store

    # -- import, list, delete ----------------------------------------------------------

    def import_file(
        self,
        path: Path,
        name: str,
        *,
        columns: dict[str, str] | None = None,
        month: str | None = None,
    ) -> ImportReport:
        """Read the CSV list in ``path`` as the custom list ``name`` (replacing the list
        of that name when complete; a refused file changes nothing)."""
        name = check_list_name(name)
        today = self.service.clock.now().date().isoformat()
        valid_for = list_month(path.name[:200], today, month)
        report = ListReport(str(path))
        players = read_custom_list(path, report, columns)
        before_risky(self.service.safeguard, "before-rating-list")
        with self.store.transaction() as session:
            row = CustomListRow(
                name=name,
                state="importing",
                file=path.name[:200],
                month=valid_for,
                imported=today,
                players=0,
            )
            session.add(row)
            session.flush()
            new = row.id
        try:
            count = self._write(new, players, report.source)
            old = self._flip(name, new, count)
        except BaseException:
            self._drop([new])
            raise
        self._drop(old)
        return ImportReport(
            source=report.source,
            format="csv",
            players=report.players,
            skipped=report.skipped,
            problems=tuple(str(p) for p in report.problems[:20]),
            total=count,
            errors=tuple(report.problems[:20]),
            month=valid_for,
        )

    def _current_ids(self, session: Any, name: str) -> list[int]:
        return list(
            session.scalars(
                select(CustomListRow.id).where(
                    CustomListRow.name == name, CustomListRow.state == "current"
                )
            )
        )

    def _flip(self, name: str, new: int, count: int) -> list[int]:
        """Make the list row ``new`` the current list ``name`` in one transaction; the
        rows it replaces. Two imports of one name flipping at once (PostgreSQL reads each
        statement's own snapshot) would leave two current lists: the later is refused."""
        with self.store.transaction() as session:
            old = self._current_ids(session, name)
            session.execute(
                update(CustomListRow).where(CustomListRow.id.in_(old)).values(state="old")
            )
            session.execute(
                update(CustomListRow)
                .where(CustomListRow.id == new)
                .values(state="current", players=count)
            )
            if len(self._current_ids(session, name)) != 1:
                raise ConflictError(
                    "another import of the custom list {name} finished meanwhile; "
                    "import this one again",
                    name=name,
                )
        return old

    def _write(self, list_row: int, players: Iterable[CustomPlayer], source: str) -> int:
        count = 0
        stream = iter(players)
        while batch := list(itertools.islice(stream, BATCH)):  # parsed between the batches
            try:
                self._write_batch(list_row, batch)
            except IntegrityError:  # an id that an earlier batch wrote: name it
                ids = [p.list_id for p in batch]
                with self.store.reading() as session:
                    known = set(
                        session.scalars(
                            select(CustomListPlayerRow.player_id).where(
                                CustomListPlayerRow.list == list_row,
                                CustomListPlayerRow.player_id.in_(ids),
                            )
                        )
                    )
                twice = next((i for i in ids if i in known), ids[0])
                raise InputError(
                    "list id {id} is in the list twice: a list names each player once",
                    source=source,
                    id=twice,
                ) from None
            count += len(batch)
        return count

    def _write_batch(self, list_row: int, batch: list[CustomPlayer]) -> None:
        with self.store.transaction() as session:
            session.execute(
                insert(CustomListPlayerRow),
                [
                    {
                        "list": list_row,
                        "player_id": p.list_id,
                        "name": p.name,
                        "folded": folded_name(p.name),
                        "federation": p.federation,
                        "sex": p.sex,
                        "title": p.title,
                        "birth_year": p.birth_year,
                        "standard": p.standard,
                        "rapid": p.rapid,
                        "blitz": p.blitz,
                        "fide_id": p.fide_id,
                    }
                    for p in batch
                ],
            )

    def _drop(self, rows: Sequence[int]) -> None:
        for list_row in rows:
            with self.store.transaction() as session:
                session.execute(
                    delete(CustomListPlayerRow).where(CustomListPlayerRow.list == list_row)
                )
                session.execute(delete(CustomListRow).where(CustomListRow.id == list_row))

    def lists(self) -> list[CustomListInfo]:
        """The custom lists kept, by name."""
        with self.store.reading() as session:
            rows = session.scalars(
                select(CustomListRow)
                .where(CustomListRow.state == "current")
                .order_by(CustomListRow.name)
            ).all()
            return [CustomListInfo(r.name, r.file, r.month, r.imported, r.players) for r in rows]

    def names(self) -> tuple[str, ...]:
        return tuple(info.name for info in self.lists())

    def info(self, name: str) -> CustomListInfo:
        """The custom list ``name``; a :class:`NotFoundError` when there is none."""
        with self.store.reading() as session:
            row = self._current(session, name)
            return CustomListInfo(row.name, row.file, row.month, row.imported, row.players)

    def delete(self, name: str) -> CustomListInfo:
        """Delete the custom list ``name`` (a tournament's players keep what they have)."""
        with self.store.reading() as session:
            row = self._current(session, name)
            info = CustomListInfo(row.name, row.file, row.month, row.imported, row.players)
            key = row.id
        with self.store.transaction() as session:
            session.execute(
                update(CustomListRow).where(CustomListRow.id == key).values(state="old")
            )
        self._drop([key])
        return info

    def _current(self, session: Any, name: str) -> CustomListRow:
        row = session.scalars(
            select(CustomListRow).where(
                CustomListRow.name == name.strip(), CustomListRow.state == "current"
            )
        ).first()
        if row is None:
            raise NotFoundError("there is no custom rating list {name}", name=name.strip()[:40])
        return row  # type: ignore[no-any-return]

    # -- look-up -----------------------------------------------------------------------

    def find(
        self, text: str, *, lists: Sequence[str] | None = None, limit: int = 10
    ) -> list[CustomEntry]:
        """Players of ``lists`` (all, by name, when None), list by list in that order,
        whose list id or FIDE id is ``text`` or whose name starts with it."""
        query = " ".join(text.split())
        limit = max(1, min(limit, MAX_FOUND))
        if not query:
            return []
        found: list[CustomEntry] = []
        with self.store.reading() as session:
            rows = {
                r.name: r
                for r in session.scalars(
                    select(CustomListRow).where(CustomListRow.state == "current")
                )
            }
            names = sorted(rows) if lists is None else [n for n in lists if n in rows]
            prefix = folded_name(query)
            for name in names:
                if len(found) >= limit:
                    break
                key = rows[name].id
                by_id = CustomListPlayerRow.player_id == query[:20]
                if query.isascii() and query.isdigit() and len(query) <= 12:
                    by_id = by_id | (CustomListPlayerRow.fide_id == int(query))
                column = CustomListPlayerRow.folded
                if self.store.dialect == "postgresql":  # byte-wise, whatever the collation
                    above = column.op("~>=~", is_comparison=True)(prefix)
                    by_name = above & column.op("~<~", is_comparison=True)(prefix + "\U0010ffff")
                else:
                    by_name = (column >= prefix) & (column < prefix + "\U0010ffff")
                chosen = session.scalars(
                    select(CustomListPlayerRow)
                    .where(CustomListPlayerRow.list == key, by_id | by_name)
                    .order_by(column, CustomListPlayerRow.player_id)
                    .limit(limit - len(found))
                ).all()
                found.extend(_entry(name, row) for row in chosen)
        return found

    def player(self, name: str, player_id: str) -> CustomEntry:
        """The player ``player_id`` of the custom list ``name``."""
        with self.store.reading() as session:
            key = self._current(session, name).id
            row = session.get(CustomListPlayerRow, (key, player_id.strip()[:20]))
            if row is None:
                raise NotFoundError(
                    "{id} is not in the custom rating list {name}",
                    id=player_id.strip()[:20],
                    name=name.strip(),
                )
            return _entry(name.strip(), row)

    # -- a tournament's players --------------------------------------------------------

    def tournament_lists(self, tournament_id: int) -> tuple[str, ...]:
        """The custom lists of the tournament's order, in order (its own order, else
        every custom list after FIDE's)."""
        return RatingLists(self.service).custom_order(tournament_id)

    def player_info(self, tournament_id: int, name: str, player_id: str) -> PlayerInfo:
        """The custom list's player to register in the tournament: name, title,
        federation, birth year, sex, FIDE id; the list's rating of the event's type as
        the national rating; the FIDE rating from FIDE's lists (along the tournament's
        order) when the list gives a FIDE id that is there; the list and id kept."""
        entry = self.player(name, player_id)
        ratings = RatingLists(self.service)
        kind = ratings.rating_type(tournament_id)
        fide_rating: int | None = None
        if entry.fide_id is not None:
            order = fide_part(ratings.list_order(tournament_id)) or (kind,)
            try:
                fide_rating = ratings.player(entry.fide_id).rating_in(order)[0]
            except NotFoundError:
                fide_rating = None
        return PlayerInfo(
            name=entry.name,
            rating=fide_rating,
            title=entry.title,
            federation=entry.federation,
            fide_id="" if entry.fide_id is None else str(entry.fide_id),
            birth_date="" if entry.birth_year is None else str(entry.birth_year),
            sex=entry.sex,
            national_rating=entry.rating(kind),
            rating_source=entry.source,
        )

    def add_player(
        self, tournament_id: int, name: str, player_id: str, *, actor: str = "", club: str = ""
    ) -> Any:
        """Register the custom list's player (before the start, as any registration)."""
        info = self.player_info(tournament_id, name, player_id)
        if club:
            info = replace(info, club=club)
        return self.service.add_player(tournament_id, info, actor=actor)


def parse_source(text: str) -> tuple[str, str]:
    """``LIST:ID`` as (list, id); a :class:`RuleError` otherwise.

    >>> parse_source("RUS:4101")
    ('RUS', '4101')
    """
    name, sep, player_id = text.strip().partition(":")
    if not sep or not name.strip() or not player_id.strip():
        raise RuleError(
            "player {text}: write the custom list and the id in it as LIST:ID, e.g. RUS:4101",
            text=repr(text[:60]),
        )
    return name.strip(), player_id.strip()


def _entry(name: str, row: CustomListPlayerRow) -> CustomEntry:
    return CustomEntry(
        list_name=name,
        player_id=row.player_id,
        name=row.name,
        federation=row.federation,
        sex=row.sex,
        title=row.title,
        birth_year=row.birth_year,
        standard=row.standard,
        rapid=row.rapid,
        blitz=row.blitz,
        fide_id=row.fide_id,
    )
