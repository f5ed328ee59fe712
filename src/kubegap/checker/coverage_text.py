"""What the scan could read, said in both languages: coverage statuses, unread-kind verdicts, fixed notes.

The runner and every renderer take their sentences from here, so "forbidden" reads "권한 없음" in a
Korean table, on the web page and in a Markdown comment alike. Details that come from the API server
(an HTTP error text) are the server's words and stay as they are.
"""

from __future__ import annotations

import re

from kubegap.bilingual import Message, fill, message
from kubegap.checker.snapshot import KindCoverage

_STATUS: dict[str, tuple[str, str]] = {
    "read": ("읽음", "read"),
    "absent": ("없음", "absent"),
    "forbidden": ("권한 없음", "forbidden"),
    "failed": ("읽기 실패", "failed"),
    "not-collected": ("수집 안 함", "not collected"),
    "malformed": ("형식 오류", "malformed"),
    "partial": ("일부만 읽음", "partial"),
}

SECRETS_DETAIL = "never read: kubegap does not read Secrets"
# Details our own code writes, with their Korean; anything else is shown as written.
_DETAILS: dict[str, str] = {
    SECRETS_DETAIL: "읽지 않음: kubegap은 Secret을 읽지 않습니다",
    "set by the fixture": "픽스처가 정한 값",
    "not in this snapshot": "이 스냅숏에 없음",
    "never read by kubegap": "kubegap은 읽지 않음",
    "CRD not installed": "CRD가 설치되어 있지 않음",
}
# Details with a value in them, as the live reader writes them.
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"the API server does not serve (?P<kind>\S+)"), "API 서버가 {kind:를} 제공하지 않음"),
)

MANIFESTS_MESSAGE = message(
    "노드 상태 같은 실제 클러스터 상태가 필요해, 매니페스트 파일로는 판단할 수 없습니다",
    "needs live cluster state (such as node status); manifest files cannot show it",
)
SECRETS_NOTE = message(
    "Secret은 읽지 않습니다. 입력에 Secret 오브젝트가 있으면 읽지 않고 버립니다.",
    "Secrets are never read: any Secret object in the input was dropped unread.",
)
SECRETS_LINE = message("Secret: kubegap은 절대 읽지 않습니다.", "Secrets: never read by kubegap.")


def status_label(status: str, lang: str) -> str:
    """'권한 없음' / 'forbidden'; a status added later without a label shows its value."""
    pair = _STATUS.get(status)
    if pair is None:
        return status
    return pair[0] if lang == "ko" else pair[1]


def detail_text(detail: str, lang: str) -> str:
    """A coverage detail in the reader's language when we wrote it; the server's words otherwise."""
    if isinstance(detail, Message):
        return detail.render(lang)
    if lang != "ko":
        return detail
    if detail in _DETAILS:
        return _DETAILS[detail]
    for pattern, korean in _PATTERNS:
        found = pattern.fullmatch(detail)
        if found:
            return fill(korean, dict(found.groupdict()), korean=True)
    return detail


def coverage_message(kind: str, coverage: KindCoverage) -> Message:
    """The unknown verdict of a check whose needed kind was not read: which kind, what happened, why."""
    status = coverage.status.value
    ko_detail = detail_text(coverage.detail, "ko")
    return message(
        "판단할 수 없습니다: {kind:이} {ko_status} 상태입니다{ko_detail}",
        "cannot decide: {kind} was {status}{detail}",
        kind=kind,
        status=status,
        ko_status=status_label(status, "ko"),
        detail=f": {coverage.detail}" if coverage.detail else "",
        ko_detail=f"({ko_detail})" if ko_detail else "",
    )
