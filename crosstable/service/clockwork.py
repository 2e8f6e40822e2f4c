"""The clock's pass over tournaments: :meth:`TournamentClock.tick`.

``crosstable tick`` and the ticker of ``crosstable serve`` call ONE pass
(:func:`tick_all`): the series' steps first
(``Service.tick``, :class:`~crosstable.service.series.tick.SeriesClock`), then every
tournament's time-driven step that is due (settings in
:mod:`crosstable.service.timed_start`):

* **the start at the preset time** (every system): once ``starts_at`` has come and the
  tournament is still in registration, the lots are drawn (a knockout online: a random
  order from the seed derived from the tournament, 1st v 2nd, 3rd v 4th…; over the
  board: seeded by rating, 1 v N, whatever bracket the regulations name; a round
  robin: by lot from the same derived seed; a Swiss: by rating) and it is started —
  through the same use cases as an organiser's, so every check holds. A knockout with
  a capacity starts only with a full field. When it cannot start, ``if_short`` says
  what happens: ``postpone`` moves ``starts_at`` a day on (recorded as a change of the
  regulations) and tells the players (``start-moved``) and the organiser; ``wait``
  tells the organiser once (``start-waits``, with the reason) and tries again at every
  pass;
* **a knockout run by the clock** goes on by itself: tie-break games as soon as they are
  due, the next round when every match is decided — at once, or with a ``round_time``
  at the first round time on a later day (one round a day); every player of a new game
  is told (``round-starts``: round, board, colour, opponent, the deadline); when a daily
  round's deadline passes with games unplayed, the organiser is told once
  (``results-missing``) and the round waits for its results.

Notifications go to the series' outbox (mail with ``--send``, Telegram, the in-site
list), once each by their unique key. A notice of a change (the start, a postponed
start, a knockout's next games) is written in that change's own transaction
(:mod:`crosstable.service.riders`): a crash leaves both or neither, and the next pass
makes both. One pass at a time per database (the series'
tick lock); every step re-reads the tournament and is refused by its use case when it
is no longer due, so a second process does nothing twice.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import CrosstableError
from crosstable.core.model import LotsMethod, System
from crosstable.core.text import Message
from crosstable.service.details import Details
from crosstable.service.eligibility import venue_kind
from crosstable.service.frame import Change, ChangeFrame
from crosstable.service.knockout.daily import KnockoutClock, knockout_clock
from crosstable.service.riders import riding
from crosstable.service.series.outbox import notify_user
from crosstable.service.series.tick_lock import tick_lock
from crosstable.service.timed_start import (
    IF_SHORT,
    POSTPONE,
    ROUND_TIME,
    STARTS_AT,
    TimedStart,
    derived_seed,
    timed_start,
)
from crosstable.store.accounts_models import AccessRow, EntryAccountRow
from crosstable.store.models import EntryRow, TournamentRow
from crosstable.store.series_models import SeriesOutboxRow

#: who the history names for the clock's changes
ACTOR = "clock"
#: the series' outbox row's name for an organiser without an account
ORGANISER = "organiser"


class ClockTournaments(Protocol):
    """The tournament use cases the clock calls (each one transaction of its own)."""

    def edit_regulations(
        self,
        tournament_id: int,
        *,
        actor: str = "",
        override_reason: str | None = None,
        **given: Any,
    ) -> Change: ...

    def draw_lots(
        self,
        tournament_id: int,
        method: LotsMethod = LotsMethod.RANDOM,
        *,
        seed: int | None = None,
        order: tuple[int, ...] = (),
        actor: str = "",
    ) -> Change: ...

    def start(self, tournament_id: int, *, actor: str = "") -> Change: ...

    def pair_next_round(self, tournament_id: int, *, actor: str = "") -> Change: ...

    def tick(self) -> list[str]:
        """The series' pass."""
        ...


