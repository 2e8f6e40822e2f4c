"""The hall's check-in (docs/hall.md): players confirm they are present
before a round, and the arbiter deals with those who are not.

A check-in is a row of ``checkins`` (round, player), written in an event of its own
(``check-in``; taken back: ``check-in-cancel``), so the history shows it and undo
takes it back like any change. The round a check-in is for (:func:`checkin_round`):

* a Swiss — the next round to pair (players check in before the pairing);
* a round robin, a Scheveningen, a knockout — the first round with a game still
  without a result (its games exist already).

What the arbiter may do for the players not checked in (:meth:`CheckIn.absent_byes`),
as the rules allow:

* a Swiss — a zero-point bye (``Z``) for the round, entered before it is paired, so
  the pairing leaves them out (a requested bye, as :meth:`SwissPlay.request_bye`
  enters it; C.07 16: a zero-point bye is a voluntary unplayed round);
* a round robin or a Scheveningen — the pairings are fixed in advance and a round
  cannot leave a player out: the absent player's game is scored as a forfeit (the
  opponent present wins ``+``/``−``; both absent ``−``/``−``), as
  :meth:`Play.mark_forfeit` scores it;
* a knockout — nothing in one go: a forfeit there decides a match, so the arbiter
  scores it game by game on the round page.

All of it is one event, so one undo takes it back.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from crosstable.core.errors import RuleError
from crosstable.core.model import Reason, System
from crosstable.core.pairing.dutch import default_rounds
from crosstable.core.text import Message
from crosstable.service.errors import NotFoundError
from crosstable.service.finishing import finish_by_itself
from crosstable.service.frame import Change, ChangeFrame, Done, Unchanged
from crosstable.service.loading import Loaded
from crosstable.service.unit import Tx
from crosstable.store.models import ByeRow, CheckinRow, EntryRow, RoundRow, TournamentRow

#: what the arbiter may do for the absent players, by system
ACTIONS = {
    System.SWISS_DUTCH.value: "bye",
    System.ROUND_ROBIN.value: "forfeit",
    System.SCHEVENINGEN.value: "forfeit",
    System.KNOCKOUT.value: "",
}


@dataclass(frozen=True, slots=True)
class CheckinLine:
    """One player on the check-in page: present (checked in), or why not asked."""

    start: int
    name: str
    present: bool
    at: str = ""  # when they checked in (ISO 8601)
    #: "" (asked to check in), "withdrawn", a bye's kind ("H", "Z", "F", "U", "free"),
    #: "played" (the round's game has its result already)
    status: str = ""
    board: int | None = None


@dataclass(frozen=True, slots=True)
class CheckinView:
    """A round's check-in: every player, who is present, who is absent."""

    round: int
    rounds: int
    #: "bye" (a Swiss: zero-point byes), "forfeit" (round robin, Scheveningen), ""
    action: str
    #: the round may still be acted on (a Swiss round not paired yet)
    open: bool
    lines: tuple[CheckinLine, ...]

    @property
    def asked(self) -> tuple[CheckinLine, ...]:
        return tuple(line for line in self.lines if not line.status)

    @property
    def present(self) -> tuple[CheckinLine, ...]:
        return tuple(line for line in self.asked if line.present)

    @property
    def absent(self) -> tuple[CheckinLine, ...]:
        return tuple(line for line in self.asked if not line.present)


def _paired(loaded: Loaded) -> int:
    """A Swiss's last paired round (games, or the pairing-allocated bye)."""
    rounds = {g.round for g in loaded.games} | {b.round for b in loaded.byes if b.kind == "U"}
    return max(rounds, default=0)


def _planned(loaded: Loaded) -> int:
    row = loaded.row
    if row.system == System.SWISS_DUTCH.value:
        return int(row.rounds_planned or default_rounds(len(loaded.entries)))
    return max([r.number for r in loaded.rounds] or [0])


def checkin_round(loaded: Loaded) -> int:
    """The round players check in for now (see the module's notes)."""
    if loaded.row.system == System.SWISS_DUTCH.value:
        return min(_paired(loaded) + 1, max(_planned(loaded), 1))
    waiting = [g.round for g in loaded.games if g.result is None]
    return min(waiting) if waiting else max(_planned(loaded), 1)


