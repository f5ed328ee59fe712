"""The report's own sentences in both languages: summary lines, unknown groups, coverage, hints.

Numbers are counted in one unit per line and the line says which: checks ("60 checks: ...") or
findings ("Findings: ..."). No summary or group line uses the word "fail", so `kubegap scan | grep fail`
finds the fail lines and nothing else; the summaries say "gap", as the Korean labels always have (틈).
The texts are returned raw; the view (`view.py`) passes every one through the output chokepoint.
"""

from __future__ import annotations

from collections.abc import Sequence

from kubegap.bilingual import message
from kubegap.checker.report_summary import OUT_OF_REACH, UnknownGroup
from kubegap.checker.scan_report import CoverageRow, ScanReport

_KINDS_NAMED = 3
_CHECKS_NAMED = 3

# Check buckets in the checks line: (Korean label, English label); Korean puts the count after it.
_BUCKET_WORDS = {
    "fail": ("틈 발견", "with a gap"),
    "unknown": ("판단 불가", "unknown"),
    "pass": ("통과", "passed"),
    "not-applicable": ("해당 없음", "not applicable"),
}
_OUT_OF_REACH_WORDS = {
    "manifests": ("실제 클러스터나 스냅숏 필요", "need a live cluster or snapshot"),
    "snapshot": ("이 스냅숏에 없는 종류 필요", "need kinds this snapshot lacks"),
}
_FINDING_WORDS = {
    "fail": ("틈", "gaps"),
    "exempted": ("예외 처리", "exempted"),
    "unknown": ("판단 불가", "unknown"),
    "pass": ("통과", "pass"),
    "not-applicable": ("해당 없음", "not applicable"),
}


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[0] if lang == "ko" else pair[1]


def _few(names: Sequence[str], limit: int) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" +{len(names) - limit}" if len(names) > limit else "")


def checks_line(counts: dict[str, int], mode: str, lang: str) -> str:
    """'60 checks: 1 with a gap, 2 unknown, 5 passed, 30 not applicable, 22 need a live cluster ...'."""
    total = sum(counts.values())
    parts = []
    for key, pair in _BUCKET_WORDS.items():
        parts.append((_pick(pair, lang), counts.get(key, 0)))
    if counts.get(OUT_OF_REACH):
        pair = _OUT_OF_REACH_WORDS.get(mode, ("입력으로 볼 수 없음", "out of reach of this input"))
        parts.append((_pick(pair, lang), counts.get(OUT_OF_REACH, 0)))
    if lang == "ko":
        return f"점검 {total:,}개: " + ", ".join(f"{word} {count:,}" for word, count in parts)
    noun = "check" if total == 1 else "checks"
    return f"{total:,} {noun}: " + ", ".join(f"{count:,} {word}" for word, count in parts)


def bucket_label(key: str, mode: str, lang: str) -> str:
    """The label of one check bucket, as the checks line says it ('need a live cluster or snapshot')."""
    if key == OUT_OF_REACH:
        return _pick(
            _OUT_OF_REACH_WORDS.get(mode, ("입력으로 볼 수 없음", "out of reach of this input")), lang
        )
    return _pick(_BUCKET_WORDS[key], lang)


def findings_line(counts: dict[str, int], lang: str) -> str:
    """'Findings: 3 gaps, 1 exempted, 2 unknown, 7 pass, 12 not applicable' (each object a check judged)."""
    parts = [(_pick(pair, lang), counts.get(key, 0)) for key, pair in _FINDING_WORDS.items()]
    if lang == "ko":
        return "발견 사항: " + ", ".join(f"{word} {count:,}" for word, count in parts)
    return "Findings: " + ", ".join(f"{count:,} {word}" for word, count in parts)


def _checks(count: int, lang: str) -> str:
    if lang == "ko":
        return f"점검 {count:,}개"
    return f"{count:,} check" + ("" if count == 1 else "s")


