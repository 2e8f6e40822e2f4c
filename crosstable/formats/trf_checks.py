"""What a tournament report may not say, checked once the rounds are read.

Impossible data is refused with the file's line and column (``--lenient`` makes it a
warning): more than one pairing-allocated bye in one round, two players with the same
rank, more rounds played than the file declares. A Swiss round that breaks the Dutch
system's absolute rules (C.04.1) — a rematch of a played game, a player's second
pairing-allocated bye, a pairing-allocated bye after a forfeit win — is possible (an
arbiter may have decided so), so it is read with a warning naming the round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from crosstable.core.model import ByeKind, Outcome, System, Tournament
from crosstable.formats.trf_rounds import RawEntry
from crosstable.formats.trf_text import Line


@dataclass
class Findings:
    """Where the checks report: a refusal unless the reading is lenient."""

    lenient: bool
    warnings: list[str] = field(default_factory=list)

    def impossible(self, line: Line, column: int, problem: str) -> None:
        if not self.lenient:
            raise line.error(problem, column, recoverable=True)
        self.warnings.append(f"line {line.number}: {problem}")

    def rule_broken(self, line: Line, problem: str) -> None:
        self.warnings.append(f"line {line.number}: {problem}")


def check_rounds(
    tournament: Tournament,
    raw: Mapping[int, list[RawEntry]],
    declared: tuple[Line, int] | None,
    findings: Findings,
    teams: Sequence[Sequence[int]] = (),
) -> None:
    """The rounds' checks; ``raw`` gives each player's round entries (for their lines),
    ``declared`` the line that declares the number of rounds and its value, ``teams``
    the members of the file's teams (a team's PAB is a bye of each of its players)."""
    entry_of = {(e.player, e.round): e for entries in raw.values() for e in entries}
    _rounds_declared(raw, declared, findings)
    _one_pairing_bye_per_round(tournament, entry_of, findings, teams)
    if tournament.settings.system is System.SWISS_DUTCH:
        _swiss_absolute_rules(tournament, entry_of, findings)


def check_ranks(
    ranks: Mapping[int, int | None], lines: Mapping[int, Line], findings: Findings
) -> None:
    """Each rank (columns 86–89) belongs to one player (0, like a blank, ranks nobody)."""
    holder: dict[int, int] = {}
    for start in sorted(ranks):
        rank = ranks[start]
        if not rank:
            continue
        if rank in holder:
            findings.impossible(
                lines[start],
                86,
                f"player {start} has rank {rank}, as player {holder[rank]} has: "
                "each place belongs to one player",
            )
        else:
            holder[rank] = start


def _rounds_declared(
    raw: Mapping[int, list[RawEntry]], declared: tuple[Line, int] | None, findings: Findings
) -> None:
    if declared is None:
        return
    line, rounds = declared
    played = [e for entries in raw.values() for e in entries if e.round > rounds]
    if played:
        last = max(e.round for e in played)
        findings.impossible(
            line,
            5,
            f"the file declares {rounds} rounds but the players' lines hold round {last}",
        )


def _one_pairing_bye_per_round(
    tournament: Tournament,
    entry_of: Mapping[tuple[int, int], RawEntry],
    findings: Findings,
    teams: Sequence[Sequence[int]],
) -> None:
    owner = {start: number for number, members in enumerate(teams) for start in members}
    for rnd in tournament.rounds:
        given = [bye.player for bye in rnd.byes if bye.kind is ByeKind.PAIRING]
        if given and len({owner.get(p, -p) for p in given}) == 1:
            continue  # one player's bye, or the byes of one team's players
        for player in given[1:]:
            entry = entry_of[(player, rnd.number)]
            findings.impossible(
                entry.line,
                entry.column,
                f"round {rnd.number}: player {player} has a pairing-allocated bye, as player "
                f"{given[0]} has: a round has at most one",
            )


def _swiss_absolute_rules(
    tournament: Tournament, entry_of: Mapping[tuple[int, int], RawEntry], findings: Findings
) -> None:
    met: dict[frozenset[int], int] = {}
    pab: dict[int, int] = {}
    forfeit_win: dict[int, int] = {}
    for rnd in tournament.rounds:
        for bye in rnd.byes:
            if bye.kind is not ByeKind.PAIRING:
                continue
            line = entry_of[(bye.player, rnd.number)].line
            if bye.player in pab:
                findings.rule_broken(
                    line,
                    f"round {rnd.number}: player {bye.player} gets a second pairing-allocated "
                    f"bye (the first in round {pab[bye.player]}); the Dutch system gives one",
                )
            elif bye.player in forfeit_win:
                findings.rule_broken(
                    line,
                    f"round {rnd.number}: player {bye.player} gets a pairing-allocated bye "
                    f"after a forfeit win (round {forfeit_win[bye.player]}); "
                    "the Dutch system does not give one then",
                )
            pab.setdefault(bye.player, rnd.number)
        for game in rnd.games:
            for start in (game.white, game.black):
                if game.outcome_of(start) is Outcome.FORFEIT_WIN:
                    forfeit_win.setdefault(start, rnd.number)
            if game.result is not None and game.result.is_forfeit:
                continue
            pair = frozenset((game.white, game.black))
            if pair in met:
                findings.rule_broken(
                    entry_of[(game.white, rnd.number)].line,
                    f"round {rnd.number}: players {game.white} and {game.black} meet again "
                    f"(they played in round {met[pair]}); in a Swiss two players meet once",
                )
            else:
                met[pair] = rnd.number
