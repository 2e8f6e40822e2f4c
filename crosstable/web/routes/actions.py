"""Actions shared by the pages and the API: permission checks in front of the service's use cases.

The rules of the tournament stay in :mod:`crosstable.service`; what lives here is
*who may*: masters' tournaments wait for approval, a player reports only
their own game, self-registration respects the window and the
eligibility rules.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import secrets
from dataclasses import dataclass, replace
from fractions import Fraction

from fastapi import HTTPException

from crosstable.core.duration import parse_time_control
from crosstable.core.errors import RuleError
from crosstable.core.model import System, WithdrawalRule
from crosstable.core.pairing.knockout import MatchFormat
from crosstable.core.schedule.groups import GroupStagePlan, plan_group_stage, snake_groups
from crosstable.core.schedule.rating_groups import rating_group_sizes
from crosstable.core.scoring import PointSystem, points
from crosstable.core.text import Message
from crosstable.core.tiebreaks import default_tiebreaks
from crosstable.core.tiebreaks.presets import buchholz_warnings, preset_or_codes
from crosstable.service import Change, PlayerInfo, Regulations
from crosstable.service.detail_checks import check_first_players
from crosstable.service.eligibility import quads_details
from crosstable.service.field import check_event_field, check_field
from crosstable.service.formats import SYSTEMS, system_details, system_of_format
from crosstable.service.players import duplicate_names
from crosstable.service.stage_view import group_details, group_letter
from crosstable.service.text_encoding import Decoded, decode_text
from crosstable.service.tiebreak_order import creation_tiebreaks, with_creation_tiebreaks
from crosstable.web import i18n
from crosstable.web.routes.common import (
    MANAGERS,
    check_value,
    require_approved,
    require_role,
    require_user,
)
from crosstable.web.security import Caller
from crosstable.web.site import Site

#: the formats cut by rating into round robins linked as one event (quads: groups of four)
RATING_GROUP_FORMATS = ("quads", "rating-groups")


@dataclass(frozen=True)
class WizardSpec:
    """What the tournament wizard (or the API) asks for."""

    name: str
    format: str = "round-robin"
    point_system: str = "1-0.5-0"
    bye_points: str = ""
    tiebreaks: str = ""
    withdrawal_rule: str = "fide-50"
    time_control: str = ""
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    players: tuple[PlayerInfo, ...] = ()
    details: tuple[tuple[str, str], ...] = ()
    groups: int = 4
    qualifiers_per_group: int = 1
    group_cycles: int = 2
    #: rating groups: the players of a group (quads are groups of four)
    group_size: int = 6
    #: Swiss: the number of rounds (None: ⌈log₂ N⌉, fixed at the start)
    rounds: int | None = None
    #: Swiss: colour of the first player in round 1 ("" = by lot at the start)
    initial_colour: str = ""
    #: knockout: games of a match, tie rule and bracket order
    match_format: str = "1"
    tie_rule: str = "lower-rated"
    bracket: str = "seeded"
    #: knockout (and the knockout after a group stage): a match for third place
    third_place: bool = False
    #: the encoding the players' CSV file was read in (None: no file)
    encoding: Decoded | None = None

    @property
    def system(self) -> System:
        return system_of_format(self.format)

    def system_details(self) -> dict[str, str]:
        """The Swiss or knockout settings, checked, as the regulations' details keep them
        (the service's one function, shared with ``crosstable new``)."""
        return system_details(
            self.system,
            rounds=self.rounds,
            initial_colour=self.initial_colour,
            match_format=self.match_format,
            tie_rule=self.tie_rule,
            bracket=self.bracket,
            third_place=self.third_place,
        )

    def stage_plan(self) -> GroupStagePlan:
        """Group stage + knockout: the plan of the groups and the knockout (checked)."""
        knockout = system_details(  # the knockout's settings, checked as the knockout's
            System.KNOCKOUT,
            match_format=self.match_format,
            tie_rule=self.tie_rule,
            third_place=self.third_place,
        )
        games = MatchFormat.parse(knockout["match_format"]).games
        return plan_group_stage(
            len(self.players),
            groups=self.groups,
            cycles=self.group_cycles,
            qualifiers_per_group=self.qualifiers_per_group,
            games_per_match=games,
            third_place_match=self.third_place,
        )

    def stage_links(self, count: int) -> list[dict[str, str]]:
        """The details that make the ``count`` groups one event (a fresh key)."""
        event = secrets.token_hex(6)
        return [
            group_details(
                event,
                self.name,
                group_letter(index),
                count,
                self.qualifiers_per_group,
                match_format=self.match_format,
                tie_rule=self.tie_rule,
                third_place=self.third_place,
            )
            for index in range(count)
        ]

    def tiebreak_codes(self) -> tuple[str, ...]:
        raw = self.tiebreaks.strip()
        if raw.lower() in ("", "default"):
            return ()
        return preset_or_codes(raw)

    def warnings(self) -> tuple[str, ...]:
        """What the regulations allow but the arbiter should hear about (Buchholz
        chosen for a round robin) — shown, never refused."""
        settings = self.regulations().settings()
        shared = tuple(duplicate_names(p.name for p in self.players))
        return buchholz_warnings(settings.system, settings.tiebreaks) + shared

    def regulations(self, name: str | None = None) -> Regulations:
        system = self.system
        try:
            rule = WithdrawalRule(self.withdrawal_rule)
        except ValueError:
            raise RuleError(
                "withdrawal rule {rule} is not known", rule=repr(self.withdrawal_rule)
            ) from None
        bye: Fraction | None = None
        if self.bye_points.strip():
            try:
                bye = points(self.bye_points)
            except (ValueError, ZeroDivisionError):
                raise RuleError(
                    "bye value {value} is not a number", value=repr(self.bye_points)
                ) from None
        cycles = 2 if self.format == "double-round-robin" else 1
        if self.format == "groups":
            cycles = self.group_cycles
        details = dict(self.details) | self.system_details()
        return Regulations(
            name=name or self.name,
            system=system,
            cycles=cycles,
            point_system=PointSystem.parse(self.point_system),
            bye_points=bye,
            tiebreaks=creation_tiebreaks(system, details, self.tiebreak_codes())
            or default_tiebreaks(system),
            withdrawal_rule=rule,
            rounds=self.rounds if system is System.SWISS_DUTCH else None,
            time_control=self.time_control,
            start_date=self.start_date,
            end_date=self.end_date,
            details=details,
        )


def parse_player_list(text: str) -> list[PlayerInfo]:
    """One player a line: ``Name``, ``Name, rating`` or ``Name; rating; title; federation;
    team; FIDE id`` (any trailing columns may be left out; the team is a Scheveningen's).

    >>> [(p.name, p.rating) for p in parse_player_list("Anna Petrova, 1850\\nBoris\\n\\n")]
    [('Anna Petrova', 1850), ('Boris', None)]
    >>> [(p.name, p.team) for p in parse_player_list("Anna; 1850; WFM; RUS; Dynamo")]
    [('Anna', 'Dynamo')]
    """
    players: list[PlayerInfo] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        sep = ";" if ";" in line else ("\t" if "\t" in line else ",")
        parts = [p.strip() for p in line.split(sep)]
        players.append(_player_from(parts, Message("line {line}", line=number)))
    return players


def parse_player_csv(data: bytes) -> list[PlayerInfo]:
    """The players of :func:`read_player_csv` (without the encoding)."""
    return read_player_csv(data)[0]


def read_player_csv(data: bytes) -> tuple[list[PlayerInfo], Decoded]:
    """A CSV file with a header row: ``name`` and optionally ``rating, title, federation,
    team, fide_id`` (Russian headers ``имя, рейтинг, звание, команда`` are understood too),
    in UTF-8, Windows-1251 (Russian Excel), KOI8-R, Windows-1252 or UTF-16: the players,
    and the encoding it was read in (:func:`crosstable.service.text_encoding.decode_text`,
    the one reading of a players' file, the command line's too)."""
    decoded = decode_text(data, source="CSV")
    text = decoded.text
    try:
        dialect = csv.Sniffer().sniff(text.splitlines()[0] if text else ",", delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = list(csv.reader(io.StringIO(text), dialect))
    if not rows:
        raise RuleError("the CSV file is empty")
    header = [h.strip().lower() for h in rows[0]]
    aliases = {
        "имя": "name",
        "игрок": "name",
        "рейтинг": "rating",
        "звание": "title",
        "команда": "team",
        "федерация": "federation",
    }
    header = [aliases.get(h, h) for h in header]
    if "name" not in header:
        raise RuleError("the CSV file needs a header row with a 'name' column (line 1)")
    players = []
    for index, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue
        values = dict(zip(header, (c.strip() for c in row), strict=False))
        keys = ("name", "rating", "title", "federation", "team", "fide_id")
        parts = [values.get(k, "") for k in keys]
        players.append(_player_from(parts, Message("CSV line {line}", line=index)))
    return players, decoded


def encoding_note(decoded: Decoded | None) -> Message | None:
    """What the page says about a CSV file not in UTF-8 (None for UTF-8: nothing to say)."""
    if decoded is None or decoded.is_utf8:
        return None
    return Message("the CSV file was read as {encoding} text", encoding=decoded.label)


def _player_from(parts: list[str], where: str) -> PlayerInfo:
    name = parts[0] if parts else ""
    rating: int | None = None
    if len(parts) > 1 and parts[1]:
        if not (parts[1].isascii() and parts[1].isdigit() and len(parts[1]) <= 18):
            raise RuleError(
                "{where}: rating {rating} is not a whole number",
                where=where,
                rating=repr(parts[1][:40]),
            )
        rating = int(parts[1])
    title = parts[2] if len(parts) > 2 else ""
    federation = parts[3] if len(parts) > 3 else ""
    team = parts[4] if len(parts) > 4 else ""
    fide_id = parts[5] if len(parts) > 5 else ""
    try:
        columns = ("name", "rating", "title", "federation", "team", "fide_id")
        for field, value in zip(columns, parts, strict=False):
            check_value(field, value)  # plain text that the store can hold
        return PlayerInfo(name, rating, title, federation, fide_id, team=team).checked()
    except RuleError as error:
        raise RuleError("{where}: {problem}", where=where, problem=error) from None


def check_spec(spec: WizardSpec) -> None:
    """What the wizard's preview flags and every creation refuses, with the same message:
    the regulations as settings (a tie-break list the system's picker offers), and a
    time control that is read."""
    regulations = spec.regulations()
    with_creation_tiebreaks(regulations.settings(), regulations.details)
    if spec.time_control.strip():
        parse_time_control(spec.time_control)


def _sections(spec: WizardSpec) -> list[tuple[str, list[PlayerInfo]]]:
    """The tournaments the wizard creates: one tournament, or one round robin per quad or
    group (a Scheveningen is one tournament; its players carry their teams)."""
    players = list(spec.players)
    if spec.format in RATING_GROUP_FORMATS:  # quads are the rating groups of four
        ordered = sorted(players, key=lambda p: (-(p.rating or 0), p.name))
        if spec.format == "quads" and len(ordered) < 4:
            raise RuleError("quads need at least four players")
        size = 4 if spec.format == "quads" else spec.group_size
        out, at = [], 0
        for index, count in enumerate(rating_group_sizes(len(ordered), size), 1):
            # (named in the organiser's language: a tournament's name is data once made)
            if spec.format == "quads":
                group = i18n.gettext("%(name)s — quad %(number)s", name=spec.name, number=index)
            else:
                group = i18n.gettext(
                    "%(name)s — rating group %(number)s", name=spec.name, number=index
                )
            out.append((group, ordered[at : at + count]))
            at += count
        return out
    if spec.format == "groups":
        ordered = sorted(players, key=lambda p: (-(p.rating or 0), p.name))
        groups = snake_groups(len(ordered), spec.groups)
        return [
            (
                i18n.gettext("%(name)s — group %(letter)s", name=spec.name, letter=group_letter(i)),
                [ordered[rank - 1] for rank in members],
            )
            for i, members in enumerate(groups)
        ]
    return [(spec.name, players)]


def check_format_field(format_: str, players: int) -> None:
    """RuleError when ``players`` are more than the format's cap: before the
    wizard's preview builds a schedule of that size, or anything is created."""
    if format_ in ("quads", "groups", "rating-groups"):
        check_event_field(players)
    elif format_ in SYSTEMS:
        check_field(SYSTEMS[format_], players, cycles=2 if format_.startswith("double") else 1)


def create_tournaments(site: Site, caller: Caller, spec: WizardSpec) -> list[int]:
    """Create the tournament(s) of ``spec`` with their players; the caller organises them."""
    require_user(caller)
    user = caller.user
    assert user is not None
    if not user.may_organise:
        raise HTTPException(
            status_code=403,
            detail="only administrators and masters (winners of an over-the-board event) "
            "may organise tournaments",
        )
    # check everything before creating anything: the field's cap first
    check_spec(spec)
    if spec.format in ("quads", "groups", "rating-groups"):
        check_event_field(len(spec.players))
    sections = _sections(spec)
    links: list[dict[str, str]] = [{} for _section in sections]
    if spec.format == "groups":  # the groups of one event, and its knockout's settings
        spec.stage_plan()
        links = spec.stage_links(len(sections))
    if spec.format in RATING_GROUP_FORMATS:  # the groups of one event (counted together)
        event = secrets.token_hex(6)
        links = [quads_details(event, number) for number in range(1, len(sections) + 1)]
    for name, players in sections:
        settings = spec.regulations(name).settings()
        check_field(settings.system, len(players), cycles=settings.cycles)
        check_first_players(settings.system, spec.regulations(name).details, len(players))
    checked = [[player.checked() for player in players] for _name, players in sections]
    ids: list[int] = []
    for (name, _players), players, link in zip(sections, checked, links, strict=True):
        regulations = spec.regulations(name)
        regulations = replace(regulations, details=regulations.details | link)
        # the tournament and its players in one transaction
        change = site.service.create_tournament(regulations, players=players, actor=caller.actor)
        tid = change.tournament_id
        site.accounts.claim(tid, user, actor=caller.actor)
        ids.append(tid)
    return ids


def start(site: Site, caller: Caller, tid: int) -> Change:
    require_role(site, caller, tid, MANAGERS)
    require_approved(site, tid)
    return site.service.start(tid, actor=caller.actor)


def report(
    site: Site,
    caller: Caller,
    tid: int,
    rnd: int,
    board: int,
    result: str,
    idempotency_key: str | None = None,
) -> Change:
    """A player with an account reports their own game; anyone else is refused."""
    require_user(caller)
    user = caller.user
    assert user is not None
    site.report_limit.check(f"user:{user.id}", "result reports")
    number = site.accounts.entry_of(tid, user.id)
    view, _table = site.service.crosstable(tid)
    start_number = next((p.start for p in view.players if p.number == number), None)
    if number is None or start_number is None:
        raise HTTPException(status_code=403, detail="only the two players may report this game")
    game = next((g for g in view.games if g.round == rnd and g.board == board), None)
    if game is not None and start_number not in (game.white, game.black):
        raise HTTPException(status_code=403, detail="you may report only your own games")
    return site.service.report_result(
        tid,
        rnd,
        board,
        result,
        player=start_number,
        actor=caller.actor,
        idempotency_key=idempotency_key,
    )


def register_self(site: Site, caller: Caller, tid: int) -> Change:
    require_user(caller)
    user = caller.user
    assert user is not None
    site.service.revision(tid)
    problems = site.accounts.registration_problems(tid, user)
    if problems:
        raise RuleError("you cannot register: {problems}", problems=Message.joined("; ", problems))
    if site.service.overview(tid).status != "registration":  # (a late entry: the organiser's)
        raise RuleError(
            "the tournament has started: {what} only before round 1{note}",
            what="players are added",
            note="",
        )
    change = site.service.add_player(
        tid, PlayerInfo(user.display_name, user.rating), actor=caller.actor
    )
    number = int(change.data.get("number", 0))
    if number:
        site.accounts.link_entry(tid, number, user.id, actor=caller.actor)
    return change


def unregister_self(site: Site, caller: Caller, tid: int) -> Change:
    require_user(caller)
    user = caller.user
    assert user is not None
    number = site.accounts.entry_of(tid, user.id)
    if number is None:
        raise RuleError("you are not registered in this tournament")
    change = site.service.remove_player(tid, number, actor=caller.actor)
    site.accounts.unlink_entry(tid, number, actor=caller.actor)
    return change


def bye(
    site: Site,
    caller: Caller,
    tid: int,
    start: int | None,
    round_number: int,
    kind: str = "H",
    *,
    cancel: bool = False,
    confirm: str | None = None,
) -> Change:
    """Ask for (or cancel) a bye in a Swiss round not paired yet: a player for themself
    (half- or zero-point), an organiser for anyone (also a full-point bye); ``confirm``
    answers FIDE's warning of a full-point or a second half-point bye."""
    site.service.revision(tid)
    require_user(caller)
    user = caller.user
    assert user is not None
    code = (kind or "H").strip().upper()
    if site.accounts.role(user, tid) not in MANAGERS:
        number = site.accounts.entry_of(tid, user.id)
        view, _table = site.service.crosstable(tid)
        mine = next((p.start for p in view.players if p.number == number), None)
        if number is None or mine is None:
            raise HTTPException(
                status_code=403, detail="only the player or the organiser may ask for a bye"
            )
        if start is not None and start != mine:
            raise HTTPException(status_code=403, detail="you may ask for a bye only for yourself")
        if code == "F" and not cancel:
            raise HTTPException(
                status_code=403, detail="a full-point bye is given by the organiser only"
            )
        start = mine
    if start is None:
        raise RuleError("choose the player who has the bye")
    if cancel:
        return site.service.cancel_bye(tid, start, round_number, actor=caller.actor)
    return site.service.request_bye(
        tid, start, round_number, code, actor=caller.actor, confirm=confirm
    )
