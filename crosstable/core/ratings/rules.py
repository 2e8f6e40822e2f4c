"""The per-game rules of the FIDE Rating Regulations (B.02, in force since 1 March 2024).

Expected score (8.1.2 and the 400-point rule of 8.3.1), the development
coefficient K (8.3.3) and the rounding of a rating change (8.3.4). Expected
scores are whole hundredths, as the table prints them.

>>> expected_score(2200, 2100)            # D = 100: the table's row 99-106
64
>>> expected_score(2000, 2500)            # D capped at 400 for a player below 2650
8
>>> expected_score(2700, 2200)            # 2650 and above: the real difference, 500
96
>>> expected_score(2700, 2000, RatingType.BLITZ) is None   # 600+ apart, one above 2600
True
>>> round_change(Fraction(-5, 2)), round_change(Fraction(5, 2)), round_change(Fraction(49, 10))
(-3, 3, 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from crosstable.core.duration import parse_time_control
from crosstable.core.errors import CrosstableError
from crosstable.core.tiebreaks.fide_tables import expected

#: 8.3.1: a larger difference counts as this many points ...
MAX_DIFFERENCE = 400
#: ... for players rated below this (standard chess, from 1 October 2025)
FULL_DIFFERENCE_FROM = 2650
#: rapid and blitz (7.3.1 of their regulations, from 1 December 2024): a game between
#: players this far apart is not rated when one of them is rated above ...
UNRATED_GAP = 600
UNRATED_GAP_ABOVE = 2600


class RatingType(Enum):
    """Which FIDE rating list a tournament counts for."""

    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"


def rating_type_for(minutes_for_60_moves: Fraction) -> RatingType | None:
    """Which list a game of this length counts for (None: too fast for any).

    The time is each player's time for 60 moves: the base time plus 60 times the
    increment. Standard needs at least 60 minutes (B.02 1.1, the least of its
    minimums, for players both below 1800); rapid more than 10 and less than 60;
    blitz more than 3 and at most 10 (B.02 R&B 1.1).

    >>> [rating_type_for(Fraction(m)) for m in (90, 60, 35, 11, 10, 5, 3)]  # doctest: +ELLIPSIS
    [<RatingType.STANDARD...>, <RatingType.STANDARD...>, <RatingType.RAPID...>, \
<RatingType.RAPID...>, <RatingType.BLITZ...>, <RatingType.BLITZ...>, None]
    """
    if minutes_for_60_moves >= 60:
        return RatingType.STANDARD
    if minutes_for_60_moves > 10:
        return RatingType.RAPID
    if minutes_for_60_moves > 3:
        return RatingType.BLITZ
    return None


def read_time_control(time_control: str) -> tuple[RatingType | None, str] | None:
    """The list an event of this time control counts for (None: too fast for any) and
    the control as read; None when there is none or it does not read as one (TRF's 122
    is free text).

    >>> read_time_control("5400+30"), read_time_control(""), read_time_control("an hour")
    ((<RatingType.STANDARD: 'standard'>, '90+30'), None, None)
    """
    if not time_control.strip():
        return None
    try:
        control = parse_time_control(time_control)
    except CrosstableError:
        return None
    return rating_type_for(control.minutes_per_player), control.notation()


def is_rated_pair(own: int, opponent: int, rating_type: RatingType = RatingType.STANDARD) -> bool:
    """Whether a game between these two ratings is rated at all (rapid/blitz 600-point rule)."""
    if rating_type is RatingType.STANDARD:
        return True
    return not (abs(own - opponent) >= UNRATED_GAP and max(own, opponent) > UNRATED_GAP_ABOVE)


def counted_difference(
    own: int, opponent: int, rating_type: RatingType = RatingType.STANDARD
) -> int:
    """The rating difference D (own − opponent) as 8.3.1 counts it.

    A difference over 400 counts as 400; in standard chess a player rated 2650
    or more has the real difference used (so the two players of one game may
    count different differences).
    """
    difference = own - opponent
    if rating_type is RatingType.STANDARD and own >= FULL_DIFFERENCE_FROM:
        return difference
    return max(-MAX_DIFFERENCE, min(MAX_DIFFERENCE, difference))


def expected_score(
    own: int, opponent: int, rating_type: RatingType = RatingType.STANDARD
) -> int | None:
    """The player's expected score PD in hundredths (table 8.1.2), None if not rated."""
    if not is_rated_pair(own, opponent, rating_type):
        return None
    return expected(counted_difference(own, opponent, rating_type))


