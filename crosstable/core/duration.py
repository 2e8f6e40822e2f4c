"""Round-robin arithmetic, time controls and the duration calculator.

The arithmetic an organiser sees before round 1 (seeds 001, 003, 004):

>>> a = round_robin_arithmetic(8)
>>> a.rounds, a.games, a.boards, a.double_rounds, a.double_games
(7, 28, 4, 14, 56)

The duration rule of seeds 001 and 004: minutes per player = base minutes +
increment (or delay) *seconds* read as minutes (the time a player may use in a
game of about sixty moves); the worst-case game is twice that; a scheduled round
is the worst case plus 15 minutes for the change-over.

>>> e = estimate_duration(8, "G/25 d5")
>>> e.minutes_per_player, e.worst_case_game_minutes, e.round_minutes, e.total_minutes
(Fraction(30, 1), Fraction(60, 1), Fraction(75, 1), Fraction(525, 1))
>>> e.rounds_per_evening, e.evenings, format_hours(e.total_minutes)
(2, 4, '8¾ h')

Everything is exact (:class:`fractions.Fraction` minutes); only
:func:`format_hours` rounds, to the quarter hour as seed 004 prints it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor

from crosstable.core.errors import RuleError
from crosstable.core.scoring import format_points, points_json

#: Minutes between two scheduled rounds for the change-over (seeds 001, 004).
CHANGEOVER_MINUTES = 15
#: A club evening in minutes (seed 004's "three-hour club evening").
DEFAULT_EVENING_MINUTES = 180
#: A bare time value of this many units or more is read as seconds (TRF-2026 tag 222).
SECONDS_THRESHOLD = 240


@dataclass(frozen=True, slots=True)
class Arithmetic:
    """Rounds, games and boards of a round robin of ``players``."""

    players: int
    rounds: int
    games: int
    boards: int
    double_rounds: int
    double_games: int


def round_robin_arithmetic(players: int) -> Arithmetic:
    """Rounds = N−1 for even N and N for odd N; games = N(N−1)/2; boards = ⌊N/2⌋.

    A double round robin doubles rounds and games.

    >>> round_robin_arithmetic(7)
    Arithmetic(players=7, rounds=7, games=21, boards=3, double_rounds=14, double_games=42)
    """
    if players < 3:
        raise RuleError(
            "players: {players} — a round robin needs at least 3 players", players=players
        )
    rounds = players - 1 if players % 2 == 0 else players
    games = players * (players - 1) // 2
    return Arithmetic(players, rounds, games, players // 2, 2 * rounds, 2 * games)


@dataclass(frozen=True, slots=True)
class Period:
    """One period of a time control: ``moves`` (None: the rest of the game) in ``minutes``.

    ``increment_seconds`` is added after every move (Fischer), ``delay_seconds``
    is a delay (US "d5" or Bronstein); a period has at most one of the two.
    """

    moves: int | None
    minutes: Fraction
    increment_seconds: Fraction = Fraction(0)
    delay_seconds: Fraction = Fraction(0)

    def notation(self) -> str:
        text = format_points(self.minutes)
        if self.moves is not None:
            text = f"{self.moves}/{text}"
        if self.increment_seconds:
            text += f"+{format_points(self.increment_seconds)}"
        elif self.delay_seconds:
            text += f" d{format_points(self.delay_seconds)}"
        return text


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A parsed time control: its periods in playing order.

    >>> tc = TimeControl.parse("40/90,30+30")
    >>> tc.base_minutes, tc.bonus_seconds, tc.minutes_per_player
    (Fraction(120, 1), Fraction(30, 1), Fraction(150, 1))
    >>> TimeControl.parse("G/25;d5").notation()
    'G/25 d5'
    >>> TimeControl.parse("5400+30").notation()
    '90+30'
    """

    periods: tuple[Period, ...]

    @property
    def base_minutes(self) -> Fraction:
        """The sum of the thinking time of all periods."""
        return sum((p.minutes for p in self.periods), Fraction(0))

    @property
    def bonus_seconds(self) -> Fraction:
        """The largest increment or delay of any period (the one that counts per move)."""
        return max(max(p.increment_seconds, p.delay_seconds) for p in self.periods)

    @property
    def minutes_per_player(self) -> Fraction:
        """Base minutes + increment/delay seconds read as minutes (seeds 001, 004)."""
        return self.base_minutes + self.bonus_seconds

    def notation(self) -> str:
        """A canonical spelling: ``G/25 d5``, ``90+30``, ``40/90, 30+30``."""
        if len(self.periods) == 1 and self.periods[0].delay_seconds:
            return "G/" + self.periods[0].notation()
        return ", ".join(p.notation() for p in self.periods)

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        return parse_time_control(text)


