"""The JSON API of a Bughouse event (docs/bughouse.md): create one (a round robin, a
Swiss or a knockout of pairs), pair a Swiss of pairs' next round or continue a
knockout, mark the game of a match that finished first, and read the pairs' table with
every match (and a knockout's bracket). The pairs and their players are added with the team routes
(``POST /api/v1/tournaments/{tid}/teams``, ``…/teams/{n}/members``), the start and the
games' results as any tournament's. Refusals are structured as every API error:
``{"detail": "…"}`` with 422 (a rule), 403, 404.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from fastapi import APIRouter, Request
from pydantic import Field

from crosstable.core.errors import RuleError
from crosstable.core.scoring import points_json
from crosstable.core.teams import TeamScoring
from crosstable.service import Service
from crosstable.service.knockout.view import BracketView
from crosstable.service.read_views import JsonObject, Shown
from crosstable.service.teams.bughouse import KnockoutOptions
from crosstable.web.routes.api import ApiCaller, ChangeOut, Num, change_out
from crosstable.web.routes.common import MANAGERS, Body, require_role
from crosstable.web.routes.wizard import require_organiser
from crosstable.web.site import site_of

router = APIRouter(prefix="/api/v1", tags=["api"])


class BughouseIn(Body):
    """A Bughouse event's regulations."""

    name: str = Field(..., min_length=1, max_length=200)
    rule: Literal["sum", "first"] = Field(
        "sum", description="sum: both games' points; first: the first game finished decides"
    )
    swiss: bool = Field(False, description="a Swiss of pairs (Dutch rules), not a round robin")
    rounds: int | None = Field(None, ge=1, le=99, description="a Swiss's rounds")
    knockout: bool = Field(False, description="a knockout of pairs, seeded by their rating")
    match_format: str = Field("1", max_length=40, description="a knockout's games a match")
    tie_rule: str = Field("lower-rated", max_length=200, description="a knockout's tie rule")
    round_formats: str = Field("", max_length=200, description="a knockout's rounds' formats")
    third_place: bool = Field(False, description="a knockout's match for third place")
    double: bool = Field(False, description="a double round robin")
    scoring: str = Field("2-1-0", max_length=20, description="match points: won-drawn-lost")
    primary: Literal["MP", "GP"] = "MP"
    tiebreaks: list[str] = Field(default_factory=list, max_length=12)


class FirstIn(Body):
    board: int = Field(..., ge=1, le=100_000, description="the board whose game finished first")


class PairedOut(ChangeOut):
    #: the round paired: ``round``, ``matches`` ([White pair, Black pair] …), ``bye``
    data: JsonObject = Field(default_factory=dict)


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class PairRow(Shown):
    """A pair's line of the table: its place, match and game points, its tie-breaks."""

    pair: int
    name: str
    place: int
    MP: int | float
    GP: int | float
    #: one a tie-break (None: decided in the group)
    tiebreaks: tuple[int | float | None, ...]


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class PairsMatch(Shown):
    """A match of pairs: its card (the core's JSON of a match card: round, pairs, score,
    boards), the board that finished first (None: not marked) and the match points."""

    card: JsonObject
    first: int | None
    #: the match points of the White and the Black pair (None: not decided yet)
    match_points: tuple[int | float, int | float] | None

    def as_json(self) -> JsonObject:
        points = None if self.match_points is None else list(self.match_points)
        return self.card | {"first": self.first, "match_points": points}


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class BughouseShown(Shown):
    """A Bughouse event as its page and ``GET /api/v1/tournaments/{id}/bughouse`` show
    it: the rule, the pairs' table, every match and a knockout's bracket."""

    #: ``sum`` or ``first``
    rule: str
    system: str
    status: str
    #: ``MP`` or ``GP``
    primary: str
    tiebreaks: tuple[str, ...]
    rows: tuple[PairRow, ...]
    matches: tuple[PairsMatch, ...]
    #: a knockout of pairs' bracket once it started (None: not a knockout, or not yet)
    bracket: BracketView | None

    def as_json(self) -> JsonObject:
        return {
            "rule": self.rule,
            "system": self.system,
            "status": self.status,
            "primary": self.primary,
            "tiebreaks": list(self.tiebreaks),
            "rows": [row.as_json() for row in self.rows],
            "matches": [match.as_json() for match in self.matches],
            "bracket": None if self.bracket is None else self.bracket.as_json(),
        }


