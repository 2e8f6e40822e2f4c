"""Eligibility from what the site knows.

A player's *playing record* is counted from the site's own tournaments:

* **games**: the games of the entries linked to the account that were played over
  the board — a win, a draw or a loss at the board; forfeits, byes, games decided
  by a no-show or by the battle-chess set-up time are not games played (the same
  reading as the portal's "played a game", :func:`played_over_the_board`);
* **online tournaments**: finished tournaments of the online kind the account
  played in (an entry linked to it). A tournament is *online* or *over the board*
  by its regulations' ``venue_kind`` (``online`` or ``otb``; default ``online``).

The administrator's manual adjustment (games or tournaments played elsewhere) is
kept apart (``users.rated_games``, ``users.online_tournaments``) and added:
"23 = 18 on the site + 5 adjusted".

An over-the-board event needs at least :data:`OTB_MINIMUM` registered players who
are eligible (seed 002: at least 20 games and one online tournament; the
tournament's own rules when it has some) before it can start
(:func:`crosstable.service.start_rules.start_problems`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.service.details import Details
from crosstable.store.accounts_models import AccessRow, EntryAccountRow, UserRow
from crosstable.store.models import EntryRow, GameRow, TournamentRow

#: the regulations' detail that says where the games are played
VENUE_KIND = "venue_kind"
VENUE_KINDS = ("online", "otb")
#: a tournament's eligibility rules as its organiser stored them (``min_rated_games``,
#: ``min_online_tournaments``: whole numbers, read by :func:`rules_of`)
Eligibility = Mapping[str, object]
#: an over-the-board event starts with at least this many eligible players
OTB_MINIMUM = 10
#: the details that make the quads of one event one event: the event's key, the same
#: in each quad, and the quad's number (1 the strongest)
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


#: seed 002's rules: the rules an over-the-board event applies when it sets none
OTB_RULES: dict[str, int] = {"min_rated_games": 20, "min_online_tournaments": 1}
#: results at the board (each side's TRF code): 1, = and 0
_AT_THE_BOARD = frozenset("10=")
_NOT_PLAYED = frozenset({"no-show", "setup-timeout"})


def venue_kind(details: Details | None) -> str:
    """``online`` or ``otb`` (an unknown value reads as the default, online)."""
    value = str((details or {}).get(VENUE_KIND, "online")).strip().lower()
    return value if value in VENUE_KINDS else "online"


def check_venue_kind(details: Details) -> None:
    """Refuse a ``venue_kind`` that is neither online nor otb."""
    if VENUE_KIND in details and str(details[VENUE_KIND]).strip().lower() not in VENUE_KINDS:
        raise RuleError(
            "venue kind is online or otb (over the board), not {value}",
            value=repr(str(details[VENUE_KIND])[:40]),
        )


def check_venue_kind_change(current: Details | None, new: Details | None, *, started: bool) -> None:
    """Refuse a change of the kind of event once the tournament has started: the start
    checked the players against it, and an over-the-board event's winner
    becomes a master."""
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

    def as_dict(self) -> dict[str, dict[str, int]]:
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


def rules_of(eligibility: Eligibility | None, details: Details | None) -> dict[str, int]:
    """The tournament's counted rules: its own, or seed 002's for an over-the-board event."""
    rules = {
        key: _whole((eligibility or {}).get(key))
        for key in ("min_rated_games", "min_online_tournaments")
    }
    if venue_kind(details) == "otb":
        for key, least in OTB_RULES.items():
            rules[key] = max(rules[key], least)
    return {key: value for key, value in rules.items() if value}


def _whole(value: object) -> int:
    """A stored rule's number (nothing: 0), as ``int(value or 0)`` reads it."""
    if isinstance(value, int | float):
        return int(value)
    return int(str(value or 0))


def eligibility_problems(rules: Mapping[str, int], record: PlayingRecord) -> list[Message]:
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
    rules: Mapping[str, int],
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


def shortfall(rules: Mapping[str, int], record: PlayingRecord) -> list[Message]:
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


def eligibility_of(session: Session, tournament_id: int) -> dict[str, object]:
    """The tournament's eligibility rules as its organiser set them."""
    access = session.get(AccessRow, tournament_id)
    return dict(access.eligibility or {}) if access is not None else {}
