"""Export and import: the whole-tournament JSON (versioned, with its history) and TRF.

The JSON document (``docs/store.md`` has the schema) holds every row of the
tournament and its whole event log, named by keys within the tournament, so
``import(export(t))`` is the same tournament, undoable as before, and exporting
it again gives the same document. TRF goes through :mod:`crosstable.formats`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.battle import is_battle
from crosstable.core.competitor import players_as_competitors
from crosstable.core.errors import CrosstableError, InputError, RuleError
from crosstable.core.model import Bye, ByeKind, System, Tournament
from crosstable.core.pairing.dutch.acceleration import baku
from crosstable.core.pairing.dutch.from_tournament import default_rounds
from crosstable.core.pairing_systems import fixed_pairing
from crosstable.core.rating_method import RatingMethod
from crosstable.core.schedule import Schedule
from crosstable.core.schedule.kinds import schedule_details
from crosstable.core.text import Message
from crosstable.formats import trf
from crosstable.formats.trf_decided import with_decisions
from crosstable.formats.trf_export import ExportFacts, shape_export, with_kept_records
from crosstable.formats.trf_records import acceleration_records
from crosstable.service.adjournment_state import check_report
from crosstable.service.errors import NotFoundError
from crosstable.service.field import check_field
from crosstable.service.frame import Change, ChangeFrame, Done
from crosstable.service.import_check import check_import
from crosstable.service.loading import Loaded, result_code, settings_columns
from crosstable.service.players import checked_rating
from crosstable.service.queries import Queries
from crosstable.service.read_views import JsonObject
from crosstable.service.report_corrections import corrections_in, report_comments, reported
from crosstable.service.round_robin import schedule_comments
from crosstable.service.safeguard import before_risky
from crosstable.service.schedules import insert_schedule
from crosstable.service.swiss.settings import initial_colour_of, parse_forbidden, swiss_settings
from crosstable.service.teams.exchange_rows import TEAM_SECTIONS, team_sections
from crosstable.service.teams.trf_teams import team_trf, team_trf_lines
from crosstable.service.tournament_ratings import method_of
from crosstable.service.trf_header import header_records, stored_header
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning, logged, trf_comments
from crosstable.store.models import (
    Base,
    ByeRow,
    CheckinRow,
    EntryRow,
    EventRow,
    GameRow,
    RoundRow,
    TournamentRow,
)

FORMAT = "crosstable.tournament"
#: the regulations' key of an imported TRF's records that the rows do not hold
TRF_RECORDS = "trf_records"
INITIAL_COLOURS = {"w": "white", "b": "black"}
VERSION = 1

_SECTIONS: tuple[tuple[str, type[Base]], ...] = (
    ("players", EntryRow),
    ("rounds", RoundRow),
    ("games", GameRow),
    ("byes", ByeRow),
    ("checkins", CheckinRow),  # the hall's check-in; older documents: none
    *TEAM_SECTIONS,  # a team tournament's teams, members and line-ups; others: none
)
_EVENT_FIELDS = ("seq", "at", "actor", "kind", "summary", "changes", "data", "idempotency_key")


class Exchange:
    """Export and import use cases; ``queries`` reads the tournament a TRF is made of."""

    def __init__(self, frame: ChangeFrame, queries: Queries) -> None:
        self.frame = frame
        self.queries = queries

    def export_json(self, tournament_id: int) -> JsonObject:
        """The whole tournament as one JSON-able document (see docs/store.md)."""
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database", tournament=tournament_id
                )
            loaded = Loaded(session, row)
            events = session.scalars(
                select(EventRow)
                .where(EventRow.tournament_id == tournament_id)
                .order_by(EventRow.seq)
            ).all()
            document: JsonObject = {
                "format": FORMAT,
                "version": VERSION,
                "tournament": row.snapshot() | {"revision": row.revision},
                "players": [_full(e) for e in loaded.entries],
                "rounds": [_full(r) for r in loaded.rounds],
                "games": [_full(g) for g in loaded.games],
                "byes": [_full(b) for b in loaded.byes],
                "checkins": [
                    _full(c)
                    for c in session.scalars(
                        select(CheckinRow)
                        .where(CheckinRow.tournament_id == tournament_id)
                        .order_by(CheckinRow.round, CheckinRow.player)
                    )
                ],
                "history": [{name: getattr(e, name) for name in _EVENT_FIELDS} for e in events],
            }
            document |= team_sections(session, tournament_id)
        plain: JsonObject = json.loads(json.dumps(document))
        return plain

    def import_json(self, document: Any, *, source: str = "<input>") -> int:
        """A tournament from :meth:`export_json`'s document; returns its new id."""
        _check_document(document, source)
        if "checkins" not in document:  # written before the hall's check-in
            document = {**document, "checkins": []}
        document = {**{name: [] for name, _model in TEAM_SECTIONS}, **document}
        _check_ratings(  # before the history is checked against the rows: name the value
            (
                (f"players[{i}].{key}" if key != "rating" else f"players[{i}]", p.get(key))
                for i, p in enumerate(document["players"])
                if isinstance(p, dict)
                for key in ("rating", "national_rating", "manual_rating")
            ),
            source,
        )
        check_import(document, source)
        _check_field(document, source)
        before_risky(self.frame.safeguard, "before-import")
        with self.frame.store.transaction() as session:
            values = dict(document["tournament"])
            revision = values.pop("revision", None)
            history = document["history"]
            last = history[-1]["seq"] if history else 0
            if revision != last:
                raise InputError(
                    "tournament.revision is {revision}, but the last event is #{last}",
                    source=source,
                    revision=revision,
                    last=last,
                )
            row = _build(TournamentRow, values, "tournament", source)
            row.revision = last
            session.add(row)
            session.flush()
            for section, model in _SECTIONS:
                for index, item in enumerate(document[section]):
                    built = _build(model, item, f"{section}[{index}]", source)
                    built.tournament_id = row.id
                    session.add(built)
                session.flush()
            for index, item in enumerate(history):
                fields = {name: item.get(name) for name in _EVENT_FIELDS}
                if not isinstance(fields["seq"], int) or fields["seq"] != index + 1:
                    raise InputError(
                        "history[{index}].seq must be {seq}",
                        source=source,
                        index=index,
                        seq=index + 1,
                    )
                session.add(EventRow(tournament_id=row.id, **fields))
            session.flush()
            _check_consistent(session, row, source)
            self.frame.refresh_standings(session, row)
            return int(row.id)

    def export_trf(self, tournament_id: int, edition: str = "trf2026") -> str:
        """The tournament as a FIDE TRF file (``trf2026`` or ``trf16``)."""
        return self._export_trf(tournament_id, edition)[0]

    def trf_export_notes(self, tournament_id: int, edition: str = "trf2026") -> list[Message]:
        """What :meth:`export_trf` left out of the file or marked in it, and why."""
        return self._export_trf(tournament_id, edition)[1]

    def _export_trf(self, tournament_id: int, edition: str) -> tuple[str, list[Message]]:
        tournament = self.queries.tournament(tournament_id)
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            assert row is not None  # (the queries found it)
            loaded = Loaded(session, row)
            check_report(loaded)  # no rating report while an adjourned game is open
            entries = loaded.entries
            _check_numbered(entries)
            if method_of(row.regulations) is not RatingMethod.FIDE:
                # (the file's rating column is the FIDE rating, whatever ranked the players)
                fide = {e.start: e.rating for e in entries}
                tournament = replace(
                    tournament,
                    players=tuple(replace(p, rating=fide.get(p.start)) for p in tournament.players),
                )
            corrections = corrections_in(row.regulations)  # for the rating report only
            document = trf.TrfDocument.from_tournament(reported(tournament, corrections))
            teams = {e.team for e in entries if e.team}
            headers = header_records(
                tournament,
                details=dict(row.regulations or {}),
                start_date=row.start_date,
                end_date=row.end_date,
                teams=len(teams),
            )
            warned = trf_comments(session, tournament_id)  # confirmed warnings: ### lines
            team_records, team_headers = team_trf(session, row)  # a team tournament's
            team_lines = team_trf_lines(session, row)  # 300/320/330/801/802
            row_details = dict(row.regulations or {})
        warned += schedule_comments(tournament.settings.system, row_details)
        warned += report_comments(corrections)
        document = replace(
            document,
            headers=document.headers | headers | team_headers,
            comments=document.comments + warned,
            teams=team_records or document.teams,
        )
        if tournament.settings.system is System.SWISS_DUTCH:
            document = self._swiss_records(tournament_id, document)
        document = with_kept_records(document, row_details.get(TRF_RECORDS))
        document = with_decisions(document)  # ### lines: an arbiter's ½-0, 0-½, 0-0
        document, notes = shape_export(document, self._export_facts(tournament_id), edition)
        if edition == "trf2026" and team_lines:
            document = replace(document, other_records=document.other_records + team_lines)
        writer = getattr(trf, "write_trf", None)
        if writer is None:
            raise InputError("TRF export is not available yet", source="export")
        return str(writer(document, edition)), notes

    def _export_facts(self, tournament_id: int) -> ExportFacts:
        """What the file needs beyond the rounds: withdrawals, byes asked for rounds not
        paired yet, the planned rounds and the final places."""
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            assert row is not None  # (the queries found it)
            loaded = Loaded(session, row)
            start_of = {e.number: e.start for e in loaded.entries}
            paired = {r.number for r in loaded.rounds}
            finished = row.status == "finished"
            planned = row.rounds_planned
            if planned is None and row.system == System.SWISS_DUTCH.value:
                planned = default_rounds(len(loaded.entries))
            return ExportFacts(
                planned=planned,
                finished=finished,
                withdrawn_from={
                    start: e.withdrawn_from
                    for e in loaded.entries
                    if e.withdrawn_from is not None and (start := e.start) is not None
                },
                requested=tuple(
                    Bye(b.round, start, ByeKind(b.kind))
                    for b in loaded.byes
                    if b.round not in paired and (start := start_of.get(b.player)) is not None
                ),
                places={e.start: e.place for e in loaded.entries if e.start is not None}
                if finished
                else None,
                keep_rounds_to_come=is_battle(row.regulations),
            )

    def _swiss_records(self, tournament_id: int, document: Any) -> Any:
        """A Swiss's initial colour (XXC) and forbidden pairs (XXP), so that a pairing
        program re-pairs the exported file exactly as the service did."""
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            details = dict(row.regulations or {}) if row is not None else {}
            planned = row.rounds_planned if row is not None else None
        colour = initial_colour_of(details) if details.get("initial_colour") else None
        players = len(document.tournament.players)
        accelerations = document.accelerations
        if swiss_settings(details).baku:
            # the fictitious points the service paired with (records 250), so that an
            # outside program and our own check re-pair the file as it was paired
            table = baku(players, planned or default_rounds(players))
            accelerations = acceleration_records(table)
        return replace(
            document,
            initial_colour=colour,
            forbidden_pairs=parse_forbidden(str(details.get("forbidden", ""))),
            accelerations=accelerations,
        )

    def import_tournament(
        self,
        tournament: Tournament,
        *,
        actor: str = "",
        source: str = "",
        headers: dict[str, str] | None = None,
        records: JsonObject | None = None,
        warnings: Sequence[FideWarning] = (),
        rows: Callable[[Tx], object] | None = None,
    ) -> Change:
        """A new tournament from a core value (e.g. read from TRF), recorded as one event;
        ``headers`` (a TRF's header records) give its venue, arbiters, dates and time
        control (see :mod:`crosstable.service.trf_header`); ``records`` (a TRF's records
        the rows do not hold: :func:`~crosstable.formats.trf_export.kept_records`) are
        kept in the regulations and written back by :meth:`export_trf`; ``warnings``
        (the confirmed findings of the import's re-check: :mod:`.trf_import`) are kept
        with the event, and the export writes each as a ``###`` line; ``rows`` stores
        more rows in the same transaction (a team file's teams and line-ups)."""
        check_field(
            tournament.settings.system, len(tournament.players), cycles=tournament.settings.cycles
        )
        _check_ratings(
            ((f"player {p.start} {p.name}", p.rating) for p in tournament.players),
            source or "import",
        )
        before_risky(self.frame.safeguard, "before-import")
        at = self.frame.now()
        header = stored_header(headers or {})
        # the regulations' details: the header's, a TRF's ### Schedule comment, its records
        details: dict[str, object] = {**header.details, **schedule_details(headers)}
        if records:
            details[TRF_RECORDS] = records
            colour = records.get("initial_colour")
            if tournament.settings.system is System.SWISS_DUTCH and colour in ("w", "b"):
                details.setdefault("initial_colour", INITIAL_COLOURS[colour])
        columns = settings_columns(tournament.settings)
        if header.time_control and not columns["time_control"]:
            columns["time_control"] = header.time_control
        with self.frame.store.transaction() as session:
            status = "running" if tournament.rounds else "registration"
            row = TournamentRow(
                name=tournament.name or "imported tournament",
                status=status,
                regulations=details,
                start_date=header.start_date,
                end_date=header.end_date,
                created_at=at,
                revision=0,
                draw_method=None if not tournament.players else "manual",
                draw_seed=None,
                **columns,
            )
            if tournament.draw is not None:
                row.draw_method = tournament.draw.method.value
                row.draw_seed = tournament.draw.seed
            session.add(row)
            session.flush()
            tx = Tx(session, row)
            tx.created()
            withdrawn_from = _withdrawal_rounds(tournament)
            for player in tournament.players:
                tx.insert(
                    EntryRow(
                        number=player.start,
                        start=player.start,
                        name=player.name,
                        rating=player.rating,
                        title=player.title,
                        federation=player.federation,
                        fide_id=player.fide_id,
                        birth_date=player.birth_date,
                        sex=player.sex,
                        withdrawn_from=withdrawn_from.get(player.start),
                        place=None,
                    )
                )
            tx.flush()
            for rnd in tournament.rounds:
                tx.insert(
                    RoundRow(number=rnd.number, cycle=1, date=rnd.date and rnd.date.isoformat())
                )
            tx.flush()
            for rnd in tournament.rounds:
                for game in rnd.games:
                    tx.insert(
                        GameRow(
                            round=rnd.number,
                            board=game.board,
                            white=game.white,
                            black=game.black,
                            result=result_code(game.result),
                            reason=game.reason.value,
                            version=1,
                        )
                    )
                for bye in rnd.byes:
                    tx.insert(ByeRow(round=rnd.number, player=bye.player, kind=bye.kind.value))
            tx.flush()
            if rows is not None:  # more rows of the same import (a team file's teams)
                rows(tx)
            later = None if rows is not None else _later_rounds(tournament, details)
            if later is not None:  # a round robin exported in progress: its rounds to come
                insert_schedule(tx, later, {p.start: p.start for p in tournament.players})
            where = Message(" from {source}", source=source) if source else ""
            summary = Message(
                (
                    "tournament {tournament} “{name}” imported{where}: {players} players, "
                    "{rounds} rounds"
                ),
                tournament=row.id,
                name=row.name,
                where=where,
                players=len(tournament.players),
                rounds=len(tournament.rounds),
            )
            done = logged(Done(summary, {}), warnings)
            change, notification = self.frame.append(
                tx, "import", done.summary, done.data, actor, None
            )
        self.frame.announce(notification)  # to the other processes too, as every change
        return change


