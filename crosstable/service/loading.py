"""Rows to core values and back: settings, players, the whole :class:`Tournament`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.expulsion import expelled_starts
from crosstable.core.model import (
    Bye,
    ByeKind,
    Draw,
    Game,
    GameResult,
    LotsMethod,
    Outcome,
    Player,
    Reason,
    Round,
    RulesEdition,
    Settings,
    System,
    Tournament,
    WithdrawalRule,
)
from crosstable.core.rating_method import RatingMethod
from crosstable.core.scoring import PointSystem
from crosstable.service.live import GameState, LiveSource
from crosstable.service.long_event_settings import long_event, ratings_per_round, stored_ratings
from crosstable.service.lots import ties_lots_seed
from crosstable.service.tournament_ratings import method_of, rating_of
from crosstable.store.models import ByeRow, EntryRow, GameRow, RoundRow, TournamentRow

_POINT_FIELDS = (
    "win",
    "draw",
    "loss",
    "forfeit_win",
    "forfeit_loss",
    "pairing_bye",
    "full_bye",
    "half_bye",
    "zero_bye",
)


def fraction_text(value: Fraction) -> str:
    """``Fraction(1, 2)`` → ``"1/2"``; whole numbers without a denominator."""
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def point_system_json(system: PointSystem) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for name in _POINT_FIELDS:
        value = getattr(system, name)
        out[name] = None if value is None else fraction_text(value)
    return out


def point_system_from_json(body: Mapping[str, object]) -> PointSystem:
    values = {
        name: Fraction(str(body[name])) for name in _POINT_FIELDS if body.get(name) is not None
    }
    return PointSystem(**values)


#: the regulations detail saying whether forfeits count in tie-breaks
FORFEITS_IN_TIEBREAKS = "forfeits_in_tiebreaks"
_FORFEIT_VALUES = {"yes": True, "no": False}


def check_forfeit_setting(details: Mapping[str, object] | None) -> None:
    """Refuse a ``forfeits_in_tiebreaks`` detail that is neither yes nor no."""
    if details and FORFEITS_IN_TIEBREAKS in details:
        value = str(details[FORFEITS_IN_TIEBREAKS])
        if value.strip().lower() not in _FORFEIT_VALUES:
            raise RuleError(
                "forfeits in tie-breaks is yes or no, not {value}", value=repr(value[:40])
            )


def forfeits_in_tiebreaks(details: Mapping[str, object] | None) -> bool:
    """Whether forfeits count as games in tie-breaks (default yes: C.07 15.2)."""
    value = str((details or {}).get(FORFEITS_IN_TIEBREAKS, "yes")).strip().lower()
    return _FORFEIT_VALUES.get(value, True)


def settings_of(row: TournamentRow) -> Settings:
    return Settings(
        system=System(row.system),
        cycles=row.cycles,
        point_system=point_system_from_json(row.point_system),
        bye_points=None if row.bye_points is None else Fraction(row.bye_points),
        tiebreaks=tuple(code for code in row.tiebreaks.split(",") if code),
        withdrawal_rule=WithdrawalRule(row.withdrawal_rule),
        rules=RulesEdition(row.rules_edition),
        rounds=row.rounds_planned,
        swap_last_rounds=row.swap_last_rounds,
        time_control=row.time_control,
        forfeits_in_tiebreaks=forfeits_in_tiebreaks(row.regulations),
        lots_seed=ties_lots_seed(row.regulations),  # drawn at the finish
        long_event=long_event(row.regulations),
        ratings_per_round=ratings_per_round(row.regulations),
    )


def settings_columns(settings: Settings) -> dict[str, object]:
    """The tournament-row columns that hold ``settings``."""
    return {
        "system": settings.system.value,
        "cycles": settings.cycles,
        "point_system": point_system_json(settings.point_system),
        "bye_points": None if settings.bye_points is None else fraction_text(settings.bye_points),
        "tiebreaks": ",".join(settings.tiebreaks),
        "withdrawal_rule": settings.withdrawal_rule.value,
        "rules_edition": settings.rules.value,
        "rounds_planned": settings.rounds,
        "swap_last_rounds": settings.swap_last_rounds,
        "time_control": settings.time_control,
    }


def result_code(result: GameResult | None) -> str | None:
    return None if result is None else result.white.value + result.black.value


def result_of(code: str | None) -> GameResult | None:
    if code is None:
        return None
    return GameResult(Outcome(code[0]), Outcome(code[1]))


def result_label(code: str | None) -> str:
    """``"10"`` → ``"1-0"``; no result → ``"-"``... spelled ``"no result"``."""
    result = result_of(code)
    return "no result" if result is None else result.label()


class Loaded:
    """All rows of one tournament, and the core :class:`Tournament` they make."""

    def __init__(self, session: Session, row: TournamentRow) -> None:
        tid = row.id
        self.row = row
        self.entries = list(
            session.scalars(
                select(EntryRow).where(EntryRow.tournament_id == tid).order_by(EntryRow.number)
            )
        )
        self.rounds = list(
            session.scalars(
                select(RoundRow).where(RoundRow.tournament_id == tid).order_by(RoundRow.number)
            )
        )
        self.games = list(
            session.scalars(
                select(GameRow)
                .where(GameRow.tournament_id == tid)
                .order_by(GameRow.round, GameRow.board)
            )
        )
        self.byes = list(
            session.scalars(
                select(ByeRow)
                .where(ByeRow.tournament_id == tid)
                .order_by(ByeRow.round, ByeRow.player)
            )
        )
        self.by_number = {entry.number: entry for entry in self.entries}

    @property
    def drawn(self) -> bool:
        return bool(self.entries) and all(entry.start is not None for entry in self.entries)

    def start_of(self, number: int) -> int:
        start = self.by_number[number].start
        if start is None:
            raise LookupError(number)
        return start

    def entry_by_start(self, start: int) -> EntryRow | None:
        for entry in self.entries:
            if entry.start == start:
                return entry
        return None

    def tournament(self) -> Tournament:
        """The core value (players by starting number; none before the draw)."""
        row = self.row
        settings = settings_of(row)
        if not self.drawn:
            return Tournament(settings=settings, name=row.name)
        ordered = sorted(self.entries, key=lambda e: e.start or 0)
        later = stored_ratings(row.regulations)  # an event over 30 days
        method = method_of(row.regulations)
        players = tuple(player_of(entry, later.get(entry.number, ()), method) for entry in ordered)
        games: dict[int, list[Game]] = defaultdict(list)
        for game in self.games:
            games[game.round].append(
                Game(
                    round=game.round,
                    board=game.board,
                    white=self.start_of(game.white),
                    black=self.start_of(game.black),
                    result=result_of(game.result),
                    reason=_reason(game.reason),
                )
            )
        byes: dict[int, list[Bye]] = defaultdict(list)
        for bye in self.byes:
            byes[bye.round].append(Bye(bye.round, self.start_of(bye.player), ByeKind(bye.kind)))
        rounds = tuple(
            Round(
                number=rnd.number,
                games=tuple(games[rnd.number]),
                byes=tuple(byes[rnd.number]),
                date=_date(rnd.date),
            )
            for rnd in self.rounds
        )
        withdrawn = frozenset(
            self.start_of(e.number) for e in self.entries if e.withdrawn_from is not None
        )
        draw = None
        if row.draw_method is not None:
            draw = Draw(
                method=LotsMethod(row.draw_method),
                seed=row.draw_seed,
                order=tuple(str(entry.number) for entry in ordered),
            )
        return Tournament(
            settings=settings,
            players=players,
            rounds=rounds,
            name=row.name,
            withdrawn=withdrawn,
            draw=draw,
            expelled=expelled_starts(row.regulations),
        )


def player_of(
    entry: EntryRow,
    round_ratings: tuple[tuple[int, int], ...] = (),
    method: RatingMethod = RatingMethod.FIDE,
) -> Player:
    """The core's player of an entry, rated by the tournament's rating method."""
    return Player(
        start=entry.start or 1,
        name=entry.name,
        rating=rating_of(entry, method),
        title=entry.title,
        federation=entry.federation,
        fide_id=entry.fide_id,
        birth_date=entry.birth_date,
        sex=entry.sex,
        round_ratings=round_ratings,
    )


def _reason(text: str) -> Reason:
    try:
        return Reason(text)
    except ValueError:
        return Reason.NORMAL


def _date(text: str | None) -> Any:
    import datetime as dt

    return None if not text else dt.date.fromisoformat(text)


def load_tournament(session: Session, row: TournamentRow) -> Tournament | None:
    """The core value read with plain column queries (no ORM objects): the fast path
    taken after every change to refresh the live standings. None before the draw."""
    return _load(session, row, None)


def load_live(session: Session, row: TournamentRow) -> LiveSource | None:
    """What a live table is built from: the core value, every game's row state and the
    status (read in the change's transaction). None before the draw."""
    states: dict[tuple[int, int], GameState] = {}
    tournament = _load(session, row, states)
    if tournament is None:
        return None
    return LiveSource(tournament, states, row.status, row.created_at)


def _load(
    session: Session, row: TournamentRow, states: dict[tuple[int, int], GameState] | None
) -> Tournament | None:
    tid = row.id
    entries = session.execute(
        select(
            EntryRow.number,
            EntryRow.start,
            EntryRow.name,
            EntryRow.rating,
            EntryRow.national_rating,
            EntryRow.manual_rating,
            EntryRow.title,
            EntryRow.federation,
            EntryRow.fide_id,
            EntryRow.birth_date,
            EntryRow.sex,
            EntryRow.withdrawn_from,
        ).where(EntryRow.tournament_id == tid)
    ).all()
    if not entries or any(e.start is None for e in entries):
        return None
    start_of = {e.number: e.start for e in entries}
    later = stored_ratings(row.regulations)  # an event over 30 days
    method = method_of(row.regulations)
    players = tuple(
        Player(
            e.start,
            e.name,
            rating_of(e, method),
            e.title,
            e.federation,
            e.fide_id,
            e.birth_date,
            e.sex,
            round_ratings=later.get(e.number, ()),
        )
        for e in sorted(entries, key=lambda e: e.start)
    )
    games: dict[int, list[Game]] = defaultdict(list)
    for g in session.execute(
        select(
            GameRow.round,
            GameRow.board,
            GameRow.white,
            GameRow.black,
            GameRow.result,
            GameRow.reason,
            GameRow.version,
        )
        .where(GameRow.tournament_id == tid)
        .order_by(GameRow.round, GameRow.board)
    ):
        white, black = start_of[g.white], start_of[g.black]
        games[g.round].append(
            Game(g.round, g.board, white, black, _result(g.result), _reason(g.reason))
        )
        if states is not None:
            states[(g.round, g.board)] = GameState(white, black, g.result, g.reason, g.version)
    byes: dict[int, list[Bye]] = defaultdict(list)
    for b in session.execute(
        select(ByeRow.round, ByeRow.player, ByeRow.kind).where(ByeRow.tournament_id == tid)
    ):
        byes[b.round].append(Bye(b.round, start_of[b.player], ByeKind(b.kind)))
    rounds = tuple(
        Round(r.number, tuple(games[r.number]), tuple(byes[r.number]), _date(r.date))
        for r in session.execute(
            select(RoundRow.number, RoundRow.date)
            .where(RoundRow.tournament_id == tid)
            .order_by(RoundRow.number)
        )
    )
    withdrawn = frozenset(e.start for e in entries if e.withdrawn_from is not None)
    return Tournament(
        settings=_settings_cached(row),
        players=players,
        rounds=rounds,
        name=row.name,
        withdrawn=withdrawn,
        expelled=expelled_starts(row.regulations),
    )


_RESULTS: dict[str, GameResult] = {}


def _result(code: str | None) -> GameResult | None:
    if code is None:
        return None
    value = _RESULTS.get(code)
    if value is None:
        value = _RESULTS[code] = GameResult(Outcome(code[0]), Outcome(code[1]))
    return value


_SETTINGS: dict[str, Settings] = {}


def _settings_cached(row: TournamentRow) -> Settings:
    key = repr(
        (
            row.system,
            row.cycles,
            sorted(row.point_system.items()),
            row.bye_points,
            row.tiebreaks,
            row.withdrawal_rule,
            row.rules_edition,
            row.rounds_planned,
            row.swap_last_rounds,
            row.time_control,
            forfeits_in_tiebreaks(row.regulations),  # a regulations detail
            ties_lots_seed(row.regulations),
            long_event(row.regulations),
            ratings_per_round(row.regulations),
        )
    )
    settings = _SETTINGS.get(key)
    if settings is None:
        if len(_SETTINGS) > 1000:
            _SETTINGS.clear()
        settings = _SETTINGS[key] = settings_of(row)
    return settings
