"""Team competitions: teams and line-ups, matches, team standings and tie-breaks,
board prizes, the team round robin, Bughouse pairs."""

from crosstable.core.teams.boards import BoardPrize, BoardRecord, board_prizes, player_scores
from crosstable.core.teams.bughouse import BUGHOUSE  # the kind, registered on import
from crosstable.core.teams.matches import (
    Match,
    TeamScoring,
    check_match_score,
    forfeit_boards,
    rounds_of_matches,
    seat_match,
)
from crosstable.core.teams.pairing import seat_round, team_round_robin
from crosstable.core.teams.records import MatchRow, TeamField, TeamRecord, team_field
from crosstable.core.teams.roster import LineUp, Team, check_lineup, check_rosters
from crosstable.core.teams.standings import (
    DEFAULT_TEAM_TIEBREAKS,
    TeamRow,
    TeamStandings,
    team_standings,
)
from crosstable.core.teams.tiebreaks import TEAM_TIEBREAKS, team_tiebreak

__all__ = [
    "BUGHOUSE",
    "DEFAULT_TEAM_TIEBREAKS",
    "TEAM_TIEBREAKS",
    "BoardPrize",
    "BoardRecord",
    "LineUp",
    "Match",
    "MatchRow",
    "Team",
    "TeamField",
    "TeamRecord",
    "TeamRow",
    "TeamScoring",
    "TeamStandings",
    "board_prizes",
    "check_lineup",
    "check_match_score",
    "check_rosters",
    "forfeit_boards",
    "player_scores",
    "rounds_of_matches",
    "seat_match",
    "seat_round",
    "team_field",
    "team_round_robin",
    "team_standings",
    "team_tiebreak",
]
