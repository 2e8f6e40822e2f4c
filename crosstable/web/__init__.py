"""The web application: JSON API (OpenAPI), server-rendered pages (Jinja2 + htmx), live
crosstables by server-sent events, print pages and PDFs, English and Russian.

Install with ``pip install 'crosstable[web]'`` and run ``crosstable serve``.
"""

from __future__ import annotations

from typing import Any


def create_app(*args: Any, **kwargs: Any) -> Any:
    """See :func:`crosstable.web.app.create_app` (imported lazily: the web extra is optional)."""
    from crosstable.web.app import create_app as factory

    return factory(*args, **kwargs)


__all__ = ["create_app"]
