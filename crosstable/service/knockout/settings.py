"""A knockout's settings: the regulations' details it reads, and the bracket they give."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from crosstable.core.errors import RuleError
from crosstable.core.model import Player
from crosstable.core.pairing.knockout import (
    Bracket,
    BracketOrder,
    MatchFormat,
    MatchRules,
    TieRule,
    parse_round_formats,
    random_bracket,
    seeded_bracket,
)

#: the event kind of :meth:`KnockoutPlay.pair_next_round`
KIND = "knockout"
#: the regulations' details a knockout reads (and the start writes back, normalised)
DETAILS = ("match_format", "tie_rule", "bracket", "lots_seed", "round_formats", "third_place")


# -- settings --------------------------------------------------------------------------


def knockout_rules(details: Mapping[str, Any], *, seed: int | None = None) -> MatchRules:
    """The match rules from the regulations' details (clear errors naming the setting)."""
    text = str(details.get("match_format") or "1")
    try:
        fmt = MatchFormat.parse(text)
    except RuleError as error:
        raise RuleError(f"regulations, match_format {text!r}: {error}") from None
    rule = str(details.get("tie_rule") or "lower-rated")
    try:
        tie = TieRule.parse(rule)
    except RuleError as error:
        raise RuleError(f"regulations, tie_rule {rule!r}: {error}") from None
    rounds = str(details.get("round_formats") or "")
    try:
        formats = parse_round_formats(rounds)
    except RuleError as error:
        raise RuleError(f"regulations, round_formats {rounds!r}: {error}") from None
    third = str(details.get("third_place") or "no").strip().lower()
    if third not in _YES_NO:
        raise RuleError(f"regulations, third_place {third!r}: use yes or no")
    if seed is None:
        seed = recorded_seed(details)
        if seed is None:
            raise RuleError("regulations: lots_seed is missing (the start records it)")
    return MatchRules(fmt, tie, seed, ahead=True, round_formats=formats, third_place=_YES_NO[third])


_YES_NO = {"yes": True, "true": True, "1": True, "no": False, "false": False, "0": False}


def recorded_seed(details: Mapping[str, Any]) -> int | None:
    """``lots_seed`` of the regulations (None when not set)."""
    text = str(details.get("lots_seed") or "").strip()
    if not text:
        return None
    digits = text.removeprefix("-")
    if not digits.isdigit():
        raise RuleError(f"regulations, lots_seed {text!r}: not a whole number")
    return int(text)


def bracket_order(details: Mapping[str, Any]) -> BracketOrder:
    text = str(details.get("bracket") or "seeded").strip().lower()
    if text not in ("seeded", "random"):
        raise RuleError(f"regulations, bracket {text!r}: use seeded or random")
    return BracketOrder(text)


def knockout_bracket(players: tuple[Player, ...], order: BracketOrder, seed: int) -> Bracket:
    """Seeded: 1 v N by starting number (the rating order after lots drawn by rating);
    random: the order drawn from ``seed`` (1st v 2nd, 3rd v 4th…)."""
    if order is BracketOrder.RANDOM:
        return random_bracket(players, seed)
    return seeded_bracket(players, seeding=[p.start for p in players])