def _check_ratings(ratings: Iterable[tuple[str, Any]], source: str) -> None:
    """Every rating within the one range of every surface (formats/limits.py), so that
    what is imported can be exported and imported again; the player named."""
    for where, rating in ratings:
        if isinstance(rating, bool) or not isinstance(rating, int):
            continue  # (its type is check_import's: a boolean is no number; None is unrated)
        try:
            checked_rating(rating)
        except RuleError as error:
            raise InputError(
                "{where}: {problem}", source=source, where=where, problem=error
            ) from None


def _check_numbered(entries: Any) -> None:
    """A TRF lists players by starting number: refuse, saying what to do, a tournament
    whose players have none yet (before the drawing of lots), or that has no players.
    A file without its players would be refused by ``crosstable trf validate`` and by
    every arbiter's program; the JSON export keeps a registration as it is."""
    if not entries:
        raise RuleError(
            "a TRF file lists the players: register them and draw the lots first "
            "(the JSON export keeps a tournament without players)"
        )
    waiting = sum(1 for entry in entries if entry.start is None)
    if waiting:
        raise RuleError(
            (
                "a TRF file lists the players by starting number, and {count} of {players} "
                "have none yet: draw the lots first (Manage, or crosstable draw); the JSON "
                "export keeps the registration as it is"
            ),
            count=waiting,
            players=len(entries),
        )