@dataclass(frozen=True, slots=True)
class KInputs:
    """What K depends on (8.3.3); None means not known.

    ``rated_games_before``: rated games of the player before this tournament
    (None: assumed 30 or more). ``reached_2400``: whether the player's published
    rating ever reached 2400 (None: assumed when the rating is 2400 or more).
    ``birth_year`` and ``year`` (the tournament's): the under-18 rule.
    ``games_in_period``: rated games on the same list outside this tournament
    (for the K × n ≤ 700 rule).
    """

    rating: int
    birth_year: int | None = None
    year: int | None = None
    rated_games_before: int | None = None
    reached_2400: bool | None = None
    games_in_period: int = 0


@dataclass(frozen=True, slots=True)
class KFactor:
    value: int
    reason: str


def k_factor(inputs: KInputs, games: int) -> KFactor:
    """The development coefficient K for ``games`` rated games in this tournament.

    >>> k_factor(KInputs(2100), 9)
    KFactor(value=20, reason='rated under 2400')
    >>> k_factor(KInputs(2100, rated_games_before=12), 9).value
    40
    >>> k_factor(KInputs(2250, birth_year=2008, year=2026), 9).reason
    'under 18 (born 2008) and rated under 2300'
    >>> k_factor(KInputs(1900, rated_games_before=0), 20)     # 40 x 20 > 700
    KFactor(value=35, reason='new player (0 rated games before); 35 so that K x 20 games <= 700')
    """
    rating = inputs.rating
    if inputs.rated_games_before is not None and inputs.rated_games_before < 30:
        value, reason = 40, f"new player ({inputs.rated_games_before} rated games before)"
    elif (
        inputs.birth_year is not None
        and inputs.year is not None
        and inputs.year <= inputs.birth_year + 18
        and rating < 2300
    ):
        value, reason = 40, f"under 18 (born {inputs.birth_year}) and rated under 2300"
    elif inputs.reached_2400 or (inputs.reached_2400 is None and rating >= 2400):
        value, reason = 10, "rating has reached 2400"
    else:
        value, reason = 20, "rated under 2400"
    return cap_k(KFactor(value, reason), games + inputs.games_in_period)


#: 8.3.3: K x the number of games of the rating period at most this
MAX_K_TIMES_GAMES = 700


def cap_k(k: KFactor, games: int) -> KFactor:
    """8.3.3's cap on K, whatever gave it (the rules or the rating list): when K x the
    ``games`` of the rating period would exceed 700, K is the largest whole number with
    K x games <= 700.

    >>> cap_k(KFactor(40, "as given"), 18)
    KFactor(value=38, reason='as given; 38 so that K x 18 games <= 700')
    >>> cap_k(KFactor(40, "as given"), 17)
    KFactor(value=40, reason='as given')
    """
    if games <= 0 or k.value * games <= MAX_K_TIMES_GAMES:
        return k
    value = MAX_K_TIMES_GAMES // games
    return KFactor(value, f"{k.reason}; {value} so that K x {games} games <= 700")


def round_change(change: Fraction) -> int:
    """8.3.4: to the nearest whole number, 0.5 away from zero."""
    magnitude = abs(change)
    whole = int(magnitude + Fraction(1, 2))
    return whole if change >= 0 else -whole
