"""What the page draws of a Bughouse event: the pairs, each round's matches with their
two boards, the game that finished first and the match points, and the pairs' table
(match points by the event's rule, then game points and the tie-breaks).

>>> from crosstable.offline.bughouse import clean
>>> state = {"kind": "bughouse", "name": "Evening", "log": []}
>>> for n in (1, 2, 3):
...     players = [{"name": f"P{n}a", "rating": 1800}, {"name": f"P{n}b"}]
...     state["log"].append(clean({"do": "add", "name": f"Pair {n}", "players": players}))
>>> state["log"] += [clean({"do": "start"}), clean({"do": "result", "round": 1, "board": 1,
...     "result": "1-0"}), clean({"do": "result", "round": 1, "board": 2, "result": "1-0"})]
>>> shown = pairs_view(state)
>>> shown["rounds"][0]["matches"][0]["score"], [r["points"] for r in shown["standings"]]
('1-1', [1.0, 1.0, 0.0])
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from crosstable.core.model import ByeKind
from crosstable.core.scoring import points_json
from crosstable.core.teams.bughouse import bughouse_standings, pair_rating
from crosstable.core.teams.matches import rounds_of_matches
from crosstable.offline.bughouse import Pairs, replay_pairs
from crosstable.offline.bughouse_knockout import play


def pairs_view(state: dict[str, Any]) -> dict[str, Any]:
    """Everything the page draws of a Bughouse state, as JSON."""
    built = replay_pairs(state)
    out: dict[str, Any] = {
        "kind": state["kind"],
        "name": state["name"],
        "started": built.started,
        "system": built.system,
        "rule": built.rules.rule,
        "players": [
            {
                "start": p.start,
                "name": p.name,
                "rating": pair_rating(p),
                "members": [{"name": m.name, "rating": m.rating} for m in p.members],
            }
            for p in built.pairs
        ],
        "actions": len(state["log"]),
        "rounds": [],
        "standings": [],
        "matches": [],
        "finished": False,
    }
    if not built.started:
        return out
    out["rounds"], decided = _rounds(built)
    if built.knockout is not None:
        return out | _knockout(built)
    table = bughouse_standings(built.games, built.pairs, built.rules)
    out["tiebreaks"] = list(table.tiebreaks)
    out["standings"] = [
        {
            "rank": r.place,
            "start": r.team,
            "name": r.name,
            "points": points_json(r.mp, "float"),
            "game_points": points_json(r.gp, "float"),
        }
        for r in table.rows
    ]
    paired = len(built.games.rounds)
    out["planned"] = built.planned
    out["finished"] = paired == built.planned and decided
    out["can_pair"] = built.system == "swiss" and decided and paired < built.planned
    return out


def _knockout(built: Pairs) -> dict[str, Any]:
    """A knockout of pairs: its places, its winner, whether it can go on."""
    assert built.knockout is not None
    played = play(built.pairs, built.knockout, built.games, built.seated, built.rules)
    ko = played.knockout
    names = {p.start: p.name for p in built.pairs}
    return {
        "placings": [
            {"name": names[start], "place": place} for start, place in sorted(ko.placings().items())
        ],
        "champion": names.get(ko.champion or 0, ""),
        "finished": ko.finished,
        "can_pair": bool(played.due) or (not ko.finished and not ko.undecided()),
    }


def _rounds(built: Pairs) -> tuple[list[dict[str, Any]], bool]:
    """Each round's boards and matches, and whether every match is decided."""
    names = {p.start: p.name for p in built.pairs}
    players = {m.start: m.name for p in built.pairs for m in p.members}
    owner = {m.start: p.start for p in built.pairs for m in p.members}
    decided = True
    rounds = []
    for rnd, matches in zip(
        built.games.rounds, rounds_of_matches(built.games, built.pairs), strict=True
    ):
        shown = []
        marked: set[int] = set()
        for match in matches:
            first = built.rules.first.first_of(match)
            if first is not None:
                marked.add(first.board)
            points = built.rules.match_points(match)
            decided = decided and points is not None
            shown.append(
                {
                    "white": names[match.white],
                    "black": names[match.black],
                    "boards": [g.board for g in match.games],
                    "first": first.board if first is not None else None,
                    "score": "" if points is None else f"{_points(points[0])}-{_points(points[1])}",
                }
            )
        games = [
            {
                "board": g.board,
                "white": players[g.white],
                "black": players[g.black],
                "pair": f"{names[owner[g.white]]} – {names[owner[g.black]]}",
                "result": g.result.label() if g.result else "",
                "first": g.board in marked,
            }
            for g in rnd.games
        ]
        byes = sorted({owner[b.player] for b in rnd.byes if b.kind is ByeKind.PAIRING})
        rounds.append(
            {
                "round": rnd.number,
                "games": games,
                "matches": shown,
                "bye": [names[p] for p in byes],
            }
        )
    return rounds, decided


def _points(value: Fraction) -> str:
    whole, half = divmod(value, 1)
    if half == 0:
        return str(int(whole))
    return f"{int(whole) or ''}½" if half == Fraction(1, 2) else str(float(value))


__all__ = ["pairs_view"]
