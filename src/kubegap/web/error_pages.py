"""The error catalog in the web library: `/{lang}/errors` and one page per entry, `/{lang}/errors/<id>`.

An entry page says what the error means and the usual action, lists the patterns a reader may paste,
and links the incidents and fleet-study rows that involve it, the checks that guard against it and
related entries. Headings live here (both languages) rather than in labels.py, so the catalog pages
can change without touching the labels the other pages share.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubegap.knowledge.error_model import ErrorEntry
from kubegap.text import Lang
from kubegap.web import urls
from kubegap.web.incident_page import SourceLink, source_links
from kubegap.web.site import Site

_HEADINGS = {
    "catalog": ("오류 카탈로그", "Error catalog"),
    "catalog_lead": (
        "GPU·NCCL·CUDA·쿠버네티스 오류 코드와 메시지의 뜻, 보통의 조치, 관련 사례와 점검.",
        "What GPU, NCCL, CUDA and Kubernetes error codes and messages mean, the usual action, and the "
        "incidents and checks that involve them.",
    ),
    "meaning": ("의미", "Meaning"),
    "action": ("보통의 조치", "Usual action"),
    "patterns": ("이런 문구로 찾습니다", "Matched when a text contains"),
    "incidents": ("관련 사례", "Incidents"),
    "studies": ("플릿 연구의 집계", "Counted in fleet studies"),
    "checks": ("막아 주는 kubegap 점검", "kubegap checks that guard against it"),
    "related": ("관련 오류", "Related errors"),
    "sources": ("출처", "Sources"),
    "notes": ("참고", "Notes"),
    "no_incidents": ("아직 이 오류를 다룬 사례가 없습니다.", "No incident in the library involves it yet."),
}


def _headings(lang: Lang) -> dict[str, str]:
    return {key: pair[0 if lang == "ko" else 1] for key, pair in _HEADINGS.items()}


def error_url(lang: str, error_id: str) -> str:
    return urls.path(lang, "errors", error_id)


@dataclass(frozen=True, slots=True)
class Link:
    label: str
    url: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class ErrorSummary:
    id: str
    family: str
    title: str
    meaning: str
    url: str


@dataclass(frozen=True, slots=True)
class ErrorCatalogPage:
    kind: str
    lang: str
    title: str
    headings: dict[str, str]
    entries: tuple[ErrorSummary, ...]


@dataclass(frozen=True, slots=True)
class ErrorPage:
    kind: str
    lang: str
    id: str
    title: str
    family: str
    code: str
    headings: dict[str, str]
    meaning: str
    usual_action: str
    notes: str
    patterns: tuple[str, ...]
    incidents: tuple[Link, ...]
    study_rows: tuple[Link, ...]
    checks: tuple[Link, ...]
    related: tuple[Link, ...]
    sources: tuple[SourceLink, ...]


def _entries(site: Site) -> list[ErrorEntry]:
    return list(getattr(site.knowledge, "errors", []))


def build_error_catalog_page(site: Site, lang: Lang) -> ErrorCatalogPage:
    headings = _headings(lang)
    entries = tuple(
        ErrorSummary(
            entry.id,
            entry.family.value,
            entry.title.get(lang),
            entry.meaning.get(lang),
            error_url(lang, entry.id),
        )
        for entry in _entries(site)
    )
    return ErrorCatalogPage("errors", lang, headings["catalog"], headings, entries)


def build_error_page(site: Site, error_id: str, lang: Lang) -> ErrorPage | None:
    knowledge = site.knowledge
    entry = next((item for item in _entries(site) if item.id == error_id), None)
    if entry is None:
        return None
    incidents = tuple(
        Link(found.title.get(lang), urls.incident_url(lang, found.id), found.date.isoformat())
        for incident_id in entry.incidents
        if (found := knowledge.incident(incident_id)) is not None
    )
    study_rows = tuple(
        Link(
            f"{study.title.get(lang)}: {study.rows[link.row].category.get(lang)}",
            urls.study_url(lang, study.id),
        )
        for link in entry.study_rows
        if (study := knowledge.study(link.study)) is not None and link.row < len(study.rows)
    )
    checks = tuple(
        Link(check.title.get(lang), urls.check_url(lang, check.id), check.id)
        for check_id in entry.checks
        if (check := site.check(check_id)) is not None
    )
    related = tuple(
        Link(other.title.get(lang), error_url(lang, other.id))
        for other_id in entry.related
        if (other := knowledge.error(other_id)) is not None
    )
    return ErrorPage(
        kind="error-entry",
        lang=lang,
        id=entry.id,
        title=entry.title.get(lang),
        family=entry.family.value,
        code=entry.code or "",
        headings=_headings(lang),
        meaning=entry.meaning.get(lang),
        usual_action=entry.usual_action.get(lang),
        notes=entry.notes.get(lang) if entry.notes else "",
        patterns=tuple(entry.patterns),
        incidents=incidents,
        study_rows=study_rows,
        checks=checks,
        related=related,
        sources=source_links(entry.sources, lang),
    )
