"""What the pages of the systems paired round by round show: the Swiss table, byes, the bracket.

A Swiss event is not a grid of everyone against everyone: its table (R-SW) has
one row per player in ranking order and one column per round — the opponent's
starting number, the colour and the result (``5w1``: White against number 5,
won) — then points, the tie-breaks and the place. A knockout is shown as its
bracket (rounds as columns). Everything here is read from the services; the
rules stay there.

>>> cell = RoundCell(3, opponent=5, colour="w", text="1")
>>> cell.label, cell.css
('5w1', 'r1')
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from crosstable.core.model import ByeKind, Colour, Entry, Outcome, Tournament
from crosstable.core.standings.crosstable import CELL_SYMBOLS
from crosstable.service import Service, live
from crosstable.service.knockout.view import BracketView
from crosstable.service.queries import ByeRequest, TournamentView
from crosstable.service.read_views import JsonObject
from crosstable.web.contexts import TemplateContext

SWISS = "dutch"
KNOCKOUT = "knockout"
SCHEVENINGEN = "scheveningen"

#: a round's result as a Swiss table writes it (byes keep their TRF letter)
_CSS = {"1": "r1", "½": "rh", "0": "r0", "+": "rp", "−": "rm"}
#: what a bye is called on the pages (TRF letters: U pairing-allocated, H, F, Z)
BYE_KINDS = ("H", "Z", "F")


def system_of(view: TournamentView) -> str:
    return view.settings.system


def is_swiss(view: TournamentView) -> bool:
    return system_of(view) == SWISS


def is_knockout(view: TournamentView) -> bool:
    return system_of(view) == KNOCKOUT


@dataclass(frozen=True, slots=True)
class RoundCell:
    """One player's round: an opponent with a colour and a result, or a bye, or nothing."""

    round: int
    opponent: int | None = None
    colour: str = ""  # "w", "b" or ""
    text: str = ""  # "1", "½", "0", "+", "−"; a bye's letter "U", "H", "F", "Z"; "·" pending
    bye: str = ""  # "U", "H", "F", "Z" for a bye; "" otherwise

    @property
    def label(self) -> str:
        if self.opponent is None:
            return self.text
        return f"{self.opponent}{self.colour}{self.text if self.text != '·' else ''}"

    @property
    def css(self) -> str:
        if self.bye in ("U", "F"):
            return "r1 bye"
        if self.bye == "H":
            return "rh bye"
        if self.bye == "Z":
            return "r0 bye"
        return _CSS.get(self.text, "")


@dataclass(frozen=True, slots=True)
class SwissLine:
    start: int
    name: str
    rating: int | None
    title: str
    cells: tuple[RoundCell, ...]
    points: Fraction
    values: tuple[Any, ...]
    rank: int | None
    withdrawn: bool = False
    excluded: bool = False
    place: str = ""  # "2–7": a shared place as the range (views.place_texts)
    expelled: bool = False  # out of the ranking, shown apart (FIDE checklist Q197)


@dataclass(frozen=True)
class SwissTable:
    tournament_id: int
    revision: int
    rounds: tuple[int, ...]  # round numbers paired so far
    planned: int | None
    tiebreaks: tuple[str, ...]
    lines: tuple[SwissLine, ...]  # in ranking order
    provisional: bool
    final: bool
    notes: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return len(self.lines)


def _cell(rnd: int, entry: Entry, bye: ByeKind | None) -> RoundCell:
    if entry.opponent is not None:
        text = "·" if entry.outcome is Outcome.PENDING else CELL_SYMBOLS.get(entry.outcome, "")
        colour = "w" if entry.colour is Colour.WHITE else "b"
        return RoundCell(rnd, entry.opponent, colour, text)
    if bye is not None and bye is not ByeKind.FREE:
        return RoundCell(rnd, text=bye.value, bye=bye.value)
    return RoundCell(rnd, text="–")  # not paired: absent


