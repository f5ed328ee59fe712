"""The result of a fleet scan: one ScanReport per scanned cluster, plus the clusters that could not be.

The matrix (one row per check, one cell per cluster) is computed here once, so the table, JSON,
Markdown, SARIF and web views show the same cells. A cluster that was not scanned has the cell
`error` in every row: the matrix never shows a pass for a cluster nobody read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from kubegap.checker.check import CheckMeta
from kubegap.checker.finding import Severity, Status
from kubegap.checker.scan_report import ScanReport, worst_first

SCHEMA_VERSION = "1.0"
CLUSTER_STATUSES = ("scanned", "forbidden", "unreachable", "error")
NOT_SCANNED = "error"  # the matrix cell of a cluster that has no report
# Worst first, for sorting rows by their worst cell on a scanned cluster.
_CELL_RANK = {"fail": 0, "unknown": 1, "pass": 2, "not-applicable": 3, NOT_SCANNED: 4}


@dataclass(frozen=True)
class ClusterResult:
    """One cluster of the fleet: its report when scanned, else why not (status and one line)."""

    name: str
    status: str  # one of CLUSTER_STATUSES
    report: ScanReport | None = None
    error: str = ""
    seconds: float = 0.0
    requests: int = 0

    @property
    def scanned(self) -> bool:
        return self.report is not None

    def open_fails(self) -> int:
        return self.report.counts["fail"] if self.report else 0

    def unknowns(self) -> int:
        return self.report.counts["unknown"] if self.report else 0


@dataclass(frozen=True)
class MatrixRow:
    """One check across the fleet: its status on each cluster, in the clusters' order."""

    meta: CheckMeta
    cells: tuple[str, ...]

    @property
    def check_id(self) -> str:
        return self.meta.id

    @property
    def worst(self) -> str:
        """The worst status on a scanned cluster ('error' only when no cluster was scanned)."""
        read = [cell for cell in self.cells if cell != NOT_SCANNED] or list(self.cells)
        return min(read, key=lambda cell: _CELL_RANK.get(cell, 1)) if read else ""


@dataclass
class FleetReport:
    clusters: list[ClusterResult]
    started_at: str
    finished_at: str
    wall_seconds: float
    concurrency: int
    kubegap_version: str
    notes: list[str] = field(default_factory=list)
    schema_version: str = SCHEMA_VERSION

    @property
    def names(self) -> list[str]:
        return [cluster.name for cluster in self.clusters]

    @property
    def requests(self) -> int:
        """Requests sent to every API server together (each cluster's own count, retries included)."""
        return sum(cluster.requests for cluster in self.clusters)

    def scanned(self) -> list[ClusterResult]:
        return [cluster for cluster in self.clusters if cluster.scanned]

    def not_scanned(self) -> list[ClusterResult]:
        return [cluster for cluster in self.clusters if not cluster.scanned]

    def matrix(self) -> list[MatrixRow]:
        """Every check any scanned cluster ran, worst first (fails, unknowns), then by severity and id."""
        metas: dict[str, CheckMeta] = {}
        statuses: dict[str, dict[str, str]] = {}
        for cluster in self.scanned():
            assert cluster.report is not None
            for summary in worst_first(cluster.report.checks):
                metas.setdefault(summary.check_id, summary.meta)
                statuses.setdefault(summary.check_id, {})[cluster.name] = summary.status.value
        rows = []
        for check_id, meta in metas.items():
            seen = statuses[check_id]
            cells = tuple(
                seen.get(cluster.name, Status.not_applicable.value) if cluster.scanned else NOT_SCANNED
                for cluster in self.clusters
            )
            rows.append(MatrixRow(meta, cells))
        rows.sort(key=lambda row: (_CELL_RANK.get(row.worst, 1), -row.meta.severity.rank, row.check_id))
        return rows

    def exit_code(self, fail_on: Severity | None) -> int:
        """3 when a cluster could not be read (the fleet's picture is incomplete), else as one scan."""
        if self.not_scanned():
            return 3
        if fail_on is None:
            return 0
        return max(
            (cluster.report.exit_code(fail_on) for cluster in self.scanned() if cluster.report), default=0
        )

    def filtered(self, statuses: Iterable[str] | None, min_severity: Severity | None) -> FleetReport:
        """A copy whose cluster reports show only some findings; the matrix and counts stay whole."""
        wanted = list(statuses) if statuses else None
        clusters = [
            replace(cluster, report=cluster.report.filtered(wanted, min_severity))
            if cluster.report
            else cluster
            for cluster in self.clusters
        ]
        return replace(self, clusters=clusters)
