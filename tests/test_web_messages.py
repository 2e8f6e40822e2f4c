"""Error messages in the reader's language: every message the code raises carries its
template and values (no f-string), every template has a Russian translation, and a Russian
reader sees Russian errors (issue 14 item 4)."""

from __future__ import annotations

import ast
import functools
import importlib
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_service_support import migrated

import crosstable
from crosstable.core.errors import CrosstableError
from crosstable.core.text import Message
from crosstable.web.messages import CATALOGUE, translate

ROOT = Path(crosstable.__file__).parent
#: where errors that reach a reader are raised
SCANNED = ("service", "core", "web")
LOCALE = ROOT / "web" / "locale"
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


# -- reading the code ------------------------------------------------------------------


def error_classes() -> set[str]:
    """Names of every error class the product raises on purpose (CrosstableError's family)."""
    for package in SCANNED:
        module = importlib.import_module(f"crosstable.{package}")
        for info in pkgutil.walk_packages(module.__path__, f"crosstable.{package}."):
            importlib.import_module(info.name)
    names: set[str] = set()
    todo = [CrosstableError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return names


def assignments(function: ast.AST) -> dict[str, list[ast.expr]]:
    found: dict[str, list[ast.expr]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                found.setdefault(target.id, []).append(node.value)
    return found


# -- the tests -----------------------------------------------------------------------------


def calls(tree: ast.AST, errors: set[str]) -> Iterator[tuple[ast.Call, str]]:
    """Every call of an error class, of ``Message`` and of ``HTTPException``, and which
    (the extraction's own scan, the ``E_`` pieces left out: they are plain texts)."""
    for call, kind in extractor().calls(tree, errors):
        if kind != "piece":
            yield call, kind


def message_argument(call: ast.Call, kind: str) -> ast.expr | None:
    found: ast.expr | None = extractor().message_argument(call, kind)
    return found


def built_from_text(node: ast.expr, names: dict[str, list[ast.expr]], depth: int = 0) -> bool:
    """The message is put together as text (an f-string, ``+``, ``%``, ``.format``, a
    ``str.join``): the template and the values are lost."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return True
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and (
            node.func.attr == "format"
            or (node.func.attr == "join" and isinstance(node.func.value, ast.Constant))
        )
    ):
        return True
    if isinstance(node, ast.IfExp):
        return built_from_text(node.body, names, depth) or built_from_text(
            node.orelse, names, depth
        )
    if isinstance(node, ast.Name) and node.id in names and depth < 3:
        return any(built_from_text(value, {}, depth + 1) for value in names[node.id])
    return False


def scanned_files() -> Iterator[tuple[str, ast.Module]]:
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield str(path.relative_to(ROOT.parent)), ast.parse(path.read_text(encoding="utf-8"))


def test_no_message_is_put_together_as_text() -> None:
    """Every error of the product, every Message and every HTTP error detail is a template
    with named values (``RuleError("there is no round {round}", round=n)``), not an
    f-string or a concatenation: the reader's language needs the template."""
    errors = error_classes()
    found, texts = 0, []
    for where, tree in scanned_files():
        scopes = [
            node
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        ]
        seen: set[int] = set()
        for scope in [*scopes, tree]:
            names = assignments(scope)
            for call, kind in calls(scope, errors):
                if id(call) in seen:
                    continue
                seen.add(id(call))
                message = message_argument(call, kind)
                if message is None:
                    continue
                found += 1
                if built_from_text(message, names):
                    texts.append(f"{where}:{call.lineno}: {ast.unparse(message)[:100]}")
    assert found > 500  # the scan sees the code (it is not looking at nothing)
    assert texts == [], (
        "give these messages a template and named values "
        "(see crosstable/core/text.py):\n" + "\n".join(sorted(texts))
    )


def template_literals() -> Iterator[tuple[str, int, str, set[str] | None]]:
    """(file, line, template, the names of the values given — None: not known) of every
    template written in the code."""
    errors = error_classes()
    for where, tree in scanned_files():
        for call, kind in calls(tree, errors):
            message = message_argument(call, kind)
            if not (isinstance(message, ast.Constant) and isinstance(message.value, str)):
                continue
            given: set[str] | None = {k.arg for k in call.keywords if k.arg is not None}
            if kind == "http" or any(k.arg is None for k in call.keywords):
                given = None
            yield where, call.lineno, message.value, given


def test_every_template_is_translated_and_given_its_values() -> None:
    russian = catalog(str(LOCALE / "ru" / "LC_MESSAGES" / "errors.po"))
    found = list(template_literals())
    assert len(found) > 500
    untranslated, unfilled = [], []
    for where, line, template, given in found:
        if not re.search(r"[A-Za-z]", PLACEHOLDER.sub("", template)):
            continue  # (no words: nothing to translate)
        if not russian.get(template):
            untranslated.append(f"{where}:{line}: {template!r}")
            continue
        placeholders = set(PLACEHOLDER.findall(template))
        if not set(PLACEHOLDER.findall(russian[template])) <= placeholders:
            untranslated.append(f"{where}:{line}: the translation's placeholders: {template!r}")
        if given is not None and not placeholders <= given:
            unfilled.append(f"{where}:{line}: {sorted(placeholders - given)} in {template!r}")
    assert untranslated == [], "translate these (see crosstable/web/messages.py):\n" + "\n".join(
        untranslated
    )
    assert unfilled == [], "values missing:\n" + "\n".join(unfilled)


def test_the_scan_finds_what_it_should() -> None:
    """The scanner itself: an f-string, a concatenation, a variable and a branch."""
    code = """
def f(x, hint):
    message = f"the tournament has started: {x} only before round 1"
    if x:
        raise RuleError(message + (f"; {hint}" if hint else ""))
    if hint:
        raise RuleError(message)
    raise NotFoundError("no" if x else "there is no user {user}", user=x)
"""
    tree = ast.parse(code)
    function = tree.body[0]
    names = assignments(function)
    raises = sorted(
        (n for n in ast.walk(function) if isinstance(n, ast.Raise)), key=lambda n: n.lineno
    )
    got = [built_from_text(r.exc.args[0], names) for r in raises]  # type: ignore[union-attr]
    assert got == [True, True, False]


def catalog(name: str) -> dict[str, str]:
    from babel.messages.pofile import read_po

    with open(name, "rb") as handle:
        return {str(m.id): str(m.string) for m in read_po(handle) if m.id}


@functools.cache
def extractor():  # type: ignore[no-untyped-def]
    """scripts/extract_errors.py, the documented extraction of the templates."""
    import importlib.util

    path = ROOT.parent / "scripts" / "extract_errors.py"
    spec = importlib.util.spec_from_file_location("extract_errors", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_catalogue_files_are_up_to_date() -> None:
    """errors.pot holds what the code writes (templates and the E_ pieces), errors.po
    translates every entry with its placeholders, and errors.mo is compiled from it."""
    from babel.messages.mofile import read_mo

    expected = extractor().templates()
    assert len(expected) > 500 and set(CATALOGUE) - {"{where}: {problem}"} <= set(expected)
    assert len(CATALOGUE) == len(set(CATALOGUE)), "a piece is listed twice"
    assert set(catalog(str(LOCALE / "errors.pot"))) == set(expected), (
        "run scripts/extract_errors.py and pybabel update (see crosstable/web/messages.py)"
    )
    russian = catalog(str(LOCALE / "ru" / "LC_MESSAGES" / "errors.po"))
    untranslated = [t for t in expected if not russian.get(t)]
    assert untranslated == []
    for text in expected:  # (a translation may leave out a value its grammar does not need)
        assert set(PLACEHOLDER.findall(russian[text])) <= set(PLACEHOLDER.findall(text)), text
    with open(LOCALE / "ru" / "LC_MESSAGES" / "errors.mo", "rb") as handle:
        compiled = {str(m.id): str(m.string) for m in read_mo(handle) if m.id}
    assert compiled == russian


def _where(round_: int, board: int) -> Message:
    return Message("round {round} board {board}", round=round_, board=board)


@pytest.mark.parametrize(
    ("message", "russian"),
    [
        (
            Message(
                "{where} already has {result}; to change it, correct the result",
                where=_where(3, 2),
                result="1-0",
            ),
            "тур 3, доска 2: уже записан результат 1-0; чтобы его изменить, исправьте результат",
        ),
        (
            Message(
                "{count} games have no result yet: {listed}",
                count=3,
                listed=Message(
                    "{item} and {count} more",
                    item=Message.joined(", ", [_where(1, 2), _where(2, 1), _where(3, 3)]),
                    count=4,
                ),
            ),
            "партий без результата: 3 (тур 1, доска 2, тур 2, доска 1, тур 3, доска 3 и ещё 4)",
        ),
        (
            Message(
                "the tournament has started: {what} only before round 1{note}",
                what="players are removed",
                note=Message.joined("; ", ["", "after the start a player withdraws instead"]),
            ),
            "турнир начался: игроков удаляют только до 1-го тура; "
            "после старта игрок может только выбыть",
        ),
        (
            Message(
                "a Scheveningen is played by exactly two teams; there are {count}: {teams}",
                count=3,
                teams=Message.joined(
                    ", ",
                    [
                        Message("{team} ({count} players)", team="'A'", count=3),
                        Message("{team} ({count} player)", team="'C'", count=1),
                    ],
                ),
            ),
            "в схевенингенском турнире играют ровно две команды, а здесь их 3: "
            "'A' (игроков: 3), 'C' (игроков: 1)",
        ),
        (Message("a text without a template"), "a text without a template"),
    ],
)
def test_composed_messages(message: Message, russian: str) -> None:
    assert translate(message, "ru") == russian
    assert translate(message, "en") == str(message)


def test_real_service_errors_come_out_in_russian() -> None:
    """Errors raised by the service itself, translated whole (no English word left) by
    their templates."""
    import datetime as dt

    from crosstable.core.errors import RuleError
    from crosstable.core.model import LotsMethod
    from crosstable.service import ConflictError, FixedClock, PlayerInfo, Regulations, Service
    from crosstable.store import open_store
    from crosstable.web import messages

    service = Service(
        open_store("sqlite:///:memory:"), clock=FixedClock(dt.datetime(2026, 5, 1, tzinfo=dt.UTC))
    )
    tid = service.create_tournament(Regulations(name="Club")).tournament_id
    for name in ("Anna", "Boris", "Clara", "Dmitri"):
        service.add_player(tid, PlayerInfo(name))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    service.record_result(tid, 1, 1, "1-0")
    attempts = [
        lambda: service.record_result(tid, 1, 1, "0-1"),
        lambda: service.add_player(tid, PlayerInfo("Eva")),
        lambda: service.remove_player(tid, 1),
        lambda: service.finish(tid),
        lambda: service.withdraw(tid, 9),
        lambda: service.record_result(tid, 7, 1, "1-0"),
        lambda: service.report_result(tid, 1, 2, "1-0", player=1),
    ]
    for attempt in attempts:
        with pytest.raises((RuleError, ConflictError, LookupError)) as caught:
            attempt()
        text = messages.error_text(caught.value, "ru")
        english = re.findall(r"\b(?:the|is|has|round|board|player|a|an)\b", text)
        assert english == [], f"{caught.value} → {text}"


# -- the web app ---------------------------------------------------------------------------


def test_a_russian_reader_gets_russian_errors(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from crosstable.service import Service
    from crosstable.service.accounts import Accounts
    from crosstable.store import open_store
    from crosstable.web.app import create_app
    from tests.asgi_client import TestClient

    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'web.db'}")))
    accounts = Accounts(service.store)
    admin = accounts.create_user("arbiter", "password-arbiter", is_admin=True)
    token = accounts.create_token(admin.id)
    api = {"Authorization": f"Bearer {token}"}
    with TestClient(create_app(service=service)) as client:
        created = client.post(
            "/api/v1/tournaments", json={"name": "Club", "players": [{"name": "Anna"}]}, headers=api
        )
        assert created.status_code == 201, created.text
        tid = created.json()["id"]

        # the JSON API: the language the client asks for (English by default)
        lots = {"method": "manual", "order": [1]}
        english = client.post(f"/api/v1/tournaments/{tid}/lots", json=lots, headers=api)
        assert english.status_code == 422
        assert english.json()["detail"] == "at least two players are needed to draw lots"
        russian = client.post(
            f"/api/v1/tournaments/{tid}/lots", json=lots, headers=api | {"Accept-Language": "ru"}
        )
        assert russian.status_code == 422
        assert russian.json()["detail"] == "для жеребьёвки нужны хотя бы два игрока"
        refused = client.get(
            "/api/v1/tournaments/999", headers={"Accept-Language": "ru-RU,ru;q=0.9"}
        )
        assert refused.json()["detail"] == "в этой базе данных нет турнира 999"

        # a page: the organiser's form, the error comes back as a flash message
        client.headers["Accept-Language"] = "ru-RU,ru;q=0.9,en;q=0.5"
        page = client.get("/signin").text
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', page)
        assert csrf
        client.post(
            "/signin",
            data={"username": "arbiter", "password": "password-arbiter", "csrf_token": csrf[1]},
        )
        manage = client.get(f"/t/{tid}/manage")
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', manage.text)
        assert csrf
        answer = client.post(
            f"/t/{tid}/manage/lots",
            data={"csrf_token": csrf[1], "method": "rating"},
            headers={"Referer": f"http://testserver/t/{tid}/manage"},
        )
        assert answer.status_code == 200
        assert "для жеребьёвки нужны хотя бы два игрока" in answer.text
        assert "at least two players" not in answer.text
        # an error page
        missing = client.get("/t/999")
        assert missing.status_code == 404
        assert "в этой базе данных нет турнира 999" in missing.text
        # the same in English for an English reader
        client.headers["Accept-Language"] = "en"
        client.cookies.set("lang", "en")
        assert "there is no tournament 999" in client.get("/t/999").text
