"""Title norms (FIDE Title Regulations B.01, effective 1 January 2024; docs/ratings.md).

For each player and each of the GM, IM, WGM and WIM norms: is it made, can it
still be made with the rounds left, and if not, which requirement fails.

A norm needs (B.01 1.4): at least 9 games (1.4.1; 8 in a 9-round event when the
ninth was a forfeit win or a pairing-allocated bye, 1.4.1c), opponents from at
least two federations other than the player's (1.4.3), at most 3/5 of them from
the player's federation and at most 2/3 from any one federation (1.4.4,
maxima rounded down), at least half title-holders other than CM/WCM (1.4.5a)
and a third, at least 3, holding the norm's title or a higher one (1.4.5b-e,
minima rounded up); the average rating Ra of the opponents (1.4.6-1.4.7: an
unrated opponent counts as 1400, the lowest opponent below the norm's rating
floor is raised to it, only one, the average rounded .5 up) at least the norm's
minimum, a score of at least 35 % and a performance Ra + dp(p) at least the
norm's level (1.4.8-1.4.9, p rounded to a whole percentage, .5 up).

Counted games: played over the board with a normal result (1.4.2c); in a round
robin not the games against an unrated opponent who scored nothing against the
rated players (1.4.2b). The federation rule can be waived for the events of
1.4.3a-d (a national championship's final, a Swiss with 20 foreign rated
players …): ``federation_exempt``. Norms are made only in standard chess
(1.1.3): at a rapid or blitz time control every check is "not possible".

With rounds left: in a round robin the remaining opponents are known (the
schedule: every player not met yet, once a cycle, whether or not the file has
the later rounds' pairings), so the norm's requirements are checked over all of
them and the score still needed is exact — a round robin's norm counts every
scheduled game (1.4.1e). In a Swiss they are not, so the check assumes the
best possible remaining opponents for the mix and their average rating equal to
that of the opponents met so far (an estimate, marked so); and a Swiss norm
made with the results up to some round, of at least 9 games, counts whatever
the later rounds bring (1.4.1e): the report gives the round it was made in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from crosstable.core.model import Colour, Entry, Outcome, System, Tournament
from crosstable.core.ratings.rules import RatingType, read_time_control
from crosstable.core.scoring import points_json
from crosstable.core.tiebreaks.fide_tables import dp
from crosstable.core.tiebreaks.ratings import round_half_up


@dataclass(frozen=True, slots=True)
class NormRule:
    code: str
    performance: int  # 1.4.8
    average: int  # 1.4.8a
    floor: int  # 1.4.6b
    titles: frozenset[str]  # the norm's title or higher (1.4.5b-e)
    women: bool


NORMS = (
    NormRule("GM", 2600, 2380, 2200, frozenset({"GM"}), False),
    NormRule("IM", 2450, 2230, 2050, frozenset({"GM", "IM"}), False),
    NormRule("WGM", 2400, 2180, 2000, frozenset({"GM", "IM", "WGM"}), True),
    NormRule("WIM", 2250, 2030, 1850, frozenset({"GM", "IM", "WGM", "WIM"}), True),
)
#: 1.4.5a: title-holders (CM and WCM do not count)
TITLE_HOLDERS = frozenset({"GM", "IM", "FM", "WGM", "WIM", "WFM"})
#: titles a player holds that make a norm pointless
_COVERED = {
    "GM": {"GM", "IM", "WGM", "WIM"},
    "IM": {"IM", "WIM"},
    "WGM": {"WGM", "WIM"},
    "WIM": {"WIM"},
}
_TRF_TITLES = {"G": "GM", "M": "IM", "F": "FM", "C": "CM", "WG": "WGM", "WM": "WIM"}
_TRF_TITLES |= {"WF": "WFM", "WC": "WCM"}
UNRATED_AS = 1400  # 1.4.6d
MIN_GAMES = 9  # 1.4.1a
MIN_PERCENTAGE = 35  # 1.4.8b
MAX_COUNTED = 13  # 1.7
_NOT_A_FEDERATION = frozenset({"", "FID"})  # FIDE-flagged players count for no federation


def title_code(text: str) -> str:
    """A title as TRF writes it (``g``, ``wm``) or in full (``GM``), as ``GM``, ``WIM`` …

    >>> title_code("g"), title_code("wm"), title_code("IM"), title_code("")
    ('GM', 'WIM', 'IM', '')
    """
    word = text.strip().upper()
    return _TRF_TITLES.get(word, word)


@dataclass(frozen=True, slots=True)
class Opponent:
    start: int
    rating: int | None
    title: str  # as title_code gives it
    federation: str


@dataclass(frozen=True, slots=True)
class NormCheck:
    """One norm for one player."""

    norm: str
    status: str  # "made", "secured", "possible", "not possible"
    games: int  # counted games played
    score: Fraction
    average: int | None  # Ra (1.4.7), over the opponents the check uses
    performance: int | None  # Rp = Ra + dp over the games played
    required: Fraction | None  # total score the norm needs, None if out of reach
    still_needed: Fraction | None  # from the games left
    games_left: int
    estimate: bool  # a Swiss with rounds left: future opponents assumed
    failures: tuple[str, ...]  # the requirements not met (or no longer reachable)
    counts_as: int = 0  # games the made norm counts for in a title application
    #: a Swiss norm made before the event's last round (1.4.1e): the round of its last
    #: game (its figures are those up to that round); None: it rests on every game
    made_after_round: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerNorms:
    start: int
    name: str
    checks: tuple[NormCheck, ...]


def adjusted_average(ratings: list[int | None], floor: int) -> int | None:
    """Ra (1.4.6-1.4.7): unrated as 1400, the lowest below the floor raised to it, .5 up.

    >>> adjusted_average([2500, 2400, None], 2200)   # 1400 raised to 2200
    2367
    >>> adjusted_average([2000, 2100, 2500], 2200)   # only the 2000 is raised
    2267
    """
    if not ratings:
        return None
    counted = sorted(UNRATED_AS if r is None else r for r in ratings)
    if counted[0] < floor:
        counted[0] = floor
    return round_half_up(sum(counted), len(counted))


def percentage(halves: int, games: int) -> int:
    """The score as a whole percentage, .5 up (1.4.9)."""
    return round_half_up(100 * halves, 2 * games)


def required_score(average: int, games: int, rule: NormRule) -> Fraction | None:
    """The least score over ``games`` games against an average of ``average`` that makes
    the norm's performance and 35 % (None: not even with every game won).

    >>> required_score(2380, 9, NORMS[0]), required_score(2434, 9, NORMS[0])
    (Fraction(7, 1), Fraction(13, 2))
    """
    if games <= 0 or average < rule.average:
        return None
    for halves in range(2 * games + 1):
        share = percentage(halves, games)
        if share >= MIN_PERCENTAGE and average + dp(share) >= rule.performance:
            return Fraction(halves, 2)
    return None


def mix_failures(
    opponents: list[Opponent], games: int, own: str, rule: NormRule, exempt: bool, extra: int = 0
) -> list[str]:
    """The opponent-mix requirements (1.4.3-1.4.5) ``opponents`` fail for ``games`` games;
    ``extra`` opponents still to come are assumed to help every requirement."""
    failures: list[str] = []
    own = own.strip().upper()
    federations = Counter(o.federation.strip().upper() for o in opponents)
    if not exempt:
        foreign = {f for f in federations if f not in _NOT_A_FEDERATION and f != own}
        if len(foreign) + extra < 2:
            failures.append("opponents from at least 2 federations other than the player's")
        home = federations.get(own, 0) if own not in _NOT_A_FEDERATION else 0
        if home > 3 * games // 5:
            failures.append(f"at most {3 * games // 5} opponents from the player's federation")
        counted = [n for f, n in federations.items() if f not in _NOT_A_FEDERATION]
        if counted and max(counted) > 2 * games // 3:
            failures.append(f"at most {2 * games // 3} opponents from one federation")
    holders = sum(1 for o in opponents if o.title in TITLE_HOLDERS)
    if holders + extra < -(-games // 2):
        failures.append(f"at least {-(-games // 2)} title-holders among the opponents")
    needed = max(3, -(-games // 3))
    if sum(1 for o in opponents if o.title in rule.titles) + extra < needed:
        failures.append(f"at least {needed} opponents with the {rule.code} title or higher")
    return failures


def check_norm(
    rule: NormRule,
    own_federation: str,
    played: list[tuple[Opponent, int]],
    future: list[Opponent],
    unknown_left: int,
    *,
    exempt: bool = False,
    bye_counts: bool = False,
    swiss: bool = False,
    rounds: Sequence[int] = (),
) -> NormCheck:
    """One norm from the games ``played`` ((opponent, result in halves) each, in round
    order; ``rounds``: the round of each, else 1, 2 …), the ``future`` opponents
    already known (a round robin's schedule, a Swiss's paired round) and
    ``unknown_left`` rounds whose opponents are not known yet. ``bye_counts``: 1.4.1c
    applies to the 8 games. ``swiss`` (also when ``unknown_left``): a norm made with
    the results up to some round counts (1.4.1e); a round robin counts every game."""
    swiss = swiss or unknown_left > 0
    opponents = [o for o, _ in played]
    halves = sum(h for _, h in played)
    n = len(played)
    score = Fraction(halves, 2)
    average_now = adjusted_average([o.rating for o in opponents], rule.floor)
    rp = None if average_now is None else average_now + dp(percentage(halves, n))
    left = len(future) + unknown_left
    if not left:
        counted = n + 1 if bye_counts and n == MIN_GAMES - 1 else n
        failures = _final_failures(rule, own_federation, opponents, n, counted, halves, exempt)
        if failures and swiss:  # 1.4.1e: made with the results up to an earlier round?
            early = _made_before(rule, own_federation, played[:-1], rounds, exempt, earlier=True)
            if early is not None:
                return early
        required = None if average_now is None else required_score(average_now, n, rule)
        return NormCheck(
            rule.code, "not possible" if failures else "made", n, score, average_now, rp,
            required, None, 0, False, tuple(failures),
            0 if failures else counts_as(counted, score, required),
        )  # fmt: skip
    if swiss:  # 1.4.1e: made with the results so far (or up to an earlier round)
        made = _made_before(rule, own_federation, played, rounds, exempt, games_left=left)
        if made is not None:
            return made
    everyone = opponents + future
    total = n + left
    if not swiss:  # a round robin: every remaining opponent known
        average = adjusted_average([o.rating for o in everyone], rule.floor)
        failures = mix_failures(everyone, total, own_federation, rule, exempt)
        estimate = False
    else:  # a Swiss: the best case for the mix, the average so far for the rest
        average = adjusted_average([o.rating for o in everyone], rule.floor)
        failures = mix_failures(everyone, total, own_federation, rule, exempt, extra=unknown_left)
        estimate = unknown_left > 0
    if total < MIN_GAMES:
        failures.insert(0, f"at least {MIN_GAMES} games")
    required = None if average is None else required_score(average, total, rule)
    if average is not None and average < rule.average:
        failures.append(f"opponents' average rating at least {rule.average} (is {average})")
    elif required is None and average is not None:
        failures.append(f"performance {rule.performance}: out of reach")
    needed = None if required is None else max(required - score, Fraction(0))
    if needed is not None and needed > left:
        failures.append(f"needs {_points(needed)} from {left} games left")
    if failures:
        status = "not possible"
    elif needed == 0 and not swiss:
        status = "secured"  # a round robin's norm counts every scheduled game (1.4.1e)
    else:
        status = "possible"
    return NormCheck(
        rule.code, status, n, score, average, rp, required, needed, left, estimate,
        tuple(failures),
    )  # fmt: skip


def _made_before(
    rule: NormRule,
    own: str,
    played: list[tuple[Opponent, int]],
    rounds: Sequence[int],
    exempt: bool,
    *,
    games_left: int = 0,
    earlier: bool = False,
) -> NormCheck | None:
    """A Swiss norm made with the results up to some round (1.4.1e), at least 9 games
    (1.4.1a): every requirement met by the games up to then. The games so far first;
    else the earlier round whose norm counts for the most games (1.4.1d), the later of
    equals. None: no round's results make it. ``earlier``: ``played`` are the games
    before the event's last one (the whole event does not make the norm)."""
    best: NormCheck | None = None
    for k in range(len(played), MIN_GAMES - 1, -1):
        games = played[:k]
        opponents = [o for o, _ in games]
        halves = sum(h for _, h in games)
        if _final_failures(rule, own, opponents, k, k, halves, exempt):
            continue
        average = adjusted_average([o.rating for o in opponents], rule.floor)
        assert average is not None
        score = Fraction(halves, 2)
        required = required_score(average, k, rule)
        every = not earlier and k == len(played) and not games_left
        check = NormCheck(
            rule.code, "made", k, score, average, average + dp(percentage(halves, k)),
            required, None, games_left, False, (), counts_as(k, score, required),
            None if every else (rounds[k - 1] if len(rounds) >= k else k),
        )  # fmt: skip
        if not earlier and k == len(played):
            return check
        if best is None or check.counts_as > best.counts_as:
            best = check
    return best


