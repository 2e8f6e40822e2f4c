"""The web application: JSON API (OpenAPI), server-rendered pages (Jinja2 + htmx), live
crosstables by server-sent events, print pages and PDFs, English and Russian.

Install with ``pip install 'crosstable[web]'`` and run ``crosstable serve``; the
application factory is :func:`crosstable.web.app.create_app`. This package imports
nothing itself, so the command line can use its light modules (the demo, the blank
papers, the push check) without loading the application.
"""
