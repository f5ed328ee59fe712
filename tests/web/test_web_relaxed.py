"""A long search text that no incident matches word for word says it was relaxed, in the page and JSON."""

from __future__ import annotations

from starlette.testclient import TestClient

from kubegap.text import label
from kubegap.web.app import create_app

TEXT = "nodes lost networking after unattended upgrade restarted systemd-networkd overnight quokka"


def test_relaxed_search_is_announced_in_both_languages() -> None:
    client = TestClient(base_url="http://127.0.0.1", app=create_app())
    for lang in ("ko", "en"):
        page = client.get(f"/{lang}/incidents", params={"q": TEXT})
        assert page.status_code == 200
        assert label("relaxed-search", lang) in page.text
    data = client.get("/en/incidents.json", params={"q": TEXT}).json()
    assert label("relaxed-search", "en") in str(data)
