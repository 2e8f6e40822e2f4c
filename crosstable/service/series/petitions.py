"""Petitions for a class or level tournament (seed 002: «Турнир очередного
класса или уровня проводится в случае, если в нем может участвовать не менее 11
игроков. Наличие 11 игроков в соответствующем уровне или классе дает им право
ходатайствовать перед администрацией о проведении между ними турнира»).

How the product reads it (docs/series.md §11):

* a petition belongs to a series (its administrators decide; the tournament takes the
  series' time control and tie-breaks) and names the **class or level** as the
  petitioners do ("class 3", "1400–1599"); when the portal keeps a register of levels
  (:mod:`crosstable.service.levels`) it must be one of them, and the tournament made
  from it is a level tournament (only players of that level; the administrator who
  decides checks the players whose level the site does not know);
* it lists **at least 11 players** (different names, letter case aside; at most
  100), each a name and, when known, an account;
* one petition of a level is **pending** at a time per series (a second one for the
  same level waits for the first to be decided);
* an administrator **accepts** it — a round robin of those players is made at once,
  its lots drawn and started (every game created, as a series' groups are), named
  after the series and the level — or **refuses** it with a reason. Either is final.
  An acceptance first claims the petition (``accepting``): a second administrator's
  accept or refusal meanwhile is refused, and a claim older than ten minutes (a
  process that died) is resumed by the next accept;
* every step is a line of the series' history (``petition``, ``petition-accepted``,
  ``petition-refused``). A crash between the tournament's creation and the
  petition's record is resumed: the tournament carries the petition's id in its
  regulations and is adopted instead of made twice.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, cast

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.levels import MIN_PLAYERS
from crosstable.core.model import LotsMethod
from crosstable.core.text import Message
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import ChangeFrame
from crosstable.service.levels import LEVEL_DETAIL, read_levels
from crosstable.service.registration import PlayerInfo, Regulations
from crosstable.service.series.editions import series_row
from crosstable.service.series.lines import record
from crosstable.service.series.needs import Tournaments
from crosstable.service.series.outbox import notify_user
from crosstable.service.series.shown import Shown
from crosstable.store.models import TournamentRow
from crosstable.store.series_models import SeriesPetitionRow

MAX_PLAYERS = 100
MAX_LEVEL = 100
MAX_NAME = 200
MAX_REASON = 500
#: an acceptance claimed longer ago than this was interrupted: the next one resumes it
CLAIM = dt.timedelta(minutes=10)


def _clean(text: str) -> str:
    return " ".join(text.split())


def level_detail(session: Session, level: str) -> dict[str, str]:
    """The tournament's ``level`` detail when the petition names one of the portal's
    levels (a petition made before the register, or without one, names none)."""
    named = read_levels(session).named(level)
    return {} if named is None else {LEVEL_DETAIL: named}


class PetitionPlayer(TypedDict):
    """A petition's player as stored (``SeriesPetitionRow.players``, a JSON payload)."""

    name: str
    #: the account of the player who asked (his own line), else None
    user: int | None


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class Petition(Shown):
    """A petition for a class or level tournament, and what became of it."""

    id: int
    series: int
    level: str
    players: tuple[PetitionPlayer, ...]
    requested_by: str
    requested_at: str
    #: pending, accepting, accepted or refused
    state: str
    reason: str
    decided_by: str
    decided_at: str | None
    tournament: int | None


def checked_players(players: Sequence[tuple[str, int | None]]) -> list[PetitionPlayer]:
    """The petition's players, checked: names given, no name twice, 11 to 100."""
    found: list[PetitionPlayer] = []
    seen: set[str] = set()
    for name, user in players:
        clean = _clean(name)
        if not clean:
            raise RuleError("a petition's player needs a name")
        if len(clean) > MAX_NAME:
            raise RuleError("a player's name has at most {most} characters", most=MAX_NAME)
        if clean.casefold() in seen:
            raise RuleError("{player} is listed twice in the petition", player=clean)
        seen.add(clean.casefold())
        found.append(PetitionPlayer(name=clean, user=user))
    if len(found) < MIN_PLAYERS:
        raise RuleError(
            "{count} players: a class or level tournament needs at least {least}",
            count=len(found),
            least=MIN_PLAYERS,
        )
    if len(found) > MAX_PLAYERS:
        raise RuleError(
            "{count} players: a petition lists at most {most}", count=len(found), most=MAX_PLAYERS
        )
    return found


