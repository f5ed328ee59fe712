"""Bilingual text shared by every face: languages, result ranges and common labels.

Korean and English are both first-class. Anything shown to a person goes through `label()` or a
`Bilingual` value from the knowledge base, never a bare English string.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Literal

Lang = Literal["ko", "en"]
LANGS: tuple[Lang, ...] = ("ko", "en")
DEFAULT_LANG: Lang = "ko"

_LABELS: dict[str, tuple[str, str]] = {
    # Kinds of record metadata, shown by the web pages and the CLI alike.
    "orchestrator.kubernetes": ("쿠버네티스", "Kubernetes"),
    "orchestrator.slurm": ("SLURM", "SLURM"),
    "orchestrator.other": ("기타", "other"),
    "orchestrator.none": ("없음", "none"),
    "source.postmortem": ("사후 분석", "postmortem"),
    "source.status-page": ("상태 페이지", "status page"),
    "source.paper": ("논문", "paper"),
    "source.logbook": ("작업 일지", "logbook"),
    "source.blog": ("블로그", "blog"),
    "source.talk": ("발표", "talk"),
    "source.issue": ("이슈", "issue"),
    "source.documentation": ("문서", "documentation"),
    "source.news": ("뉴스", "news"),
    "source.forum": ("포럼", "forum"),
    "source.mirror": ("사본", "mirror"),
    "source.aggregator": ("모음 사이트", "aggregator"),
    "source.commentary": ("제3자 해설", "commentary"),
    "orchestrator.unknown": ("알 수 없음", "unknown"),
    "source.published": ("발행 {date}", "published {date}"),
    "source.accessed": ("열람 {date}", "accessed {date}"),
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
    "facet.scope": ("범위", "Scope"),
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
    "status.exempted": ("예외 처리", "exempted"),
    "report.checks": ("점검 결과", "Checks"),
    "report.status": ("상태", "Status"),
    "report.severity": ("심각도", "Severity"),
    "report.check": ("점검", "Check"),
    "report.title": ("제목", "Title"),
    "report.object": ("대상", "Object"),
    "report.message": ("내용", "Message"),
    "report.evidence": ("근거", "Evidence"),
    "report.reason": ("이유", "Reason"),
    "report.kind": ("종류", "Kind"),
    "report.detail": ("상세", "Detail"),
    "report.needed-by": ("필요로 하는 점검", "Needed by"),
    "report.fix": ("고치는 법", "Fix"),
    "report.incident": ("사례", "Incident"),
    "report.coverage": ("읽은 범위", "Coverage"),
    "report.summary": ("요약", "Summary"),
    "report.note": ("참고", "Note"),
    "report.optional": ("선택", "optional"),
    "report.namespaces": ("네임스페이스", "Namespaces"),
    "report.context": ("컨텍스트", "context"),
    "report.gaps": ("발견한 틈", "Gaps found"),
    "report.how-to-fix": ("고치는 법", "How to fix"),
    "report.undecided": ("판단하지 못한 점검", "Could not decide"),
    "report.exempted-fails": ("예외 처리한 실패", "Exempted fails"),
    "report.unread": ("읽은 범위: 읽지 못한 것", "Coverage: what could not be read"),
    "report.source": ("입력", "Source"),
    "mode.live": ("실제 클러스터", "live"),
    "mode.demo": ("데모", "demo"),
    "mode.snapshot": ("스냅숏", "snapshot"),
    "mode.manifests": ("매니페스트", "manifests"),
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


def report_phrase(key: str, lang: str, **values: object) -> str:
    """Sentences of the reports that carry numbers, with the Korean word order."""
    ko = normalize_lang(lang) == "ko"
    phrases = {
        "more-rows": ("…외 {count}건 더", "…and {count} more"),
        "more-rows-files": (
            "…외 {count}건 더(JSON이나 SARIF 보고서를 보세요).",
            "…and {count} more (see the JSON or SARIF report).",
        ),
        "exempted-by": ("({by} 예외 처리)", "(exempted by {by})"),
        "plus-exempted": (" (+예외 처리 {count})", " (+{count} exempted)"),
        "coverage": (
            "종류 {read}개(오브젝트 {objects}개)를 읽었고, 읽지 않은 종류는 {unread}개입니다",
            "{read} kind(s) read, {objects} object(s); {unread} not read",
        ),
        "optional-unread": ("함께 읽는 종류 중 읽지 않은 것: {kinds}", "Optional kinds not read: {kinds}"),
        "namespaces": (
            "네임스페이스: {names} (클러스터 범위 결과는 늘 보여 줍니다)",
            "Namespaces: {names} (cluster-scoped findings always shown)",
        ),
    }
    template = phrases[key][0 if ko else 1]
    shown = {name: f"{value:,}" if isinstance(value, int) else value for name, value in values.items()}
    return template.format(**shown)


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


SUGGESTIONS = 3


def suggest(wanted: str, known: Iterable[str], limit: int = SUGGESTIONS) -> list[str]:
    """The few known names closest to what was typed, for 'did you mean' (never the whole list)."""
    names = list(known)
    close = difflib.get_close_matches(wanted, names, n=limit, cutoff=0.5)
    if len(close) < limit:
        lowered = wanted.lower()
        close += [name for name in names if lowered and lowered in name.lower() and name not in close]
    return close[:limit]


def did_you_mean(wanted: str, known: Iterable[str], lang: str = "en") -> str:
    """' (did you mean a, b?)' / ' (혹시 a, b 중 하나인가요?)', or '' when nothing is close."""
    close = suggest(wanted, known)
    if not close:
        return ""
    shown = ", ".join(close)
    if lang == "ko":  # no particle after a name whose reading cannot be known: "--format인가요?"
        return f" (혹시 {shown}인가요?)" if len(close) == 1 else f" (혹시 {shown} 중 하나인가요?)"
    return f" (did you mean {shown}?)"
