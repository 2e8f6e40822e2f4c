"""A knockout's settings: the regulations' details it reads, and the bracket they give.

The settings are a :class:`~crosstable.core.system_settings.KnockoutSettings` (one
parser for the start, the replay, the wizard and ``crosstable new``).
"""

from __future__ import annotations

from crosstable.core.model import Player
from crosstable.core.pairing.knockout import (
    Bracket,
    BracketOrder,
    MatchRules,
    random_bracket,
    seeded_bracket,
)
from crosstable.core.system_settings import KNOCKOUT_KEYS, KnockoutSettings
from crosstable.service.details import Details

#: the event kind of :meth:`KnockoutPlay.pair_next_round`
KIND = "knockout"
#: the regulations' details a knockout reads (and the start writes back, normalised)
DETAILS = KNOCKOUT_KEYS


def knockout_settings(details: Details | None) -> KnockoutSettings:
    """The settings of a knockout as stored (another system's detail is not refused
    here: the start and the edits of the regulations refuse those)."""
    return KnockoutSettings.from_details(details or {}, strict=False)


def knockout_rules(details: Details, *, seed: int | None = None) -> MatchRules:
    """The match rules from the regulations' details (clear errors naming the setting)."""
    return knockout_settings(details).rules(seed)


def knockout_bracket(players: tuple[Player, ...], order: BracketOrder, seed: int) -> Bracket:
    """Seeded: 1 v N by starting number (the rating order after lots drawn by rating);
    random: the order drawn from ``seed`` (1st v 2nd, 3rd v 4th…)."""
    if order is BracketOrder.RANDOM:
        return random_bracket(players, seed)
    return seeded_bracket(players, seeding=[p.start for p in players])
