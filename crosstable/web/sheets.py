"""What a printed sheet shows, shared by the print pages (``templates/print_*.html``) and
the PDF downloads (:mod:`crosstable.web.pdf`), so the paper and the PDF say the same thing:
the tournament's details under its title (:func:`tournament_details`), the pairing lists'
boards and byes (:class:`Sheet`), the certificates (:class:`Winner`), the printed Swiss
table's cells, the bracket laid out for paper (:func:`bracket_sheet`) and a Scheveningen's
team grid (:func:`team_grid`). Nothing is computed here that the screens do not compute:
the results, points, tie-breaks, places and the bracket come from the services.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from crosstable.service.knockout.view import BracketMatch, BracketView
from crosstable.service.views import TournamentSettings
from crosstable.web.i18n import date_text, knockout_round, points_text, tiebreak_name
from crosstable.web.i18n import gettext as _
from crosstable.web.pairing_views import RoundCell
from crosstable.web.regulation_text import bracket_note
from crosstable.web.views import Crosstable, PlayerLine

# -- the tournament under its title -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Detail:
    """One line under a printed title: "Venue: Moscow"."""

    label: str
    value: str


def tournament_details(settings: TournamentSettings, tiebreaks: tuple[str, ...]) -> list[Detail]:
    """What a wall chart says about the tournament under its title: venue,
    dates, chief and deputy arbiters, organiser, time control and the tie-breaks in their
    order; only what the regulations give."""
    details = settings.regulations
    out: list[Detail] = []
    if details.venue:
        out.append(Detail(_("Venue"), details.venue))
    start, end = settings.start_date, settings.end_date
    if start or end:
        dates = [date_text(d) for d in (start, end) if d]
        out.append(Detail(_("Dates"), " – ".join(dict.fromkeys(dates))))
    if details.arbiter:
        out.append(Detail(_("Arbiter"), details.arbiter))
    if details.deputy_arbiter:
        out.append(Detail(_("Deputy arbiter"), details.deputy_arbiter))
    if details.organiser:
        out.append(Detail(_("Organiser"), details.organiser))
    if settings.time_control:
        out.append(Detail(_("Time control"), settings.time_control))
    if tiebreaks:
        order = "; ".join(f"{i}. {tiebreak_name(code)}" for i, code in enumerate(tiebreaks, 1))
        out.append(Detail(_("Tie-breaks"), order))
    return out


# -- what a printed sheet shows (shared with the print pages) -----------------------------


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a pairing list or a result slip."""

    board: int
    white: int | None
    white_name: str
    black: int | None
    black_name: str
    result: str = ""
    match: str = ""  # a knockout: "Semi-final · Match 5 · rapid 3"


@dataclass(frozen=True, slots=True)
class ByeLine:
    """A player without a game in a round, with the kind of bye."""

    start: int
    name: str
    kind: str  # "U" (pairing-allocated; a knockout's bracket bye), "H", "F", "Z", "free"
    label: str  # what it is called, in the reader's language


@dataclass(frozen=True, slots=True)
class Sheet:
    """One round's pairing list (and slips)."""

    round: int
    boards: tuple[Board, ...]
    byes: tuple[ByeLine, ...] = ()
    #: battle chess before the computer draws this round's colours: nobody has White yet,
    #: so the sheets say "colours drawn before the game" instead
    undrawn: bool = False

    @property
    def knockout(self) -> bool:
        return any(b.match for b in self.boards)


@dataclass(frozen=True, slots=True)
class Winner:
    """A certificate: the place ("1", "3–4"), the name, one more line (the points)."""

    place: str
    name: str
    detail: str = ""


#: the order byes are listed in on a sheet
BYE_ORDER = {"U": 0, "F": 1, "H": 2, "Z": 3, "free": 4}


