"""Starting a tournament of another system than the round robin.

:meth:`crosstable.service.play.Play.start` checks the common conditions (status,
lots drawn) and hands a Swiss, knockout or Scheveningen tournament to its
system's module, which fixes what is known at the start inside the same
transaction.
"""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service.base import Done
from crosstable.service.loading import Loaded
from crosstable.service.unit import Tx


def start_other_system(tx: Tx, loaded: Loaded, system: System) -> Done:
    """Start a Swiss, knockout or Scheveningen tournament (status → running)."""
    raise RuleError(f"{system.value} tournaments cannot be started from the tournament store yet")
