"""The JSON API's answers built from the services' values, as typed views: each a frozen
dataclass whose ``as_json()`` (:class:`~crosstable.service.read_views.Shown`) is the JSON
:mod:`crosstable.web.routes.api` and its neighbours answer, key for key as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from crosstable.service.read_views import JsonObject, Shown
from crosstable.service.views import PlayerView


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class AccountShown(Shown):
    """An account as ``GET /me`` shows it."""

    id: int
    username: str
    name: str
    admin: bool
    master: bool


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class MeShown(Shown):
    """``GET /me``: the account behind the credentials (None when anonymous)."""

    user: AccountShown | None


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class CreatedShown(Shown):
    """``POST /tournaments``: the tournaments made (several for a group stage) and the
    regulations' warnings (never a refusal)."""

    ids: tuple[int, ...]
    id: int
    warnings: tuple[str, ...]


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class MadeShown(Shown):
    """A tournament made (a team round robin, a team Swiss): ``{"id": …}``."""

    id: int


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class Imported(Shown):
    """A tournament imported (the offline app's export): its id and the change's
    summary in the reader's language."""

    id: int
    summary: str


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class TournamentShown(Shown):
    """``GET /tournaments/{tid}``: the tournament, its settings (their JSON), the
    tie-breaks in the order the regulations publish them, its access and its players."""

    id: int
    name: str
    status: str
    revision: int
    rounds: int
    settings: JsonObject
    tiebreak_order: tuple[str, ...]
    #: "approved", or the state of an administrator's approval still awaited
    approval: str
    self_registration: bool
    #: the players as the services list them (their fields in order, as JSON)
    players: tuple[PlayerView, ...]


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class CellShown(Shown):
    """A game of a crosstable line against one opponent."""

    round: int
    colour: str
    result: str


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class LineShown(Shown):
    """A player's line of ``GET /tournaments/{tid}/crosstable``: the games against each
    opponent (by starting number, as text), points, tie-breaks by code, rank."""

    start: int
    name: str
    rating: int | None
    results: dict[str, tuple[CellShown, ...]]
    points: float
    tiebreaks: dict[str, float | None]
    rank: int | None


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class CrosstableShown(Shown):
    """``GET /tournaments/{tid}/crosstable``."""

    revision: int
    status: str
    provisional: bool
    tiebreaks: tuple[str, ...]
    players: tuple[LineShown, ...]


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class RoundGameShown(Shown):
    """A game of ``GET /tournaments/{tid}/rounds/{rnd}``."""

    board: int
    white: int | None
    black: int | None
    white_name: str
    black_name: str
    result: str | None
    white_report: str | None
    black_report: str | None
    disputed: bool
    version: int


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class RoundShown(Shown):
    """``GET /tournaments/{tid}/rounds/{rnd}``: the games and who is free.

    ``colours_drawn`` false: a battle-chess round whose colours are drawn just before the
    game; until then "white" and "black" are the pairing's order, not the colours."""

    round: int
    revision: int
    colours_drawn: bool
    games: tuple[RoundGameShown, ...]
    free: tuple[int, ...]


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class ReviewShown(Shown):
    """``POST /tournaments/{tid}/pairing/review``: how a manual pairing differs from the
    Dutch system's (none: it is the engine's pairing)."""

    manual: bool
    warnings: tuple[str, ...]


__all__ = [
    "AccountShown",
    "CellShown",
    "CreatedShown",
    "CrosstableShown",
    "Imported",
    "LineShown",
    "MadeShown",
    "MeShown",
    "ReviewShown",
    "RoundGameShown",
    "RoundShown",
    "TournamentShown",
]