def bye_label(kind: str, knockout: bool = False) -> str:
    """What a bye is called: ``U`` is the pairing-allocated bye of a Swiss and a player
    who goes on without a match in a knockout; ``free`` the free round of an odd round
    robin; ``""`` a round the player was not paired in (absent)."""
    if kind == "U" and knockout:
        return _("Bye (goes on without a match)")
    names = {
        "U": _("pairing-allocated bye"),
        "H": _("half-point bye"),
        "Z": _("zero-point bye"),
        "F": _("full-point bye"),
        "free": _("free round"),
        "": _("not paired"),
    }
    return names.get(kind, kind)


# -- the alphabetical pairing list ---------------------------------------------


@dataclass(frozen=True, slots=True)
class NameLine:
    """One player of a round's alphabetical pairing list: where they play (board and
    colour) and whom, or the bye they have (``bye``: its label; ``board`` None)."""

    start: int | None
    name: str
    board: int | None = None
    colour: str = ""  # "w" or "b"
    opponent: int | None = None
    opponent_name: str = ""
    bye: str = ""


def _letter(char: str) -> tuple[int, int]:
    # ё sorts right after е (the Russian alphabet), not after я as its code point would
    if char == "ё":
        return (ord("е"), 1)
    return (ord(char), 0)


def name_key(name: str) -> tuple[tuple[int, int], ...]:
    """The order of an alphabetical list: letter by letter, case and accents of Latin
    letters aside, with ё right after е.

    >>> sorted(["Жуков", "Ёлкина", "Ефимов", "Елкин"], key=name_key)
    ['Елкин', 'Ефимов', 'Ёлкина', 'Жуков']
    """
    folded = name.casefold()
    plain = "".join(
        c
        for c in unicodedata.normalize("NFD", folded.replace("ё", "\0"))
        if not unicodedata.combining(c)
    ).replace("\0", "ё")
    return tuple(_letter(c) for c in plain)


def by_name(sheet: Sheet) -> tuple[NameLine, ...]:
    """The round's pairing list by player name: each player once (a player on two
    boards of a round, which no system here makes, would be listed on each), with the
    board, the colour and the opponent; a player without a game with their bye."""
    lines: list[NameLine] = []
    for b in sheet.boards:
        lines.append(NameLine(b.white, b.white_name, b.board, "w", b.black, b.black_name))
        lines.append(NameLine(b.black, b.black_name, b.board, "b", b.white, b.white_name))
    lines.extend(NameLine(bye.start, bye.name, bye=bye.label) for bye in sheet.byes)
    return tuple(sorted(lines, key=lambda n: (name_key(n.name), n.name, n.start or 0)))


def colour_name(colour: str, undrawn: bool = False) -> str:
    """ "White" / "Black" in the reader's language (a name line's colour); before a
    battle-chess round's colours are drawn, that they are drawn before the game."""
    if undrawn and colour:
        return undrawn_text()
    return _("White") if colour == "w" else _("Black") if colour == "b" else ""


def undrawn_text() -> str:
    """What a battle-chess game says before its colours are drawn."""
    return _("colours drawn before the game")


# -- the Swiss table ------------------------------------------------------------------------


#: the colour's marks of a Swiss table's round: White hollow, Black filled
WHITE_MARK, BLACK_MARK = "○", "●"
MARKS = (WHITE_MARK, BLACK_MARK)


def swiss_cell_text(cell: RoundCell) -> str:
    """A round of the printed Swiss table: ``5○1`` (against number 5 with White, won),
    ``3●½``, ``6○+`` (a forfeit win); a bye by its kind (``bye`` for the pairing-allocated
    bye, ``H``, ``F``, ``Z``); ``–`` not paired. The colour is a mark, the same in every
    language: a letter next to a number can read as a digit (Russian "б" as 6);
    the PDF draws the mark as a circle (:data:`MARKS`)."""
    if cell.opponent is not None:
        colour = WHITE_MARK if cell.colour == "w" else BLACK_MARK
        result = "" if cell.text == "·" else cell.text
        return f"{cell.opponent}{colour}{result}"
    if cell.bye:
        return _("bye") if cell.bye == "U" else cell.bye
    return "–"


