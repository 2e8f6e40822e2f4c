"""The offline app: a tournament kept in the browser, run by the core under Pyodide.

:mod:`crosstable.offline.app` holds the whole state as JSON and answers the page's
actions; :mod:`crosstable.offline.exchange` reads and writes the JSON the server
imports and exports; :mod:`crosstable.offline.build` assembles the served directory.
"""
