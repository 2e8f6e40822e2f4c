"""A team TRF checked and ranked without importing it (docs/teams.md, "Checking a team
TRF"): ``crosstable standings FILE`` and ``crosstable check FILE`` of a file the import
reads as a team tournament (:func:`.trf_plan.is_team_file`).

The file is read as the import reads it (:func:`.trf_plan.plan_team_import`: teams,
matches, line-ups, 352's colours, 330/320, the declared match and game points), so a
file the import refuses is refused here with the same message. Then:

* the standings are the team table by the file's team tie-breaks (202, else the
  defaults), as the import computes them;
* a team round robin's rounds are compared with the teams' FIDE Berger table (the
  file's team numbers are the table's), as a round robin of players is;
* a team Swiss's rounds are re-paired one by one from the rounds before them by FIDE's
  Olympiad Pairing Rules, the method this program pairs a team Swiss with, and
  compared: the same matches, the same team White on board 1, the same team PAB;
* the teams' ranks in 310 are compared with the places of the team table.

What is not checked is said in the report's notes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from crosstable.core.checker.compare import compare_round
from crosstable.core.checker.findings import CheckReport, Finding, RankCheck, RoundVerdict
from crosstable.core.checker.round_robin import check_round_robin
from crosstable.core.errors import RuleError
from crosstable.core.model import ByeKind, Colour, Game, Player, Round, System, Tournament
from crosstable.core.pairing.dutch import default_rounds
from crosstable.core.teams import Team
from crosstable.core.teams.matches import Match, rounds_of_matches
from crosstable.core.teams.standings import TeamStandings
from crosstable.core.teams.swiss_pair import pair_teams, team_swiss_request
from crosstable.formats.trf_model import TrfDocument
from crosstable.service.teams.trf_plan import TeamPlan, plan_team_import

#: what the check of a team file leaves out, whatever the file
NOT_CHECKED = (
    "not checked: the line-ups by any rule of their own (they are read as the import "
    "reads them: in the roster order or as 300 lists them, the colours down the boards "
    "as 352 says)"
)
#: and what it leaves out of a team Swiss
NOT_CHECKED_SWISS = (
    "a team Swiss is re-paired by the Olympiad Pairing Rules only: one paired by the "
    "Dutch rules with teams differs (a TRF does not say the method)"
)


def team_file_standings(
    doc: TrfDocument, source: str, tiebreaks: Sequence[str] | None = None
) -> tuple[TeamPlan, TeamStandings]:
    """The team table of a team file, by its team tie-breaks (``tiebreaks``: others);
    InputError for a file the import refuses, RuleError for an unknown team code."""
    plan = plan_team_import(doc, source)
    return plan, plan.standings(tiebreaks)


def check_team_file(doc: TrfDocument, source: str) -> tuple[TeamPlan, CheckReport]:
    """Every round of a team file against its team system, then the teams' ranks
    against the team table; InputError for a file the import refuses."""
    plan = plan_team_import(doc, source)
    teams = plan.core_teams()
    matches = rounds_of_matches(plan.tournament, teams)
    notes = list(plan.notes)
    if plan.system is System.ROUND_ROBIN:
        rounds, said = check_round_robin(_team_view(plan, matches))
        count = f"{len(teams)} "
        notes.extend(note.replace(count + "players", count + "teams") for note in said)
        method = "berger"
    else:
        rounds = _swiss_rounds(plan, teams, matches, doc.initial_colour)
        bye = plan.settings.scoring.bye
        notes.append(f"the team PAB: {bye[0]} match points, {bye[1]} game points")
        notes.append(NOT_CHECKED_SWISS)
        method = "olympiad"
    notes.append(NOT_CHECKED)
    ranks = _ranks(doc, plan, matches)
    return plan, CheckReport(plan.system, method, rounds, ranks, tuple(notes))


def _team_view(plan: TeamPlan, matches: Sequence[Sequence[Match]]) -> Tournament:
    """The teams as the players of a round robin, each match a game (its team White on
    board 1 White), so that the round robin's own check reads it."""
    players = tuple(Player(number, name) for number, name, _ in plan.teams)
    rounds = tuple(
        Round(rnd.number, tuple(Game(rnd.number, k, m.white, m.black) for k, m in enumerate(ms, 1)))
        for rnd, ms in zip(plan.tournament.rounds, matches, strict=True)
    )
    settings = replace(plan.tournament.settings, system=System.ROUND_ROBIN, cycles=plan.cycles)
    return Tournament(players=players, rounds=rounds, settings=settings)