def swiss_legend() -> list[str]:
    """The notes under a printed Swiss table: how to read a round's cell, and the byes."""
    byes = "; ".join(
        f"{code} — {bye_label(kind)}"
        for code, kind in ((_("bye"), "U"), ("H", "H"), ("F", "F"), ("Z", "Z"), ("–", ""))
    )
    return [
        _(
            "A round's cell: the opponent's starting number, the colour (○ White, ● Black) "
            "and the result (1, ½, 0; + and − for forfeits)."
        ),
        byes,
    ]


# -- the bracket ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BracketLine:
    """One line of a match box: a player (or who will come), the score, whether they won."""

    start: int | None
    name: str
    score: str = ""
    winner: bool = False
    loser: bool = False


@dataclass(frozen=True, slots=True)
class GameLine:
    label: str  # "game 1", "rapid 3"
    white: int | None
    black: int | None
    result: str  # "1-0", "…"
    where: str  # "round 3, board 2" (or "")


@dataclass(frozen=True, slots=True)
class BracketBox:
    """A match (or a first-round bye) at its place in the bracket."""

    slot: int
    round: int
    index: int  # top to bottom within its round, from 0
    lines: tuple[BracketLine, ...]  # two for a match, one for a bye
    stages: str = ""  # "games 1–1; rapid 2–0" when tie-break games were played
    games: tuple[GameLine, ...] = ()
    how: str = ""  # "Goes on: … — rapid tie-break"
    bye: bool = False
    third_place: bool = False


@dataclass(frozen=True)
class BracketSheet:
    size: int
    titles: tuple[str, ...]  # the rounds' names
    columns: tuple[tuple[BracketBox, ...], ...]  # round by round, top to bottom
    third_place: BracketBox | None
    champion: str
    places: tuple[tuple[str, int, str], ...]  # ("3–4", start, name)
    note: str
    problem: str = ""

    @property
    def boxes(self) -> list[BracketBox]:
        """Every match, round by round (the match for third place last)."""
        out = [box for column in self.columns for box in column if not box.bye]
        if self.third_place is not None:
            out.append(self.third_place)
        return out


def round_title(name: str, third_place: bool = False) -> str:
    """A knockout round's name in the reader's language."""
    if third_place:
        return _("Match for third place")
    return knockout_round(name)


def game_kind(kind: str) -> str:
    kinds = {
        "regular": _("game"),
        "rapid": _("rapid"),
        "blitz": _("blitz"),
        "armageddon": _("armageddon"),
        "sudden-death": _("sudden death"),
    }
    return kinds.get(kind, kind)


def _decided(how: str | None) -> str:
    names = {
        "score": _("on score"),
        "rapid": _("rapid tie-break"),
        "blitz": _("blitz tie-break"),
        "armageddon": _("armageddon"),
        "sudden-death": _("sudden death"),
        "lower-rated": _("the lower-rated player goes on"),
        "lots": _("by lot"),
    }
    return names.get(how or "", how or "")


def _score(value: Fraction | None) -> str:
    return "" if value is None else points_text(value)


def first_slot(size: int, rnd: int) -> int:
    """The number of round ``rnd``'s first slot in a bracket of ``size`` lines.

    >>> [first_slot(8, r) for r in (1, 2, 3)]
    [1, 5, 7]
    """
    return size - (size >> (rnd - 1)) + 1


