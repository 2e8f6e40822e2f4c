"""The use cases of a Swiss: propose, review and publish each round, byes asked ahead."""

from __future__ import annotations

from typing import Any

from crosstable.core.errors import RuleError
from crosstable.core.pairing.dutch import (
    default_rounds,
    next_round,
)
from crosstable.core.text import Message
from crosstable.service.adjournment_state import (
    adjourn_missing,
    as_if_adjourned,
    games_listed,
    with_acknowledged,
)
from crosstable.service.errors import NotFoundError
from crosstable.service.fide_actions import bye_warnings
from crosstable.service.fide_mode import in_fide_mode
from crosstable.service.frame import (
    Change,
    ChangeFrame,
    Done,
    EventData,
    Unchanged,
    replayed_change,
)
from crosstable.service.hand_pairings import MANUAL, RULES, manual_pairing_warnings, rule_warnings
from crosstable.service.loading import Loaded
from crosstable.service.pairing_phase_state import close_phase, publishing_gate
from crosstable.service.swiss.plan import (
    Board,
    RoundProposal,
    check_running,
    check_swiss,
    plan_round,
    review,
)
from crosstable.service.swiss.settings import BYE_KINDS
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import logged, settle
from crosstable.store.models import ByeRow, EntryRow, EventRow, GameRow, RoundRow, TournamentRow

# -- the use cases ---------------------------------------------------------------------------


