"""The regulations' lots for ties left after the whole tie-break list.

The detail ``ties`` is ``shared`` (the default: players still equal after the whole
list share a place) or ``lots`` (the list ends with lots). It is part of the
published tie-break order, so it is locked after the start as the list is (an
override needs a reason). The seed of the lots (``ties_lots_seed``) is never given
by hand: it is drawn by the computer when the final places are fixed and a tie is
left (:func:`crosstable.service.finishing.lots_for_ties`), recorded with them.

The same use case refuses a change of the kind of event (``venue_kind``) after the
start (:func:`crosstable.service.eligibility.check_venue_kind_change`).
"""

from __future__ import annotations

from typing import Any

from crosstable.core.errors import RuleError
from crosstable.service.eligibility import check_venue_kind_change
from crosstable.service.frame import Change, ChangeFrame
from crosstable.service.lots import TIES_SEED, check_ties_setting, ties_by_lots
from crosstable.service.registration import Registration, Regulations
from crosstable.store.models import TournamentRow


class TieLots:
    """The checks of the ``ties`` detail around the regulations' use cases of
    ``registration`` (each checks, then calls the use case it wraps)."""

    def __init__(self, frame: ChangeFrame, registration: Registration) -> None:
        self.frame = frame
        self.registration = registration

    def create_tournament(
        self, regulations: Regulations, *, players: Any = (), actor: str = ""
    ) -> Change:
        check_ties_setting(regulations.details)
        if str(regulations.details.get(TIES_SEED, "")).strip():
            raise RuleError(
                "the seed of the lots for ties is drawn by the computer when the final places "
                "are fixed; it is not given by hand"
            )
        return self.registration.create_tournament(regulations, players=players, actor=actor)

    def edit_regulations(
        self,
        tournament_id: int,
        *,
        actor: str = "",
        override_reason: str | None = None,
        **values: Any,
    ) -> Change:
        if "details" in values or "detail_changes" in values:
            with self.frame.store.reading() as session:
                row = session.get(TournamentRow, tournament_id)
                current = dict(row.regulations or {}) if row is not None else {}
                started = row is not None and row.status != "registration"
            if "details" in values:
                new = dict(values["details"])
            else:  # only the keys named change (the service merges them)
                changes = values["detail_changes"]
                new = current | {str(k): str(v) for k, v in changes.items()}
            check_ties_setting(new)
            check_venue_kind_change(current, new, started=started)
            drawn = str(current.get(TIES_SEED, ""))
            if TIES_SEED in new and str(new[TIES_SEED]) != drawn:
                raise RuleError(
                    "the seed of the lots for ties is drawn by the computer when the final "
                    "places are fixed; it is not given by hand"
                )
            if drawn and TIES_SEED not in new and "details" in values:  # kept when left out
                values["details"] = new | {TIES_SEED: drawn}
            changed = ties_by_lots(new) != ties_by_lots(current)
            if started and changed and not (override_reason or "").strip():
                raise RuleError(
                    "ties after the tie-breaks (shared or lots) were published before round 1 "
                    "and are locked; give a reason to override it"
                )
        return self.registration.edit_regulations(
            tournament_id, actor=actor, override_reason=override_reason, **values
        )
