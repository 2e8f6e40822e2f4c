"""The clock's pass over every series: :meth:`SeriesClock.tick`.

One tick does every time-driven step that is due, edition by edition, each edition's
steps in order until none is due (a server that was down for a day catches up in
order: the start moves past the slots whose deadline went by, then the close and the
start). The steps:

* **the deadline**: the core's :func:`stage_one_registration`
  says open, extended (recorded once) or closed; closed with fewer than 15 players,
  :func:`start_decision` moves the start and the deadline to the next slot and every
  registered player gets a ``start-moved`` notification; closed with enough, the
  registration is recorded as closed;
* **stage 1** at the planned start: the groups from the core (sizes, snake
  seeding by rating), recorded with their players, then each group made an ordinary
  round robin — created with its players, lots drawn, started: all its games at once
  (Service.create_tournament / draw_lots / start); then the stage is recorded as
  started with a ``stage-starts`` notification per player (group, first game);
* **a stage's end**: when every group's tournament is
  finished (a round robin finishes by itself with its last result; one still running
  with every result in is finished here), the qualifiers by the core
  (:func:`outcome_of`: a player with no game played does not go on), ``qualified`` /
  ``eliminated`` notifications, the stage's news item, awards and results
  (:func:`~crosstable.service.series.news.publish_stage`, with a ``news``
  notification per player), and the next stage — groups, the final, the
  super-final — made the same way; after the last stage the edition is finished.

Safety with several processes: one tick runs at a time per database (on PostgreSQL
a session advisory lock, taken with ``pg_try_advisory_lock``: a second process
finds it taken and does nothing; on SQLite a lease row). Every step re-reads its
edition under ``SELECT … FOR UPDATE`` and checks that it is still due, and records
itself with a unique step key (:func:`~crosstable.service.series.outbox.record`), so a
step is never done twice; the groups' tournaments carry their group's id in their
regulations, so a tick stopped between creating a group's tournament and recording
it adopts that tournament instead of making a second one.
"""

from __future__ import annotations

from sqlalchemy import bindparam, func, select

from crosstable.core.errors import CrosstableError
from crosstable.core.model import LotsMethod
from crosstable.core.series.groups import Entrant
from crosstable.core.series.plan import next_stage
from crosstable.core.series.qualification import barred_out, outcome_of, stage_entrants
from crosstable.core.series.registration import (
    RegistrationPhase,
    stage_one_registration,
    start_decision,
)
from crosstable.core.text import Message
from crosstable.service.frame import ChangeFrame
from crosstable.service.registration import PlayerInfo, Regulations
from crosstable.service.series.editions import (
    calendar_of,
    format_of,
    group_details,
    iso,
    moment,
)
from crosstable.service.series.later_stages import drop_unconfirmed, dropped_keys
from crosstable.service.series.lines import listed, record
from crosstable.service.series.needs import Tournaments
from crosstable.service.series.news import GroupResult, publish_stage
from crosstable.service.series.next_edition import open_due_editions
from crosstable.service.series.outbox import notify
from crosstable.service.series.stages import (
    barred_text,
    first_games,
    flagged_keys,
    following,
    group_letter,
    group_title,
    keys_by_start,
    left_out_text,
    locked,
    make_stage,
    sizes_text,
    stage_groups,
    taking_part,
    winners,
)
from crosstable.service.series.tick_lock import tick_lock
from crosstable.store.models import GameRow, TournamentRow
from crosstable.store.series_models import (
    SeriesEditionRow,
    SeriesGroupRow,
    SeriesRegistrationRow,
    SeriesRow,
    SeriesStageRow,
)

#: the most steps one edition takes in one tick (a guard against a loop)
MAX_STEPS = 1000


#: the tournaments of one title (a group's round robin is looked for before it is made:
#: by the index of migration 0020, tests/test_explain_queries.py)
BY_TITLE = select(TournamentRow.id, TournamentRow.regulations).where(
    TournamentRow.name == bindparam("title")
)