def petition_of(row: SeriesPetitionRow) -> Petition:
    return Petition(
        id=row.id,
        series=row.series_id,
        level=row.level,
        players=tuple(PetitionPlayer(name=p["name"], user=p.get("user")) for p in row.players),
        requested_by=row.requested_by,
        requested_at=row.requested_at,
        state=row.state,
        reason=row.reason,
        decided_by=row.decided_by,
        decided_at=row.decided_at,
        tournament=row.tournament_id,
    )


class SeriesPetitions:
    """Petitions for a class or level tournament: ask, list, accept, refuse (an accepted
    petition's round robin is made by ``tournaments``)."""

    def __init__(self, frame: ChangeFrame, tournaments: Tournaments) -> None:
        self.frame = frame
        self.tournaments = tournaments

    def petition(
        self,
        series_id: int,
        level: str,
        players: Sequence[tuple[str, int | None]],
        *,
        actor: str = "",
    ) -> int:
        """Players of one class or level ask for their own tournament; its id."""
        clean_level = _clean(level)
        if not clean_level:
            raise RuleError("a petition names the class or level of its players")
        if len(clean_level) > MAX_LEVEL:
            raise RuleError("a class or level has at most {most} characters", most=MAX_LEVEL)
        listed = checked_players(players)
        at = self.frame.now()
        with self.frame.store.transaction() as session:
            series = series_row(session, series_id, lock=True)
            levels = read_levels(session)
            if levels.bands:  # the portal keeps levels: the petition names one of them
                named = levels.named(clean_level)
                if named is None:
                    raise RuleError(
                        "level {level} is not one of the portal's levels ({levels})",
                        level=clean_level,
                        levels=", ".join(levels.names),
                    )
                clean_level = named
            pending = session.scalars(
                select(SeriesPetitionRow).where(
                    SeriesPetitionRow.series_id == series_id,
                    SeriesPetitionRow.state == "pending",
                )
            )
            for other in pending:
                if other.level.casefold() == clean_level.casefold():
                    raise RuleError(
                        "a petition for {level} is waiting already (petition {petition})",
                        level=clean_level,
                        petition=other.id,
                    )
            row = SeriesPetitionRow(
                series_id=series.id,
                level=clean_level,
                players=[dict(player) for player in listed],
                requested_by=actor,
                requested_at=at,
                state="pending",
                reason="",
                decided_by="",
            )
            session.add(row)
            session.flush()
            record(
                session,
                series.id,
                None,
                "petition",
                Message(
                    "petition {petition}: {players} players of {level} ask for a tournament",
                    petition=row.id,
                    players=len(listed),
                    level=clean_level,
                ),
                at=at,
                actor=actor,
                data={"petition": row.id},
            )
            return row.id

    def petitions(self, series_id: int, *, state: str | None = None) -> list[Petition]:
        """The series' petitions, oldest first (only ``state``'s when given)."""
        if state is not None and state not in ("pending", "accepted", "refused"):
            raise RuleError("state {state}: pending, accepted or refused", state=repr(state))
        with self.frame.store.reading() as session:
            series_row(session, series_id)
            query = select(SeriesPetitionRow).where(SeriesPetitionRow.series_id == series_id)
            if state is not None:
                query = query.where(SeriesPetitionRow.state == state)
            return [petition_of(r) for r in session.scalars(query.order_by(SeriesPetitionRow.id))]

    def petition_info(self, petition_id: int) -> Petition:
        with self.frame.store.reading() as session:
            return petition_of(_petition(session, petition_id))

    def accept_petition(self, petition_id: int, *, actor: str = "") -> int:
        """An administrator accepts: the round robin of the petition's players is made,
        its lots drawn and started; the tournament's id."""
        now = self.frame.clock.now()
        with self.frame.store.transaction() as session:
            # claimed first (one administrator's acceptance at a time); a claim older
            # than CLAIM was interrupted and is resumed
            row = _petition(session, petition_id, lock=True)
            if row.state == "accepting":
                claimed = dt.datetime.fromisoformat(row.decided_at or "")
                if now - claimed < CLAIM:
                    raise RuleError("petition {petition} is being accepted", petition=row.id)
            else:
                _undecided(row)
            row.state = "accepting"
            row.decided_by = actor
            row.decided_at = self.frame.now()
            series = series_row(session, row.series_id)
            title = f"{series.name} — {row.level}"
            regulations = Regulations(
                name=title,
                tiebreaks=tuple(code for code in series.tiebreaks.split(",") if code),
                time_control=series.time_control,
                details={"series": str(series.id), "series_petition": str(row.id)}
                | level_detail(session, row.level),
            )
            players = [PlayerInfo(p["name"]) for p in row.players]
            if len(players) < MIN_PLAYERS:  # pragma: no cover - checked when asked
                raise RuleError(
                    "{count} players: a class or level tournament needs at least {least}",
                    count=len(players),
                    least=MIN_PLAYERS,
                )
        tid = self._adopt_petition(title, petition_id)
        if tid is None:
            made = self.tournaments.create_tournament(regulations, players=players, actor=actor)
            tid = made.tournament_id
        with self.frame.store.reading() as session:
            trow = session.get(TournamentRow, tid)
            assert trow is not None
            status, drawn = trow.status, trow.draw_method is not None
        if status == "registration":
            if not drawn:
                self.tournaments.draw_lots(tid, LotsMethod.RANDOM, actor=actor)
            self.tournaments.start(tid, actor=actor)
        at = self.frame.now()
        with self.frame.store.transaction() as session:
            row = _petition(session, petition_id, lock=True)
            row.state = "accepted"
            row.decided_by = actor
            row.decided_at = at
            row.tournament_id = tid
            record(
                session,
                row.series_id,
                None,
                "petition-accepted",
                Message(
                    "petition {petition} accepted: tournament {tournament} “{title}” with "
                    "{players} players",
                    petition=row.id,
                    tournament=tid,
                    title=title,
                    players=len(row.players),
                ),
                at=at,
                actor=actor,
                data={"petition": row.id, "tournament": tid},
            )
            _tell(session, row, "petition-accepted", series_row(session, row.series_id).name, at)
        return tid

    def refuse_petition(self, petition_id: int, reason: str, *, actor: str = "") -> None:
        """An administrator refuses, saying why."""
        clean = _clean(reason)
        if not clean:
            raise RuleError("a refusal says why (the reason is empty)")
        if len(clean) > MAX_REASON:
            raise RuleError("a refusal's reason has at most {most} characters", most=MAX_REASON)
        at = self.frame.now()
        with self.frame.store.transaction() as session:
            row = _petition(session, petition_id, lock=True)
            _undecided(row)
            row.state = "refused"
            row.reason = clean
            row.decided_by = actor
            row.decided_at = at
            record(
                session,
                row.series_id,
                None,
                "petition-refused",
                Message("petition {petition} refused: {reason}", petition=row.id, reason=clean),
                at=at,
                actor=actor,
                data={"petition": row.id},
            )
            _tell(session, row, "petition-refused", series_row(session, row.series_id).name, at)

    def _adopt_petition(self, title: str, petition_id: int) -> int | None:
        """The tournament an interrupted acceptance made (None: none)."""
        with self.frame.store.reading() as session:
            for row in session.scalars(select(TournamentRow).where(TournamentRow.name == title)):
                if (row.regulations or {}).get("series_petition") == str(petition_id):
                    return row.id
        return None


