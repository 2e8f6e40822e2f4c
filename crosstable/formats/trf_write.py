"""Writing a :class:`TrfDocument` as TRF-2026 or TRF-16 (both with TRF(x) records).

Every line is made from the values, never copied from an input file; the
output is canonical: tournament tags in ascending order, teams, players by
starting number, national-rating lines, the TRF-2026 records (240, 250, 260,
299), the TRF(x) records (``XXR XXC XXS XXZ XXA XXP``), then records kept as
text. ``###`` comments go back right after the record they followed.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

from crosstable.core.errors import RuleError
from crosstable.core.model import Bye, ByeKind, Colour, Game, Outcome, Player, Round, System
from crosstable.core.scoring import PointSystem
from crosstable.formats import trf_records as rec
from crosstable.formats.trf_codes import (
    CANONICAL_TYPE_TEXT,
    fits_162,
    normalized,
    system_from_text,
    values_162,
    xxs_differences,
)
from crosstable.formats.trf_model import Comment, TrfDocument
from crosstable.formats.trf_rounds import system_from_meetings
from crosstable.formats.trf_text import decimal_text, format_fixed

EDITIONS = ("trf16", "trf2026")
#: Tournament tags that only TRF-2026 defines: left out of TRF-16 output.
TRF2026_TAGS = frozenset(
    {"142", "152", "162", "172", "182", "192", "202", "212", "222", "352", "362"}
)
_DEFAULT_162 = {"W": Fraction(1), "D": Fraction(1, 2), "L": Fraction(0), "A": Fraction(0)}
_HEADER_KEY = re.compile(r"^\d\d2(#\d+)?$")


def write_trf(doc: TrfDocument, edition: str = "trf2026") -> str:
    """The document as TRF text (lines end with LF), ``edition`` ``"trf2026"`` or ``"trf16"``."""
    if edition not in EDITIONS:
        raise RuleError(f"TRF edition {edition!r}: use trf16 or trf2026")
    out = _Output(doc.comments)
    full = edition == "trf2026"
    for tag, text in _header_lines(doc, full):
        out.emit(tag, f"{tag} {text}".rstrip())
    out.flush(lambda anchor: bool(_HEADER_KEY.match(anchor)))
    for team in doc.teams:
        if team.record == "310" and full:
            out.emit("310", rec.format_310(team))
        else:
            out.emit("013", rec.format_013(team))
    table = _round_table(doc, full)
    for player in doc.tournament.players:
        out.emit(f"001/{player.start}", _player_line(doc, player, table.get(player.start, {})))
    if full:
        for national in doc.national_records:
            out.emit(national.federation, rec.format_nrs(national))
        for bye in doc.byes:
            out.emit("240", rec.format_240(bye))
        for acceleration in doc.accelerations:
            out.emit("250", rec.format_250(acceleration))
        for prohibited in doc.prohibited:
            out.emit("260", rec.format_260(prohibited))
        for abnormal in doc.abnormal_points:
            out.emit("299", rec.format_299(abnormal))
    for tag, text in _trfx_lines(doc, full):
        out.emit(tag, text)
    for tag, text in doc.other_records:
        out.emit(tag, f"{tag} {text}".rstrip())
    out.flush(lambda anchor: True)
    return "".join(line + "\n" for line in out.lines)


def trf16_losses(doc: TrfDocument) -> list[str]:
    """What writing ``doc`` as TRF-16 leaves out (TRF-16 has no field for it)."""
    losses = [
        f"tag {tag} ({_TAG_NAMES.get(tag, 'TRF-2026')})"
        for tag in doc.headers
        if tag in TRF2026_TAGS
    ]
    settings = doc.tournament.settings
    if settings.tiebreaks or doc.standings_tiebreaks:
        losses.append("tie-break list (202/212)")
    if doc.unknown_result_points is not None:
        losses.append("points for an unknown result (162 X)")
    named = (
        (doc.national_records, "national rating lines"),
        (doc.byes, "bye records 240"),
        (doc.accelerations, "acceleration records 250"),
        (doc.prohibited, "prohibited pairings 260"),
        (doc.abnormal_points, "abnormal points 299"),
        ([t for t in doc.teams if t.record == "310"], "team records 310 (written as 013)"),
    )
    losses.extend(label for values, label in named if values)
    return losses


_TAG_NAMES = {
    "172": "starting-rank method",
    "182": "pairing controller",
    "192": "encoded tournament type",
    "222": "encoded time control",
    "352": "team board colours",
    "362": "team match points",
}


class _Output:
    def __init__(self, comments: tuple[Comment, ...]) -> None:
        self.lines: list[str] = []
        self.pending: list[Comment] = list(comments)
        self.counts: Counter[str] = Counter()
        self._after(None)

    def emit(self, tag: str, text: str) -> None:
        if tag.startswith("001/"):
            key = tag
        else:
            index = self.counts[tag]
            self.counts[tag] += 1
            key = tag if index == 0 else f"{tag}#{index}"
        self.lines.append(text)
        self._after(key)

    def _after(self, key: str | None) -> None:
        keep: list[Comment] = []
        for comment in self.pending:
            if comment.anchor == key:
                self.lines.append("###" + comment.text)
            else:
                keep.append(comment)
        self.pending = keep

    def flush(self, wanted: object) -> None:
        """Comments whose record was not written: after the headers, or at the end."""
        assert callable(wanted)
        keep: list[Comment] = []
        for comment in self.pending:
            if comment.anchor is not None and wanted(comment.anchor):
                self.lines.append("###" + comment.text)
            else:
                keep.append(comment)
        self.pending = keep


# ---------------------------------------------------------------- tournament tags


def _header_lines(doc: TrfDocument, full: bool) -> list[tuple[str, str]]:
    tournament = doc.tournament
    settings = tournament.settings
    headers = {tag: text for tag, text in doc.headers.items() if full or tag not in TRF2026_TAGS}
    _convey_system(doc, headers)
    lines: list[tuple[str, str]] = []
    if tournament.name:
        lines.append(("012", tournament.name))
    for tag, text in headers.items():
        lines.extend((tag, part) for part in text.split("\n"))
    dates = _dates(doc)
    if dates:
        lines.append(("132", " " * 87 + dates))
    if full:
        if settings.rounds is not None:
            lines.append(("142", str(settings.rounds)))
        if doc.initial_colour is not None and doc.initial_colour is not Colour.NONE:
            lines.append(("152", "W" if doc.initial_colour is Colour.WHITE else "B"))
        scoring = _line_162(settings.point_system, doc.unknown_result_points)
        if scoring:
            lines.append(("162", scoring))
        if settings.tiebreaks:
            lines.append(("202", ", ".join(settings.tiebreaks)))
        standings = doc.standings_tiebreaks
        if standings is None and settings.tiebreaks:
            standings = ("PTS", *settings.tiebreaks)
        if standings:
            lines.append(("212", ", ".join(standings)))
    lines.sort(key=lambda item: item[0])
    return lines


def _convey_system(doc: TrfDocument, headers: dict[str, str]) -> None:
    """Make 092/192 name the tournament's system, unless the games already show it."""
    system = doc.tournament.settings.system
    found = None
    for tag in ("192", "092"):
        text = headers.get(tag, "")
        if text.strip():
            found = system_from_text(text)
            if found is not None:
                break
    read_as = found[0] if found is not None else _system_from_games(doc)
    if read_as is not system:
        headers.pop("192", None)
        headers["092"] = CANONICAL_TYPE_TEXT[system]


