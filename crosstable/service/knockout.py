"""Knockout tournaments in the store: the bracket, its matches and tie-breaks (issue 6)."""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.service.base import Done, ServiceBase
from crosstable.service.loading import Loaded
from crosstable.service.unit import Tx


def start_knockout(tx: Tx, loaded: Loaded) -> Done:
    raise RuleError("knockout tournaments cannot be started from the tournament store yet")


class KnockoutPlay(ServiceBase):
    """Use cases of a knockout: pair the next games and rounds of the bracket."""
