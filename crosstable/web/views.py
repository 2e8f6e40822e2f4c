"""What the pages show besides the tables: which history entries may be reverted.

The tables themselves — the crosstable of a round robin, its cells and places —
are the service's read model (:mod:`crosstable.service.crosstable`, kept per
revision by :mod:`crosstable.service.tables`); they are named here too for the
templates, sheets and PDFs that show them. The web layer reads no rows itself.
"""

from __future__ import annotations

from typing import Any

from crosstable.service.crosstable import (
    CELL,
    Cell,
    Crosstable,
    GridCell,
    PlayerLine,
    build_crosstable,
    place_texts,
)

__all__ = [
    "CELL",
    "INFORMATIONAL",
    "Cell",
    "Crosstable",
    "GridCell",
    "PlayerLine",
    "build_crosstable",
    "place_texts",
    "revertible",
]


#: history entries without row changes (who organises, access, staff, account links:
#: crosstable.service.accounts): undo and revert pass over them, so "revert to here" would
#: not bring back what they say. (The knockout stage's kind is informational on a group but
#: a change on the knockout itself, so it stays revertible.)
INFORMATIONAL = frozenset(
    {"claim", "approval", "access", "staff", "account-link", "account-unlink"}
)


def revertible(items: list[Any]) -> set[int]:
    """The history entries (``Service.history``) the organiser may revert to: not the
    latest, not one already undone, not an informational one."""
    latest = max((item.seq for item in items), default=0)
    return {
        item.seq
        for item in items
        if item.seq != latest and not item.undone and item.kind not in INFORMATIONAL
    }
