"""The JSON API's request bodies (kept apart so that api.py stays small).

Every body is a :class:`~crosstable.web.routes.common.Body`: its texts refuse
control characters, and each has a length bound.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field

from crosstable.service import PlayerInfo
from crosstable.web.routes.common import Body


class ResultIn(Body):
    result: str = Field(
        max_length=20,
        description=(
            "1-0, ½-½ (or 1/2-1/2, =), 0-1, +-, -+ or --; an arbiter's ½-0, 0-½ or 0-0 "
            "(0.5-0, 0-0.5); played but not rated 1-0u, ½-½u, 0-1u (or WL, DD, LW); * adjourned"
        ),
    )
    idempotency_key: str | None = Field(None, max_length=200)
    expected_version: int | None = Field(None, ge=0, le=2_000_000_000)


class RecordIn(ResultIn):
    """A result entered by an organiser, a helper or a game server, with why the game
    ended so (recorded with it, shown in the history)."""

    reason: Literal["normal", "no-show", "setup-timeout", "adjudicated"] | None = Field(
        None,
        description="why the game ended so: normal (played at the board), no-show (a "
        "forfeit: a player was absent), setup-timeout (battle chess: a player did not "
        "finish setting up in time; the result is the draw or the win it gives), "
        "adjudicated (decided by the arbiter); null: normal, or no-show for a forfeit",
    )
    confirm: str | None = Field(
        None,
        max_length=100,
        description="an adjourned game's decisive result: the token of its warning (HTTP 409)",
    )


class CorrectionIn(Body):
    result: str | None = Field(None, max_length=20, description="the new result; null clears it")
    expected: str | None = Field(
        None, max_length=20, description="the result you saw (guards a race)"
    )
    confirm: str | None = Field(
        None,
        max_length=100,
        description="a result of an earlier round in FIDE mode: the token of its warning "
        "(HTTP 409)",
    )


class ConfirmIn(Body):
    result: str | None = Field(None, max_length=20, description="null: confirm what was reported")


class PlayerIn(Body):
    name: str = Field(min_length=1, max_length=200)
    #: checked by the service, as on every surface (100–4000, 0 or null unrated)
    rating: int | None = None
    title: str = Field("", max_length=10)
    federation: str = Field("", max_length=10)
    fide_id: str = Field("", max_length=20)
    team: str = Field("", max_length=100, description="the player's team (Scheveningen)")
    club: str = Field("", max_length=100, description="the player's club (not in TRF)")
    national_rating: int | None = Field(None, description="the national rating")
    manual_rating: int | None = Field(None, description="a rating typed by hand (HBFN)")
    half_byes: bool = Field(True, description="false: not entitled to half-point byes")

    def info(self) -> PlayerInfo:
        """The player to register (checked by the service, as on every surface)."""
        return PlayerInfo(
            self.name,
            self.rating,
            self.title,
            self.federation,
            self.fide_id,
            team=self.team,
            club=self.club,
            national_rating=self.national_rating,
            manual_rating=self.manual_rating,
            half_byes=self.half_byes,
        )


class EntryIn(PlayerIn):
    confirm: str | None = Field(
        None,
        max_length=100,
        description="a Swiss's late entry in FIDE mode: the token of its warning (HTTP 409)",
    )


class LotsIn(Body):
    method: Literal["random", "rating", "manual"] = "random"
    seed: int | None = Field(None, ge=0, le=2**62)
    order: list[Annotated[int, Field(ge=1, le=100_000)]] = Field(
        default_factory=list, description="registration numbers, manual"
    )


class WithdrawIn(Body):
    start: int = Field(ge=1, le=2_000_000_000)
    from_round: int | None = Field(None, ge=1, le=2_000_000_000)


class ReopenIn(Body):
    """Reopening a finished tournament: why, and that it is meant."""

    reason: str | None = Field(None, max_length=500, description="why it is reopened")
    confirm: bool = Field(False, description="true: reopen it (its final places go)")


class RevertIn(ReopenIn):
    seq: int = Field(ge=1, le=2_000_000_000)


class TournamentIn(Body):
    name: str = Field(min_length=1, max_length=200)
    format: Literal[
        "round-robin",
        "double-round-robin",
        "swiss",
        "knockout",
        "scheveningen",
        "quads",
        "groups",
        "rating-groups",
    ] = Field(
        "round-robin",
        description="quads, groups and rating-groups create several tournaments (answered "
        "as ids): round robins of four by rating, the groups of a group stage + knockout, "
        "or round robins of group_size players by rating",
    )
    point_system: str = Field("1-0.5-0", max_length=20)
    bye_points: str | None = Field(None, max_length=20)
    tiebreaks: str = Field(
        "", max_length=400, description="FIDE codes, comma-separated, or a preset name"
    )
    withdrawal_rule: Literal["fide-50", "keep", "annul"] = "fide-50"
    time_control: str = Field("", max_length=100)
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    players: list[PlayerIn] = Field(
        default_factory=list,
        description="the players, registered with the tournament in one transaction; at "
        "most 100 in a round robin or Scheveningen, 512 in a knockout, 1000 in a Swiss, "
        "quads or groups",
    )
    rounds: int | None = Field(None, ge=1, le=100, description="Swiss: null = ⌈log₂ N⌉")
    initial_colour: Literal["", "white", "black"] = Field(
        "", description="Swiss: the first player's colour in round 1; empty = by lot"
    )
    match_format: str = Field("1", max_length=20, description="knockout: 1, 2 or 2-at-once")
    tie_rule: str = Field(
        "lower-rated",
        max_length=100,
        description="knockout: lower-rated, lots, playoff, or stages then a decider "
        "(rapid:2,blitz:2,armageddon)",
    )
    bracket: Literal["seeded", "random"] = "seeded"
    capacity: int | None = Field(
        None,
        ge=0,
        le=9999,
        description="knockout: a field of 2ⁿ players (2, 4, 8 … 512); registration closes "
        "by itself when it is full (docs/knockout.md); another number is refused",
    )
    third_place: bool = Field(False, description="knockout, groups: a match for third place")
    groups: int = Field(4, ge=1, le=256, description="groups: how many groups (snake-seeded)")
    qualifiers_per_group: int = Field(
        1, ge=1, le=64, description="groups: the top k of each group go to the knockout"
    )
    group_cycles: int = Field(2, ge=1, le=2, description="groups: single or double round robin")
    group_size: int = Field(
        6,
        ge=1,
        le=100,
        description="rating-groups: players in a group, 3 to 16 (the groups that differ "
        "from it are at the bottom; docs/variants.md)",
    )
    venue: str = Field("", max_length=200, description="where it is played (TRF 022)")
    federation: str = Field("", max_length=10, description="the organising federation (032)")
    organiser: str = Field("", max_length=200)
    arbiter: str = Field("", max_length=200, description="the chief arbiter (102)")
    funding: str = Field(
        "",
        max_length=200,
        description="who pays: sponsor, own_funds, entry_fees, other (comma-separated)",
    )
    sponsor: str = Field("", max_length=300, description="the sponsor's name (funding sponsor)")
    sponsor_credit: str = Field("", max_length=300, description="how the sponsor is credited")
    level: str = Field(
        "", max_length=80, description="a class or level tournament: one of GET /api/v1/levels"
    )
    rating_method: Literal["FIDE", "NRO", "FIDON", "NIDOF", "HBFN"] = Field(
        "FIDE", description="the rating that ranks the players (FIDE's checklist's names)"
    )
    finish: Literal["auto", "confirm"] = Field(
        "auto",
        description="auto: it finishes by itself with its last result; confirm: the "
        "organiser's Finish fixes the places",
    )
    venue_kind: Literal["online", "otb"] = Field(
        "online", description="online, or over the board (the portal's eligibility rules)"
    )
    ties: Literal["shared", "lots"] = Field(
        "shared",
        description="players still equal after every tie-break: they share the place, or "
        "lots drawn once at the finish decide (the seed is recorded)",
    )
    forfeits_in_tiebreaks: bool = Field(
        True, description="whether forfeited games count as games in the tie-breaks"
    )
    variant: Literal["", "battle"] = Field(
        "",
        description="battle: battle chess — each game's colours drawn by the computer just "
        "before its round (round robins; docs/battle.md)",
    )
    setup_minutes: int | None = Field(
        None,
        ge=1,
        le=120,
        description="battle chess: the set-up time in minutes (neither set up in time: a "
        "draw; only one: that player wins)",
    )
    schedule: Literal["berger", "circle", "crenshaw"] = Field(
        "berger",
        description="round robins: FIDE Berger tables, the circle method (1 fixed, the "
        "rest rotate), or US Chess's Crenshaw-Berger tables (3-4 or 7 or more players); "
        "docs/schedules.md",
    )
    initial_order: Literal["rating", "portal", "lot"] = Field(
        "rating",
        description="Swiss: FIDE's initial order, the portal's (by rating, the unrated "
        "placed at random from order_seed), or lot (players equal in rating and title "
        "placed by lot from order_seed, not by name); docs/swiss.md",
    )
    order_seed: int | None = Field(
        None,
        ge=0,
        lt=2**53,
        description="Swiss, portal order: the seed of the unrated players' lot (default: "
        "derived from the tournament at the start and recorded)",
    )
    even_field: bool = Field(False, description="Swiss: refuse to start an odd field")

    def portal_details(self) -> tuple[tuple[str, str], ...]:
        """Who pays and the class or level, as the regulations' details (each checked by
        the service)."""
        given = (
            ("funding", self.funding),
            ("sponsor", self.sponsor),
            ("sponsor_credit", self.sponsor_credit),
            ("level", self.level),
            ("rating_method", "" if self.rating_method == "FIDE" else self.rating_method),
        )
        return tuple((key, value.strip()) for key, value in given if value.strip())


class PairingIn(Body):
    round: int | None = Field(
        None, ge=1, le=1000, description="the round you expect to publish (guards a race)"
    )
    boards: (
        list[
            Annotated[
                list[Annotated[int, Field(ge=1, le=100_000)]], Field(min_length=2, max_length=2)
            ]
        ]
        | None
    ) = Field(
        None,
        max_length=50_000,
        description="[[white, black], …] by starting number in board order; null: the "
        "Dutch system's pairing",
    )
    bye: int | None = Field(None, ge=1, le=100_000, description="the PAB (manual pairing)")
    allow_rematch: bool = False
    idempotency_key: str | None = Field(None, max_length=200)
    confirm: str | None = Field(
        None,
        max_length=100,
        description="games without a result are adjourned: the token of that warning (HTTP 409)",
    )


class ByeIn(Body):
    round: int = Field(ge=1, le=1000)
    kind: Literal["H", "Z", "F"] = Field("H", description="half-, zero- or full-point bye")
    start: int | None = Field(
        None, ge=1, le=100_000, description="the player (organisers); players: themselves"
    )
    confirm: str | None = Field(
        None, max_length=100, description="the token of the warning (HTTP 409) answered"
    )
