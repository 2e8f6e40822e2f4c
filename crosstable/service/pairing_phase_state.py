"""The state of a Swiss round's manual-pairing phase, as the tournament keeps it.

FIDE's checklist wants each round's hand pairing to have an explicit start and end:
"Edit pairings" opens the phase for a round (the round's state: ``editing``), and
"Validate pairings" closes it by publishing the pairing (where it is compared with the
Dutch system's and any difference is confirmed as an ``### MPA`` line). While a phase
is open, the round is published only by validating it. The open phase is kept in the
regulations' JSON (``pairing_phase``: the round's number) through these accessors, so
an undo of the opening, of the validation or of a reopening takes the state back with
the rows it changed.
"""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.service.details import Details, DetailsEdit
from crosstable.service.unit import Tx

#: the regulations' key of the open phase (a round's number); kept across edits of the
#: details (service/fide_mode.py ``kept_flag``), never set by an organiser
PHASE = "pairing_phase"
#: an event's data key naming the earlier events whose warnings a reopening discards
DISCARDS = "discards"


def phase_round(details: Details | None) -> int | None:
    """The round whose pairings are open for editing (None: no phase is open).

    >>> phase_round({"pairing_phase": "3"}), phase_round({}), phase_round({"pairing_phase": "x"})
    (3, None, None)
    """
    value = str((details or {}).get(PHASE, "")).strip()
    return int(value) if value.isdigit() else None


def with_phase(details: Details | None, number: int | None) -> DetailsEdit:
    """The details with the phase of round ``number`` open (None: closed).

    >>> with_phase({"venue": "Hall"}, 2), with_phase({"pairing_phase": "2"}, None)
    ({'venue': 'Hall', 'pairing_phase': '2'}, {})
    """
    kept: DetailsEdit = {k: v for k, v in (details or {}).items() if k != PHASE}
    return kept if number is None else kept | {PHASE: str(number)}


def publishing_gate(tx: Tx, number: int, validating: bool) -> bool:
    """Check a publication of round ``number`` against the phase: refused while the
    round's pairings are open for editing unless it is their validation, and a
    validation needs an open phase. True when the publication closes a phase."""
    open_round = phase_round(tx.tournament.regulations)
    if validating and open_round != number:
        raise RuleError(
            "the pairings of round {round} are not open for editing: choose Edit pairings first",
            round=number,
        )
    if not validating and open_round == number:
        raise RuleError(
            "the pairings of round {round} are open for editing: validate them to publish "
            "the round",
            round=number,
        )
    return open_round == number


def close_phase(tx: Tx) -> None:
    """Close the open phase (its validation published the round)."""
    row = tx.tournament
    tx.update(row, regulations=with_phase(row.regulations, None))


__all__ = ["DISCARDS", "PHASE", "close_phase", "phase_round", "publishing_gate", "with_phase"]
