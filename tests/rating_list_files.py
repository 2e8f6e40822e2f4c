"""Small rating lists in FIDE's exact formats (TXT, XML, zipped) and a national CSV."""

from __future__ import annotations

import zipfile
from io import StringIO
from pathlib import Path

from crosstable.formats.rating_list import ListedPlayer
from crosstable.formats.rating_list_write import write_fide_txt

PLAYERS = (
    ListedPlayer(1503014, "Carlsen, Magnus", "NOR", "m", "GM", 1990, 2831, 2823, 2886),
    ListedPlayer(2020009, "Caruana, Fabiano", "USA", "m", "GM", 1992, 2805, 2750, 2720),
    ListedPlayer(13300474, "Hou, Yifan", "CHN", "w", "GM", 1994, 2633, None, 2611),
    ListedPlayer(4100018, "Ćirić, Dragoljub", "SRB", "m", "IM", 1935, 2310, None, None),
    ListedPlayer(24101605, "Ivanova, Anna", "RUS", "w", "WFM", 2008, 1950, 1902, None),
)


def fide_txt(players: tuple[ListedPlayer, ...] = PLAYERS) -> str:
    out = StringIO()
    write_fide_txt(players, out)
    return out.getvalue()


def fide_xml(players: tuple[ListedPlayer, ...] = PLAYERS) -> str:
    """The combined XML list's layout (players_list_xml_foa.xml)."""

    def value(v: object) -> str:
        return "" if v is None else str(v)

    rows = []
    for p in players:
        women = p.title if p.title.startswith("W") else ""
        rows.append(
            "<player>"
            f"<fideid>{p.fide_id}</fideid><name>{p.name}</name><country>{p.federation}</country>"
            f"<sex>{ {'m': 'M', 'w': 'F'}[p.sex] }</sex><title>{p.title}</title>"
            f"<w_title>{women}</w_title><o_title></o_title><foa_title></foa_title>"
            f"<rating>{value(p.standard)}</rating><games>0</games><k>20</k>"
            f"<rapid_rating>{value(p.rapid)}</rapid_rating><rapid_games>0</rapid_games>"
            f"<rapid_k>20</rapid_k><blitz_rating>{value(p.blitz)}</blitz_rating>"
            f"<blitz_games>0</blitz_games><blitz_k>20</blitz_k>"
            f"<birthday>{value(p.birth_year)}</birthday><flag></flag>"
            "</player>\n"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<playerslist>\n'
        + "".join(rows)
        + "</playerslist>\n"
    )


def national_csv(players: tuple[ListedPlayer, ...] = PLAYERS) -> str:
    lines = ["FIDE ID;Name;Fed;Sex;Title;Born;Rating;Rapid;Blitz"]
    for p in players:
        cells = (
            p.fide_id,
            p.name,
            p.federation,
            p.sex.upper(),
            p.title,
            p.birth_year,
            p.standard,
            p.rapid,
            p.blitz,
        )
        lines.append(";".join("" if c is None else str(c) for c in cells))
    return "\n".join(lines) + "\n"


def zipped(tmp_path: Path, name: str, member: str, text: str) -> Path:
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, text.encode("utf-8"))
    return path
