"""The fleet report for people: a terminal table and Markdown for pull requests or tickets.

Both lead with the clusters (scanned or why not), then the cluster × check matrix, worst rows first.
Markdown keeps only rows with a fail or unknown somewhere (an all-pass row says nothing) and folds
each cluster's own gap list under a details element.
"""

from __future__ import annotations

import io

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kubegap.bilingual import message, render_any
from kubegap.checker.fleet.report import NOT_SCANNED, ClusterResult, FleetReport
from kubegap.checker.fleet.symptoms import cluster_symptoms, top_text
from kubegap.checker.reports import render_markdown
from kubegap.checker.reports._common import one_line, report_lang
from kubegap.redaction import redact_text
from kubegap.text import label

_CELL_STYLE = {"fail": "bold red", "unknown": "yellow", "pass": "green", "not-applicable": "dim"}
# Words of the fleet report, (Korean, English) templates filled by the shared bilingual `message`.
_WORDS = {
    "title": ("kubegap 플릿 스캔", "kubegap fleet scan"),
    "scanned_of": ("클러스터 {total}개 중 {scanned}개 스캔", "{scanned} of {total} cluster(s) scanned"),
    "requests": ("요청 {requests}회", "{requests} request(s)"),
    "clusters": ("클러스터", "Clusters"),
    "cluster": ("클러스터", "Cluster"),
    "status": ("상태", "Status"),
    "requests_column": ("요청", "Requests"),
    "seconds": ("초", "Seconds"),
    "why": ("스캔하지 못한 까닭", "Why not scanned"),
    "matrix": ("점검 × 클러스터", "Checks × clusters"),
    "check": ("점검", "Check"),
    "severity": ("심각도", "Severity"),
    "not_scanned": ("스캔 못 함:", "Not scanned:"),
    "note": ("참고:", "Note:"),
    "symptoms": ("지금 보이는 증상", "Symptoms now"),
    "symptom_state": ("증상", "Symptoms"),
    "top": ("상위 증상(노드·워크로드별 이벤트 수)", "Top groups (distinct events per place)"),
    "hidden": (
        "점검 {count}개는 스캔한 모든 클러스터에서 통과했거나 해당하지 않습니다.",
        "{count} more check(s) pass or do not apply on every scanned cluster.",
    ),
}


def _word(key: str, lang: str, **values: object) -> str:
    korean, english = _WORDS[key]
    return message(korean, english, **values).render(lang)


_CLUSTER_STATUS = {
    "scanned": ("스캔 완료", "scanned"),
    "forbidden": ("권한 거부", "forbidden"),
    "unreachable": ("연결 불가", "unreachable"),
    "error": ("설정 오류", "error"),
}


def cell_label(cell: str, lang: str) -> str:
    """A matrix cell in words: a check status, or 'not scanned' for a cluster without a report."""
    if cell == NOT_SCANNED:
        return "스캔 못 함" if lang == "ko" else "not scanned"
    return label(f"status.{cell}", lang)


def cluster_status_label(status: str, lang: str) -> str:
    korean, english = _CLUSTER_STATUS.get(status, (status, status))
    return korean if lang == "ko" else english


def _cluster_line(cluster: ClusterResult, lang: str) -> list[str]:
    if cluster.report is None:
        return [
            cluster_status_label(cluster.status, lang),
            "",
            "",
            "",
            f"{cluster.seconds:.1f}",
            render_any(cluster.error, lang),
        ]
    counts = cluster.report.counts
    return [
        cluster_status_label(cluster.status, lang),
        str(counts["fail"]),
        str(counts["unknown"]),
        str(cluster.requests),
        f"{cluster.seconds:.1f}",
        "",
    ]


def fleet_heading(fleet: FleetReport, lang: str) -> str:
    """'kubegap fleet scan · 2 of 3 cluster(s) scanned · 120 request(s) · 4.2s'."""
    return (
        f"{_word('title', lang)} · "
        f"{_word('scanned_of', lang, scanned=len(fleet.scanned()), total=len(fleet.clusters))} · "
        f"{_word('requests', lang, requests=fleet.requests)} · {fleet.wall_seconds:.1f}s"
    )


