"""Small things of the team pages: a team's tie-break explanation names the team (in
every language), the tab bar's live links know the Teams tab, and the Armenian texts
call a board by one word, the seed's "սեղան"."""

from __future__ import annotations

from pathlib import Path

from test_service_support import make_service, migrated

from crosstable.core.teams import team_standings
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.test_team_core import load_case
from tests.test_team_web import played_league

LOCALE = Path(__file__).resolve().parents[1] / "crosstable" / "web" / "locale" / "hy"


def test_r_b_3_a_team_explanation_names_the_team() -> None:
    teams, games, _ = load_case("club_league.json")
    table = team_standings(games, teams, ("EMGSB", "EDE"))
    for code in ("EMGSB", "EDE"):
        text = str(table.explain(1, code).text())
        assert text.startswith(f"{code} of team 1 =")
        assert "player" not in text.splitlines()[0]


def test_r_b_3_the_tab_links_know_the_teams_tab(tmp_path: Path) -> None:
    service = make_service(open_store(migrated(f"sqlite:///{tmp_path / 'tabs.db'}")))
    tid = played_league(service)
    with TestClient(create_app(service=service)) as client:
        links = client.get(f"/t/{tid}/tabs?tab=teams").text
        assert f'href="/t/{tid}/teams" aria-current="page"' in links
        page = client.get(f"/t/{tid}/teams").text
        assert f'data-live-tabs="/t/{tid}/tabs?tab=teams"' in page
        assert 'data-live-refresh="/t/' in page and 'data-quiet="1"' in page


def test_r_b_3_armenian_calls_a_board_one_word() -> None:
    for name in ("errors.po", "messages.po"):
        lines = (LOCALE / "LC_MESSAGES" / name).read_text(encoding="utf-8").splitlines()
        translated = [line for line in lines if line.startswith("msgstr")]
        # "խաղատախտակ" is the chessboard ("over the board"), not a board of a match
        offending = [
            line for line in translated if "տախտակ" in line.lower().replace("խաղատախտակ", "")
        ]
        assert offending == [], offending
