"""A round paired by hand in FIDE mode, with FIDE's warning levels.

When the organiser publishes a Swiss round of their own making and it differs from the
Dutch system's pairing (other pairs or colours, another PAB, a rematch allowed, a
forbidden pair, a third colour in a row…), FIDE's checklist wants at least a level-3
warning that lists the differences and a ``### MPA @ Round n: …`` line in the TRF. The
differences are those the pairing review names (service/swiss/plan.py ``review``); a
pairing identical to the engine's takes no warning. Outside FIDE mode a hand pairing is
published as before, its differences in the history line only.
"""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.core.text import Message
from crosstable.service.fide_mode import in_fide_mode
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning, Level

#: the code of the warning, which publish_round logs (the others it acknowledges)
MANUAL = "manual-pairing"


def manual_pairing_warnings(tx: Tx, number: int, differences: Sequence[str]) -> list[FideWarning]:
    """The level-3 warning of round ``number`` paired by hand with these ``differences``
    from the Dutch system's pairing (none: the same pairing, or not in FIDE mode)."""
    if not differences or not in_fide_mode(tx.session, tx.tournament):
        return []
    listed = Message.joined("; ", list(differences))
    return [
        FideWarning(
            code=MANUAL,
            level=Level.CONFIRM,
            message=Message(
                "round {round} paired by hand differs from the Dutch system's pairing: {listed}",
                round=number,
                listed=listed,
            ),
            consequences=(
                Message(
                    "for the players: round {round} is played as paired by hand",
                    round=number,
                ),
                Message("for the rating officer: the TRF file lists the differences (### MPA)"),
            ),
            trf=f"MPA: {listed}",
            round=number,
        )
    ]


__all__ = ["MANUAL", "manual_pairing_warnings"]
