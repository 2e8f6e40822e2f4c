"""What the page calls: one request as JSON text in, one answer as JSON text out.

The page keeps the state; it sends ``{"do": …, "state": …, "lang": …}`` and draws the
answer ``{"state": …, "view": …}`` or shows ``{"error": …}`` (the state unchanged).

>>> import json
>>> answer = json.loads(handle(json.dumps({"do": "new", "kind": "knockout", "name": "Cup"})))
>>> answer["view"]["kind"], answer["state"]["log"]
('knockout', [])
>>> json.loads(handle('{"do": "undo", "state": ' + json.dumps(answer["state"]) + '}'))["error"]
'there is nothing to undo'
"""

from __future__ import annotations

import json
from typing import Any

from crosstable.core.errors import CrosstableError
from crosstable.offline.app import act, new_state, undo, view
from crosstable.offline.exchange import export_document, import_text
from crosstable.offline.texts import labels, say

MAX_REQUEST = 16 * 2**20


def handle(request: str) -> str:
    """The answer to one request of the page."""
    lang = "en"
    try:
        if len(request) > MAX_REQUEST:
            raise CrosstableError("the request is too large")
        data = json.loads(request)
        if not isinstance(data, dict):
            raise CrosstableError("the request is not a JSON object")
        lang = str(data["lang"]) if data.get("lang") in ("ru", "hy") else "en"
        answer = _answer(data)
    except CrosstableError as error:
        return json.dumps({"error": say(error.text, lang)}, ensure_ascii=False)
    except (ValueError, RecursionError):
        return json.dumps({"error": "the request is not JSON"})
    if "state" in answer:
        answer["view"] = view(answer["state"])
    answer["labels"] = labels(lang)
    return json.dumps(answer, ensure_ascii=False)


def _answer(data: dict[str, Any]) -> dict[str, Any]:
    do = data.get("do")
    if do == "labels":
        return {}
    if do == "new":
        return {"state": new_state(str(data.get("kind")), data.get("name"))}  # type: ignore[arg-type]
    if do == "import":
        return {
            "state": import_text(str(data.get("text", "")), str(data.get("source") or "<file>"))
        }
    state = data.get("state")
    if do == "view":
        return {"state": import_text(json.dumps(state), "<backup>")}
    if do == "undo":
        return {"state": undo(state)}  # type: ignore[arg-type]
    if do == "export":
        return {"state": state, "export": export_document(state)}  # type: ignore[arg-type]
    return {"state": act(state, data.get("action"))}  # type: ignore[arg-type]