def _system_from_games(doc: TrfDocument) -> System:
    meetings: Counter[tuple[int, int]] = Counter()
    for rnd in doc.tournament.rounds:
        for game in rnd.games:
            meetings[(min(game.white, game.black), max(game.white, game.black))] += 1
    return system_from_meetings(meetings, len(doc.tournament.players))


def _dates(doc: TrfDocument) -> str:
    dates = dict(doc.round_dates)
    for rnd in doc.tournament.rounds:
        if rnd.date is not None:
            dates[rnd.number] = rnd.date
    if not dates:
        return ""
    cells = []
    for number in range(1, max(dates) + 1):
        date = dates.get(number)
        if date is None:
            cells.append(" " * 8)
        elif 1970 <= date.year <= 2069:
            cells.append(date.strftime("%y/%m/%d"))
        else:
            cells.append(f"{date.year:04d}/{date.month:02d}/{date.day:02d}"[:10])
    return "".join(cell.ljust(10) for cell in cells).rstrip()


def _line_162(system: PointSystem, unknown: Fraction | None) -> str:
    if normalized(system) == PointSystem() and unknown is None:
        return ""
    values = values_162(system)
    fields = [(s, v) for s, v in values.items() if s != "P" and v != _DEFAULT_162[s]]
    if values["P"] != system.win:
        fields.append(("P", values["P"]))
    if unknown is not None:
        fields.append(("X", unknown))
    return " " + "    ".join(symbol + format_fixed(value, 4) for symbol, value in fields)


