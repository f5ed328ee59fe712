"""The one rendering path of the text formats: a ScanReport as safe, bilingual strings, built once.

Table, plain, TSV and Markdown print only what this view holds, and every string in it has passed
the output chokepoint on the way in (`_common`): redacted, then every control character, zero-width
character and bidi override made visible (`\\x1b`, `\\u202e`), and names (objects, namespaces,
contexts, kinds, files) with their newlines and tabs shown as `\\n`, `\\t`. So a name can neither
carry a credential out nor forge a line of output, in any format, and a new format cannot forget to
redact: it has nothing raw to print. (JSON and SARIF serialize their own documents through
`redact_value` and `json_text`.)

What is shown follows the signal-first layout: by default the open fails, grouped by check, then the
summary in checks and in findings, then one line per group of unknowns. `full` (`--all`) shows every
check with every finding, its fix and incidents, and the coverage.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import PurePath

from kubegap.bilingual import render_any
from kubegap.checker.coverage_text import SECRETS_LINE, detail_text, status_label
from kubegap.checker.finding import Finding, Status
from kubegap.checker.report_summary import (
    OUT_OF_REACH,
    finding_counts,
    read_not_checked,
    tally,
    unknown_groups,
)
from kubegap.checker.reports import words
from kubegap.checker.reports._common import (
    cited_incidents,
    count_label,
    evidence_text,
    link_base,
    location_text,
    name_text,
    object_text,
    one_line,
    report_lang,
    role_text,
)
from kubegap.checker.reports.escaping import visible
from kubegap.checker.reports.symptoms_view import SymptomsView, symptoms_view
from kubegap.checker.scan_report import CheckSummary, ScanReport, count_key, is_open_fail, worst_first
from kubegap.text import label, report_phrase

MAX_ROWS_PER_CHECK = 50
# Unread kinds listed one per line in the coverage even when only optional: each keeps checks from passing.
_LISTED_STATUSES = ("forbidden", "failed", "malformed", "partial")


@dataclass(frozen=True)
class Row:
    """One finding, every field safe to print."""

    status: str  # the verdict token: fail | exempted | unknown | pass | not-applicable
    status_label: str  # the same in the reader's language
    severity: str
    severity_label: str
    check_id: str
    object: str
    location: str  # `file:line` for a manifest object, else ''
    place: str  # the same, shortened to `name.yaml:line` when every finding is in one file (the table)
    message: str  # in the reader's language, with who exempted a fail
    reason: str  # why an unknown is unknown (forbidden, not-decidable, ...), else ''
    evidence: str
    role: str  # '[role: serving]' when the check said which workload role it assumed, else ''

    @property
    def said(self) -> str:
        """The message with its reason: what a line or a cell shows."""
        return f"{self.message} [{self.reason}]" if self.reason else self.message


@dataclass(frozen=True)
class Cited:
    title: str
    url: str


@dataclass(frozen=True)
class CheckBlock:
    check_id: str
    status: str
    status_label: str
    severity: str
    severity_label: str
    title: str
    remediation: str  # shown under a failing check
    incidents: tuple[Cited, ...]
    rows: tuple[Row, ...]
    more: str  # '…and 12 more' when rows were cut, else ''


@dataclass(frozen=True)
class CoverageLine:
    kind: str
    status: str
    status_label: str
    detail: str
    users: str  # the checks that need it, or '(optional) ...'


@dataclass(frozen=True)
class ReportView:
    lang: str
    full: bool
    heading: str
    namespaces: str
    blocks: tuple[CheckBlock, ...]
    checks_line: str
    findings_line: str
    groups: tuple[str, ...]
    read_not_checked: str
    notes_line: str  # the other notes in one line (default layout)
    notes: tuple[str, ...]  # every note (full layout)
    skipped: tuple[str, ...]  # the notes naming input files that could not be read: always shown whole
    out_of_reach: frozenset[str]  # checks the input cannot show: said in one group line, not one by one
    coverage_phrase: str
    coverage: tuple[CoverageLine, ...]
    optional_unread: str
    secrets_line: str
    hint: str
    symptoms: SymptomsView | None = None  # what the cluster already shows (symptoms_view.py)

    @property
    def rows(self) -> tuple[Row, ...]:
        return tuple(row for block in self.blocks for row in block.rows)


def finding_message(finding: Finding, lang: str) -> str:
    """The message in the reader's language, with who exempted a fail."""
    text = finding.message_in(lang)
    if finding.exempted_by:
        text += " " + report_phrase("exempted-by", lang, by=finding.exempted_by)
    return text


def row_of(finding: Finding, lang: str, evidence_limit: int = 300, *, one_file: bool = False) -> Row:
    """A finding as a row; `one_file` when all findings share one file, which the table then names short."""
    status = count_key(finding)
    role = role_text(finding)
    location = location_text(finding)
    short = PurePath(finding.object.source_file).name if one_file and location else ""
    return Row(
        status=status,
        status_label=count_label(status, lang),
        severity=finding.severity.value,
        severity_label=label("severity." + finding.severity.value, lang),
        check_id=name_text(finding.check_id, 120),
        object=object_text(finding.object, 300),
        location=location,
        place=name_text(short + location[len(finding.object.source_file) :], 300) if short else location,
        message=one_line(finding_message(finding, lang), 500),
        reason=one_line(finding.reason, 100),
        evidence=evidence_text(finding, evidence_limit, role_apart=True),
        role=words.role_label(role, lang) if role else "",
    )