def swiss_table(view: TournamentView, tournament: Tournament, table: Any) -> SwissTable:
    """The Swiss table of ``tournament`` with the standings of ``table`` (views.Crosstable)."""
    tournament = live.paired_rounds(tournament)  # not the rounds holding only byes asked for ahead
    byes_by_round = [{b.player: b.kind for b in rnd.byes} for rnd in tournament.rounds]
    numbers = tuple(r.number for r in tournament.rounds)
    by_start = {line.start: line for line in table.lines}
    lines: list[SwissLine] = []
    for start in table.ranked:
        line = by_start[start]
        entries = tournament.entries(start)
        cells = tuple(
            _cell(rnd, entries[i], byes_by_round[i].get(start)) for i, rnd in enumerate(numbers)
        )
        lines.append(
            SwissLine(
                start=start,
                name=line.name,
                rating=line.rating,
                title=line.title,
                cells=cells,
                points=line.points,
                values=line.values,
                rank=line.rank,
                place=line.place,
                withdrawn=line.withdrawn,
                excluded=line.excluded,
                expelled=start in tournament.expelled,
            )
        )
    return SwissTable(
        tournament_id=view.id,
        revision=view.revision,
        rounds=numbers,
        planned=tournament.settings.rounds,
        tiebreaks=tuple(table.tiebreaks),
        lines=tuple(lines),
        provisional=bool(table.provisional),
        final=bool(table.final),
        notes=tuple(table.notes),
    )


class SwissCache:
    """The Swiss table of each tournament at its latest revision (one build for everyone),
    kept per service: a tournament number and a revision name a table only in one database."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._items: weakref.WeakKeyDictionary[Service, OrderedDict[int, SwissTable]] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()

    def get(self, service: Service, view: TournamentView, table: Any) -> SwissTable:
        with self._lock:
            items = self._items.get(service)
            hit = None if items is None else items.get(view.id)
            if hit is not None and hit.revision == view.revision:
                return hit
        state = service.table_state(view.id)  # (the service's kept state: no reload)
        if state.revision != view.revision:  # changed in between: use the newer state
            view, table = state.view, state.table
        built = swiss_table(view, state.tournament, table)
        with self._lock:
            items = self._items.setdefault(service, OrderedDict())
            items[view.id] = built
            items.move_to_end(view.id)
            while len(items) > self.size:
                items.popitem(last=False)
        return built


SWISS_TABLES = SwissCache()


def byes(service: Service, tournament_id: int) -> list[ByeRequest]:
    """Every bye of the tournament (paired rounds and requests for later rounds), by round."""
    return service.byes(tournament_id)


def teams(service: Service, tournament_id: int) -> dict[int, str]:
    """Registration number → team (Scheveningen; empty elsewhere)."""
    return service.teams(tournament_id)


def live_fragment(site: Any, view: TournamentView, table: Any) -> tuple[str, TemplateContext]:
    """The template of the live fragment of this tournament's main page, and what it needs.

    A round robin (or Scheveningen) shows the crosstable grid; a Swiss its table by
    rounds; a knockout its bracket.
    """
    if is_swiss(view):
        return "_swiss_table.html", {"swiss": SWISS_TABLES.get(site.service, view, table)}
    if is_knockout(view):
        return "_bracket.html", {"bracket": bracket_of(site.service, view)}
    return "_crosstable.html", {}


def bracket_of(service: Service, view: TournamentView) -> JsonObject | None:
    """The service's bracket view, its JSON as the API answers it, which the bracket's
    templates and paper read by key (None before the start: there is no bracket yet)."""
    shown = bracket_shown(service, view)
    return None if shown is None else shown.as_json()


def bracket_shown(service: Service, view: TournamentView) -> BracketView | None:
    """The service's bracket view, typed, for what the web reads by field (the paper
    bracket, the prize-winners); None before the start."""
    if view.status == "registration":
        return None
    return service.bracket(view.id)


def paired_rounds(view: TournamentView) -> int:
    """The last round with a published pairing (a round that only holds byes asked for in
    advance is not paired yet)."""
    return max((g.round for g in view.games), default=0)


def planned_rounds(service: Service, tournament_id: int) -> int | None:
    """The rounds of a Swiss, fixed at the start (None before it: ⌈log₂ N⌉ unless set)."""
    return service.planned_rounds(tournament_id)


@dataclass(frozen=True, slots=True)
class SwissRound:
    """What the round view of a Swiss adds: the byes with their kinds, the planned rounds,
    the round the organiser can pair now (None: none), whether every result is in."""

    round_byes: tuple[ByeRequest, ...]
    planned: int | None
    next_round: int | None
    all_in: bool

    def context(self) -> dict[str, object]:
        """The names the round page's template reads."""
        return {
            "free": [],
            "round_byes": list(self.round_byes),
            "planned": self.planned,
            "next_round": self.next_round,
            "all_in": self.all_in,
        }