def render_fleet_table(
    fleet: FleetReport, lang: str | None = "en", *, color: bool = False, width: int = 160
) -> str:
    lang = report_lang(lang)
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        force_terminal=color,
        color_system="auto" if color else None,
        highlight=False,
    )
    title, _, rest = fleet_heading(fleet, lang).partition(" · ")
    console.print(f"[bold]{title}[/] · {rest}")
    clusters = Table(title=_word("clusters", lang), title_justify="left")
    for column in (
        _word("cluster", lang),
        _word("status", lang),
        label("status.fail", lang),
        label("status.unknown", lang),
        _word("requests_column", lang),
        _word("seconds", lang),
        _word("why", lang),
    ):
        clusters.add_column(column, overflow="fold")
    for cluster in fleet.clusters:
        style = "" if cluster.scanned else "bold red"
        cells = [escape(one_line(text, 300)) for text in _cluster_line(cluster, lang)]
        clusters.add_row(
            escape(one_line(cluster.name, 100)), *[f"[{style}]{c}[/]" if style else c for c in cells]
        )
    console.print(clusters)
    matrix = Table(title=_word("matrix", lang), title_justify="left")
    matrix.add_column(_word("check", lang), overflow="fold")
    matrix.add_column(_word("severity", lang))
    for name in fleet.names:
        matrix.add_column(escape(one_line(name, 60)), overflow="fold")
    for row in fleet.matrix():
        cells = [
            f"[{_CELL_STYLE.get(cell, 'bold red')}]{escape(cell_label(cell, lang))}[/]" for cell in row.cells
        ]
        matrix.add_row(
            escape(row.check_id), escape(label("severity." + row.meta.severity.value, lang)), *cells
        )
    console.print(matrix)
    symptoms = _symptoms_rows(fleet, lang)
    if symptoms:
        table = Table(title=_word("symptoms", lang), title_justify="left")
        for column in (_word("cluster", lang), _word("symptom_state", lang), _word("top", lang)):
            table.add_column(column, overflow="fold")
        for name, state, top in symptoms:
            table.add_row(escape(one_line(name, 100)), escape(state), escape(top))
        console.print(table)
    for cluster in fleet.not_scanned():
        console.print(
            f"[bold red]{_word('not_scanned', lang)}[/] {escape(one_line(cluster.name, 100))}: "
            f"{escape(one_line(render_any(cluster.error, lang)))}"
        )
    for note in fleet.notes:
        console.print(f"[dim]{_word('note', lang)} {escape(one_line(render_any(note, lang), 300))}[/]")
    return redact_text(buffer.getvalue(), limit=2_000_000)


def _symptoms_rows(fleet: FleetReport, lang: str) -> list[tuple[str, str, str]]:
    """(cluster, section state, top groups) for each scanned cluster whose input had cluster state."""
    rows = []
    for cluster in fleet.scanned():
        symptoms = cluster_symptoms(cluster, lang)
        if symptoms is not None:
            rows.append(
                (cluster.name, one_line(symptoms.summary, 400), one_line(top_text(symptoms, lang), 600))
            )
    return rows


def _cell(text: str, limit: int = 200) -> str:
    return one_line(text, limit).replace("|", "\\|")


def render_fleet_markdown(fleet: FleetReport, lang: str | None = "en", base_url: str | None = None) -> str:
    lang = report_lang(lang)
    lines = [
        f"## {_word('title', lang)}",
        "",
        f"{_word('scanned_of', lang, scanned=len(fleet.scanned()), total=len(fleet.clusters))} · "
        f"{_word('requests', lang, requests=fleet.requests)} · {fleet.finished_at}",
        "",
        f"| {_word('cluster', lang)} | {_word('status', lang)} | {label('status.fail', lang)} | "
        f"{label('status.unknown', lang)} | {_word('why', lang)} |",
        "| --- | --- | --- | --- | --- |",
    ]
    for cluster in fleet.clusters:
        status, fails, unknowns, _requests, _seconds, why = _cluster_line(cluster, lang)
        lines.append(
            f"| `{_cell(cluster.name, 100)}` | {status} | {fails} | {unknowns} | {_cell(why, 300)} |"
        )
    rows = [row for row in fleet.matrix() if row.worst in ("fail", "unknown", NOT_SCANNED)]
    hidden = len(fleet.matrix()) - len(rows)
    lines += ["", f"### {_word('matrix', lang)}", ""]
    if rows:
        lines.append(
            f"| {_word('check', lang)} | {_word('severity', lang)} | "
            + " | ".join(f"`{_cell(name, 60)}`" for name in fleet.names)
            + " |"
        )
        lines.append("| --- | --- | " + " | ".join("---" for _ in fleet.names) + " |")
        for row in rows:
            cells = " | ".join(cell_label(cell, lang) for cell in row.cells)
            lines.append(
                f"| `{row.check_id}` | {label('severity.' + row.meta.severity.value, lang)} | {cells} |"
            )
    if hidden:
        lines += ["", _word("hidden", lang, count=hidden)]
    symptoms = _symptoms_rows(fleet, lang)
    if symptoms:
        lines += [
            "",
            f"### {_word('symptoms', lang)}",
            "",
            f"| {_word('cluster', lang)} | {_word('symptom_state', lang)} | {_word('top', lang)} |",
            "| --- | --- | --- |",
        ]
        lines += [
            f"| `{_cell(name, 100)}` | {_cell(state, 400)} | {_cell(top, 600)} |"
            for name, state, top in symptoms
        ]
    for cluster in fleet.scanned():
        assert cluster.report is not None
        own = render_markdown(cluster.report, lang, base_url).replace("## kubegap scan", "", 1).strip()
        lines += ["", f"<details><summary>{_cell(cluster.name, 100)}</summary>", "", own, "", "</details>"]
    return redact_text("\n".join(lines) + "\n", limit=200_000)
