"""The error catalog in the web library: `/{lang}/errors` and one page per entry, `/{lang}/errors/<id>`.

The catalog page looks like the incident list: a search box (a pasted code or log line finds its
entries through the same matcher as every other face), one tab per family with its count, and the
entries as cards, Xid codes in numeric order. An entry page says what the error means and the usual
action, lists the patterns a reader may paste, and links the incidents and fleet-study rows that
involve it, the checks that guard against it, related entries and a library search for it. Headings
live here (both languages) rather than in labels.py, so the catalog pages can change without touching
the labels the other pages share.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from kubegap.knowledge.error_model import ErrorEntry, ErrorFamily, catalog_order
from kubegap.knowledge.error_text import match_errors
from kubegap.library.analysis import clean_text
from kubegap.text import Lang, result_range
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
    "search": ("오류 코드나 로그 한 줄 붙여 넣기", "Paste an error code or a log line"),
    "placeholder": (
        "XID79, NCCL WARN NET/IB ..., etcdserver: request timed out",
        "XID79, NCCL WARN NET/IB ...",
    ),
    "button": ("찾기", "Find"),
    "families": ("계열", "Family"),
    "all": ("전체", "All"),
    "matched": ("붙여 넣은 문구에 맞는 항목", "Entries the pasted text matches"),
    "no_match": (
        "카탈로그에 맞는 항목이 없습니다. 라이브러리에서 이 문구로 사례를 찾아 보세요.",
        "No catalog entry matches. Search the library's incidents for this text instead.",
    ),
    "search_library": ("라이브러리에서 이 문구로 사례 찾기", "Search the library's incidents for it"),
    "find_incidents": (
        "이 오류가 나오는 사례를 라이브러리에서 찾기",
        "Find incidents with this error in the library",
    ),
    "incident_count": ("관련 사례 {count}건", "{count} incidents"),
    "incident_one": ("관련 사례 1건", "1 incident"),
}

FAMILY_LABELS = {
    "xid": ("Xid(GPU 드라이버)", "Xid (GPU driver)"),
    "nccl": ("NCCL", "NCCL"),
    "cuda": ("CUDA", "CUDA"),
    "nvml": ("NVML·Fabric Manager", "NVML and Fabric Manager"),
    "infiniband": ("InfiniBand", "InfiniBand"),
    "kubernetes": ("쿠버네티스", "Kubernetes"),
    "etcd": ("etcd", "etcd"),
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
    family_label: str
    code: str
    title: str
    meaning: str
    url: str
    incident_count: int
    incident_label: str


@dataclass(frozen=True, slots=True)
class FamilyTab:
    key: str
    label: str
    count: int
    url: str
    current: bool


@dataclass(frozen=True, slots=True)
class ErrorCatalogPage:
    kind: str
    lang: str
    title: str
    headings: dict[str, str]
    text: str
    family: str
    families: tuple[FamilyTab, ...]
    total: int
    range_text: str
    entries: tuple[ErrorSummary, ...]
    library_search_url: str  # the incident list searched for the pasted text ("" without text)


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
    find_incidents_url: str  # the library searched for the entry's first pattern


def _entries(site: Site) -> list[ErrorEntry]:
    return sorted(getattr(site.knowledge, "errors", []), key=catalog_order)


def family_label(family: str, lang: Lang) -> str:
    pair = FAMILY_LABELS.get(family, (family, family))
    return pair[0 if lang == "ko" else 1]


def catalog_url(lang: str, family: str = "", text: str = "") -> str:
    pairs = [(key, value) for key, value in (("q", text), ("family", family)) if value]
    return urls.path(lang, "errors") + ("?" + urlencode(pairs, quote_via=quote) if pairs else "")


def search_library_url(lang: str, text: str) -> str:
    return urls.incidents_url(lang) + "?" + urlencode([("q", text)], quote_via=quote)


def error_summary(entry: ErrorEntry, lang: Lang) -> ErrorSummary:
    """An entry as a card or a link: title, family, meaning, how many incidents it links."""
    count = len(entry.incidents)
    return ErrorSummary(
        entry.id,
        entry.family.value,
        family_label(entry.family.value, lang),
        entry.code or "",
        entry.title.get(lang),
        entry.meaning.get(lang),
        error_url(lang, entry.id),
        count,
        _incident_label(count, lang),
    )


def _incident_label(count: int, lang: Lang) -> str:
    if not count:
        return ""
    headings = _headings(lang)
    return headings["incident_one"] if count == 1 else headings["incident_count"].format(count=count)


def matching_entries(entries: list[ErrorEntry], text: str) -> list[ErrorEntry]:
    """The entries a pasted text names: its id, a pattern it contains, or words of a title or term."""
    wanted = text.strip().lower()
    by_id = [entry for entry in entries if entry.id == wanted]
    if by_id:
        return by_id
    found = [match.entry for match in match_errors(text, entries)]
    if found:
        return found
    folded = " ".join(wanted.split())
    return [
        entry
        for entry in entries
        if any(
            folded in " ".join(written.casefold().split())
            for written in (
                entry.title.ko,
                entry.title.en,
                *(entry.terms.ko if entry.terms else ()),
                *(entry.terms.en if entry.terms else ()),
            )
        )
    ]


def build_error_catalog_page(
    site: Site, lang: Lang, params: Mapping[str, str] | None = None
) -> ErrorCatalogPage:
    headings = _headings(lang)
    given = params or {}
    text = clean_text(str(given.get("q", "")))[:2000].strip()
    family = str(given.get("family", "")).strip().lower()
    if family not in {member.value for member in ErrorFamily}:
        family = ""
    everything = _entries(site)
    found = matching_entries(everything, text) if text else everything
    counts = {member.value: sum(entry.family == member for entry in found) for member in ErrorFamily}
    tabs = [FamilyTab("", headings["all"], len(found), catalog_url(lang, "", text), family == "")]
    tabs += [
        FamilyTab(key, family_label(key, lang), count, catalog_url(lang, key, text), key == family)
        for key, count in counts.items()
        if count or key == family
    ]
    shown = tuple(error_summary(entry, lang) for entry in found if not family or entry.family.value == family)
    return ErrorCatalogPage(
        kind="errors",
        lang=lang,
        title=headings["catalog"],
        headings=headings,
        text=text,
        family=family,
        families=tuple(tabs),
        total=len(shown),
        range_text=result_range(len(shown), 1, len(shown), lang),
        entries=shown,
        library_search_url=search_library_url(lang, text) if text else "",
    )


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
        find_incidents_url=search_library_url(lang, entry.patterns[0]),
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
