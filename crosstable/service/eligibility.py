"""Eligibility from what the site knows (R-OR-2, R-X-2; issue 12 item 3).

A player's *playing record* is counted from the site's own tournaments:

* **games**: the games of the entries linked to the account that were played over
  the board — a win, a draw or a loss at the board; forfeits, byes, games decided
  by a no-show or by the battle-chess set-up time are not games played (the same
  reading as R-SE-6's "played a game", :func:`played_over_the_board`);
* **online tournaments**: finished tournaments of the online kind the account
  played in (an entry linked to it). A tournament is *online* or *over the board*
  by its regulations' ``venue_kind`` (``online`` or ``otb``; default ``online``).

The administrator's manual adjustment (games or tournaments played elsewhere) is
kept apart (``users.rated_games``, ``users.online_tournaments``) and added:
"23 = 18 on the site + 5 adjusted".

An over-the-board event needs at least :data:`OTB_MINIMUM` registered players who
are eligible (seed 002: at least 20 games and one online tournament; the
tournament's own rules when it has some) before it can start (:func:`start_problems`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.store.accounts_models import AccessRow, EntryAccountRow, UserRow
from crosstable.store.models import EntryRow, GameRow, TournamentRow

#: the regulations' detail that says where the games are played
VENUE_KIND = "venue_kind"
VENUE_KINDS = ("online", "otb")
#: R-X-2: an over-the-board event starts with at least this many eligible players
OTB_MINIMUM = 10
#: the details that make the quads of one event one event (R-RR-17's quads; issue 12
#: item 3): the event's key, the same in each quad, and the quad's number (1 the strongest)
QUADS_EVENT = "quads_event"
QUAD = "quad"


def quads_details(event: str, number: int) -> dict[str, str]:
    """The details of quad ``number`` (1 the strongest) of the quads event ``event``."""
    return {QUADS_EVENT: event, QUAD: str(number)}


def quads_of_event(session: Session, row: TournamentRow) -> list[TournamentRow]:
    """The quads of ``row``'s quads event (itself among them), or ``[row]``."""
    event = str((row.regulations or {}).get(QUADS_EVENT) or "")
    if not event:
        return [row]
    query = select(TournamentRow).where(TournamentRow.regulations[QUADS_EVENT].as_string() == event)
    return list(session.scalars(query.order_by(TournamentRow.id))) or [row]


#: R-X-2 (seed 002): the rules an over-the-board event applies when it sets none
OTB_RULES: dict[str, int] = {"min_rated_games": 20, "min_online_tournaments": 1}
#: results at the board (each side's TRF code): 1, = and 0
_AT_THE_BOARD = frozenset("10=")
_NOT_PLAYED = frozenset({"no-show", "setup-timeout"})


def venue_kind(details: Mapping[str, Any] | None) -> str:
    """``online`` or ``otb`` (an unknown value reads as the default, online)."""
    value = str((details or {}).get(VENUE_KIND, "online")).strip().lower()
    return value if value in VENUE_KINDS else "online"


def check_venue_kind(details: Mapping[str, Any]) -> None:
    """Refuse a ``venue_kind`` that is neither online nor otb."""
    if VENUE_KIND in details and str(details[VENUE_KIND]).strip().lower() not in VENUE_KINDS:
        raise RuleError(
            "venue kind is online or otb (over the board), not {value}",
            value=repr(str(details[VENUE_KIND])[:40]),
        )


def check_venue_kind_change(
    current: Mapping[str, Any] | None, new: Mapping[str, Any] | None, *, started: bool
) -> None:
    """Refuse a change of the kind of event once the tournament has started: the start
    checked the players against it (R-X-2), and an over-the-board event's winner
    becomes a master (R-OR-1)."""
    if started and venue_kind(new) != venue_kind(current):
        raise RuleError(
            "the kind of event (online or over the board) cannot change after the start: "
            "the start checked the players against it and the winner of an over-the-board "
            "event becomes a master (undo the start first)"
        )


@dataclass(frozen=True, slots=True)
class PlayingRecord:
    """What the site counts for an account, and the administrator's adjustment."""

    games_on_site: int = 0
    games_adjusted: int = 0
    tournaments_on_site: int = 0
    tournaments_adjusted: int = 0

    @property
    def games(self) -> int:
        return self.games_on_site + self.games_adjusted

    @property
    def tournaments(self) -> int:
        return self.tournaments_on_site + self.tournaments_adjusted

    def games_text(self) -> str:
        """``23 = 18 on the site + 5 adjusted`` (``18`` when nothing is adjusted)."""
        return _sum_text(self.games, self.games_on_site, self.games_adjusted)

    def tournaments_text(self) -> str:
        return _sum_text(self.tournaments, self.tournaments_on_site, self.tournaments_adjusted)

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": {
                "total": self.games,
                "on_site": self.games_on_site,
                "adjusted": self.games_adjusted,
            },
            "online_tournaments": {
                "total": self.tournaments,
                "on_site": self.tournaments_on_site,
                "adjusted": self.tournaments_adjusted,
            },
        }


