"""A group stage + knockout event as stored: the details that link its tournaments,
the event read back (:class:`StageView`), its qualifiers and the check before the
knockout starts (docs/knockout.md, "Group stage + knockout in the store").
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.model import Player
from crosstable.core.pairing.knockout_groups import cross_seeded_bracket, group_qualifiers
from crosstable.core.system_settings import KnockoutSettings
from crosstable.core.text import Message
from crosstable.service.details import Details
from crosstable.service.fair_play import flagged_entries
from crosstable.service.loading import Loaded
from crosstable.service.read_views import JsonObject
from crosstable.store.models import EntryRow, TournamentRow

#: the regulations' details that link the tournaments of one event
EVENT = "stage_event"  # the event's key, the same in every group and in the knockout
STAGE = "stage"  # "group" or "knockout"
LETTER = "stage_group"  # the group's letter (A, B…)
GROUPS = "stage_groups"  # how many groups
QUALIFIERS = "stage_qualifiers"  # qualifiers per group
NAME = "stage_name"  # the event's name
#: knockout settings kept in the groups' details → the knockout's own keys
KNOCKOUT_KEYS = {
    "knockout_match_format": "match_format",
    "knockout_tie_rule": "tie_rule",
    "knockout_third_place": "third_place",
}
SEEDS = "stage_seeds"  # knockout: "group id:entry number" of seed 1, 2, … (space separated)
LOTS = "stage_lots_seed"  # knockout: the seed of the lots that broke ties at the cut
#: the event kind on the knockout and (informational) on each group
KIND = "knockout-stage"


def group_details(
    event: str,
    name: str,
    letter: str,
    groups: int,
    qualifiers: int,
    *,
    match_format: str = "1",
    tie_rule: str = "lower-rated",
    third_place: bool = False,
) -> dict[str, str]:
    """What a group's regulations record (the knockout's settings checked and normalised
    by :class:`~crosstable.core.system_settings.KnockoutSettings`, kept under
    ``knockout_*`` keys until the knockout is made)."""
    knockout = KnockoutSettings.from_details(
        {
            "match_format": match_format or "1",
            "tie_rule": tie_rule or "lower-rated",
            "third_place": "yes" if third_place else "no",
        }
    )
    return {
        EVENT: event,
        STAGE: "group",
        NAME: name,
        LETTER: letter,
        GROUPS: str(groups),
        QUALIFIERS: str(qualifiers),
        "knockout_match_format": knockout.match_format.label(),
        "knockout_tie_rule": knockout.tie_rule.label(),
        "knockout_third_place": "yes" if knockout.third_place else "no",
    }


def group_letter(index: int) -> str:
    """``A`` for the first group, … ``Z``, then ``AA``."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


# -- the event as it is stored -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StageMember:
    """A tournament of the event: a group (its letter) or the knockout (letter "")."""

    id: int
    name: str
    status: str
    letter: str = ""
    players: int = 0

    def to_json(self) -> JsonObject:
        return {
            "id": self.id,
            "name": self.name,
            "status": self.status,
            "letter": self.letter or None,
            "players": self.players,
        }


@dataclass(frozen=True, slots=True)
class StageView:
    """A group stage + knockout event: its groups, qualifiers per group and knockout."""

    event: str
    name: str
    #: the tournament asked about: its group letter, or "" for the knockout
    this: str
    groups: tuple[StageMember, ...]  # by letter
    expected: int  # the number of groups the wizard made
    qualifiers: int  # per group
    knockout: StageMember | None
    settings: dict[str, str]  # the knockout's match_format, tie_rule, third_place

    @property
    def unfinished(self) -> tuple[StageMember, ...]:
        return tuple(g for g in self.groups if g.status != "finished")

    @property
    def missing(self) -> tuple[str, ...]:
        present = {g.letter for g in self.groups}
        return tuple(
            group_letter(i) for i in range(self.expected) if group_letter(i) not in present
        )

    @property
    def knockout_filled(self) -> bool:
        return self.knockout is not None and self.knockout.players > 0

    @property
    def ready(self) -> bool:
        """Every group finished and no knockout with players yet: it can be created."""
        return not (self.unfinished or self.missing or self.knockout_filled)

    def to_json(self) -> JsonObject:
        return {
            "event": self.event,
            "name": self.name,
            "group": self.this or None,
            "groups": [g.to_json() for g in self.groups],
            "number_of_groups": self.expected,
            "qualifiers_per_group": self.qualifiers,
            "knockout": None if self.knockout is None else self.knockout.to_json(),
            "knockout_settings": dict(self.settings),
            "unfinished": [g.letter for g in self.unfinished],
            "ready": self.ready,
        }


