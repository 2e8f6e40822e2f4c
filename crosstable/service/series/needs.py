"""What the series take from the rest of the service, named by what they use.

* :class:`Tournaments` — the tournament use cases a series runs its round robins with
  (a stage's groups, an accepted petition's tournament): the service hands itself in,
  so a series' tournament goes through every check an organiser's does (battle chess,
  the regulations' ties);
* :class:`StoreAndClock` — what the series' reads and a few plain writes need: the
  store and the clock (the service, or its change frame).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from crosstable.core.model import LotsMethod, Tournament
from crosstable.service.clock import Clock
from crosstable.service.frame import Change
from crosstable.service.registration import PlayerInfo, Regulations
from crosstable.store import Store


class Tournaments(Protocol):
    """The tournament use cases the series call (each one transaction of its own)."""

    def create_tournament(
        self, regulations: Regulations, *, players: Sequence[PlayerInfo] = (), actor: str = ""
    ) -> Change: ...

    def draw_lots(
        self, tournament_id: int, method: LotsMethod = LotsMethod.RANDOM, *, actor: str = ""
    ) -> Change: ...

    def start(self, tournament_id: int, *, actor: str = "") -> Change: ...

    def finish(self, tournament_id: int, *, actor: str = "") -> Change: ...

    def withdraw(self, tournament_id: int, start: int, *, actor: str = "") -> Change: ...

    def tournament(self, tournament_id: int) -> Tournament: ...


class StoreAndClock(Protocol):
    """The store to read and write and the clock that says now."""

    @property
    def store(self) -> Store: ...

    @property
    def clock(self) -> Clock: ...
