"""Tie-break explanations in the reader's language (issue 14 item 4): the explain page and
the JSON API write SB, Buchholz, DE, the points and the standings' "why" lines in Russian,
decimals as Russian writes them ("0,5"), and the English text stays as it always was.

Seed 003's six-player club table (crosstable/examples/club_rr6.trf), ranked as a Swiss so
that Buchholz counts (C.07 2026 art. 8 keeps it out of round robins)."""

from __future__ import annotations

import re
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest
from test_service_support import migrated

from crosstable.core.model import Game, GameResult, Player, Round, System, Tournament
from crosstable.core.standings.table import Standings, compute_standings
from crosstable.core.text import Message
from crosstable.core.tiebreaks.explain import Explanation
from crosstable.formats.trf import parse_trf
from crosstable.web.messages import translate

#: player 3 (Белова) of seed 003's table, in English: as the explanations always read
ENGLISH = {
    "SB": (
        "SB of player 3 = 5.25\n"
        "  round 1: opponent 4: score 2.5; won: the full score  → 2.5\n"
        "  round 2: opponent 5: score 2; won: the full score  → 2\n"
        "  round 3: opponent 1: score 4; lost: nothing  → 0\n"
        "  round 4: opponent 2: score 2.5; lost: nothing  → 0\n"
        "  round 5: opponent 6: score 1.5; drawn: 0.5 × 1.5  → 0.75\n"
        "  (2.5 + 2) + 0.5 × (1.5) = 5.25"
    ),
    "BH": (
        "BH of player 3 = 12.5\n"
        "  round 1: opponent 4: score 2.5  → 2.5\n"
        "  round 2: opponent 5: score 2  → 2\n"
        "  round 3: opponent 1: score 4  → 4\n"
        "  round 4: opponent 2: score 2.5  → 2.5\n"
        "  round 5: opponent 6: score 1.5  → 1.5\n"
        "  BH = 2.5 + 2 + 4 + 2.5 + 1.5 = 12.5"
    ),
    "DE": (
        "DE of player 3 = 2\n"
        "  mini-table of the tied players 2, 3, 4\n"
        "  against 2: 0  → 0\n"
        "  against 4: 1  → 1\n"
        "  0 + 1 = 1; place 2"
    ),
    "PTS": (
        "PTS of player 3 = 2.5\n"
        "  round 1: won with White against 4  → 1\n"
        "  round 2: won with Black against 5  → 1\n"
        "  round 3: lost with White against 1  → 0\n"
        "  round 4: lost with Black against 2  → 0\n"
        "  round 5: drew with White against 6  → 0.5\n"
        "  1 + 1 + 0 + 0 + 0.5 = 2.5"
    ),
}

RUSSIAN = {
    "SB": (
        "SB участника 3 = 5,25\n"
        "  тур 1: соперник 4: результат 2,5; победа: весь результат соперника  → 2,5\n"
        "  тур 2: соперник 5: результат 2; победа: весь результат соперника  → 2\n"
        "  тур 3: соперник 1: результат 4; поражение: ничего  → 0\n"
        "  тур 4: соперник 2: результат 2,5; поражение: ничего  → 0\n"
        "  тур 5: соперник 6: результат 1,5; ничья: 0,5 × 1,5  → 0,75\n"
        "  (2,5 + 2) + 0,5 × (1,5) = 5,25"
    ),
    "BH": (
        "BH участника 3 = 12,5\n"
        "  тур 1: соперник 4: результат 2,5  → 2,5\n"
        "  тур 2: соперник 5: результат 2  → 2\n"
        "  тур 3: соперник 1: результат 4  → 4\n"
        "  тур 4: соперник 2: результат 2,5  → 2,5\n"
        "  тур 5: соперник 6: результат 1,5  → 1,5\n"
        "  BH = 2,5 + 2 + 4 + 2,5 + 1,5 = 12,5"
    ),
    "DE": (
        "DE участника 3 = 2\n"
        "  мини-таблица участников с равным результатом 2, 3, 4\n"
        "  против 2: 0  → 0\n"
        "  против 4: 1  → 1\n"
        "  0 + 1 = 1; место 2"
    ),
    "PTS": (
        "PTS участника 3 = 2,5\n"
        "  тур 1: победа белыми против 4  → 1\n"
        "  тур 2: победа чёрными против 5  → 1\n"
        "  тур 3: поражение белыми против 1  → 0\n"
        "  тур 4: поражение чёрными против 2  → 0\n"
        "  тур 5: ничья белыми против 6  → 0,5\n"
        "  1 + 1 + 0 + 0 + 0,5 = 2,5"
    ),
}


