"""A check's metadata as plain data and text, for `kubegap checks list|show` and other readers."""

from __future__ import annotations

from typing import Any

from kubegap.checker.check import CheckMeta
from kubegap.checker.reports._common import cited_incidents, link_base
from kubegap.text import label


def check_summary(meta: CheckMeta, lang: str) -> dict[str, Any]:
    return {"id": meta.id, "severity": meta.severity.value, "area": meta.area, "title": meta.title.get(lang)}


def check_detail(meta: CheckMeta, lang: str, base_url: str | None = None) -> dict[str, Any]:
    base = link_base(base_url)
    return {
        **check_summary(meta, lang),
        "why": meta.why.get(lang),
        "decides": meta.decides.get(lang),
        "remediation": meta.remediation.get(lang),
        "needs": list(meta.needs),
        "optional": list(meta.optional),
        "manifests": meta.manifests,
        "components": list(meta.components),
        "incidents": [
            {"id": cited.id, "title": cited.title, "url": cited.url}
            for cited in cited_incidents(meta, lang, base)
        ],
        "incident_ids": list(meta.incidents),
        "references": list(meta.references),
    }


def render_check_detail(detail: dict[str, Any], lang: str = "en") -> str:
    """`kubegap checks show` as text, every label in the reader's language."""
    ko = lang == "ko"

    def name(korean: str, english: str) -> str:
        return korean if ko else english

    optional = ", ".join(detail["optional"])
    manifests = (
        name("예", "yes")
        if detail["manifests"]
        else name("아니요(실제 클러스터 상태가 필요)", "no (needs live state)")
    )
    lines = [
        f"{detail['id']} ({label('severity.' + detail['severity'], lang)}, {detail['area']})",
        f"  {detail['title']}",
        "",
        f"{name('왜', 'Why')}: {detail['why']}",
        f"{name('판단 방법', 'Decides')}: {detail['decides']}",
        f"{name('고치는 법', 'Fix')}: {detail['remediation']}",
        f"{name('읽는 종류', 'Reads')}: {', '.join(detail['needs']) or '-'}"
        + (f"; {name('있으면 읽음', 'when present')}: {optional}" if optional else ""),
        f"{name('매니페스트로 판단', 'Works on manifests')}: {manifests}",
    ]
    if detail["incidents"]:
        lines.append(f"{name('사례', 'Incidents')}:")
        lines += [f"  - {item['title']} {item['url']}" for item in detail["incidents"]]
    missing = set(detail["incident_ids"]) - {item["id"] for item in detail["incidents"]}
    if missing:
        heading = name("지식 베이스에 없는 사례", "Incidents not in this knowledge base")
        lines.append(f"{heading}: {', '.join(sorted(missing))}")
    if detail["references"]:
        lines.append(f"{name('참고 자료', 'References')}:")
        lines += [f"  - {reference}" for reference in detail["references"]]
    return "\n".join(lines)
