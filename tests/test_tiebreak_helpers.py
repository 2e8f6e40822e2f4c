"""Hand-made tournaments for the tie-break and standings tests (plain model values; no tests here).

``tour(4, [["1-4 1-0", "2-3 =="], …])`` builds round after round from short strings:
``"W-B RESULT"`` is a game (results as :meth:`GameResult.parse` reads them, plus ``==``
for a draw and ``..`` for a game not played yet); ``"5 U"`` is a bye (U, F, H, Z, free).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from crosstable.core.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    Round,
    RulesEdition,
    Settings,
    System,
    Tournament,
)
from crosstable.core.schedule.berger import berger_table
from crosstable.core.scoring import PointSystem

BYES = {
    "U": ByeKind.PAIRING,
    "F": ByeKind.FULL,
    "H": ByeKind.HALF,
    "Z": ByeKind.ZERO,
    "free": ByeKind.FREE,
}


def result(text: str) -> GameResult | None:
    if text == "..":
        return None
    if text == "==":
        return GameResult.DRAW()
    return GameResult.parse(text)


def tour(
    size: int,
    rounds: Sequence[Sequence[str]],
    *,
    system: System = System.ROUND_ROBIN,
    ratings: Sequence[int | None] | None = None,
    points: PointSystem | None = None,
    rules: RulesEdition = RulesEdition.C07_2024,
    withdrawn: frozenset[int] = frozenset(),
    cycles: int = 1,
    bye_points: Fraction | None = None,
) -> Tournament:
    players = tuple(
        Player(i, f"Player {i}", rating=None if ratings is None else ratings[i - 1])
        for i in range(1, size + 1)
    )
    built = []
    for number, items in enumerate(rounds, start=1):
        games: list[Game] = []
        byes: list[Bye] = []
        for item in items:
            left, right = item.split(" ", 1)
            if "-" in left:
                white, black = (int(x) for x in left.split("-"))
                games.append(Game(number, len(games) + 1, white, black, result(right)))
            else:
                byes.append(Bye(number, int(left), BYES[right]))
        built.append(Round(number, tuple(games), tuple(byes)))
    settings = Settings(
        system=system,
        point_system=points or PointSystem(),
        rules=rules,
        cycles=cycles,
        bye_points=bye_points,
    )
    return Tournament(settings=settings, players=players, rounds=tuple(built), withdrawn=withdrawn)


def round_robin(
    size: int,
    results: Sequence[str] | None = None,
    *,
    ratings: Sequence[int | None] | None = None,
    rules: RulesEdition = RulesEdition.C07_2024,
    points: PointSystem | None = None,
) -> Tournament:
    """A single round robin on the FIDE Berger table; ``results`` in board order
    (round 1 board 1, round 1 board 2, …), default: every game still to be played."""
    schedule = berger_table(size)
    pending = iter(results or [])
    rounds = []
    for rnd in schedule.rounds:
        items = [f"{w}-{b} {next(pending, '..')}" for w, b in rnd.boards]
        if rnd.bye is not None:
            items.append(f"{rnd.bye} free")
        rounds.append(items)
    return tour(size, rounds, ratings=ratings, rules=rules, points=points)
