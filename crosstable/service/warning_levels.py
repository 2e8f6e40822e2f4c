"""FIDE's warning levels: one mechanism for every action that needs the arbiter's word.

FIDE's checklist for tournament programs gives each risky action a level:

* **L2** — the arbiter acknowledges it (one step);
* **L3** — the arbiter confirms or cancels (one step);
* **L4** — a two-step confirmation that spells out the consequences (two steps);
* **L5** — refused in FIDE mode (or accepted only by leaving FIDE mode first).

A use case that meets such an action calls :func:`settle` inside its change frame's
body with the warnings it raises. Without the right confirmation the body raises
:class:`ConfirmationNeeded` — a structured answer (level, code, message, consequences
and the ``confirm`` token of the next step); nothing is stored. The token is tied to
the tournament, its revision and the exact warnings, so a confirmation made before
somebody else changed the tournament (a stale one) is refused with a fresh warning.
Redone with the token (an L4 twice: first step, then second), the action goes ahead,
and :func:`logged` adds the confirmed warnings to its history line and keeps them in
the event's data, from which the TRF export writes each as a ``###`` line with its
round (:func:`trf_comments`).
"""

from __future__ import annotations

import enum
import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.formats.trf_model import Comment
from crosstable.service.errors import ConflictError
from crosstable.service.frame import Done
from crosstable.service.history import effective
from crosstable.service.pairing_phase_state import DISCARDS
from crosstable.service.read_views import JsonObject
from crosstable.store.models import ByeRow, EntryRow, EventRow

#: the key of an event's data that keeps the warnings confirmed for it
WARNINGS = "fide_warnings"
#: the key earlier events kept them under (still read; a Swiss pairing's ``warnings``
#: are its differences from the Dutch system, which are no confirmed warnings)
EARLIER = "warnings"


class Level(enum.IntEnum):
    """FIDE's warning levels (L1, plain information, needs no answer: a note kept for
    the TRF's ``###`` lines only)."""

    INFORM = 1
    ACKNOWLEDGE = 2
    CONFIRM = 3
    TWO_STEP = 4
    REFUSE = 5

    @property
    def steps(self) -> int:
        """How many confirmations the level takes (L4: two)."""
        return 2 if self is Level.TWO_STEP else 1


@dataclass(frozen=True, slots=True)
class FideWarning:
    """One warning: what it is (``code``), its level, the message and, for L4, what
    changes for whom; ``trf`` is the ``###`` line's text (after ``### `` and before
    `` @ Round n``), ``round`` the round it belongs to."""

    code: str
    level: Level
    message: Message
    consequences: tuple[Message, ...] = ()
    trf: str = ""
    round: int = 0

    def as_json(self) -> JsonObject:
        return {
            "code": self.code,
            "level": int(self.level),
            "message": self.message.to_json(),
            "consequences": [c.to_json() for c in self.consequences],
            "trf": self.trf,
            "round": self.round,
        }

    @classmethod
    def from_json(cls, data: JsonObject) -> FideWarning:
        return cls(
            code=str(data["code"]),
            level=Level(int(data["level"])),
            message=Message.from_json(data["message"]),
            consequences=tuple(Message.from_json(c) for c in data.get("consequences", ())),
            trf=str(data.get("trf", "")),
            round=int(data.get("round", 0)),
        )


