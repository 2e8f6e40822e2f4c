"""The live table as data (crosstable/web/live_cells.py): the cells that change from one
revision to the next, written as the page writes them, turn the fragment the app
rendered before into the fragment it renders after — in every language, for round
robins and Swiss, with results, corrections and undo; anything more than cells sends
the whole table."""

from __future__ import annotations

import random
import tempfile
from fractions import Fraction
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import make_service, migrated, started

from bench.push_rig import apply_cells
from crosstable.core.errors import CrosstableError
from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations
from crosstable.store import open_store
from crosstable.web import i18n
from crosstable.web.app import create_app
from crosstable.web.live_cells import changed_cells, live_data, localized, number_symbols

RESULTS = ("1-0", "0-1", "1/2-1/2", "+-", "-+")


@settings(max_examples=200, deadline=None)
@given(
    value=st.one_of(
        st.fractions(min_value=-5000, max_value=5000, max_denominator=12),
        st.floats(min_value=-1e7, max_value=1e7, allow_nan=False),
    ),
    locale=st.sampled_from(i18n.LOCALES),
)
def test_a_number_the_english_table_writes_reads_in_every_language(
    value: Fraction | float, locale: str
) -> None:
    """What the page does with a number of a cell (swap the group and decimal symbols
    the page carries) gives what the server writes in that language."""
    symbols = number_symbols(locale)
    for code in ("BH", "DE"):
        english = i18n.tiebreak_value(code, value, "en")
        assert localized(english, symbols) == i18n.tiebreak_value(code, value, locale)
    assert localized(i18n.points_text(value, "en"), symbols) == i18n.points_text(value, locale)


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(swiss=st.booleans(), players=st.integers(3, 7), seed=st.integers(0, 2**16))
def test_the_changed_cells_turn_the_table_before_into_the_table_after(
    swiss: bool, players: int, seed: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(migrated(f"sqlite:///{Path(folder) / 'cells.db'}"))
        try:
            service = make_service(store, seed)
            if swiss:
                regulations = Regulations(name="Open", system=System.SWISS_DUTCH, rounds=3)
                tid = service.create_tournament(regulations).tournament_id
                for index in range(players):
                    service.add_player(tid, PlayerInfo(f"P{index + 1}", rating=2400 - index))
                service.draw_lots(tid, LotsMethod.RATING)
                service.start(tid)
                service.publish_round(tid)  # (round 1)
            else:
                tid = started(service, players)
            site = create_app(service=service).state.site
            source = random.Random(seed)
            before = live_data(site, tid)
            pages = dict(zip(i18n.LOCALES, site.render_live_in(tid, i18n.LOCALES), strict=True))
            for _ in range(8):
                view = service.overview(tid)
                open_games = [g for g in view.games if g.result is None]
                decided = [g for g in view.games if g.result is not None]
                pick = source.random()
                try:
                    if pick < 0.6 and open_games:
                        g = source.choice(open_games)
                        service.record_result(tid, g.round, g.board, source.choice(RESULTS))
                    elif pick < 0.8 and decided:
                        g = source.choice(decided)
                        service.correct_result(tid, g.round, g.board, source.choice(RESULTS))
                    elif pick < 0.9:
                        service.undo(tid, confirm=True)
                    elif swiss and not open_games:
                        service.publish_round(tid)
                except CrosstableError:
                    continue
                after = live_data(site, tid)
                assert before is not None and after is not None
                rendered = dict(
                    zip(i18n.LOCALES, site.render_live_in(tid, i18n.LOCALES), strict=True)
                )
                body = changed_cells(before, after)
                if body is not None:
                    assert body["base"] == before.revision and body["revision"] == after.revision
                    for locale in i18n.LOCALES:
                        assert apply_cells(pages[locale][1], body) == rendered[locale][1], locale
                before, pages = after, rendered
        finally:
            store.close()


def test_more_than_cells_sends_the_whole_table() -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(migrated(f"sqlite:///{Path(folder) / 'whole.db'}"))
        try:
            service = make_service(store)
            tid = started(service, 4)
            site = create_app(service=service).state.site
            before = live_data(site, tid)
            service.record_result(tid, 1, 1, "1-0")
            after = live_data(site, tid)
            assert before is not None and after is not None
            body = changed_cells(before, after)
            assert body is not None and body["cells"], "a result: cells"
            assert {c["col"] for c in body["cells"]} >= {"pts"}
            service.undo(tid, confirm=True)
            service.undo(tid, confirm=True)  # (the start taken back: the games go, as cells)
            cleared = live_data(site, tid)
            assert cleared is not None and changed_cells(after, cleared) is not None
            service.add_player(tid, PlayerInfo("Newcomer", rating=1900))  # a row more
            again = live_data(site, tid)
            assert again is not None and changed_cells(cleared, again) is None
        finally:
            store.close()