def _checking(tx: Tx, start: int, round_number: int | None) -> tuple[int, EntryRow]:
    """The round a check-in is for and player ``start``'s entry (a running tournament)."""
    loaded = Loaded(tx.session, tx.tournament)
    _running(loaded)
    number = _round(loaded, round_number)
    return number, _entry(loaded, start, number)


def _running(loaded: Loaded) -> None:
    if loaded.row.status != "running":
        raise RuleError(
            "check-in is for a tournament in play (this one is {status})",
            status=loaded.row.status,
        )


def _round(loaded: Loaded, round_number: int | None) -> int:
    if round_number is None:
        return checkin_round(loaded)
    planned = _planned(loaded)
    if not 1 <= round_number <= planned:
        raise RuleError(
            "there is no round {round} (rounds 1–{rounds})", round=round_number, rounds=planned
        )
    return round_number


def _checkins(session: object, tid: int, round_number: int) -> dict[int, CheckinRow]:
    rows = session.scalars(  # type: ignore[attr-defined]
        select(CheckinRow).where(CheckinRow.tournament_id == tid, CheckinRow.round == round_number)
    )
    return {row.player: row for row in rows}


def _view(loaded: Loaded, found: dict[int, CheckinRow], round_number: int) -> CheckinView:
    byes = {b.player: b.kind for b in loaded.byes if b.round == round_number}
    games = {}
    for g in loaded.games:
        if g.round == round_number:
            games[g.white] = g
            games[g.black] = g
    swiss = loaded.row.system == System.SWISS_DUTCH.value
    lines = []
    for entry in sorted(loaded.entries, key=lambda e: e.start or 0):
        if entry.start is None:
            continue
        game = games.get(entry.number)
        status = ""
        if entry.withdrawn_from is not None and entry.withdrawn_from <= round_number:
            status = "withdrawn"
        elif entry.number in byes:
            status = byes[entry.number]
        elif game is not None and game.result is not None:
            status = "played"
        row = found.get(entry.number)
        lines.append(
            CheckinLine(
                entry.start,
                entry.name,
                row is not None,
                row.at if row is not None else "",
                status,
                game.board if game is not None else None,
            )
        )
    action = ACTIONS.get(loaded.row.system, "")
    is_open = loaded.row.status == "running" and (round_number > _paired(loaded) if swiss else True)
    return CheckinView(round_number, _planned(loaded), action, is_open, tuple(lines))


