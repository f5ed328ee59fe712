"""The check catalogue as MCP tool results and Markdown: list, explain, and a check's resource text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubegap.agents.mcp_language import server_lang
from kubegap.agents.mcp_models import CheckBrief, CheckExplanation, CheckList, IncidentLink
from kubegap.errors import UsageError
from kubegap.text import normalize_lang

if TYPE_CHECKING:
    from kubegap.checker.check import CheckMeta


def check_brief(meta: CheckMeta, lang: str) -> CheckBrief:
    return CheckBrief(
        id=meta.id,
        title=meta.title.get(lang),
        severity=meta.severity.value,
        area=meta.area,
        works_on_manifests=meta.manifests,
        incidents_cited=len(meta.incidents),
    )


def list_checks(area: str | None, lang: str | None) -> CheckList:
    from kubegap.checker.registry import all_checks

    chosen = normalize_lang(server_lang(lang))
    metas = [check.meta for check in all_checks()]
    areas = sorted({meta.area for meta in metas})
    wanted = (area or "").strip().lower()
    if wanted and wanted not in areas:
        raise UsageError(f"unknown area {wanted[:40]!r}; use one of {', '.join(areas)}")
    shown = [check_brief(meta, chosen) for meta in metas if not wanted or meta.area == wanted]
    return CheckList(total=len(shown), areas=areas, checks=shown)


def explain_check(check_id: str, lang: str | None) -> CheckExplanation:
    from kubegap.checker.registry import get_check
    from kubegap.checker.reports._common import cited_incidents, library_url

    chosen = normalize_lang(server_lang(lang))
    meta = get_check(check_id.strip()).meta
    return CheckExplanation(
        id=meta.id,
        title=meta.title.get(chosen),
        severity=meta.severity.value,
        area=meta.area,
        why=meta.why.get(chosen),
        decides=meta.decides.get(chosen),
        remediation=meta.remediation.get(chosen),
        reads=list(meta.needs),
        reads_when_present=list(meta.optional),
        works_on_manifests=meta.manifests,
        incidents=[
            IncidentLink(id=cited.id, title=cited.title, url=cited.url)
            for cited in cited_incidents(meta, chosen, library_url())
        ],
        references=list(meta.references),
        resource_uri=f"kubegap://checks/{meta.id}",
    )


_MARKDOWN_WORDS = {
    "severity": ("심각도", "severity"),
    "area": ("영역", "area"),
    "why": ("왜 중요한가.", "Why it matters."),
    "decides": ("판정 방법.", "How it decides."),
    "fix": ("고치는 법.", "Fix."),
    "reads": ("읽는 리소스(GET/LIST만):", "Reads (GET/LIST only):"),
    "incidents": ("사례", "Incidents"),
    "references": ("참고 자료", "References"),
}


def check_markdown(check_id: str, lang: str | None = None) -> str:
    """The check resource, in the server's language."""
    chosen = normalize_lang(server_lang(lang))
    word = {key: pair[0 if chosen == "ko" else 1] for key, pair in _MARKDOWN_WORDS.items()}
    explained = explain_check(check_id, chosen)
    lines = [
        f"# {explained.title}",
        "",
        f"`{explained.id}` · {word['severity']} {explained.severity} · {word['area']} {explained.area}",
        "",
        f"**{word['why']}** {explained.why}",
        "",
        f"**{word['decides']}** {explained.decides}",
        "",
        f"**{word['fix']}** {explained.remediation}",
        "",
        f"**{word['reads']}** {', '.join(explained.reads) or '-'}",
        "",
        f"## {word['incidents']}",
        *(f"- [{item.title}]({item.url}) (`kubegap://incidents/{item.id}`)" for item in explained.incidents),
    ]
    if explained.references:
        lines += ["", f"## {word['references']}", *(f"- {reference}" for reference in explained.references)]
    return "\n".join(lines) + "\n"
