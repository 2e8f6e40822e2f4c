"""The drawing of lots: for starting numbers (the one place that calls the lots
core), and the regulations' lots for the ties left after the tie-break list."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from crosstable.core.errors import RuleError
from crosstable.core.lots import SEED_LIMIT, Entrant, draw_lots, seed_from
from crosstable.core.model import LotsMethod
from crosstable.core.rating_method import RatingMethod
from crosstable.service.details import Details
from crosstable.service.tournament_ratings import rating_of
from crosstable.store.models import EntryRow, TournamentRow


def draw_order(
    entries: Sequence[EntryRow],
    method: LotsMethod,
    *,
    seed: int | None,
    order: tuple[int, ...] = (),
    ratings: RatingMethod = RatingMethod.FIDE,
) -> tuple[int, ...]:
    """Registration numbers in starting-number order (keys of the draw: registration numbers).

    ``order`` (by hand) lists every registration number once, in starting-number order;
    ``ratings``: the rating method that chooses each player's tournament rating.
    """
    entrants = [Entrant(str(e.number), e.name, rating_of(e, ratings), e.title) for e in entries]
    lots = draw_lots(entrants, method, seed=seed, order=tuple(str(n) for n in order))
    return tuple(int(key) for key in lots.draw.order)


# -- lots as the last tie-break of a stored tournament ------------------------

#: the regulations' detail that says what happens to players still equal after the whole
#: tie-break list: ``shared`` (the default: they share a place) or ``lots``
TIES = "ties"
TIES_VALUES = ("shared", "lots")
#: the seed of those lots: derived from the tournament (:func:`derived_ties_seed`) when
#: the final places are fixed and a tie is left, recorded with them (docs/standings.md)
TIES_SEED = "ties_lots_seed"
#: the seeds' range (as the battle seed's: 0 … 2**53, exact in JSON numbers)
TIES_SEED_LIMIT = SEED_LIMIT


def derived_ties_seed(row: TournamentRow, entries: Sequence[EntryRow]) -> int:
    """The seed of the lots for ties, derived from the tournament: its creation time
    and its entries (registration number and name), so that the same tournament draws
    the same order however often its finish is undone and made again, and anyone can
    derive it again (docs/standings.md)."""
    parts = (f"{entry.number}:{entry.name}" for entry in entries)
    return seed_from("ties", row.created_at, *parts)


def check_ties_setting(details: Details | None) -> None:
    """Refuse a ``ties`` detail that is neither shared nor lots."""
    if details and TIES in details:
        value = str(details[TIES])
        if value.strip().lower() not in TIES_VALUES:
            raise RuleError(
                "ties after the tie-breaks are shared or lots (drawn), not {value}",
                value=repr(value[:40]),
            )


def ties_by_lots(details: Details | None) -> bool:
    """Whether the regulations' tie-break order ends with lots."""
    return str((details or {}).get(TIES, "shared")).strip().lower() == "lots"


def ties_lots_seed(details: Details | None) -> int | None:
    """The recorded seed of the lots for ties (None: not drawn)."""
    text = str((details or {}).get(TIES_SEED, "")).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 16:
        return None
    seed = int(text)
    return seed if seed <= TIES_SEED_LIMIT else None


def shared_places(places: Mapping[int, int]) -> bool:
    """True when two players have the same place."""
    return len(set(places.values())) < len(places)
