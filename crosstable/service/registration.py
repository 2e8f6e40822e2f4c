"""Before the first round: create a tournament, register players, draw lots, change the rules."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.model import (
    LotsMethod,
    RulesEdition,
    Settings,
    System,
    WithdrawalRule,
)
from crosstable.core.pairing.knockout_match import Decider, TieRule
from crosstable.core.row_changes import RowChange
from crosstable.core.scoring import PointSystem
from crosstable.core.text import Message
from crosstable.service import summaries
from crosstable.service.approval import with_withdrawn, withdraw_if_changed
from crosstable.service.bus import Notification
from crosstable.service.detail_checks import (
    check_details,
    check_first_players,
    check_fixed_after_start,
    check_level,
)
from crosstable.service.details import RegulationsEdit, folded_edit, given_details
from crosstable.service.errors import NotFoundError
from crosstable.service.fide_actions import confirm_regulations, rounds_open
from crosstable.service.fide_feasibility import removal_feasibility
from crosstable.service.fide_mode import check_fide_setting, in_fide_mode, with_kept_flag
from crosstable.service.field import check_field
from crosstable.service.frame import (
    Change,
    ChangeFrame,
    Done,
    EventData,
    Unchanged,
    append_event,
)
from crosstable.service.late_entry import late_entry
from crosstable.service.loading import (
    Loaded,
    forfeits_in_tiebreaks,
    settings_columns,
    settings_of,
)
from crosstable.service.lots import draw_order
from crosstable.service.players import CLUB_LENGTH as CLUB_LENGTH
from crosstable.service.players import DETAIL_NAMES as DETAIL_NAMES
from crosstable.service.players import EDITABLE, RATINGS, detail_text, info_columns
from crosstable.service.players import PlayerInfo as PlayerInfo
from crosstable.service.players import check_tiebreaks as check_tiebreaks
from crosstable.service.tiebreak_order import with_creation_tiebreaks
from crosstable.service.timed_start import check_room
from crosstable.service.tournament_ratings import method_of
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import logged, settle
from crosstable.store.models import EntryRow, EventRow, TournamentRow


@dataclass(frozen=True, slots=True)
class Regulations:
    """What the tournament regulations fix before round 1."""

    name: str
    system: System = System.ROUND_ROBIN
    cycles: int = 1
    point_system: PointSystem = field(default_factory=PointSystem)
    bye_points: Fraction | None = None
    tiebreaks: tuple[str, ...] = ()
    withdrawal_rule: WithdrawalRule = WithdrawalRule.FIDE_HALF
    rules: RulesEdition = RulesEdition.C07_2024
    rounds: int | None = None
    swap_last_rounds: bool = True
    time_control: str = ""
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    #: anything else the regulations say: venue, organiser, chief arbiter…
    details: dict[str, str] = field(default_factory=dict)

    def settings(self) -> Settings:
        return Settings(
            system=self.system,
            cycles=self.cycles,
            point_system=self.point_system,
            bye_points=self.bye_points,
            tiebreaks=self.tiebreaks,
            withdrawal_rule=self.withdrawal_rule,
            rules=self.rules,
            rounds=self.rounds,
            swap_last_rounds=self.swap_last_rounds,
            time_control=self.time_control,
        )


#: settings that FIDE wants published before round 1 (C.07): locked after the start
LOCKED_AFTER_START = ("point_system", "bye_points", "tiebreaks", "withdrawal_rule", "rules")
#: settings that shape the schedule: only before the start
SCHEDULE_SETTINGS = ("system", "cycles", "rounds", "swap_last_rounds")
OTHER_SETTINGS = ("name", "time_control", "start_date", "end_date", "details", "detail_changes")


class Registration:
    """Use cases before the first round."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def create_tournament(
        self,
        regulations: Regulations,
        *,
        players: Sequence[PlayerInfo] = (),
        actor: str = "",
    ) -> Change:
        """Create a tournament with its first ``players``, in ONE transaction: a refusal
        or a crash leaves nothing behind. Everything is checked first —
        the regulations, the field against the system's cap (service/field.py), every
        player — and the history is the same as creating, then adding one by one."""
        name = " ".join(regulations.name.split())
        if not name:
            raise RuleError("a tournament needs a name")
        settings = with_creation_tiebreaks(regulations.settings(), regulations.details)
        _check_dates(regulations.start_date, regulations.end_date)
        check_details(settings.system, regulations.details)
        check_fide_setting(regulations.details)
        check_field(settings.system, len(players), cycles=settings.cycles)
        check_first_players(settings.system, regulations.details, len(players))
        infos = [player.checked() for player in players]
        at = self.frame.now()

        def create(session: Session) -> tuple[Change, list[Notification]]:
            check_level(session, regulations.details)  # one of the portal's levels
            row = TournamentRow(
                name=name,
                status="registration",
                start_date=_iso(regulations.start_date),
                end_date=_iso(regulations.end_date),
                regulations=dict(regulations.details),
                created_at=at,
                revision=0,
                **settings_columns(settings),
            )
            session.add(row)
            session.flush()
            tx = Tx(session, row)
            tx.created()
            summary = summaries.created(row.id, name, settings)
            change, notification = self.frame.append(tx, "create", summary, {}, actor, None)
            if infos:
                notification = self._register_all(session, row, infos, actor)
            return change, [notification]

        return self.frame.creating(create)

    def _register_all(
        self, session: Session, row: TournamentRow, infos: list[PlayerInfo], actor: str
    ) -> Notification:
        """The first players of a new tournament: one ``player-add`` event each (as
        :meth:`add_player` writes it), the live standings refreshed once at the end."""
        changes: list[RowChange] = []
        for number, info in enumerate(infos, 1):
            tx = Tx(session, row)
            tx.insert(EntryRow(number=number, start=None, **info_columns(info)))
            tx.flush()
            summary = summaries.registered(number, info.name)
            at = self.frame.now()
            append_event(
                session,
                row,
                at=at,
                actor=actor,
                kind="player-add",
                summary=summary,
                changes=tx.changes,
                data={"number": number},
            )
            changes.extend(tx.changes)
        standings = self.frame.refresh_standings(session, row, changes)
        return Notification(
            tournament_id=row.id,
            seq=row.revision,
            kind="player-add",
            summary=summary,
            origin=self.frame.bus.origin,
            standings_text=standings,
        )

    def edit_regulations(
        self,
        tournament_id: int,
        *,
        actor: str = "",
        override_reason: str | None = None,
        confirm: str | None = None,
        **given: Any,
    ) -> Change:
        """Change the regulations. Published rules are locked once the tournament started,
        unless ``override_reason`` says why; FIDE's warnings take ``confirm`` (fide_actions.py).
        ``details`` replaces the details (FIDE mode kept); ``detail_changes`` only its keys."""
        allowed = set(LOCKED_AFTER_START) | set(SCHEDULE_SETTINGS) | set(OTHER_SETTINGS)
        unknown = sorted(set(given) - allowed)
        if unknown:
            raise RuleError("unknown setting {name}", name=repr(unknown[0]))

        def body(tx: Tx) -> Done:
            row = tx.tournament
            values = with_kept_flag(folded_edit(given, row.regulations), row.regulations)
            replaced = given_details(values)
            started = row.status != "registration"
            settings = settings_of(row)
            # (the settings as given: the details are no setting, only they were merged)
            new = replace(settings, **{k: v for k, v in given.items() if hasattr(settings, k)})
            new = replace(new, tiebreaks=check_tiebreaks(new.tiebreaks))
            if "system" in values or "cycles" in values:  # the field's cap
                check_field(new.system, len(Loaded(tx.session, row).entries), cycles=new.cycles)
            columns = settings_columns(new)
            changing = [
                name
                for name in values
                if name in LOCKED_AFTER_START + SCHEDULE_SETTINGS
                and _column_changes(name, row, columns)
            ]
            if started:
                fixed = [n for n in changing if n in SCHEDULE_SETTINGS and not rounds_open(tx, n)]
                if fixed:
                    raise RuleError(
                        (
                            "{setting} cannot change after the start: the schedule is made (undo "
                            "the start first)"
                        ),
                        setting=fixed[0].replace("_", " "),
                    )
                if replaced is not None:
                    fide = in_fide_mode(tx.session, row)
                    check_fixed_after_start(row.regulations or {}, replaced, fide=fide)
                locked = [n for n in changing if n in LOCKED_AFTER_START and n != "tiebreaks"]
                if replaced is not None and forfeits_in_tiebreaks(
                    replaced
                ) != forfeits_in_tiebreaks(row.regulations):
                    locked.append("forfeits_in_tiebreaks")  # a tie-break rule
                if locked and not (override_reason or "").strip():
                    raise RuleError(
                        (
                            "the {setting} was published before round 1 and is locked; give a "
                            "reason to override it"
                        ),
                        setting=locked[0].replace("_", " "),
                    )
            updates: dict[str, object] = dict(columns)
            if "name" in values:
                name = " ".join(str(values["name"]).split())
                if not name:
                    raise RuleError("a tournament needs a name")
                updates["name"] = name
            start = _given_date(values, "start_date", row.start_date)
            end = _given_date(values, "end_date", row.end_date)
            _check_dates(start, end)
            updates["start_date"] = _iso(start)
            updates["end_date"] = _iso(end)
            if replaced is not None:
                check_details(new.system, replaced, before=row.regulations, status=row.status)
                check_level(tx.session, replaced)
                updates["regulations"] = {str(k): str(v) for k, v in replaced.items()}
            if row.status == "finished":
                raise RuleError("the tournament is finished; undo the finish to change it")
            confirmed = confirm_regulations(tx, settings, new, changing, started, given, confirm)
            tx.update(row, **updates)
            data: EventData = {}
            overridden = override_reason if started and override_reason else None
            if overridden:
                data["override"] = overridden.strip()
            summary = summaries.regulations_changed(values, overridden)
            withdrawn = withdraw_if_changed(tx, tx.changes, edit=True)
            if withdrawn:
                return logged(Done(with_withdrawn(summary), data | withdrawn), confirmed)
            return logged(Done(summary, data), confirmed)

        return self.frame.change(tournament_id, "regulations", body, actor=actor)

    def add_player(
        self, tournament_id: int, player: PlayerInfo, *, actor: str = "", confirm: str | None = None
    ) -> Change:
        """Register a player; after the start, a Swiss's late entry (service/late_entry.py)."""
        info = player.checked()

        def body(tx: Tx) -> Done:
            if tx.tournament.status != "registration":
                return late_entry(tx, info_columns(info), confirm)
            numbers = tx.session.scalars(
                select(EntryRow.number).where(EntryRow.tournament_id == tx.tournament_id)
            ).all()
            number = max(numbers, default=0) + 1
            check_field(System(tx.tournament.system), len(numbers) + 1, cycles=tx.tournament.cycles)
            check_room(tx.tournament, len(numbers) + 1)  # a knockout's field of 2ⁿ
            tx.insert(EntryRow(number=number, start=None, **info_columns(info)))
            tx.flush()
            cleared = clear_draw(tx)
            return Done(
                summaries.registered(number, info.name, cleared=cleared), {"number": number}
            )

        return self.frame.change(tournament_id, "player-add", body, actor=actor)

    def edit_player(
        self, /, tournament_id: int, number: int, *, actor: str = "", **values: Any
    ) -> Change:
        """Correct a player's details (registration number ``number``) until the finish.

        Before the start every detail may change; a change that moves the player in the
        rating order clears a draw made by rating (it no longer holds). After the start
        only what no pairing reads may change: everything but the rating of a knockout
        whose tie rule sends the lower-rated player on (the pairings of every other system
        follow the starting numbers, fixed by the draw). See docs/store.md.
        """
        unknown = sorted(set(values) - set(EDITABLE))
        if unknown:
            raise RuleError("unknown player detail {name}", name=repr(unknown[0]))
        if not values:
            raise RuleError("nothing to change: give the player's new name, rating, title…")

        def body(tx: Tx) -> Done:
            row = tx.tournament
            if row.status == "finished":
                raise RuleError("the tournament is finished; undo the finish to change it")
            entry = _entry(tx, number)
            current = PlayerInfo(**{k: getattr(entry, k) for k in EDITABLE})
            try:
                info = replace(current, **values).checked()
            except RuleError as error:  # the checks name a player by a stand-in number
                said = str(error)
                for prefix in ("player 1: ", f"player {' '.join(current.name.split())}: "):
                    said = said.removeprefix(prefix)
                raise RuleError(
                    "player {number} {name}: {problem}",
                    number=number,
                    name=current.name,
                    problem=said,
                ) from None
            changed = [k for k in EDITABLE if getattr(info, k) != getattr(current, k)]
            if not changed:
                raise Unchanged(
                    Message(
                        "player {number} {name}: nothing changed", number=number, name=info.name
                    )
                )
            if row.status != "registration" and any(k in changed for k in RATINGS):
                reason = _rating_fixed(row)
                if reason:
                    raise RuleError(
                        "rating of player {number} {name}: {problem}",
                        number=number,
                        name=current.name,
                        problem=reason,
                    )
            before = rating_order(tx) if row.draw_method == LotsMethod.RATING.value else None
            columns = info_columns(info)
            tx.update(entry, **{k: columns.get(k) for k in EDITABLE})
            value_of = detail_text
            shown = "; ".join(
                f"{DETAIL_NAMES[k]} {value_of(getattr(current, k))} → {value_of(getattr(info, k))}"
                for k in changed
            )
            order = None
            if before is not None and before != rating_order(tx):
                if row.status == "registration":
                    clear_draw(tx)
                    order = summaries.CLEARED
                else:
                    order = summaries.KEPT
            summary = summaries.edited(number, info.name, shown, order)
            return Done(summary, {"fields": changed})

        return self.frame.change(tournament_id, "player-edit", body, actor=actor)

    def player_details(self, tournament_id: int) -> dict[int, PlayerInfo]:
        """Every player's details by registration number (what ``edit_player`` changes)."""
        with self.frame.store.reading() as session:
            if session.get(TournamentRow, tournament_id) is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database", tournament=tournament_id
                )
            entries = session.scalars(
                select(EntryRow).where(EntryRow.tournament_id == tournament_id)
            ).all()
            return {
                e.number: PlayerInfo(
                    **{k: getattr(e, k) for k in EDITABLE},
                    team=e.team or "",
                    rating_source=e.rating_source,
                )
                for e in entries
            }

    def remove_player(
        self, tournament_id: int, number: int, *, actor: str = "", confirm: str | None = None
    ) -> Change:
        """Remove a player before round 1; in a Swiss in FIDE mode whose rounds the smaller
        field can no longer all play, after a level-2 warning (``confirm``)."""

        def body(tx: Tx) -> Done:
            _before_start(
                tx.tournament, "players are removed", "after the start a player withdraws instead"
            )
            entry = _entry(tx, number)
            name = entry.name
            row = tx.tournament
            warnings = removal_feasibility(tx)  # the rounds set, for one player fewer
            confirmed = settle(row.id, row.revision, f"remove {number}", warnings, confirm)
            tx.delete(entry)
            cleared = clear_draw(tx)
            return logged(Done(summaries.removed(number, name, cleared=cleared), {}), confirmed)

        return self.frame.change(tournament_id, "player-remove", body, actor=actor)

    def draw_lots(
        self,
        tournament_id: int,
        method: LotsMethod = LotsMethod.RANDOM,
        *,
        seed: int | None = None,
        order: tuple[int, ...] = (),
        actor: str = "",
    ) -> Change:
        """Give starting numbers 1…N: by lot (seeded, recorded), by rating or by hand.

        ``order`` (by hand) lists registration numbers in starting-number order.
        Without a seed, one is taken from the injected random source and recorded.
        """
        if method is LotsMethod.RANDOM and seed is None:
            seed = self.frame.random.randrange(1, 10**9)

        def body(tx: Tx) -> Done:
            _before_start(tx.tournament, "lots are drawn")
            loaded = Loaded(tx.session, tx.tournament)
            if len(loaded.entries) < 2:
                raise RuleError("at least two players are needed to draw lots")
            numbers = draw_order(
                loaded.entries,
                method,
                seed=seed,
                order=order,
                ratings=method_of(tx.tournament.regulations),
            )
            for entry in loaded.entries:
                tx.update(entry, start=None)
            tx.flush()
            for start, number in enumerate(numbers, 1):
                tx.update(loaded.by_number[number], start=start)
            tx.update(
                tx.tournament,
                draw_method=method.value,
                draw_seed=seed if method is LotsMethod.RANDOM else None,
            )
            listing = ", ".join(
                f"{s}. {loaded.by_number[n].name}" for s, n in enumerate(numbers, 1)
            )
            return Done(summaries.drawn(method, seed, listing), {"order": list(numbers)})

        return self.frame.change(tournament_id, "draw", body, actor=actor)