def counts_as(games: int, score: Fraction, required: Fraction | None) -> int:
    """The games a made norm counts for: each full point above the score required
    adds one (1.4.1d), at most 13 (1.7: a longer event counts as 13 games).

    >>> counts_as(9, Fraction(9), Fraction(7)), counts_as(9, Fraction(15, 2), Fraction(7))
    (11, 9)
    >>> counts_as(15, Fraction(12), Fraction(10))
    13
    """
    extra = 0 if required is None else int(score - required)
    return min(games + max(extra, 0), MAX_COUNTED)


def _final_failures(
    rule: NormRule,
    own: str,
    opponents: list[Opponent],
    n: int,
    counted: int,
    halves: int,
    exempt: bool,
) -> list[str]:
    failures = []
    if counted < MIN_GAMES:
        failures.append(f"at least {MIN_GAMES} games (has {n})")
    if n == 0:
        return failures
    failures.extend(mix_failures(opponents, n, own, rule, exempt))
    average = adjusted_average([o.rating for o in opponents], rule.floor)
    assert average is not None
    if average < rule.average:
        failures.append(f"opponents' average rating at least {rule.average} (is {average})")
    share = percentage(halves, n)
    if share < MIN_PERCENTAGE:
        failures.append(f"a score of at least {MIN_PERCENTAGE} % (is {share} %)")
    if average + dp(share) < rule.performance:
        failures.append(f"performance at least {rule.performance} (is {average + dp(share)})")
    return failures


