"""What a Tournament Report File holds beyond the tournament itself.

:class:`TrfDocument` pairs a core :class:`~crosstable.core.model.Tournament`
with the data only a TRF carries: free-text header tags, ``###`` comments, the
points and rank columns as written, and the TRF-2026 / TRF(x) records (byes
240, accelerations 250 / ``XXA``, prohibited pairings 260 / ``XXP``, absent
players ``XXZ``, abnormal points 299, teams 013 / 310, national ratings).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from fractions import Fraction

from crosstable.core.model import ByeKind, Colour, Tournament
from crosstable.formats.trf_codes import CANONICAL_TYPE_TEXT

_PRE_ASSIGNED = frozenset({ByeKind.HALF, ByeKind.ZERO, ByeKind.FULL})


@dataclass(frozen=True, slots=True)
class Comment:
    """A ``###`` line: ``text`` is what follows the ``###``.

    ``anchor`` is the key of the record line just before it (``"092"``,
    ``"112#1"`` for the second 112 line, ``"001/5"`` for player 5's line,
    ``"XXP#0"``…), or None at the top of the file. The writer puts the comment
    back right after that record.
    """

    text: str
    anchor: str | None = None


@dataclass(frozen=True, slots=True)
class ByeRecord:
    """Record 240 (TRF-2026): players given a full-, half- or zero-point bye in a round."""

    kind: ByeKind  # FULL, HALF or ZERO
    round: int
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Acceleration:
    """Record 250: fictitious points for players ``first_player…last_player``
    in rounds ``first_round…last_round``."""

    points: Fraction
    first_round: int
    last_round: int
    first_player: int
    last_player: int
    match_points: Fraction | None = None  # team events only


@dataclass(frozen=True, slots=True)
class ProhibitedPairing:
    """Record 260: these players may not meet in rounds ``first_round…last_round``."""

    first_round: int
    last_round: int
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AbnormalPoints:
    """Record 299: a non-standard point assignment.

    ``kind`` is one of ``W D L F H Z + -`` or ``""`` (a penalty or bonus);
    ``round`` None means every round.
    """

    kind: str
    points: Fraction | None
    round: int | None
    players: tuple[int, ...]
    match_points: Fraction | None = None


@dataclass(frozen=True, slots=True)
class Team:
    """A team line: record 013 (TRF-16) or 310 (TRF-2026, with more fields)."""

    name: str
    members: tuple[int, ...]
    record: str = "013"  # "013" or "310"
    number: int | None = None  # team pairing number (310)
    nickname: str = ""
    strength: str = ""  # strength factor, as written
    match_points: Fraction | None = None
    game_points: Fraction | None = None
    rank: int | None = None


@dataclass(frozen=True, slots=True)
class NationalRecord:
    """A National Rating Support line (TRF-2026): a federation code instead of ``001``."""

    federation: str
    start: int
    sex: str = ""
    classification: str = ""
    name: str = ""
    rating: int | None = None
    origin: str = ""
    number: str = ""
    birth_date: str = ""


@dataclass(frozen=True)
class TrfDocument:
    """A parsed TRF: the tournament plus everything else the file says.

    Typed values live in the tournament (name ← 012, rounds ← 142/``XXR``,
    point system ← 162/``XXS``, tie-breaks ← 202/212, round dates ← 132) or in
    the fields below; ``headers`` keeps the remaining tournament tags as text
    (``"022"`` city, ``"092"`` type, ``"102"`` chief arbiter…; a tag given on
    several lines, such as 112, is joined with newlines).
    """

    tournament: Tournament
    headers: dict[str, str] = field(default_factory=dict)
    comments: tuple[Comment, ...] = ()
    file_points: dict[int, Fraction] = field(default_factory=dict)  # columns 81–84
    file_ranks: dict[int, int | None] = field(default_factory=dict)  # columns 86–89
    initial_colour: Colour | None = None  # 152 or XXC white1/black1
    xxc_flags: tuple[str, ...] = ()  # other XXC words, e.g. "rank"
    standings_tiebreaks: tuple[str, ...] | None = None  # 212 when it is not PTS + 202
    unknown_result_points: Fraction | None = None  # 162 symbol X
    round_dates: dict[int, dt.date] = field(default_factory=dict)  # 132
    byes: tuple[ByeRecord, ...] = ()  # 240
    accelerations: tuple[Acceleration, ...] = ()  # 250
    fictitious_points: dict[int, tuple[Fraction | None, ...]] = field(default_factory=dict)  # XXA
    prohibited: tuple[ProhibitedPairing, ...] = ()  # 260
    forbidden_pairs: tuple[tuple[int, ...], ...] = ()  # XXP, one tuple per line
    absent: tuple[int, ...] = ()  # XXZ
    abnormal_points: tuple[AbnormalPoints, ...] = ()  # 299
    teams: tuple[Team, ...] = ()  # 013 / 310
    national_records: tuple[NationalRecord, ...] = ()  # NRS lines
    other_records: tuple[tuple[str, str], ...] = ()  # records kept as text (300, 320, 801…)
    warnings: tuple[str, ...] = field(default=(), compare=False)  # workarounds applied

    @classmethod
    def from_tournament(cls, tournament: Tournament) -> TrfDocument:
        """A document for a tournament built in code: points computed, no rank
        column, the system named in 092, round dates from the rounds.

        >>> from crosstable.core.model import Player
        >>> doc = TrfDocument.from_tournament(Tournament(players=(Player(1, "A"),)))
        >>> doc.file_points, doc.headers
        ({1: Fraction(0, 1)}, {'092': 'Individual: Round-Robin'})
        """
        return cls(
            tournament=tournament,
            headers={"092": CANONICAL_TYPE_TEXT[tournament.settings.system]},
            file_points={p.start: tournament.score(p.start) for p in tournament.players},
            file_ranks={p.start: None for p in tournament.players},
            round_dates={r.number: r.date for r in tournament.rounds if r.date is not None},
        )

    @property
    def pending_round(self) -> int | None:
        """The round to be paired, when the last round holds only pre-assigned byes (ITDX)."""
        rounds = self.tournament.rounds
        if not rounds:
            return None
        last = rounds[-1]
        if last.games or not last.byes:
            return None
        if all(bye.kind in _PRE_ASSIGNED for bye in last.byes):
            return last.number
        return None

    def before_round(self, number: int) -> TrfDocument:
        """The file as a pairing program gets it to pair round ``number`` (ITDX).

        Rounds ``1…number−1`` are kept; of round ``number`` only the pre-assigned
        byes (H, Z, F) stay; the points column is recomputed from rounds
        ``1…number−1`` and the rank column emptied. Records 240 and ``XXZ``,
        ``XXR`` and ``XXC`` (initial colour, flags) stay as they are.
        """
        if number < 1:
            raise ValueError(f"round {number}: rounds are numbered from 1")
        tournament = self.tournament
        earlier = tuple(r for r in tournament.rounds if r.number < number)
        played = replace(tournament, rounds=earlier)
        kept = [
            replace(r, games=(), byes=tuple(b for b in r.byes if b.kind in _PRE_ASSIGNED))
            for r in tournament.rounds
            if r.number == number
        ]
        rounds = earlier + tuple(r for r in kept if r.byes)
        return replace(
            self,
            tournament=replace(tournament, rounds=rounds),
            file_points={p.start: played.score(p.start) for p in tournament.players},
            file_ranks={p.start: None for p in tournament.players},
            round_dates={r: d for r, d in self.round_dates.items() if r <= number},
        )

    def with_tournament(self, tournament: Tournament) -> TrfDocument:
        """The same document around another tournament (points column left as it was)."""
        return replace(self, tournament=tournament)
