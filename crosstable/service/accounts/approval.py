"""A tournament's owner and access: who organises it, the administrator's approval
of a master's regulations, self-registration's window and eligibility rules; every
change recorded in the tournament's history."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.service.accounts.base import (
    ELIGIBILITY_KEYS,
    OLD_ELIGIBILITY_KEYS,
    AccessInfo,
    AccountsFrame,
    UserInfo,
    access_info,
    name_of,
    parse_time,
    user_ref,
)
from crosstable.store.accounts_models import (
    AccessRow,
    StaffRow,
)

#: the access settings an edit changed, before or after: setting name → its value (the
#: approval, self-registration, the window's moments, the eligibility rules), as the
#: history's data keeps them
AccessChange = dict[str, object]


class Approval:
    """Owner, approval and the registration's access settings."""

    def __init__(self, frame: AccountsFrame) -> None:
        self.frame = frame

    def claim(self, tournament_id: int, owner: UserInfo, *, actor: str = "") -> AccessInfo:
        """``owner`` created the tournament: it is theirs; a master's waits for approval.

        Recorded in the tournament's history (who, when, what), like every change of
        its owner, staff, access settings and linked accounts (see :meth:`AccountsFrame.log`)."""
        approval = "approved" if owner.is_admin else "pending"
        with self.frame.store.transaction() as session:
            locked = self.frame.lock(session, tournament_id)
            before_access = session.get(AccessRow, tournament_id)
            before_staff = session.get(StaffRow, (tournament_id, owner.id))
            was = (
                None
                if before_access is None
                else {"owner_id": before_access.owner_id, "approval": before_access.approval}
            )
            was_role = None if before_staff is None else before_staff.role
            session.merge(
                AccessRow(
                    tournament_id=tournament_id,
                    owner_id=owner.id,
                    approval=approval,
                    self_registration=False,
                    eligibility={},
                )
            )
            session.merge(StaffRow(tournament_id=tournament_id, user_id=owner.id, role="organiser"))
            session.flush()
            waits = (
                Message("approved (an administrator's tournament)")
                if approval == "approved"
                else Message("waiting for an administrator's approval")
            )
            self.frame.log(
                session,
                locked,
                "claim",
                Message(
                    "{name} organises the tournament; regulations {waits}",
                    name=name_of(owner),
                    waits=waits,
                ),
                {
                    "user": user_ref(owner),
                    "access": {
                        "before": was,
                        "after": {"owner_id": owner.id, "approval": approval},
                    },
                    "role": {"before": was_role, "after": "organiser"},
                },
                actor or owner.username,
            )
        return self.access(tournament_id)

    def access(self, tournament_id: int) -> AccessInfo:
        with self.frame.store.reading() as session:
            return access_info(tournament_id, session.get(AccessRow, tournament_id))

    def set_access(self, /, tournament_id: int, *, actor: str = "", **values: Any) -> AccessInfo:
        """Change the registration window, self-registration, eligibility rules or (an
        administrator) the approval; what really changed is recorded in the history."""
        allowed = {"self_registration", "opens_at", "closes_at", "eligibility", "approval"}
        unknown = sorted(set(values) - allowed)
        if unknown:
            raise RuleError("unknown access setting {name}", name=repr(unknown[0]))
        if "eligibility" in values:
            rules = {
                k: v
                for k, v in dict(values["eligibility"] or {}).items()
                if k not in OLD_ELIGIBILITY_KEYS
            }
            bad = sorted(set(rules) - set(ELIGIBILITY_KEYS))
            if bad:
                raise RuleError("unknown eligibility rule {name}", name=repr(bad[0]))
            values = values | {"eligibility": rules}
        for name in ("opens_at", "closes_at"):
            if values.get(name):
                parse_time(values[name])
        if values.get("approval") not in (None, "approved", "pending", "rejected"):
            raise RuleError("approval is approved, pending or rejected")
        with self.frame.store.transaction() as session:
            locked = self.frame.lock(session, tournament_id)
            row = session.get(AccessRow, tournament_id)
            if row is None:
                row = AccessRow(
                    tournament_id=tournament_id,
                    approval="approved",
                    self_registration=False,
                    eligibility={},
                )
                session.add(row)
            before: AccessChange = {}
            after: AccessChange = {}
            for name, value in values.items():
                current = getattr(row, name)
                if name == "eligibility":
                    current = dict(current or {})
                    value = dict(value or {})
                if current != value:
                    before[name] = current
                    after[name] = value
                setattr(row, name, value)
            session.flush()
            if after:
                approval = "approval" in after
                self.frame.log(
                    session,
                    locked,
                    "approval" if approval and len(after) == 1 else "access",
                    describe_access(before, after),
                    {"access": {"before": before, "after": after}},
                    actor,
                )
            return access_info(tournament_id, row)

    def pending(self) -> list[int]:
        """Tournaments of masters waiting for an administrator's approval."""
        with self.frame.store.reading() as session:
            rows = session.scalars(select(AccessRow).where(AccessRow.approval == "pending"))
            return [r.tournament_id for r in rows]


def describe_access(before: AccessChange, after: AccessChange) -> str:
    """What a change of the access settings did, in one line (a message: translated on
    the history page)."""
    parts: list[Message] = []
    if "approval" in after:
        parts.append(
            {
                "approved": Message("regulations approved by an administrator"),
                "rejected": Message("regulations rejected by an administrator"),
                "pending": Message("regulations waiting for an administrator's approval again"),
            }[str(after["approval"])]
        )
    if "self_registration" in after:
        parts.append(
            Message("self-registration opened")
            if after["self_registration"]
            else Message("self-registration closed")
        )
    if "opens_at" in after:
        value = after["opens_at"]
        parts.append(
            Message("registration opens {moment}", moment=value)
            if value
            else Message("registration opens: no limit")
        )
    if "closes_at" in after:
        value = after["closes_at"]
        parts.append(
            Message("registration closes {moment}", moment=value)
            if value
            else Message("registration closes: no limit")
        )
    if "eligibility" in after:
        given = after["eligibility"]
        rules = given if isinstance(given, Mapping) else {}  # (stored: a mapping, or empty)
        listed: list[Message] = []
        games = rules.get("min_rated_games")
        if games:
            listed.append(
                Message("at least 1 rated game")
                if games == 1
                else Message("at least {count} rated games", count=games)
            )
        need = rules.get("min_online_tournaments")
        if need:
            listed.append(
                Message("at least 1 online tournament")
                if need == 1
                else Message("at least {count} online tournaments", count=need)
            )
        parts.append(
            Message("eligibility: {rules}", rules=Message.joined("; ", listed))
            if listed
            else Message("eligibility: anyone")
        )
    if list(after) == ["approval"]:
        return parts[0]
    return Message("access: {changes}", changes=Message.joined(", ", parts))
