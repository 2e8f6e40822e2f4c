"""FIDE's fixed-width TXT rating list, written (the layout ``players_list_foa.txt`` has).

Used to build lists in FIDE's exact layout for the tests and the benchmark, and to
hand a selection of the stored list to another program. Each field starts at the
column where its name starts in the header line (0-based): ID Number 0, Name 15,
Fed 76, Sex 80, Tit 84, WTit 89, OTit 94, FOA 109, SRtng 113, SGm 119, SK 123,
RRtng 126, RGm 132, Rk 136, BRtng 139, BGm 145, BK 149, B-day 152, Flag 158.

>>> from crosstable.formats.rating_list import ListedPlayer
>>> line = fide_txt_line(ListedPlayer(1503014, "Carlsen, Magnus", "NOR", "m", "GM", 1990, 2831))
>>> line[:15].strip(), line[15:76].strip(), line[76:79], line[84:86], line[113:117], line[152:156]
('1503014', 'Carlsen, Magnus', 'NOR', 'GM', '2831', '1990')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

from crosstable.formats.rating_list import ListedPlayer

#: (header name, width) of each column of the combined TXT list
COLUMNS = (
    ("ID Number", 15),
    ("Name", 61),
    ("Fed", 4),
    ("Sex", 4),
    ("Tit", 5),
    ("WTit", 5),
    ("OTit", 15),
    ("FOA", 4),
    ("SRtng", 6),
    ("SGm", 4),
    ("SK", 3),
    ("RRtng", 6),
    ("RGm", 4),
    ("Rk", 3),
    ("BRtng", 6),
    ("BGm", 4),
    ("BK", 3),
    ("B-day", 6),
    ("Flag", 4),
)


def fide_txt_header() -> str:
    return "".join(name.ljust(width) for name, width in COLUMNS).rstrip()


def fide_txt_line(player: ListedPlayer) -> str:
    women = player.title if player.title.startswith("W") else ""

    def rating(value: int | None) -> str:
        return "" if value is None else str(value)

    cells = (
        str(player.fide_id),
        player.name,
        player.federation,
        {"m": "M", "w": "F"}.get(player.sex, ""),
        player.title,
        women,
        "",
        "",
        rating(player.standard),
        "0" if player.standard is None else "9",
        "" if player.standard is None else "20",
        rating(player.rapid),
        "0" if player.rapid is None else "9",
        "" if player.rapid is None else "20",
        rating(player.blitz),
        "0" if player.blitz is None else "9",
        "" if player.blitz is None else "20",
        "" if player.birth_year is None else str(player.birth_year),
        "",
    )
    return "".join(
        cell[:width].ljust(width) for cell, (_, width) in zip(cells, COLUMNS, strict=True)
    ).rstrip()


def write_fide_txt(players: Iterable[ListedPlayer], stream: IO[str]) -> None:
    """The header line, then one line per player (``\\n`` line ends)."""
    stream.write(fide_txt_header() + "\n")
    for player in players:
        stream.write(fide_txt_line(player) + "\n")
