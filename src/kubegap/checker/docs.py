"""Generate docs/checks.md from the check modules, so the reference can never drift from the code.

Regenerate with: .venv/bin/python -m kubegap.checker.docs > docs/checks.md
"""

from __future__ import annotations

import sys

from kubegap.checker.check import CheckMeta
from kubegap.checker.registry import all_checks

AREAS = {
    "gpu-health": ("GPU 상태 감시와 복구", "GPU health monitoring and remediation"),
    "gpu-stack": ("GPU 소프트웨어 스택", "GPU software stack"),
    "training-jobs": ("학습 작업의 실패 처리", "Training-job failure semantics"),
    "fleet-change": ("노드 전체 변경의 안전", "Fleet change safety"),
    "control-plane": ("컨트롤 플레인 보호", "Control plane protection"),
    "networking": ("학습용 네트워크", "Networking for training"),
}
REGENERATE = ".venv/bin/python -m kubegap.checker.docs > docs/checks.md"


def _kinds(keys: tuple[str, ...]) -> str:
    return ", ".join(f"`{key}`" for key in keys) or "-"


def _check_section(meta: CheckMeta) -> list[str]:
    lines = [
        f"### `{meta.id}`",
        "",
        f"**{meta.title.en}** · {meta.title.ko}",
        "",
        f"- Area: `{meta.area}` · Severity: `{meta.severity.value}` · "
        f"Manifest files: {'yes' if meta.manifests else 'no (needs live state)'}",
        f"- Reads: {_kinds(meta.needs)}" + (f"; if present: {_kinds(meta.optional)}" if meta.optional else ""),
        f"- Components: {', '.join(f'`{c}`' for c in meta.components) or '-'}",
        "",
        f"**Why.** {meta.why.en}",
        "",
        f"**왜.** {meta.why.ko}",
        "",
        f"**How it decides.** {meta.decides.en}",
        "",
        f"**판단 방법.** {meta.decides.ko}",
        "",
        f"**Remediation.** {meta.remediation.en}",
        "",
        f"**조치.** {meta.remediation.ko}",
        "",
        "**Incidents:** " + ", ".join(f"[`{i}`](/incidents/{i})" for i in meta.incidents),
        "",
        "**References:** " + " · ".join(f"<{url}>" for url in meta.references),
        "",
    ]
    return lines


def render_checks_markdown() -> str:
    """The whole reference: an index table, then one section per check grouped by area."""
    checks = [check.meta for check in all_checks()]
    lines = [
        "# kubegap checks",
        "",
        f"<!-- Generated from src/kubegap/checker/checks by kubegap.checker.docs. Do not edit: run `{REGENERATE}` -->",
        "",
        f"{len(checks)} read-only checks. Each names the Kubernetes kinds it reads; a kind that could not be read "
        "turns the check into `unknown` with the reason, never a silent pass.",
        "",
        "| Check | Area | Severity | Title | 제목 |",
        "| --- | --- | --- | --- | --- |",
    ]
    for meta in checks:
        lines.append(f"| [`{meta.id}`](#{meta.id}) | {meta.area} | {meta.severity.value} | {meta.title.en} | {meta.title.ko} |")
    lines.append("")
    for area, (korean, english) in AREAS.items():
        members = [meta for meta in checks if meta.area == area]
        if not members:
            continue
        lines += [f"## {english} · {korean}", ""]
        for meta in members:
            lines += _check_section(meta)
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    sys.stdout.write(render_checks_markdown())
