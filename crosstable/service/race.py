"""Who can still win, for a stored tournament (docs/race.md): the core's
:func:`~crosstable.core.race.race` over the tournament as it stands (the read model's,
no reload), kept per revision so that every page and API call of one revision share it.

A round robin is answered exactly; a Swiss (its later rounds not paired yet) as an
estimate; a knockout or a Scheveningen has no such table and is refused.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Any

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.race import RaceReport, race, race_problem

#: (service, tournament, revision, K) → report; the last few only
_KEPT: OrderedDict[tuple[int, int, int, int], RaceReport] = OrderedDict()
_KEEP = 64
_LOCK = Lock()


def race_report(service: Any, tournament_id: int, top: int = 1) -> RaceReport:
    """Each player's chances of first place and of the top ``top`` places now
    (RuleError for a knockout or Scheveningen, or a ``top`` past the field)."""
    state = service.table_state(tournament_id)
    tournament = state.tournament
    system = tournament.settings.system
    if system not in (System.ROUND_ROBIN, System.SWISS_DUTCH):
        raise RuleError("who can still win is answered for round robins and Swiss tournaments")
    if not 1 <= top <= max(1, len(tournament.players)):
        raise RuleError(
            "top {top}: the tournament has {players} players",
            top=top,
            players=len(tournament.players),
        )
    key = (id(service), tournament_id, service.revision(tournament_id), top)
    with _LOCK:
        kept = _KEPT.get(key)
    if kept is not None:
        return kept
    report = race(race_problem(tournament, round_robin=system is System.ROUND_ROBIN), top)
    with _LOCK:
        _KEPT[key] = report
        while len(_KEPT) > _KEEP:
            _KEPT.popitem(last=False)
    return report
