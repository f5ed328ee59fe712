"""Each cluster's symptoms in the fleet report: how many groups, and the top few.

A fleet reader wants to see which cluster is already in trouble before reading any one report, so
every format but TSV (which lists findings, as a single scan's TSV does) shows per cluster the
section's state (`unknown` with its reason is never shown as none), the number of groups and
symptom events, and the TOP_GROUPS groups ranked first (catalog matches, hardware first). Every value
comes from the cluster's own `SymptomReport` through the same view as a single scan, so it has
passed the same chokepoint; the full list stays in each cluster's own report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kubegap.bilingual import message, render_any
from kubegap.checker.fleet.report import ClusterResult
from kubegap.checker.reports._common import name_text, one_line
from kubegap.checker.reports.symptoms_view import place_text
from kubegap.checker.reports.view import failed_checks

TOP_GROUPS = 3


@dataclass(frozen=True)
class TopGroup:
    signature: str
    place: str
    distinct: int
    open_gaps: tuple[str, ...]


@dataclass(frozen=True)
class ClusterSymptoms:
    status: str  # read | unknown
    summary: str  # 'none', '4 groups (from 9 symptom events)', 'unknown: events not readable (403)'
    groups: int
    events: int
    top: tuple[TopGroup, ...]


def cluster_symptoms(cluster: ClusterResult, lang: str) -> ClusterSymptoms | None:
    """The cluster's symptoms in brief; None when it was not scanned or the input held no cluster state."""
    report = cluster.report.symptoms if cluster.report else None
    if cluster.report is None or report is None:
        return None
    failed = failed_checks(cluster.report)
    groups = len(report.groups) + report.more_groups
    if report.status != "read":
        summary = message("알 수 없음: ", "unknown: ").render(lang) + one_line(
            render_any(report.reason, lang), 300
        )
    elif not groups:
        summary = message("없음", "none").render(lang)
    else:
        summary = message(
            "{groups}가지(증상 이벤트 {events}건)",
            "{groups} groups (from {events} symptom events)",
            groups=groups,
            events=report.events,
        ).render(lang)
    top = tuple(
        TopGroup(
            name_text(group.signature.id, 120),
            name_text(group.place, 300),
            group.distinct,
            tuple(check for check in group.checks if check in failed),
        )
        for group in report.groups[:TOP_GROUPS]
    )
    return ClusterSymptoms(report.status, summary, groups, report.events, top)


def top_text(symptoms: ClusterSymptoms, lang: str) -> str:
    """'xid-79 node gpu-b ×3; nccl-watchdog-timeout Job team-a/pretrain ×1' (one line)."""
    return "; ".join(
        f"{group.signature} {place_text(group.place, lang)} ×{group.distinct}" for group in symptoms.top
    )


def symptoms_summary_data(cluster: ClusterResult, lang: str) -> dict[str, Any] | None:
    """The brief as JSON for the fleet document (the cluster's own report keeps the whole section)."""
    symptoms = cluster_symptoms(cluster, lang)
    if symptoms is None:
        return None
    return {
        "status": symptoms.status,
        "summary": symptoms.summary,
        "groups": symptoms.groups,
        "symptomEvents": symptoms.events,
        "top": [
            {
                "symptom": group.signature,
                "place": group.place,
                "distinct": group.distinct,
                "openGaps": list(group.open_gaps),
            }
            for group in symptoms.top
        ],
    }
