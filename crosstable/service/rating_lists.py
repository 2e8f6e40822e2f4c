"""Rating lists: import a list, look players up, fill and update entries.

* :meth:`RatingLists.import_file` reads a FIDE TXT/XML list or a national CSV
  (:mod:`crosstable.formats.rating_list`) and upserts every player (a FIDE id already
  there gets the newer list's data; players not in the new list stay), as a new
  generation written in short batches outside of which the file is parsed, made
  current at once when complete (:mod:`crosstable.service.rating_list_import`): other
  writes go on meanwhile, readers see the old lists until the new one is complete, and
  a refused file changes nothing.
* :meth:`RatingLists.find` answers a FIDE id or the start of a name (case, accents and
  spacing do not matter: "carlsen, m" finds "Carlsen, Magnus").
* :meth:`RatingLists.add_player` registers a player by FIDE id with the name, title,
  federation, birth year, sex and the rating of the event's type from the list.
* :meth:`RatingLists.update_ratings` sets every registered player's rating to the
  list's, before the start only: one recorded change (``ratings-update``), undone as
  every other change is.

The event's rating type follows its time control (FIDE B.02 1.1 and R&B 1.1, as
:func:`crosstable.core.ratings.rating_type_for` reads it); without one it is standard.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy import text as sql

from crosstable.core.duration import parse_time_control
from crosstable.core.errors import CrosstableError, RuleError
from crosstable.core.ratings import RatingType, rating_type_for
from crosstable.core.text import Message
from crosstable.formats.rating_list import ListReport, fold, read_rating_list
from crosstable.service.custom_list_ratings import (
    custom_names,
    national_by_fide_id,
    national_ratings,
)
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import Change, Done, Unchanged
from crosstable.service.list_month import list_month, month_key
from crosstable.service.rating_list_import import BATCH, GenerationWriter
from crosstable.service.rating_list_order import (
    ORDER_KEY,
    CustomList,
    ListOrder,
    default_order,
    order_of,
    order_text,
    parse_order,
    rating_along,
)
from crosstable.service.read_views import JsonObject
from crosstable.service.registration import PlayerInfo, clear_draw, rating_order
from crosstable.service.safeguard import before_risky
from crosstable.service.unit import Tx
from crosstable.store.models import EntryRow, PreferenceRow, TournamentRow
from crosstable.store.rating_list_models import RatingListImportRow, RatingListPlayerRow

#: at most this many answers to one look-up
MAX_FOUND = 50
#: the lists a rating is taken from: an order of lists, or a type (its default order)
Lists = ListOrder | RatingType


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import did: players read and stored, lines skipped (the first problems)."""

    source: str
    format: str
    players: int
    skipped: int
    problems: tuple[str, ...] = ()
    #: players in the store after the import (every list imported so far)
    total: int = 0
    #: the first problems as errors (a page translates them; ``problems`` is their text)
    errors: tuple[CrosstableError, ...] = ()
    #: the short write transactions the import ran, and the longest of each step (s)
    batches: int = 0
    longest: tuple[tuple[str, float], ...] = ()
    #: the month the list is valid for (YYYY-MM)
    month: str = ""


@dataclass(frozen=True, slots=True)
class ImportedList:
    """A list file imported so far: its name, the day it was imported, its players
    (those whose latest data came from it)."""

    name: str
    date: str
    players: int
    #: the month the list is valid for (YYYY-MM)
    month: str = ""


@dataclass(frozen=True, slots=True)
class ListEntry:
    """A player as the stored rating list has them."""

    fide_id: int
    name: str
    federation: str
    sex: str
    title: str
    birth_year: int | None
    standard: int | None
    rapid: int | None
    blitz: int | None
    list_name: str = ""
    list_date: str = ""

    def rating(self, kind: RatingType) -> int | None:
        return {
            RatingType.STANDARD: self.standard,
            RatingType.RAPID: self.rapid,
            RatingType.BLITZ: self.blitz,
        }[kind]

    def rating_in(self, order: Lists) -> tuple[int | None, RatingType | None]:
        """The first rating along ``order`` (a type: that type's default order) and its list."""
        chosen = default_order(order) if isinstance(order, RatingType) else order
        return rating_along({kind: self.rating(kind) for kind in RatingType}, chosen)

    def as_json(self) -> JsonObject:
        return {
            "fide_id": self.fide_id,
            "name": self.name,
            "federation": self.federation,
            "sex": self.sex,
            "title": self.title,
            "birth_year": self.birth_year,
            "standard": self.standard,
            "rapid": self.rapid,
            "blitz": self.blitz,
            "list": self.list_name,
            "imported": self.list_date,
        }


