"""Starting a tournament of another system than the round robin.

:meth:`crosstable.service.play.Play.start` checks the common conditions (status,
lots drawn) and hands a Swiss, knockout or Scheveningen tournament to its
system's module, which fixes what is known at the start inside the same
transaction. ``random`` is the service's injected random source (a Swiss draws
its initial colour with it).
"""

from __future__ import annotations

import random as _random

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service.base import Done
from crosstable.service.loading import Loaded
from crosstable.service.unit import Tx


def start_other_system(
    tx: Tx, loaded: Loaded, system: System, random: _random.Random | None = None
) -> Done:
    """Start a Swiss, knockout or Scheveningen tournament (status → running)."""
    if system is System.SWISS_DUTCH:
        from crosstable.service.swiss import start_swiss

        return start_swiss(tx, loaded, random=random)
    if system is System.KNOCKOUT:
        from crosstable.service.knockout import start_knockout
        from crosstable.service.stage_view import check_stage_start

        check_stage_start(tx.session, tx.tournament, loaded)  # a group stage's knockout
        return start_knockout(tx, loaded, random=random)
    if system is System.SCHEVENINGEN:
        from crosstable.service.scheveningen import start_scheveningen

        return start_scheveningen(tx, loaded)
    raise RuleError(f"{system.value} tournaments cannot be started from the tournament store yet")