def _full(row: Base) -> JsonObject:
    values = row.snapshot()
    if hasattr(row, "version"):
        values["version"] = row.version
    return values


def _build(model: type[Base], item: Any, where: str, source: str) -> Any:
    if not isinstance(item, dict):
        raise InputError("{where} must be an object", source=source, where=where)
    columns = {c.key: c for c in model.__table__.columns if c.key not in ("id", "tournament_id")}
    unknown = sorted(set(item) - set(columns))
    if unknown:
        raise InputError(
            "{where}: unknown field {name}", source=source, where=where, name=repr(unknown[0])
        )
    for name, column in columns.items():
        if name not in item and not column.nullable and column.default is None:
            raise InputError("{where}: {name} is missing", source=source, where=where, name=name)
        value = item.get(name)
        python_type = _python_type(column)
        if value is not None and python_type is not None and not isinstance(value, python_type):
            raise InputError(
                "{where}.{name}: expected {kind}, got {value}",
                source=source,
                where=where,
                name=name,
                kind=python_type.__name__,
                value=repr(value),
            )
    return model(**item)


def _python_type(column: Any) -> type | None:
    try:
        kind: type = column.type.python_type
    except NotImplementedError:
        return None
    return None if kind in (dict, list) else kind


def _check_document(document: Any, source: str) -> None:
    if not isinstance(document, dict):
        raise InputError("a tournament document is a JSON object", source=source)
    if document.get("format") != FORMAT:
        raise InputError("format must be {format}", source=source, format=repr(FORMAT))
    version = document.get("version")
    if version != VERSION:
        raise InputError(
            "version {version} is not supported (this crosstable reads version {supported})",
            source=source,
            version=repr(version),
            supported=VERSION,
        )
    for name in ("tournament", "players", "rounds", "games", "byes", "history"):
        if name not in document:
            raise InputError("{name} is missing", source=source, name=name)
    if not isinstance(document["tournament"], dict):
        raise InputError("tournament must be an object", source=source)
    for name in ("players", "rounds", "games", "byes", "history"):
        if not isinstance(document[name], list):
            raise InputError("{name} must be a list", source=source, name=name)
    for name in ("checkins", *(section for section, _model in TEAM_SECTIONS)):
        if not isinstance(document.get(name, []), list):
            raise InputError("{name} must be a list", source=source, name=name)


