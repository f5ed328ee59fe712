"""A case page a reader can cite: short id and link, plain and BibTeX references, sources near the top,
description and social-preview tags, and dates from the file's git history."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from markupsafe import escape
from starlette.testclient import TestClient
from web_fixture_ids import HBM

from kubegap.knowledge.model import Incident
from kubegap.library import Library
from kubegap.web.citation import build_citation, short_id
from kubegap.web.history import FileHistory, parse_log


def test_short_id_is_stable_and_short() -> None:
    first = short_id(HBM)
    assert first == short_id(HBM) and re.fullmatch(r"KG-[A-Z2-7]{6}", first)
    assert short_id(HBM + "x") != first


def test_short_link_leads_to_the_case_in_the_readers_language(client: TestClient) -> None:
    short = short_id(HBM)
    english = client.get(f"/c/{short}", headers={"Accept-Language": "en"}, follow_redirects=False)
    assert english.status_code == 302 and english.headers["location"] == f"/en/incidents/{HBM}"
    korean = client.get(f"/c/{short.lower()}", headers={"Accept-Language": "ko"}, follow_redirects=False)
    assert korean.headers["location"] == f"/ko/incidents/{HBM}"
    missing = client.get("/c/KG-AAAAAA")
    assert missing.status_code == 404 and "<html" in missing.text


def test_case_page_carries_citation_and_preview_tags(client: TestClient) -> None:
    data = client.get(f"/en/incidents/{HBM}.json").json()
    citation = data["citation"]
    assert data["short_id"] == citation["short_id"] == short_id(HBM)
    assert citation["short_url"] == f"http://127.0.0.1/c/{data['short_id']}"
    assert data["title"] in citation["plain"] and data["short_id"] in citation["plain"]
    assert f"Accessed {dt.date.today().isoformat()}" in citation["plain"]
    assert citation["plain"].endswith(f"http://127.0.0.1/en/incidents/{HBM}")
    assert citation["bibtex"].startswith("@misc{kubegap-") and "urldate = {" in citation["bibtex"]
    page = client.get(f"/en/incidents/{HBM}").text
    assert f'<meta name="description" content="{escape(data["meta_description"])}">' in page
    assert f'<meta property="og:url" content="http://127.0.0.1/en/incidents/{HBM}">' in page
    assert '<meta property="og:type" content="article">' in page and 'name="twitter:card"' in page
    assert '<link rel="canonical"' in page
    # sources come before the nine sections, each with its publication date when known
    assert page.index('id="sources-heading"') < page.index('class="sections"')
    korean = client.get(f"/ko/incidents/{HBM}").text
    assert "이 사례 인용하기" in korean and "열람" in korean


def test_bibtex_escapes_latex_and_plain_text_stays_one_line(library: Library) -> None:
    incident: Incident = library.incident(HBM)
    tricky = incident.model_copy(
        update={"title": incident.title.model_copy(update={"en": "50% of {GPUs} & $cost_x #1"})}
    )
    citation = build_citation(
        tricky, "en", "https://x/en/incidents/a", "https://x/c/KG-A", "2025-01-02", dt.date(2026, 1, 2)
    )
    assert r"title = {50\% of \{GPUs\} \& \$cost\_x \#1}" in citation.bibtex
    assert "year = {2025}" in citation.bibtex and "urldate = {2026-01-02}" in citation.bibtex
    assert "\n" not in citation.plain and "Last updated 2025-01-02" in citation.plain


def test_parse_log_gives_first_and_last_dates() -> None:
    log = "@2025-03-01\n\nincidents/a.yaml\nincidents/b.yaml\n@2024-01-05\n\nincidents/a.yaml\n"
    dates = parse_log(log)
    assert (dates["a.yaml"].added, dates["a.yaml"].updated) == ("2024-01-05", "2025-03-01")
    assert (dates["b.yaml"].added, dates["b.yaml"].updated) == ("2025-03-01", "2025-03-01")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_file_history_reads_a_real_repository(tmp_path: Path) -> None:
    folder = tmp_path / "incidents"
    folder.mkdir()

    def commit(date: str, message: str) -> None:
        environment = {**os.environ, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
        environment.update(
            GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@x", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@x"
        )
        subprocess.run(["git", "-C", str(tmp_path), "add", "."], check=True, env=environment)
        subprocess.run(["git", "-C", str(tmp_path), "commit", "-qm", message], check=True, env=environment)

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (folder / "one.yaml").write_text("a: 1\n")
    commit("2024-02-03T10:00:00Z", "add")
    (folder / "one.yaml").write_text("a: 2\n")
    commit("2025-06-07T10:00:00Z", "change")
    dates = FileHistory(folder).dates("one.yaml")
    assert (dates.added, dates.updated) == ("2024-02-03", "2025-06-07")
    assert FileHistory(folder).dates("missing.yaml").updated == ""
    assert FileHistory(tmp_path / "not-there").dates("one.yaml").updated == ""


def test_a_case_outside_git_shows_no_dates_rather_than_guessing(client: TestClient) -> None:
    data = client.get(f"/en/incidents/{HBM}.json").json()  # the fixture library lives in a temp folder
    assert data["updated"] == "" and data["added"] == ""
    assert "Last updated" not in client.get(f"/en/incidents/{HBM}").text


@pytest.mark.parametrize("short", ["%00", "%3Cscript%3E", "A" * 5000, "KG-", "kg-%F0%9F%98%80"])
def test_strange_short_links_are_calm_not_found_pages(client: TestClient, short: str) -> None:
    response = client.get(f"/c/{short}", follow_redirects=False)
    assert response.status_code == 404 and "<script>" not in response.text


def test_sources_show_when_they_were_published_and_when_we_read_them() -> None:
    from kubegap.knowledge.model import Source
    from kubegap.web.incident_page import source_links

    read = Source(
        url="https://example.com/postmortem",
        title="Postmortem",
        publisher="Example",
        kind="postmortem",
        published=dt.date(2025, 3, 1),
        accessed=dt.date(2026, 12, 2),
    )
    unread = Source(url="https://example.com/b", title="B", publisher="Example", kind="blog")
    english = source_links([read, unread], "en")
    assert english[0].dates_label == "published 2025-03-01 · accessed 2026-12-02"
    assert english[1].dates_label == ""  # nothing known is shown as nothing, never guessed
    assert source_links([read], "ko")[0].dates_label == "발행 2025-03-01 · 열람 2026-12-02"