def _points(value: Fraction) -> str:
    whole, half = divmod(value, 1)
    return f"{int(whole)}½" if half else str(int(whole))


def tournament_norms(
    tournament: Tournament,
    *,
    federation_exempt: bool = False,
    planned_rounds: int | None = None,
    only: int | None = None,
    time_control: str | None = None,
) -> tuple[PlayerNorms, ...]:
    """Every player's norm checks (only the norms the player could use: women's norms
    for women, none the player's own title already covers); ``only``: one player's.
    ``time_control``: the event's (default: the tournament's own); at rapid or blitz
    no norm is possible (1.1.3), absent or unreadable it is taken as standard."""
    players = {p.start: p for p in tournament.players}
    opponent = {
        p.start: Opponent(p.start, p.rating, title_code(p.title), p.federation)
        for p in tournament.players
    }
    robin = tournament.settings.system.has_predetermined_pairings
    scheduled = _scheduled_rounds(tournament) if robin else None
    planned = planned_rounds or tournament.settings.rounds or scheduled or len(tournament.rounds)
    # a round robin whose later rounds are not in the file yet still owes their games
    owed = tournament.settings.system is System.ROUND_ROBIN and len(tournament.rounds) < planned
    entries: dict[int, list[Entry]] = (
        entries_by_player(tournament) if only is None else _Entries(tournament)
    )
    blank = _blank_unrated(tournament, entries, complete=not owed) if robin else set()
    too_fast = time_control_failure(
        tournament.settings.time_control if time_control is None else time_control
    )
    out = []
    for start, player in players.items():
        if only is not None and start != only:
            continue
        played: list[tuple[Opponent, int]] = []
        played_in: list[int] = []
        future: list[Opponent] = []
        used = 0
        missed_free = False
        for entry in entries[start]:
            outcome = entry.outcome
            if outcome is Outcome.PENDING and entry.opponent is not None:
                future.append(opponent[entry.opponent])
                continue
            if outcome in (Outcome.PENDING, Outcome.UNKNOWN):
                if entry.opponent is None and robin:
                    used += 1  # the free round of an odd round robin
                continue
            used += 1
            if outcome in (Outcome.FORFEIT_WIN, Outcome.PAIRING_BYE):
                missed_free = True
            if outcome.is_rated and entry.opponent is not None and entry.opponent not in blank:
                halves = {Outcome.WIN: 2, Outcome.DRAW: 1, Outcome.LOSS: 0}[outcome]
                played.append((opponent[entry.opponent], halves))
                played_in.append(entry.round)
        if owed:
            future.extend(opponent[o] for o in _still_to_meet(tournament, start, entries))
        unknown = 0 if robin else max(planned - used - len(future), 0)
        own_title = title_code(player.title)
        covered = _COVERED.get(own_title, set())
        checks = tuple(
            check_norm(
                rule,
                player.federation,
                played,
                future,
                unknown,
                exempt=federation_exempt,
                bye_counts=missed_free and planned == MIN_GAMES,
                swiss=not robin,
                rounds=played_in,
            )
            for rule in NORMS
            if rule.code not in covered and (not rule.women or player.sex.lower() == "w")
        )
        if too_fast is not None:  # the figures stay, the norm is refused
            checks = tuple(
                replace(c, status="not possible", still_needed=None, counts_as=0,
                        failures=(too_fast, *c.failures), made_after_round=None)
                for c in checks
            )  # fmt: skip
        out.append(PlayerNorms(start, player.name, checks))
    return tuple(out)