def _swiss_rounds(
    plan: TeamPlan,
    teams: Sequence[Team],
    matches: Sequence[Sequence[Match]],
    declared: Colour | None,
) -> tuple[RoundVerdict, ...]:
    swiss = plan.settings.swiss
    assert swiss is not None  # (a team Swiss's plan has its Swiss settings)
    games = plan.tournament
    owner = {s: n for n, _, members in plan.teams for s in members}
    total = max(games.settings.rounds or default_rounds(len(teams)), len(games.rounds))
    initial = declared or plan.first_colour() or Colour.WHITE
    verdicts = []
    for rnd, ms in zip(games.rounds, matches, strict=True):
        played = tuple((m.white, m.black) for m in ms)
        bye = next(
            (owner[b.player] for b in rnd.byes if b.kind is ByeKind.PAIRING and b.player in owner),
            None,
        )
        if not played and bye is None:
            continue  # (a round the file lists without any match)
        busy = {t for m in ms for t in (m.white, m.black)} | ({bye} if bye is not None else set())
        try:
            request = team_swiss_request(
                games,
                teams,
                round_number=rnd.number,
                total_rounds=total,
                scoring=plan.settings.scoring,
                settings=swiss,
                initial_colour=initial,
                absent=frozenset(t.start for t in teams if t.start not in busy),
            )
            expected = pair_teams(request)
        except RuleError as error:
            message = f"the rules allow no pairing of round {rnd.number}: {error}"
            finding = Finding("no-pairing", message, rnd.number)
            verdicts.append(RoundVerdict(rnd.number, played, bye, None, None, (finding,)))
            continue
        found = compare_round(rnd.number, played, bye, expected.boards, expected.bye)
        verdicts.append(RoundVerdict(rnd.number, played, bye, expected.boards, expected.bye, found))
    return tuple(verdicts)


def _ranks(doc: TrfDocument, plan: TeamPlan, matches: Sequence[Sequence[Match]]) -> RankCheck:
    """The ranks of the 310 records against the team table's places (a tie shares them)."""
    table = plan.standings()
    after = max(
        (
            rnd.number
            for rnd, ms in zip(plan.tournament.rounds, matches, strict=True)
            if ms or rnd.byes
        ),
        default=0,
    )
    given = {
        team.number if team.number is not None else index: team.rank
        for index, team in enumerate(doc.teams, 1)
        if team.rank is not None
    }
    if not given or not plan.tournament.rounds:
        return RankCheck(table.tiebreaks, False, after)
    runs: dict[int, int] = {}
    for row in table.rows:
        runs[row.place] = runs.get(row.place, 0) + 1
    findings = []
    for row in table.rows:
        rank = given.get(row.team)
        if rank is None:
            continue
        low, high = row.place, row.place + runs[row.place] - 1
        if low <= rank <= high:
            continue
        places = str(low) if low == high else f"{low}–{high}"
        message = f"team {row.team} is placed {rank} in the file; the team table places it {places}"
        findings.append(Finding("rank", message, after, (row.team,)))
    return RankCheck(table.tiebreaks, True, after, tuple(findings))


__all__ = ["NOT_CHECKED", "NOT_CHECKED_SWISS", "check_team_file", "team_file_standings"]
