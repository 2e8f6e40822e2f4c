"""The tournament as plain, immutable values.

A :class:`Tournament` (one section: a round robin, a Swiss or a bracket) holds
its :class:`Settings`, its :class:`Player` list by starting number and its
:class:`Round` list. A round holds :class:`Game` values (two players at a board)
and :class:`Bye` values (one player without an opponent). Larger events are an
:class:`~crosstable.core.event.Event` of stages, each holding sections, so quads, group
stage + knockout and a portal's multi-stage series need no second model; what sits in
a pairing is a :class:`~crosstable.core.competitor.Competitor` (a player or a team).

The per-player view that TRF files and tie-breaks use (opponent, colour and
result code for each round) is derived: :meth:`Tournament.entries`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction

from crosstable.core.errors import RuleError
from crosstable.core.result_codes import check_codes, codes_of, label_of
from crosstable.core.scoring import PointSystem, check_bye_value


class Colour(Enum):
    WHITE = "w"
    BLACK = "b"
    NONE = "-"

    def opposite(self) -> Colour:
        if self is Colour.WHITE:
            return Colour.BLACK
        if self is Colour.BLACK:
            return Colour.WHITE
        return Colour.NONE


class Outcome(Enum):
    """One player's result in one round: exactly the TRF result codes."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    SHORT_WIN = "W"  # game won in less than one move (not rated)
    SHORT_DRAW = "D"
    SHORT_LOSS = "L"
    HALF_BYE = "H"  # requested half-point bye
    FULL_BYE = "F"  # full-point bye
    PAIRING_BYE = "U"  # pairing-allocated bye (PAB)
    ZERO_BYE = "Z"  # zero-point bye, known absence
    PENDING = " "  # scheduled, no result yet (also the free round of an odd round robin in TRF)
    UNKNOWN = "*"  # result not known or game adjourned

    @classmethod
    def from_code(cls, code: str) -> Outcome:
        """A TRF result code, letters in either case; ``"½"`` is a draw."""
        if code == "½":
            return cls.DRAW
        if code == "":
            return cls.PENDING
        try:
            return cls(code.upper())
        except ValueError:
            raise RuleError("unknown result code {code}", code=repr(code)) from None

    @property
    def is_bye(self) -> bool:
        return self in _BYES

    @property
    def is_forfeit(self) -> bool:
        return self in (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS)

    @property
    def is_over_the_board(self) -> bool:
        """A game that was actually played (normal result or a short game)."""
        return self in _OVER_THE_BOARD

    @property
    def is_rated(self) -> bool:
        return self in (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)

    @property
    def is_decided(self) -> bool:
        return self not in (Outcome.PENDING, Outcome.UNKNOWN)

    def points(self, system: PointSystem) -> Fraction:
        """Points this outcome is worth under ``system`` (pending: 0)."""
        table = {
            Outcome.WIN: system.win,
            Outcome.SHORT_WIN: system.win,
            Outcome.DRAW: system.draw,
            Outcome.SHORT_DRAW: system.draw,
            Outcome.LOSS: system.loss,
            Outcome.SHORT_LOSS: system.loss,
            Outcome.FORFEIT_WIN: system.forfeit_win_points,
            Outcome.FORFEIT_LOSS: system.forfeit_loss_points,
            Outcome.HALF_BYE: system.half_bye_points,
            Outcome.FULL_BYE: system.full_bye_points,
            Outcome.PAIRING_BYE: system.pairing_bye_points,
            Outcome.ZERO_BYE: system.zero_bye,
        }
        return table.get(self, Fraction(0))

    def mirror(self) -> Outcome:
        """The opponent's outcome of the same game (a forfeit loss mirrors a forfeit win)."""
        return _MIRROR.get(self, self)


_BYES = frozenset({Outcome.HALF_BYE, Outcome.FULL_BYE, Outcome.PAIRING_BYE, Outcome.ZERO_BYE})
_OVER_THE_BOARD = frozenset(
    {
        Outcome.WIN,
        Outcome.DRAW,
        Outcome.LOSS,
        Outcome.SHORT_WIN,
        Outcome.SHORT_DRAW,
        Outcome.SHORT_LOSS,
    }
)
_MIRROR = {
    Outcome.WIN: Outcome.LOSS,
    Outcome.LOSS: Outcome.WIN,
    Outcome.SHORT_WIN: Outcome.SHORT_LOSS,
    Outcome.SHORT_LOSS: Outcome.SHORT_WIN,
    Outcome.FORFEIT_WIN: Outcome.FORFEIT_LOSS,
    Outcome.FORFEIT_LOSS: Outcome.FORFEIT_WIN,
}