def _sum_text(total: int, on_site: int, adjusted: int) -> str:
    if not adjusted:
        return str(total)
    if adjusted > 0:
        return Message(
            "{total} = {site} on the site + {adjusted} adjusted",
            total=total,
            site=on_site,
            adjusted=adjusted,
        )
    return Message(
        "{total} = {site} on the site − {adjusted} adjusted",
        total=total,
        site=on_site,
        adjusted=abs(adjusted),
    )


def played_over_the_board(game: GameRow, number: int) -> bool:
    """Whether ``number`` (an entry number) played ``game`` at the board."""
    if game.result is None or number not in (game.white, game.black):
        return False
    return set(game.result) <= _AT_THE_BOARD and game.reason not in _NOT_PLAYED


def playing_record(session: Session, user: UserRow) -> PlayingRecord:
    """The account's games and finished online tournaments on the site, plus the
    administrator's adjustment (two queries, whatever the number of entries)."""
    link = (EntryAccountRow.tournament_id == GameRow.tournament_id) & or_(
        GameRow.white == EntryAccountRow.number, GameRow.black == EntryAccountRow.number
    )
    query = (
        select(GameRow, EntryAccountRow.number)
        .join(EntryAccountRow, link)
        .where(EntryAccountRow.user_id == user.id, GameRow.result.is_not(None))
    )
    games = sum(played_over_the_board(game, number) for game, number in session.execute(query))
    finished = (
        select(TournamentRow)
        .join(EntryAccountRow, EntryAccountRow.tournament_id == TournamentRow.id)
        .join(
            EntryRow,
            (EntryRow.tournament_id == EntryAccountRow.tournament_id)
            & (EntryRow.number == EntryAccountRow.number),
        )
        .where(EntryAccountRow.user_id == user.id, TournamentRow.status == "finished")
    )
    tournaments = sum(
        venue_kind(row.regulations) == "online" for row in session.scalars(finished).unique()
    )
    return PlayingRecord(games, user.rated_games or 0, tournaments, user.online_tournaments or 0)


def rules_of(
    eligibility: Mapping[str, Any] | None, details: Mapping[str, Any] | None
) -> dict[str, int]:
    """The tournament's counted rules: its own, or R-X-2's for an over-the-board event."""
    rules = {
        key: int((eligibility or {}).get(key) or 0)
        for key in ("min_rated_games", "min_online_tournaments")
    }
    if venue_kind(details) == "otb":
        for key, least in OTB_RULES.items():
            rules[key] = max(rules[key], least)
    return {key: value for key, value in rules.items() if value}


def eligibility_problems(rules: Mapping[str, Any], record: PlayingRecord) -> list[Message]:
    """Why a player with ``record`` may not enter under ``rules`` (empty: eligible).

    >>> [str(p) for p in eligibility_problems({"min_rated_games": 20}, PlayingRecord(18, 0))]
    ['eligibility: at least 20 games played are required (you have 18)']
    >>> eligibility_problems({"min_rated_games": 20}, PlayingRecord(18, 5))
    []
    """
    return _lacking(
        rules,
        record,
        lambda need, have: (
            Message("eligibility: at least 1 game played is required (you have {have})", have=have)
            if need == 1
            else Message(
                "eligibility: at least {need} games played are required (you have {have})",
                need=need,
                have=have,
            )
        ),
        lambda need, have: (
            Message(
                "eligibility: at least 1 finished online tournament is required (you have {have})",
                have=have,
            )
            if need == 1
            else Message(
                (
                    "eligibility: at least {need} finished online tournaments are required (you "
                    "have {have})"
                ),
                need=need,
                have=have,
            )
        ),
    )


def _lacking(
    rules: Mapping[str, Any],
    record: PlayingRecord,
    games: Callable[[int, str], Message],
    tournaments: Callable[[int, str], Message],
) -> list[Message]:
    """What ``record`` lacks under ``rules``, each said by ``games`` / ``tournaments``
    (the number needed, the record's count as text): one rule, two wordings."""
    problems: list[Message] = []
    need = int(rules.get("min_rated_games") or 0)
    if need and record.games < need:
        problems.append(games(need, record.games_text()))
    need = int(rules.get("min_online_tournaments") or 0)
    if need and record.tournaments < need:
        problems.append(tournaments(need, record.tournaments_text()))
    return problems


def shortfall(rules: Mapping[str, Any], record: PlayingRecord) -> list[Message]:
    """What a registered player lacks under ``rules``, as the start names it ("at least
    20 games played are required (has 9)"; empty: nothing). Each is a Message of its own
    template, so a page shows it in the reader's language.

    >>> [str(p) for p in shortfall({"min_online_tournaments": 1}, PlayingRecord(30, 0))]
    ['at least 1 finished online tournament is required (has 0)']
    """
    return _lacking(
        rules,
        record,
        lambda need, have: (
            Message("at least 1 game played is required (has {have})", have=have)
            if need == 1
            else Message(
                "at least {need} games played are required (has {have})", need=need, have=have
            )
        ),
        lambda need, have: (
            Message("at least 1 finished online tournament is required (has {have})", have=have)
            if need == 1
            else Message(
                "at least {need} finished online tournaments are required (has {have})",
                need=need,
                have=have,
            )
        ),
    )


