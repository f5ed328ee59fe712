"""Fleet scans: several kube contexts scanned at once into one report with a cluster × check matrix."""

from kubegap.checker.fleet.report import ClusterResult, FleetReport, MatrixRow
from kubegap.checker.fleet.scan import FleetRequest, scan_fleet
from kubegap.checker.fleet.targets import resolve_contexts

__all__ = [
    "ClusterResult",
    "FleetReport",
    "FleetRequest",
    "MatrixRow",
    "resolve_contexts",
    "scan_fleet",
]
