"""The two conversion tables of the FIDE Rating Regulations (B.02, table 8.1).

8.1(a): fractional score p → rating difference dp (for TPR, C.07 10.2).
8.1(b): rating difference → expected score (for PTP, C.07 10.3; the full scale
is used, so differences above 735 give 1.00 and no ±400 cut applies).

>>> dp(100), dp(50), dp(0), dp(75)
(800, 0, -800, 193)
>>> expected(0), expected(4), expected(736), expected(-736)
(50, 51, 100, 0)
"""

from __future__ import annotations

from bisect import bisect_left

# dp for p = 0.50, 0.51, … 1.00 (table 8.1(a)); below 0.50 it is the negative mirror.
_DP_UPPER = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
    800,
)  # fmt: skip

# Upper ends of the rating-difference bands for expected scores 0.50 … 0.99
# (table 8.1(b)); a difference above the last band scores 1.00.
_PD_BANDS = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68,
    76, 83, 91, 98, 106, 113, 121, 129, 137, 145,
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235,
    245, 256, 267, 278, 290, 302, 315, 328, 344, 357,
    374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)  # fmt: skip


def dp(p_hundredths: int) -> int:
    """Rating difference for a fractional score given in hundredths (0…100)."""
    if not 0 <= p_hundredths <= 100:
        raise ValueError(f"fractional score {p_hundredths}/100 out of range")
    if p_hundredths >= 50:
        return _DP_UPPER[p_hundredths - 50]
    return -_DP_UPPER[50 - p_hundredths]


def expected(difference: int) -> int:
    """Expected score in hundredths for a player rated ``difference`` above the opponent."""
    band = bisect_left(_PD_BANDS, abs(difference))
    pd = 50 + band  # band 50 (beyond the last) gives 100
    return pd if difference >= 0 else 100 - pd