def time_control_failure(time_control: str) -> str | None:
    """1.1.3: norms only in standard chess. The failure for a time control read as
    rapid or blitz (or faster); None for standard, none or one not read (standard).

    >>> time_control_failure("15+10"), time_control_failure("90+30"), time_control_failure("")
    ('a standard time control (15+10 is rapid)', None, None)
    """
    read = read_time_control(time_control)
    if read is None or read[0] is RatingType.STANDARD:
        return None
    name = "too fast to be rated" if read[0] is None else read[0].value
    return f"a standard time control ({read[1]} is {name})"


def _scheduled_rounds(tournament: Tournament) -> int:
    """The rounds of a round robin's schedule: n − 1 per cycle for an even field, n odd."""
    size = len(tournament.players)
    per_cycle = size - 1 if size % 2 == 0 else size
    return per_cycle * tournament.settings.cycles


def _still_to_meet(
    tournament: Tournament, start: int, entries: dict[int, list[Entry]]
) -> list[int]:
    """The opponents a round robin's schedule still owes ``start``, not in the file yet:
    each other player once a cycle, less the games the file has (played or paired);
    a withdrawn player owes and is owed none."""
    if start in tournament.withdrawn:
        return []
    met = Counter(e.opponent for e in entries[start] if e.opponent is not None)
    cycles = tournament.settings.cycles
    return [
        p.start
        for p in tournament.players
        if p.start != start and p.start not in tournament.withdrawn
        for _ in range(max(cycles - met[p.start], 0))
    ]