class RatingLists:
    """The rating-list use cases over a :class:`~crosstable.service.Service`'s store,
    clock and change frame (so an update is recorded like every other change)."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self.store = service.store

    # -- import ------------------------------------------------------------------------

    def import_file(
        self, path: Path, *, kind: str | None = None, month: str | None = None
    ) -> ImportReport:
        """Read ``path`` and upsert its players (all or, when it is refused, none);
        ``month`` (YYYY-MM) is the month the list is valid for, else the one its name
        carries, else the month of the import (:mod:`crosstable.service.list_month`)."""
        report = ListReport(str(path))
        today = self.service.clock.now().date().isoformat()
        valid_for = list_month(path.name[:200], today, month)
        rows = (
            (
                p.fide_id,
                p.name,
                fold(p.name)[:200],
                p.federation,
                p.sex,
                p.title,
                p.birth_year,
                p.standard,
                p.rapid,
                p.blitz,
                path.name[:200],
                today,
            )
            for p in read_rating_list(path, report, kind=kind)
        )
        before_risky(self.service.safeguard, "before-rating-list")
        writer = GenerationWriter(self.store, self.service.clock.now)
        self._keep_month(path.name[:200], today, valid_for)
        writer.begin(path.name)
        try:
            writer.write(rows)  # parsed between the batches, outside any transaction
            total = writer.complete()
        except BaseException:
            writer.abandon()
            raise
        return ImportReport(
            source=report.source,
            format=report.format,
            players=report.players,
            skipped=report.skipped,
            problems=tuple(str(p) for p in report.problems[:20]),
            total=total,
            errors=tuple(report.problems[:20]),
            batches=writer.batches,
            longest=tuple((step, round(took, 3)) for step, took in writer.longest.items()),
            month=valid_for,
        )

    def _keep_month(self, name: str, imported: str, month: str) -> None:
        key = month_key(name, imported)
        with self.store.transaction() as session:
            row = session.get(PreferenceRow, key)
            if row is None:
                session.add(PreferenceRow(key=key, value=month))
            else:
                row.value = month

    def imported(self) -> list[ImportedList]:
        """The list files imported so far, the latest first."""
        name, date = RatingListPlayerRow.list_name, RatingListPlayerRow.list_date
        with self.store.reading() as session:
            rows = session.execute(
                select(name, date, func.count())
                .where(RatingListPlayerRow.generation == current_generation(session))
                .group_by(name, date)
                .order_by(date.desc(), name)
            ).all()
            keys = {(row[0], row[1]): month_key(row[0], row[1]) for row in rows}
            months = {
                pref.key: pref.value
                for pref in session.scalars(
                    select(PreferenceRow).where(PreferenceRow.key.in_(list(keys.values())))
                )
            }
        return [
            ImportedList(row[0], row[1], row[2], months.get(keys[(row[0], row[1])], row[1][:7]))
            for row in rows
        ]

    # -- look-up -----------------------------------------------------------------------

    def find(self, text: str, *, limit: int = 10) -> list[ListEntry]:
        """Players whose FIDE id is ``text`` or whose name starts with it (by name)."""
        query = " ".join(text.split())
        limit = max(1, min(limit, MAX_FOUND))
        if not query:
            return []
        with self.store.reading() as session:
            generation = current_generation(session)
            if query.isascii() and query.isdigit():
                found_one = (
                    session.get(RatingListPlayerRow, (generation, int(query)))
                    if len(query) <= 12
                    else None
                )
                return [] if found_one is None else [_entry(found_one)]
            prefix = fold(query)[:200]
            column = RatingListPlayerRow.folded
            condition: Any
            order: Any = column
            if self.store.dialect == "postgresql":
                # the operators of the text_pattern_ops index: a byte-wise range (whatever
                # the database's collation) that a prepared plan still reads from the
                # index, unlike LIKE :param, and the index's own order (USING ~<~), so the
                # first names come without sorting every match (71 ms -> 0.8 ms for "iva"
                # among 300 000 players: docs/benchmarks.md)
                # (is_comparison: the operators give a boolean that & joins)
                above = column.op("~>=~", is_comparison=True)(prefix)
                condition = above & column.op("~<~", is_comparison=True)(prefix + "\U0010ffff")
                order = sql("rating_list_players.folded USING ~<~")
            else:  # BINARY collation: the range is exactly the names with this prefix
                condition = (column >= prefix) & (column < prefix + "\U0010ffff")
            found = session.scalars(
                select(RatingListPlayerRow)
                .where(RatingListPlayerRow.generation == generation, condition)
                .order_by(order, RatingListPlayerRow.fide_id)
                .limit(limit)
            ).all()
            return [_entry(row) for row in found]

    def player(self, fide_id: int) -> ListEntry:
        with self.store.reading() as session:
            row = (
                session.get(RatingListPlayerRow, (current_generation(session), fide_id))
                if 0 < fide_id < 10**12
                else None
            )
            if row is None:
                raise NotFoundError(
                    "FIDE id {fide_id} is not in the imported rating lists", fide_id=fide_id
                )
            return _entry(row)

    # -- entries -----------------------------------------------------------------------

    def rating_type(self, tournament_id: int) -> RatingType:
        """The rating list the event's games count for (its time control; else standard)."""
        with self.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database", tournament=tournament_id
                )
            return _rating_type(row)

    def list_order(self, tournament_id: int) -> ListOrder:
        """The lists the tournament takes ratings from, in order (its own, else its time
        control's default: :mod:`crosstable.service.rating_list_order`)."""
        with self.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database", tournament=tournament_id
                )
            return order_of(_rating_type(row), row.regulations)

    def set_list_order(self, tournament_id: int, order: str, *, actor: str = "") -> Change:
        """The tournament's own order of lists (``rapid,standard``), kept in its
        regulations; an empty text goes back to the time control's default."""
        wanted = parse_order(order) if order.strip() else ()
        kept = set(self.custom_names())
        for item in wanted:
            if isinstance(item, CustomList) and item.name not in kept:
                raise NotFoundError(
                    "there is no custom rating list {name}: import it first", name=item.name
                )
        text = order_text(wanted)
        change: Change = self.service.edit_regulations(
            tournament_id, detail_changes={ORDER_KEY: text}, actor=actor
        )
        return change

    def custom_names(self) -> tuple[str, ...]:
        """The custom lists kept, by name."""
        with self.store.reading() as session:
            return custom_names(session)

    def custom_order(self, tournament_id: int) -> tuple[str, ...]:
        """The custom lists a tournament looks players up in, in order: those its own
        order names, else every custom list (by name) after FIDE's."""
        with self.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            own = "" if row is None else str((row.regulations or {}).get(ORDER_KEY) or "").strip()
            if not own:
                return custom_names(session)
        return tuple(item.name for item in parse_order(own) if isinstance(item, CustomList))

    def national_of(self, fide_id: int, tournament_id: int) -> tuple[int | None, str]:
        """The national rating of the event's type and the custom list it comes from:
        the first of the tournament's custom lists that has this FIDE id (None, "")."""
        kind = self.rating_type(tournament_id)
        names = self.custom_order(tournament_id)
        with self.store.reading() as session:
            return national_by_fide_id(session, fide_id, names, kind)

    def player_info(self, fide_id: int, kind: Lists) -> PlayerInfo:
        """A player to register, as the list has them; the rating is the first one along
        ``kind`` (an order of lists, or a type: its default order), and the player keeps
        the list it came from (``fide-standard:1503014``)."""
        entry = self.player(fide_id)
        rating, source = entry.rating_in(kind)
        return PlayerInfo(
            name=entry.name,
            rating=rating,
            rating_source="" if source is None else f"fide-{source.value}:{entry.fide_id}",
            title=entry.title,
            federation=entry.federation,
            fide_id=str(entry.fide_id),
            birth_date="" if entry.birth_year is None else str(entry.birth_year),
            sex=entry.sex,
        )

    def filled(self, players: Iterable[PlayerInfo], kind: Lists) -> list[PlayerInfo]:
        """``players`` with what the lists know of each one's FIDE id put where nothing
        was typed (title, federation, birth year, sex, the rating of ``kind``; the name
        when it is empty); a FIDE id not in the lists leaves the player as typed. One
        query per :data:`BATCH` ids, not one per player."""
        given = list(players)
        numbers = sorted({n for n in (_fide_number(p.fide_id) for p in given) if n is not None})
        listed: dict[int, ListEntry] = {}
        with self.store.reading() as session:
            generation = current_generation(session)
            for chunk in _chunks(numbers, BATCH):
                rows = session.scalars(
                    select(RatingListPlayerRow).where(
                        RatingListPlayerRow.generation == generation,
                        RatingListPlayerRow.fide_id.in_(chunk),
                    )
                )
                listed.update((row.fide_id, _entry(row)) for row in rows)
        result: list[PlayerInfo] = []
        for player in given:
            number = _fide_number(player.fide_id)
            entry = None if number is None else listed.get(number)
            if entry is None:
                result.append(player)
                continue
            result.append(
                replace(
                    player,
                    name=player.name or entry.name,
                    rating=player.rating if player.rating is not None else entry.rating_in(kind)[0],
                    title=player.title or entry.title,
                    federation=player.federation or entry.federation,
                    birth_date=player.birth_date
                    or ("" if entry.birth_year is None else str(entry.birth_year)),
                    sex=player.sex or entry.sex,
                )
            )
        return result

    def add_player(
        self,
        tournament_id: int,
        fide_id: int,
        *,
        actor: str = "",
        club: str = "",
        rating_list: RatingType | None = None,
    ) -> Change:
        """Register the list's player ``fide_id`` (before the start, as any registration),
        rated from the tournament's order of lists, or from ``rating_list`` when given."""
        order = self.list_order(tournament_id) if rating_list is None else (rating_list,)
        info = self.player_info(fide_id, order)
        national, _ = self.national_of(fide_id, tournament_id)
        info = replace(info, club=club or info.club, national_rating=national)
        change: Change = self.service.add_player(tournament_id, info, actor=actor)
        return change

    def update_ratings(self, tournament_id: int, *, actor: str = "") -> Change:
        """Every registered player's rating as the stored list has it (before the start)."""

        def body(tx: Tx) -> Done:
            row = tx.tournament
            if row.status != "registration":
                raise RuleError(
                    "the ratings cannot be updated: the tournament has started "
                    "(the pairings and the tie-breaks already use them)"
                )
            kind = _rating_type(row)
            order = order_of(kind, row.regulations)
            entries = tx.session.scalars(
                select(EntryRow)
                .where(EntryRow.tournament_id == tx.tournament_id)
                .order_by(EntryRow.number)
            ).all()
            ids = {int(e.fide_id) for e in entries if e.fide_id.isascii() and e.fide_id.isdigit()}
            generation = current_generation(tx.session)
            listed = {
                r.fide_id: r
                for chunk in _chunks(sorted(ids), 500)
                for r in tx.session.scalars(
                    select(RatingListPlayerRow).where(
                        RatingListPlayerRow.generation == generation,
                        RatingListPlayerRow.fide_id.in_(chunk),
                    )
                )
            }
            before = rating_order(tx) if row.draw_method == "rating" else None
            changed: list[str] = []
            missing: list[int] = []
            national = national_ratings(tx.session, entries, kind)
            for entry in entries:
                if entry.number in national and national[entry.number] != entry.national_rating:
                    value = national[entry.number]
                    changed.append(
                        f"{entry.number} {entry.name} ({entry.rating_source}) "
                        f"{entry.national_rating or '-'} → {value or '-'}"
                    )
                    tx.update(entry, national_rating=value)
                found = listed.get(int(entry.fide_id)) if entry.fide_id.isdigit() else None
                rating = None if found is None else _entry(found).rating_in(order)[0]
                if rating is None:
                    if entry.number not in national:
                        missing.append(entry.number)
                    continue
                if rating != entry.rating:
                    changed.append(f"{entry.number} {entry.name} {entry.rating or '-'} → {rating}")
                    tx.update(entry, rating=rating)
            if not changed:
                raise Unchanged(
                    Message(
                        "{kind} ratings: every listed player's is already the list's",
                        kind=kind.value,
                    )
                )
            note: Message | str = ""
            if before is not None and before != rating_order(tx):
                clear_draw(tx)
                note = Message(
                    "; the rating order changed, so the draw is cleared: draw lots again"
                )
            summary = Message(
                "{kind} ratings updated from the rating list: {changes}{note}",
                kind=kind.value,
                changes=Message.joined("; ", changed),
                note=note,
            )
            return Done(
                summary,
                {"rating_type": kind.value, "changed": len(changed), "not_listed": missing},
            )

        # the service's own change frame: recorded, announced and undone like any change
        change: Change = self.service.frame.change(
            tournament_id, "ratings-update", body, actor=actor
        )
        return change


