"""Routers: the JSON API, live events, pages, organiser actions, the wizard, accounts, print."""
