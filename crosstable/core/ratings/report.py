"""A tournament's rating figures per player (B.02 8.2-8.3).

Only games played over the board with a normal result (1, ½, 0) are rated:
forfeits and games shorter than one move are not (B.02 5.1). A
withdrawn player's games stay rated even when the 50 % rule takes them out of
the standings: this report reads the games as played, never the
final table. A rated player's games against unrated opponents are not rated
(8.3.1 rates "each game played against a rated player"); an unrated player's
games against rated opponents give their first-rating figures (8.2).

ARO and TPR are the tie-break code's (C.07 10.1, 10.2: ARO + dp), taken here
over the games this report rates with rated opponents.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.model import Outcome, Tournament
from crosstable.core.ratings.initial import InitialRating, initial_rating
from crosstable.core.ratings.rules import (
    KFactor,
    KInputs,
    RatingType,
    cap_k,
    expected_score,
    k_factor,
    round_change,
)
from crosstable.core.tiebreaks.ratings import average_rating, performance

_HALVES = {Outcome.WIN: 2, Outcome.DRAW: 1, Outcome.LOSS: 0}


@dataclass(frozen=True, slots=True)
class PlayerHistory:
    """What the tournament file does not say about a player (all optional)."""

    rated_games_before: int | None = None
    reached_2400: bool | None = None
    games_in_period: int = 0
    k: int | None = None  # K as the rating list gives it: overrides the rules


@dataclass(frozen=True, slots=True)
class GameRating:
    """One game from one player's side."""

    round: int
    opponent: int
    opponent_rating: int | None
    score: Fraction  # 1, ½ or 0
    expected: Fraction | None  # PD; None when the game is not rated for this player
    change: Fraction | None  # K × (score − PD)
    note: str = ""


@dataclass(frozen=True, slots=True)
class PlayerRating:
    start: int
    name: str
    rating: int | None
    games: tuple[GameRating, ...]
    games_rated: int
    score: Fraction  # in the rated games
    expected: Fraction  # ΣPD over the rated games
    k: KFactor | None
    change: Fraction | None  # K × Σ(score − PD), exact
    change_rounded: int | None  # 8.3.4
    aro: int | None
    tpr: int | None
    initial: InitialRating | None  # only for a player without a rating


def birth_year(text: str) -> int | None:
    """The year of a TRF birth date (``YYYY/MM/DD`` or just ``YYYY``)."""
    head = text.strip()[:4]
    return int(head) if len(head) == 4 and head.isdigit() and head != "0000" else None


def rate_tournament(
    tournament: Tournament,
    *,
    rating_type: RatingType = RatingType.STANDARD,
    year: int | None = None,
    history: Mapping[int, PlayerHistory] | None = None,
    only: int | None = None,
) -> tuple[PlayerRating, ...]:
    """Every player's rating figures, by starting number (``only``: just that player's,
    for a page that shows one).

    ``year``: the tournament's year (the under-18 rule); ``history``: per
    starting number what K also depends on.
    """
    history = history or {}
    played: dict[int, list[tuple[int, int, Fraction]]] = {p.start: [] for p in tournament.players}
    for rnd in tournament.rounds:
        for game in rnd.games:
            for start in (game.white, game.black):
                if only is not None and start != only:
                    continue
                outcome = game.outcome_of(start)
                if outcome in _HALVES:
                    played[start].append(
                        (rnd.number, game.opponent_of(start), Fraction(_HALVES[outcome], 2))
                    )
    ratings = {p.start: p.rating for p in tournament.players}
    return tuple(
        _player(
            p.start,
            p.name,
            p.rating,
            birth_year(p.birth_date),
            played[p.start],
            ratings,
            rating_type,
            year,
            history.get(p.start, PlayerHistory()),
        )
        for p in tournament.players
        if only is None or p.start == only
    )


