"""Append translations to a gettext catalogue without rewriting it (so branches that
each add entries merge as a union: .gitattributes): ``python scripts/po_add.py
FILE.po entries.json`` where the JSON is a list of [msgid, msgstr]; an msgid already in
the catalogue is left as it is (reported). Then compile with pybabel (docs/web.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.pofile import read_po


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def main(argv: list[str]) -> int:
    path, entries = Path(argv[0]), json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    with path.open("rb") as handle:
        known = {message.id for message in read_po(handle) if message.id}
    added = []
    for msgid, msgstr in entries:
        if msgid in known:
            print(f"already there: {msgid[:60]}")
            continue
        flag = "#, python-brace-format\n" if "{" in msgid else ""
        flag = "#, python-format\n" if "%(" in msgid else flag
        added.append(f"\n{flag}msgid {_quoted(msgid)}\nmsgstr {_quoted(msgstr)}\n")
        known.add(msgid)
    with path.open("a", encoding="utf-8") as out:
        out.writelines(added)
    print(f"{len(added)} entries added to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
