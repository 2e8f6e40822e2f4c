"""Scheveningen tournaments in the store: two teams, every player meets the other team."""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.service.base import Done
from crosstable.service.loading import Loaded
from crosstable.service.unit import Tx


def start_scheveningen(tx: Tx, loaded: Loaded) -> Done:
    raise RuleError("Scheveningen tournaments cannot be started from the tournament store yet")