class SwissPlay:
    """Use cases of a Swiss tournament: propose and publish each round's pairing."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def propose_round(self, tournament_id: int) -> RoundProposal:
        """The Dutch system's pairing of the next round (nothing is changed); games
        without a result count as adjourned, as publishing it would record them."""
        with self.frame.store.reading() as session:
            loaded = Loaded(session, _tournament_row(session, tournament_id))
            as_if_adjourned(loaded)  # (in memory: a read is never written)
            return plan_round(loaded).proposal()

    def review_pairing(
        self,
        tournament_id: int,
        boards: list[Board] | tuple[Board, ...],
        bye: int | None = None,
        *,
        allow_rematch: bool = False,
    ) -> list[str]:
        """Check an organiser's pairing of the next round without publishing it: a
        RuleError when it breaks the rules, else how it differs from the Dutch system's."""
        wanted = _boards(boards)
        with self.frame.store.reading() as session:
            loaded = Loaded(session, _tournament_row(session, tournament_id))
            as_if_adjourned(loaded)  # (in memory: a read is never written)
            fide = in_fide_mode(session, loaded.row)  # (an ineligible PAB: level 3)
            return review(plan_round(loaded), wanted, bye, allow_rematch, fide=fide)

    def publish_round(
        self,
        tournament_id: int,
        boards: list[Board] | tuple[Board, ...] | None = None,
        bye: int | None = None,
        *,
        allow_rematch: bool = False,
        actor: str = "",
        idempotency_key: str | None = None,
        confirm: str | None = None,
        validating: bool = False,
    ) -> Change:
        """Publish the next round: the Dutch system's pairing (``boards`` None) or the
        organiser's (recorded as a manual pairing, with warnings, when it differs).
        While the round's pairings are open for editing, only their validation
        (``validating``: service/pairing_phase.py) publishes it, and closes the phase.

        Games of earlier rounds without a result are recorded as adjourned (a draw for
        pairing), and adjourned games older than the last round still open are named:
        level-2 warnings, acknowledged with ``confirm`` (service/adjourned.py)."""
        wanted = None if boards is None else _boards(boards)
        if wanted is None and bye is not None:
            raise RuleError("a PAB of the organiser's choice needs the whole manual pairing")
        request = {
            "op": "publish",
            "boards": None if wanted is None else [list(b) for b in wanted],
            "bye": bye,
            "allow_rematch": allow_rematch,
        }

        def body(tx: Tx) -> Done:
            loaded = Loaded(tx.session, tx.tournament)
            number = next_round(loaded.tournament())
            closing = publishing_gate(tx, number, validating)  # the manual-pairing phase
            by_hand = wanted is not None  # (its warnings settled with the adjournments')
            missing, acknowledged = adjourn_missing(
                tx, loaded, number, f"{request!r}", confirm, later=by_hand
            )
            if missing:
                loaded = Loaded(tx.session, tx.tournament)
            plan = plan_round(loaded)
            if wanted is None:
                proposal = plan.proposal()
                chosen, pab, warnings = proposal.boards, proposal.bye, []
            else:
                chosen, pab = wanted, bye
                fide = in_fide_mode(tx.session, tx.tournament)
                warnings = review(plan, wanted, bye, allow_rematch, fide=fide)
                said = [
                    *acknowledged,
                    *manual_pairing_warnings(tx, plan.round, warnings),
                    *rule_warnings(tx, plan.request, wanted, bye),  # FIDE's level 3 each
                ]
                action = f"publish {number} {request!r}"
                revision = tx.tournament.revision
                acknowledged = settle(tx.tournament_id, revision, action, said, confirm)
            number = plan.round
            if not any(r.number == number for r in loaded.rounds):
                tx.insert(RoundRow(number=number, cycle=1))
                tx.flush()
            numbers = {loaded.start_of(e.number): e.number for e in loaded.entries}
            for board, (white, black) in enumerate(chosen, 1):
                tx.insert(
                    GameRow(
                        round=number,
                        board=board,
                        white=numbers[white],
                        black=numbers[black],
                        result=None,
                        reason="normal",
                        version=1,
                    )
                )
            if pab is not None:
                tx.insert(ByeRow(round=number, player=numbers[pab], kind="U"))
            for start, why in plan.absent:
                if why == "withdrawn":  # recorded as absent (zero-point), as TRF shows it
                    tx.insert(ByeRow(round=number, player=numbers[start], kind="Z"))
            tx.flush()
            manual = bool(warnings)
            names = {loaded.start_of(e.number): e.name for e in loaded.entries}
            summary = paired_summary(number, len(chosen))
            if pab is not None:
                summary = Message(
                    "{summary}, PAB {start} {name}", summary=summary, start=pab, name=names[pab]
                )
            if plan.absent:
                summary = Message(
                    "{summary}, {count} not paired", summary=summary, count=len(plan.absent)
                )
            if manual:
                summary = Message(
                    "{summary}; manual pairing, differs from the Dutch system's: {warnings}",
                    summary=summary,
                    warnings=Message.joined("; ", warnings),
                )
            data: EventData = {
                "round": number,
                "boards": [list(b) for b in chosen],
                "bye": pab,
                "absent": [list(a) for a in plan.absent],
                "manual": manual,
                "warnings": warnings,
            }
            if missing:
                summary = Message(
                    "{summary}; adjourned: {listed}", summary=summary, listed=games_listed(missing)
                )
                data["adjourned"] = [[g.round, g.board] for g in missing]
            if closing:
                close_phase(tx)
                data["validated"] = True
                summary = Message("{summary}; pairings validated", summary=summary)
            done = with_acknowledged(
                Done(summary, data),
                [w for w in acknowledged if w.code != MANUAL and w.code not in RULES],
            )
            return logged(done, [w for w in acknowledged if w.code == MANUAL or w.code in RULES])

        return self.frame.change(
            tournament_id,
            "pairing",
            body,
            actor=actor,
            idempotency_key=idempotency_key,
            request=request,
        )

    def published_with_key(self, tournament_id: int, idempotency_key: str) -> Change | None:
        """The round published earlier with ``idempotency_key`` (None: none was), so a
        client that lost the answer can tell that its request went through."""
        from sqlalchemy import select

        with self.frame.store.reading() as session:
            _tournament_row(session, tournament_id)
            event = session.scalars(
                select(EventRow).where(
                    EventRow.tournament_id == tournament_id,
                    EventRow.idempotency_key == idempotency_key,
                    EventRow.kind == "pairing",
                )
            ).one_or_none()
            if event is None:
                return None
            return replayed_change(event)

    def request_bye(
        self,
        tournament_id: int,
        start: int,
        round_number: int,
        kind: str = "H",
        *,
        actor: str = "",
        confirm: str | None = None,
    ) -> Change:
        """A player will not play ``round_number`` (not paired yet): a half-point (H),
        zero-point (Z) or full-point (F) bye, as the regulations allow. A full-point bye
        and a second half-point bye take FIDE's warnings (``confirm``: fide_actions.py)."""
        code = kind.strip().upper()
        if code not in BYE_KINDS:
            raise RuleError(
                "bye kind {kind}: use H (half-point), Z (zero-point) or F (full)", kind=repr(kind)
            )

        def body(tx: Tx) -> Done:
            loaded = Loaded(tx.session, tx.tournament)
            entry = _future_round(loaded, start, round_number)
            if entry.withdrawn_from is not None and entry.withdrawn_from <= round_number:
                raise RuleError(
                    "player {start} {name} withdrew from round {round}",
                    start=start,
                    name=entry.name,
                    round=entry.withdrawn_from,
                )
            if code == "H" and not entry.half_byes:
                raise RuleError(
                    "player {start} {name} is not entitled to half-point byes (the "
                    "regulations' conditions of entry)",
                    start=start,
                    name=entry.name,
                )
            what = Message("{kind} bye ({code})", kind=BYE_KINDS[code], code=code)
            current = next(
                (b for b in loaded.byes if b.round == round_number and b.player == entry.number),
                None,
            )
            where = Message(
                "player {start} {name}: {what} in round {round}",
                start=start,
                name=entry.name,
                what=what,
                round=round_number,
            )
            if current is not None and current.kind == code:
                raise Unchanged(Message("{where} is already entered", where=where))
            said = bye_warnings(loaded.byes, entry.number, start, entry.name, round_number, code)
            action = f"bye {start} {round_number} {code}"
            confirmed = settle(tx.tournament_id, tx.tournament.revision, action, said, confirm)
            if current is not None:
                before = current.kind
                tx.update(current, kind=code)
                return logged(
                    Done(
                        Message("{where} (was {before})", where=where, before=before),
                        _bye_data(start, round_number, code),
                    ),
                    confirmed,
                )
            if not any(r.number == round_number for r in loaded.rounds):
                tx.insert(RoundRow(number=round_number, cycle=1))
                tx.flush()
            tx.insert(ByeRow(round=round_number, player=entry.number, kind=code))
            tx.flush()
            return logged(Done(where, _bye_data(start, round_number, code)), confirmed)

        return self.frame.change(tournament_id, "bye", body, actor=actor)

    def cancel_bye(
        self, tournament_id: int, start: int, round_number: int, *, actor: str = ""
    ) -> Change:
        """Take back a bye requested for a round not paired yet: the player is paired."""

        def body(tx: Tx) -> Done:
            loaded = Loaded(tx.session, tx.tournament)
            entry = _future_round(loaded, start, round_number)
            current = next(
                (b for b in loaded.byes if b.round == round_number and b.player == entry.number),
                None,
            )
            if current is None:
                raise RuleError(
                    "player {start} {name} has no bye in round {round}",
                    start=start,
                    name=entry.name,
                    round=round_number,
                )
            kind = current.kind
            tx.delete(current)
            others = [b for b in loaded.byes if b.round == round_number and b is not current]
            games = [g for g in loaded.games if g.round == round_number]
            if not others and not games:
                rnd = next(r for r in loaded.rounds if r.number == round_number)
                tx.delete(rnd)
            return Done(
                Message(
                    (
                        "player {start} {name}: bye ({kind}) in round {round} cancelled, "
                        "the player will be paired"
                    ),
                    start=start,
                    name=entry.name,
                    kind=kind,
                    round=round_number,
                ),
                _bye_data(start, round_number, None),
            )

        return self.frame.change(tournament_id, "bye-cancel", body, actor=actor)


