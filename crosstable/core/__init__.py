"""The pure domain: no I/O, no database, no web framework, no clock."""