class ConfirmationNeeded(ConflictError):  # noqa: N818 - an answer to give, not a fault
    """The action waits for the arbiter's confirmation; nothing was changed.

    ``warnings`` are what to show, ``level`` the highest of them, ``step`` which
    confirmation this is (1, or 2 of an L4), ``token`` what to send back to go on,
    and ``stale`` is True when a confirmation was sent that no longer matches."""

    def __init__(
        self,
        warnings: Sequence[FideWarning],
        *,
        token: str,
        step: int,
        stale: bool = False,
    ) -> None:
        first = warnings[0]
        if stale:
            super().__init__(
                "the confirmation no longer matches the tournament (it changed, or the action "
                "did): {warning}",
                warning=first.message,
            )
        elif step > 1:
            super().__init__(
                "second confirmation needed (level {level}): {warning}",
                level=int(max(w.level for w in warnings)),
                warning=first.message,
            )
        else:
            super().__init__(
                "confirmation needed (level {level}): {warning}",
                level=int(max(w.level for w in warnings)),
                warning=first.message,
            )
        self.warnings = tuple(warnings)
        self.token = token
        self.step = step
        self.stale = stale

    @property
    def level(self) -> Level:
        return max(w.level for w in self.warnings)

    @property
    def steps(self) -> int:
        return self.level.steps

    def as_json(self) -> JsonObject:
        """The API's ``warning`` object (the messages in English; the web translates)."""
        first = self.warnings[0]
        return {
            "level": int(self.level),
            "code": first.code,
            "codes": [w.code for w in self.warnings],
            "message": str(self.message),
            "warnings": [str(w.message) for w in self.warnings],
            "consequences": [str(c) for w in self.warnings for c in w.consequences],
            "step": self.step,
            "steps": self.steps,
            "stale": self.stale,
            "confirm": self.token,
        }


