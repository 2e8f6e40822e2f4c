"""What a tournament JSON must satisfy beyond its types: the bounds of
:mod:`crosstable.formats.limits`, and that a TRF can hold it.

Tournament JSON is a :class:`~crosstable.formats.trf_model.TrfDocument` written
as JSON, so whatever the JSON reader accepts must be writable as TRF and read
back: a player cannot be written playing themself, with sex
``"2"``, a newline in a name or a five-letter title. Each check names the JSON
path of the value; a document that passes them all is, last, written as TRF
and read again, and refused if that fails.
"""

from __future__ import annotations

import re
from typing import Any

from crosstable.core.errors import CrosstableError, InputError
from crosstable.formats.limits import CONTROL, MAX_PLAYERS, MAX_RATING, MAX_ROUNDS
from crosstable.formats.trf_model import TrfDocument
from crosstable.formats.trf_read import parse_trf
from crosstable.formats.trf_text import RecoverableError, format_fixed
from crosstable.formats.trf_write import write_trf

_HEADER_TAG = re.compile(r"^[0-9]{2}2$")
#: Player fields and their TRF widths (columns of the ``001`` line).
_WIDTHS = (("title", 3), ("federation", 3), ("fide_id", 11), ("birth_date", 10))


def check_document(doc: TrfDocument, source: str, *, lenient: bool = False) -> None:
    """Refuse, naming the JSON path, what a TRF cannot hold; then write and re-read."""
    tournament = doc.tournament

    def fail(path: str, message: str) -> InputError:
        return InputError(f"{path}: {message}", source=source)

    if len(tournament.players) > MAX_PLAYERS:
        raise fail("$.tournament.players", f"more than {MAX_PLAYERS} players")
    _one_line(tournament.name, "$.tournament.name", fail)
    for index, player in enumerate(tournament.players):
        path = f"$.tournament.players[{index}]"
        _one_line(player.name, f"{path}.name", fail)
        if player.sex not in ("", "m", "w"):
            raise fail(f"{path}.sex", f'{player.sex!r}: use "m", "w" or ""')
        if player.rating is not None and player.rating > MAX_RATING:
            raise fail(f"{path}.rating", f"{player.rating}: at most {MAX_RATING}")
        for name, width in _WIDTHS:
            value = getattr(player, name)
            _one_line(value, f"{path}.{name}", fail)
            if len(value) > width:
                raise fail(f"{path}.{name}", f"{value!r} is longer than {width} characters")
    settings = tournament.settings
    for name, value in (("cycles", settings.cycles), ("rounds", settings.rounds)):
        if value is not None and value > MAX_ROUNDS:
            raise fail(f"$.tournament.settings.{name}", f"{value}: at most {MAX_ROUNDS}")
    if len(tournament.rounds) > MAX_ROUNDS:
        raise fail("$.tournament.rounds", f"more than {MAX_ROUNDS} rounds")
    for index, rnd in enumerate(tournament.rounds):
        path = f"$.tournament.rounds[{index}]"
        if rnd.number != index + 1:
            raise fail(f"{path}.number", f"{rnd.number}: rounds are numbered 1, 2, 3 … in order")
        for position, game in enumerate(rnd.games):
            if game.round != rnd.number:
                raise fail(f"{path}.games[{position}].round", f"{game.round} in round {rnd.number}")
        for position, bye in enumerate(rnd.byes):
            if bye.round != rnd.number:
                raise fail(f"{path}.byes[{position}].round", f"{bye.round} in round {rnd.number}")
    size = len(tournament.players)
    for path, starts in _record_players(doc):
        for start in starts:
            if not 1 <= start <= size:
                raise fail(path, f"there is no player {start} (the tournament has {size})")
    for tag, text in doc.headers.items():
        if not _HEADER_TAG.match(tag):
            raise fail(f"$.trf.headers.{tag}", "a tournament tag is three digits ending in 2")
        if CONTROL.search(text.replace("\n", "")):
            raise fail(f"$.trf.headers.{tag}", "a control character cannot be written")
    for index, comment in enumerate(doc.comments):
        _one_line(comment.text, f"$.trf.comments[{index}].text", fail)
    for start, value in doc.file_points.items():
        try:
            format_fixed(value, 4)
        except ValueError as error:
            raise fail(f"$.trf.file_points.{start}", str(error)) from None
    for start, rank in doc.file_ranks.items():
        if rank is not None and not 0 <= rank <= MAX_PLAYERS:
            raise fail(f"$.trf.file_ranks.{start}", f"{rank}: at most {MAX_PLAYERS}")
    _round_trip(doc, source, lenient)


def _record_players(doc: TrfDocument) -> list[tuple[str, tuple[int, ...]]]:
    """The starting numbers each TRF record of the document names, by JSON path."""
    named: list[tuple[str, tuple[int, ...]]] = []
    named += [(f"$.trf.byes[{i}].players", r.players) for i, r in enumerate(doc.byes)]
    named += [
        (f"$.trf.accelerations[{i}]", (r.first_player, r.last_player))
        for i, r in enumerate(doc.accelerations)
    ]
    named += [(f"$.trf.prohibited[{i}].players", r.players) for i, r in enumerate(doc.prohibited)]
    named += [(f"$.trf.forbidden_pairs[{i}]", r) for i, r in enumerate(doc.forbidden_pairs)]
    named += [
        ("$.trf.absent", doc.absent),
        ("$.trf.fictitious_points", tuple(doc.fictitious_points)),
    ]
    named += [(f"$.trf.teams[{i}].members", t.members) for i, t in enumerate(doc.teams)]
    return named


def _one_line(value: str, path: str, fail: Any) -> None:
    if CONTROL.search(value):
        raise fail(path, f"{value[:40]!r}: a line break or control character cannot be written")


def _round_trip(doc: TrfDocument, source: str, lenient: bool) -> None:
    """Write the document as TRF and read it back; refuse what does not survive."""
    try:
        text = write_trf(doc)
    except (CrosstableError, ValueError, KeyError) as error:
        raise InputError(f"$: cannot be written as TRF: {error}", source=source) from None
    try:
        parse_trf(text, source="TRF", lenient=lenient)
    except RecoverableError as error:
        raise RecoverableError(
            f"$: written as TRF it reads back only with a warning: {error}", source=source
        ) from None
    except CrosstableError as error:
        raise InputError(
            f"$: written as TRF it does not read back: {error}", source=source
        ) from None