def _trfx_lines(doc: TrfDocument, full: bool) -> list[tuple[str, str]]:
    settings = doc.tournament.settings
    lines: list[tuple[str, str]] = []
    if settings.rounds is not None:
        lines.append(("XXR", f"XXR {settings.rounds}"))
    words = list(doc.xxc_flags)
    if doc.initial_colour is Colour.WHITE:
        words.append("white1")
    elif doc.initial_colour is Colour.BLACK:
        words.append("black1")
    if words:
        lines.append(("XXC", "XXC " + " ".join(words)))
    if not (full and fits_162(settings.point_system)):
        differences = xxs_differences(settings.point_system)
        if differences:
            text = " ".join(f"{code}={decimal_text(value)}" for code, value in differences)
            lines.append(("XXS", "XXS " + text))
    if doc.absent:
        lines.append(("XXZ", rec.format_ids("XXZ", doc.absent)))
    for player, values in doc.fictitious_points.items():
        lines.append(("XXA", rec.format_xxa(player, values)))
    for group in doc.forbidden_pairs:
        lines.append(("XXP", rec.format_ids("XXP", group)))
    return lines


# ---------------------------------------------------------------- players


def _round_table(doc: TrfDocument, full: bool) -> dict[int, dict[int, str]]:
    """Each player's round blocks (8 characters) by round number."""
    table: dict[int, dict[int, str]] = {}
    settings = doc.tournament.settings
    # an odd round robin's free round: Z (a zero-point bye) when it is worth nothing, as
    # the readers of TRF-2026 (no blank codes) and pairing programs expect; else blank
    free = "Z" if settings.free_round_points == 0 else " "
    for rnd in doc.tournament.rounds:
        if rnd.number < 1:
            raise RuleError(f"round {rnd.number}: rounds are numbered from 1")
        for game in rnd.games:
            table.setdefault(game.white, {})[rnd.number] = _game_block(game, game.white, full)
            table.setdefault(game.black, {})[rnd.number] = _game_block(game, game.black, full)
        for bye in rnd.byes:
            table.setdefault(bye.player, {})[rnd.number] = _bye_block(bye, free)
    return table


def _game_block(game: Game, start: int, full: bool) -> str:
    colour = "w" if start == game.white else "b"
    outcome = game.outcome_of(start)
    # TRF-2026 writes a result not known yet (an adjourned game) as ?, TRF-16 has no code
    code = "?" if full and outcome is Outcome.UNKNOWN else outcome.value
    return f"{game.opponent_of(start):4d} {colour} {code}"


def _bye_block(bye: Bye, free: str) -> str:
    return f"0000 - {free}" if bye.kind is ByeKind.FREE else f"0000 - {bye.kind.value}"


def _player_line(doc: TrfDocument, player: Player, blocks: dict[int, str]) -> str:
    start = player.start
    points = doc.file_points.get(start)
    rank = doc.file_ranks.get(start)
    try:
        points_text = "" if points is None else format_fixed(points, 4)
    except ValueError:
        raise RuleError(
            f"player {start}: points {points} do not fit the points column (81–84)"
        ) from None
    fields = (
        (str(start), 4, "starting number"),
        (player.title if len(player.title) <= 3 else "", 3, "title"),
        ("" if player.rating is None else str(player.rating), 4, "rating"),
        (player.federation, 3, "federation"),
        (player.fide_id, 11, "FIDE number"),
        (player.birth_date, 10, "birth date"),
        ("" if rank is None else str(rank), 4, "rank"),
    )
    for text, width, what in fields:
        if len(text) > width:
            raise RuleError(f"player {start}: {what} {text!r} is longer than {width} characters")
    head = (
        f"001 {start:4d} {(player.sex or ' ')[:1]}{player.title:>3} {player.name[:33]:<33} "
        f"{fields[2][0]:>4} {player.federation:<3} {player.fide_id:>11} {player.birth_date:<10} "
        f"{points_text:>4} {fields[6][0]:>4}  "
    )
    last = max(blocks, default=0)
    cells = [blocks.get(number, " " * 8) for number in range(1, last + 1)]
    line = head + "  ".join(cells)
    if cells and cells[-1].strip() and cells[-1].endswith(" "):
        # a pairing still without its result keeps the round field's full width (the
        # result column blank): pairing programs read the field by its columns
        return line
    return line.rstrip()


__all__ = ["EDITIONS", "TRF2026_TAGS", "Round", "trf16_losses", "write_trf"]