def club() -> Tournament:
    text = resources.files("crosstable").joinpath("examples", "club_rr6.trf").read_text("utf-8")
    t = parse_trf(text).tournament
    settings = replace(t.settings, system=System.SWISS_DUTCH, tiebreaks=("DE", "SB", "BH"))
    return replace(t, settings=settings)


def explained(standings: Standings, start: int) -> dict[str, Explanation]:
    return {e.code: e for e in standings.explain(start)}


@pytest.mark.parametrize("code", sorted(ENGLISH))
def test_the_english_text_is_as_it_was(code: str) -> None:
    e = explained(compute_standings(club()), 3)[code]
    assert str(e.text()) == ENGLISH[code]
    assert translate(e.text(), "en") == ENGLISH[code]
    assert isinstance(e.text(), Message)


@pytest.mark.parametrize("code", sorted(RUSSIAN))
def test_explanations_in_russian(code: str) -> None:
    e = explained(compute_standings(club()), 3)[code]
    assert translate(e.text(), "ru") == RUSSIAN[code]


def test_a_note_and_an_uncounted_item_in_russian() -> None:
    """Buchholz with the lowest value cut: the cut item says so, and is marked."""
    t = club()
    t = replace(t, settings=replace(t.settings, tiebreaks=("BH/C1",)))
    e = explained(compute_standings(t), 3)["BH/C1"]
    russian = translate(e.text(), "ru")
    assert "  тур 5: соперник 6: результат 1,5 — отброшено  → 1,5  [не учитывается]" in russian
    assert "BH/C1 = 2,5 + 2 + 4 + 2,5 = 11" in russian
    assert "— cut" in str(e.text()) and "[not counted]" in str(e.text())


def test_why_lines_in_russian() -> None:
    standings = compute_standings(club())
    line = standings.why(2, 3)
    assert str(line) == (
        "2 (Тарасов, Олег) is above 3 (Белова, Дарья) on direct encounter (DE) after being "
        "equal on points: the games among the tied players 2, 3, 4 give 2: 1.5, 3: 1, 4: 0.5 "
        "(everyone in the group met everyone)."
    )
    assert translate(line, "ru") == (
        "2 (Тарасов, Олег) выше, чем 3 (Белова, Дарья), по личной встрече (DE) при равенстве "
        "по показателям очки: партии между участниками с равным результатом 2, 3, 4 дают "
        "2: 1,5, 3: 1, 4: 0,5 (в группе все сыграли со всеми)."
    )
    points = standings.why(1, 2)
    assert str(points) == (
        "1 (Григорьев, Павел) is above 2 (Тарасов, Олег) on points: 4 against 2.5."
    )
    assert translate(points, "ru") == (
        "1 (Григорьев, Павел) выше, чем 2 (Тарасов, Олег), по очкам: 4 против 2,5."
    )