_MINUTE_UNITS = {"'": 1, "′": 1, "m": 1, "min": 1, "mins": 1, "h": 60}
_SECOND_UNITS = {'"': 1, "″": 1, "''": 1, "′′": 1, "s": 1, "sec": 1, "secs": 1}
_NUMBER = r"\d+(?:[.,]\d+)?"
_UNIT = r"(?:''|′′|mins|min|secs|sec|['′\"″msh])"
_PERIOD = re.compile(
    rf"^(?:(?P<prefix>g|sd)/?|(?P<moves>\d+)/)?(?P<time>{_NUMBER})(?P<unit>{_UNIT})?"
    rf"(?:(?P<kind>\+|inc|i|delay|d)(?P<bonus>{_NUMBER})(?P<bunit>{_UNIT})?)?$"
)
_BONUS = re.compile(rf"^(?P<kind>\+|inc|i|delay|d)(?P<bonus>{_NUMBER})(?P<bunit>{_UNIT})?$")


def parse_time_control(text: str) -> TimeControl:
    """Read the usual notations of a time control.

    Accepted: ``25+5`` and ``90+30`` (minutes + increment seconds, FIDE style),
    ``G/25 d5``, ``G/25;d5``, ``G/60; d5``, ``SD/30 d5`` (US style, ``d`` = delay),
    ``G/90+30``, ``G/90 inc30``, ``90'+30"``, several periods separated by commas
    (``40/90,30+30`` = 90 minutes for 40 moves, then 30 minutes, 30 s increment),
    and TRF-2026 tag-222 values in seconds (``5400+30``, ``40/6000+30:900+30``).

    Minutes or seconds: a time with a unit (``'``, ``m``, ``min``, ``h``; ``"``,
    ``s``, ``sec``) is taken as written; after ``G/`` or ``SD/`` it is minutes.
    A bare number is minutes, unless the text is in TRF-2026 style — it uses ``:``
    between periods, or a bare time is 240 or more (no over-the-board period
    lasts four hours, so ``5400`` can only be seconds) — then every bare time is
    seconds. Increments and delays are always seconds.

    >>> parse_time_control("G/60;d5").minutes_per_player
    Fraction(65, 1)
    >>> parse_time_control("G/25 x5")
    Traceback (most recent call last):
    ...
    crosstable.core.errors.RuleError: time control 'G/25 x5': 'x5' is not understood \
(expected e.g. 25+5, G/25 d5, 40/90,30+30 or 5400+30)
    """
    original = text
    if not text or not text.strip():
        raise RuleError("time control is empty (expected e.g. 25+5, G/25 d5 or 90+30)")
    cleaned = text.strip().lower().replace("–", "-")
    cleaned = re.sub(r"\s*\+\s*", "+", cleaned)
    cleaned = re.sub(r"\b(inc|delay|d)\s*(?=\d)", r"\1", cleaned)
    cleaned = re.sub(rf"(\d)\s+(?={_UNIT}(?:[\s,;:+]|$))", r"\1", cleaned)
    trf_style = ":" in cleaned
    pieces = [p for p in re.split(r"[\s,;:]+", cleaned) if p]
    raw: list[dict[str, str | None]] = []
    for piece in pieces:
        bonus = _BONUS.match(piece)
        if bonus and raw and raw[-1]["kind"] is None:
            raw[-1].update(bonus.groupdict())
            continue
        match = _PERIOD.match(piece)
        if match is None:
            raise RuleError(
                (
                    "time control {control}: {piece} is not understood (expected e.g. 25+5, G/25 "
                    "d5, 40/90,30+30 or 5400+30)"
                ),
                control=repr(original),
                piece=repr(piece),
            )
        raw.append(match.groupdict())
    if any(
        r["unit"] is None and r["prefix"] is None and _decimal(r["time"]) >= SECONDS_THRESHOLD
        for r in raw
    ):
        trf_style = True
    periods = tuple(_period(r, trf_style, original) for r in raw)
    if len(periods) > 1 and any(p.moves is None for p in periods[:-1]):
        raise RuleError(
            (
                "time control {control}: only the last period can be for the rest of the game; "
                "write the earlier ones as moves/minutes (e.g. 40/90,30+30)"
            ),
            control=repr(original),
        )
    if periods[-1].moves is not None:
        raise RuleError(
            (
                "time control {control}: the last period must be for the rest of the game (add it "
                "without a move count, e.g. 40/90,30+30)"
            ),
            control=repr(original),
        )
    if sum((p.minutes for p in periods), Fraction(0)) == 0:
        raise RuleError(
            "time control {control}: the players have no thinking time", control=repr(original)
        )
    return TimeControl(periods)


def _decimal(text: str | None) -> Fraction:
    return Fraction((text or "0").replace(",", "."))


