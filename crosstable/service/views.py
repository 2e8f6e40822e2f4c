"""What a screen shows of a tournament: its players, games and byes, read once.

:func:`tournament_view` makes the view of a loaded tournament; the service's reads
(:mod:`crosstable.service.queries`) and its read model (:mod:`crosstable.service.tables`)
answer with it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any

from crosstable.core import battle
from crosstable.core.regulations import RegulationDetails
from crosstable.service.details import Details
from crosstable.service.loading import Loaded, result_label
from crosstable.service.read_views import JsonObject


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    id: int
    name: str
    status: str
    system: str
    players: int
    revision: int


@dataclass(frozen=True, slots=True)
class PlayerView:
    number: int
    start: int | None
    name: str
    rating: int | None
    title: str
    federation: str
    withdrawn_from: int | None
    place: int | None


@dataclass(frozen=True, slots=True)
class GameView:
    round: int
    board: int
    white: int | None  # starting numbers
    black: int | None
    white_name: str
    black_name: str
    result: str | None  # "1-0", "½-½", "+-"…; None: no result yet
    white_report: str | None
    black_report: str | None
    version: int

    @property
    def disputed(self) -> bool:
        return (
            self.result is None
            and self.white_report is not None
            and self.black_report is not None
            and self.white_report != self.black_report
        )


@dataclass(frozen=True, slots=True)
class ByeRequest:
    """A bye of a paired round or one asked for ahead (TRF letters)."""

    round: int
    start: int
    name: str
    kind: str  # "U", "H", "F", "Z"


@dataclass(frozen=True, slots=True)
class PointsShown:
    """The point system as the regulations write it (``"1"``, ``"1/2"``; None: as a
    win, a loss or a draw)."""

    win: str
    draw: str
    loss: str
    forfeit_win: str | None = None
    forfeit_loss: str | None = None
    pairing_bye: str | None = None
    full_bye: str | None = None
    half_bye: str | None = None
    zero_bye: str = "0"

    @classmethod
    def from_json(cls, body: Mapping[str, object]) -> PointsShown:
        def text(name: str) -> str | None:
            value = body.get(name)
            return None if value is None else str(value)

        return cls(
            win=text("win") or "1",
            draw=text("draw") or "1/2",
            loss=text("loss") or "0",
            forfeit_win=text("forfeit_win"),
            forfeit_loss=text("forfeit_loss"),
            pairing_bye=text("pairing_bye"),
            full_bye=text("full_bye"),
            half_bye=text("half_bye"),
            zero_bye=text("zero_bye") or "0",
        )

    def as_json(self) -> dict[str, str | None]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True, slots=True)
class TournamentSettings(Mapping[str, Any]):
    """A tournament's settings as shown: typed fields; read by key (``settings["system"]``)
    it is the JSON the API writes, for the readers written against that form."""

    system: str
    cycles: int
    point_system: PointsShown
    bye_points: str | None
    tiebreaks: tuple[str, ...]
    withdrawal_rule: str
    rules: str
    time_control: str
    start_date: str | None
    end_date: str | None
    regulations: RegulationDetails
    draw_method: str | None
    draw_seed: int | None

    def as_json(self) -> JsonObject:
        """The API's JSON form (the tie-breaks a list, the point system an object)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["point_system"] = self.point_system.as_json()
        out["tiebreaks"] = list(self.tiebreaks)
        out["regulations"] = self.regulations.as_json()
        return out

    def __getitem__(self, key: str) -> Any:
        if key not in _SETTING_NAMES:
            raise KeyError(key)
        return self.as_json()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(_SETTING_NAMES)

    def __len__(self) -> int:
        return len(_SETTING_NAMES)


_SETTING_NAMES = tuple(f.name for f in fields(TournamentSettings))


@dataclass(frozen=True, slots=True)
class TournamentView:
    id: int
    name: str
    status: str
    revision: int
    settings: TournamentSettings
    players: tuple[PlayerView, ...]
    games: tuple[GameView, ...]
    free_rounds: tuple[tuple[int, int], ...]  # (round, starting number)
    rounds: int


def tournament_view(loaded: Loaded) -> TournamentView:
    """The screen view of a loaded tournament."""
    row = loaded.row
    entries = loaded.by_number

    def start(number: int) -> int | None:
        return entries[number].start

    games = tuple(
        GameView(
            round=g.round,
            board=g.board,
            white=start(g.white),
            black=start(g.black),
            white_name=entries[g.white].name,
            black_name=entries[g.black].name,
            result=None if g.result is None else result_label(g.result),
            white_report=None if g.white_report is None else result_label(g.white_report),
            black_report=None if g.black_report is None else result_label(g.black_report),
            version=g.version,
        )
        for g in loaded.games
    )
    players = tuple(
        PlayerView(
            e.number, e.start, e.name, e.rating, e.title, e.federation, e.withdrawn_from, e.place
        )
        for e in sorted(loaded.entries, key=lambda e: (e.start is None, e.start or 0, e.number))
    )
    settings = TournamentSettings(
        system=row.system,
        cycles=row.cycles,
        point_system=PointsShown.from_json(row.point_system),
        bye_points=row.bye_points,
        tiebreaks=tuple(c for c in row.tiebreaks.split(",") if c),
        withdrawal_rule=row.withdrawal_rule,
        rules=row.rules_edition,
        time_control=row.time_control,
        start_date=row.start_date,
        end_date=row.end_date,
        regulations=published_regulations(row.regulations, row.status),
        draw_method=row.draw_method,
        draw_seed=row.draw_seed,
    )
    free = tuple((b.round, start(b.player) or 0) for b in loaded.byes)
    return TournamentView(
        id=row.id,
        name=row.name,
        status=row.status,
        revision=row.revision,
        settings=settings,
        players=players,
        games=games,
        free_rounds=free,
        rounds=len(loaded.rounds),
    )


def published_regulations(details: Details | None, status: str) -> RegulationDetails:
    """The regulations' details as anyone may read them: a battle-chess tournament's seed
    of the colours is its SHA-256 (``sha256:…``) until the tournament is finished, so
    nobody can work out the colours of games still to come."""
    shown = dict(details or {})
    seed = shown.get(battle.SEED)
    if battle.is_battle(shown) and status != "finished" and seed not in (None, ""):
        shown[battle.SEED] = "sha256:" + hashlib.sha256(str(seed).encode()).hexdigest()
    return RegulationDetails(shown)