def test_the_lots_line_in_russian() -> None:
    t = Tournament(
        players=(Player(1, "A"), Player(2, "B")),
        rounds=(Round(1, (Game(1, 1, 1, 2, GameResult.DRAW()),)),),
    )
    line = compute_standings(t, "DE,SB", lots_seed=7).why(1, 2)
    english = (
        "1 (A) and 2 (B) are equal on points and every tie-break; lots drawn with seed 7 "
        "put them in the order 1, 2."
    )
    assert str(line) == english
    assert translate(line, "en") == english
    assert translate(line, "ru") == (
        "1 (A) и 2 (B) равны по очкам и всем дополнительным показателям; жребий (зерно 7) "
        "расставил их в порядке 1, 2."
    )
    de = explained(compute_standings(t, "DE,SB", lots_seed=7), 1)["DE"]
    assert "0,5 = 0,5; место поделено" in translate(de.text(), "ru")
    assert str(de.formula) == "0.5 = 0.5; place shared"


@pytest.fixture()
def web(tmp_path: Path):  # type: ignore[no-untyped-def]
    pytest.importorskip("fastapi")
    from crosstable.service import Service
    from crosstable.store import open_store
    from crosstable.web.app import create_app
    from tests.asgi_client import TestClient

    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'web.db'}")))
    tid = service.import_tournament(club()).tournament_id
    with TestClient(create_app(service=service)) as client:
        yield client, tid


def page_text(html: str) -> str:
    """The page's words: tags dropped, entities of the template decoded, spaces squeezed."""
    text = re.sub(r"<[^>]+>", "", html).replace("&amp;", "&").replace("&#39;", "'")
    return re.sub(r"\s+", " ", text)


def test_the_explain_page_in_russian(web) -> None:  # type: ignore[no-untyped-def]
    client, tid = web
    ru = {"Accept-Language": "ru-RU,ru;q=0.9"}
    sb = page_text(client.get(f"/t/{tid}/explain/3?code=SB", headers=ru).text)
    assert "соперник 6: результат 1,5; ничья: 0,5 × 1,5 → 0,75" in sb
    assert "(2,5 + 2) + 0,5 × (1,5) = 5,25" in sb
    assert "won: the full score" not in sb and "opponent" not in sb
    bh = page_text(client.get(f"/t/{tid}/explain/3?code=BH", headers=ru).text)
    assert "соперник 4: результат 2,5 → 2,5" in bh
    assert "BH = 2,5 + 2 + 4 + 2,5 + 1,5 = 12,5" in bh
    de = page_text(client.get(f"/t/{tid}/explain/3?code=DE", headers=ru).text)
    assert "мини-таблица участников с равным результатом 2, 3, 4" in de
    assert "против 4: 1 → 1" in de and "0 + 1 = 1; место 2" in de
    assert "mini-table" not in de and "against" not in de
    pts = page_text(client.get(f"/t/{tid}/explain/3?code=PTS", headers=ru).text)
    assert "ничья белыми против 6 → 0,5" in pts and "1 + 1 + 0 + 0 + 0,5 = 2,5" in pts
    # the player's page shows the same explanations
    player = page_text(client.get(f"/t/{tid}/players/3", headers=ru).text)
    assert "(2,5 + 2) + 0,5 × (1,5) = 5,25" in player


def test_the_explain_page_in_english_is_unchanged(web) -> None:  # type: ignore[no-untyped-def]
    client, tid = web
    en = {"Accept-Language": "en"}
    sb = page_text(client.get(f"/t/{tid}/explain/3?code=SB", headers=en).text)
    assert "opponent 6: score 1.5; drawn: 0.5 × 1.5 → 0.75" in sb
    assert "(2.5 + 2) + 0.5 × (1.5) = 5.25" in sb
    de = page_text(client.get(f"/t/{tid}/explain/3?code=DE", headers=en).text)
    assert "mini-table of the tied players 2, 3, 4" in de and "0 + 1 = 1; place 2" in de


