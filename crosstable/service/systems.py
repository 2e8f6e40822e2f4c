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

A new system is one more class with these methods, registered with
:func:`register_rules` (its settings with
:func:`crosstable.core.system_settings.register_settings`; a system paired before round 1
can take :class:`crosstable.service.fixed_rules.FixedScheduleRules`). ``random`` is the
service's injected random source (a Swiss draws its initial colour with it, a knockout its
seed of lots).
"""

from __future__ import annotations

import random as _random
from typing import Protocol

from crosstable.core.errors import RuleError
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
    found = System(system)
    try:
        return _registry()[found]
    except KeyError:
        raise RuleError("system {system} has no rules registered", system=found.value) from None


def _registry() -> dict[System, SystemRules]:
    """Every system's rules, by system (the built-in ones made on first use)."""
    if not _RULES:
        for rules in (RoundRobinRules(), ScheveningenRules(), SwissRules(), KnockoutRules()):
            _RULES[rules.system] = rules
    return _RULES


def register_rules(rules: SystemRules) -> SystemRules:
    """Make ``rules`` the rules of its system (a plug-in's registration)."""
    _registry()[rules.system] = rules
    return rules


def unregister_rules(system: System) -> None:
    """Forget a plug-in's rules (the built-in systems keep theirs)."""
    if system.value not in BUILT_IN:
        _RULES.pop(system, None)


#: every system's rules, by system
_RULES: dict[System, SystemRules] = {}
BUILT_IN = frozenset(
    system.value
    for system in (System.ROUND_ROBIN, System.SCHEVENINGEN, System.SWISS_DUTCH, System.KNOCKOUT)
)


__all__ = ["BUILT_IN", "SystemRules", "register_rules", "rules_of", "unregister_rules"]