class Reason(Enum):
    """Why a game ended as it did (portal rules)."""

    NORMAL = "normal"
    NO_SHOW = "no-show"
    SETUP_TIMEOUT = "setup-timeout"
    ADJUDICATED = "adjudicated"


@dataclass(frozen=True, slots=True)
class GameResult:
    """The result of one game from both sides, e.g. ``1-0`` or ``+-`` (forfeit).

    >>> GameResult.parse("1/2-1/2") == GameResult.DRAW()
    True
    >>> GameResult.parse("-+").label()
    '-+'
    """

    white: Outcome
    black: Outcome

    def __post_init__(self) -> None:
        for side in (self.white, self.black):
            if side.is_bye:
                raise RuleError("a bye ({side}) is not a game result", side=side.value)
        check_codes(self.white.value, self.black.value)  # (1-1, 1-½, +=, 1L … refused)

    @staticmethod
    def WHITE_WINS() -> GameResult:  # noqa: N802 - reads like a constant
        return GameResult(Outcome.WIN, Outcome.LOSS)

    @staticmethod
    def DRAW() -> GameResult:  # noqa: N802
        return GameResult(Outcome.DRAW, Outcome.DRAW)

    @staticmethod
    def BLACK_WINS() -> GameResult:  # noqa: N802
        return GameResult(Outcome.LOSS, Outcome.WIN)

    @classmethod
    def parse(cls, text: str) -> GameResult:
        """``1-0``, ``0-1``, ``½-½``, ``1/2-1/2``, ``0.5-0.5``, ``=``, ``+-``, ``-+``, ``--``;
        an arbiter's ``½-0``, ``0-½``, ``0-0``; played but unrated ``1-0u`` (``WL``) …
        (:mod:`crosstable.core.result_codes`)."""
        codes = codes_of(text)
        return cls(Outcome(codes[0]), Outcome(codes[1]))

    def label(self) -> str:
        return label_of(self.white.value, self.black.value)

    @property
    def is_forfeit(self) -> bool:
        return self.white.is_forfeit or self.black.is_forfeit

    @property
    def is_decided(self) -> bool:
        return self.white.is_decided and self.black.is_decided


@dataclass(frozen=True, slots=True)
class Player:
    """A player of one section, known by starting number (``start``) in it."""

    start: int
    name: str
    rating: int | None = None
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth_date: str = ""  # as written (YYYY/MM/DD, or just the year)
    sex: str = ""  # "m", "w" or ""
    national_ratings: tuple[tuple[str, int], ...] = ()
    # events longer than 30 days: later ratings, each (first round it covers, rating),
    # rounds ascending; ``rating`` covers the rounds before the first of them
    round_ratings: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        if self.start < 1:
            raise RuleError("starting number {start}: must be 1 or more", start=self.start)
        if self.rating is not None and self.rating < 0:
            raise RuleError(
                "player {start}: rating {rating} is negative", start=self.start, rating=self.rating
            )
        rounds = [r for r, _ in self.round_ratings]
        if rounds != sorted(set(rounds)) or any(r < 2 or v < 0 for r, v in self.round_ratings):
            raise RuleError(
                "player {start}: ratings by round must start from round 2 or later, "
                "each round once, in order, none negative",
                start=self.start,
            )

    def rating_in(self, round_number: int) -> int | None:
        """The rating that covers ``round_number`` (the first one without later ones)."""
        rating = self.rating
        for first, value in self.round_ratings:
            if first > round_number:
                break
            rating = value
        return rating


@dataclass(frozen=True, slots=True)
class Game:
    """White against Black at one board of one round; ``result`` is None until known."""

    round: int
    board: int
    white: int
    black: int
    result: GameResult | None = None
    reason: Reason = Reason.NORMAL

    def __post_init__(self) -> None:
        if self.white == self.black:
            raise RuleError(
                "round {round} board {board}: a player cannot meet themself",
                round=self.round,
                board=self.board,
            )

    def outcome_of(self, start: int) -> Outcome:
        if self.result is None:
            return Outcome.PENDING
        if start == self.white:
            return self.result.white
        if start == self.black:
            return self.result.black
        raise KeyError(start)

    def opponent_of(self, start: int) -> int:
        if start == self.white:
            return self.black
        if start == self.black:
            return self.white
        raise KeyError(start)


class ByeKind(Enum):
    """A round without an opponent."""

    PAIRING = "U"  # pairing-allocated bye (Swiss), worth the PAB value
    FULL = "F"
    HALF = "H"
    ZERO = "Z"
    FREE = "free"  # the free round of an odd round robin, worth Settings.bye_points

    @property
    def outcome(self) -> Outcome:
        return {
            ByeKind.PAIRING: Outcome.PAIRING_BYE,
            ByeKind.FULL: Outcome.FULL_BYE,
            ByeKind.HALF: Outcome.HALF_BYE,
            ByeKind.ZERO: Outcome.ZERO_BYE,
            ByeKind.FREE: Outcome.PENDING,
        }[self]


