"""Labels of the "your cluster" page and the cluster badges, in both languages (merged into `labels`)."""

from __future__ import annotations

CLUSTER_LABELS: dict[str, tuple[str, str]] = {
    "nav.cluster": ("내 클러스터", "Your cluster"),
    "cluster.title": ("내 클러스터", "Your cluster"),
    "cluster.read-only": (
        "kubegap은 클러스터를 읽기만 합니다. GET 요청만 보내고, Secret은 읽지 않으며, "
        "아무것도 바꾸지 않습니다.",
        "kubegap only reads: it sends GET requests only, never reads Secrets, "
        "and changes nothing in the cluster.",
    ),
    "cluster.state.off": (
        "이 서버는 클러스터 스캔 없이 시작되었습니다 (--no-scan).",
        "This server was started without a cluster scan (--no-scan).",
    ),
    "cluster.state.waiting": ("곧 스캔을 시작합니다…", "The scan is about to start…"),
    "cluster.state.scanning": (
        "클러스터를 스캔하는 중입니다… 이 페이지는 저절로 다시 읽힙니다.",
        "Scanning… this page reloads by itself.",
    ),
    "cluster.state.done": ("{time}에 스캔을 마쳤습니다.", "Scanned at {time}."),
    "cluster.state.error": ("스캔을 마치지 못했습니다: {error}", "The scan could not finish: {error}"),
    "cluster.reload": ("다시 읽기", "Reload"),
    "cluster.rescan": ("다시 스캔하기", "Scan again"),
    "cluster.rescan.started": ("다시 스캔을 시작했습니다.", "A new scan has started."),
    "cluster.rescan.running": ("스캔이 이미 진행 중입니다.", "A scan is already running."),
    "cluster.rescan.too-soon": (
        "방금 스캔을 시작했습니다. {wait}초 뒤에 다시 시도하세요.",
        "A scan started moments ago; try again in {wait} s.",
    ),
    "cluster.rescan.off": (
        "이 서버는 스캔하지 않도록 시작되었습니다 (--no-scan).",
        "This server was started with --no-scan.",
    ),
    "cluster.hint.demo": (
        "지금 보이는 것은 kubegap에 들어 있는 데모 클러스터입니다. "
        "내 클러스터를 보려면 KUBECONFIG를 설정하거나 `kubegap serve --kubeconfig 경로`로 다시 시작하세요.",
        "This is the demo cluster bundled with kubegap. To see your own, set KUBECONFIG or restart with "
        "kubegap serve --kubeconfig PATH.",
    ),
    "cluster.hint.off": (
        "클러스터를 스캔하려면 --no-scan 없이 다시 시작하세요.",
        "To scan a cluster, restart without --no-scan.",
    ),
    "cluster.source": ("스캔 대상", "Source"),
    "cluster.source.live": ("실제 클러스터 (읽기 전용)", "Live cluster (read-only)"),
    "cluster.source.demo": ("데모 클러스터 스냅숏", "Demo cluster snapshot"),
    "cluster.source.snapshot": ("스냅숏 파일", "Snapshot files"),
    "cluster.source.manifests": ("매니페스트 파일", "Manifest files"),
    "cluster.source.off": ("스캔 안 함", "No scan"),
    "cluster.reason.asked": ("시작할 때 고른 대상", "chosen at start-up"),
    "cluster.reason.kubeconfig-found": ("찾은 kubeconfig", "the kubeconfig found"),
    "cluster.reason.in-cluster": ("파드의 서비스 계정", "the pod's service account"),
    "cluster.reason.no-kubeconfig": (
        "kubeconfig가 없어 데모를 씁니다",
        "no kubeconfig found, so the demo is used",
    ),
    "cluster.reason.no-scan": ("--no-scan으로 시작", "started with --no-scan"),
    "cluster.scanned": ("읽은 곳", "Read from"),
    "cluster.started": ("시작", "Started"),
    "cluster.finished": ("끝", "Finished"),
    "cluster.checks": ("점검 결과", "Checks"),
    "cluster.findings": ("발견 사항", "Findings"),
    "cluster.fails": ("심각도별 틈", "Open gaps by severity"),
    "cluster.gaps": ("틈과 판단 불가", "Gaps and unknowns"),
    "cluster.gaps.none": ("틈이나 판단 불가가 없습니다.", "No gaps and no unknowns."),
    "cluster.passed": ("통과했거나 해당 없는 점검", "Checks that passed or did not apply"),
    "cluster.object": ("대상", "Object"),
    "cluster.evidence": ("근거", "Evidence"),
    "cluster.role": ("역할", "Role"),
    "cluster.reason": ("이유", "Reason"),
    "cluster.exempted": ("예외 처리", "Exempted by"),
    "cluster.more": (
        "그리고 {count}개 더 (kubegap scan으로 모두 보기)",
        "and {count} more (kubegap scan shows all)",
    ),
    "cluster.open-check": ("점검 설명", "About this check"),
    "cluster.coverage": ("읽지 못한 자원", "What could not be read"),
    "cluster.coverage.summary": (
        "자원 {read}종류를 읽었습니다 (객체 {objects}개). 읽지 못한 종류는 {unread}개입니다.",
        "{read} kinds read ({objects} objects); {unread} not read.",
    ),
    "cluster.coverage.kind": ("종류", "Kind"),
    "cluster.coverage.status": ("상태", "Status"),
    "cluster.coverage.detail": ("까닭", "Why"),
    "cluster.coverage.needed-by": ("필요한 점검", "Needed by"),
    "cluster.coverage.none": (
        "점검에 필요한 자원은 모두 읽었습니다.",
        "Every kind the checks need was read.",
    ),
    "cluster.coverage.optional": ("함께 읽는 자원 중 읽지 않은 것", "Optional kinds not read"),
    "cluster.notes": ("참고", "Notes"),
    "cluster.badge.hint": ("내 클러스터: {status}", "In your cluster: {status}"),
    "cluster.badge.label": ("내 클러스터에서", "In your cluster"),
    "coverage.read": ("읽음", "read"),
    "coverage.absent": ("제공되지 않음", "not served"),
    "coverage.forbidden": ("권한 없음", "forbidden"),
    "coverage.failed": ("읽기 실패", "failed"),
    "coverage.malformed": ("형식이 잘못됨", "malformed"),
    "coverage.partial": ("일부만 읽음", "partial"),
    "coverage.not-collected": ("수집되지 않음", "not collected"),
}