def event_of(row: TournamentRow) -> str:
    key = str((row.regulations or {}).get(EVENT) or "")
    if not key:
        raise RuleError("tournament {tournament} is not part of a group stage", tournament=row.id)
    return key


def members(session: Session, event: str, *, lock: bool = False) -> list[TournamentRow]:
    query = (
        select(TournamentRow)
        .where(TournamentRow.regulations[EVENT].as_string() == event)
        .order_by(TournamentRow.id)
    )
    if lock:
        query = query.with_for_update()
    return list(session.scalars(query))


def count_players(session: Session, ids: list[int]) -> dict[int, int]:
    query = (
        select(EntryRow.tournament_id, func.count())
        .where(EntryRow.tournament_id.in_(ids))
        .group_by(EntryRow.tournament_id)
    )
    return {int(tid): int(count) for tid, count in session.execute(query).all()}


def stage_view(session: Session, row: TournamentRow, rows: list[TournamentRow]) -> StageView:
    details = row.regulations or {}
    counts = count_players(session, [r.id for r in rows])
    groups: list[StageMember] = []
    knockout: StageMember | None = None
    first: Details = {}
    for member in rows:
        own = member.regulations or {}
        item = StageMember(
            member.id,
            member.name,
            member.status,
            str(own.get(LETTER) or ""),
            counts.get(member.id, 0),
        )
        if own.get(STAGE) == "knockout":
            knockout = knockout or item
        else:
            groups.append(item)
            first = first or own
    groups.sort(key=lambda g: (len(g.letter), g.letter, g.id))
    source = first or details
    return StageView(
        event=str(details[EVENT]),
        name=str(source.get(NAME) or row.name),
        this="" if details.get(STAGE) == "knockout" else str(details.get(LETTER) or ""),
        groups=tuple(groups),
        expected=_whole(source.get(GROUPS), GROUPS, default=len(groups)),
        qualifiers=_whole(source.get(QUALIFIERS), QUALIFIERS, default=1),
        knockout=knockout,
        settings={mine: str(source.get(key) or "") for key, mine in KNOCKOUT_KEYS.items()},
    )


