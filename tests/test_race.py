"""Who can still win (docs/race.md): the exact answers against brute force over every
outcome of the remaining games, the command line's contract, bad input."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crosstable.cli import main
from crosstable.core.model import Game, GameResult, Player, Round, Settings, System, Tournament
from crosstable.core.race import Budget, RaceProblem, race, race_problem
from crosstable.core.race.feasible import above, below
from crosstable.core.schedule.berger import berger_table
from crosstable.core.scoring import PointSystem
from crosstable.formats.trf import TrfDocument, parse_trf, write_trf

# ---------------------------------------------------------------- brute force


def completions(problem: RaceProblem) -> tuple[np.ndarray, np.ndarray]:
    """Every completion's final scores (rows) and each player's extras from own games.

    Completion ``c`` gives game ``g`` the outcome ``c // 3**g % 3`` (white wins, a draw,
    black wins); all 3**games of them at once, as arrays."""
    games = [(i, j) for i, j, k in problem.pairs for _ in range(k)]
    n = problem.size + 1
    outcome = (
        np.arange(3 ** len(games), dtype=np.int64)[:, None]
        // 3 ** np.arange(len(games), dtype=np.int64)
        % 3
    )
    white_gets = np.array([problem.win, problem.draw, 0], dtype=np.int64)[outcome]
    black_gets = np.array([0, problem.draw, problem.win], dtype=np.int64)[outcome]
    whites = np.zeros((len(games), n), dtype=np.int64)
    blacks = np.zeros((len(games), n), dtype=np.int64)
    for g, (i, j) in enumerate(games):
        whites[g, i] = 1
        blacks[g, j] = 1
    extras = (white_gets @ whites + black_gets @ blacks)[:, : problem.size]
    return extras + np.array(problem.base, dtype=np.int64), extras


def completions_one_by_one(problem: RaceProblem) -> list[list[int]]:
    """Every completion's final scores, by definition: each game's three outcomes in turn
    (what :func:`completions` computes at once)."""
    games = [(i, j) for i, j, k in problem.pairs for _ in range(k)]
    options = ((problem.win, 0), (problem.draw, problem.draw), (0, problem.win))
    rows = []
    for choice in itertools.product(range(3), repeat=len(games)):
        scores = list(problem.base)
        for (i, j), c in zip(games, choice, strict=True):
            scores[i] += options[c][0]
            scores[j] += options[c][1]
        rows.append(scores)
    return rows


def brute(problem: RaceProblem, top: int) -> list[tuple[str, str, int | None, int | None]]:
    finals, extras = completions(problem)
    out = []
    for p in range(problem.size):
        mine = finals[:, p : p + 1]
        others = np.delete(finals, p, axis=1)
        ahead = (others > mine).sum(axis=1)
        level = (others >= mine).sum(axis=1)

        def status(k: int, level: np.ndarray = level, ahead: np.ndarray = ahead) -> str:
            if (level < k).all():
                return "clinched"
            return "possible" if (ahead < k).any() else "eliminated"

        first_ok = ahead == 0
        needs_possible = int(extras[first_ok, p].min()) if first_ok.any() else None
        strict = level == 0
        sums = sorted(set(extras[:, p].tolist()))
        needs_clinch = None
        for own in reversed(sums):
            if not strict[extras[:, p] >= own].all():
                break
            needs_clinch = own
        out.append((status(1), status(top), needs_possible, needs_clinch))
    return out


@st.composite
def problems(
    draw: st.DrawFn, win: int | None = None, draw_value: int | None = None, games: int = 10
) -> RaceProblem:
    """A race with at most ``games`` games left (one fewer when a draw is not half a win)."""
    size = draw(st.integers(2, 7))
    w = draw(st.integers(1, 4)) if win is None else win
    d = draw(st.integers(0, w // 2)) if draw_value is None else draw_value
    everyone = [(i, j) for i in range(size) for j in range(i + 1, size)]
    chosen = draw(st.lists(st.sampled_from(everyone), max_size=games if w == 2 * d else games - 1))
    counted: dict[tuple[int, int], int] = {}
    for pair in chosen:
        counted[pair] = counted.get(pair, 0) + 1
    pairs = tuple((i, j, k) for (i, j), k in sorted(counted.items()))
    base = tuple(draw(st.lists(st.integers(0, 4 * w), min_size=size, max_size=size)))
    return RaceProblem(size, base, pairs, w, d, Fraction(0), 1)


def answers(problem: RaceProblem, top: int) -> list[tuple[str, str, int | None, int | None]]:
    report = race(problem, top)
    assert report.exact
    return [
        (
            r.first,
            r.top,
            None if r.needs_possible is None else int(r.needs_possible),
            None if r.needs_clinch is None else int(r.needs_clinch),
        )
        for r in report.rows
    ]


@settings(max_examples=150, deadline=None)
@given(problems(games=6))
def test_the_completions_at_once_are_every_completion_once(problem: RaceProblem) -> None:
    finals, extras = completions(problem)
    at_once = sorted(map(tuple, finals.tolist()))
    one_by_one = sorted(map(tuple, completions_one_by_one(problem)))
    # (compared as a flag: pytest's diff of two long lists would be redone at every
    # failing example while hypothesis shrinks)
    same = at_once == one_by_one
    assert same, next((a, b) for a, b in zip(at_once, one_by_one, strict=False) if a != b)
    assert (finals - extras == np.array(problem.base)).all()


SLOW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(problems(win=2, draw_value=1), st.integers(1, 4))
def test_r_b_2_classic_1_half_0_equals_brute_force(problem: RaceProblem, top: int) -> None:
    assert answers(problem, top) == brute(problem, top)


@SLOW
@given(problems(win=3, draw_value=1), st.integers(1, 4))
def test_r_b_2_three_one_zero_equals_brute_force(problem: RaceProblem, top: int) -> None:
    assert answers(problem, top) == brute(problem, top)


@SLOW
@given(problems(), st.integers(1, 4))
def test_r_b_2_any_point_system_equals_brute_force(problem: RaceProblem, top: int) -> None:
    assert answers(problem, top) == brute(problem, top)


@settings(max_examples=200, deadline=None)
@given(problems(), st.data())
def test_feasibility_questions_equal_brute_force(problem: RaceProblem, data: st.DataObject) -> None:
    """below (caps, with a floor) and above (needs) against every completion."""
    finals, extras = completions(problem)
    size = problem.size
    caps = {
        p: data.draw(st.integers(-1, problem.win * 3))
        for p in range(size)
        if data.draw(st.booleans())
    }
    floor_player = data.draw(st.sampled_from(sorted(caps))) if caps else None
    floors = {} if floor_player is None else {floor_player: data.draw(st.integers(0, 6))}
    free = [p for p in range(size) if p not in caps]
    pairs_capped = [pr for pr in problem.pairs if pr[0] in caps and pr[1] in caps]
    # a player without a cap wins every game against a capped one: drop those games
    sub = RaceProblem(
        size, problem.base, tuple(pairs_capped), problem.win, problem.draw, Fraction(0), 1
    )
    _f, sub_extras = completions(sub)
    ok = np.ones(len(sub_extras), dtype=bool)
    for p, c in caps.items():
        ok &= sub_extras[:, p] <= c
    for p, f in floors.items():
        ok &= sub_extras[:, p] >= f
    assert below(caps, problem.pairs, problem.win, problem.draw, Budget(), floors) == bool(ok.any())
    # no nodes for the branch and bound: the integer programme answers the same
    none = Budget(0)
    assert below(caps, problem.pairs, problem.win, problem.draw, none, floors) == bool(ok.any())
    del free, finals, extras
    group = [p for p in range(size) if data.draw(st.booleans())]
    needs = {p: data.draw(st.integers(-1, problem.win * 3)) for p in group}
    inside = tuple(pr for pr in problem.pairs if pr[0] in needs and pr[1] in needs)
    sub = RaceProblem(size, problem.base, inside, problem.win, problem.draw, Fraction(0), 1)
    _f, sub_extras = completions(sub)
    ok = np.ones(len(sub_extras), dtype=bool)
    for p, n in needs.items():
        ok &= sub_extras[:, p] >= n
    assert above(needs, problem.pairs, problem.win, problem.draw, Budget()) == bool(ok.any())
    assert above(needs, problem.pairs, problem.win, problem.draw, Budget(0)) == bool(ok.any())


# ---------------------------------------------------------------- the command line


def _trf(
    tmp_path: Path,
    results: list[tuple[int, int, int, str]],
    players: int,
    settings: Settings | None = None,
) -> Path:
    """A TRF-16 file of ``players`` with the games (round, white, black, result) played."""
    rounds: dict[int, list[Game]] = {}
    for rnd, white, black, result in results:
        board = len(rounds.get(rnd, [])) + 1
        rounds.setdefault(rnd, []).append(Game(rnd, board, white, black, GameResult.parse(result)))
    tournament = Tournament(
        settings=settings or Settings(),
        players=tuple(Player(i, f"Player {i}") for i in range(1, players + 1)),
        rounds=tuple(Round(r, tuple(g)) for r, g in sorted(rounds.items())),
    )
    path = tmp_path / "event.trf"
    path.write_text(write_trf(TrfDocument(tournament=tournament), "trf16"))
    return path


FOUR = [(1, 1, 2, "1-0"), (1, 3, 4, "1-0"), (2, 1, 3, "1-0"), (2, 2, 4, "1-0")]


Capture = pytest.CaptureFixture[str]


def run(capsys: Capture, *args: str) -> tuple[int, str, str]:
    code = main(["race", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys: Capture, *args: str) -> dict[str, object]:
    code, out, err = run(capsys, *args, "--format", "json")
    assert code == 0, err
    return dict(json.loads(out))


def test_r_b_2_cli_contract_round_robin_first_and_top(tmp_path: Path, capsys: Capture) -> None:
    """Four players after two rounds (1: 2, 2: 1, 3: 1, 4: 0); left: 1-4 and 2-3."""
    path = _trf(tmp_path, FOUR, 4)
    first = _json(capsys, str(path))
    rows = {r["start"]: r for r in first["rows"]}  # type: ignore[attr-defined]
    assert [rows[s]["first"] for s in (1, 2, 3, 4)] == [
        "possible",
        "possible",
        "possible",
        "eliminated",
    ]
    # 1 loses to 4 and 2-3 is drawn: 1 is first with 2; with ½ more nobody reaches 1
    assert rows[1]["needs"] == {"possible": 0, "clinch": 0.5}
    assert rows[4]["needs"] == {"possible": None, "clinch": None}
    assert first["games_left"] == 2 and first["exact"] is True
    top = _json(capsys, str(path), "--top", "2")
    rows = {r["start"]: r for r in top["rows"]}  # type: ignore[attr-defined]
    assert [rows[s]["top"] for s in (1, 2, 3, 4)] == [
        "clinched",
        "possible",
        "possible",
        "eliminated",
    ]
    assert [rows[s]["first"] for s in (1, 2, 3, 4)] == [
        "possible",
        "possible",
        "possible",
        "eliminated",
    ]


def test_r_b_2_cli_clinched_and_every_row_against_brute_force(
    tmp_path: Path, capsys: Capture
) -> None:
    """Six players, three rounds played: the file's answers are the brute force's."""
    played = [
        (1, 1, 6, "1-0"),
        (1, 2, 5, "1-0"),
        (1, 3, 4, "1-0"),
        (2, 1, 5, "1-0"),
        (2, 6, 4, "½-½"),
        (2, 2, 3, "0-1"),
        (3, 1, 4, "1-0"),
        (3, 5, 3, "1-0"),
        (3, 6, 2, "0-1"),
        (4, 1, 3, "1-0"),
        (4, 2, 4, "0-1"),
        (4, 5, 6, "½-½"),
    ]
    path = _trf(tmp_path, played, 6)
    for top in (1, 2, 3):
        out = _json(capsys, str(path), "--top", str(top))
        problem = race_problem(parse_trf(path.read_text(), source="x").tournament, round_robin=True)
        expected = brute(problem, top)
        got = [(r["first"], r["top"]) for r in out["rows"]]  # type: ignore[attr-defined]
        assert got == [(f, t) for f, t, _np, _nc in expected]
    rows = _json(capsys, str(path))["rows"]
    assert rows[0]["first"] == "clinched"  # type: ignore[index]
    assert rows[0]["needs"] == {"possible": 0, "clinch": 0}  # type: ignore[index]


def test_r_b_2_cli_swiss_is_an_estimate(tmp_path: Path, capsys: Capture) -> None:
    path = _trf(tmp_path, FOUR, 4, Settings(system=System.SWISS_DUTCH, rounds=4))
    path.write_text("092 Individual: Swiss-System\n142 4\n" + path.read_text())
    out = _json(capsys, str(path))
    assert out["exact"] is False
    assert all(r["exact"] is False for r in out["rows"])  # type: ignore[attr-defined]
    assert _json(capsys, str(path), "--system", "round-robin")["exact"] is True


def test_r_b_2_cli_table_names_the_players(tmp_path: Path, capsys: Capture) -> None:
    code, out, err = run(capsys, str(_trf(tmp_path, FOUR, 4)), "--top", "2")
    assert code == 0, err
    assert "Player 4" in out and "eliminated" in out
    assert "Top 2" in out and "2 games left" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--top", "0"], "--top 0"),
        (["--top", "9"], "the file has 4 players"),
        (["--format", "xml"], "--format 'xml'"),
        (["--system", "knockout"], "--system 'knockout'"),
    ],
)
def test_cli_bad_options_exit_2_and_say_why(
    tmp_path: Path, capsys: Capture, args: list[str], words: str
) -> None:
    path = _trf(tmp_path, FOUR, 4)
    before = path.read_bytes()
    code, out, err = run(capsys, str(path), *args)
    assert code == 2 and out == ""
    assert words in err and "Traceback" not in err and len(err.splitlines()) == 1
    assert path.read_bytes() == before


def test_cli_bad_files_exit_2_with_the_file_named(tmp_path: Path, capsys: Capture) -> None:
    code, _out, err = run(capsys, str(tmp_path / "none.trf"))
    assert code == 2 and "none.trf" in err
    broken = tmp_path / "broken.trf"
    broken.write_text("001    1      Player 1          x\n001    7 oops\n")
    code, out, err = run(capsys, str(broken), "--format", "json")
    assert code == 2 and out == "" and "broken.trf" in err and "Traceback" not in err
    empty = tmp_path / "empty.trf"
    empty.write_text("012 Nothing\n")
    code, _out, err = run(capsys, str(empty))
    assert code == 2 and "empty.trf" in err


@pytest.mark.parametrize("points", ["1-0.5-0", "3-1-0"])
def test_r_b_2_race_twenty_players_sixty_games_left_is_exact(points: str) -> None:
    """The contract's size, under either point system (timed in bench/bench_race.py,
    docs/benchmarks.md): every row decided exactly, none left as an estimate."""
    rng = np.random.default_rng(7)
    schedule = berger_table(20).rounds
    games = [(r.number, w, b) for r in schedule for (w, b) in r.boards]
    played = games[: len(games) - 60]
    results = ["1-0", "½-½", "0-1"]
    rounds: dict[int, list[Game]] = {}
    for rnd, w, b in played:
        result = GameResult.parse(results[int(rng.integers(3))])
        rounds.setdefault(rnd, []).append(Game(rnd, len(rounds.get(rnd, [])) + 1, w, b, result))
    tournament = Tournament(
        settings=Settings(point_system=PointSystem.parse(points)),
        players=tuple(Player(i, f"P{i}") for i in range(1, 21)),
        rounds=tuple(Round(r, tuple(g)) for r, g in sorted(rounds.items())),
    )
    report = race(race_problem(tournament), 3)
    assert report.games_left == 60 and report.exact
    assert all(r.exact for r in report.rows)
    assert all(r.needs_possible is not None for r in report.rows if r.first != "eliminated")
    assert {r.first for r in report.rows} <= {"possible", "eliminated", "clinched"}