class TournamentClock:
    """One pass of the series' steps, then of every tournament's that is due."""

    def __init__(self, frame: ChangeFrame, tournaments: ClockTournaments) -> None:
        self.frame = frame
        self.tournaments = tournaments

    def tick(self) -> list[str]:
        """Every time-driven step that is due, once; what was done, one line per step."""
        done = self.tournaments.tick()
        with tick_lock(self.frame) as mine:
            if mine:
                done += self.tournament_steps()
        return done

    def tournament_steps(self) -> list[str]:
        """Every tournament's step that is due now (the start, a knockout's next games)."""
        now = self.frame.clock.now()
        query = select(
            TournamentRow.id, TournamentRow.status, TournamentRow.system, TournamentRow.regulations
        ).where(TournamentRow.status.in_(("registration", "running")))
        with self.frame.store.reading() as session:
            rows = list(session.execute(query))
        done: list[str] = []
        for tid, status, system, details in rows:
            details = details or {}
            if not any(details.get(key) for key in (STARTS_AT, ROUND_TIME)):
                continue
            try:
                settings = timed_start(system, details)
                if status == "registration":
                    said = self._start(tid, System(system), settings, now)
                elif system == System.KNOCKOUT.value:
                    said = self._knockout(tid, settings, now)
                else:
                    said = []
            except CrosstableError as error:  # this tournament waits; the others go on
                said = [Message("tournament {id}: {error}", id=tid, error=str(error))]
            done += said
        return done

    # -- the start ------------------------------------------------------------------

    def _start(self, tid: int, system: System, settings: TimedStart, now: dt.datetime) -> list[str]:
        if settings.starts_at is None or now < settings.starts_at:
            return []
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tid)
            assert row is not None
            count = _count(session, tid)
            drawn = row.draw_method is not None
            details = dict(row.regulations or {})
            seed = derived_seed(row)
        short = None
        if settings.capacity is not None and count < settings.capacity:
            short = Message(
                "{count} of {capacity} players registered", count=count, capacity=settings.capacity
            )
        elif count < 2:
            short = Message("{count} of at least 2 players registered", count=count)
        if short is None:
            try:
                return self._draw_and_start(tid, system, details, drawn, seed)
            except CrosstableError as error:
                short = error.message
        if settings.if_short == "postpone":
            return [self._postpone(tid, settings, now, short)]
        return self._wait(tid, settings, short)

    def _draw_and_start(
        self, tid: int, system: System, details: Details, drawn: bool, seed: int
    ) -> list[str]:
        lines: list[str] = []
        if system is System.KNOCKOUT:
            # the portal's rule: online a random order, over the board seeded by rating
            random_order = venue_kind(details) != "otb"
            changes = {"bracket": "random" if random_order else "seeded"}
            if random_order and not str(details.get("lots_seed") or "").strip():
                changes["lots_seed"] = str(seed)
            if any(str(details.get(k) or "") != v for k, v in changes.items()):
                self.tournaments.edit_regulations(tid, actor=ACTOR, detail_changes=changes)
            if random_order:
                seed = int(str(details.get("lots_seed") or seed))
            method = LotsMethod.RANDOM if random_order else LotsMethod.RATING
        else:
            method = LotsMethod.RATING if system is System.SWISS_DUTCH else LotsMethod.RANDOM
        if not drawn:
            chosen = seed if method is LotsMethod.RANDOM else None
            self.tournaments.draw_lots(tid, method, seed=chosen, actor=ACTOR)

        def tell(session: Session, change: Change) -> None:  # in the start's transaction
            if system is System.KNOCKOUT:
                self._tell_players(session, tid, change, None)

        with riding(tell):
            change = self.tournaments.start(tid, actor=ACTOR)
        lines.append(Message("tournament {id}: {summary}", id=tid, summary=change.summary))
        return lines

    def _postpone(self, tid: int, settings: TimedStart, now: dt.datetime, short: str) -> str:
        assert settings.starts_at is not None
        moved = settings.starts_at
        while moved <= now:  # (a server down for days catches up in one step)
            moved += POSTPONE
        text = moved.isoformat()

        def tell(session: Session, change: Change) -> None:  # in the change's transaction
            at = self.frame.now()
            row = session.get(TournamentRow, tid)
            assert row is not None
            payload = {"series": row.name, "tournament": tid, "start": text, "reason": short}
            for number, user_id, name in _players(session, tid):
                key = f"tournament {tid}: start moved to {text}: {number}"
                notify_user(session, user_id, name, "start-moved", key, payload, at=at)
            owner, recipient = _organiser(session, tid)
            key = f"tournament {tid}: start moved to {text}: organiser"
            notify_user(session, owner, recipient, "start-moved", key, payload, at=at)

        with riding(tell):
            self.tournaments.edit_regulations(
                tid, actor=ACTOR, detail_changes={STARTS_AT: text, IF_SHORT: settings.if_short}
            )
        return Message(
            "tournament {id}: cannot start ({short}); the start moved to {start}",
            id=tid,
            short=short,
            start=text,
        )

    def _wait(self, tid: int, settings: TimedStart, short: str) -> list[str]:
        assert settings.starts_at is not None
        key = f"tournament {tid}: start waits: {settings.starts_at.isoformat()}"
        at = self.frame.now()
        with self.frame.store.transaction() as session:
            if _queued(session, key):
                return []  # (told once; tried again at every pass)
            row = session.get(TournamentRow, tid)
            assert row is not None
            owner, recipient = _organiser(session, tid)
            payload = {
                "series": row.name,
                "tournament": tid,
                "start": settings.starts_at.isoformat(),
                "reason": short,
            }
            notify_user(session, owner, recipient, "start-waits", key, payload, at=at)
        return [
            Message(
                "tournament {id}: cannot start yet ({short}); the organiser is told, and it "
                "starts at the first pass after that is put right",
                id=tid,
                short=short,
            )
        ]

    # -- a running knockout ---------------------------------------------------------

    def _knockout(self, tid: int, settings: TimedStart, now: dt.datetime) -> list[str]:
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tid)
            assert row is not None
            state = knockout_clock(session, row)
        if state.finished or state.problem is not None:
            return []
        deadline = self._deadline(settings, state)
        if state.due or (state.decided and (deadline is None or now >= deadline)):

            def tell(session: Session, change: Change) -> None:  # in the pairing's transaction
                paired = change.data.get("paired_round") is not None
                due_by = self._next_deadline(settings, change) if paired else deadline
                self._tell_players(session, tid, change, due_by)

            with riding(tell):
                change = self.tournaments.pair_next_round(tid, actor=ACTOR)
            return [Message("tournament {id}: {summary}", id=tid, summary=change.summary)]
        if deadline is not None and now >= deadline and state.unplayed:
            return self._late(tid, state, deadline)
        return []

    @staticmethod
    def _deadline(settings: TimedStart, state: KnockoutClock) -> dt.datetime | None:
        """The time of the next daily round (None: no round time, go on at once)."""
        if settings.round_time is None or state.paired_at is None:
            return None
        return settings.next_slot(state.paired_at)

    @staticmethod
    def _next_deadline(settings: TimedStart, change: Change) -> dt.datetime | None:
        if settings.round_time is None or not change.at:
            return None
        return settings.next_slot(dt.datetime.fromisoformat(change.at))

    def _late(self, tid: int, state: KnockoutClock, deadline: dt.datetime) -> list[str]:
        key = f"tournament {tid}: results missing: {deadline.isoformat()}"
        at = self.frame.now()
        games = ", ".join(state.unplayed)
        with self.frame.store.transaction() as session:
            if _queued(session, key):
                return []
            row = session.get(TournamentRow, tid)
            assert row is not None
            owner, recipient = _organiser(session, tid)
            payload = {
                "series": row.name,
                "tournament": tid,
                "round": state.round,
                "deadline": deadline.isoformat(),
                "games": games,
            }
            notify_user(session, owner, recipient, "results-missing", key, payload, at=at)
        return [
            Message(
                "tournament {id}: round {round}'s results were due at {deadline}; still "
                "without a result: {games} (the organiser is told; the round waits)",
                id=tid,
                round=state.round,
                deadline=deadline.isoformat(),
                games=games,
            )
        ]

    def _tell_players(
        self, session: Session, tid: int, change: Change, deadline: dt.datetime | None
    ) -> None:
        """A ``round-starts`` notification to both players of every new game, written in
        the transaction of the change that made the games (``session``)."""
        games = [g for g in change.data.get("games") or () if not g.get("result")]
        if not games:
            return
        at = self.frame.now()
        row = session.get(TournamentRow, tid)
        assert row is not None
        by_start = {
            e.start: e
            for e in session.scalars(select(EntryRow).where(EntryRow.tournament_id == tid))
        }
        users = {
            link.number: link.user_id
            for link in session.scalars(
                select(EntryAccountRow).where(EntryAccountRow.tournament_id == tid)
            )
        }
        knockout_round = change.data.get("knockout_round") or change.data.get("paired_round")
        for game in games:
            for colour, me, other in (
                ("white", game["white"], game["black"]),
                ("black", game["black"], game["white"]),
            ):
                entry, opponent = by_start.get(me), by_start.get(other)
                if entry is None or opponent is None:
                    continue
                payload = {
                    "series": row.name,
                    "tournament": tid,
                    "round": knockout_round or 1,
                    "game_round": game["round"],
                    "board": game["board"],
                    "colour": colour,
                    "opponent": opponent.name,
                    "deadline": deadline.isoformat() if deadline else None,
                }
                key = f"tournament {tid}: round {game['round']} board {game['board']} {colour}"
                notify_user(
                    session,
                    users.get(entry.number),
                    entry.name,
                    "round-starts",
                    key,
                    payload,
                    at=at,
                )


