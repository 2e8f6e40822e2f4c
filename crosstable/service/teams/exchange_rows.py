"""A team tournament's rows in the whole-tournament JSON (docs/store.md): ``"teams"``,
``"team_members"`` and ``"lineups"`` beside ``"players"``, written only when the
tournament has teams (a tournament of players exports as before), read back as the
other sections are, so that import then export gives the same document."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.row_changes import Snapshot
from crosstable.store.models import Base
from crosstable.store.team_models import LineupRow, TeamMemberRow, TeamRow

#: the sections, in the order they are written and read (teams before their members)
TEAM_SECTIONS: tuple[tuple[str, type[Base]], ...] = (
    ("teams", TeamRow),
    ("team_members", TeamMemberRow),
    ("lineups", LineupRow),
)


def team_sections(session: Session, tournament_id: int) -> dict[str, list[Snapshot]]:
    """The team sections of one tournament's document (none for a tournament of players)."""
    sections: dict[str, list[Snapshot]] = {}
    for name, model in TEAM_SECTIONS:
        order = [getattr(model, column) for column in model.key_columns]
        rows = session.scalars(
            select(model).where(model.tournament_id == tournament_id).order_by(*order)  # type: ignore[attr-defined]
        )
        found: list[Snapshot] = [row.snapshot() for row in rows]
        if found:
            sections[name] = found
    return sections


__all__ = ["TEAM_SECTIONS", "team_sections"]
