"""A check's metadata as plain data and text, for `kubegap checks list|show` and other readers."""

from __future__ import annotations

from typing import Any

from kubegap.checker.check import CheckMeta
from kubegap.checker.reports._common import cited_incidents, library_url


def check_summary(meta: CheckMeta, lang: str) -> dict[str, Any]:
    return {"id": meta.id, "severity": meta.severity.value, "area": meta.area, "title": meta.title.get(lang)}


def check_detail(meta: CheckMeta, lang: str, base_url: str | None = None) -> dict[str, Any]:
    base = library_url(base_url)
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


def render_check_detail(detail: dict[str, Any]) -> str:
    lines = [
        f"{detail['id']} ({detail['severity']}, {detail['area']})",
        f"  {detail['title']}",
        "",
        f"Why: {detail['why']}",
        f"Decides: {detail['decides']}",
        f"Fix: {detail['remediation']}",
        f"Reads: {', '.join(detail['needs']) or '-'}"
        + (f"; when present: {', '.join(detail['optional'])}" if detail["optional"] else ""),
        f"Works on manifests: {'yes' if detail['manifests'] else 'no (needs live state)'}",
    ]
    if detail["incidents"]:
        lines.append("Incidents:")
        lines += [f"  - {item['title']} {item['url']}" for item in detail["incidents"]]
    missing = set(detail["incident_ids"]) - {item["id"] for item in detail["incidents"]}
    if missing:
        lines.append(f"Incidents not in this knowledge base: {', '.join(sorted(missing))}")
    if detail["references"]:
        lines.append("References:")
        lines += [f"  - {reference}" for reference in detail["references"]]
    return "\n".join(lines)
