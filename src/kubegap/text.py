"""Bilingual text shared by every face: languages, result ranges and common labels.

Korean and English are both first-class. Anything shown to a person goes through `label()` or a
`Bilingual` value from the knowledge base, never a bare English string.
"""

from __future__ import annotations

from typing import Literal

Lang = Literal["ko", "en"]
LANGS: tuple[Lang, ...] = ("ko", "en")
DEFAULT_LANG: Lang = "ko"

_LABELS: dict[str, tuple[str, str]] = {
    "incidents": ("사례", "Incidents"),
    "studies": ("플릿 연구", "Fleet studies"),
    "checks": ("점검 항목", "Checks"),
    "search": ("검색", "Search"),
    "no-results": ("조건에 맞는 사례가 없습니다.", "No incidents match."),
    "recurring-components": ("가장 많이 나오는 구성 요소", "Most recurring components"),
    "relaxed-search": (
        "모든 단어가 들어간 사례는 없어, 단어가 많이 겹치는 사례부터 보여 줍니다.",
        "No incident contains every word; showing those that share the most, best first.",
    ),
    "facet.cause": ("원인", "Cause"),
    "facet.component": ("구성 요소", "Component"),
    "facet.symptom": ("증상", "Symptom"),
    "facet.contributing-factor": ("기여 요인", "Contributing factor"),
    "facet.organization": ("조직", "Organization"),
    "section.symptom": ("증상", "Symptom"),
    "section.trigger": ("촉발", "Trigger"),
    "section.cause": ("원인", "Cause"),
    "section.components": ("구성 요소", "Components"),
    "section.contributing_factors": ("기여 요인", "Contributing factors"),
    "section.detection": ("감지", "Detection"),
    "section.actions": ("조치", "Actions"),
    "section.follow_ups": ("후속 조치", "Follow-ups"),
    "section.lessons": ("교훈", "Lessons"),
    "basis.stated": ("출처에 명시", "stated by the source"),
    "basis.inferred": ("출처에서 추론", "inferred from the source"),
    "sort.newest": ("최신순", "Newest"),
    "sort.oldest": ("오래된 순", "Oldest"),
    "sort.relevance": ("관련도순", "Relevance"),
    "status.pass": ("통과", "pass"),
    "status.fail": ("틈 발견", "fail"),
    "status.unknown": ("판단 불가", "unknown"),
    "status.not-applicable": ("해당 없음", "not applicable"),
    "severity.critical": ("치명", "critical"),
    "severity.high": ("높음", "high"),
    "severity.medium": ("보통", "medium"),
    "severity.low": ("낮음", "low"),
    "severity.info": ("정보", "info"),
}


def normalize_lang(value: str | None) -> Lang:
    """Any input (None, 'EN', 'ko-KR', garbage) becomes a supported language."""
    if value:
        head = value.strip().lower()[:2]
        if head == "en":
            return "en"
        if head == "ko":
            return "ko"
    return DEFAULT_LANG


def label(key: str, lang: str) -> str:
    """A UI label in the given language; an unknown key is returned as is so nothing ever breaks."""
    pair = _LABELS.get(key)
    if pair is None:
        return key
    return pair[0] if normalize_lang(lang) == "ko" else pair[1]


def has_label(key: str) -> bool:
    return key in _LABELS


def result_range(total: int, start: int, end: int, lang: str) -> str:
    """'3건 중 1~3번째' / '1-3 of 3'; start and end are 1-based and inclusive. Empty results say 0."""
    if total <= 0 or end < start:
        return "0건" if normalize_lang(lang) == "ko" else "0 of 0"
    if normalize_lang(lang) == "ko":
        return f"{total:,}건 중 {start:,}~{end:,}번째"
    return f"{start:,}-{end:,} of {total:,}"


def count_label(count: int, lang: str) -> str:
    """'3건' / '3 incidents' style count, used under facet values and headings."""
    if normalize_lang(lang) == "ko":
        return f"{count:,}건"
    return f"{count:,} incident" + ("" if count == 1 else "s")
