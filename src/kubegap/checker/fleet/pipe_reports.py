"""The fleet report for pipes: plain (one line per cluster, each cluster's symptoms, then one line per
fail) and TSV (findings only, as a single scan's TSV).

`kubegap scan --all-contexts | grep fail` finds every open fail of every cluster, each line naming
its cluster; `-f tsv` gives one row per finding with the cluster as the first column. Both are built
from the single-scan view and TSV rows, so every value has passed the same chokepoint (redaction,
control characters shown as escapes).
"""

from __future__ import annotations

from kubegap.bilingual import render_any
from kubegap.checker.fleet.report import ClusterResult, FleetReport
from kubegap.checker.fleet.symptoms import cluster_symptoms
from kubegap.checker.fleet.text_reports import cluster_status_label, fleet_heading
from kubegap.checker.reports._common import name_text, one_line, report_lang
from kubegap.checker.reports.plain import TSV_COLUMNS, render_tsv
from kubegap.checker.reports.symptoms_view import place_text
from kubegap.checker.reports.view import build_view


def render_fleet_plain(fleet: FleetReport, lang: str | None = "en", base_url: str | None = None) -> str:
    """The clusters (one line each, with why one was not scanned), each cluster's symptoms, then every
    open fail, one per line."""
    lang = report_lang(lang)
    lines = [fleet_heading(fleet, lang)]
    fails: list[str] = []
    said: list[str] = []  # each cluster's symptoms, after the cluster lines
    for cluster in fleet.clusters:
        name = name_text(cluster.name, 100)
        status = cluster_status_label(cluster.status, lang)
        if cluster.report is None:
            lines.append(f"{name}  {status}  {one_line(render_any(cluster.error, lang), 500)}")
            continue
        view = build_view(cluster.report, lang, base_url)
        lines.append(f"{name}  {status}  {view.checks_line}")
        said.extend(_symptom_lines(cluster, name, lang))
        for row in view.rows:
            parts = [row.status, row.severity, row.check_id, name, row.object, row.said]
            parts += [
                part for part in (f"({row.evidence})" if row.evidence else "", row.role, row.location) if part
            ]
            fails.append("  ".join(parts))
    lines += ["", *said] if said else []
    lines += ["", *fails] if fails else []
    lines += [one_line(render_any(note, lang), 500) for note in fleet.notes]
    return "\n".join(lines) + "\n"


def _symptom_lines(cluster: ClusterResult, name: str, lang: str) -> list[str]:
    """'prod-a  symptoms now: 4 groups (...)', then one 'symptom' line per top group."""
    symptoms = cluster_symptoms(cluster, lang)
    if symptoms is None:
        return []
    token, said = ("증상", "지금 보이는 증상") if lang == "ko" else ("symptom", "symptoms now")
    return [f"{name}  {said}: {one_line(symptoms.summary, 400)}"] + [
        f"  {token}  {name}  {group.signature}  {place_text(group.place, lang)}  ×{group.distinct}"
        for group in symptoms.top
    ]


def render_fleet_tsv(fleet: FleetReport, lang: str | None = "en", base_url: str | None = None) -> str:
    """Every finding of every scanned cluster, the cluster first; a cluster not scanned is one row."""
    lang = report_lang(lang)
    header = ["cluster", *TSV_COLUMNS]
    rows: list[str] = []
    for cluster in fleet.clusters:
        name = name_text(cluster.name, 100)
        if cluster.report is not None:
            rows += [f"{name}\t{row}" for row in render_tsv(cluster.report, lang, base_url).splitlines()[1:]]
            continue
        cells = dict.fromkeys(header, "")
        cells |= {
            "cluster": name,
            "status": "not-scanned",
            "message": one_line(render_any(cluster.error, lang), 500),
        }
        rows.append("\t".join(value.replace("\t", " ") for value in cells.values()))
    return "\n".join(["\t".join(header), *rows]) + "\n"