def _player(
    start: int,
    name: str,
    rating: int | None,
    born: int | None,
    played: list[tuple[int, int, Fraction]],
    ratings: Mapping[int, int | None],
    rating_type: RatingType,
    year: int | None,
    known: PlayerHistory,
) -> PlayerRating:
    rated_opponents = [
        (r, opp_rating, int(2 * score))
        for r, opp, score in played
        if (opp_rating := ratings[opp]) is not None
    ]
    aro = average_rating(rated_opponents)
    tpr = performance(rated_opponents)
    if rating is None:
        games = tuple(
            GameRating(r, opp, ratings[opp], score, None, None, "first-rating game"
                       if ratings[opp] is not None else "both unrated: not rated")
            for r, opp, score in played
        )  # fmt: skip
        first = initial_rating(rated_opponents)
        return PlayerRating(
            start, name, None, games, first.games, first.score, Fraction(0), None,
            None, None, aro, tpr, first,
        )  # fmt: skip
    pending: list[tuple[int, int, int | None, Fraction, int | None, str]] = []
    for r, opp, score in played:
        opp_rating = ratings[opp]
        if opp_rating is None:
            pending.append((r, opp, None, score, None, "opponent unrated: not rated"))
            continue
        pd = expected_score(rating, opp_rating, rating_type)
        note = "" if pd is not None else "600 points or more apart: not rated"
        pending.append((r, opp, opp_rating, score, pd, note))
    rated = [g for g in pending if g[4] is not None]
    inputs = KInputs(
        rating, born, year, known.rated_games_before, known.reached_2400, known.games_in_period
    )
    if known.k is not None:  # K as the list gives it: still capped by 8.3.3's K x n <= 700
        k = cap_k(KFactor(known.k, "as given"), len(rated) + known.games_in_period)
    else:
        k = k_factor(inputs, len(rated))
    rows: list[GameRating] = []
    for r, opp, opp_rating, score, pd, note in pending:
        expected = None if pd is None else Fraction(pd, 100)
        change = None if expected is None else k.value * (score - expected)
        rows.append(GameRating(r, opp, opp_rating, score, expected, change, note))
    score = Fraction(sum(int(2 * g[3]) for g in rated), 2)  # whole numbers: fast
    expected_total = Fraction(sum(g[4] or 0 for g in rated), 100)
    change = k.value * (score - expected_total) if rated else None
    return PlayerRating(
        start,
        name,
        rating,
        tuple(rows),
        len(rated),
        score,
        expected_total,
        k if rated else None,
        change,
        None if change is None else round_change(change),
        aro,
        tpr,
        None,
    )


def _number(value: Fraction | None) -> float | int | None:
    """A figure for JSON: whole numbers as integers, the rest to two decimals."""
    if value is None:
        return None
    if value.denominator == 1:
        return int(value)
    return round(float(value), 2)


def game_json(game: GameRating) -> dict[str, object]:
    return {
        "round": game.round,
        "opponent": game.opponent,
        "opponent_rating": game.opponent_rating,
        "score": _number(game.score),
        "expected": _number(game.expected),
        "change": _number(game.change),
        "note": game.note,
    }


def player_json(row: PlayerRating) -> dict[str, object]:
    """One player's figures as the command line's and the export's JSON write them."""
    first = row.initial
    return {
        "start": row.start,
        "name": row.name,
        "rating": row.rating,
        "games_rated": row.games_rated,
        "score": _number(row.score),
        "expected": _number(row.expected),
        "k": None if row.k is None else row.k.value,
        "k_reason": None if row.k is None else row.k.reason,
        "change": _number(row.change),
        "change_rounded": row.change_rounded,
        "new_rating": None
        if row.rating is None or row.change_rounded is None
        else row.rating + row.change_rounded,
        "aro": row.aro,
        "tpr": row.tpr,
        "initial": None
        if first is None
        else {
            "games": first.games,
            "score": _number(first.score),
            "average": _number(first.average),
            "p": None if first.percentage is None else first.percentage / 100,
            "dp": first.dp,
            "rating": first.rating,
            "published": first.published,
            "note": first.note,
        },
        "games": [game_json(g) for g in row.games],
    }