class CheckIn:
    """The hall's check-in: who is present for a round, and the absent players' byes."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def checkin_view(self, tournament_id: int, round_number: int | None = None) -> CheckinView:
        """A round's check-in (the current one by default): every player and whether
        they checked in."""
        with self.frame.store.reading() as session:
            loaded = Loaded(session, _tournament_row(session, tournament_id))
            number = _round(loaded, round_number)
            return _view(loaded, _checkins(session, tournament_id, number), number)

    def check_in(
        self,
        tournament_id: int,
        start: int,
        round_number: int | None = None,
        *,
        actor: str = "",
    ) -> Change:
        """Player ``start`` is present for the round (the current one by default)."""

        def body(tx: Tx) -> Done:
            number, entry = _checking(tx, start, round_number)
            where = Message(
                "player {start} {name} checked in for round {round}",
                start=start,
                name=entry.name,
                round=number,
            )
            if entry.number in _checkins(tx.session, tx.tournament_id, number):
                raise Unchanged(
                    Message(
                        "player {start} {name} is already checked in for round {round}",
                        start=start,
                        name=entry.name,
                        round=number,
                    )
                )
            tx.insert(CheckinRow(round=number, player=entry.number, at=self.frame.now()))
            tx.flush()
            return Done(where, {"round": number, "start": start, "present": True})

        return self.frame.change(tournament_id, "check-in", body, actor=actor)

    def cancel_check_in(
        self,
        tournament_id: int,
        start: int,
        round_number: int | None = None,
        *,
        actor: str = "",
    ) -> Change:
        """Take a check-in back (tapped by mistake): the player counts as absent again."""

        def body(tx: Tx) -> Done:
            number, entry = _checking(tx, start, round_number)
            row = _checkins(tx.session, tx.tournament_id, number).get(entry.number)
            if row is None:
                raise RuleError(
                    "player {start} {name} is not checked in for round {round}",
                    start=start,
                    name=entry.name,
                    round=number,
                )
            tx.delete(row)
            summary = Message(
                "player {start} {name}: check-in for round {round} taken back",
                start=start,
                name=entry.name,
                round=number,
            )
            return Done(summary, {"round": number, "start": start, "present": False})

        return self.frame.change(tournament_id, "check-in-cancel", body, actor=actor)

    def absent_byes(
        self, tournament_id: int, round_number: int | None = None, *, actor: str = ""
    ) -> Change:
        """Every player not checked in for the round gets what the system allows: a
        zero-point bye before a Swiss round is paired, a forfeit loss in a round robin
        or a Scheveningen (see the module's notes). One event."""

        def body(tx: Tx) -> Done:
            loaded = Loaded(tx.session, tx.tournament)
            _running(loaded)
            number = _round(loaded, round_number)
            view = _view(loaded, _checkins(tx.session, tx.tournament_id, number), number)
            action = view.action
            if not action:
                raise RuleError(
                    "in a knockout a forfeit decides a match: score it game by game "
                    "on the round page"
                )
            if not view.open:
                raise RuleError(
                    "round {round} is paired already: a zero-point bye is entered "
                    "before the pairing",
                    round=number,
                )
            absent = [line.start for line in view.absent]
            if not absent:
                raise RuleError(
                    "nobody is absent in round {round}: every player is checked in", round=number
                )
            if action == "bye":
                return _zero_point_byes(tx, loaded, number, absent)
            return finish_by_itself(tx, _forfeits(tx, loaded, number, set(absent)))

        return self.frame.change(tournament_id, "absent", body, actor=actor)


def _zero_point_byes(tx: Tx, loaded: Loaded, number: int, absent: list[int]) -> Done:
    if not any(r.number == number for r in loaded.rounds):
        tx.insert(RoundRow(number=number, cycle=1))
        tx.flush()
    for start in absent:
        entry = loaded.entry_by_start(start)
        assert entry is not None
        tx.insert(ByeRow(round=number, player=entry.number, kind="Z"))
    tx.flush()
    summary = Message(
        "round {round}: zero-point byes for the players not checked in ({players})",
        round=number,
        players=", ".join(str(s) for s in absent),
    )
    return Done(summary, {"round": number, "absent": absent, "action": "bye"})


def _forfeits(tx: Tx, loaded: Loaded, number: int, absent: set[int]) -> Done:
    forfeited: list[int] = []
    for game in loaded.games:
        if game.round != number or game.result is not None:
            continue
        white, black = loaded.start_of(game.white), loaded.start_of(game.black)
        gone = (white in absent, black in absent)
        if not any(gone):
            continue
        code = {(True, False): "-+", (False, True): "+-", (True, True): "--"}[gone]
        tx.update(game, result=code, reason=Reason.NO_SHOW.value)
        forfeited.append(game.board)
    tx.flush()
    summary = Message(
        "round {round}: forfeits for the players not checked in ({players}), boards {boards}",
        round=number,
        players=", ".join(str(s) for s in sorted(absent)),
        boards=", ".join(str(b) for b in forfeited),
    )
    return Done(summary, {"round": number, "absent": sorted(absent), "action": "forfeit"})


def _entry(loaded: Loaded, start: int, number: int) -> EntryRow:
    entry = loaded.entry_by_start(start)
    if entry is None:
        raise NotFoundError("there is no player with starting number {start}", start=start)
    if entry.withdrawn_from is not None and entry.withdrawn_from <= number:
        raise RuleError(
            "player {start} {name} withdrew from round {round}",
            start=start,
            name=entry.name,
            round=entry.withdrawn_from,
        )
    return entry


def _tournament_row(session: object, tournament_id: int) -> TournamentRow:
    row = session.get(TournamentRow, tournament_id)  # type: ignore[attr-defined]
    if row is None:
        raise NotFoundError(
            "there is no tournament {tournament} in this database", tournament=tournament_id
        )
    return row  # type: ignore[no-any-return]
