"""``crosstable import`` of a tournament JSON (``"format": "crosstable-tournament"``):
what the offline app exports and ``trf convert --to json`` writes, imported as a TRF is
(a knockout with its bracket: :mod:`crosstable.service.offline_import`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crosstable.formats.json_io import FORMAT

if TYPE_CHECKING:
    from crosstable.service import Service
    from crosstable.service.frame import Change


def is_tournament_json(document: Any) -> bool:
    """Whether ``document`` is a tournament JSON rather than the server's own export."""
    return isinstance(document, dict) and document.get("format") == FORMAT


def import_tournament_json(
    service: Service, document: dict[str, Any], source: str, actor: str
) -> Change:
    """The tournament of a tournament JSON, recorded as one import, or a knockout with
    its whole bracket (the app's own state, under ``"offline"``, is the browser's and is
    not stored)."""
    from crosstable.service.offline_import import (  # deferred: service layer
        import_tournament_document,
    )

    return import_tournament_document(service, document, source, actor)