def token(
    tournament_id: int, revision: int, action: str, warnings: Iterable[FideWarning], step: int
) -> str:
    """The confirmation token of one step of one action on one revision of a tournament.

    >>> w = FideWarning("x", Level.CONFIRM, Message("sure?"))
    >>> token(1, 5, "a", [w], 1) == token(1, 5, "a", [w], 1) != token(1, 6, "a", [w], 1)
    True
    """
    said = json.dumps(
        [tournament_id, revision, action, step, [w.as_json() for w in warnings]],
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(said.encode()).hexdigest()[:20]


def settle(
    tournament_id: int,
    revision: int,
    action: str,
    warnings: Sequence[FideWarning],
    confirm: str | None,
) -> tuple[FideWarning, ...]:
    """The warnings once confirmed; else :class:`ConfirmationNeeded` for the next step.

    An L5 is a refusal (:class:`RuleError`) whatever is sent. ``action`` names the
    exact request (the use case and its values), so a token confirms nothing else."""
    if all(w.level is Level.INFORM for w in warnings):
        return tuple(warnings)  # (notes only: nothing to answer)
    refused = [w for w in warnings if w.level is Level.REFUSE]
    if refused:
        raise RuleError("{warning} (refused in FIDE mode)", warning=refused[0].message)
    steps = max(w.level for w in warnings).steps
    given = (confirm or "").strip()
    tokens = [token(tournament_id, revision, action, warnings, s) for s in range(1, steps + 1)]
    if given == tokens[-1]:
        return tuple(warnings)
    if steps == 2 and given == tokens[0]:
        raise ConfirmationNeeded(warnings, token=tokens[1], step=2)
    raise ConfirmationNeeded(warnings, token=tokens[0], step=1, stale=bool(given))


def logged(done: Done, warnings: Sequence[FideWarning]) -> Done:
    """``done`` with the confirmed warnings in its history line and its data."""
    if not warnings:
        return done
    asked = [w for w in warnings if w.level is not Level.INFORM]  # (notes: data only)
    summary = done.summary
    if asked:
        summary = Message(
            "{summary} (confirmed warning, level {level}: {warnings})",
            summary=done.summary,
            level=int(max(w.level for w in asked)),
            warnings=Message.joined("; ", [w.message for w in asked]),
        )
    kept = list(done.data.get(WARNINGS, ())) + [w.as_json() for w in warnings]
    return Done(summary, done.data | {WARNINGS: kept})


@dataclass(frozen=True, slots=True)
class Confirmed:
    """A confirmed warning as the history keeps it: its event and what it said."""

    seq: int
    warning: FideWarning


def confirmed_warnings(session: Session, tournament_id: int) -> list[Confirmed]:
    """Every warning confirmed in the tournament's history that is still in force (an
    undone event's warnings are gone with it), oldest first."""
    events = list(
        session.scalars(
            select(EventRow).where(EventRow.tournament_id == tournament_id).order_by(EventRow.seq)
        )
    )
    live = set(effective(events))
    discarded = {  # a reopened round's publication (service/pairing_phase.py)
        int(seq)
        for event in events
        if event.seq in live and isinstance(event.data, dict)
        for seq in event.data.get(DISCARDS, ()) or ()
    }
    found: list[Confirmed] = []
    for event in events:
        data = event.data
        if not isinstance(data, dict) or (event.changes and event.seq not in live):
            continue
        if event.seq in discarded:
            continue
        for item in [*(data.get(EARLIER, ()) or ()), *(data.get(WARNINGS, ()) or ())]:
            try:
                found.append(Confirmed(event.seq, FideWarning.from_json(item)))
            except (KeyError, TypeError, ValueError, AttributeError):
                continue  # (a malformed kept warning, or another list, is not written)
    return found


def trf_lines(warnings: Iterable[FideWarning]) -> list[str]:
    """The ``###`` comments' texts (without the ``###``): ``Tie-breaks @ Round 2: …``.

    >>> trf_lines([FideWarning("t", Level.TWO_STEP, Message("x"), trf="Tie-breaks: old DE,SB",
    ...     round=2)])
    [' Tie-breaks @ Round 2: old DE,SB']
    """
    lines = []
    for warning in warnings:
        text = warning.trf or str(warning.message)
        head, _, rest = text.partition(": ")
        said = f"{head} @ Round {warning.round}" + (f": {rest}" if rest else "")
        lines.append(" " + " ".join(said.split()))
    return lines


#: warnings kept in the history but never written to the TRF (advice before round 1)
UNWRITTEN = frozenset({"rounds-cannot-be-played"})

#: the warnings of a bye asked ahead, and the kind of bye each stands for
BYE_CODES = {
    "full-point-bye": "F",
    "another-half-point-bye": "H",
    "half-point-bye": "H",
    "zero-point-bye": "Z",
}
_BYE_TRF = re.compile(r"for player (\d+) in round (\d+)$")


def standing_byes(session: Session, tournament_id: int) -> set[tuple[int, int, str]]:
    """The byes there are now, as (starting number, round, kind)."""
    rows = session.execute(
        select(EntryRow.start, ByeRow.round, ByeRow.kind)
        .join(
            EntryRow,
            (EntryRow.tournament_id == ByeRow.tournament_id) & (EntryRow.number == ByeRow.player),
        )
        .where(ByeRow.tournament_id == tournament_id)
    )
    return {(int(start or 0), int(number), str(kind)) for start, number, kind in rows}


def still_true(warning: FideWarning, byes: set[tuple[int, int, str]]) -> bool:
    """False for a bye's warning whose bye was taken back or changed since.

    >>> w = FideWarning("full-point-bye", Level.ACKNOWLEDGE, Message("x"),
    ...     trf="Bye: full-point bye for player 2 in round 3", round=3)
    >>> still_true(w, {(2, 3, "F")}), still_true(w, {(2, 3, "H")})
    (True, False)
    """
    kind = BYE_CODES.get(warning.code)
    found = _BYE_TRF.search(warning.trf)
    if kind is None or found is None:
        return True
    return (int(found.group(1)), int(found.group(2)), kind) in byes


def trf_comments(session: Session, tournament_id: int) -> tuple[Comment, ...]:
    """The ``###`` lines of the tournament's confirmed warnings, for its TRF export
    (after the tournament's header records, in the order they were confirmed); a bye's
    line goes when the bye was taken back or changed later."""
    byes = standing_byes(session, tournament_id)
    kept = [c.warning for c in confirmed_warnings(session, tournament_id)]
    said = trf_lines(w for w in kept if still_true(w, byes) and w.code not in UNWRITTEN)
    return tuple(Comment(text, anchor=None) for text in said)
