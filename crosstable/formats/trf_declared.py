"""What a read tournament report declares for the arbiter's check (core/checker).

The same reading as ``crosstable check`` gives the checker: the initial colour (152 /
XXC, else what round 1 shows), the accelerations (records 250, XXA, or Baku named in
092/192), the prohibited pairings (XXP, 260), the players not paired in a round
(240), the rank column, the tie-break order (212, else 202) and the round robin's
table (a ``### Schedule`` comment). The import re-checks every round with it.
"""

from __future__ import annotations

from fractions import Fraction

from crosstable.core.checker import Declared, Prohibition
from crosstable.core.checker.hand_rounds import hand_rounds_from_comments
from crosstable.core.model import ByeKind, Colour, Tournament
from crosstable.core.pairing.dutch.acceleration import baku
from crosstable.core.schedule.kinds import ScheduleKind, schedule_from_comments
from crosstable.formats.trf_model import TrfDocument

__all__ = ["declared_of", "file_accelerations", "file_initial_colour"]


def declared_of(doc: TrfDocument) -> Declared:
    """What ``doc`` declares for :func:`crosstable.core.checker.check_event`."""
    settings = doc.tournament.settings
    prohibited = [Prohibition(tuple(group)) for group in doc.forbidden_pairs]
    prohibited += [Prohibition(r.players, r.first_round, r.last_round) for r in doc.prohibited]
    absent: dict[int, frozenset[int]] = {}
    for record in doc.byes:
        absent[record.round] = absent.get(record.round, frozenset()) | set(record.players)
    return Declared(
        initial_colour=file_initial_colour(doc),
        accelerations=file_accelerations(doc),
        prohibited=tuple(prohibited),
        absent=absent,
        ranks=dict(doc.file_ranks),
        tiebreaks=doc.standings_tiebreaks or settings.tiebreaks or None,
        total_rounds=settings.rounds or len(doc.tournament.rounds),
        schedule=schedule_from_comments(c.text for c in doc.comments) or ScheduleKind.BERGER,
        hand_rounds=hand_rounds_from_comments(c.text for c in doc.comments),
    )


def file_initial_colour(doc: TrfDocument) -> Colour:
    """152 / XXC, else what round 1 shows, else white."""
    if doc.initial_colour is not None and doc.initial_colour is not Colour.NONE:
        return doc.initial_colour
    return _inferred_colour(doc.tournament) or Colour.WHITE


def _inferred_colour(tournament: Tournament) -> Colour | None:
    """The colour the first-ranked player present in the first paired round had
    (inverted when their pairing number there was even)."""
    for rnd in tournament.rounds:
        if not rnd.games:
            continue
        present = sorted(
            {s for g in rnd.games for s in (g.white, g.black)}
            | {b.player for b in rnd.byes if b.kind is ByeKind.PAIRING}
        )
        colours = {g.white: Colour.WHITE for g in rnd.games}
        colours.update({g.black: Colour.BLACK for g in rnd.games})
        for index, start in enumerate(present):
            if start in colours:
                colour = colours[start]
                return colour.opposite() if index % 2 else colour
    return None


def file_accelerations(doc: TrfDocument) -> dict[int, list[Fraction]]:
    """Fictitious points per player and round: 250 records, XXA, or Baku (C.04.5.1)."""
    size = len(doc.tournament.players)
    table: dict[int, list[Fraction]] = {}
    for record in doc.accelerations:
        for start in range(record.first_player, record.last_player + 1):
            row = table.setdefault(start, [])
            if len(row) < record.last_round:
                row.extend([Fraction(0)] * (record.last_round - len(row)))
            for number in range(record.first_round, record.last_round + 1):
                row[number - 1] = record.points
    for start, values in doc.fictitious_points.items():
        table[start] = [v if v is not None else Fraction(0) for v in values]
    if not table and _baku(doc):
        table = baku(size, doc.tournament.settings.rounds or 0)
    return table


def _baku(doc: TrfDocument) -> bool:
    text = " ".join(doc.headers.get(tag, "") for tag in ("092", "192")).upper()
    return "BAKU" in text
