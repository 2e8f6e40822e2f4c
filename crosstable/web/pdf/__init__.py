"""PDF downloads: the crosstable / wall chart, pairing lists, result slips and
winners' certificates, with fpdf2 and the Open Sans font shipped by ``ttf-opensans``
(Cyrillic included, so Russian names print; no system packages needed).

Each system prints what its screen shows:

* a round robin: seed 000's grid, one column per opponent (:func:`crosstable_pdf`);
* a Swiss: its table by rounds — place, name, number, rating, each round as the
  opponent's number, the colour and the result, or the bye's kind; points and
  tie-breaks (:func:`swiss_pdf`, from :func:`crosstable.web.pairing_views.swiss_table`);
* a knockout: its bracket, the champion, the places and every match's games
  (:func:`bracket_pdf`, from the service's ``bracket_view`` through
  :func:`~crosstable.web.sheets.bracket_sheet`);
* a Scheveningen: the team grid, team A's players as rows and team B's as columns
  (:func:`teams_pdf`, from :func:`~crosstable.web.sheets.team_grid`).

What they print (:class:`~crosstable.web.sheets.Sheet`, ``BracketSheet``, ``TeamGrid``,
the details under the title…) is :mod:`crosstable.web.sheets`, shared with the print
pages (``templates/print_*.html``), so the paper and the PDF say the same thing; this
package only draws, on :class:`~crosstable.web.pdf.document.Document` (the page, the
font, headings and tables): :mod:`.tables` (a tournament's table by system),
:mod:`.bracket` (a knockout) and :mod:`.papers` (pairing lists, slips, certificates).
Nothing is computed here that the screens do not compute.
"""

from crosstable.web.pdf.bracket import bracket_pdf
from crosstable.web.pdf.papers import certificates_pdf, checkin_pdf, pairings_pdf, slips_pdf
from crosstable.web.pdf.tables import crosstable_pdf, swiss_pdf, teams_pdf

__all__ = [
    "bracket_pdf",
    "certificates_pdf",
    "checkin_pdf",
    "crosstable_pdf",
    "pairings_pdf",
    "slips_pdf",
    "swiss_pdf",
    "teams_pdf",
]
