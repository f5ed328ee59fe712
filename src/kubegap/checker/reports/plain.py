"""Reports for pipes: a plain layout (one record per line, nothing wrapped) and tab-separated values.

A boxed table folds long ids and links to fit the terminal, which breaks `grep` and copy-paste; when
stdout is not a terminal the scan prints this layout instead. Each finding is one line that starts
with its status, severity and check id, so `grep fail` or `cut -f` does what a reader expects.
"""

from __future__ import annotations

from collections import defaultdict

from kubegap.bilingual import render_any
from kubegap.checker.coverage_text import SECRETS_LINE, detail_text, status_label
from kubegap.checker.finding import Finding, Status
from kubegap.checker.reports._common import (
    cited_incidents,
    count_label,
    evidence_text,
    link_base,
    one_line,
    report_lang,
)
from kubegap.checker.reports.table import MAX_ROWS_PER_CHECK, finding_text, summary_line
from kubegap.checker.scan_report import ScanReport, worst_first
from kubegap.text import label, report_phrase

_TSV_COLUMNS = ("check", "status", "severity", "object", "message", "reason", "evidence", "exempted-by")


def _status(finding: Finding) -> str:
    return "exempted" if finding.exempted_by else finding.status.value


def render_plain(report: ScanReport, lang: str | None = "en", base_url: str | None = None) -> str:
    """The table report's content as lines: one check, one finding or one link per line."""
    lang = report_lang(lang)
    base = link_base(base_url)
    where = f" · {label('report.context', lang)} {report.context}" if report.context else ""
    source = one_line(render_any(report.source, lang), 300)
    lines = [f"kubegap scan · {source} ({label('mode.' + report.mode, lang)}){where}"]
    if report.namespaces:
        lines.append(report_phrase("namespaces", lang, names=", ".join(report.namespaces)))
    lines += ["", f"{label('report.checks', lang)}:"]
    for summary in worst_first(report.checks):
        counts = ", ".join(
            f"{count_label(key, lang)} {summary.counts[key]}" for key in ("fail", "unknown", "pass")
        )
        status = count_label(summary.status.value, lang)
        severity = label("severity." + summary.meta.severity.value, lang)
        title = one_line(summary.meta.title.get(lang), 300)
        lines.append(f"{status}  {severity}  {summary.meta.id}  {title}  ({counts})")
    by_check: dict[str, list[Finding]] = defaultdict(list)
    for finding in report.findings:
        if finding.status in (Status.failed, Status.unknown):
            by_check[finding.check_id].append(finding)
    for summary in worst_first(report.checks):
        findings = by_check.get(summary.check_id)
        if not findings:
            continue
        meta = summary.meta
        lines += ["", f"{meta.id}: {one_line(meta.title.get(lang), 300)}"]
        for finding in findings[:MAX_ROWS_PER_CHECK]:
            evidence = evidence_text(finding, 300)
            lines.append(
                f"  {count_label(_status(finding), lang)}  {finding.object.display()}  "
                f"{one_line(finding_text(finding, lang), 500)}" + (f"  ({evidence})" if evidence else "")
            )
        if len(findings) > MAX_ROWS_PER_CHECK:
            lines.append("  " + report_phrase("more-rows", lang, count=len(findings) - MAX_ROWS_PER_CHECK))
        if summary.status is Status.failed:
            lines.append(f"  {label('report.fix', lang)}: {one_line(meta.remediation.get(lang), 1500)}")
        for cited in cited_incidents(meta, lang, base):
            lines.append(f"  {label('report.incident', lang)}: {one_line(cited.title, 300)} {cited.url}")
    unread = [row for row in report.coverage if row.status != "read"]
    read = [row for row in report.coverage if row.status == "read"]
    phrase = report_phrase(
        "coverage", lang, read=len(read), objects=sum(row.objects for row in read), unread=len(unread)
    )
    lines += ["", f"{label('report.coverage', lang)}: {phrase}"]
    # as the table: kinds a check needed (or that failed) one per line, absent optional kinds on one line
    listed = [row for row in unread if row.needed_by or row.status in ("forbidden", "failed")]
    quiet = [row.kind for row in unread if row not in listed and row.kind != "Secret"]
    for row in listed:
        detail = detail_text(row.detail, lang)
        needed = f"  ({label('report.needed-by', lang)}: {', '.join(row.needed_by)})" if row.needed_by else ""
        shown = f"  {one_line(detail, 300)}" if detail else ""
        lines.append(f"  {row.kind}  {status_label(row.status, lang)}{shown}{needed}")
    if quiet:
        lines.append(report_phrase("optional-unread", lang, kinds=", ".join(quiet)))
    lines.append(SECRETS_LINE.render(lang))
    lines += [
        f"{label('report.note', lang)}: {one_line(render_any(note, lang), 500)}" for note in report.notes
    ]
    lines += ["", f"{label('report.summary', lang)}: {summary_line(report, lang)}"]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return one_line(text, 2000).replace("\t", " ")


def render_tsv(report: ScanReport, lang: str | None = "en", base_url: str | None = None) -> str:
    """Every finding shown (passes too) as one tab-separated row under a header row of column names."""
    lang = report_lang(lang)
    rows = ["\t".join(_TSV_COLUMNS)]
    for finding in report.findings:
        rows.append(
            "\t".join(
                _cell(value)
                for value in (
                    finding.check_id,
                    _status(finding),
                    finding.severity.value,
                    finding.object.display(),
                    finding.message_in(lang),
                    finding.reason,
                    evidence_text(finding, 1000),
                    finding.exempted_by,
                )
            )
        )
    return "\n".join(rows) + "\n"