def swiss_round(service: Service, view: TournamentView, rnd: int) -> SwissRound:
    """What the round view of a Swiss adds, and whether the organiser can pair the next
    round now."""
    games = [g for g in view.games if g.round == rnd]
    paired = paired_rounds(view)
    planned = planned_rounds(service, view.id)
    can_pair = view.status == "running" and rnd == paired and (planned is None or paired < planned)
    return SwissRound(
        round_byes=tuple(b for b in byes(service, view.id) if b.round == rnd),
        planned=planned,
        next_round=paired + 1 if can_pair else None,
        all_in=all(g.result is not None for g in games),
    )


@dataclass(frozen=True, slots=True)
class KnockoutBoard:
    """Which match and game of the bracket one board of a round is: the players as the
    board has them (White first) and the match score in that order."""

    round_name: str
    slot: int
    game: int
    kind: str
    players: tuple[JsonObject | None, ...]
    score: tuple[Any, Any] | None


@dataclass(frozen=True, slots=True)
class KnockoutRound:
    """What the round view of a knockout adds: the bracket (its JSON), each board's match
    and game, the byes of round 1, the champion once decided."""

    ko: JsonObject | None
    ko_boards: dict[int, KnockoutBoard]
    ko_byes: tuple[JsonObject, ...]
    champion: JsonObject | None
    all_in: bool
    last_round: bool

    @property
    def size(self) -> int:
        """The bracket's size (0 before the start)."""
        return int(self.ko["size"]) if self.ko else 0

    def context(self) -> dict[str, object]:
        """The names the round page's template reads."""
        return {
            "free": [],
            "ko": self.ko,
            "ko_boards": self.ko_boards,
            "ko_byes": list(self.ko_byes),
            "champion": self.champion,
            "all_in": self.all_in,
            "last_round": self.last_round,
        }


def knockout_round(service: Service, view: TournamentView, rnd: int) -> KnockoutRound:
    """What the round view of a knockout adds: which match and game each board is."""
    bracket = bracket_of(service, view)
    boards: dict[int, KnockoutBoard] = {}
    byes_here: list[JsonObject] = []
    if bracket is not None:
        for r in bracket["rounds"]:
            for match in r["matches"]:
                for game in match["games"]:
                    if game.get("round") == rnd and game.get("board") is not None:
                        players, score = _by_colour(match, game)
                        boards[int(game["board"])] = KnockoutBoard(
                            round_name="third-place" if match.get("third_place") else r["name"],
                            slot=match["slot"],
                            game=game["game"],
                            kind=game["kind"],
                            players=players,
                            score=score,
                        )
            if rnd == 1:
                byes_here.extend(r.get("byes", []))
    games = [g for g in view.games if g.round == rnd]
    return KnockoutRound(
        ko=bracket,
        ko_boards=boards,
        ko_byes=tuple(byes_here),
        champion=None if bracket is None else bracket.get("champion"),
        all_in=all(g.result is not None for g in games),
        last_round=rnd == max((g.round for g in view.games), default=0),
    )


def _by_colour(
    match: JsonObject, game: JsonObject
) -> tuple[tuple[JsonObject | None, ...], tuple[Any, Any] | None]:
    """A board's players as the board has them, White first, and the match score in that
    order (the bracket lists a match top, bottom)."""
    players, score = list(match["players"]), match.get("score")
    top = players[0]
    if top is not None and top.get("start") == game.get("black"):
        players.reverse()
        score = None if score is None else [score[1], score[0]]
    return tuple(players), None if score is None else (score[0], score[1])


def key_used(service: Service, tournament_id: int, key: str | None) -> bool:
    """True when a change with this idempotency key was made (a repeated request)."""
    return service.key_used(tournament_id, key)
