"""crosstable: a chess tournament manager exact to the FIDE regulations."""

__version__ = "0.1.0"
