"""Reference rounds of the swiss-dutch data set: cut a .trf before a round."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from crosstable.formats.trf import parse_trf
from crosstable.formats.trf_model import TrfDocument

_HALF = Fraction(1, 2)
_POINTS = {"1": 1, "+": 1, "W": 1, "F": 1, "U": 1, "=": _HALF, "D": _HALF, "H": _HALF}


def cut_before(text: str, round_number: int) -> str:
    """The file as it stood before ``round_number`` was paired (data/README.md)."""
    out = []
    for line in text.splitlines():
        if not line.startswith("001"):
            out.append(line)
            continue
        head = line[:89].ljust(89)
        blocks = []
        total = Fraction(0)
        for r in range(1, round_number + 1):
            start = 91 + 10 * (r - 1)
            block = line[start - 2 : start + 8] if start - 2 < len(line) else ""
            block = block.ljust(10)
            if r < round_number:
                blocks.append(block)
                total += _POINTS.get(block[9].upper(), 0)
            elif block[2:6] == "0000" and block[9].upper() in "HZF":
                blocks.append(block)
        points = f"{float(total):4.1f}"
        head = head[:80] + points + head[84:]
        out.append((head + "".join(blocks)).rstrip())
    return "\n".join(out) + "\n"


def reference_sets(data_dir: Path) -> list[str]:
    return sorted(p.stem for p in (data_dir / "swiss-dutch").glob("*.trf"))


def load(data_dir: Path, name: str) -> tuple[str, dict[str, object]]:
    folder = data_dir / "swiss-dutch"
    text = (folder / f"{name}.trf").read_text()
    expected = json.loads((folder / f"{name}.expected.json").read_text())
    return text, expected


def document_before(text: str, round_number: int, name: str) -> TrfDocument:
    return parse_trf(cut_before(text, round_number), f"{name}.trf")
