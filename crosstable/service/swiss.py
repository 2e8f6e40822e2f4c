"""Swiss tournaments (FIDE Dutch) in the store: paired round by round (issue 6)."""

from __future__ import annotations

import random as _random

from crosstable.core.errors import RuleError
from crosstable.service.base import Done, ServiceBase
from crosstable.service.loading import Loaded
from crosstable.service.unit import Tx


def start_swiss(tx: Tx, loaded: Loaded, *, random: _random.Random | None = None) -> Done:
    raise RuleError("Swiss tournaments cannot be started from the tournament store yet")


class SwissPlay(ServiceBase):
    """Use cases of a Swiss tournament: propose and publish each round's pairing."""
