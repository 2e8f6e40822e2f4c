"""The first rating of a player without one (B.02 8.2 and 7.1.4, in force since 1 March 2024).

Ra is the average of the player's rated opponents together with two
hypothetical opponents rated 1800, each game against them a draw; p is the
score with those two draws added over the games with them; Ru = Ra + dp(p),
rounded to a whole number, at most 2200. It is published once it rests on at
least 5 games against rated opponents (results of several tournaments within 26
months may be pooled) and is at least 1400. A zero score in the player's first
event is disregarded.

p is rounded to hundredths with .005 up before the table is read (the Title
Regulations' rule for percentages, 1.4.9; B.02 says nothing about it).

>>> first = initial_rating([(1, 1900, 2), (2, 1850, 1), (3, 2000, 0), (4, 1700, 2), (5, 2057, 1)])
>>> first.average, first.percentage, first.dp, first.rating, first.published
(Fraction(13107, 7), 57, 50, 1922, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.tiebreaks.fide_tables import dp
from crosstable.core.tiebreaks.ratings import round_half_up

HYPOTHETICAL_RATING = 1800
HYPOTHETICAL_GAMES = 2
MAX_INITIAL = 2200
MIN_PUBLISHED = 1400
MIN_GAMES = 5


@dataclass(frozen=True, slots=True)
class InitialRating:
    """The first-rating figures of one unrated player from one tournament's games."""

    games: int  # games against rated opponents
    score: Fraction  # points in them
    average: Fraction | None  # Ra, with the two hypothetical opponents
    percentage: int | None  # p in hundredths, with the two draws
    dp: int | None
    rating: int | None  # Ru, rounded and at most 2200; None for a zero score
    published: bool
    note: str


def initial_rating(games: list[tuple[int, int, int]]) -> InitialRating:
    """From (round, opponent's rating, result in halves 2/1/0) of games against rated opponents."""
    n = len(games)
    halves = sum(g[2] for g in games)
    score = Fraction(halves, 2)
    if n == 0:
        return InitialRating(
            0, score, None, None, None, None, False, "no games against rated opponents"
        )
    if halves == 0:
        return InitialRating(
            n, score, None, None, None, None, False,
            "zero score: disregarded if this is the player's first event",
        )  # fmt: skip
    total_games = n + HYPOTHETICAL_GAMES
    average = Fraction(
        sum(g[1] for g in games) + HYPOTHETICAL_RATING * HYPOTHETICAL_GAMES, total_games
    )
    # score + 1 (two draws) over n + 2 games, in hundredths, .5 up
    percentage = round_half_up(100 * (halves + HYPOTHETICAL_GAMES), 2 * total_games)
    difference = dp(percentage)
    exact = average + difference
    rating = min(round_half_up(exact.numerator, exact.denominator), MAX_INITIAL)
    notes = []
    if n < MIN_GAMES:
        notes.append(
            f"{n} of the {MIN_GAMES} games against rated opponents needed "
            "(pooled with later events)"
        )
    if rating < MIN_PUBLISHED:
        notes.append(f"below {MIN_PUBLISHED}: not published")
    published = n >= MIN_GAMES and rating >= MIN_PUBLISHED
    return InitialRating(
        n, score, average, percentage, difference, rating, published, "; ".join(notes)
    )
