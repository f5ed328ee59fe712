"""Where a scan's report goes, and the input errors decided around it (exit code 2 each, one line).

`-o FILE` into a folder that does not exist is refused before the scan reads anything; input that
held no Kubernetes object (Helm values scanned by mistake) is an error, not a clean exit.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from kubegap.bilingual import message
from kubegap.checker.scan_report import ScanReport
from kubegap.errors import InputError


def _cannot_write(output: str, reason: str, ko_reason: str = "") -> InputError:
    return InputError(
        message(
            "{path}: 보고서를 쓸 수 없습니다({ko_reason})",
            "{path}: cannot write report: {reason}",
            path=output,
            reason=reason,
            ko_reason=ko_reason or reason,
        )
    )


def check_writable(output: str | None) -> None:
    """Refuse `-o` into a folder that does not exist before the scan, not after minutes of reading."""
    if output is None:
        return
    folder = Path(output).parent
    if not folder.is_dir():
        raise _cannot_write(output, f"folder {folder} does not exist", f"없는 폴더: {folder}")
    if Path(output).is_dir():
        raise _cannot_write(output, "it is a folder", "폴더입니다")


def write_report(text: str, output: str | None) -> None:
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise _cannot_write(output, str(error.strerror or error)) from None


def nothing_scanned(report: ScanReport, paths: Sequence[str]) -> InputError:
    where = ", ".join(paths[:3]) + (f" (+{len(paths) - 3})" if len(paths) > 3 else "")
    return InputError(
        message(
            "{where}: Kubernetes 오브젝트가 없어 아무것도 점검하지 않았습니다"
            "(그래도 통과로 치려면 --skip-unreadable)",
            "{where}: no Kubernetes object found, nothing was checked (--skip-unreadable accepts such input)",
            where=where or report.source,
        )
    )
