"""Battle chess: the colour of each game is drawn just before the game.

The schedule says who meets whom; who has White is not taken from the table but
drawn by the computer at the moment the game is set up. The draw is fair (each
player White with probability ½) and reproducible, so a disputed colour can be
checked afterwards:

* :func:`draw_colours` uses a ``random.Random`` that the caller injects (already
  seeded); the result depends on how many draws came before.
* :class:`BattleColours` derives each game's draw from the event seed, the round
  and the two players only — the same game gets the same colours whatever order
  the games are set up in. Keep the seed secret until the event is over (anyone
  who knows it can compute every colour in advance), then publish it.

>>> colours = BattleColours(seed=424242)
>>> colours.colours(1, 3, 8) == colours.colours(1, 8, 3)
True
>>> sorted(colours.colours(1, 3, 8))
[3, 8]
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult, Outcome, System
from crosstable.core.schedule.types import Schedule, ScheduledRound

#: the regulations' details that make a tournament battle chess (docs/battle.md)
VARIANT = "variant"
BATTLE = "battle"
SETUP_MINUTES = "setup_minutes"
SEED = "battle_seed"
#: the longest set-up time the regulations may give (minutes)
MAX_SETUP_MINUTES = 120
#: what the crosstable adds to the result of a set-up timeout: ``1†``, ``½†``, ``0†``
SETUP_MARK = "†"
#: the largest published seed (it fits the store's integer columns and a TRF line)
MAX_SEED = 2**53


def draw_colours(first: int, second: int, rng: random.Random) -> tuple[int, int]:
    """``(white, black)`` for a game between ``first`` and ``second``, a fair coin from ``rng``.

    >>> draw_colours(1, 2, random.Random(5))
    (2, 1)
    """
    if first == second:
        raise RuleError("player {player} cannot meet themself", player=first)
    low, high = sorted((first, second))
    return (low, high) if rng.random() < 0.5 else (high, low)


@dataclass(frozen=True, slots=True)
class BattleColours:
    """Colours drawn game by game from an event ``seed`` (an integer)."""

    seed: int

    def rng(self, round_number: int, first: int, second: int) -> random.Random:
        """The random source of one game: seeded from event seed, round and the two players."""
        low, high = sorted((first, second))
        return random.Random(f"battle:{self.seed}:{round_number}:{low}:{high}")

    def colours(self, round_number: int, first: int, second: int) -> tuple[int, int]:
        """``(white, black)`` of this game."""
        return draw_colours(first, second, self.rng(round_number, first, second))

    def draw_round(self, scheduled: ScheduledRound) -> ScheduledRound:
        """The round with every board's colours drawn (the pairings stay as scheduled)."""
        boards = tuple(self.colours(scheduled.number, w, b) for w, b in scheduled.boards)
        return ScheduledRound(scheduled.number, boards, scheduled.bye, scheduled.cycle)

    def draw_schedule(self, schedule: Schedule) -> Schedule:
        """Every round drawn at once — for checking a finished event or for tests."""
        return Schedule(schedule.players, tuple(self.draw_round(r) for r in schedule.rounds))


@dataclass(frozen=True, slots=True)
class BattleRules:
    """What the regulations of a battle-chess tournament say."""

    seed: int
    setup_minutes: int | None = None  # None: the regulations give no set-up time


def is_battle(details: Mapping[str, object] | None) -> bool:
    """Do these regulations' details make the tournament battle chess?"""
    return bool(details) and str((details or {}).get(VARIANT, "")).strip().lower() == BATTLE


def battle_rules(details: Mapping[str, object] | None) -> BattleRules | None:
    """The battle-chess rules of checked details (None: not battle chess)."""
    if not details or not is_battle(details):
        return None
    minutes = str(details.get(SETUP_MINUTES, "")).strip()
    return BattleRules(int(str(details.get(SEED, "0")) or 0), int(minutes) if minutes else None)


def check_battle_details(
    details: Mapping[str, str], system: System, seed: int | None
) -> dict[str, str]:
    """The details with the battle-chess keys checked and the seed filled in.

    ``seed`` is used when the details carry none (the caller draws it with its
    injected random source). Not battle chess: the details unchanged, except that a
    set-up time or a seed without the variant is refused (they would mean nothing).

    >>> check_battle_details({"variant": "battle", "setup_minutes": "5"}, System.ROUND_ROBIN, 7)
    {'variant': 'battle', 'setup_minutes': '5', 'battle_seed': '7'}
    """
    out = {str(k): str(v) for k, v in details.items()}
    variant = out.get(VARIANT, "").strip().lower()
    if variant and variant != BATTLE:
        raise RuleError(
            "variant: {value} is not known; the only variant is 'battle'", value=repr(out[VARIANT])
        )
    if not variant:
        for key in (SETUP_MINUTES, SEED):
            if out.get(key, "").strip():
                raise RuleError(
                    "{key}: only a battle-chess tournament has one", key=key.replace("_", " ")
                )
        return out
    out[VARIANT] = BATTLE
    if system is not System.ROUND_ROBIN:
        raise RuleError(
            "battle chess is a round robin here; a {system} tournament cannot be one",
            system=system.value,
        )
    minutes = out.get(SETUP_MINUTES, "").strip()
    if minutes:
        if not minutes.isascii() or not minutes.isdigit():
            raise RuleError(
                "setup minutes: {value} is not a whole number of minutes", value=repr(minutes)
            )
        if not 1 <= int(minutes) <= MAX_SETUP_MINUTES:
            raise RuleError(
                "setup minutes: {value} — the set-up time is 1 to {most} minutes",
                value=int(minutes),
                most=MAX_SETUP_MINUTES,
            )
        out[SETUP_MINUTES] = str(int(minutes))
    else:
        out.pop(SETUP_MINUTES, None)
    text = out.get(SEED, "").strip()
    if text:
        if not text.isascii() or not text.isdigit() or int(text) > MAX_SEED:
            raise RuleError(
                "battle seed: {value} is not a whole number from 0 to {most}",
                value=repr(text),
                most=MAX_SEED,
            )
        out[SEED] = str(int(text))
    elif seed is not None:
        out[SEED] = str(seed)
    else:
        raise RuleError("battle seed: a battle-chess tournament needs a seed for its colours")
    return out


#: who finished setting up the pieces in time → the result
_SETUP_RESULTS = {
    "none": GameResult(Outcome.SHORT_DRAW, Outcome.SHORT_DRAW),
    "white": GameResult(Outcome.SHORT_WIN, Outcome.SHORT_LOSS),
    "black": GameResult(Outcome.SHORT_LOSS, Outcome.SHORT_WIN),
}


def setup_timeout_result(finished: str) -> GameResult:
    """The result of a set-up timeout: ``finished`` is who set up in time.

    Neither (``"none"``) → a draw; only White or only Black → that player wins. The
    game ended before its first move, so it is written with TRF's codes of a game
    shorter than one move (``W``/``D``/``L``): it counts for points and tie-breaks
    as a game played (docs/battle.md) but is not rated.

    >>> setup_timeout_result("black").label()
    'LW'
    """
    try:
        return _SETUP_RESULTS[finished]
    except KeyError:
        raise RuleError(
            "set-up timeout: {value} — say who finished setting up: none, white or black",
            value=repr(finished),
        ) from None


def is_setup_result(result: GameResult) -> bool:
    """Is this one of the results a set-up timeout gives?"""
    return result in _SETUP_RESULTS.values()