def _count(session: Session, tid: int) -> int:
    return len(list(session.scalars(select(EntryRow.number).where(EntryRow.tournament_id == tid))))


def _players(session: Session, tid: int) -> list[tuple[int, int | None, str]]:
    """Every registered player: number, account (None: none), name."""
    users = {
        link.number: link.user_id
        for link in session.scalars(
            select(EntryAccountRow).where(EntryAccountRow.tournament_id == tid)
        )
    }
    entries = session.scalars(
        select(EntryRow).where(EntryRow.tournament_id == tid).order_by(EntryRow.number)
    )
    return [(e.number, users.get(e.number), e.name) for e in entries]


def _organiser(session: Session, tid: int) -> tuple[int | None, str]:
    """The organiser's account (the tournament's owner; None: no account) and name."""
    access = session.get(AccessRow, tid)
    return (access.owner_id if access is not None else None), ORGANISER


def _queued(session: Session, key: str) -> bool:
    """A notification was queued under ``key`` before."""
    query = select(SeriesOutboxRow.id).where(SeriesOutboxRow.dedupe_key == key)
    return session.scalars(query).first() is not None


def tick_all(service: ClockTournaments) -> list[str]:
    """One pass of ``service``: the series' steps, then the tournaments' (a service
    without a change frame — a stand-in in the ticker's tests — ticks its series only)."""
    frame = getattr(service, "frame", None)
    if not isinstance(frame, ChangeFrame):
        return service.tick()
    return TournamentClock(frame, service).tick()