@dataclass(frozen=True, slots=True)
class Bye:
    round: int
    player: int
    kind: ByeKind


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    games: tuple[Game, ...] = ()
    byes: tuple[Bye, ...] = ()
    date: dt.date | None = None


class System(Enum):
    """A pairing system. The four built in are members; a plug-in adds its own with
    :func:`register_system` (``System("its-value")`` then finds it like any other)."""

    ROUND_ROBIN = "round-robin"
    SCHEVENINGEN = "scheveningen"
    SWISS_DUTCH = "dutch"
    KNOCKOUT = "knockout"

    @property
    def has_predetermined_pairings(self) -> bool:
        """C.07 15.2: round robins and Scheveningen are paired before round 1."""
        return self.value in _PREDETERMINED


#: the values of the systems that pair every round before round 1
_PREDETERMINED = {System.ROUND_ROBIN.value, System.SCHEVENINGEN.value}
_BUILT_IN = frozenset(system.value for system in System)


def register_system(value: str, name: str, *, predetermined: bool = False) -> System:
    """A new pairing system (a plug-in): ``System(value)``, ``System[name]`` and the
    iteration over ``System`` find it from now on; ``predetermined``: every round is
    paired before round 1 (it ranks and breaks ties as a round robin does).

    >>> toy = register_system("toy-doc", "TOY_DOC")
    >>> System("toy-doc") is toy, toy.name, toy.has_predetermined_pairings
    (True, 'TOY_DOC', False)
    >>> unregister_system("toy-doc")
    """
    found = System._value2member_map_.get(value)
    if isinstance(found, System):
        if found.name != name:
            raise RuleError(
                "system {value} is registered as {name}", value=repr(value), name=found.name
            )
        return found
    if name in System._member_map_:
        raise RuleError("system name {name} is taken", name=name)
    member: System = object.__new__(System)
    member._value_ = value
    member._name_ = name
    System._member_map_[name] = member
    System._member_names_.append(name)
    System._value2member_map_[value] = member
    if predetermined:
        _PREDETERMINED.add(value)
    return member


def unregister_system(value: str) -> None:
    """Forget a plug-in's system (its tests clean up after themselves); the built-in
    systems stay."""
    if value in _BUILT_IN:
        raise RuleError("system {value} is built in", value=repr(value))
    member = System._value2member_map_.pop(value, None)
    if member is not None:
        System._member_map_.pop(member.name, None)
        System._member_names_.remove(member.name)
    _PREDETERMINED.discard(value)


class WithdrawalRule(Enum):
    """What happens to a withdrawn player's games in the final standings."""

    FIDE_HALF = "fide-50"  # < 50 % played: annulled; ≥ 50 %: kept, the rest are forfeits
    KEEP = "keep"  # always kept
    ANNUL = "annul"  # always annulled


class RulesEdition(Enum):
    """Which text of FIDE C.07 (tie-breaks) applies."""

    C07_2024 = "2024"
    C07_2026 = "2026"


class LotsMethod(Enum):
    RANDOM = "random"
    RATING = "rating"
    MANUAL = "manual"


