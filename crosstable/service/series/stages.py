"""The stages of an edition in the store: their rows, groups and what a tick reads of them.

:func:`make_stage` records a stage and its groups with their players (the core's
sizes and snake seeding; one group for the final and the super-final); the groups'
tournaments are made by :mod:`crosstable.service.series.tick`. :func:`following`
plans the next stage from the qualifiers (None: the edition is over).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.model import StageKind
from crosstable.core.series.groups import Entrant, seed_groups, seeding_order
from crosstable.core.series.plan import StagePlan, next_stage
from crosstable.core.series.qualification import GroupOutcome
from crosstable.core.text import Message
from crosstable.service.series.editions import active_entries, format_of
from crosstable.service.series.lines import made_name
from crosstable.store.accounts_models import UserRow
from crosstable.store.models import EntryRow, GameRow
from crosstable.store.series_models import (
    SeriesEditionRow,
    SeriesGroupRow,
    SeriesRegistrationRow,
    SeriesRow,
    SeriesStageRow,
)


def group_letter(index: int) -> str:
    """A, B, … Z, AA, AB …"""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def locked(session: Session, edition_id: int) -> tuple[SeriesEditionRow, SeriesRow]:
    query = select(SeriesEditionRow).where(SeriesEditionRow.id == edition_id).with_for_update()
    edition = session.scalars(query).one()
    series = session.get(SeriesRow, edition.series_id)
    assert series is not None
    return edition, series


def stage_groups(session: Session, stage_id: int) -> list[SeriesGroupRow]:
    query = (
        select(SeriesGroupRow)
        .where(SeriesGroupRow.stage_id == stage_id)
        .order_by(SeriesGroupRow.letter)
    )
    return list(session.scalars(query))


def sizes_text(sizes: tuple[int, ...]) -> Message:
    """``4 groups: 3×10, 1×9`` (largest first; short at any number of groups)."""
    counts = sorted({size: sizes.count(size) for size in sizes}.items(), reverse=True)
    shown = ", ".join(f"{count}×{size}" for size, count in counts)  # (numbers only)
    if len(sizes) == 1:
        return Message("1 group: {sizes}", sizes=shown)
    return Message("{groups} groups: {sizes}", groups=len(sizes), sizes=shown)


def make_stage(
    session: Session,
    edition: SeriesEditionRow,
    series: SeriesRow,
    plan: StagePlan,
    entrants: list[Entrant],
    *,
    at: str,
) -> None:
    """The stage's row and its groups with their players (tournaments come next)."""
    if plan.kind is StageKind.GROUPS:
        groups = seed_groups(entrants, series.max_group_size)
    else:
        groups = (tuple(e.key for e in seeding_order(entrants)),)
    stage = SeriesStageRow(
        edition_id=edition.id,
        number=plan.number,
        kind=plan.kind.value,
        cycles=plan.cycles,
        qualifiers_per_group=plan.qualifiers_per_group,
        created_at=at,
    )
    session.add(stage)
    session.flush()
    for letter, players in enumerate(groups):
        session.add(SeriesGroupRow(stage_id=stage.id, letter=letter, players=list(players)))
    session.flush()


def following(stage: SeriesStageRow, going: int, series: SeriesRow) -> StagePlan | None:
    """The next stage for ``going`` qualifiers (None: the edition is over)."""
    fmt = format_of(series)
    if stage.qualifiers_per_group == 0 or stage.kind == StageKind.SUPER_FINAL.value:
        return None
    try:
        return next_stage(
            going, stage.number + 1, fmt, after_final=stage.kind == StageKind.FINAL.value
        )
    except RuleError:  # too few went on (those who played no game left out): the edition ends
        return None


def group_title(
    series: SeriesRow, edition: SeriesEditionRow, stage: SeriesStageRow, group: SeriesGroupRow
) -> str:
    head = f"{series.name} #{edition.number}"  # (the series' name and a number)
    if stage.kind == StageKind.FINAL.value:
        return made_name("{head} — final", head=head)
    if stage.kind == StageKind.SUPER_FINAL.value:
        return made_name("{head} — super-final", head=head)
    return made_name(
        "{head} — stage {stage}, group {group}",
        head=head,
        stage=stage.number,
        group=group_letter(group.letter),
    )


