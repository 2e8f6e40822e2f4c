"""FIDE ratings (Rating Regulations B.02, in force since 1 March 2024; docs/ratings.md).

:mod:`.rules`: expected score per game, the 400-point rule, K and rounding;
:mod:`.initial`: an unrated player's first-rating figures; :mod:`.report`: a
tournament's figures per player. The two conversion tables are the tie-breaks'
(:mod:`crosstable.core.tiebreaks.fide_tables`), TPR and ARO the tie-breaks' too.
"""

from __future__ import annotations

from crosstable.core.ratings.initial import InitialRating, initial_rating
from crosstable.core.ratings.report import (
    GameRating,
    PlayerHistory,
    PlayerRating,
    birth_year,
    player_json,
    rate_tournament,
)
from crosstable.core.ratings.rules import (
    KFactor,
    KInputs,
    RatingType,
    cap_k,
    counted_difference,
    expected_score,
    is_rated_pair,
    k_factor,
    rating_type_for,
    round_change,
)

__all__ = [
    "GameRating",
    "InitialRating",
    "KFactor",
    "KInputs",
    "PlayerHistory",
    "PlayerRating",
    "RatingType",
    "birth_year",
    "cap_k",
    "counted_difference",
    "expected_score",
    "initial_rating",
    "is_rated_pair",
    "k_factor",
    "player_json",
    "rate_tournament",
    "rating_type_for",
    "round_change",
]
