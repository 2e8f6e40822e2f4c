"""What a newcomer tripped over on paper (issue 29 items 2, 3 and 14):

* a Swiss round's cell wrote the colour as a letter next to the opponent's number, and
  the Russian "б" (White) reads as the digit 6 (``8б1``): the print page, the hall's
  wall chart and the PDF now mark the colour with a circle — ○ White, ● Black on the
  pages; in the PDF (whose font has no such glyph) a small circle drawn, hollow for
  White and filled for Black — in every language, and the legends say so;
* a wide round robin's PDF ran past the right edge of A4 (40 players in Russian) or lost
  its columns (100 players: only 1–42): now it is landscape, as small as a legible 6 pt,
  then split over pages, the row headers (№, name) repeated on each, every opponent's
  column printed once;
* a battle-chess round whose colours are not drawn yet printed White and Black: the
  pairing lists and slips (pages and PDFs) say "colours drawn before the game".

The PDFs are read back with their text positions and their drawing operators.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_service_support import migrated
from test_web_print import _objects, _unescape, build_swiss, tables

from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient

RU = {"Accept-Language": "ru"}
#: a cell of a round: the opponent's number, the colour's mark, the result (or nothing yet)
CELL = re.compile(r"^\d+[○●](1|½|0|\+|−)?$")


@dataclass
class Text:
    page: int
    x: float
    y: float
    text: str
    size: float


@dataclass
class Drawn:
    width: float  # the page's, in points
    texts: list[Text]
    rects: list[tuple[int, float, float, float, float]]  # page, x, y, w, h
    hollow: int  # circles stroked only
    filled: int  # circles filled


def read(data: bytes) -> Drawn:
    """Every text with its page, position and font size, every rectangle, and the
    circles (Bézier paths) by how they were painted, of a PDF written by fpdf2."""
    found = _objects(data)
    objects = {number: body for number, (body, _raw) in found.items()}
    pages = [body for body in objects.values() if re.search(rb"/Type /Page\b(?!s)", body)]
    width = 0.0
    texts: list[Text] = []
    rects = []
    hollow = filled = 0
    token = re.compile(
        rb"/(F\d+) ([\d.]+) Tf"
        rb"|BT ([\d.-]+) ([\d.-]+) Td[^(]*\(((?:\\.|[^\\)])*)\) Tj"
        rb"|([\d.-]+) ([\d.-]+) ([\d.-]+) ([\d.-]+) re"
        rb"|c ([SfB])\b",
        re.S,
    )
    for number, page in enumerate(pages, 1):
        box = re.search(rb"/MediaBox \[([\d. ]+)\]", page) or re.search(
            rb"/MediaBox \[([\d. ]+)\]", objects[min(objects)]
        )
        if box is None:
            box = next(
                re.search(rb"/MediaBox \[([\d. ]+)\]", b)
                for b in objects.values()
                if b"/MediaBox" in b
            )
        assert box is not None
        width = float(box.group(1).split()[2])
        contents = re.search(rb"/Contents (\d+) 0 R", page)
        resources = re.search(rb"/Resources (\d+) 0 R", page)
        assert contents is not None and resources is not None
        fonts = {}
        for name, ref in re.findall(rb"/(F\d+) (\d+) 0 R", objects[int(resources.group(1))]):
            cmap_ref = re.search(rb"/ToUnicode (\d+) 0 R", objects[int(ref)])
            assert cmap_ref is not None
            cmap = found[int(cmap_ref.group(1))][1]
            pairs = re.findall(
                rb"<([0-9A-Fa-f]{4})>\s*<([0-9A-Fa-f]+)>", cmap.split(b"beginbfchar")[-1]
            )
            fonts[name.decode()] = {
                int(a, 16): bytes.fromhex(b.decode()).decode("utf-16-be") for a, b in pairs
            }
        font: dict[int, str] = {}
        size = 0.0
        for m in token.finditer(found[int(contents.group(1))][1]):
            if m.group(1):
                font, size = fonts[m.group(1).decode()], float(m.group(2))
            elif m.group(5) is not None:
                raw = _unescape(m.group(5))
                codes = [int.from_bytes(raw[i : i + 2], "big") for i in range(0, len(raw), 2)]
                text = "".join(font[c] for c in codes)
                texts.append(Text(number, float(m.group(3)), float(m.group(4)), text, size))
            elif m.group(6) is not None:
                x, y, w, h = (float(m.group(i)) for i in range(6, 10))
                rects.append((number, x, y, w, h))
            elif m.group(10) == b"S":
                hollow += 1
            else:
                filled += 1
    return Drawn(width, texts, rects, hollow, filled)


# -- the tournaments ----------------------------------------------------------------------


def _round_robin(service: Service, players: int, rounds_played: int) -> int:
    tid = service.create_tournament(Regulations(name=f"Круговой на {players}")).tournament_id
    for i in range(1, players + 1):
        name = f"Длиннофамильный-Участник {i:03d}"
        service.add_player(tid, PlayerInfo(name, rating=2400 - i))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    for game in service.overview(tid).games:
        if game.round <= rounds_played:
            service.record_result(tid, game.round, game.board, "1-0" if game.board % 2 else "½-½")
    return tid


def _battle(service: Service) -> int:
    details = {"variant": "battle", "setup_minutes": "5"}
    tid = service.create_tournament(Regulations(name="Боевые", details=details)).tournament_id
    for i in range(1, 7):
        service.add_player(tid, PlayerInfo(f"Боец {i}", rating=2000 - i))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    return tid


@dataclass
class World:
    client: TestClient
    service: Service
    swiss: int
    forty: int
    hundred: int
    battle: int


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    db = tmp_path_factory.mktemp("prints") / "prints.db"
    service = Service(open_store(migrated(f"sqlite:///{db}")), random=random.Random(5))
    ids = build_swiss(service), _round_robin(service, 40, 3), _round_robin(service, 100, 1)
    battle = _battle(service)
    with TestClient(create_app(service=service)) as client:
        yield World(client, service, *ids, battle)


def get(world: World, path: str, **headers: str) -> Any:
    answer = world.client.get(path, headers=headers)
    assert answer.status_code == 200, (path, answer.status_code, answer.text[:300])
    return answer


# -- item 2: the colour's mark --------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, RU])
@pytest.mark.parametrize("path", ["print/crosstable", "hall/wallchart"])
def test_swiss_cells_mark_the_colour_with_a_circle(
    world: World, path: str, headers: dict[str, str]
) -> None:
    page = get(world, f"/t/{world.swiss}/{path}", **headers).text
    body = tables(page)["print-swiss"][1:]
    cells = [c for row in body for c in row[4:8] if c[:1].isdigit()]
    assert len(cells) >= 20
    assert all(CELL.match(c) for c in cells), [c for c in cells if not CELL.match(c)]
    # as many games with White as with Black
    assert sum("○" in c for c in cells) == sum("●" in c for c in cells)
    legend = re.sub(r"<[^>]+>", " ", page.split('class="legend"', 1)[1])
    assert "○" in legend and "●" in legend
    assert not re.search(r"\d[бчwb]", " ".join(cells))


@pytest.mark.parametrize("headers", [{}, RU])
def test_the_swiss_pdf_draws_the_colour_as_a_circle(world: World, headers: dict[str, str]) -> None:
    drawn = read(get(world, f"/t/{world.swiss}/pdf/crosstable.pdf", **headers).content)
    view = world.service.overview(world.swiss)
    games = [g for g in view.games if g.white and g.black]
    # each game twice: a hollow circle in White's row, a filled one in Black's (the
    # legend draws one of each too)
    assert drawn.hollow == drawn.filled == len(games) + 1
    text = " ".join(t.text for t in drawn.texts)
    assert not re.search(r"\d[бчwb][1½0+−]?\b", text)
    assert "б Белые" not in text and "w White" not in text


# -- item 3: every column of a wide round robin --------------------------------------------


def _header_numbers(drawn: Drawn, head: str) -> set[int]:
    """The opponents' column numbers in the header rows: the digits on the line of the
    ``head`` header ("Участник"), page by page."""
    out: set[int] = set()
    for found in (t for t in drawn.texts if t.text == head):
        out |= {
            int(t.text)
            for t in drawn.texts
            if t.page == found.page and abs(t.y - found.y) < 0.5 and t.text.isdigit()
        }
    return out


@pytest.mark.parametrize("players", [40, 100])
def test_a_wide_round_robin_prints_every_column_inside_the_page(world: World, players: int) -> None:
    tid = world.forty if players == 40 else world.hundred
    drawn = read(get(world, f"/t/{tid}/pdf/crosstable.pdf", **RU).content)
    # nothing past the right edge: no cell's border, no text starting outside
    assert drawn.rects
    assert all(x >= 0 and x + w <= drawn.width + 0.01 for _p, x, _y, w, _h in drawn.rects)
    assert all(0 <= t.x < drawn.width for t in drawn.texts)
    # a legible size everywhere (the footer's 7 pt included)
    assert min(t.size for t in drawn.texts if t.text.strip()) >= 6
    # every opponent's column, the points and the place
    assert _header_numbers(drawn, "Участник") == set(range(1, players + 1))
    heads = {t.text for t in drawn.texts}
    assert {"Место", "№", "Участник"} <= heads
    # the names on every part: each row header repeated where its results continue
    parts = len({t.page for t in drawn.texts if t.text == "Участник"})
    names = [t.text for t in drawn.texts if t.text.startswith("Длиннофамильный")]
    if players == 100:
        assert parts >= 3
        for i in range(1, players + 1):
            assert names.count(f"Длиннофамильный-Участник {i:03d}") >= 2
    else:
        assert set(names) == {f"Длиннофамильный-Участник {i:03d}" for i in range(1, 41)}


# -- item 14: battle chess before the colours are drawn -------------------------------------


@pytest.mark.parametrize("headers", [{}, RU])
def test_battle_prints_say_the_colours_are_drawn_before_the_game(
    world: World, headers: dict[str, str]
) -> None:
    phrase = "colours drawn before the game" if not headers else "цвета определяются перед партией"
    white = "White" if not headers else "Белые"
    tid = world.battle
    for what in ("pairings", "slips"):
        page = get(world, f"/t/{tid}/print/{what}?round=2", **headers).text
        plain = re.sub(r"<[^>]+>", " ", page)
        assert phrase in plain, what
        assert white not in plain.split("<main", 1)[-1], what
        drawn = get(world, f"/t/{tid}/print/{what}?round=1", **headers).text
        assert phrase not in drawn and white in drawn
        pdf = read(get(world, f"/t/{tid}/pdf/{what}.pdf?round=2", **headers).content)
        text = " ".join(t.text for t in pdf.texts)
        assert phrase in text and white not in text, what
    # the list by name (on the print page and the hall's PDF): the colour column says so
    page = get(world, f"/t/{tid}/print/pairings?round=2", **headers).text
    by_name = page.split('id="names-2"', 1)[1]
    assert by_name.count(phrase) == 6 and white not in by_name
    hall = read(get(world, f"/t/{tid}/hall/pairings.pdf?round=2", **headers).content)
    assert [t.text for t in hall.texts].count(phrase) == 6