def keys_by_start(session: Session, group: SeriesGroupRow) -> list[int]:
    """The group's registration ids in starting-number order."""
    rows = session.scalars(select(EntryRow).where(EntryRow.tournament_id == group.tournament_id))
    by_start = sorted((row.start or 0, group.players[row.number - 1]) for row in rows)
    return [key for _start, key in by_start]


def first_games(session: Session, tournament_id: int) -> dict[int, dict[str, object]]:
    """Entry number → the player's first game (round, board, colour, opponent)."""
    names = {
        row.number: row.name
        for row in session.scalars(select(EntryRow).where(EntryRow.tournament_id == tournament_id))
    }
    found: dict[int, dict[str, object]] = {}
    query = (
        select(GameRow)
        .where(GameRow.tournament_id == tournament_id)
        .order_by(GameRow.round, GameRow.board)
    )
    for game in session.scalars(query):
        for me, other, colour in (
            (game.white, game.black, "white"),
            (game.black, game.white, "black"),
        ):
            found.setdefault(
                me,
                {
                    "round": game.round,
                    "board": game.board,
                    "colour": colour,
                    "opponent": names.get(other, ""),
                },
            )
    return found


#: the group winners a stage's history line names (a stage of 1 000 groups would make
#: a line of 20 kB; the edition page and the news list them all)
NAMED_WINNERS = 12


def winners(outcomes: list[GroupOutcome], entries: dict[int, SeriesRegistrationRow]) -> Message:
    tops = [
        f"{group_letter(index)}: {entries[o.ranking[0]].name}"  # (a letter and a name)
        for index, o in enumerate(outcomes)
        if o.ranking
    ]
    shown = Message.joined(", ", tops[:NAMED_WINNERS])
    more = len(tops) - NAMED_WINNERS
    if more > 0:
        return Message("winners {winners} and {more} more", winners=shown, more=more)
    return Message("winners {winners}", winners=shown)


def flagged_keys(session: Session, edition_id: int) -> frozenset[int]:
    """The edition's registrations whose account is flagged for computer help:
    they do not go on to the next stage (:func:`~crosstable.core.series.qualification.outcome_of`'s
    ``barred``), whatever their place."""
    query = (
        select(SeriesRegistrationRow.id)
        .join(UserRow, UserRow.id == SeriesRegistrationRow.user_id)
        .where(SeriesRegistrationRow.edition_id == edition_id, UserRow.flagged.is_(True))
    )
    return frozenset(session.scalars(query))


def taking_part(session: Session, edition_id: int) -> tuple[list[SeriesRegistrationRow], list[str]]:
    """The edition's registered players who take part in stage 1, and the names of those
    left out because their account was flagged for computer help after they registered
    (a flagged account cannot take part; it could not register then)."""
    barred = flagged_keys(session, edition_id)
    entries = active_entries(session, edition_id)
    return [e for e in entries if e.id not in barred], [e.name for e in entries if e.id in barred]


def left_out_text(names: list[str]) -> list[Message]:
    """What the first stage's making says of the players left out for computer help
    (nothing when there are none)."""
    if not names:
        return []
    listed = Message.joined(", ", names)
    return [Message("left out (fair play: flagged for computer help): {names}", names=listed)]


def barred_text(
    outcomes: list[GroupOutcome],
    entries: dict[int, SeriesRegistrationRow],
    flagged: frozenset[int] | None = None,
) -> list[Message]:
    """What the stage's end says of the players barred for computer help (none: nothing);
    ``flagged``: those of the barred who are (the others dropped out unconfirmed)."""
    names = [
        entries[key].name
        for outcome in outcomes
        for key in outcome.ranking
        if key in outcome.barred and key in entries and (flagged is None or key in flagged)
    ]
    if not names:
        return []
    listed = Message.joined(", ", names)
    return [Message("not going on (fair play: flagged for computer help): {names}", names=listed)]
