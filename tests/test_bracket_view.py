"""The knockout's bracket as a typed view (issue 14.3): ``Service.bracket`` gives frozen
dataclasses, and their JSON is what ``bracket_view`` (the API, ``crosstable bracket
--format json``) answers, key for key."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import json
from fractions import Fraction

from test_service_knockout import higher_seed_wins, started
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.service import Service
from crosstable.service.knockout.view import BracketMatch, BracketPlayer, BracketView


def test_the_typed_bracket_and_its_json(service: Service) -> None:
    tid = started(service, 6, match_format="2", third_place="yes", finish="confirm")
    view = service.bracket(tid)
    assert isinstance(view, BracketView) and view.size == 8 and view.third_place_match
    first = view.rounds[0]
    assert [b.player.start for b in first.byes] == [1, 2]  # the two top seeds go through
    assert all(isinstance(m, BracketMatch) and m.paired for m in first.matches)
    assert view.as_json() == service.bracket_view(tid)
    while service.bracket(tid).champion is None:
        higher_seed_wins(service, tid)
        if service.bracket(tid).champion is None:
            service.pair_next_round(tid)
    view = service.bracket(tid)
    assert view.champion is not None and view.champion.start == 1
    assert isinstance(view.champion, BracketPlayer) and view.champion.rating == 2400
    assert view.third_place is not None and view.third_place.start == 3
    final = view.rounds[-1].matches[0]
    assert final.winner == 1 and final.score == (Fraction(2), Fraction(0))
    third = view.rounds[-1].matches[-1]
    assert third.third_place and third.feeders is not None
    assert [p.place for p in view.placings][:4] == ["1", "2", "3", "4"]
    text = json.dumps(view.as_json(), ensure_ascii=False)
    assert json.loads(text) == service.bracket_view(tid)
    assert '"score": [2, 0]' in text  # whole points as JSON integers
