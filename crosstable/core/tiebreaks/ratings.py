"""Rating-based tie-breaks (C.07 art. 10): ARO, TPR, PTP, APRO, APPO, RTNG.

They count games played over the board only: forfeits never count (in a round
robin that is the 2026 exception to 15.2). Art. 10: when any player is unrated
they are dropped, unless a rule for unrated players is published — here the
``/U<rating>`` modifier (an unrated player counts as rated ``<rating>``).

``ARO_RATED`` is the portal's criterion (seeds 000, 002): the average rating of
every opponent met who has a rating, unrounded; unrated opponents are simply
left out, so it is never dropped.
"""

from __future__ import annotations

from fractions import Fraction

from crosstable.core.text import Message
from crosstable.core.tiebreaks.base import TieBreak, Value, register
from crosstable.core.tiebreaks.explain import Explanation, Fixed, Item, amount, join_sum, show
from crosstable.core.tiebreaks.fide_tables import dp, expected
from crosstable.core.tiebreaks.field import GAME, Field
from crosstable.core.tiebreaks.spec import CUT, MEDIAN, REVERSE, UNRATED, TieBreakSpec


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` to the nearest integer, .5 up (denominator > 0)."""
    return (2 * numerator + denominator) // (2 * denominator)


def unrated_reason(f: Field, spec: TieBreakSpec) -> str | None:
    """Art. 10: the reason a rating-based tie-break is dropped, or None."""
    if spec.unrated_rating is not None:
        return None
    unrated = [p + 1 for p in f.indices() if f.rating[p] is None]
    if not unrated:
        return None
    shown: object = Message.joined(", ", unrated[:5])
    if len(unrated) > 5:
        shown = Message.joined(" ", [shown, "…"])
    return Message(
        "{code} dropped: unrated players present ({players}) and no rule for them "
        "(C.07 art. 10; add /U<rating> to count them at a fixed rating)",
        code=spec.code,
        players=shown,
    )


def ratings_of(f: Field, spec: TieBreakSpec) -> list[int | None]:
    fill = spec.unrated_rating
    return [r if r is not None else fill for r in f.rating]


def rating_in_round(f: Field, spec: TieBreakSpec, q: int, r: int) -> int | None:
    """Player ``q``'s rating as a rating-based tie-break reads it for round index ``r``:
    the rating of that round when the event counts ratings per round, else the first."""
    rating = f.rating[q] if f.round_rating is None else f.round_rating[q][r]
    return rating if rating is not None else spec.unrated_rating


def ratings_note(f: Field) -> str:
    """What the explanations say about the ratings read (nothing for the first ones)."""
    if f.round_rating is None:
        return ""
    return Message("each opponent's rating is the one of the round the game was played")


def opponents_played(
    f: Field, spec: TieBreakSpec, p: int, ratings: list[int | None] | None = None
) -> list[tuple[int, int, int]]:
    """(round index, rating, result 2/1/0) of each over-the-board opponent that has a rating,
    after the spec's cuts (lowest ratings first, then highest)."""
    if ratings is None:
        ratings = ratings_of(f, spec)
    games = []
    opps = f.opp[p]
    res = f.res[p]
    per_round = f.round_rating
    for r, k in enumerate(f.kind[p]):
        if k == GAME:
            o = opps[r]
            rating = ratings[o] if per_round is None else rating_in_round(f, spec, o, r)
            if rating is not None:
                games.append((r, rating, res[r]))
    low = min(spec.cut_low, f.rounds)
    high = min(spec.cut_high, f.rounds - low)
    if low or high:
        ordered = sorted(games, key=lambda g: g[1])
        games = ordered[low : len(ordered) - high]
    return games


def average_rating(games: list[tuple[int, int, int]]) -> int | None:
    if not games:
        return None
    return round_half_up(sum(g[1] for g in games), len(games))


def performance(games: list[tuple[int, int, int]]) -> int | None:
    """TPR: ARO + dp(fractional score), the score rounded to hundredths (C.07 10.2)."""
    aro = average_rating(games)
    if aro is None:
        return None
    halves = sum(g[2] for g in games)
    return aro + dp(round_half_up(100 * halves, 2 * len(games)))


def perfect_performance(games: list[tuple[int, int, int]]) -> int | None:
    """PTP: the lowest rating whose expected score reaches the score (C.07 10.3)."""
    if not games:
        return None
    ratings = [g[1] for g in games]
    target = 50 * sum(g[2] for g in games)  # hundredths
    if target == 0:
        return min(ratings) - 800
    lo, hi = min(ratings) - 800, max(ratings) + 800  # expected(lo) < target <= expected(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if sum(expected(mid - r) for r in ratings) >= target:
            hi = mid
        else:
            lo = mid
    return hi


class _RatingBased(TieBreak):
    tb_type = "D"
    modifiers = frozenset({CUT, MEDIAN, UNRATED})
    integral = True

    def applies(self, f: Field, spec: TieBreakSpec) -> str | None:
        return unrated_reason(f, spec)

    def per_player(self, games: list[tuple[int, int, int]]) -> int | None:
        raise NotImplementedError

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        ratings = ratings_of(f, spec)
        return [self.per_player(opponents_played(f, spec, p, ratings)) for p in f.indices()]

    def player_value(self, f: Field, spec: TieBreakSpec, p: int) -> Value | None:
        return self.per_player(opponents_played(f, spec, p))

    def explain(self, f: Field, spec: TieBreakSpec, p: int) -> Explanation:
        reason = self.applies(f, spec)
        if reason:
            return Explanation(spec.code, p + 1, None, show(None), note=reason)
        kept = {g[0] for g in opponents_played(f, spec, p)}
        ratings = ratings_of(f, spec)
        items = []
        for r in range(f.rounds):
            if f.kind[p][r] != GAME:
                continue
            o = f.opp[p][r]
            rating = ratings[o] if f.round_rating is None else rating_in_round(f, spec, o, r)
            text = _game_text(f.res[p][r], o + 1, rating)
            if r not in kept:
                text = Message("{element} — cut", element=text)
            items.append(Item(f.round_numbers[r], o + 1, text, rating, r in kept))
        value = self.values(f, spec)[p]
        return Explanation(
            spec.code,
            p + 1,
            value,
            show(value),
            tuple(items),
            self.formula(f, spec, p),
            Message.joined("; ", [self.article, note])
            if (note := ratings_note(f))
            else self.article,
        )

    def formula(self, f: Field, spec: TieBreakSpec, p: int) -> str:
        games = opponents_played(f, spec, p)
        if not games:
            return Message("no rated games over the board")
        total = sum(g[1] for g in games)
        return Message(
            "({sum}) / {count} = {average}",
            sum=join_sum([g[1] for g in games]),
            count=len(games),
            average=Fixed(total, len(games)),
        )


@register
class AverageRatingOfOpponents(_RatingBased):
    """ARO: mean rating of the opponents played over the board, .5 rounded up (10.1)."""

    name = "ARO"
    title = "Average rating of opponents"
    article = "C.07 10.1"

    def per_player(self, games: list[tuple[int, int, int]]) -> int | None:
        return average_rating(games)

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        if spec.modified or f.round_rating is not None:
            return super().values(f, spec)
        ratings = ratings_of(f, spec)
        out: list[Value | None] = []
        for kinds, opps in zip(f.kind, f.opp, strict=True):  # the plain mean, fast
            met = [ratings[o] for k, o in zip(kinds, opps, strict=True) if k == GAME]
            known = [r for r in met if r is not None]
            out.append(round_half_up(sum(known), len(known)) if known else None)
        return out


@register
class AverageRatingOfRatedOpponents(_RatingBased):
    """ARO_RATED: the portal's average rating of all rated opponents met, unrounded."""

    name = "ARO_RATED"
    title = "Average rating of rated opponents (portal)"
    # the portal's rules: seeds 000, 002 (cited here, not in the explanation users read)
    article = "portal rules: average rating of the opponents met, unrounded"
    integral = False

    def applies(self, f: Field, spec: TieBreakSpec) -> str | None:
        return None

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        ratings = ratings_of(f, spec)
        return [_mean(opponents_played(f, spec, p, ratings)) for p in f.indices()]

    def player_value(self, f: Field, spec: TieBreakSpec, p: int) -> Value | None:
        return _mean(opponents_played(f, spec, p))


@register
class PerformanceRating(_RatingBased):
    """TPR: ARO plus the rating difference for the fractional score (10.2)."""

    name = "TPR"
    title = "Tournament performance rating"
    article = "C.07 10.2"
    tb_type = "DB"

    def per_player(self, games: list[tuple[int, int, int]]) -> int | None:
        return performance(games)

    def formula(self, f: Field, spec: TieBreakSpec, p: int) -> str:
        games = opponents_played(f, spec, p)
        if not games:
            return Message("no rated games over the board")
        halves = sum(g[2] for g in games)
        share = round_half_up(100 * halves, 2 * len(games))
        return Message(
            "ARO {average} + dp({share}) {difference} = {performance}",
            average=average_rating(games),
            share=Fixed(share, 100),
            difference=dp(share),
            performance=performance(games),
        )


@register
class PerfectPerformance(_RatingBased):
    """PTP: the lowest rating expected to score at least the score (10.3)."""

    name = "PTP"
    title = "Perfect tournament performance"
    article = "C.07 10.3"
    tb_type = "DB"

    def per_player(self, games: list[tuple[int, int, int]]) -> int | None:
        return perfect_performance(games)

    def formula(self, f: Field, spec: TieBreakSpec, p: int) -> str:
        games = opponents_played(f, spec, p)
        if not games:
            return Message("no rated games over the board")
        score = Fraction(sum(g[2] for g in games), 2)
        return Message(
            (
                "lowest rating whose expected score against {count} opponents reaches "
                "{score}: {rating}"
            ),
            count=len(games),
            score=amount(score),
            rating=perfect_performance(games),
        )


class _AverageOfOpponents(_RatingBased):
    tb_type = "DC"
    scope = "field"

    def of_player(self, games: list[tuple[int, int, int]]) -> int | None:
        raise NotImplementedError

    def player_value(self, f: Field, spec: TieBreakSpec, p: int) -> Value | None:
        # (the base class's per-player form averaged the player's own games through
        # per_player, which these do not define: it raised; a property test found it)
        return self.values(f, spec)[p]

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        ratings = ratings_of(f, spec)
        own = [self.of_player(opponents_played(f, spec, p, ratings)) for p in f.indices()]
        out: list[Value | None] = []
        for p in f.indices():
            found = [
                v
                for r in range(f.rounds)
                if f.kind[p][r] == GAME and (v := own[f.opp[p][r]]) is not None
            ]
            out.append(round_half_up(sum(found), len(found)) if found else None)
        return out

    def formula(self, f: Field, spec: TieBreakSpec, p: int) -> str:
        ratings = ratings_of(f, spec)
        own = [self.of_player(opponents_played(f, spec, q, ratings)) for q in f.indices()]
        found = [
            v
            for r in range(f.rounds)
            if f.kind[p][r] == GAME and (v := own[f.opp[p][r]]) is not None
        ]
        if not found:
            return Message("no opponents over the board")
        return Message("({sum}) / {count}", sum=join_sum(found), count=len(found))


@register
class AveragePerformanceOfOpponents(_AverageOfOpponents):
    """APRO: the average TPR of the opponents played over the board (10.4)."""

    name = "APRO"
    title = "Average performance rating of opponents"
    article = "C.07 10.4"

    def of_player(self, games: list[tuple[int, int, int]]) -> int | None:
        return performance(games)


@register
class AveragePerfectPerformanceOfOpponents(_AverageOfOpponents):
    """APPO: the average PTP of the opponents played over the board (10.5)."""

    name = "APPO"
    title = "Average perfect performance of opponents"
    article = "C.07 10.5"

    def of_player(self, games: list[tuple[int, int, int]]) -> int | None:
        return perfect_performance(games)


@register
class Rating(TieBreak):
    """RTNG: the player's own rating, highest first (10.6); /R lowest first."""

    name = "RTNG"
    title = "Rating"
    article = "C.07 10.6 (2026)"
    tb_type = "B"
    modifiers = frozenset({REVERSE, UNRATED})
    integral = True

    def applies(self, f: Field, spec: TieBreakSpec) -> str | None:
        return unrated_reason(f, spec)

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        return list(ratings_of(f, spec))


def _mean(games: list[tuple[int, int, int]]) -> Fraction | None:
    return Fraction(sum(g[1] for g in games), len(games)) if games else None


def _game_text(result: int, opponent: int, rating: int | None) -> str:
    """A rated game in words (a Message, translated on the web)."""
    if rating is None:
        if result == 2:
            return Message("won against {opponent}, rated unrated", opponent=opponent)
        if result == 1:
            return Message("drew against {opponent}, rated unrated", opponent=opponent)
        return Message("lost against {opponent}, rated unrated", opponent=opponent)
    if result == 2:
        return Message("won against {opponent}, rated {rating}", opponent=opponent, rating=rating)
    if result == 1:
        return Message("drew against {opponent}, rated {rating}", opponent=opponent, rating=rating)
    return Message("lost against {opponent}, rated {rating}", opponent=opponent, rating=rating)