def test_the_api_by_accept_language(web) -> None:  # type: ignore[no-untyped-def]
    client, tid = web
    url = f"/api/v1/tournaments/{tid}/players/3/explain"
    english = {e["code"]: e for e in client.get(url).json()}
    assert english["SB"]["text"] == ENGLISH["SB"]
    assert english["DE"]["note"] == "mini-table of the tied players 2, 3, 4"
    assert english["SB"]["value"] == 5.25
    russian = {e["code"]: e for e in client.get(url, headers={"Accept-Language": "ru"}).json()}
    for code in ("SB", "BH", "DE", "PTS"):
        assert russian[code]["text"] == RUSSIAN[code]
    assert russian["SB"]["formula"] == "(2,5 + 2) + 0,5 × (1,5) = 5,25"
    assert russian["SB"]["items"][4]["text"] == "соперник 6: результат 1,5; ничья: 0,5 × 1,5"
    assert russian["SB"]["items"][4]["amount"] == 0.75  # numbers stay numbers
    assert russian["DE"]["note"] == "мини-таблица участников с равным результатом 2, 3, 4"


def test_the_other_tiebreaks_in_russian() -> None:
    """The opponents' average Buchholz, the progressive score, Koya, a count (wins) and the
    fore Buchholz: their items and formulas in Russian, the English as it was."""
    t = club()
    t = replace(t, settings=replace(t.settings, tiebreaks=("AOB", "PS", "WIN", "KS", "FB")))
    found = explained(compute_standings(t), 3)
    russian = {code: translate(e.text(), "ru") for code, e in found.items()}
    assert "  тур 1: соперник 4: Бухгольц  → 12,5" in russian["AOB"]
    assert "(12,5 + 13 + 11 + 12,5 + 13,5) / 5 = 12,5" in russian["AOB"]
    assert "  тур 5: результат после тура  → 2,5\n  1 + 2 + 2 + 2 + 2,5 = 9,5" in russian["PS"]
    assert russian["WIN"].endswith("  Число побед: 2")
    assert "  C.07 7.1: туры, принёсшие столько же очков, сколько победа" in russian["WIN"]
    assert "  проходной результат: 2,5 (максимум 5)" in russian["KS"]
    assert "  тур 2: против 5 (результат 2 < 2,5)  → 1  [не учитывается]" in russian["KS"]
    assert "FB (последний тур как ничьи) = 2,5 + 2,5 + 3,5 + 2,5 + 1,5 = 12,5" in russian["FB"]
    english = {code: str(e.text()) for code, e in found.items()}
    assert "(12.5 + 13 + 11 + 12.5 + 13.5) / 5 = 12.5" in english["AOB"]
    assert "  round 2: against 5 (score 2 < 2.5)  → 1  [not counted]" in english["KS"]
    assert english["WIN"].endswith("  Number of wins: 2")
    assert "FB (final round as draws) = 2.5 + 2.5 + 3.5 + 2.5 + 1.5 = 12.5" in english["FB"]


def test_rating_tiebreaks_in_russian() -> None:
    """ARO dropped for unrated players (C.07 art. 10) and counted at a fixed rating."""
    t = club()
    unrated = tuple(replace(p, rating=None) if p.start in (2, 5) else p for p in t.players)
    t = replace(t, players=unrated, settings=replace(t.settings, tiebreaks=("ARO", "ARO/U1000")))
    found = explained(compute_standings(t), 3)
    dropped = translate(found["ARO"].text(), "ru")
    assert "ARO не учитывается: есть участники без рейтинга (2, 5)" in dropped
    assert "ARO dropped: unrated players present (2, 5)" in str(found["ARO"].text())
    fixed = translate(found["ARO/U1000"].text(), "ru")
    assert "  тур 2: победа против 5, рейтинг 1000  → 1000" in fixed
    assert "  round 2: won against 5, rated 1000  → 1000" in str(found["ARO/U1000"].text())


