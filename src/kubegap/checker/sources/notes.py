"""The notes a source leaves on a snapshot, in both languages, each naming the files it is about.

A note is said once and says which input it concerns: "skipped 2 documents that are not Kubernetes
objects (values.yaml, kustomization.yaml)" instead of a bare count nobody can act on.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from kubegap.bilingual import Message, message

LISTED_FILES = 5


def files_text(files: Iterable[str], lang: str = "en") -> str:
    """'a.yaml, b.yaml' or 'a.yaml, ... and 3 more': enough to find them, short enough for one line."""
    names = sorted({Path(name).name if len(name) > 60 else name for name in files if name})
    shown = ", ".join(names[:LISTED_FILES])
    rest = len(names) - LISTED_FILES
    if rest > 0:
        shown += f" 외 {rest}개" if lang == "ko" else f" and {rest} more"
    return shown


def _where(files: Iterable[str]) -> dict[str, str]:
    listed = list(files)
    ko, en = files_text(listed, "ko"), files_text(listed, "en")
    return {"ko_files": f" ({ko})" if ko else "", "en_files": f" ({en})" if en else ""}


def not_objects(count: int, files: Iterable[str]) -> Message:
    return message(
        "Kubernetes 오브젝트가 아닌 문서 {count}개를 건너뛰었습니다{ko_files}",
        "skipped {count} document(s) that are not Kubernetes objects{en_files}",
        count=count,
        **_where(files),
    )


def unreadable_file(problem: str | Message) -> Message:
    return message(
        "읽을 수 없는 파일을 건너뛰었습니다: {problem}", "skipped unreadable file {problem}", problem=problem
    )


def more_unreadable(count: int) -> Message:
    return message(
        "읽을 수 없는 파일 {count}개를 더 건너뛰었습니다",
        "skipped {count} more unreadable file(s)",
        count=count,
    )


def nothing_to_check(where: str) -> Message:
    return message(
        "{where}: Kubernetes 오브젝트가 없어 점검할 것이 없습니다",
        "{where}: no Kubernetes objects found; nothing to check",
        where=where,
    )


def bad_objects(count: int, problem: str, files: Iterable[str]) -> Message:
    """Objects dropped because they lack what every object has (kind, metadata.name, ...)."""
    return message(
        "{problem} 문제가 있는 오브젝트 {count}개를 건너뛰었습니다{ko_files}",
        "skipped {count} object(s) with {problem}{en_files}",
        count=count,
        problem=problem,
        **_where(files),
    )


def duplicates(count: int, files: Iterable[str]) -> Message:
    return message(
        "중복 오브젝트(kind, 네임스페이스, 이름이 같음) {count}개를 건너뛰었습니다{ko_files}",
        "skipped {count} duplicate object(s) (same kind, namespace and name){en_files}",
        count=count,
        **_where(files),
    )


def secrets_dropped(count: int, files: Iterable[str]) -> Message:
    return message(
        "입력에 든 Secret 오브젝트 {count}개를 읽지 않고 버렸습니다{ko_files}",
        "dropped {count} Secret object(s) unread{en_files}",
        count=count,
        **_where(files),
    )


def originally_from(source: str) -> Message:
    return message("원래 {source}에서 찍은 스냅숏입니다", "snapshot originally from {source}", source=source)


def links_outside(files: Iterable[str]) -> Message:
    listed = list(files)
    return message(
        "폴더 밖을 가리키는 링크 {count}개를 건너뛰었습니다{ko_files}. 읽으려면 파일을 직접 지정하세요",
        "skipped {count} link(s) that lead outside the folder scanned{en_files}; name a file to read it",
        count=len(listed),
        **_where(listed),
    )