def start_problems(session: Session, row: TournamentRow) -> list[str]:
    """Why the tournament cannot start under the portal's rules (empty: it can).

    Refused: an entry of an account flagged for computer help (R-SE-8); organisers
    who would all play (R-X-1); an over-the-board event with fewer than
    :data:`OTB_MINIMUM` eligible registered players, naming who is not eligible and
    why (R-X-2)."""
    from crosstable.service.organisers import organiser_problem_at_start

    check_venue_kind(row.regulations or {})
    problems: list[str] = []
    links = {
        link.number: link.user_id
        for link in session.scalars(
            select(EntryAccountRow).where(EntryAccountRow.tournament_id == row.id)
        )
        if session.get(EntryRow, (row.id, link.number)) is not None
    }
    users = {number: session.get(UserRow, uid) for number, uid in links.items()}
    flagged = sorted(n for n, user in users.items() if user is not None and user.flagged)
    if flagged:
        names = Message.joined(", ", [_entry(session, row.id, n) for n in flagged])
        problems.append(
            Message(
                (
                    "fair play: {names} — an account flagged for computer help cannot take part; "
                    "remove the entry before the start"
                ),
                names=names,
            )
        )
    organisers = organiser_problem_at_start(session, row.id)
    if organisers:
        problems.append(organisers)
    if venue_kind(row.regulations) == "otb":
        shortfall_of = _otb_shortfall(session, row)
        if shortfall_of:
            problems.append(shortfall_of)
    return problems


def _otb_shortfall(session: Session, row: TournamentRow) -> Message | None:
    """Why an over-the-board event lacks its :data:`OTB_MINIMUM` eligible registered
    players (None: it has them). The event is the tournament — or, for a group of a
    group stage + knockout, all its groups together (the players registered for the
    event), and for a quad all the quads of its event; the knockout of a group stage
    takes the groups' qualifiers and is not counted again."""
    from crosstable.service.stage_view import EVENT, STAGE, members

    details = row.regulations or {}
    event = str(details.get(EVENT) or "")
    if event and details.get(STAGE) == "knockout":
        return None
    rows = quads_of_event(session, row)  # (the quads of one event, counted together)
    if event and details.get(STAGE) == "group":
        rows = [r for r in members(session, event) if (r.regulations or {}).get(STAGE) == "group"]
        rows = rows or [row]
    eligible = 0
    missing: list[str] = []
    for member in rows:
        rules = rules_of(eligibility_of(session, member.id), member.regulations)
        links = {
            link.number: session.get(UserRow, link.user_id)
            for link in session.scalars(
                select(EntryAccountRow).where(EntryAccountRow.tournament_id == member.id)
            )
        }
        entries = session.scalars(
            select(EntryRow).where(EntryRow.tournament_id == member.id).order_by(EntryRow.number)
        )
        for entry in entries:
            named: str = Message("player {start} {name}", start=entry.number, name=entry.name)
            if len(rows) > 1:  # (the groups of one event: say whose entry it is)
                named = Message("{group}: {entry}", group=member.name, entry=named)
            user = links.get(entry.number)
            if user is None:
                missing.append(Message("{entry}: no account on the site", entry=named))
                continue
            reasons: list[str] = list(shortfall(rules, playing_record(session, user)))
            if user.flagged:
                reasons.append("flagged for computer help")
            if reasons:
                missing.append(
                    Message(
                        "{entry}: {reasons}", entry=named, reasons=Message.joined("; ", reasons)
                    )
                )
            else:
                eligible += 1
    if eligible >= OTB_MINIMUM:
        return None
    if not missing:
        return Message(
            (
                "an over-the-board event needs at least {least} eligible registered "
                "players to start; it has {count}"
            ),
            least=OTB_MINIMUM,
            count=eligible,
        )
    return Message(
        "an over-the-board event needs at least {least} eligible registered players "
        "to start; it has {count} — not eligible: {missing}",
        least=OTB_MINIMUM,
        count=eligible,
        missing=Message.joined(" | ", missing),
    )


def eligibility_of(session: Session, tournament_id: int) -> dict[str, Any]:
    """The tournament's eligibility rules as its organiser set them."""
    access = session.get(AccessRow, tournament_id)
    return dict(access.eligibility or {}) if access is not None else {}


def check_start(session: Session, row: TournamentRow) -> None:
    """The start's hook (service/play.py): RuleError with every reason at once."""
    problems = start_problems(session, row)
    if problems:
        raise RuleError(
            "the tournament cannot start: {problems}", problems=Message.joined("; ", problems)
        )


def _entry(session: Session, tournament_id: int, number: int) -> str:
    entry = session.get(EntryRow, (tournament_id, number))
    return (
        f"player {number}"
        if entry is None
        else Message("player {start} {name}", start=number, name=entry.name)
    )
