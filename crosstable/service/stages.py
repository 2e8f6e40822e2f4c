"""Group stage + knockout: the knockout stage created from the finished groups.

The wizard creates one round robin per group and links them in their regulations'
details (:func:`group_details`): the event's key, the group's letter, the number of
groups, the qualifiers per group and the knockout's settings. When every group is
finished, :meth:`StagePlay.create_knockout_stage` makes the knockout in one
transaction:

* the qualifiers are each group's top k by its final standings and its own
  tie-breaks (:func:`crosstable.core.pairing.knockout_groups.group_ranking`: an
  unbroken tie at the cut is refused unless lots are drawn), cross-seeded by the
  core (:func:`~crosstable.core.pairing.knockout_groups.cross_seeded_bracket`);
* ONE knockout tournament ``"<event> — knockout"`` is created (event ``create``)
  and the qualifiers are registered with their starting numbers = their bracket
  seeds (event ``knockout-stage``). Its ``bracket`` is ``seeded``: seed *s* on the
  standard seeding position of *s* is exactly the core's cross-seeded bracket;
* every group gets an informational ``knockout-stage`` event (no row changes).

Undoing the ``knockout-stage`` event leaves the knockout empty; creating the stage
again fills the same tournament. The start of the knockout checks that the groups
still give these qualifiers (:func:`check_stage_start`). docs/knockout.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod, System
from crosstable.core.scoring import PointSystem
from crosstable.core.text import Message
from crosstable.core.tiebreaks import default_tiebreaks
from crosstable.service.bus import Notification
from crosstable.service.errors import ConflictError, NotFoundError
from crosstable.service.frame import Change, ChangeFrame, Done, EventData
from crosstable.service.history import append_information
from crosstable.service.loading import settings_columns, settings_of
from crosstable.service.lots import TIES_SEED
from crosstable.service.series.lines import made_name
from crosstable.service.stage_view import (
    EVENT,
    GROUPS,
    KIND,
    KNOCKOUT_KEYS,
    LETTER,
    LOTS,
    NAME,
    QUALIFIERS,
    SEEDS,
    STAGE,
    StageView,
    check_ready,
    count_players,
    event_of,
    group_details,
    group_letter,
    members,
    pairs_text,
    qualifiers,
    seeds_text,
    stage_view,
)
from crosstable.service.unit import Tx
from crosstable.store.models import EntryRow, TournamentRow

# -- the use cases -----------------------------------------------------------------------


class StagePlay:
    """Use cases of a group stage + knockout event."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def stage_of(self, tournament_id: int) -> StageView | None:
        """The event a group or knockout belongs to (None: not part of one)."""
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database", tournament=tournament_id
                )
            if not (row.regulations or {}).get(EVENT):
                return None
            return stage_view(session, row, members(session, event_of(row)))

    def link_group_stage(
        self,
        tournament_ids: list[int],
        *,
        qualifiers: int,
        name: str = "",
        match_format: str = "1",
        tie_rule: str = "lower-rated",
        third_place: bool = False,
        actor: str = "",
    ) -> StageView:
        """Make round robins created one by one the groups A, B, … (in the order given)
        of one event: their regulations record what the wizard's groups record (one
        ``regulations`` event in each, undoable). Refused for a tournament that is not a
        round robin, is finished or already belongs to an event."""
        import secrets

        ids = list(dict.fromkeys(tournament_ids))
        if len(ids) != len(tournament_ids):
            raise RuleError("a tournament is named twice among the groups")
        if len(ids) < 2:
            raise RuleError("a group stage has at least two groups")
        with self.frame.store.reading() as session:
            rows = []
            for tid in ids:
                row = session.get(TournamentRow, tid)
                if row is None:
                    raise NotFoundError(
                        "there is no tournament {tournament} in this database", tournament=tid
                    )
                if row.system != System.ROUND_ROBIN.value:
                    raise RuleError(
                        "tournament {tournament} is a {system}, not a round robin",
                        tournament=tid,
                        system=row.system,
                    )
                if (row.regulations or {}).get(EVENT):
                    raise RuleError(
                        "tournament {tournament} belongs to a group stage already", tournament=tid
                    )
                rows.append((tid, dict(row.regulations or {}), row.name))
            counts = count_players(session, ids)
        smallest = min(counts.get(tid, 0) for tid in ids)
        if qualifiers < 1 or (smallest and qualifiers >= smallest):
            raise RuleError(
                (
                    "qualifiers per group: {qualifiers} — between 1 and {most} (fewer than the "
                    "smallest group)"
                ),
                qualifiers=qualifiers,
                most=smallest - 1,
            )
        event = secrets.token_hex(6)
        title = " ".join(name.split()) or rows[0][2]
        for index, (tid, details, _name) in enumerate(rows):
            linked = group_details(
                event,
                title,
                group_letter(index),
                len(rows),
                qualifiers,
                match_format=match_format,
                tie_rule=tie_rule,
                third_place=third_place,
            )
            self.frame.change(tid, "regulations", _linking(details | linked), actor=actor)
        found = self.stage_of(ids[0])
        assert found is not None
        return found

    def create_knockout_stage(
        self,
        tournament_id: int,
        *,
        actor: str = "",
        lots_seed: int | None = None,
        idempotency_key: str | None = None,
    ) -> Change:
        """Create the knockout of the event ``tournament_id`` (any group) belongs to.

        ``lots_seed`` breaks ties at the cut by a drawing of lots (recorded); without
        it an unbroken tie there is refused. The answer is the knockout's
        ``knockout-stage`` event; its data lists the qualifiers (seed, group, place,
        the group's entry number) and the bracket's lines. It runs in the frame of every
        change (:meth:`ChangeFrame.creating`: one transaction, announced to every
        process after the commit); the same ``idempotency_key`` again answers the first
        answer (a form sent twice), with another request it is a conflict.
        """
        request = {"op": "knockout-stage", "lots_seed": lots_seed}

        def body(session: Session) -> tuple[Change, list[Notification]]:
            notes: list[Notification] = []
            asked = session.get(TournamentRow, tournament_id)
            if asked is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database", tournament=tournament_id
                )
            event = event_of(asked)
            rows = members(session, event, lock=True)  # every tournament of it, in id order
            view = stage_view(session, asked, rows)
            if idempotency_key is not None and view.knockout is not None:
                prior = self.frame.prior(session, view.knockout.id, idempotency_key, request)
                if prior is not None:
                    return prior, []
            if view.knockout_filled:
                assert view.knockout is not None
                raise ConflictError(
                    "the knockout stage exists already: tournament {tournament} “{name}”",
                    tournament=view.knockout.id,
                    name=view.knockout.name,
                )
            check_ready(view)
            found, lines = qualifiers(session, view, lots_seed=lots_seed)
            first = next(r for r in rows if r.id == view.groups[0].id)
            if view.knockout is None:
                row, note = self._new_knockout(session, first, view, actor)
                notes.append(note)
            else:
                row = next(r for r in rows if r.id == view.knockout.id)
                if row.status != "registration" or row.system != System.KNOCKOUT.value:
                    raise RuleError(
                        (
                            "tournament {tournament} “{name}” is not a knockout waiting for its "
                            "players"
                        ),
                        tournament=row.id,
                        name=row.name,
                    )
            tx = Tx(session, row)
            tx.random = self.frame.random
            for q in found:
                e = q.entry
                tx.insert(
                    EntryRow(
                        number=q.seed,
                        start=q.seed,
                        name=e.name,
                        rating=e.rating,
                        title=e.title,
                        federation=e.federation,
                        fide_id=e.fide_id,
                        birth_date=e.birth_date,
                        sex=e.sex,
                        team=None,
                        national_rating=e.national_rating,
                        manual_rating=e.manual_rating,
                        half_byes=e.half_byes,
                    )
                )
            details = dict(row.regulations or {})
            details[SEEDS] = seeds_text(found)
            if lots_seed is not None:
                details[LOTS] = str(lots_seed)
            else:
                details.pop(LOTS, None)
            tx.update(row, regulations=details, draw_method=LotsMethod.MANUAL.value, draw_seed=None)
            tx.flush()
            lots = (
                Message("; ties at the cut by lot, seed {seed}", seed=lots_seed)
                if lots_seed is not None
                else ""
            )
            summary = Message(
                (
                    "knockout stage of {event}: {count} qualifiers from groups {first}–{last} "
                    "({per_group} per group{lots}); round 1: {pairs}"
                ),
                event=view.name,
                count=len(found),
                first=view.groups[0].letter,
                last=view.groups[-1].letter,
                per_group=view.qualifiers,
                lots=lots,
                pairs=pairs_text(found, lines),
            )
            data: EventData = {
                "event": event,
                "groups": [g.to_json() for g in view.groups],
                "qualifiers": [q.to_json() for q in found],
                "lines": list(lines),
                "lots_seed": lots_seed,
            }
            if idempotency_key is not None:
                data["request"] = request
            change, note = self.frame.append(tx, KIND, summary, data, actor, idempotency_key)
            notes.append(note)
            for member in view.groups:
                group = next(r for r in rows if r.id == member.id)
                mine = Message.joined(
                    ", ",
                    [
                        f"{q.group}{q.place} {q.entry.name}"
                        for q in found
                        if q.group_id == member.id
                    ],
                )
                text = Message(
                    (
                        "knockout stage created: tournament {tournament} “{name}”; "
                        "qualifiers from this group: {qualifiers}"
                    ),
                    tournament=row.id,
                    name=row.name,
                    qualifiers=mine,
                )
                notes.append(self._inform(session, group, text, {"knockout": row.id}, actor))
            return change, notes

        return self.frame.creating(body)

    def _new_knockout(
        self, session: Session, group: TournamentRow, view: StageView, actor: str
    ) -> tuple[TournamentRow, Notification]:
        """The knockout tournament (event ``create``): the groups' regulations' other
        details (venue…), the time control and dates, the knockout settings."""
        settings = settings_of(group)
        settings = replace(
            settings,
            system=System.KNOCKOUT,
            cycles=1,
            point_system=PointSystem(),
            bye_points=None,
            tiebreaks=default_tiebreaks(System.KNOCKOUT),
            rounds=None,
        )
        own = group.regulations or {}
        # (and not a group's seed of the lots for its ties, drawn for that group)
        stage_keys = {EVENT, STAGE, LETTER, NAME, GROUPS, QUALIFIERS, TIES_SEED, *KNOCKOUT_KEYS}
        details = {k: str(v) for k, v in own.items() if k not in stage_keys}
        details |= {
            EVENT: view.event,
            STAGE: "knockout",
            NAME: view.name,
            GROUPS: str(view.expected),
            QUALIFIERS: str(view.qualifiers),
            "bracket": "seeded",
        }
        details |= {mine: value for mine, value in view.settings.items() if value}
        name = made_name("{name} — knockout", name=view.name)  # (in the site's language)
        row = TournamentRow(
            name=name,
            status="registration",
            start_date=group.start_date,
            end_date=group.end_date,
            regulations=details,
            created_at=self.frame.now(),
            revision=0,
            **settings_columns(settings),
        )
        session.add(row)
        session.flush()
        tx = Tx(session, row)
        tx.created()
        summary = Message(
            (
                "tournament {tournament} “{name}” created (knockout; the knockout stage of "
                "{event}, groups {groups})"
            ),
            tournament=row.id,
            name=name,
            event=view.name,
            groups=Message.joined(", ", [g.letter for g in view.groups]),
        )
        _change, note = self.frame.append(tx, "create", summary, {"event": view.event}, actor, None)
        return row, note

    def _inform(
        self, session: Session, row: TournamentRow, summary: str, data: EventData, actor: str
    ) -> Notification:
        """An informational event (no row changes: undo and revert pass over it)."""
        seq = append_information(
            session, row, at=self.frame.now(), actor=actor, kind=KIND, summary=summary, data=data
        )
        return Notification(row.id, seq, KIND, summary, origin=self.frame.bus.origin)


def _linking(details: dict[str, str]) -> Callable[[Tx], Done]:
    def body(tx: Tx) -> Done:
        if tx.tournament.status == "finished":
            raise RuleError("the tournament is finished; undo the finish to change it")
        tx.update(tx.tournament, regulations=details)
        return Done(
            Message(
                (
                    "regulations changed: group {group} of the group stage {event} ({groups} "
                    "groups, {qualifiers} qualifiers each)"
                ),
                group=details[LETTER],
                event=details[NAME],
                groups=details[GROUPS],
                qualifiers=details[QUALIFIERS],
            )
        )

    return body
