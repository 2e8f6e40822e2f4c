"""PDF downloads (R-OR-5): the crosstable / wall chart, pairing lists, result slips and
winners' certificates, with fpdf2 and the Open Sans font shipped by ``ttf-opensans``
(Cyrillic included, so Russian names print; no system packages needed).

Each system prints what its screen shows:

* a round robin: seed 000's grid, one column per opponent (:func:`crosstable_pdf`);
* a Swiss: its table by rounds — place, name, number, rating, each round as the
  opponent's number, the colour and the result, or the bye's kind; points and
  tie-breaks (:func:`swiss_pdf`, from :func:`crosstable.web.pairing_views.swiss_table`);
* a knockout: its bracket, the champion, the places and every match's games
  (:func:`bracket_pdf`, from the service's ``bracket_view`` through :func:`bracket_sheet`);
* a Scheveningen: the team grid, team A's players as rows and team B's as columns
  (:func:`teams_pdf`, from :func:`team_grid`).

The small values below (:class:`Sheet`, :class:`BracketSheet`, :class:`TeamGrid`…)
are shared with the print pages (``templates/print_*.html``), so the paper and the
PDF say the same thing. Nothing is computed here that the screens do not compute:
the results, points, tie-breaks, places and the bracket come from the services.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from fpdf import FPDF

from crosstable.web.i18n import gettext as _
from crosstable.web.i18n import knockout_round, number_text, points_text, tiebreak_head
from crosstable.web.pairing_views import RoundCell, SwissTable
from crosstable.web.views import Crosstable, PlayerLine

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


# -- the Swiss table ------------------------------------------------------------------------


def swiss_cell_text(cell: RoundCell) -> str:
    """A round of the printed Swiss table: ``5w1`` (against number 5 with White, won),
    ``3b½``, ``6w+`` (a forfeit win); a bye by its kind (``bye`` for the pairing-allocated
    bye, ``H``, ``F``, ``Z``); ``–`` not paired. The colour letters are translated."""
    if cell.opponent is not None:
        colour = _("w") if cell.colour == "w" else _("b")
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
            "A round's cell: the opponent's starting number, the colour (w White, b Black) "
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


def _score(value: Any) -> str:
    return "" if value is None else points_text(Fraction(str(value)))


def first_slot(size: int, rnd: int) -> int:
    """The number of round ``rnd``'s first slot in a bracket of ``size`` lines.

    >>> [first_slot(8, r) for r in (1, 2, 3)]
    [1, 5, 7]
    """
    return size - (size >> (rnd - 1)) + 1


def _box(match: Mapping[str, Any], rnd: int, size: int) -> BracketBox:
    third = bool(match.get("third_place"))
    feeders = match.get("from") or []
    winner = match.get("winner")
    score = match.get("score")
    lines = []
    for index, person in enumerate(match["players"]):
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
        start = int(person["start"])
        lines.append(
            BracketLine(
                start,
                str(person["name"]),
                _score(score[index]) if score is not None else "",
                winner == start,
                winner is not None and winner != start,
            )
        )
    kinds: list[str] = []
    for game in match.get("games", []):
        if game["kind"] not in kinds:
            kinds.append(game["kind"])
    stage_scores = match.get("stage_scores") or []
    stages = ""
    if len(stage_scores) > 1:
        stage_names = {"regular": _("games")}
        stages = "; ".join(
            f"{stage_names.get(kind, game_kind(kind))} {_score(a)}–{_score(b)}"
            for kind, (a, b) in zip(kinds, stage_scores, strict=False)
        )
    games = tuple(
        GameLine(
            f"{game_kind(g['kind'])} {g['game']}",
            g.get("white"),
            g.get("black"),
            g.get("result") or "…",
            f"{_('round')} {g['round']}, {_('board')} {g['board']}" if g.get("round") else "",
        )
        for g in match.get("games", [])
    )
    how = ""
    if winner is not None:
        name = next((line.name for line in lines if line.start == winner), str(winner))
        how = f"{_('Goes on')}: {name} — {_decided(match.get('decided_by'))}"
    slot = int(match["slot"])
    index = 0 if third else slot - first_slot(size, rnd)
    return BracketBox(slot, rnd, index, tuple(lines), stages, games, how, False, third)


def bracket_sheet(bracket: Mapping[str, Any]) -> BracketSheet:
    """The service's bracket view (``bracket_view``) laid out for paper."""
    size = int(bracket["size"])
    titles: list[str] = []
    columns: list[tuple[BracketBox, ...]] = []
    third: BracketBox | None = None
    for r in bracket["rounds"]:
        rnd = int(r["round"])
        titles.append(round_title(str(r["name"])))
        boxes: list[BracketBox] = []
        for match in r["matches"]:
            box = _box(match, rnd, size)
            if box.third_place:
                third = box
            else:
                boxes.append(box)
        for bye in r.get("byes", []):
            slot = int(bye["slot"])
            line = BracketLine(int(bye["start"]), str(bye.get("name", "")), winner=True)
            boxes.append(BracketBox(slot, rnd, slot - first_slot(size, rnd), (line,), bye=True))
        columns.append(tuple(sorted(boxes, key=lambda b: b.index)))
    champion = bracket.get("champion") or {}
    orders = {"seeded": _("seeded"), "random": _("random order")}
    order = str(bracket.get("order", ""))
    note = (
        f"{_('Match')}: {bracket.get('format', '')} · {_('On a tie')}: "
        f"{bracket.get('tie_rule', '')} · {_('Bracket')}: {orders.get(order, order)}"
    )
    if order == "random" and bracket.get("lots_seed") is not None:
        note += f" ({_('seed')} {bracket['lots_seed']})"
    places = tuple(
        (str(p["place"]).replace("-", "–") if p.get("place") else "–", int(p["start"]), p["name"])
        for p in bracket.get("placings", [])
    )
    return BracketSheet(
        size=size,
        titles=tuple(titles),
        columns=tuple(columns),
        third_place=third,
        champion=str(champion.get("name", "")),
        places=places,
        note=note,
        problem=str(bracket.get("problem") or ""),
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


# -- the document ------------------------------------------------------------------------------


def _font_dir() -> Path:
    import ttf_opensans  # type: ignore[import-untyped]

    return Path(ttf_opensans.__file__).parent / "ttf"


class _Document(FPDF):
    def __init__(self, orientation: str = "P", title: str = "") -> None:
        super().__init__(orientation=orientation, unit="mm", format="A4")
        fonts = _font_dir()
        self.add_font("Sans", "", str(fonts / "OpenSans-Regular.ttf"))
        self.add_font("Sans", "B", str(fonts / "OpenSans-Bold.ttf"))
        self.set_title(title)
        self.set_creator("crosstable")
        self.set_auto_page_break(auto=True, margin=12)
        self.set_margins(10, 10, 10)
        self.footer_text = title

    def footer(self) -> None:
        self.set_y(-9)
        self.set_font("Sans", "", 7)
        self.set_text_color(120)
        self.cell(0, 4, f"{self.footer_text} · {self.page_no()}", align="C")
        self.set_text_color(0)

    def heading(self, text: str, size: int = 14) -> None:
        self.set_font("Sans", "B", size)
        self.multi_cell(0, size * 0.5, text)
        self.ln(2)

    def note(self, text: str, size: int = 8) -> None:
        self.set_font("Sans", "", size)
        self.multi_cell(0, size * 0.5, text)
        self.ln(1)

    def fit(self, text: str, width: float) -> str:
        """``text`` cut (with …) to fit a cell ``width`` wide in the current font."""
        room = width - 2 * self.c_margin
        if self.get_string_width(text) <= room:
            return text
        while text and self.get_string_width(text + "…") > room:
            text = text[:-1]
        return text + "…"

    def grid(
        self,
        heads: Sequence[str],
        widths: Sequence[float],
        rows: Sequence[Sequence[str]],
        *,
        size: float = 8,
        height: float = 6,
        left: tuple[int, ...] = (1,),
        shade: Callable[[int, int], bool] | None = None,
    ) -> None:
        """A table with its header repeated on every page it runs over."""

        def header() -> None:
            self.set_font("Sans", "B", size)
            for head, w in zip(heads, widths, strict=True):
                self.cell(w, height, self.fit(head, w), border=1, align="C")
            self.ln()
            self.set_font("Sans", "", size)

        header()
        for i, row in enumerate(rows):
            if self.will_page_break(height):
                self.add_page()
                header()
            for j, (value, w) in enumerate(zip(row, widths, strict=True)):
                fill = shade is not None and shade(i, j)
                if fill:
                    self.set_fill_color(200)
                align = "L" if j in left else "C"
                self.cell(w, height, self.fit(value, w), border=1, align=align, fill=fill)
            self.ln()


def _bytes(pdf: FPDF) -> bytes:
    return bytes(pdf.output())


def _number(value: Any, locale: str) -> str:
    return "" if value is None else number_text(value, locale)


def _provisional(pdf: _Document, provisional: bool, final: bool) -> None:
    if final:
        pdf.note(_("Final standings."))
    elif provisional:
        pdf.note(_("Provisional: tie-breaks change until the last game ends."))


# -- the crosstable, by system ------------------------------------------------------------------


def crosstable_pdf(table: Crosstable, title: str, locale: str) -> bytes:
    """Seed 000's table on A4 landscape: №, name, rating, a column per opponent, points,
    tie-breaks, place (a round robin)."""
    pdf = _Document("L", title)
    pdf.add_page()
    pdf.heading(title)
    _provisional(pdf, table.provisional, table.final)
    n = table.size
    width = pdf.w - 20
    fixed = 8 + 12 + 12 + 10 * len(table.tiebreaks) + 10
    cell = max(5.0, min(9.0, (width - fixed - 40) / max(n, 1)))
    name_w = min(90.0, max(30.0, width - fixed - cell * n))
    heads = ["№", _("Player"), _("Rating"), *[str(i) for i in range(1, n + 1)], _("Pts")]
    widths = [8, name_w, 12, *([cell] * n), 12]
    heads += [*(tiebreak_head(code) for code in table.tiebreaks), _("Place")]
    widths += [10] * len(table.tiebreaks) + [10]
    rows: list[list[str]] = []
    for line in table.lines:
        values: list[str] = [str(line.start), line.name, str(line.rating or "")]
        for opponent in range(1, n + 1):
            if opponent == line.start:
                values.append("×")
            else:
                values.append(" ".join(c.text for c in line.cells.get(opponent, ())))
        values.append(points_text(line.points, locale))
        values.extend(_number(value, locale) for value in line.values)
        values.append(str(line.rank or ""))
        rows.append(values)
    pdf.grid(
        heads,
        widths,
        rows,
        size=8 if n <= 16 else 6,
        shade=lambda i, j: j == 3 + table.lines[i].start - 1,
    )
    return _bytes(pdf)


def swiss_pdf(swiss: SwissTable, title: str, locale: str) -> bytes:
    """The Swiss table on A4 landscape: place, name, №, rating, one column per round
    (opponent, colour, result, or the bye), points and tie-breaks, in ranking order."""
    pdf = _Document("L", title)
    pdf.add_page()
    pdf.heading(title)
    _provisional(pdf, swiss.provisional, swiss.final)
    rounds = len(swiss.rounds)
    width = pdf.w - 20
    fixed = 10 + 8 + 12 + 11 + 12 * len(swiss.tiebreaks)
    cell = max(8.0, min(14.0, (width - fixed - 45) / max(rounds, 1)))
    name_w = min(90.0, max(35.0, width - fixed - cell * rounds))
    heads = [_("Place"), _("Player"), "№", _("Rating"), *(str(r) for r in swiss.rounds)]
    heads += [_("Pts"), *(tiebreak_head(code) for code in swiss.tiebreaks)]
    widths = [10, name_w, 8, 12, *([cell] * rounds), 11, *([12] * len(swiss.tiebreaks))]
    rows = [
        [
            str(line.rank or ""),
            f"{line.title} {line.name}".strip(),
            str(line.start),
            str(line.rating or ""),
            *(swiss_cell_text(c) for c in line.cells),
            points_text(line.points, locale),
            *(_number(v, locale) for v in line.values),
        ]
        for line in swiss.lines
    ]
    pdf.grid(heads, widths, rows, size=8 if rounds <= 11 else 6)
    pdf.ln(2)
    if swiss.planned:
        pdf.note(_("Round %(r)s of %(n)s paired.", r=rounds, n=swiss.planned))
    for text in [*swiss_legend(), *swiss.notes]:
        pdf.note(text, 7)
    return _bytes(pdf)


def _draw_box(pdf: _Document, box: BracketBox, x: float, y: float, w: float, h: float) -> None:
    """A match box: a line per player (name left, score right), the winner in bold."""
    line_h = h / max(len(box.lines), 1)
    size = max(5.0, min(8.0, line_h * 2.0))
    for i, line in enumerate(box.lines):
        top = y + i * line_h
        pdf.set_xy(x, top)
        pdf.set_font("Sans", "B" if line.winner else "", size)
        score_w = 9.0 if line.score else 0.0
        name = f"{line.start}. {line.name}" if line.start is not None else line.name
        if box.bye:
            name = f"{name} — {_('bye')}"
        if line.start is None:
            pdf.set_text_color(120)
        pdf.cell(w - score_w, line_h, pdf.fit(name, w - score_w), border=1)
        pdf.set_text_color(0)
        if score_w:
            pdf.cell(score_w, line_h, line.score, border=1, align="C")


def bracket_pdf(sheet: BracketSheet, title: str) -> bytes:
    """The bracket on A4 landscape (rounds as columns, a box per match, lines from each
    match to the next), the champion and the match for third place; then the places and
    every match with its games, round and board."""
    pdf = _Document("L", title)
    pdf.add_page()
    pdf.heading(title)
    if sheet.champion:
        pdf.set_font("Sans", "B", 12)
        pdf.cell(0, 7, f"{_('Champion')}: {sheet.champion}")
        pdf.ln(8)
    if sheet.problem:
        pdf.note(sheet.problem)
    drawn = sheet.size // 2 <= 16 and bool(sheet.columns)  # else too small to read
    if drawn:
        _draw_bracket(pdf, sheet)
        pdf.set_y(pdf.h - 20)
    pdf.note(sheet.note, 7)
    if drawn:
        pdf.add_page()
    if sheet.places:
        pdf.heading(_("Places"), 12)
        pdf.grid(
            [_("Place"), _("Player")],
            [20, 120],
            [[place, f"{start}. {name}"] for place, start, name in sheet.places],
            size=9,
            left=(1,),
        )
        pdf.ln(4)
    pdf.heading(_("Matches"), 12)
    last = len(sheet.columns) - 1
    for index, (column, name) in enumerate(zip(sheet.columns, sheet.titles, strict=False)):
        matches = [b for b in column if not b.bye]
        if index == last and sheet.third_place is not None:
            matches.append(sheet.third_place)
        if not matches:
            continue
        if pdf.will_page_break(7 + _detail_height(matches[0])):
            pdf.add_page()
        pdf.set_font("Sans", "B", 10)
        pdf.cell(0, 7, name)
        pdf.ln(7)
        for box in matches:
            _match_detail(pdf, box)
    return _bytes(pdf)


def _draw_bracket(pdf: _Document, sheet: BracketSheet) -> None:
    rounds = len(sheet.columns)
    top = pdf.get_y() + 6
    bottom = pdf.h - 24
    left = 10.0
    gap = 6.0
    col_w = (pdf.w - 20 - gap * (rounds - 1)) / rounds
    unit = (bottom - top) / (sheet.size // 2)  # the height of one first-round slot
    box_h = min(12.0, unit * 0.8)
    pdf.set_font("Sans", "B", 8)
    centres: dict[int, tuple[float, float]] = {}  # slot → (x of the right edge, y)
    for rnd, (column, name) in enumerate(zip(sheet.columns, sheet.titles, strict=False), 1):
        x = left + (rnd - 1) * (col_w + gap)
        pdf.set_font("Sans", "B", 8)
        pdf.set_xy(x, top - 6)
        pdf.cell(col_w, 5, pdf.fit(name, col_w), align="C")
        span = unit * (1 << (rnd - 1))
        for box in column:
            centre = top + (box.index + 0.5) * span
            height = box_h / 2 if box.bye else box_h
            _draw_box(pdf, box, x, centre - height / 2, col_w, height)
            centres[box.slot] = (x + col_w, centre)
            if rnd > 1:
                first_before = first_slot(sheet.size, rnd - 1)
                for feeder in (2 * box.index, 2 * box.index + 1):
                    source = centres.get(first_before + feeder)
                    if source is None:
                        continue
                    mid = x - gap / 2
                    pdf.line(source[0], source[1], mid, source[1])
                    pdf.line(mid, source[1], mid, centre)
                    pdf.line(mid, centre, x, centre)
    if sheet.third_place is not None:
        x = left + (rounds - 1) * (col_w + gap)
        y = bottom - box_h - 2
        pdf.set_font("Sans", "B", 7)
        pdf.set_xy(x, y - 5)
        pdf.cell(col_w, 5, pdf.fit(round_title("", True), col_w), align="C")
        _draw_box(pdf, sheet.third_place, x, y, col_w, box_h)


def _detail_height(box: BracketBox) -> float:
    return 6 + 5 * (len(box.games) + bool(box.stages) + bool(box.how)) + 2


def _match_detail(pdf: _Document, box: BracketBox) -> None:
    if pdf.will_page_break(_detail_height(box)):
        pdf.add_page()
    pdf.set_font("Sans", "B", 9)
    players = " – ".join(
        (f"{line.start}. {line.name}" if line.start is not None else line.name)
        + (f" {line.score}" if line.score else "")
        for line in box.lines
    )
    head = f"{_('Match')} {box.slot}: {players}"
    if box.third_place:
        head = f"{round_title('', True)} — {head}"
    pdf.cell(0, 6, pdf.fit(head, pdf.w - 20))
    pdf.ln(6)
    pdf.set_font("Sans", "", 8)
    for game in box.games:
        pdf.cell(8, 5, "")
        pdf.cell(28, 5, game.label)
        pdf.cell(70, 5, pdf.fit(f"{_('White')}: {game.white}  –  {_('Black')}: {game.black}", 70))
        pdf.cell(16, 5, game.result, align="C")
        pdf.cell(0, 5, game.where)
        pdf.ln(5)
    for text in (box.stages, box.how):
        if text:
            pdf.cell(8, 5, "")
            pdf.cell(0, 5, pdf.fit(text, pdf.w - 28))
            pdf.ln(5)
    pdf.ln(2)


def teams_pdf(grid: TeamGrid, table: Crosstable, title: str, locale: str) -> bytes:
    """A Scheveningen on A4 landscape: the team grid (team A's rows × team B's columns,
    each player's points, the team scores), then the individual standings."""
    pdf = _Document("L", title)
    pdf.add_page()
    pdf.heading(title)
    a, b = grid.teams
    pdf.set_font("Sans", "B", 11)
    score = f"{points_text(grid.scores[0], locale)} – {points_text(grid.scores[1], locale)}"
    pdf.cell(0, 7, f"{a} {score} {b}")
    pdf.ln(8)
    n = len(grid.columns)
    width = pdf.w - 20
    cell = max(10.0, min(24.0, (width - 8 - 12 - 12 - 60) / max(n, 1)))
    name_w = min(70.0, max(40.0, width - 8 - 12 - 12 - cell * n))
    heads = ["№", f"{a} \\ {b}", _("Rating"), *(f"{c.start}. {c.name}" for c in grid.columns)]
    heads.append(_("Pts"))
    widths = [8, name_w, 12, *([cell] * n), 12]
    rows = [
        [
            str(row.start),
            row.name,
            str(row.rating or ""),
            *cells,
            points_text(row.points, locale),
        ]
        for row, cells in zip(grid.rows, grid.cells, strict=True)
    ]
    rows.append(
        [
            "",
            f"{_('Pts')} ({b})",
            "",
            *(points_text(c.points, locale) for c in grid.columns),
            points_text(grid.scores[1], locale),
        ]
    )
    pdf.grid(heads, widths, rows, size=8)
    pdf.ln(4)
    _standings_table(
        pdf,
        table,
        locale,
        {line.start: a for line in grid.rows} | {line.start: b for line in grid.columns},
    )
    return _bytes(pdf)


def _standings_table(
    pdf: _Document, table: Crosstable, locale: str, team_of: Mapping[int, str]
) -> None:
    pdf.set_font("Sans", "B", 10)
    pdf.cell(0, 7, _("Standings"))
    pdf.ln(7)
    heads = [_("Place"), _("Player"), _("Team"), _("Pts"), *map(tiebreak_head, table.tiebreaks)]
    widths = [12, 80, 50, 12, *([14] * len(table.tiebreaks))]
    rows = [
        [
            str(line.rank or ""),
            f"{line.start}. {line.name}",
            team_of.get(line.start, ""),
            points_text(line.points, locale),
            *(_number(v, locale) for v in line.values),
        ]
        for line in table.ranked_lines()
    ]
    pdf.grid(heads, widths, rows, size=8, left=(1, 2))
    _provisional(pdf, table.provisional, table.final)


# -- pairing lists, slips, certificates -----------------------------------------------------------


def pairings_pdf(title: str, sheets: Sequence[Sheet]) -> bytes:
    """Pairing lists: a page per round — board, White, Black, result (blank to fill in);
    in a knockout the match and game of each board; then the byes by kind."""
    pdf = _Document("P", title)
    for sheet in sheets:
        pdf.add_page()
        pdf.heading(f"{title} — {_('Round')} {sheet.round}")
        if sheet.knockout:
            heads = [_("Board"), _("Match"), _("White"), _("Black"), _("Result")]
            widths = [11.0, 66.0, 49.0, 49.0, 15.0]
        else:
            heads = [_("Board"), _("White"), _("Black"), _("Result")]
            widths = [16.0, 75.0, 75.0, 24.0]
        rows = []
        for b in sheet.boards:
            row = [str(b.board), f"{b.white}. {b.white_name}", f"{b.black}. {b.black_name}"]
            if sheet.knockout:
                row.insert(1, b.match)
            rows.append([*row, b.result])
        left = (1, 2, 3) if sheet.knockout else (1, 2)
        pdf.grid(heads, widths, rows, size=10 if not sheet.knockout else 8, height=8, left=left)
        if sheet.byes:
            pdf.ln(3)
            pdf.set_font("Sans", "", 10)
            for bye in sheet.byes:
                pdf.cell(0, 6, f"{bye.label}: {bye.start}. {bye.name}")
                pdf.ln(6)
    if not sheets:
        pdf.add_page()
        pdf.heading(_("No round is paired yet."))
    return _bytes(pdf)


def slips_pdf(title: str, sheets: Sequence[Sheet]) -> bytes:
    """Result slips, four to a page, each round on new pages: round, board (and in a
    knockout the match and game), players, boxes to tick, signatures."""
    pdf = _Document("P", title)
    pdf.set_auto_page_break(False)
    for sheet in sheets:
        for index, g in enumerate(sheet.boards):
            if index % 4 == 0:
                pdf.add_page()
            top = 10 + (index % 4) * 69
            pdf.set_xy(10, top)
            pdf.set_font("Sans", "B", 11)
            head = f"{title} · {_('Round')} {sheet.round} · {_('Board')} {g.board}"
            pdf.cell(0, 7, pdf.fit(head, pdf.w - 20))
            if g.match:
                pdf.set_xy(10, top + 7)
                pdf.set_font("Sans", "", 9)
                pdf.cell(0, 5, pdf.fit(g.match, pdf.w - 20))
            pdf.set_font("Sans", "", 10)
            pdf.set_xy(10, top + 13)
            pdf.cell(95, 7, pdf.fit(f"{_('White')}: {g.white}. {g.white_name}", 95))
            pdf.cell(95, 7, pdf.fit(f"{_('Black')}: {g.black}. {g.black_name}", 95))
            pdf.set_xy(10, top + 24)
            for label in ("1-0", "½-½", "0-1", "+/−", "−/+"):
                pdf.cell(8, 8, "", border=1)
                pdf.cell(26, 8, f" {label}")
            pdf.set_xy(10, top + 42)
            pdf.cell(95, 7, f"{_('Signature')}: ____________________")
            pdf.cell(95, 7, f"{_('Signature')}: ____________________")
            pdf.set_dash_pattern(dash=1, gap=1)
            pdf.line(10, top + 64, pdf.w - 10, top + 64)
            pdf.set_dash_pattern()
    if not any(sheet.boards for sheet in sheets):
        pdf.add_page()
    return _bytes(pdf)


def certificates_pdf(title: str, winners: Sequence[Winner], date: str) -> bytes:
    """A certificate per prize-winner: the place, the name and (but in a knockout) the
    points."""
    pdf = _Document("L", title)
    pdf.set_auto_page_break(False)
    for winner in winners:
        pdf.add_page()
        pdf.set_draw_color(120, 90, 20)
        pdf.set_line_width(1.5)
        pdf.rect(12, 12, pdf.w - 24, pdf.h - 24)
        pdf.set_y(40)
        pdf.set_font("Sans", "B", 34)
        pdf.cell(0, 18, _("Certificate"), align="C")
        pdf.ln(24)
        pdf.set_font("Sans", "", 16)
        pdf.cell(0, 10, _("awarded to"), align="C")
        pdf.ln(14)
        pdf.set_font("Sans", "B", 28)
        pdf.cell(0, 14, pdf.fit(winner.name, pdf.w - 30), align="C")
        pdf.ln(18)
        pdf.set_font("Sans", "", 16)
        pdf.cell(0, 10, _("for place %(place)s in", place=winner.place), align="C")
        pdf.ln(10)
        pdf.set_font("Sans", "B", 18)
        pdf.cell(0, 10, pdf.fit(title, pdf.w - 30), align="C")
        pdf.ln(12)
        pdf.set_font("Sans", "", 13)
        pdf.cell(0, 8, f"{winner.detail}   {date}".strip(), align="C")
    if not winners:
        pdf.add_page()
        pdf.heading(_("No places yet: certificates are printed when the tournament is finished."))
    return _bytes(pdf)