class SeriesClock:
    """The time-driven steps of every series (a stage's round robins are made, started
    and finished by ``tournaments``)."""

    def __init__(self, frame: ChangeFrame, tournaments: Tournaments) -> None:
        self.frame = frame
        self.tournaments = tournaments

    def tick(self) -> list[str]:
        """One pass of every step that is due; what was done, one line per step."""
        done: list[str] = []
        with tick_lock(self.frame) as mine:
            if not mine:
                return done
            with self.frame.store.reading() as session:
                query = (
                    select(SeriesEditionRow.id)
                    .where(SeriesEditionRow.state.in_(("registration", "running")))
                    .order_by(SeriesEditionRow.planned_start, SeriesEditionRow.id)
                )
                editions = list(session.scalars(query))
            for edition_id in editions:
                for _ in range(MAX_STEPS):
                    try:
                        said = self._step(edition_id)
                    except CrosstableError as error:  # this edition waits; the others go on
                        done.append(f"edition id {edition_id}: cannot go on: {error}")
                        break
                    if said is None:
                        break
                    done.append(said)
            done += open_due_editions(self.frame)  # the next editions
        return done

    # -- one step -------------------------------------------------------------------

    def _step(self, edition_id: int) -> str | None:
        with self.frame.store.reading() as session:
            edition = session.get(SeriesEditionRow, edition_id)
            assert edition is not None
            state, stage_number = edition.state, edition.stage
            closed = edition.closed_at is not None
        if state == "registration":
            return self._deadline(edition_id) if not closed else self._first_stage(edition_id)
        if state != "running":
            return None
        stage = self._stage(edition_id, stage_number)
        if stage.started_at is None:
            return self._start_stage(edition_id, stage.id)
        if stage.finished_at is None:
            # a later stage's two weeks are over — the unconfirmed drop out first
            dropped = drop_unconfirmed(self.frame, self.tournaments, edition_id, stage.id)
            return dropped if dropped is not None else self._stage_end(edition_id, stage.id)
        return None  # pragma: no cover - a finished stage leaves the edition finished or on

    def _deadline(self, edition_id: int) -> str | None:
        now = self.frame.clock.now()
        at = self.frame.now()
        with self.frame.store.transaction() as session:
            edition, series = locked(session, edition_id)
            if edition.state != "registration" or edition.closed_at is not None:
                return None
            if now < moment(edition.deadline):
                return None
            entries, _left_out = taking_part(session, edition_id)  # fair play
            registration = stage_one_registration(
                now,
                moment(edition.deadline),
                len(entries),
                pre_registration=series.pre_registration,
                max_size=series.max_group_size,
                first_deadline=moment(edition.first_deadline),
            )
            if registration.phase is RegistrationPhase.EXTENDED:
                if edition.extended:
                    return None
                edition.extended = True
                said = Message(
                    "edition {number}: registration extended until {closes} (the last table "
                    "is short of 60 %)",
                    number=edition.number,
                    closes=registration.closes.isoformat(),
                )
                record(
                    session,
                    series.id,
                    edition_id,
                    "extended",
                    said,
                    at=at,
                    step=f"edition {edition_id}: extended",
                )
                return said
            if registration.phase is RegistrationPhase.OPEN:  # pragma: no cover - checked above
                return None
            calendar = calendar_of(series)
            start = moment(edition.planned_start).astimezone(calendar.zone)
            decision = start_decision(len(entries), start, moment(edition.deadline), calendar)
            skipped = 0
            while decision.postponed and decision.deadline <= now and skipped < MAX_STEPS:
                # a slot whose deadline passed while no tick ran (a server that was down):
                # nobody could register for it, so the start moves on to the first slot
                # still ahead, in one step and one notification
                decision = start_decision(len(entries), decision.start, decision.deadline, calendar)
                skipped += 1
            if decision.postponed:
                edition.postponed += 1
                edition.planned_start = iso(decision.start)
                edition.deadline = iso(decision.deadline)
                # ``extended`` stays: the week of extension counts from the first deadline
                said = Message(
                    "edition {number}: {registered} registered, fewer than 15 — the start "
                    "moves to {start}",
                    number=edition.number,
                    registered=len(entries),
                    start=decision.start.isoformat(),
                )
                record(
                    session,
                    series.id,
                    edition_id,
                    "postponed",
                    said,
                    at=at,
                    step=f"edition {edition_id}: postponed {edition.postponed}",
                    data={
                        "start": edition.planned_start,
                        "registered": len(entries),
                        "slots_passed": skipped,
                    },
                )
                for entry in entries:
                    notify(
                        session,
                        entry,
                        "start-moved",
                        f"start-moved:{edition_id}:{edition.postponed}:{entry.id}",
                        {
                            "edition": edition_id,
                            "series": series.name,
                            "start": edition.planned_start,
                        },
                        at=at,
                    )
                return said
            edition.closed_at = iso(max(now, registration.closes))
            said = Message(
                "edition {number}: registration closed with {players} players",
                number=edition.number,
                players=len(entries),
            )
            record(
                session,
                series.id,
                edition_id,
                "closed",
                said,
                at=at,
                step=f"edition {edition_id}: closed",
                data={"registered": len(entries)},
            )
            return said

    def _first_stage(self, edition_id: int) -> str | None:
        now = self.frame.clock.now()
        at = self.frame.now()
        with self.frame.store.transaction() as session:
            edition, series = locked(session, edition_id)
            if edition.state != "registration" or now < moment(edition.planned_start):
                return None
            entries, left_out = taking_part(session, edition_id)  # fair play
            entrants = [Entrant(e.id, e.rating) for e in entries]
            plan = next_stage(len(entrants), 1, format_of(series))
            make_stage(session, edition, series, plan, entrants, at=at)
            edition.state = "running"
            edition.stage = 1
            made = Message(
                "edition {number}: stage 1 made — {sizes}",
                number=edition.number,
                sizes=sizes_text(plan.group_sizes),
            )
            said = listed("; ", [made, *left_out_text(left_out)])
            record(
                session,
                series.id,
                edition_id,
                "stage-made",
                said,
                at=at,
                step=f"edition {edition_id}: stage 1 made",
            )
            return said

    def _start_stage(self, edition_id: int, stage_id: int) -> str:
        """Create and start every group's round robin, then record the stage's start."""
        with self.frame.store.reading() as session:
            stage = session.get(SeriesStageRow, stage_id)
            edition = session.get(SeriesEditionRow, edition_id)
            assert stage is not None and edition is not None
            series = session.get(SeriesRow, edition.series_id)
            assert series is not None
            groups = stage_groups(session, stage_id)
            names = {
                r.id: r
                for r in session.scalars(
                    select(SeriesRegistrationRow).where(
                        SeriesRegistrationRow.edition_id == edition_id
                    )
                )
            }
        for group in groups:
            self._group_tournament(series, edition, stage, group, names)
        at = self.frame.now()
        with self.frame.store.transaction() as session:
            edition, series = locked(session, edition_id)
            stage = session.get(SeriesStageRow, stage_id)
            assert stage is not None
            if stage.started_at is not None:  # pragma: no cover - one tick at a time
                return Message(
                    "edition {number}: stage {stage} started already",
                    number=edition.number,
                    stage=stage.number,
                )
            stage.started_at = at
            groups = stage_groups(session, stage_id)
            for group in groups:
                assert group.tournament_id is not None
                firsts = first_games(session, group.tournament_id)
                for number, key in enumerate(group.players, 1):
                    entry = names[key]
                    notify(
                        session,
                        entry,
                        "stage-starts",
                        f"stage-starts:{stage_id}:{key}",
                        {
                            "edition": edition_id,
                            "series": series.name,
                            "stage": stage.number,
                            "kind": stage.kind,
                            "group": group_letter(group.letter),
                            "tournament": group.tournament_id,
                            "first_game": firsts.get(number),
                        },
                        at=at,
                    )
            said = Message(
                "edition {number}: stage {stage} ({kind}) started — {groups} round robins, "
                "every game created",
                number=edition.number,
                stage=stage.number,
                kind=stage.kind,
                groups=len(groups),
            )
            record(
                session,
                series.id,
                edition_id,
                "stage-start",
                said,
                at=at,
                step=f"edition {edition_id}: stage {stage.number} starts",
            )
            return said

    def _group_tournament(
        self,
        series: SeriesRow,
        edition: SeriesEditionRow,
        stage: SeriesStageRow,
        group: SeriesGroupRow,
        names: dict[int, SeriesRegistrationRow],
    ) -> None:
        title = group_title(series, edition, stage, group)
        tid = group.tournament_id
        if tid is None:
            tid = self._adopt(title, group.id)
        if tid is None:
            regulations = Regulations(
                name=title,
                cycles=stage.cycles,
                tiebreaks=tuple(code for code in series.tiebreaks.split(",") if code),
                time_control=series.time_control,
                details={
                    "series": str(series.id),
                    "series_edition": str(edition.id),
                    "series_stage": str(stage.number),
                    "series_group": str(group.id),
                }
                | group_details(series),  # a battle-chess series' groups are battle chess
            )
            players = [
                PlayerInfo(names[key].name, rating=names[key].rating) for key in group.players
            ]
            tid = self.tournaments.create_tournament(
                regulations, players=players, actor="tick"
            ).tournament_id
        if group.tournament_id is None:
            with self.frame.store.transaction() as session:
                row = session.get(SeriesGroupRow, group.id)
                assert row is not None
                row.tournament_id = tid
            group.tournament_id = tid
        with self.frame.store.reading() as session:
            trow = session.get(TournamentRow, tid)
            assert trow is not None
            status, drawn = trow.status, trow.draw_method is not None
        if status == "registration":
            if not drawn:
                self.tournaments.draw_lots(tid, LotsMethod.RANDOM, actor="tick")
            self.tournaments.start(tid, actor="tick")

    def _adopt(self, title: str, group_id: int) -> int | None:
        """The tournament a stopped tick created for the group (None: none)."""
        with self.frame.store.reading() as session:
            for tid, regulations in session.execute(BY_TITLE, {"title": title}):
                if (regulations or {}).get("series_group") == str(group_id):
                    return int(tid)
        return None

    def _stage_end(self, edition_id: int, stage_id: int) -> str | None:
        with self.frame.store.reading() as session:
            groups = stage_groups(session, stage_id)
            tids = [g.tournament_id for g in groups if g.tournament_id is not None]
            assert len(tids) == len(groups)
            # two queries for the whole stage, not two per group: a tick with nothing to
            # do costs the same for a stage of 4 groups or of 1 000
            status_of = {
                tid: status
                for tid, status in session.execute(
                    select(TournamentRow.id, TournamentRow.status).where(TournamentRow.id.in_(tids))
                )
            }
            counted = {
                tid: bool(games) and games == with_result
                for tid, games, with_result in session.execute(
                    select(GameRow.tournament_id, func.count(), func.count(GameRow.result))
                    .where(GameRow.tournament_id.in_(tids))
                    .group_by(GameRow.tournament_id)
                )
            }
            statuses = {tid: (status_of[tid], counted.get(tid, False)) for tid in tids}
        for tid, (status, complete) in statuses.items():
            if status == "running" and complete:  # a group whose regulations ask to confirm
                self.tournaments.finish(tid, actor="tick")
            elif status != "finished":
                return None
        outcomes = []
        with self.frame.store.reading() as session:
            stage = session.get(SeriesStageRow, stage_id)
            assert stage is not None
            edition = session.get(SeriesEditionRow, edition_id)
            assert edition is not None
            series = session.get(SeriesRow, edition.series_id)
            assert series is not None
            tiebreaks = [code for code in series.tiebreaks.split(",") if code] or None
            results: list[GroupResult] = []
            barred = flagged_keys(session, edition_id)  # fair play: never go on
            # qualifiers who did not confirm within the two weeks never go on
            dropped = dropped_keys(session, edition_id, stage.number)
            for group in groups:
                assert group.tournament_id is not None
                keys = keys_by_start(session, group)
                played = self.tournaments.tournament(group.tournament_id)
                outcome = outcome_of(
                    played,
                    keys,
                    max(1, stage.qualifiers_per_group),  # the last stage: its winner
                    tiebreaks,
                    lots_seed=group.tournament_id,
                    label=f"group {group_letter(group.letter)}",
                    barred=barred | dropped,
                )
                outcomes.append(outcome)
                results.append(GroupResult(group, keys, played, outcome))
        at = self.frame.now()
        with self.frame.store.transaction() as session:
            edition, series = locked(session, edition_id)
            stage = session.get(SeriesStageRow, stage_id)
            assert stage is not None
            if stage.finished_at is not None:  # pragma: no cover - one tick at a time
                return None
            stage.finished_at = at
            entries = {
                r.id: r
                for r in session.scalars(
                    select(SeriesRegistrationRow).where(
                        SeriesRegistrationRow.edition_id == edition_id
                    )
                )
            }
            per_group = stage.qualifiers_per_group
            going = stage_entrants(outcomes, per_group, {k: r.rating for k, r in entries.items()})
            on = {e.key for e in going}
            for outcome in outcomes:
                for key in outcome.ranking:
                    kind = "qualified" if key in on else "eliminated"
                    if per_group and key not in dropped:  # the dropped were told then
                        notify(
                            session,
                            entries[key],
                            kind,
                            f"{kind}:{stage_id}:{key}",
                            {
                                "edition": edition_id,
                                "series": series.name,
                                "stage": stage.number,
                                "played": key in outcome.played,
                                "barred": key in barred,
                            },
                            at=at,
                        )
            ended = Message(
                "edition {number}: stage {stage} ({kind}) ended — {winners}",
                number=edition.number,
                stage=stage.number,
                kind=stage.kind,
                winners=winners(outcomes, entries),
            )
            parts: list[object] = [ended, *barred_text(outcomes, entries, barred)]
            plan = following(stage, len(going), series)
            # the news item, the awards and the players' results, in this step
            publish_stage(
                session,
                series,
                edition,
                stage,
                results,
                entries,
                [e.key for e in going],
                tiebreaks=tiebreaks,
                next_stage=None if plan is None else (plan.number, plan.kind.value),
                at=at,
            )
            if plan is None:
                edition.state = "finished"
                edition.finished_at = at
                parts.append("the edition is finished")
            else:
                make_stage(session, edition, series, plan, list(going), at=at)
                edition.stage = plan.number
                parts.append(
                    Message(
                        "{players} go on to stage {stage} ({kind})",
                        players=len(going),
                        stage=plan.number,
                        kind=plan.kind.value,
                    )
                )
            said = listed("; ", parts)
            record(
                session,
                series.id,
                edition_id,
                "stage-end",
                said,
                at=at,
                step=f"edition {edition_id}: stage {stage.number} ends",
                data={
                    "qualified": sorted(on),
                    "barred": sorted(k for k in barred_out(outcomes) if k in barred),
                }
                | ({"dropped": sorted(dropped)} if dropped else {}),
            )
            return said

    # -- helpers --------------------------------------------------------------------

    def _stage(self, edition_id: int, number: int) -> SeriesStageRow:
        with self.frame.store.reading() as session:
            query = select(SeriesStageRow).where(
                SeriesStageRow.edition_id == edition_id, SeriesStageRow.number == number
            )
            return session.scalars(query).one()