def _whole(value: object, key: str, *, default: int) -> int:
    text = str(value or "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) < 1:
        raise RuleError("regulations, {key} {value}: not a whole number", key=key, value=repr(text))
    return int(text)


# -- the qualifiers ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Qualifier:
    """A qualifier: where they come from and their seed in the knockout."""

    seed: int
    group: str  # letter
    group_id: int
    number: int  # registration number in the group
    place: int  # 1 = the group's winner
    entry: EntryRow

    def to_json(self) -> JsonObject:
        return {
            "start": self.seed,
            "name": self.entry.name,
            "rating": self.entry.rating,
            "group": self.group,
            "group_id": self.group_id,
            "group_number": self.number,
            "place": self.place,
        }


def qualifiers(
    session: Session, view: StageView, *, lots_seed: int | None = None
) -> tuple[list[Qualifier], tuple[int | None, ...]]:
    """The qualifiers in seed order and the bracket's lines (seeds), from the groups'
    final standings (the core's ranking and cross-seeding)."""
    ranked: list[list[Player]] = []
    origin: dict[int, tuple[StageMember, int, EntryRow]] = {}
    k = view.qualifiers
    for index, member in enumerate(view.groups):
        row = session.get(TournamentRow, member.id)
        assert row is not None
        loaded = Loaded(session, row)
        tournament = loaded.tournament()
        # who played no game in the group does not go on; the next moves up;
        # nor does an account flagged for computer help (service/fair_play.py)
        barred = frozenset(loaded.start_of(n) for n in flagged_entries(session, member.id))
        order = group_qualifiers(
            replace(tournament, name=row.name), k, lots_seed=lots_seed, barred=barred
        )
        players = []
        for place, start in enumerate(order, 1):
            entry = loaded.entry_by_start(start)
            assert entry is not None
            key = index * k + place  # unique within the event
            origin[key] = (member, place, entry)
            players.append(replace(tournament.player(start), start=key))
        ranked.append(players)
    if len(ranked) * k < 2:
        raise RuleError("a single qualifier wins the event: there is no knockout")
    bracket = cross_seeded_bracket(ranked)
    seed_of = {key: seed for seed, key in enumerate(bracket.seeding, 1)}
    found = []
    for key, seed in sorted(seed_of.items(), key=lambda item: item[1]):
        member, place, entry = origin[key]
        found.append(Qualifier(seed, member.letter, member.id, entry.number, place, entry))
    lines = tuple(None if key is None else seed_of[key] for key in bracket.lines)
    return found, lines


def check_ready(view: StageView) -> None:
    if view.missing:
        raise RuleError(
            (
                "the group stage of {event} has no group {letters} ({present} of its {groups} "
                "groups are here)"
            ),
            event=view.name,
            letters=Message.joined(", ", view.missing),
            present=len(view.groups),
            groups=view.expected,
        )
    if view.unfinished:
        names = Message.joined(
            "; ",
            (
                Message(
                    "{group} (tournament {tournament}, {status})",
                    group=g.name,
                    tournament=g.id,
                    status=g.status,
                )
                for g in view.unfinished
            ),
        )
        raise RuleError("the group stage is not over: {groups} not finished yet", groups=names)


def seeds_text(found: list[Qualifier]) -> str:
    return " ".join(f"{q.group_id}:{q.number}" for q in found)


def pairs_text(found: list[Qualifier], lines: tuple[int | None, ...]) -> Message:
    """``1 Anna (A1) – 4 Boris (B2), 2 Clara (B1) bye`` (a history line's piece)."""
    name = {q.seed: f"{q.seed} {q.entry.name} ({q.group}{q.place})" for q in found}
    pairs: list[Message] = []
    for top, bottom in zip(lines[::2], lines[1::2], strict=True):
        if top is not None and bottom is not None:
            pairs.append(Message("{top} – {bottom}", top=name[top], bottom=name[bottom]))
        else:
            alone = name[top if top is not None else bottom or 0]
            pairs.append(Message("{player} bye", player=alone))
    return Message.joined(", ", pairs)


# -- the start of the knockout -----------------------------------------------------------


def check_stage_start(session: Session, row: TournamentRow, loaded: Loaded) -> None:
    """Before a knockout stage starts: its players are still the groups' qualifiers with
    the starting numbers of their seeds (nothing changed since the stage was created)."""
    details = row.regulations or {}
    if details.get(STAGE) != "knockout":
        return
    recorded = str(details.get(SEEDS) or "").split()
    if not recorded:
        raise RuleError(
            "this knockout stage has no players from its groups yet: create the knockout "
            "stage (crosstable knockout-stage)"
        )
    moved = [e for e in loaded.entries if e.start != e.number]
    if len(loaded.entries) != len(recorded) or moved:
        raise RuleError(
            "the players or starting numbers of the knockout stage changed after it was "
            "created (they are the bracket's seeds): undo those changes, or undo back to "
            "the knockout stage's creation and create it again"
        )
    view = stage_view(session, row, members(session, event_of(row)))
    check_ready(view)
    seed = str(details.get(LOTS) or "").strip()
    found, _lines = qualifiers(session, view, lots_seed=int(seed) if seed else None)
    now = seeds_text(found).split()
    if now != recorded:
        changed = [
            Message("seed {seed}", seed=s)
            for s, (a, b) in enumerate(zip(recorded, now, strict=True), 1)
            if a != b
        ]
        raise RuleError(
            (
                "the groups' final standings changed after the knockout stage was created "
                "({seeds} would be someone else now): undo the knockout stage and create it again"
            ),
            seeds=Message.joined(", ", changed),
        )
