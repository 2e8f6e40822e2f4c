"""An administrator's approval of a master's regulations, and what withdraws it.

A master's tournament waits for an administrator's approval before it starts
(:class:`crosstable.service.accounts.Accounts` keeps it in ``tournament_access``).
Any change of approved regulations — tie-breaks, time control,
dates, anything the regulations say — withdraws the approval until an
administrator gives it again. The withdrawal is part of the change that causes
it (same transaction, same event: its summary says so and its data keeps
``{"approval": {"before": "approved", "after": "pending"}}``), so it can neither
be lost nor be undone with it: undoing the change does not approve anything.

* :meth:`Registration.edit_regulations` withdraws it at every real change;
* an undo or a revert withdraws it when it leaves a tournament in registration
  with regulations other than the ones approved (an approval keeps the
  regulations it approved in its history entry: :func:`approved_snapshot`), so
  undoing a Swiss's start, which gives back the regulations from before it, keeps
  the approval.

Tournaments without an owner (made on the command line) and an administrator's
own tournaments have nothing to withdraw.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.row_changes import JsonValue, RowChange
from crosstable.core.text import Message
from crosstable.service.frame import EventData
from crosstable.service.unit import Tx, replayed_rows
from crosstable.store.accounts_models import AccessRow, UserRow
from crosstable.store.models import EventRow, TournamentRow

#: the columns of a tournament that are its regulations (not its status or its lots)
REGULATION_COLUMNS = (
    "name",
    "system",
    "cycles",
    "point_system",
    "bye_points",
    "tiebreaks",
    "withdrawal_rule",
    "rules_edition",
    "swap_last_rounds",
    "rounds_planned",
    "time_control",
    "start_date",
    "end_date",
    "regulations",
)
#: what the event's summary adds when the change withdrew the approval
WITHDRAWN = "the administrator's approval is withdrawn until it is given again"


def with_withdrawn(summary: str) -> Message:
    """``summary`` with what a change that withdrew the approval adds to it."""
    return Message("{summary}; {withdrawn}", summary=summary, withdrawn=Message(WITHDRAWN))


#: the history entries that can approve (see Accounts.claim and Accounts.set_access)
_APPROVING = ("approval", "access", "claim")


#: a tournament's regulations as plain JSON values (column → value)
RegulationValues = dict[str, JsonValue]


def regulations_snapshot(row: TournamentRow) -> RegulationValues:
    """The tournament's regulations as plain JSON values (what an approval approves)."""
    values: RegulationValues = json.loads(
        json.dumps({name: getattr(row, name) for name in REGULATION_COLUMNS}, sort_keys=True)
    )
    return values


def approved_snapshot(session: Session, tournament_id: int) -> RegulationValues | None:
    """The regulations as they were when the latest approval was given (replayed from
    the history up to that entry; None: no approval in the history)."""
    events = list(
        session.scalars(
            select(EventRow).where(EventRow.tournament_id == tournament_id).order_by(EventRow.seq)
        )
    )
    approved = None
    for event in events:
        if event.kind in _APPROVING:
            after = ((event.data or {}).get("access") or {}).get("after") or {}
            if after.get("approval") == "approved":
                approved = event.seq
    if approved is None:
        return None
    rows = replayed_rows([e for e in events if e.seq <= approved])
    row = rows.get(("tournaments", "{}"), {})
    values: RegulationValues = json.loads(
        json.dumps({name: row.get(name) for name in REGULATION_COLUMNS}, sort_keys=True)
    )
    return values


def withdraw_if_changed(tx: Tx, changes: Sequence[RowChange], *, edit: bool = False) -> EventData:
    """Withdraw the approval in ``tx`` when ``changes`` (applied) changed the approved
    regulations; the event data to record (empty: nothing withdrawn).

    ``edit``: the change is an edit of the regulations (withdraws at once); otherwise
    (an undo or a revert) only when the tournament is left in registration with
    regulations other than the approved ones."""
    touched = any(
        change.table == "tournaments" and set(change.after or {}) & set(REGULATION_COLUMNS)
        for change in changes
    )
    if not touched:
        return {}
    session = tx.session
    access = session.get(AccessRow, tx.tournament_id)
    if access is None or access.approval != "approved" or access.owner_id is None:
        return {}
    owner = session.get(UserRow, access.owner_id)
    if owner is None or owner.is_admin:
        return {}
    if not edit:
        if tx.tournament.status != "registration":
            return {}
        tx.flush()
        if approved_snapshot(session, tx.tournament_id) == regulations_snapshot(tx.tournament):
            return {}
    access.approval = "pending"
    session.flush()
    return {"approval": {"before": "approved", "after": "pending"}}