def _fide_number(text: str) -> int | None:
    """A FIDE id as typed, if it is one (ASCII digits, at most 12)."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None


def _chunks(values: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def _rating_type(row: TournamentRow) -> RatingType:
    return rating_type_of(row.time_control)


def rating_type_of(time_control: str) -> RatingType:
    """The list an event of this time control is rated on (standard when it has none
    or it cannot be read).

    >>> [rating_type_of(t).value for t in ("90+30", "15+10", "3+2", "", "nonsense")]
    ['standard', 'rapid', 'blitz', 'standard', 'standard']
    """
    if not time_control.strip():
        return RatingType.STANDARD
    try:
        control = parse_time_control(time_control)
    except CrosstableError:
        return RatingType.STANDARD
    return rating_type_for(control.minutes_per_player) or RatingType.STANDARD


def _entry(row: RatingListPlayerRow) -> ListEntry:
    return ListEntry(
        fide_id=row.fide_id,
        name=row.name,
        federation=row.federation,
        sex=row.sex,
        title=row.title,
        birth_year=row.birth_year,
        standard=row.standard,
        rapid=row.rapid,
        blitz=row.blitz,
        list_name=row.list_name,
        list_date=row.list_date,
    )


def current_generation(session: Any) -> int:
    """The generation of ``rating_list_players`` readers see (0: no import made one)."""
    found = session.scalar(
        select(RatingListImportRow.id).where(RatingListImportRow.state == "current")
    )
    return 0 if found is None else int(found)