#: the player details ``edit_player`` may change
def _rating_fixed(row: TournamentRow) -> str:
    """Why the ratings may not change after this tournament's start ("" if they may).

    A knockout's drawn match goes to the lower-rated player under the ``lower-rated``
    tie rule, so a new rating could change who plays on; no other pairing reads ratings
    after the draw (round robins follow the Berger tables, Swiss pairings the starting
    numbers, a Scheveningen its board order).
    """
    if row.system != System.KNOCKOUT.value:
        return ""
    rule = str((row.regulations or {}).get("tie_rule") or "lower-rated")
    try:
        decider = TieRule.parse(rule).decider
    except RuleError:
        return ""
    if decider is not Decider.LOWER_RATED:
        return ""
    return (
        "cannot change after the start: the tie rule sends the lower-rated player on "
        "when a match is drawn (undo the start first)"
    )


def rating_order(tx: Tx) -> tuple[int, ...]:
    """The entries in the order a draw by rating gives them (a change of it clears
    such a draw)."""
    entries = tx.session.scalars(
        select(EntryRow).where(EntryRow.tournament_id == tx.tournament_id)
    ).all()
    if len(entries) < 2:
        return tuple(e.number for e in entries)
    return draw_order(
        entries, LotsMethod.RATING, seed=None, ratings=method_of(tx.tournament.regulations)
    )