def _box(match: BracketMatch, rnd: int, size: int) -> BracketBox:
    third = match.third_place
    feeders = match.feeders or ()
    winner = match.winner
    score = match.score
    lines = []
    for index, person in enumerate(match.players):
        if person is None:
            if feeders:
                waiting = (
                    _("loser of match %(s)s", s=feeders[index])
                    if third
                    else _("winner of match %(s)s", s=feeders[index])
                )
            else:
                waiting = "—"
            lines.append(BracketLine(None, waiting))
            continue
        start = person.start
        lines.append(
            BracketLine(
                start,
                person.name,
                _score(score[index]) if score is not None else "",
                winner == start,
                winner is not None and winner != start,
            )
        )
    kinds: list[str] = []
    for game in match.games:
        if game.kind not in kinds:
            kinds.append(game.kind)
    stage_scores = match.stage_scores
    stages = ""
    if len(stage_scores) > 1:
        stage_names = {"regular": _("games")}
        stages = "; ".join(
            f"{stage_names.get(kind, game_kind(kind))} {_score(a)}–{_score(b)}"
            for kind, (a, b) in zip(kinds, stage_scores, strict=False)
        )
    games = tuple(
        GameLine(
            f"{game_kind(g.kind)} {g.game}",
            g.white,
            g.black,
            g.result or "…",
            f"{_('round')} {g.round}, {_('board')} {g.board}" if g.round else "",
        )
        for g in match.games
    )
    how = ""
    if winner is not None:
        name = next((line.name for line in lines if line.start == winner), str(winner))
        how = f"{_('Goes on')}: {name} — {_decided(match.decided_by)}"
    slot = match.slot
    index = 0 if third else slot - first_slot(size, rnd)
    return BracketBox(slot, rnd, index, tuple(lines), stages, games, how, False, third)


def bracket_sheet(bracket: BracketView) -> BracketSheet:
    """The service's bracket view (``bracket``) laid out for paper."""
    size = bracket.size
    titles: list[str] = []
    columns: list[tuple[BracketBox, ...]] = []
    third: BracketBox | None = None
    for r in bracket.rounds:
        rnd = r.round
        titles.append(round_title(r.name))
        boxes: list[BracketBox] = []
        for match in r.matches:
            box = _box(match, rnd, size)
            if box.third_place:
                third = box
            else:
                boxes.append(box)
        for bye in r.byes:
            slot = bye.slot
            line = BracketLine(bye.player.start, bye.player.name, winner=True)
            boxes.append(BracketBox(slot, rnd, slot - first_slot(size, rnd), (line,), bye=True))
        columns.append(tuple(sorted(boxes, key=lambda b: b.index)))
    note = bracket_note(bracket)  # (the codes in words, as the regulations page says them)
    places = tuple(
        (p.place.replace("-", "–") if p.place else "–", p.player.start, p.player.name)
        for p in bracket.placings
    )
    return BracketSheet(
        size=size,
        titles=tuple(titles),
        columns=tuple(columns),
        third_place=third,
        champion="" if bracket.champion is None else bracket.champion.name,
        places=places,
        note=note,
        problem=bracket.problem or "",
    )


# -- the Scheveningen team grid ---------------------------------------------------------------


@dataclass(frozen=True)
class TeamGrid:
    """Team A's players as rows, team B's as columns; each crossing is the row player's
    result against the column player (both games in a double Scheveningen)."""

    teams: tuple[str, str]
    rows: tuple[PlayerLine, ...]
    columns: tuple[PlayerLine, ...]
    cells: tuple[tuple[str, ...], ...]
    scores: tuple[Fraction, Fraction]


def team_grid(table: Crosstable, team_of: Mapping[int, str]) -> TeamGrid | None:
    """The grid of a Scheveningen (``team_of``: starting number → team); None unless
    the players make two teams (before the drawing of lots, say)."""
    teams: dict[str, list[PlayerLine]] = {}
    for line in table.lines:
        team = team_of.get(line.start)
        if not team:
            return None
        teams.setdefault(team, []).append(line)
    if len(teams) != 2:
        return None
    (name_a, rows), (name_b, columns) = sorted(
        teams.items(), key=lambda item: min(line.start for line in item[1])
    )
    cells = tuple(
        tuple(" ".join(c.text for c in row.cells.get(col.start, ())) for col in columns)
        for row in rows
    )
    scores = (
        sum((r.points for r in rows), Fraction(0)),
        sum((c.points for c in columns), Fraction(0)),
    )
    return TeamGrid((name_a, name_b), tuple(rows), tuple(columns), cells, scores)