#: the rating tie-breaks' formula lines of player 1, in English as they always read
RATING_FORMULAS = {
    "ARO": "(1731 + 1790 + 1752 + 1815 + 1688) / 5 = 1755.20",
    "TPR": "ARO 1755 + dp(0.80) 240 = 1995",
    "PTP": "lowest rating whose expected score against 5 opponents reaches 4: 1998",
    "ARO_RATED": "(1731 + 1790 + 1752 + 1815 + 1688) / 5 = 1755.20",
}
RATING_FORMULAS_RU = {
    "ARO": "(1731 + 1790 + 1752 + 1815 + 1688) / 5 = 1755,20",
    "TPR": "ARO 1755 + dp(0,80) 240 = 1995",
    "PTP": (
        "наименьший рейтинг, при котором ожидаемый результат против соперников (5) "
        "достигает 4: 1998"
    ),
    "ARO_RATED": "(1731 + 1790 + 1752 + 1815 + 1688) / 5 = 1755,20",
}


def rated_club() -> Tournament:
    t = club()
    codes = ("ARO", "TPR", "PTP", "ARO_RATED")
    return replace(t, settings=replace(t.settings, tiebreaks=codes))


@pytest.mark.parametrize("code", sorted(RATING_FORMULAS))
def test_rating_formulas_in_russian_and_english_as_before(code: str) -> None:
    """ARO, TPR and PTP's formula lines (issue 14 item 2): Messages whose English is
    byte-identical to the f-strings they were, with the decimal comma in Russian."""
    e = explained(compute_standings(rated_club()), 1)[code]
    assert isinstance(e.formula, Message)
    assert str(e.formula) == RATING_FORMULAS[code]
    assert str(e.text()).endswith("\n  " + RATING_FORMULAS[code])
    assert translate(e.formula, "en") == RATING_FORMULAS[code]
    assert translate(e.formula, "ru") == RATING_FORMULAS_RU[code]
    assert translate(e.text(), "ru").endswith("\n  " + RATING_FORMULAS_RU[code])


def test_rating_formulas_keep_two_decimals_and_a_negative_difference() -> None:
    """A share of exactly one half is ``0.50`` (not ``½``), a negative dp keeps its sign."""
    found = explained(compute_standings(rated_club()), 3)
    assert str(found["TPR"].formula) == "ARO 1780 + dp(0.50) 0 = 1780"
    assert translate(found["TPR"].formula, "ru") == "ARO 1780 + dp(0,50) 0 = 1780"
    assert str(found["ARO"].formula).endswith(" / 5 = 1779.60")
    last = explained(compute_standings(rated_club()), 6)["TPR"]
    assert str(last.formula) == "ARO 1784 + dp(0.30) -149 = 1635"
    assert translate(last.formula, "ru") == "ARO 1784 + dp(0,30) -149 = 1635"
    assert "правила портала" in translate(found["ARO_RATED"].text(), "ru")


def test_rating_formulas_on_the_explain_page_and_the_api(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from crosstable.service import Service
    from crosstable.store import open_store
    from crosstable.web.app import create_app
    from tests.asgi_client import TestClient

    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'rated.db'}")))
    tid = service.import_tournament(rated_club()).tournament_id
    with TestClient(create_app(service=service)) as client:
        url = f"/api/v1/tournaments/{tid}/players/1/explain"
        english = {e["code"]: e for e in client.get(url).json()}
        russian = {e["code"]: e for e in client.get(url, headers={"Accept-Language": "ru"}).json()}
        for code in ("ARO", "TPR", "PTP"):
            assert english[code]["formula"] == RATING_FORMULAS[code]
            assert russian[code]["formula"] == RATING_FORMULAS_RU[code]
        ru = {"Accept-Language": "ru-RU,ru;q=0.9"}
        page = page_text(client.get(f"/t/{tid}/explain/1?code=TPR", headers=ru).text)
        assert "ARO 1755 + dp(0,80) 240 = 1995" in page
        page = page_text(client.get(f"/t/{tid}/explain/1?code=PTP", headers=ru).text)
        assert "ожидаемый результат против соперников (5) достигает 4: 1998" in page
        page = page_text(client.get(f"/t/{tid}/explain/1?code=TPR").text)
        assert "ARO 1755 + dp(0.80) 240 = 1995" in page