@dataclass(frozen=True, slots=True)
class Draw:
    """The drawing of lots: how the starting numbers came about, reproducibly."""

    method: LotsMethod
    seed: int | None = None
    # order[i] is the identifier (entry id, name…) of the player given starting number i + 1
    order: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Settings:
    system: System = System.ROUND_ROBIN
    cycles: int = 1
    point_system: PointSystem = field(default_factory=PointSystem)
    bye_points: Fraction | None = None  # None: 0 in a round robin, the PAB value in a Swiss
    tiebreaks: tuple[str, ...] = ()
    # changes of the tie-break list after round 1 started, each "old -> new: reason"
    tiebreak_overrides: tuple[str, ...] = ()
    withdrawal_rule: WithdrawalRule = WithdrawalRule.FIDE_HALF
    rules: RulesEdition = RulesEdition.C07_2024
    rounds: int | None = None  # planned number of rounds, when not implied by the system
    swap_last_rounds: bool = True  # FIDE's recommendation for double round robins
    time_control: str = ""
    # whether forfeits count as games in the tie-breaks of a round robin
    # (C.07 15.2, the default); False treats every forfeit as an unplayed round
    # (C.07 art. 16), see docs/tiebreaks.md "Forfeits in tie-breaks".
    forfeits_in_tiebreaks: bool = True
    # the seed of the lots that break the ties left after the whole list, when
    # the regulations ask for lots (drawn once, at the finish: service/lots.py); None:
    # such ties share a place
    lots_seed: int | None = None
    # the event lasts more than 30 days (ratings may change during it)
    long_event: bool = False
    # in such an event, rating-based tie-breaks read each opponent's rating of the round
    # the game was played; False: every player's first rating (the default)
    ratings_per_round: bool = False

    def __post_init__(self) -> None:
        if self.cycles < 1:
            raise RuleError(
                "cycles: {cycles} — a round robin has at least one cycle", cycles=self.cycles
            )
        if self.rounds is not None and self.rounds < 1:
            raise RuleError("rounds: {rounds} — at least one round", rounds=self.rounds)
        if self.bye_points is not None:
            check_bye_value(self.point_system, self.bye_points)

    @property
    def free_round_points(self) -> Fraction:
        """Points for a round without an opponent (odd round robin free round or Swiss PAB)."""
        if self.bye_points is not None:
            return self.bye_points
        if self.system.has_predetermined_pairings:
            return Fraction(0)
        return self.point_system.pairing_bye_points


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's round as TRF writes it: opponent (None: no opponent), colour, outcome."""

    round: int
    opponent: int | None
    colour: Colour
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class Tournament:
    """One section: settings, players by starting number, rounds in order."""

    settings: Settings = field(default_factory=Settings)
    players: tuple[Player, ...] = ()
    rounds: tuple[Round, ...] = ()
    name: str = ""
    withdrawn: frozenset[int] = frozenset()
    draw: Draw | None = None
    #: players expelled (also withdrawn): a Swiss leaves them out of its ranking, their
    #: games still counting for their opponents (FIDE's checklist Q197-198)
    expelled: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        numbers = [p.start for p in self.players]
        if numbers != list(range(1, len(numbers) + 1)):
            raise RuleError("starting numbers must be 1…N in order, each once")
        size = len(numbers)
        for rnd in self.rounds:
            seen: set[int] = set()
            for start in _round_players(rnd):
                if not 1 <= start <= size:
                    raise RuleError(
                        "round {round}: no player with starting number {start}",
                        round=rnd.number,
                        start=start,
                    )
                if start in seen:
                    raise RuleError(
                        "round {round}: player {start} appears twice", round=rnd.number, start=start
                    )
                seen.add(start)

    def player(self, start: int) -> Player:
        if not 1 <= start <= len(self.players):
            raise KeyError(start)
        return self.players[start - 1]

    def entries(self, start: int) -> list[Entry]:
        """The player's rounds, one :class:`Entry` per round (no opponent: ``Z``/free round)."""
        result: list[Entry] = []
        for rnd in self.rounds:
            result.append(self._entry(rnd, start))
        return result

    def _entry(self, rnd: Round, start: int) -> Entry:
        for game in rnd.games:
            if start in (game.white, game.black):
                colour = Colour.WHITE if start == game.white else Colour.BLACK
                return Entry(rnd.number, game.opponent_of(start), colour, game.outcome_of(start))
        for bye in rnd.byes:
            if bye.player == start:
                return Entry(rnd.number, None, Colour.NONE, bye.kind.outcome)
        return Entry(rnd.number, None, Colour.NONE, Outcome.ZERO_BYE)

    def score(self, start: int) -> Fraction:
        """The player's points over all rounds, with this tournament's point system."""
        total = Fraction(0)
        system = self.settings.point_system
        for rnd in self.rounds:
            for bye in rnd.byes:
                if bye.player == start and bye.kind is ByeKind.FREE:
                    total += self.settings.free_round_points
            total += self._entry(rnd, start).outcome.points(system)
        return total

    def with_result(self, round_number: int, board: int, result: GameResult | None) -> Tournament:
        """A copy with one game's result set (or cleared with None)."""
        rounds = list(self.rounds)
        for index, rnd in enumerate(rounds):
            if rnd.number != round_number:
                continue
            games = list(rnd.games)
            for gi, game in enumerate(games):
                if game.board == board:
                    games[gi] = replace(game, result=result)
                    rounds[index] = replace(rnd, games=tuple(games))
                    return replace(self, rounds=tuple(rounds))
            raise RuleError("round {round} has no board {board}", round=round_number, board=board)
        raise RuleError("there is no round {round}", round=round_number)


def _round_players(rnd: Round) -> list[int]:
    players: list[int] = []
    for game in rnd.games:
        players.extend((game.white, game.black))
    players.extend(bye.player for bye in rnd.byes)
    return players


class StageKind(Enum):
    GROUPS = "groups"
    KNOCKOUT = "knockout"
    FINAL = "final"
    SUPER_FINAL = "super-final"