def _tell(session: Any, row: SeriesPetitionRow, kind: str, series: str, at: str) -> None:
    """The answer to every petitioner with an account, in the decision's transaction
    (mail_text.py writes it in each one's language)."""
    payload = {
        "series": series,
        "series_id": row.series_id,
        "petition": row.id,
        "level": row.level,
        "reason": row.reason,
        "tournament": row.tournament_id,
    }
    for player in row.players:
        user = player.get("user")
        if isinstance(user, int):
            key = f"{kind}:{row.id}:{user}"
            notify_user(session, user, str(player["name"]), kind, key, payload, at=at)


def _petition(session: Any, petition_id: int, *, lock: bool = False) -> SeriesPetitionRow:
    query = select(SeriesPetitionRow).where(SeriesPetitionRow.id == petition_id)
    row = session.scalars(query.with_for_update() if lock else query).one_or_none()
    if row is None:
        raise NotFoundError(
            "there is no petition {petition} in this database", petition=petition_id
        )
    return cast(SeriesPetitionRow, row)


def _undecided(row: SeriesPetitionRow) -> None:
    if row.state == "accepting":
        raise RuleError("petition {petition} is being accepted", petition=row.id)
    if row.state != "pending":
        raise RuleError("petition {petition} was {state} already", petition=row.id, state=row.state)