def entries_by_player(tournament: Tournament) -> dict[int, list[Entry]]:
    """:meth:`Tournament.entries` of every player, in one pass over the rounds.

    >>> from crosstable.core.model import Game, Player, Round
    >>> t = Tournament(players=(Player(1, "A"), Player(2, "B"), Player(3, "C")),
    ...                rounds=(Round(1, (Game(1, 1, 1, 2),)),))
    >>> entries_by_player(t) == {p.start: t.entries(p.start) for p in t.players}
    True
    """
    out: dict[int, list[Entry]] = {p.start: [] for p in tournament.players}
    for rnd in tournament.rounds:
        seen = set()
        for game in rnd.games:
            for start, colour in ((game.white, Colour.WHITE), (game.black, Colour.BLACK)):
                opponent = game.opponent_of(start)
                out[start].append(Entry(rnd.number, opponent, colour, game.outcome_of(start)))
                seen.add(start)
        for bye in rnd.byes:
            if bye.player not in seen:
                out[bye.player].append(Entry(rnd.number, None, Colour.NONE, bye.kind.outcome))
                seen.add(bye.player)
        for start, rows in out.items():
            if start not in seen:
                rows.append(Entry(rnd.number, None, Colour.NONE, Outcome.ZERO_BYE))
    return out


