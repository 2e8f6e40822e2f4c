"""The tournament rating of a stored player: the one of its FIDE, national and manual
ratings that the tournament's rating method (its regulations' ``rating_method``) ranks
by — read the same way by the draw, the pairings, the standings and the pages."""

from __future__ import annotations

from typing import Protocol

from crosstable.core.errors import RuleError
from crosstable.core.rating_method import RatingMethod, rating_method, tournament_rating
from crosstable.service.details import Details


class Rated(Protocol):
    """A stored player's ratings (an entry row, or its columns as a query read them)."""

    @property
    def rating(self) -> int | None: ...

    @property
    def national_rating(self) -> int | None: ...

    @property
    def manual_rating(self) -> int | None: ...


def method_of(details: Details | None) -> RatingMethod:
    """The regulations' rating method (FIDE when none is named; the details were checked
    when they were stored, so one that does not read counts as FIDE)."""
    try:
        return rating_method(details or {})
    except RuleError:
        return RatingMethod.FIDE


def rating_of(entry: Rated, method: RatingMethod) -> int | None:
    """``entry``'s tournament rating under ``method``."""
    return tournament_rating(
        method, fide=entry.rating, national=entry.national_rating, manual=entry.manual_rating
    )


__all__ = ["Rated", "method_of", "rating_of"]
