"""The national ratings a tournament's players take from the custom rating lists.

A player registered from a custom list keeps where they came from
(``entries.rating_source``: ``RUS:4101``, the list's name and its own id); a player
registered from FIDE's lists takes the national rating of the first custom list of the
tournament's order that names their FIDE id. The rating is the list's one of the
event's type, else its standard one (a national list often has one rating only).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from sqlalchemy import select

from crosstable.core.ratings import RatingType
from crosstable.store.custom_list_models import CustomListPlayerRow, CustomListRow
from crosstable.store.models import EntryRow


def custom_names(session: Any) -> tuple[str, ...]:
    """The custom lists kept, by name."""
    return tuple(
        session.scalars(
            select(CustomListRow.name)
            .where(CustomListRow.state == "current")
            .order_by(CustomListRow.name)
        )
    )


class ListRatings(Protocol):
    """A custom list's player as kept or as read back: the three ratings."""

    @property
    def standard(self) -> int | None: ...
    @property
    def rapid(self) -> int | None: ...
    @property
    def blitz(self) -> int | None: ...


def list_rating(row: ListRatings, kind: RatingType) -> int | None:
    """The list's rating of ``kind``, else its standard one."""
    own = {
        RatingType.STANDARD: row.standard,
        RatingType.RAPID: row.rapid,
        RatingType.BLITZ: row.blitz,
    }[kind]
    return own if own is not None else row.standard


def national_by_fide_id(
    session: Any, fide_id: int, names: Sequence[str], kind: RatingType
) -> tuple[int | None, str]:
    """The rating and the ``NAME:ID`` of the first of the custom lists ``names`` (in
    order) that has a player of this FIDE id; (None, "") when none has."""
    for name in names:
        row = session.scalars(
            select(CustomListPlayerRow)
            .join(CustomListRow, CustomListRow.id == CustomListPlayerRow.list)
            .where(
                CustomListRow.name == name,
                CustomListRow.state == "current",
                CustomListPlayerRow.fide_id == fide_id,
            )
            .order_by(CustomListPlayerRow.player_id)
        ).first()
        if row is not None:
            return list_rating(row, kind), f"{name}:{row.player_id}"
    return None, ""


def national_ratings(
    session: Any, entries: Iterable[EntryRow], kind: RatingType
) -> dict[int, int | None]:
    """Entry number → the national rating the entry's custom list (``rating_source``
    ``NAME:ID``) gives it now; entries whose list or id is gone are left out."""
    wanted: dict[tuple[str, str], int] = {}
    for entry in entries:
        name, sep, player_id = entry.rating_source.partition(":")
        if sep and not name.startswith("fide-"):
            wanted[(name, player_id)] = entry.number
    if not wanted:
        return {}
    lists = {
        row.name: row.id
        for row in session.scalars(select(CustomListRow).where(CustomListRow.state == "current"))
    }
    found: dict[int, int | None] = {}
    for (name, player_id), number in wanted.items():
        row = session.get(CustomListPlayerRow, (lists[name], player_id)) if name in lists else None
        if row is not None:
            found[number] = list_rating(row, kind)
    return found