def _column_changes(name: str, row: TournamentRow, columns: Mapping[str, object]) -> bool:
    column = {"rules": "rules_edition", "rounds": "rounds_planned"}.get(name, name)
    return bool(getattr(row, column) != columns[column])


def _before_start(row: TournamentRow, what: str, hint: str = "") -> None:
    if row.status != "registration":
        raise RuleError(
            "the tournament has started: {what} only before round 1{note}",
            what=what,
            note=Message.joined("; ", ["", hint]) if hint else "",
        )


def clear_draw(tx: Tx) -> bool:
    """Registration changed after the draw: the starting numbers no longer hold."""
    if tx.tournament.draw_method is None:
        return False
    entries = tx.session.scalars(
        select(EntryRow).where(EntryRow.tournament_id == tx.tournament_id)
    ).all()
    for entry in entries:
        tx.update(entry, start=None)
    tx.update(tx.tournament, draw_method=None, draw_seed=None)
    return True


def _entry(tx: Tx, number: int) -> EntryRow:
    entry = tx.session.get(EntryRow, (tx.tournament_id, number))
    if entry is None:
        raise NotFoundError(
            "tournament {tournament} has no player number {number}",
            tournament=tx.tournament_id,
            number=number,
        )
    return entry


def _iso(value: dt.date | None) -> str | None:
    return None if value is None else value.isoformat()


def _date(text: str | None) -> dt.date | None:
    return None if text is None else dt.date.fromisoformat(text)


def _check_dates(start: dt.date | None, end: dt.date | None) -> None:
    if start is not None and end is not None and end < start:
        raise RuleError(
            "the tournament ends ({end}) before it starts ({start})", end=end, start=start
        )


__all__ = ["EventRow", "PlayerInfo", "Registration", "Regulations"]


def _given_date(values: RegulationsEdit, key: str, stored: str | None) -> dt.date | None:
    """The date an edit gives for ``key`` (None: none), else the stored one."""
    value = values.get(key, _date(stored))
    if value is not None and not isinstance(value, dt.date):
        raise TypeError(f"an edit's {key} is a date, not {type(value).__name__}")
    return value
