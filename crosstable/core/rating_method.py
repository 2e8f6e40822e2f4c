"""Which rating a tournament ranks its players by: the regulations' rating method.

A player may have three ratings: the FIDE rating (``rating``), a national rating and a
rating the arbiter typed by hand (a manual one). The tournament rating — the one the
initial ranking, the pairings and the rating-based tie-breaks read — is chosen by the
regulations' ``rating_method`` detail, with the names FIDE's checklist uses:

* ``FIDE`` (the default): the FIDE rating;
* ``NRO``: the national rating;
* ``FIDON``: the FIDE rating, or the national one if there is no FIDE rating;
* ``NIDOF``: the national rating, or the FIDE one if there is no national rating;
* ``HBFN``: the highest of the FIDE, national and manual ratings.

>>> tournament_rating(RatingMethod.FIDON, fide=None, national=1650)
1650
>>> tournament_rating(RatingMethod.NIDOF, fide=1800, national=None)
1800
>>> tournament_rating(RatingMethod.HBFN, fide=1800, national=1850, manual=1700)
1850
>>> tournament_rating(RatingMethod.NRO, fide=2100, national=None) is None
True
>>> rating_method({"rating_method": "fidon"})
<RatingMethod.FIDON: 'FIDON'>
>>> rating_method({"rating_method": "elo"})
Traceback (most recent call last):
...
crosstable.core.errors.RuleError: rating method 'elo': choose FIDE, NRO, FIDON, NIDOF or HBFN
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from crosstable.core.errors import RuleError

#: the regulations' detail that names the method
FIELD = "rating_method"


class RatingMethod(Enum):
    FIDE = "FIDE"
    NRO = "NRO"
    FIDON = "FIDON"
    NIDOF = "NIDOF"
    HBFN = "HBFN"


def rating_method(details: Mapping[str, Any]) -> RatingMethod:
    """The method the details name (FIDE when they name none); a name that is not one
    of the five is refused."""
    value = details.get(FIELD)
    text = "" if value is None else str(value).strip()
    if not text:
        return RatingMethod.FIDE
    try:
        return RatingMethod(text.upper())
    except ValueError:
        raise RuleError(
            "rating method {value}: choose FIDE, NRO, FIDON, NIDOF or HBFN", value=repr(text[:40])
        ) from None


def tournament_rating(
    method: RatingMethod,
    *,
    fide: int | None,
    national: int | None,
    manual: int | None = None,
) -> int | None:
    """The rating the tournament ranks a player by (None: unrated by this method)."""
    if method is RatingMethod.FIDE:
        return fide
    if method is RatingMethod.NRO:
        return national
    if method is RatingMethod.FIDON:
        return fide if fide is not None else national
    if method is RatingMethod.NIDOF:
        return national if national is not None else fide
    known = [r for r in (fide, national, manual) if r is not None]
    return max(known) if known else None


__all__ = ["FIELD", "RatingMethod", "rating_method", "tournament_rating"]