def paired_summary(number: int, boards: int) -> Message:
    """``round 3 paired: 12 boards``."""
    if boards == 1:
        return Message("round {round} paired: 1 board", round=number)
    return Message("round {round} paired: {count} boards", round=number, count=boards)


def _bye_data(start: int, round_number: int, kind: str | None) -> EventData:
    return {"start": start, "round": round_number, "kind": kind}


def _future_round(loaded: Loaded, start: int, round_number: int) -> EntryRow:
    """The player, checked to be in a running Swiss whose ``round_number`` is not paired."""
    check_swiss(loaded)
    check_running(loaded)
    entry = loaded.entry_by_start(start)
    if entry is None:
        raise NotFoundError("there is no player with starting number {start}", start=start)
    planned = loaded.row.rounds_planned or default_rounds(len(loaded.entries))
    if not 1 <= round_number <= planned:
        raise RuleError(
            "there is no round {round} (rounds 1–{rounds})", round=round_number, rounds=planned
        )
    paired = next_round(loaded.tournament()) - 1
    if round_number <= paired:
        raise RuleError(
            "round {round} is paired already: a bye is entered before the pairing",
            round=round_number,
        )
    return entry


def _boards(boards: list[Board] | tuple[Board, ...]) -> tuple[Board, ...]:
    out: list[Board] = []
    for index, board in enumerate(boards, 1):
        try:
            white, black = board
            out.append((int(white), int(black)))
        except (TypeError, ValueError):
            raise RuleError(
                "board {index}: {board} is not a pair (white, black)",
                index=index,
                board=repr(board),
            ) from None
    return tuple(out)


def _tournament_row(session: Any, tournament_id: int) -> Any:
    row = session.get(TournamentRow, tournament_id)
    if row is None:
        raise NotFoundError(
            "there is no tournament {tournament} in this database", tournament=tournament_id
        )
    return row
