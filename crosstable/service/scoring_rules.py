"""A change of the scoring after the start, through FIDE's warning levels.

The point system and the value of a bye are published before round 1 and locked once
play begins (an organiser may override the lock only by giving a reason). FIDE's
checklist for tournament programs asks, when they are not locked outright, for a
level-3 warning and a ``### Scoring @ Round n: …`` line in the TRF: the points already
scored are counted again under the new values, and a Swiss pairs its next rounds by
them. Which values are possible at all (two draws worth no more than a win and a
loss, a bye worth no more than a win, and 1, ½ or 0 with standard scoring) is the
point system's own check (:func:`crosstable.core.scoring.check_bye_value`).
"""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.core.model import Settings
from crosstable.core.scoring import format_points
from crosstable.core.text import Message
from crosstable.service.fide_mode import current_round
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning, Level

#: the warning's code
SCORING_CODE = "scoring-after-start"
#: the settings that make the scoring
SCORING_SETTINGS = ("point_system", "bye_points")


def scoring_text(settings: Settings) -> str:
    """``1-0.5-0, bye 1``: the point system and what a round without an opponent is worth
    (the pairing-allocated bye of a Swiss, the free round of a round robin)."""
    return f"{settings.point_system.label()}, bye {format_points(settings.free_round_points)}"


def scoring_warnings(
    tx: Tx, settings: Settings, new: Settings, changing: Sequence[str], started: bool
) -> list[FideWarning]:
    """The level-3 warning of a change of the scoring after the start (none before)."""
    if not started or not any(name in changing for name in SCORING_SETTINGS):
        return []
    old_text, new_text = scoring_text(settings), scoring_text(new)
    if old_text == new_text and settings.point_system == new.point_system:
        return []
    return [
        FideWarning(
            code=SCORING_CODE,
            level=Level.CONFIRM,
            message=Message(
                "changing the scoring after the start, from {old} to {new}: the points "
                "already scored are counted again",
                old=old_text,
                new=new_text,
            ),
            consequences=(
                Message("for every player: scores and standings are counted again"),
                Message("for the pairings: the rounds still to pair use the new points"),
            ),
            trf=f"Scoring: changed from {old_text} to {new_text}",
            round=current_round(tx.session, tx.tournament),
        )
    ]


__all__ = ["SCORING_CODE", "SCORING_SETTINGS", "scoring_text", "scoring_warnings"]
