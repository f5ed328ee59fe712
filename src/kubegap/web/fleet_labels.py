"""Labels of the fleet view of "your cluster" (several contexts scanned at once), merged into `labels`."""

from __future__ import annotations

FLEET_LABELS: dict[str, tuple[str, str]] = {
    "cluster.source.fleet": ("여러 클러스터 (읽기 전용)", "Several clusters (read-only)"),
    "fleet.title": ("내 클러스터들", "Your clusters"),
    "fleet.state.done": (
        "{time}에 클러스터 {total}개 중 {scanned}개를 스캔했습니다.",
        "Scanned {scanned} of {total} clusters at {time}.",
    ),
    "fleet.state.scanning": (
        "클러스터 {total}개를 스캔하는 중입니다… 이 페이지는 저절로 다시 읽힙니다.",
        "Scanning {total} clusters… this page reloads by itself.",
    ),
    "fleet.clusters": ("클러스터", "Clusters"),
    "fleet.cluster": ("클러스터", "Cluster"),
    "fleet.status": ("상태", "Status"),
    "fleet.fails": ("틈", "Fails"),
    "fleet.unknowns": ("판단 불가", "Unknown"),
    "fleet.requests": ("요청 수", "Requests"),
    "fleet.why": ("스캔하지 못한 까닭", "Why not scanned"),
    "fleet.matrix": ("점검 × 클러스터", "Checks × clusters"),
    "fleet.check": ("점검", "Check"),
    "fleet.severity": ("심각도", "Severity"),
    "fleet.hidden": (
        "스캔한 모든 클러스터에서 통과했거나 해당 없는 점검 {count}개는 접어 두었습니다.",
        "{count} checks that pass or do not apply on every scanned cluster are folded away.",
    ),
    "fleet.not-scanned": ("스캔 못 함", "not scanned"),
    "fleet.back": ("모든 클러스터로", "All clusters"),
    "fleet.status.scanned": ("스캔 완료", "scanned"),
    "fleet.status.forbidden": ("권한 거부", "forbidden"),
    "fleet.status.unreachable": ("연결 불가", "unreachable"),
    "fleet.status.error": ("설정 오류", "error"),
}