def _period(raw: dict[str, str | None], trf_style: bool, original: str) -> Period:
    time = _decimal(raw["time"])
    unit = raw["unit"]
    if unit in _MINUTE_UNITS:
        minutes = time * _MINUTE_UNITS[unit]
    elif unit in _SECOND_UNITS or (unit is None and raw["prefix"] is None and trf_style):
        minutes = time / 60
    else:
        minutes = time
    moves = int(raw["moves"]) if raw["moves"] is not None else None
    if moves == 0:
        raise RuleError("time control {control}: a period of 0 moves", control=repr(original))
    bonus = _decimal(raw["bonus"]) if raw["bonus"] is not None else Fraction(0)
    if raw["bunit"] in _MINUTE_UNITS:
        raise RuleError(
            "time control {control}: the increment or delay is in seconds, not {unit}",
            control=repr(original),
            unit=repr(raw["bunit"]),
        )
    if raw["kind"] in ("d", "delay"):
        return Period(moves, minutes, delay_seconds=bonus)
    return Period(moves, minutes, increment_seconds=bonus)


@dataclass(frozen=True, slots=True)
class DurationEstimate:
    """How long a round robin takes. Minutes are exact fractions.

    With ``double`` the ``rounds``, ``games`` and ``total_minutes`` are those of
    the double round robin; ``double_rounds`` and ``double_games`` are always
    the double figures.
    """

    players: int
    time_control: TimeControl
    double: bool
    rounds: int
    games: int
    boards: int
    double_rounds: int
    double_games: int
    minutes_per_player: Fraction
    worst_case_game_minutes: Fraction
    round_minutes: Fraction
    total_minutes: Fraction
    evening_minutes: Fraction
    rounds_per_evening: int
    evenings: int

    @property
    def round_longer_than_evening(self) -> bool:
        """A scheduled round does not fit the evening; one round per evening is assumed."""
        return self.round_minutes > self.evening_minutes

    def to_json(self) -> dict[str, int | float]:
        """The command-line JSON shape of DESIGN.md (numbers, not strings)."""
        return {
            "players": self.players,
            "rounds": self.rounds,
            "games": self.games,
            "boards": self.boards,
            "double_rounds": self.double_rounds,
            "double_games": self.double_games,
            "minutes_per_player": points_json(self.minutes_per_player),
            "worst_case_game_minutes": points_json(self.worst_case_game_minutes),
            "round_minutes": points_json(self.round_minutes),
            "total_minutes": points_json(self.total_minutes),
            "rounds_per_evening": self.rounds_per_evening,
            "evenings": self.evenings,
        }


def estimate_duration(
    players: int,
    time_control: TimeControl | str,
    *,
    evening_minutes: int | Fraction = DEFAULT_EVENING_MINUTES,
    double: bool = False,
    changeover_minutes: int | Fraction = CHANGEOVER_MINUTES,
) -> DurationEstimate:
    """The duration of a round robin of ``players`` at ``time_control``.

    Rounds per evening = how many scheduled rounds fit the evening, but at least
    one: a round longer than the evening still takes one evening (seed 001's
    twelve-player classical championship is "about eleven weeks"), see
    :attr:`DurationEstimate.round_longer_than_evening`.

    >>> e = estimate_duration(12, "90+30", double=True)
    >>> e.rounds, e.round_minutes, e.rounds_per_evening, e.evenings
    (22, Fraction(255, 1), 1, 22)
    """
    if isinstance(time_control, str):
        time_control = parse_time_control(time_control)
    evening = Fraction(evening_minutes)
    if evening <= 0:
        raise RuleError("evening: {minutes} minutes — must be more than 0", minutes=evening_minutes)
    changeover = Fraction(changeover_minutes)
    if changeover < 0:
        raise RuleError(
            "change-over: {minutes} minutes — must not be negative", minutes=changeover_minutes
        )
    arithmetic = round_robin_arithmetic(players)
    rounds = arithmetic.double_rounds if double else arithmetic.rounds
    games = arithmetic.double_games if double else arithmetic.games
    per_player = time_control.minutes_per_player
    worst = 2 * per_player
    round_minutes = worst + changeover
    per_evening = max(1, floor(evening / round_minutes))
    return DurationEstimate(
        players=players,
        time_control=time_control,
        double=double,
        rounds=rounds,
        games=games,
        boards=arithmetic.boards,
        double_rounds=arithmetic.double_rounds,
        double_games=arithmetic.double_games,
        minutes_per_player=per_player,
        worst_case_game_minutes=worst,
        round_minutes=round_minutes,
        total_minutes=rounds * round_minutes,
        evening_minutes=evening,
        rounds_per_evening=per_evening,
        evenings=ceil(Fraction(rounds, per_evening)),
    )


def quarter_hours(minutes: Fraction) -> Fraction:
    """Hours rounded to the nearest quarter (halves round up), as seed 004 prints them.

    >>> quarter_hours(Fraction(725)), quarter_hours(Fraction(1595))
    (Fraction(12, 1), Fraction(53, 2))
    """
    quarters = Fraction(minutes) / 15
    return Fraction(floor(quarters + Fraction(1, 2)), 4)


def format_hours(minutes: Fraction) -> str:
    """``2¼ h``, ``12 h``, ``26½ h``: hours to the quarter with vulgar fractions."""
    hours = quarter_hours(minutes)
    whole = floor(hours)
    part = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}[
        hours - whole
    ]
    head = str(whole) if whole or not part else ""
    return f"{head}{part} h"
