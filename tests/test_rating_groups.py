"""Rating groups of round robins of a chosen size (R-X-9; seeds 001 and 004): the rule,
the refusals, the command line; quads are the groups of four."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_service_support import db_url, store  # noqa: F401
from test_web_stages import Web

from crosstable.cli import main
from crosstable.core.advice import format_advice
from crosstable.core.errors import RuleError
from crosstable.core.model import Player
from crosstable.core.schedule.quads import quad_sizes
from crosstable.core.schedule.rating_groups import (
    fitting_sizes,
    rating_group_sizes,
    rating_groups,
    rating_groups_of,
    round_robin_rounds,
    size_bounds,
)
from crosstable.store import Store
from tests.asgi_client import TestClient


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def old_quads_rule(players: int) -> tuple[int, ...]:
    """The quads rule as docs/variants.md has printed it since quads were made."""
    if players in (3, 5, 6, 7):
        return (players,)
    bottom = {0: (), 1: (5,), 2: (6,), 3: (5, 6)}[players % 4]
    return (4,) * ((players - sum(bottom)) // 4) + bottom


def test_r_x_9_quads_are_rating_groups_of_four() -> None:
    for players in range(3, 1001):
        assert rating_group_sizes(players, 4) == quad_sizes(players) == old_quads_rule(players)


@pytest.mark.parametrize(
    ("players", "size", "sizes"),
    [
        (23, 6, (6, 6, 6, 5)),  # one five at the bottom, not two sevens
        (23, 8, (8, 8, 7)),
        (25, 8, (8, 8, 9)),
        (24, 6, (6, 6, 6, 6)),
        (11, 5, (5, 6)),
        (13, 3, (3, 3, 3, 4)),
        (14, 3, (3, 3, 3, 5)),
        (7, 8, (7,)),
        (12, 8, (12,)),  # too small for two groups of seven: one round robin
    ],
)
def test_r_x_9_rating_group_sizes(players: int, size: int, sizes: tuple[int, ...]) -> None:
    assert rating_group_sizes(players, size) == sizes


def split_or_none(players: int, size: int) -> tuple[int, ...] | None:
    try:
        return rating_group_sizes(players, size)
    except RuleError as error:
        assert "cannot be cut into groups" in str(error)
        return None


@given(st.integers(min_value=3, max_value=600), st.integers(min_value=3, max_value=16))
def test_r_x_9_split_rule_holds_for_every_field_and_size(players: int, size: int) -> None:
    sizes = split_or_none(players, size)
    low, high = size_bounds(size)
    if sizes is None:  # refused: no split fits and the field has room for two groups
        assert players >= 2 * low and size not in fitting_sizes(players)
        return
    assert sum(sizes) == players
    assert min(sizes) >= 3  # never a group of one or two
    if len(sizes) > 1 or players >= low:
        assert all(low <= s <= high for s in sizes) or (len(sizes) == 1 and players < 2 * low)
    # the groups of the chosen size first, then the others, smaller above larger
    off = [s for s in sizes if s != size]
    assert list(sizes) == [size] * (len(sizes) - len(off)) + sorted(off)
    # never both a smaller and a larger group: they would be two groups of the size
    assert not (any(s < size for s in off) and any(s > size for s in off))
    # the ranks run 1…N from the top group down
    groups = rating_groups(players, size)
    assert [r for g in groups for r in g] == list(range(1, players + 1))


@given(st.integers(min_value=3, max_value=200), st.integers(min_value=3, max_value=16))
def test_r_x_9_no_split_with_fewer_odd_groups_is_missed(players: int, size: int) -> None:
    """The split taken has the fewest groups off the chosen size among all that fit."""
    sizes = split_or_none(players, size)
    low, high = size_bounds(size)
    if sizes is None or (len(sizes) == 1 and not low <= players <= high):
        return
    low, high = size_bounds(size)

    fewest: list[float] = [0.0]  # fewest[n]: by brute force over every multiset of sizes
    for left in range(1, players + 1):
        options = [(s != size) + fewest[left - s] for s in range(low, min(high, left) + 1)]
        fewest.append(min(options, default=float("inf")))
    assert sum(s != size for s in sizes) == fewest[players]


@pytest.mark.parametrize("size", [-1, 0, 1, 2, 17])
def test_r_x_9_a_size_that_would_leave_a_group_of_one_is_refused(size: int) -> None:
    with pytest.raises(RuleError, match="a round-robin group has 3 to 16 players"):
        rating_group_sizes(20, size)


def test_r_x_9_a_field_no_size_fits_is_refused_naming_the_sizes_that_do() -> None:
    with pytest.raises(RuleError) as caught:
        rating_group_sizes(40, 16)
    message = str(caught.value)
    assert "40 players cannot be cut into groups of 16" in message
    assert "15 to 18 players" in message and "sizes that fit 40 players: 3, 4," in message


def test_r_x_9_too_few_or_too_many_players() -> None:
    with pytest.raises(RuleError, match="at least 3 players"):
        rating_group_sizes(2, 5)
    with pytest.raises(RuleError, match="at most 9999 players"):
        rating_group_sizes(10**9, 5)


def test_r_x_9_real_players_by_rating() -> None:
    field = [Player(i, f"P{i:02}", 1500 + 10 * i) for i in range(1, 12)]
    groups = rating_groups_of(field, 5)
    assert [len(g) for g in groups] == [5, 6]
    assert [p.start for p in groups[0]] == [11, 10, 9, 8, 7]


def test_r_x_9_advice_offers_rating_groups_with_their_evenings() -> None:
    advice = format_advice(23, rounds_per_evening=2)
    assert advice.groups is not None
    assert advice.to_json()["rating_groups"] == {
        "size": 6,
        "groups": [6, 6, 6, 5],
        "rounds": 5,
        "rounds_per_evening": 2,
        "evenings": 3,
    }
    assert "3 evenings at 2 rounds an evening" in advice.groups.text
    assert format_advice(12).groups is None  # a round robin is still the advice
    assert format_advice(40, group_size=8).groups.to_json()["evenings"] == 7  # type: ignore[union-attr]


def test_r_x_9_cli_groups_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schedule", "groups", "--players", "23", "--size", "8", "-f", "json")
    assert code == 0
    data = json.loads(out)
    assert data["sizes"] == [8, 8, 7] and data["rounds"] == 7 and data["size"] == 8
    assert data["groups"][2] == list(range(17, 24))


def test_r_x_9_cli_groups_table_and_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "club.csv"
    rows = "\n".join(f"P{i},{2000 - i * 10}" for i in range(1, 10))
    path.write_text("name,rating\n" + rows + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "schedule", "groups", "--players-file", str(path), "--size", "4")
    assert code == 0 and "Rating groups of 4" in out and "P9 (1910)" in out
    code, out, _ = run(
        capsys, "schedule", "groups", "--players-file", str(path), "-k", "4", "-f", "json"
    )
    assert json.loads(out)["groups"] == [[1, 2, 3, 4], [5, 6, 7, 8, 9]]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "20", "--size", "2"], "a round-robin group has 3 to 16 players"),
        (["--players", "40", "--size", "16"], "40 players cannot be cut into groups of 16"),
        (["--size", "5"], "give --players N or --players-file FILE"),
        (["--players", "2", "--size", "5"], "at least 3 players"),
    ],
)
def test_r_x_9_cli_refusals_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, "schedule", "groups", *args, "--format", "json")
    assert code == 2 and out == "" and message in err and "Traceback" not in err


def test_r_x_9_quads_command_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schedule", "quads", "--players", "23", "--format", "json")
    assert code == 0
    assert [len(g) for g in json.loads(out)["groups"]] == [4, 4, 4, 5, 6]


def test_rounds_of_a_group() -> None:
    assert [round_robin_rounds(n) for n in (4, 5, 6, 7)] == [3, 5, 5, 7]


# --- the wizard, the JSON API, the prize lists, Russian (every test on SQLite and PostgreSQL)

ELEVEN = [(f"Player {chr(65 + i)}", 2300 - 25 * i) for i in range(11)]


@pytest.fixture
def web(store: Store) -> Web:
    return Web(store)


def groups_form(web: Web, **values: str) -> dict[str, str]:
    return {
        "csrf_token": web.csrf,
        "name": "Autumn groups",
        "format": "rating-groups",
        "group_size": "5",
        "list": "\n".join(f"{n}, {r}" for n, r in ELEVEN),
        "time_control": "G/25 d5",
    } | values


def test_r_x_9_wizard_previews_and_creates_rating_groups_as_one_event(web: Web) -> None:
    page = web.client.get("/new")
    assert 'value="rating-groups"' in page.text and 'name="group_size"' in page.text
    preview = web.client.post("/new/preview", data=groups_form(web))
    assert preview.status_code == 200
    assert re.search(r'id="pv-groups">5 \+ 6<', preview.text), preview.text
    assert re.search(r'id="pv-rounds">5<', preview.text)
    assert 'id="pv-evenings"><b>3</b>' in preview.text  # 5 rounds, 2 an evening
    before = len(web.service.tournaments())
    made = web.client.post("/new", data=groups_form(web), follow_redirects=False)
    assert made.status_code == 303, made.text
    ids = [t.id for t in web.service.tournaments()][before:]
    overviews = [web.service.overview(tid) for tid in ids]
    assert [o.name for o in overviews] == [
        "Autumn groups — rating group 1",
        "Autumn groups — rating group 2",
    ]
    assert [len(o.players) for o in overviews] == [5, 6]
    assert {p.name for p in overviews[0].players} == {n for n, _ in ELEVEN[:5]}
    details = [o.settings["regulations"] for o in overviews]
    assert details[0]["quads_event"] == details[1]["quads_event"]  # one event
    assert [d["quad"] for d in details] == ["1", "2"]


def test_r_x_9_wizard_refuses_a_size_that_would_leave_a_group_of_one(web: Web) -> None:
    before = len(web.service.tournaments())
    for size in ("2", "1", "17"):
        answer = web.client.post("/new", data=groups_form(web, group_size=size))
        assert answer.status_code == 422
        assert "a round-robin group has 3 to 16 players" in answer.text
    answer = web.client.post("/new/preview", data=groups_form(web, group_size="2"))
    assert "a round-robin group has 3 to 16 players" in answer.text
    assert len(web.service.tournaments()) == before


def test_r_x_9_wizard_quads_still_groups_of_four(web: Web) -> None:
    form = groups_form(web, format="quads")
    preview = web.client.post("/new/preview", data=form)
    assert re.search(r'id="pv-groups">5 \+ 6<', preview.text)  # 11 players: a five, a six
    preview = web.client.post(
        "/new/preview", data=form | {"list": "\n".join(f"{n}, {r}" for n, r in ELEVEN[:8])}
    )
    assert re.search(r'id="pv-groups">4 \+ 4<', preview.text)


def test_r_x_9_wizard_advice_offers_rating_groups_with_evenings(web: Web) -> None:
    form = groups_form(web, format="round-robin", list="", count="23")
    preview = web.client.post("/new/preview", data=form | {"list": ""})
    assert 'id="pv-advice-groups"' in preview.text
    assert "Rating groups of 6: 4 round robins (6, 6, 6, 5), 5 rounds — 3 evenings" in (
        preview.text
    )


def test_r_x_9_api_creates_rating_groups_and_refuses_bad_sizes(web: Web) -> None:
    client = TestClient(web.app)
    body = {
        "name": "API groups",
        "format": "rating-groups",
        "group_size": 8,
        "players": [{"name": f"P{i:02}", "rating": 2400 - 10 * i} for i in range(23)],
    }
    made = client.post("/api/v1/tournaments", headers=web.auth("ann"), json=body)
    assert made.status_code == 201, made.text
    sizes = [len(web.service.overview(t).players) for t in made.json()["ids"]]
    assert sizes == [8, 8, 7]
    before = len(web.service.tournaments())
    forty = [{"name": f"P{i:02}", "rating": 2400 - 10 * i} for i in range(40)]
    for size, message in ((2, "a round-robin group has 3 to 16 players"), (16, "cannot be cut")):
        bad = client.post(
            "/api/v1/tournaments",
            headers=web.auth("ann"),
            json=body | {"group_size": size, "players": forty},
        )
        assert bad.status_code == 422 and message in bad.text, bad.text
    ru = client.post(
        "/api/v1/tournaments", headers=web.auth("ann", "ru"), json=body | {"group_size": 2}
    )
    assert ru.status_code == 422 and "в круговой группе от 3 до 16 игроков" in ru.text, ru.text
    assert len(web.service.tournaments()) == before


def test_r_x_9_each_group_has_its_own_crosstable_and_prize_list(web: Web) -> None:
    web.client.post("/new", data=groups_form(web, time_control=""), follow_redirects=False)
    ids = [t.id for t in web.service.tournaments()][-2:]
    for tid in ids:
        web.finish(tid)
    top, bottom = (web.client.get(f"/t/{tid}/print/certificates").text for tid in ids)
    # the lower starting number wins every game: each group's strongest player wins it
    assert "Player A" in top and "Player F" not in top
    assert "Player F" in bottom and "Player A" not in bottom
    crosstable = web.client.get(f"/t/{ids[1]}/print/crosstable").text
    assert "Player K" in crosstable and "Player A" not in crosstable


def test_r_x_9_russian_wizard_and_group_names(web: Web) -> None:
    web.client.headers["Accept-Language"] = "ru"
    page = web.client.get("/new")
    assert "Рейтинговые группы (круговые турниры выбранного размера по рейтингу)" in page.text
    assert "Игроков в группе" in page.text
    preview = web.client.post(
        "/new/preview", data=groups_form(web, format="round-robin", list="", count="23")
    )
    assert "Рейтинговые группы по 6" in preview.text
    before = len(web.service.tournaments())
    web.client.post("/new", data=groups_form(web), follow_redirects=False)
    names = [t.name for t in web.service.tournaments()][before:]
    assert names == ["Autumn groups — рейтинговая группа 1", "Autumn groups — рейтинговая группа 2"]


def test_the_advice_never_refuses_a_field_past_the_groups_bound() -> None:
    # a field rating groups cannot be made for gets no groups offer, not an error (the
    # wizard's preview of two billion players showed the groups' refusal instead of its cap)
    advice = format_advice(2_000_000_000)
    assert advice.kind == "not-round-robin" and advice.groups is None
    assert format_advice(9999).groups is not None