def bughouse_data(service: Service, tid: int) -> BughouseShown:
    """The rule, the pairs' table and every match with its first-finished mark and match
    points."""
    table = service.bughouse_standings(tid)
    view = service.crosstable(tid)[0]
    system = view.settings.system
    started = view.status != "registration"
    scoring = TeamScoring()
    return BughouseShown(
        rule=service.bughouse_rule(tid),
        system=system,
        status=view.status,
        primary=table.primary,
        tiebreaks=tuple(table.tiebreaks),
        rows=tuple(
            PairRow(
                pair=r.team,
                name=r.name,
                place=r.place,
                MP=points_json(r.mp),
                GP=points_json(r.gp),
                tiebreaks=tuple(None if v is None else points_json(v) for v in r.values),
            )
            for r in table.rows
        ),
        matches=tuple(
            PairsMatch(
                m.match.card(m.number, scoring),
                m.first,
                None
                if m.match_points is None
                else (points_json(m.match_points[0]), points_json(m.match_points[1])),
            )
            for m in service.bughouse_matches(tid)
        ),
        bracket=service.bracket(tid) if system == "knockout" and started else None,
    )


@router.post("/bughouse-tournaments", status_code=201)
def create(body: BughouseIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Create a Bughouse event (administrators and masters): ``{"id": …}``."""
    site = site_of(request)
    require_organiser(caller)
    user = caller.user
    assert user is not None
    if not " ".join(body.name.split()):
        raise RuleError("a tournament needs a name")
    if body.rounds is not None and not body.swiss:
        raise RuleError("rounds are for a Swiss of pairs")
    if body.swiss and body.knockout:
        raise RuleError("a Swiss or a knockout of pairs: choose one")
    options = (
        KnockoutOptions(body.match_format, body.tie_rule, body.round_formats, body.third_place)
        if body.knockout
        else None
    )
    change = site.service.create_bughouse_tournament(
        body.name,
        body.rule,
        scoring=body.scoring,
        primary=body.primary,
        tiebreaks=tuple(body.tiebreaks),
        cycles=2 if body.double else 1,
        swiss=body.swiss,
        rounds=body.rounds,
        knockout=options,
        actor=caller.actor,
    )
    site.accounts.claim(change.tournament_id, user, actor=caller.actor)
    return {"id": change.tournament_id}


@router.post("/tournaments/{tid}/bughouse/pair", status_code=201)
def pair(tid: Num, request: Request, caller: ApiCaller) -> PairedOut:
    """Pair the next round of a Swiss of pairs from the results and marks stored, or
    continue a knockout of pairs (the tie-break matches due, else the next round)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.pair_bughouse_round(tid, actor=caller.actor)
    return PairedOut(**change_out(change).model_dump(), data=change.data)


@router.post("/tournaments/{tid}/rounds/{rnd}/bughouse/first")
def mark_first(tid: Num, rnd: Num, body: FirstIn, request: Request, caller: ApiCaller) -> ChangeOut:
    """The game on ``board`` finished first in its match (the rule ``first``)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    return change_out(site.service.mark_first_finished(tid, rnd, body.board, actor=caller.actor))


@router.get("/tournaments/{tid}/bughouse")
def read(tid: Num, request: Request) -> JsonObject:
    """The pairs' table (match and game points, the tie-breaks) and every match."""
    service = site_of(request).service
    revision = service.revision(tid)  # 404 for a tournament that does not exist
    return bughouse_data(service, tid).as_json() | {"revision": revision}


__all__ = ["bughouse_data", "router"]