def group_line(group: UnknownGroup, mode: str, lang: str) -> str:
    """One line per cause of unknown: how many checks, why, and what resolves it."""
    count = len(group.checks)
    kinds = _few(list(dict.fromkeys(kind.rsplit("/", 1)[-1] for kind in group.kinds)), _KINDS_NAMED)
    ids = _few(group.checks, _CHECKS_NAMED)
    values = {"n": _checks(count, lang), "kinds": kinds or "-", "ids": ids, "s": "s" if count == 1 else ""}
    cause = group.cause
    if cause == OUT_OF_REACH and mode == "manifests":
        said = message(
            "{n}는 실제 클러스터나 스냅숏이 있어야 판단합니다(파일에 없는 종류: {kinds}). "
            "클러스터나 스냅숏을 스캔하세요.",
            "{n} need{s} a live cluster or snapshot (files hold no {kinds}): scan the cluster or a snapshot.",
            **values,
        )
    elif cause in (OUT_OF_REACH, "not-collected"):
        said = message(
            "{n}는 이 입력에 없는 종류가 필요합니다({kinds}). `kubegap snapshot -o FILE`로 새로 받으세요.",
            "{n} need{s} kinds this input lacks ({kinds}): take a new one with `kubegap snapshot -o FILE`.",
            **values,
        )
    elif cause == "forbidden":
        said = message(
            "{n}는 판단 불가입니다: {kinds} 읽기가 거부되었습니다(403). 해결: `kubegap rbac`로 읽기 전용 "
            "ClusterRole을 만들어 적용한 뒤 다시 스캔하세요.",
            "{n} unknown: reading {kinds} was refused (403). Fix: `kubegap rbac` prints the read-only "
            "ClusterRole; apply it and scan again.",
            **values,
        )
    elif cause == "unreadable":
        said = message(
            "{n}는 판단 불가입니다: {kinds:을} 끝까지 읽지 못했습니다({statuses}). 다시 스캔하세요.",
            "{n} unknown: {kinds} could not be read in full ({statuses}); scan again.",
            statuses=", ".join(group.statuses) or "-",
            **values,
        )
    elif cause == "unrendered":
        said = message(
            "{n}는 판단 불가입니다: 렌더링하지 않은 템플릿 값이 있습니다({ids}). 먼저 렌더링하고"
            "(`helm template`, `kustomize build`) 그 결과를 스캔하세요.",
            "{n} unknown: a template value is not rendered ({ids}); render it first (`helm template`, "
            "`kustomize build`) and scan the output.",
            **values,
        )
    elif cause == "check-error":
        said = message(
            "{n}는 점검 자체에서 오류가 났습니다({ids}). 버그이니 알려 주세요.",
            "{n} raised an error in the check itself ({ids}); this is a bug, please report it.",
            **values,
        )
    elif cause == "not-decidable":
        said = message(
            "{n}는 읽은 것만으로 판단할 수 없습니다({ids}). "
            "무엇이 필요한지는 `kubegap checks show ID`로 봅니다.",
            "{n} unknown: what was read cannot decide them ({ids}); `kubegap checks show ID` says what "
            "each needs.",
            **values,
        )
    else:
        said = message(
            "{n}는 판단 불가입니다({cause}: {ids}).",
            "{n} unknown ({cause}: {ids}).",
            cause=cause,
            **values,
        )
    return said.render(lang)


def read_not_checked_line(rows: Sequence[CoverageRow], lang: str) -> str:
    """'Read, not checked: serving.kserve.io/InferenceService (2)': kinds no check understands."""
    if not rows:
        return ""
    named = _few([f"{row.kind} ({row.objects:,})" for row in rows], 6)
    if lang == "ko":
        return f"읽었지만 점검하지 않은 종류: {named}"
    return f"Read, not checked: {named}"


def notes_line(notes: Sequence[str], lang: str) -> str:
    """The notes in one line: how many, and the first (`--all` lists them).

    The notes come in already through the chokepoint and cut there (redacted first, then cut: a token
    cut before redaction would no longer be recognised), so nothing is cut here.
    """
    if not notes:
        return ""
    first = " ".join(str(notes[0]).split())
    more = len(notes) - 1
    if lang == "ko":
        rest = f" 외 {more}건" if more else ""
        return f"참고 {len(notes)}건: {first}{rest} (--all로 모두 봅니다)"
    rest = f" and {more} more" if more else ""
    return f"Notes ({len(notes)}): {first}{rest} (--all shows them)"


def coverage_phrase(report: ScanReport, lang: str) -> str:
    """'12 kinds read (340 objects); 3 not read' (Secrets are said on their own line, not counted)."""
    rows = [row for row in report.coverage if row.kind != "Secret"]
    read = [row for row in rows if row.status == "read"]
    objects = sum(row.objects for row in read)
    unread = len(rows) - len(read)
    if lang == "ko":
        return f"종류 {len(read):,}개(오브젝트 {objects:,}개)를 읽었고, 읽지 않은 종류는 {unread:,}개입니다"
    return f"{len(read):,} kind(s) read, {objects:,} object(s); {unread:,} not read"


def role_label(role: str, lang: str) -> str:
    """How a finding names the workload role its check assumed."""
    return f"[역할: {role}]" if lang == "ko" else f"[role: {role}]"


def hint_line(lang: str) -> str:
    """Where the why, the fix and the rest are, said once under the fails."""
    if lang == "ko":
        return "왜·고치는 법: `kubegap checks show ID` · 통과·해당 없음·근거 사례까지 모두 보려면 --all"
    return "Why and how to fix: `kubegap checks show ID` · --all lists passes, not applicable and incidents"