def _check_field(document: JsonObject, source: str) -> None:
    """The imported field is within the cap of its system (as a tournament made here)."""
    values = document["tournament"]
    try:
        system = System(values["system"])
    except ValueError:
        raise InputError(
            "tournament.system: unknown system {system}",
            source=source,
            system=repr(values["system"]),
        ) from None
    try:
        check_field(system, len(document["players"]), cycles=int(values.get("cycles") or 1))
    except RuleError as error:
        raise InputError(error.text, source=source) from None


def _check_consistent(session: Session, row: TournamentRow, source: str) -> None:
    loaded = Loaded(session, row)
    starts = [e.start for e in loaded.entries if e.start is not None]
    if len(starts) != len(set(starts)):
        raise InputError("two players have the same starting number", source=source)
    try:
        loaded.tournament()
    except (CrosstableError, LookupError, ValueError) as error:
        raise InputError(
            "the tournament is not consistent: {error}", source=source, error=error
        ) from None


def _later_rounds(tournament: Tournament, details: Mapping[str, object]) -> Schedule | None:
    """The rounds still to come of a round robin whose file stops before its end (a TRF
    leaves out the rounds not begun), when its rounds are those of its schedule."""
    settings = tournament.settings
    if settings.system is not System.ROUND_ROBIN or not tournament.rounds:
        return None
    try:
        schedule = fixed_pairing(settings.system).schedule(
            players_as_competitors(tournament.players),
            cycles=settings.cycles,
            swap_last_rounds=settings.swap_last_rounds,
            details=details,
        )
    except CrosstableError:
        return None
    planned = settings.rounds
    if len(schedule.rounds) <= len(tournament.rounds) or planned not in (
        None,
        len(schedule.rounds),
    ):
        return None
    for rnd, scheduled in zip(tournament.rounds, schedule.rounds, strict=False):
        pairs = {frozenset((g.white, g.black)) for g in rnd.games}
        if rnd.number != scheduled.number or pairs != {frozenset(b) for b in scheduled.boards}:
            return None
    return Schedule(schedule.players, schedule.rounds[len(tournament.rounds) :])


def _withdrawal_rounds(tournament: Tournament) -> dict[int, int]:
    """For withdrawn players, the first round of the run of forfeit losses to the end."""
    out: dict[int, int] = {}
    last = len(tournament.rounds)
    for start in tournament.withdrawn:
        first = last + 1
        for entry in reversed(tournament.entries(start)):
            if entry.outcome.value not in ("-", " ", "Z"):
                break
            first = entry.round
        out[start] = first
    return out
