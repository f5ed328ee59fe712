"""The symptoms section of the cluster page: the report's section, with links the template only prints.

Built from the same view the text reports print (`checker/reports/symptoms_view.py`), so the page, its
JSON and the CLI say the same thing; here each incident and check id gets its library URL.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubegap.checker.reports.symptoms_view import symptoms_view
from kubegap.checker.reports.view import failed_checks
from kubegap.checker.scan_report import ScanReport
from kubegap.web import urls


@dataclass(frozen=True, slots=True)
class Link:
    label: str
    url: str


@dataclass(frozen=True, slots=True)
class SymptomRow:
    signature: str
    title: str
    catalog: bool
    catalog_url: str  # the error-catalog page of a catalog match, else ''
    place: str
    count: str
    seen: str
    incidents: tuple[Link, ...]
    checks: tuple[Link, ...]  # labels say '(open gap)' where the scan failed the check
    example: str


@dataclass(frozen=True, slots=True)
class SymptomsSection:
    status: str  # read | unknown
    heading: str
    window: str
    rows: tuple[SymptomRow, ...]
    more: str
    unread: str


def symptoms_section(report: ScanReport | None, lang: str) -> SymptomsSection | None:
    """The section for a scan of a cluster or snapshot; None for manifests (no cluster state)."""
    if report is None or report.symptoms is None:
        return None
    failed = failed_checks(report)
    view = symptoms_view(report.symptoms, lang, failed)
    groups = report.symptoms.groups
    rows = tuple(
        SymptomRow(
            signature=row.signature,
            title=row.title,
            catalog=row.catalog,
            catalog_url=urls.path(lang, "errors", group.signature.id) if row.catalog else "",
            place=row.place,
            count=row.count,
            seen=row.seen,
            incidents=tuple(Link(incident, urls.incident_url(lang, incident)) for incident in row.incidents),
            checks=tuple(
                Link(label, urls.check_url(lang, check_id))
                for label, check_id in zip(row.checks, group.checks, strict=True)
            ),
            example=row.example,
        )
        for row, group in zip(view.rows, groups, strict=False)
    )
    return SymptomsSection(view.status, view.heading, view.window, rows, view.more, view.unread)
