"""Events longer than 30 days, the settings: the flag, later ratings, the tie-breaks' rating.

Three regulations details (the tournament's ``regulations`` JSON, no column of their own):

* ``long_event`` — ``yes`` when the event lasts more than 30 days (default ``no``);
* ``tiebreak_ratings`` — ``first`` (the default: every player's first rating) or
  ``per round`` (each opponent's rating of the round the game was played);
* ``ratings_by_round`` — the later ratings, kept with the tournament and keyed by the
  entry's registration number (the entries table has no free column for them):
  ``"2:3=1905;4:2=1512"`` — player 2 is rated 1905 from round 3, player 4 1512 from
  round 2. They are read only when the event is flagged.
"""

from __future__ import annotations

from collections.abc import Mapping

from crosstable.core.errors import RuleError
from crosstable.service.players import checked_rating

LONG_EVENT = "long_event"
TIEBREAK_RATINGS = "tiebreak_ratings"
RATINGS_BY_ROUND = "ratings_by_round"
FIRST = "first"
PER_ROUND = "per round"
_YES_NO = {"yes": True, "no": False}
#: the stored text's length at the most (a thousand players, each with a few ratings)
_LONGEST = 100_000
_MOST = 200  # later ratings per player, and digits of a number (bounded input)

Ratings = dict[int, tuple[tuple[int, int], ...]]


def long_event(details: Mapping[str, object] | None) -> bool:
    """Whether the regulations flag the event as lasting more than 30 days."""
    value = str((details or {}).get(LONG_EVENT, "no")).strip().lower()
    return _YES_NO.get(value, False)


def ratings_per_round(details: Mapping[str, object] | None) -> bool:
    """Whether rating-based tie-breaks read the rating of each game's round."""
    value = str((details or {}).get(TIEBREAK_RATINGS, FIRST)).strip().lower()
    return value == PER_ROUND


def check_long_event_settings(details: Mapping[str, object] | None) -> None:
    """Refuse a flag that is not yes or no, a rating choice that is not first or per round."""
    details = details or {}
    if LONG_EVENT in details:
        value = str(details[LONG_EVENT])
        if value.strip().lower() not in _YES_NO:
            raise RuleError("more than 30 days is yes or no, not {value}", value=repr(value[:40]))
    if TIEBREAK_RATINGS in details:
        value = str(details[TIEBREAK_RATINGS])
        if value.strip().lower() not in (FIRST, PER_ROUND):
            raise RuleError(
                "ratings for tie-breaks: first or per round, not {value}", value=repr(value[:40])
            )
    if RATINGS_BY_ROUND in details:
        parse_ratings(str(details[RATINGS_BY_ROUND]))


def parse_ratings(text: str) -> Ratings:
    """``"2:3=1905;4:2=1512"`` → ``{2: ((3, 1905),), 4: ((2, 1512),)}``."""
    if len(text) > _LONGEST:  # (refused before it is split)
        raise RuleError("ratings by round: at most {count} characters", count=_LONGEST)
    found: dict[int, dict[int, int]] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        number, _, rest = part.partition(":")
        first, _, rating = rest.partition("=")
        values = [number.strip(), first.strip(), rating.strip()]
        if not all(v.isascii() and v.isdigit() and len(v) <= 6 for v in values):
            raise RuleError(
                "ratings by round: {part} is not number:round=rating", part=repr(part[:40])
            )
        entry, round_number, value = (int(v) for v in values)
        if round_number < 2:
            raise RuleError(
                "ratings by round: a later rating covers round 2 or later, not {round}",
                round=round_number,
            )
        if checked_rating(value) is None:
            raise RuleError("ratings by round: player {number} rated 0", number=entry)
        found.setdefault(entry, {})[round_number] = value
        if len(found[entry]) > _MOST:
            raise RuleError("ratings by round: at most {most} per player", most=_MOST)
    return {n: tuple(sorted(by.items())) for n, by in sorted(found.items())}


def ratings_text(ratings: Ratings) -> str:
    """The stored form of :func:`parse_ratings`' value."""
    return ";".join(
        f"{number}:{first}={rating}"
        for number, later in sorted(ratings.items())
        for first, rating in later
    )


def stored_ratings(details: Mapping[str, object] | None) -> Ratings:
    """The later ratings kept in the regulations (none when the event is not flagged)."""
    if not long_event(details):
        return {}
    text = str((details or {}).get(RATINGS_BY_ROUND, ""))
    try:
        return parse_ratings(text)
    except RuleError:  # checked when stored; an edited database reads as none
        return {}
