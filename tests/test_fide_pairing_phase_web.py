"""The manual-pairing phase on the pairing page and in the JSON API: "Edit pairings"
opens it (shown on the page, in the API's phase), "Validate pairings" closes it (a hand
pairing is FIDE's level 3: the confirmation page, the API's structured 409)."""

# ruff: noqa: F811 - the site fixture imported from test_web_swiss
from __future__ import annotations

import re
from typing import Any

from tests.test_web_swiss import Site, site  # noqa: F401


def publish_form(html: str) -> dict[str, Any]:
    """The pairing page's publish form as the browser would send it."""
    form: dict[str, Any] = {
        "round": re.search(r'name="round" value="(\d+)"', html).group(1),  # type: ignore[union-attr]
        "key": re.search(r'name="key" value="(\w+)"', html).group(1),  # type: ignore[union-attr]
        "board": re.findall(r'name="board" value="(\d+-\d+)"', html),
    }
    bye = re.search(r'name="bye" value="(\d+)"', html)
    if bye:
        form["bye"] = bye.group(1)
    return form


def test_q65_the_pairing_page_edits_then_validates(site: Site) -> None:
    tid = site.swiss()
    page = site.client.get(f"/t/{tid}/pairing").text
    assert 'id="edit-pairing"' in page and 'action="/t/' in page and "Edit pairings" in page
    opened = site.post(f"/t/{tid}/pairing/edit")
    assert str(opened.url).endswith(f"/t/{tid}/pairing?edit=1")
    assert 'id="pairing-phase"' in opened.text and 'id="edit-form"' in opened.text
    assert "pairings opened for editing" in opened.text  # the flash
    proposal = site.service.propose_round(tid)
    form: dict[str, Any] = {"count": str(len(proposal.boards)), "bye": str(proposal.bye)}
    for index, (white, black) in enumerate(proposal.boards, 1):
        form[f"white_{index}"], form[f"black_{index}"] = str(white), str(black)
    form["white_1"], form["black_1"] = form["black_1"], form["white_1"]
    review = site.post(f"/t/{tid}/pairing/review", **form)
    assert 'id="publish">Validate pairings<' in review.text
    to_validate = publish_form(review.text)
    asked = site.post(f"/t/{tid}/pairing/publish", **to_validate)  # level 3: confirm
    assert asked.status_code == 409 and "differs from the Dutch system" in asked.text
    token = re.search(r'name="confirm" value="([0-9a-f]+)"', asked.text).group(1)  # type: ignore[union-attr]
    done = site.post(f"/t/{tid}/pairing/publish", **to_validate, confirm=token)
    assert "manual pairing" in done.text
    assert site.service.pairing_phase(tid)["state"] == "closed"
    history = site.client.get(f"/t/{tid}/history").text
    assert "pairings opened for editing" in history and "pairings validated" in history
    # the published round, not played yet, can be reopened from the pairing page
    page = site.client.get(f"/t/{tid}/pairing").text
    assert 'id="reopen-pairing"' in page
    reopened = site.post(f"/t/{tid}/pairing/edit", round="1")
    assert "reopened for editing" in reopened.text
    assert "### MPA" not in site.service.export_trf(tid)


def test_q65_the_api_edits_and_validates_with_a_structured_warning(site: Site) -> None:
    tid = site.swiss()
    base = f"/api/v1/tournaments/{tid}/pairing"
    state = site.client.get(f"{base}/phase", headers=site.auth).json()
    assert state == {"round": None, "state": "closed", "opened": None}
    opened = site.client.post(f"{base}/edit", json={}, headers=site.auth)
    assert opened.status_code == 200 and opened.json()["phase"]["state"] == "editing"
    refused = site.client.post(base, json={"round": 1}, headers=site.auth)
    assert refused.status_code == 422 and "validate them" in refused.text
    boards = [list(b) for b in site.service.propose_round(tid).boards]
    boards[0].reverse()
    bye = site.service.propose_round(tid).bye
    answer = site.client.post(
        f"{base}/validate", json={"boards": boards, "bye": bye}, headers=site.auth
    )
    assert answer.status_code == 409
    warning = answer.json()["warning"]
    assert (warning["level"], warning["code"]) == (3, "manual-pairing")
    done = site.client.post(
        f"{base}/validate",
        json={"boards": boards, "bye": bye, "confirm": warning["confirm"]},
        headers=site.auth,
    )
    assert done.status_code == 200 and done.json()["manual"]
    assert site.client.get(f"{base}/phase", headers=site.auth).json()["state"] == "closed"
    again = site.client.post(f"{base}/edit", json={"round": 1}, headers=site.auth)
    assert again.json()["phase"] == {"round": 1, "state": "editing", "opened": again.json()["seq"]}
