"""`crosstable ratinglist import / find / add / update` (issue 16 item 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crosstable.cli import main
from tests.rating_list_files import fide_txt, fide_xml, zipped


def test_import_find_add_and_update_from_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.db")
    listed = zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt())
    assert main(["ratinglist", "import", str(listed), "--db", db]) == 0
    out = capsys.readouterr().out
    assert "5 players imported" in out and "0 lines skipped" in out
    assert main(["ratinglist", "find", "car", "--format", "json", "--db", db]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [p["fide_id"] for p in found] == [1503014, 2020009]
    assert found[0]["rapid"] == 2823 and found[0]["title"] == "GM"
    assert main(["ratinglist", "find", "nobody", "--db", db]) == 0
    assert "no player in the imported lists matches 'nobody'" in capsys.readouterr().out
    assert main(["new", "Blitz", "--time-control", "3+2", "--db", db]) == 0
    assert main(["ratinglist", "add", "1503014", "--db", db]) == 0
    assert "player 1 Carlsen, Magnus registered" in capsys.readouterr().out
    assert main(["player", "edit", "1", "--rating", "2500", "--db", db]) == 0
    capsys.readouterr()
    assert main(["ratinglist", "update", "1", "--db", db]) == 0
    assert "blitz ratings updated from the rating list: 1 Carlsen, Magnus 2500 → 2886" in (
        capsys.readouterr().out
    )


def test_mistakes_are_one_line_and_exit_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.db")
    bad = tmp_path / "list.xml"
    bad.write_text(
        fide_xml().replace("<playerslist>", '<!DOCTYPE p [<!ENTITY x "y">]><playerslist>')
    )
    assert main(["ratinglist", "import", str(bad), "--db", db]) == 2
    err = capsys.readouterr().err
    assert "list.xml:2: the XML declares a document type or entities" in err
    assert "Traceback" not in err and err.count("\n") == 1
    assert main(["ratinglist", "import", str(bad), "--type", "bullet", "--db", db]) == 2
    assert "--type 'bullet': use standard, rapid or blitz" in capsys.readouterr().err
    assert main(["new", "Club", "--db", db]) == 0
    assert main(["ratinglist", "add", "99", "--db", db]) == 2
    assert "FIDE id 99 is not in the imported rating lists" in capsys.readouterr().err


def test_skipped_lines_are_listed_and_the_rest_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.db")
    lines = fide_txt().splitlines()
    lines[1] = lines[1][:80] + "X" + lines[1][81:]  # Carlsen's sex column
    path = tmp_path / "players_list_foa.txt"
    path.write_text("\n".join(lines) + "\n")
    assert main(["ratinglist", "import", str(path), "--db", db]) == 0
    captured = capsys.readouterr()
    assert f"skipped: {path}:2: sex: 'X' is not M or F" in captured.err
    assert "4 players imported" in captured.out and "1 line skipped" in captured.out
