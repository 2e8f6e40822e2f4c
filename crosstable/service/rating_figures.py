"""A stored tournament's FIDE rating figures (docs/ratings.md): the
core's :func:`~crosstable.core.ratings.rate_tournament` over the tournament as it
stands, on the list of the event's own type (its time control: standard, rapid or
blitz, as ``crosstable ratings`` reads it) — one place, so the player page, the
standings' rating columns and the JSON API give the same figures.

Forfeits and unplayed games are not rated; games of a player withdrawn
under the 50 % rule still are: the core reads the games, not the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crosstable.core.ratings import PlayerRating, RatingType, player_json, rate_tournament
from crosstable.formats.json_io import tournament_year
from crosstable.service.rating_lists import RatingLists
from crosstable.service.read_views import JsonObject


@dataclass(frozen=True)
class RatingFigures:
    """Every player's figures (or one player's), with the list they count for."""

    rating_type: RatingType
    year: int | None
    players: tuple[PlayerRating, ...]
    #: the players by starting number (a standings row asks for each: no scan per row)
    by_start: dict[int, PlayerRating] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_start", {p.start: p for p in self.players})

    def of(self, start: int) -> PlayerRating | None:
        return self.by_start.get(start)

    def as_json(self) -> JsonObject:
        """As ``crosstable ratings --format json`` writes them (its ``players``)."""
        return {
            "rating_type": self.rating_type.value,
            "year": self.year,
            "players": [player_json(p) for p in self.players],
        }


def rating_figures(service: Any, tournament_id: int, *, only: int | None = None) -> RatingFigures:
    """The figures of ``tournament_id`` now (``only``: one starting number's, for a page
    that shows one player; an unknown starting number gives none)."""
    tournament = service.table_state(tournament_id).tournament  # the read model's, no reload
    kind = RatingLists(service).rating_type(tournament_id)
    year = tournament_year(tournament)
    if only is not None and not 1 <= only <= len(tournament.players):
        return RatingFigures(kind, year, ())
    rows = rate_tournament(tournament, rating_type=kind, year=year, only=only)
    return RatingFigures(kind, year, rows)
