"""Tournament file formats: TRF-16, TRF-2026, TRF(x), JSON."""