class _Entries(dict[int, list[Entry]]):
    """Players' rounds read when first asked for (one player's page needs few)."""

    def __init__(self, tournament: Tournament) -> None:
        super().__init__()
        self.tournament = tournament

    def __missing__(self, start: int) -> list[Entry]:
        value = self[start] = self.tournament.entries(start)
        return value


#: 1.4.3d: a Swiss whose field waives the federation rule
LARGE_SWISS_FOREIGN = 20
LARGE_SWISS_FEDERATIONS = 3
LARGE_SWISS_TITLED = 10
_NORM_TITLES = frozenset({"GM", "IM", "WGM", "WIM"})


def large_swiss(tournament: Tournament, host: str) -> bool:
    """1.4.3d: a Swiss with at least 20 FIDE-rated players not of the host federation,
    of at least 3 federations, 10 of them GM, IM, WGM or WIM — counting only players
    who missed at most one round (a pairing-allocated bye is not missed). The rule
    asks it of every round; players who missed at most one round are taken as there.

    >>> large_swiss(Tournament(), "ENG")
    False
    """
    if tournament.settings.system.has_predetermined_pairings:
        return False
    host = host.strip().upper()
    entries = entries_by_player(tournament)
    counted = []
    for player in tournament.players:
        federation = player.federation.strip().upper()
        if player.rating is None or federation in _NOT_A_FEDERATION or federation == host:
            continue
        missed = sum(
            1
            for e in entries[player.start]
            if e.outcome.is_decided
            and not e.outcome.is_over_the_board
            and e.outcome not in (Outcome.PAIRING_BYE, Outcome.FORFEIT_WIN)
        )
        if missed <= 1:
            counted.append(player)
    return (
        len(counted) >= LARGE_SWISS_FOREIGN
        and len({p.federation.strip().upper() for p in counted}) >= LARGE_SWISS_FEDERATIONS
        and sum(1 for p in counted if title_code(p.title) in _NORM_TITLES) >= LARGE_SWISS_TITLED
    )


def _blank_unrated(
    tournament: Tournament, entries: dict[int, list[Entry]], *, complete: bool = True
) -> set[int]:
    """1.4.2b: unrated players of a round robin who scored nothing against rated ones
    (known only once they have played all their games: ``complete``, every round in)."""
    if not complete:
        return set()
    rated = {p.start for p in tournament.players if p.rating is not None}
    blank = set()
    for player in tournament.players:
        if player.rating is not None:
            continue
        scored = any(
            e.opponent in rated and e.outcome in (Outcome.WIN, Outcome.DRAW)
            for e in entries[player.start]
        )
        finished = all(e.outcome.is_decided for e in entries[player.start])
        if not scored and finished:
            blank.add(player.start)
    return blank


def check_json(check: NormCheck) -> dict[str, object]:
    """One norm check as the command line's JSON writes it."""

    return {
        "norm": check.norm,
        "status": check.status,
        "games": check.games,
        "score": points_json(check.score),
        "average": check.average,
        "performance": check.performance,
        "required": points_json(check.required),
        "still_needed": points_json(check.still_needed),
        "games_left": check.games_left,
        "estimate": check.estimate,
        "failures": list(check.failures),
        "counts_as": check.counts_as,
        "made_after_round": check.made_after_round,
    }
