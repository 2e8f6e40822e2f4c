"""One place per pairing system: the rules every use case asks its system for.

The use cases common to every system (:mod:`crosstable.service.play`, the finish of
:mod:`crosstable.service.finishing`) check what is common — the status, the lots
drawn, a game's result — and hand what differs to the tournament's
:class:`SystemRules`, found by :func:`rules_of`:

* round robin — :class:`crosstable.service.round_robin.RoundRobinRules`;
* Scheveningen — :class:`crosstable.service.scheveningen.ScheveningenRules`;
* Swiss (Dutch) — :class:`crosstable.service.swiss.rules.SwissRules`;
* knockout — :class:`crosstable.service.knockout.rules.KnockoutRules`.

The caps on a tournament's size (:mod:`crosstable.service.field`) are the rules' too:
``max_players`` and ``check_field``.

A new system (a series' stage) is one more class with these methods, registered in
:func:`rules_of`. ``random`` is the service's injected random source (a Swiss draws
its initial colour with it, a knockout its seed of lots).
"""

from __future__ import annotations

import random as _random
from functools import cache
from typing import Protocol

from crosstable.core.model import System
from crosstable.service.frame import Done
from crosstable.service.knockout.rules import KnockoutRules
from crosstable.service.loading import Loaded
from crosstable.service.round_robin import RoundRobinRules
from crosstable.service.scheveningen import ScheveningenRules
from crosstable.service.swiss.rules import SwissRules
from crosstable.service.unit import Tx
from crosstable.store.models import EntryRow, TournamentRow


class SystemRules(Protocol):
    """What a pairing system decides for the common use cases."""

    system: System
    #: the largest field the system takes on a small server (see
    #: :mod:`crosstable.service.field`)
    max_players: int

    def check_field(self, players: int, cycles: int = 1) -> None:
        """RuleError if ``players`` (in ``cycles`` cycles) are more than the system takes."""
        ...

    def start(self, tx: Tx, loaded: Loaded, random: _random.Random | None = None) -> Done:
        """Fix what is known at the start (schedule, bracket, settings); status → running."""
        ...

    def withdraw(self, tx: Tx, loaded: Loaded, entry: EntryRow, from_round: int | None) -> Done:
        """A player leaves (checked to be in a running tournament, not withdrawn yet)."""
        ...

    def check_correction(self, tx: Tx) -> None:
        """Refuse a correction of a result (already applied in ``tx``) the system cannot take."""
        ...

    def bracket_places(self, tx: Tx, loaded: Loaded) -> dict[int, int] | None:
        """The final places the system itself gives (a knockout's bracket), None: the standings'."""
        ...

    def check_finished(self, loaded: Loaded) -> None:
        """Refuse the finish while the system has rounds to go (every result is in)."""
        ...


def rules_of(system: System | str | TournamentRow) -> SystemRules:
    """The rules of a system (or of a tournament's)."""
    if isinstance(system, TournamentRow):
        system = system.system
    return _registry()[System(system)]


@cache
def _registry() -> dict[System, SystemRules]:
    """Every system's rules, by system (made once)."""
    found: list[SystemRules] = [
        RoundRobinRules(),
        ScheveningenRules(),
        SwissRules(),
        KnockoutRules(),
    ]
    return {rules.system: rules for rules in found}


__all__ = ["SystemRules", "rules_of"]