def _block(
    summary: CheckSummary, findings: list[Finding], lang: str, base: str, full: bool, one_file: bool
) -> CheckBlock:
    meta = summary.meta
    shown = findings[:MAX_ROWS_PER_CHECK]
    more = len(findings) - len(shown)
    return CheckBlock(
        check_id=name_text(meta.id, 120),
        status=summary.status.value,
        status_label=count_label(summary.status.value, lang),
        severity=meta.severity.value,
        severity_label=label("severity." + meta.severity.value, lang),
        title=one_line(meta.title.get(lang), 300),
        remediation=one_line(meta.remediation.get(lang), 1500) if summary.status is Status.failed else "",
        incidents=tuple(
            Cited(one_line(cited.title, 300), name_text(cited.url, 500))
            for cited in (cited_incidents(meta, lang, base) if full else ())
        ),
        rows=tuple(row_of(finding, lang, one_file=one_file) for finding in shown),
        more=report_phrase("more-rows", lang, count=more) if more else "",
    )


def _coverage(report: ScanReport, lang: str) -> tuple[tuple[CoverageLine, ...], str]:
    """Kinds a check needed but could not read, one per line; unread optional kinds on one line."""
    unread = [row for row in report.coverage if row.status != "read" and row.kind != "Secret"]
    listed = [row for row in unread if row.needed_by or row.status in _LISTED_STATUSES]
    quiet = [row for row in unread if row not in listed]
    lines = []
    for row in listed:
        optional = label("report.optional", lang)
        users = ", ".join(row.needed_by) or (
            f"({optional}) {', '.join(row.optional_for)}" if row.optional_for else ""
        )
        lines.append(
            CoverageLine(
                kind=name_text(row.kind, 200),
                status=row.status,
                status_label=status_label(row.status, lang),
                detail=one_line(detail_text(row.detail, lang), 300),
                users=name_text(users, 2000),
            )
        )
    kinds = ", ".join(f"{row.kind} ({status_label(row.status, lang)})" for row in quiet)
    optional = one_line(report_phrase("optional-unread", lang, kinds=kinds), 4000) if quiet else ""
    return tuple(lines), optional


def _heading(report: ScanReport, lang: str) -> str:
    where = f" · {label('report.context', lang)} {name_text(report.context, 200)}" if report.context else ""
    source = one_line(render_any(report.source, lang), 300)
    return f"kubegap scan · {source} ({label('mode.' + report.mode, lang)}){where}"


def build_view(
    report: ScanReport, lang: str | None = "en", base_url: str | None = None, *, full: bool = False
) -> ReportView:
    """The report as the text formats print it; `full` shows every check, finding, fix and incident."""
    lang = report_lang(lang)
    base = link_base(base_url)
    by_check: dict[str, list[Finding]] = defaultdict(list)
    for finding in report.findings:
        if full or is_open_fail(finding):
            by_check[finding.check_id].append(finding)
    files = {finding.object.source_file for finding in report.findings if finding.object.source_file}
    blocks = tuple(
        _block(summary, by_check[summary.check_id], lang, base, full, len(files) == 1)
        for summary in worst_first(report.checks)
        if by_check.get(summary.check_id)
    )
    coverage, optional_unread = _coverage(report, lang)
    groups = unknown_groups(report)
    notes = tuple(one_line(render_any(note, lang), 500) for note in report.notes)
    skipped_files = set(report.skipped_files)
    naming = [any(path in str(note) for path in skipped_files) for note in report.notes]
    # each note redacted, then cut (in that order: a token cut first would no longer be recognised)
    other_notes = [
        one_line(render_any(note, lang), 200)
        for note, names in zip(report.notes, naming, strict=True)
        if not names
    ]
    namespaces = ", ".join(name_text(name, 100) for name in report.namespaces)
    return ReportView(
        lang=lang,
        full=full,
        heading=_heading(report, lang),
        namespaces=report_phrase("namespaces", lang, names=namespaces) if report.namespaces else "",
        blocks=blocks,
        checks_line=words.checks_line(tally(report), report.mode, lang),
        findings_line=words.findings_line(finding_counts(report), lang),
        groups=tuple(one_line(words.group_line(group, report.mode, lang), 1000) for group in groups),
        read_not_checked=name_text(words.read_not_checked_line(read_not_checked(report), lang), 1000),
        notes_line=visible(words.notes_line(other_notes, lang)),
        notes=notes,
        skipped=tuple(note for note, names in zip(notes, naming, strict=True) if names),
        out_of_reach=frozenset(
            name_text(check_id, 120)
            for group in groups
            if group.cause == OUT_OF_REACH
            for check_id in group.checks
        ),
        coverage_phrase=words.coverage_phrase(report, lang),
        coverage=coverage,
        optional_unread=optional_unread,
        secrets_line=SECRETS_LINE.render(lang),
        hint=words.hint_line(lang) if any(block.status == "fail" for block in blocks) else "",
        symptoms=symptoms_view(report.symptoms, lang, failed_checks(report)) if report.symptoms else None,
    )


def failed_checks(report: ScanReport) -> frozenset[str]:
    """Ids of the checks this scan failed: a symptom's check among them is an open gap."""
    return frozenset(summary.check_id for summary in report.checks if summary.status is Status.failed)
