"""Tie-break explanations in the reader's language.

The core builds an :class:`~crosstable.core.tiebreaks.explain.Explanation`'s
texts as :class:`~crosstable.core.text.Message`s (English as ever, numbers
kept as numbers); the explain page translates them with the template global
``message`` (:func:`crosstable.web.messages.translate`), the JSON API with
:func:`explanation_json`. Their Russian texts are in the ``errors`` catalogue
(``locale/ru/LC_MESSAGES/errors.po``), as the error messages' are.
"""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import HTTPException, Path, Request

from crosstable.core.text import Message
from crosstable.core.tiebreaks.explain import Explanation
from crosstable.service.read_views import JsonObject
from crosstable.web.messages import translate
from crosstable.web.site import site_of

Num = Annotated[int, Path(ge=1, le=2_000_000_000)]


def explain(tid: Num, start: Num, request: Request) -> list[JsonObject]:
    """How each value of the player was computed (points first, then every tie-break):
    ``GET /api/v1/tournaments/{tid}/players/{start}/explain`` (registered by routes/api.py)."""
    site = site_of(request)
    _view, table = site.service.crosstable(tid)
    if table.standings is None or not 1 <= start <= table.size:
        raise HTTPException(
            status_code=404, detail=Message("there is no player {start} in the table", start=start)
        )
    return [explanation_json(e) for e in table.standings.explain(start)]


def explanation_json(explanation: Explanation) -> JsonObject:
    """An explanation's JSON with its texts in the request's language (Accept-Language, as
    errors are); the values and amounts stay numbers."""
    data = explanation.to_json()
    data["text"] = translate(explanation.text())
    data["formula"] = translate(explanation.formula)
    data["note"] = translate(explanation.note)
    items = cast(list[JsonObject], data["items"])
    for item, source in zip(items, explanation.items, strict=True):
        item["text"] = translate(source.text)
    return data


__all__ = ["explain", "explanation_json"]
