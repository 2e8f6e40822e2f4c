"""The bracket as screens, the command line and the API show it."""

from __future__ import annotations

from typing import Any

from crosstable.core.pairing.knockout import (
    round_formats_label,
    round_name,
)
from crosstable.core.scoring import points_json
from crosstable.service.knockout.replay import KnockoutState
from crosstable.store.models import TournamentRow

# -- the view --------------------------------------------------------------------------


def bracket_view_of(row: TournamentRow, state: KnockoutState) -> dict[str, Any]:
    ko = state.knockout
    bracket = ko.bracket
    rules = ko.rules

    def person(start: int | None) -> dict[str, Any] | None:
        if start is None:
            return None
        entry = state.entries.get(start)
        if entry is None:
            return {"start": start, "name": "", "rating": None}
        return {"start": start, "name": entry.name, "rating": entry.rating}

    rounds = []
    for rnd in range(1, bracket.rounds + 1):
        matches = []
        for s in bracket.round_slots(rnd):
            if s.is_bye:
                continue
            item: dict[str, Any] = {"slot": s.number, "next": s.next}
            if s.feeders is not None:
                item["from"] = list(s.feeders)
                known = [ko.winner_of(f) for f in s.feeders]
            else:
                known = list(s.players or (None, None))
            matches.append(_match_item(state, item, known, person))
        if rnd == bracket.rounds and rules.third_place and rnd >= 2:
            semis = bracket.slot(bracket.size - 1).feeders
            assert semis is not None
            if not any(bracket.slot(n).is_bye for n in semis):
                item = {"slot": ko.third_place_slot, "next": None, "from": list(semis)}
                item["third_place"] = True
                known = [ko.loser_of(n) for n in semis]
                matches.append(_match_item(state, item, known, person))
        byes = (
            [
                {**(person(s.bye_player) or {}), "slot": s.number}
                for s in bracket.round_slots(1)
                if s.bye_player is not None
            ]
            if rnd == 1
            else []
        )
        rounds.append(
            {
                "round": rnd,
                "name": round_name(bracket.size >> (rnd - 1)),
                "first_store_round": state.base.get(rnd),
                "matches": matches,
                "byes": byes,
            }
        )
    placings = ko.placings()
    return {
        "tournament": row.id,
        "name": row.name,
        "status": row.status,
        "players": len(bracket.players),
        "size": bracket.size,
        "order": bracket.order.value,
        "lots_seed": rules.seed,
        "format": rules.format.label(),
        "tie_rule": rules.tie_rule.label(),
        "round": ko.round,
        "rounds": rounds,
        "champion": person(ko.champion),
        "third_place": person(ko.third_place),
        "third_place_match": rules.third_place,
        "round_formats": round_formats_label(rules.round_formats),
        "placings": [
            {**(person(start) or {}), "place": placings[start]}
            for start in sorted(placings, key=lambda s: (_place_key(placings[s]), s))
        ],
        "due": [
            {"slot": d.slot, "game": d.game.number, "kind": d.game.kind.value, "round": d.round}
            for d in state.due
        ],
        "surplus": [{"round": g.round, "board": g.board} for g in state.surplus],
        "problem": state.problem,
    }


def _match_item(
    state: KnockoutState,
    item: dict[str, Any],
    known: list[int | None],
    person: Any,
) -> dict[str, Any]:
    """One match of the view: players, games (where stored), scores, who goes on."""
    ko = state.knockout
    slot = item["slot"]
    paired = next((m for m in ko.matches if m.slot == slot), None)
    if paired is None:
        item.update(
            players=[person(p) for p in known],
            format=None,
            games=[],
            score=None,
            winner=None,
            decided_by=None,
        )
        return item
    status = paired.status(ko.rules)
    games = []
    for g in status.games:
        stored = state.stored.get((slot, g.number))
        games.append(
            {
                "game": g.number,
                "kind": g.kind.value,
                "round": stored.round if stored is not None else None,
                "board": stored.board if stored is not None else None,
                "white": g.white,
                "black": g.black,
                "result": g.result.label() if g.result is not None else None,
            }
        )
    item.update(
        players=[person(paired.top), person(paired.bottom)],
        format=(paired.format or ko.rules.format).label(),
        games=games,
        score=[points_json(x) for x in status.score],
        stage_scores=[[points_json(a), points_json(b)] for a, b in status.stage_scores],
        winner=status.winner,
        decided_by=status.decided_by or None,
    )
    return item


def _place_key(place: str) -> int:
    return int(place.split("-")[0]) if place else 10**9
