"""Reads of the series for the web pages and the JSON API (issue 11 item 7): the list of
series, an edition by its number with its stages and groups. Plain JSON values; the
rules stay in :mod:`crosstable.service.series.editions`."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select

from crosstable.core.series.calendar import CalendarKind, slots_after
from crosstable.service.base import ServiceBase
from crosstable.service.errors import NotFoundError
from crosstable.service.series.editions import _edition_info, calendar_of
from crosstable.service.series.stages import group_letter
from crosstable.store.series_models import (
    SeriesEditionRow,
    SeriesGroupRow,
    SeriesRegistrationRow,
    SeriesRow,
    SeriesStageRow,
)

#: the most series one list shows
MAX_LISTED = 500


def series_list(service: ServiceBase) -> list[dict[str, Any]]:
    """Every series (newest last): id, name, calendar, zone and its open edition."""
    with service.store.reading() as session:
        rows = list(session.scalars(select(SeriesRow).order_by(SeriesRow.id).limit(MAX_LISTED)))
        found: list[dict[str, Any]] = []
        for row in rows:
            query = (
                select(SeriesEditionRow)
                .where(
                    SeriesEditionRow.series_id == row.id,
                    SeriesEditionRow.state == "registration",
                )
                .order_by(SeriesEditionRow.number)
                .limit(1)
            )
            edition = session.scalars(query).one_or_none()
            found.append(
                {
                    "id": row.id,
                    "name": row.name,
                    "kind": row.kind,
                    "weekday": row.weekday,
                    "day": row.day,
                    "start_time": row.start_time,
                    "zone": row.zone,
                    "next": None if edition is None else _edition_info(session, edition),
                }
            )
        return found


def upcoming_starts(service: ServiceBase, series_id: int, count: int) -> list[dt.datetime]:
    """The series' next ``count`` calendar slots after now, in its zone (none for a
    regular series: its editions start when the previous one ends)."""
    with service.store.reading() as session:
        row = session.get(SeriesRow, series_id)
        if row is None:
            raise NotFoundError(f"there is no series {series_id} in this database")
        calendar = calendar_of(row)
    if calendar.kind is CalendarKind.REGULAR:
        return []
    return list(slots_after(calendar, service.clock.now(), count))


def registered_names(service: ServiceBase, edition_id: int, user_id: int) -> list[str]:
    """The names under which account ``user_id`` is registered for the edition."""
    with service.store.reading() as session:
        query = select(SeriesRegistrationRow.name).where(
            SeriesRegistrationRow.edition_id == edition_id,
            SeriesRegistrationRow.user_id == user_id,
            SeriesRegistrationRow.withdrawn_at.is_(None),
        )
        return list(session.scalars(query))


def edition_by_number(service: ServiceBase, series_id: int, number: int) -> dict[str, Any]:
    """Edition ``number`` of a series: its moments, state, players count, and its stages
    (number, kind, groups with their tournaments)."""
    with service.store.reading() as session:
        query = select(SeriesEditionRow).where(
            SeriesEditionRow.series_id == series_id, SeriesEditionRow.number == number
        )
        edition = session.scalars(query).one_or_none()
        if edition is None:
            raise NotFoundError(f"series {series_id} has no edition {number}")
        info = _edition_info(session, edition)
        stages = session.scalars(
            select(SeriesStageRow)
            .where(SeriesStageRow.edition_id == edition.id)
            .order_by(SeriesStageRow.number)
        )
        info["stages"] = []
        for stage in stages:
            groups = session.scalars(
                select(SeriesGroupRow)
                .where(SeriesGroupRow.stage_id == stage.id)
                .order_by(SeriesGroupRow.letter)
            )
            info["stages"].append(
                {
                    "number": stage.number,
                    "kind": stage.kind,
                    "cycles": stage.cycles,
                    "qualifiers_per_group": stage.qualifiers_per_group,
                    "started_at": stage.started_at,
                    "finished_at": stage.finished_at,
                    "groups": [
                        {
                            "letter": group_letter(group.letter),
                            "players": len(group.players),
                            "tournament": group.tournament_id,
                        }
                        for group in groups
                    ],
                }
            )
        return info


def edition_places(service: ServiceBase, edition_ids: set[int]) -> dict[int, dict[str, Any]]:
    """For each edition id: its series' id and zone and the edition's number (the links
    and local times of a user's notifications)."""
    if not edition_ids:
        return {}
    with service.store.reading() as session:
        query = (
            select(SeriesEditionRow.id, SeriesEditionRow.number, SeriesRow.id, SeriesRow.zone)
            .join(SeriesRow, SeriesRow.id == SeriesEditionRow.series_id)
            .where(SeriesEditionRow.id.in_(sorted(edition_ids)[:1000]))
        )
        return {
            edition: {"series": series, "number": number, "zone": zone}
            for edition, number, series, zone in session.execute(query)
        }
