"""Paging through one LIST within the scan's limits, checking each page's shape before using it.

A page must be an object whose `items` is a list of objects and whose `metadata.continue` is a
string; anything else ends the kind as malformed. The pages of one kind are bounded in number and in
bytes, a continue token seen twice (or a long run of empty pages that still promise more) ends it as
partial, and a page over the byte limit is asked for again with a smaller `limit` before giving up,
because one namespace of large ConfigMaps is a real cluster, not an attack. A page that repeats an
object already listed (a server looping over its first page with fresh tokens) ends it as partial too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kubegap.bilingual import Message, message
from kubegap.checker.live.client import ApiError, MalformedBody, ReadOnlyClient
from kubegap.checker.live.discovery import Resource
from kubegap.checker.live.limits import MIB, LiveLimits, ScanClock
from kubegap.checker.object_shape import items_problem, list_body_problem
from kubegap.checker.snapshot import Coverage, KubeObject

PAGE_SIZE = 500
SMALLEST_PAGE = 10  # a page over the byte limit is asked again down to this many objects
LONGEST_TOKEN = 16 * 1024  # real continue tokens are a few hundred characters
EMPTY_PAGES_IN_A_ROW = 20


class ListStopped(Exception):
    """A LIST that ended before its end (`partial`), on the first page (`failed`), or on a bad body."""

    def __init__(self, status: Coverage, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


@dataclass
class KindProgress:
    pages: int = 0
    bytes: int = 0
    objects: int = 0


def list_all(
    client: ReadOnlyClient,
    resource: Resource,
    namespace: str | None,
    limits: LiveLimits,
    clock: ScanClock,
    on_items: Callable[[int], None],
    compact: Callable[[KubeObject], KubeObject | None],
    spent: KindProgress | None = None,
) -> list[KubeObject]:
    """Every object of one LIST; when the continue token expires (410 Gone), start over once."""
    path = resource.list_path(namespace)
    progress = spent or KindProgress()
    for attempt in range(2):
        try:
            return _pages(client, resource, path, limits, clock, on_items, compact, progress)
        except ApiError as error:
            if error.status == 410 and attempt == 0:
                continue
            if error.status == 410:
                raise ApiError(
                    message(
                        "{path} 목록이 페이지를 넘기는 동안 두 번 만료됐습니다(410 Gone)",
                        "the list of {path} expired twice while paging (410 Gone)",
                        path=path,
                    ),
                    status=410,
                    path=path,
                ) from None
            if isinstance(error, MalformedBody):
                raise ListStopped(Coverage.malformed, error.one_line()) from None
            if error.limit:
                raise _stopped(progress, error.sentence() + f" [limit: {_limit_flag(error.limit)}]") from None
            if progress.pages:
                raise ListStopped(
                    Coverage.partial,
                    message(
                        "{pages}쪽을 읽은 뒤 멈췄습니다: ",
                        "stopped after {pages} pages: ",
                        pages=progress.pages,
                    )
                    + error.sentence(),
                ) from None
            raise
    raise AssertionError("unreachable")  # pragma: no cover


def _pages(
    client: ReadOnlyClient,
    resource: Resource,
    path: str,
    limits: LiveLimits,
    clock: ScanClock,
    on_items: Callable[[int], None],
    compact: Callable[[KubeObject], KubeObject | None],
    progress: KindProgress,
) -> list[KubeObject]:
    items: list[KubeObject] = []
    token = ""
    seen: set[str] = set()
    names: set[int] = set()  # hashes of namespace/name: a list that repeats an object is looping
    empty_run = 0
    page_size = PAGE_SIZE
    while True:
        if progress.pages >= limits.max_pages:
            raise _stopped(
                progress,
                message(
                    "{path:을} {pages}쪽 읽고 멈췄습니다 [limit: --max-pages]",
                    "stopped after {pages} pages of {path} [limit: --max-pages]",
                    path=path,
                    pages=progress.pages,
                ),
            )
        left = limits.max_kind_bytes - progress.bytes
        if left <= 0:
            raise _stopped(progress, _size_stop(f"{progress.bytes / MIB:,.1f}", path, "after"))
        params: dict[str, str | int] = {"limit": page_size}
        if token:
            params["continue"] = token
        try:
            page, size = client.get_sized(
                path, params, deadline=clock.deadline, max_bytes=min(limits.max_page_bytes, left)
            )
        except ApiError as error:
            if error.limit == "page-bytes" and page_size > SMALLEST_PAGE and left > limits.max_page_bytes:
                page_size = max(SMALLEST_PAGE, page_size // 5)  # ask for the same page in smaller pieces
                continue
            if error.limit == "page-bytes" and left <= limits.max_page_bytes:
                raise _stopped(
                    progress, _size_stop(f"{limits.max_kind_bytes / MIB:,.1f}", path, "at")
                ) from None
            raise
        progress.pages += 1
        progress.bytes += size
        found, token, announced = _checked_page(path, page)
        if progress.pages == 1:
            clock.announce(len(found) + announced)
        if token and token in seen:
            raise _stopped(
                progress,
                message(
                    "서버가 {path}의 continue 토큰을 되풀이했습니다. 목록이 끝나지 않습니다",
                    "the server repeated a continue token for {path}; the list never ends",
                    path=path,
                ),
            )
        seen.add(token)
        typed = [_with_type(item, resource) if isinstance(item, dict) else item for item in found]
        problem = items_problem(typed)
        if problem:
            raise ListStopped(Coverage.malformed, f"GET {path}: {problem}")
        for item in typed:
            metadata = item.get("metadata") or {}
            name = metadata.get("name")
            if name:
                marker = hash((metadata.get("namespace") or "", name))
                if marker in names:
                    raise _stopped(
                        progress,
                        message(
                            "서버가 {path}의 페이지를 넘기는 동안 {name:을} 두 번 보냈습니다. "
                            "목록이 돌고 있습니다",
                            "the server sent {name} twice while paging {path}; the list loops",
                            name=repr(name[:80]),
                            path=path,
                        ),
                    )
                names.add(marker)
            kept = compact(item)  # None: folded into an object kept before (symptoms' event digest)
            if kept is not None:
                items.append(kept)
        progress.objects += len(found)
        on_items(len(items))
        if not token:
            return items
        empty_run = empty_run + 1 if not found else 0
        if empty_run >= EMPTY_PAGES_IN_A_ROW:
            raise _stopped(
                progress,
                message(
                    "{path}의 빈 페이지가 {count}번 이어졌는데도 서버는 더 있다고 했습니다",
                    "{count} empty pages in a row of {path} still promised more",
                    count=EMPTY_PAGES_IN_A_ROW,
                    path=path,
                ),
            )


def _checked_page(path: str, page: dict[str, Any]) -> tuple[list[dict[str, Any]], str, int]:
    """(items, continue token, remainingItemCount) of a page whose shape was checked."""
    problem = list_body_problem(page)
    if problem:
        raise ListStopped(Coverage.malformed, f"GET {path}: {problem}")
    items = page.get("items") or []
    metadata = page.get("metadata")
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, dict):
        raise ListStopped(
            Coverage.malformed, f"GET {path}: the list metadata is {_a(metadata)}, not an object"
        )
    token = metadata.get("continue") or ""
    if not isinstance(token, str) or len(token) > LONGEST_TOKEN:
        raise ListStopped(Coverage.malformed, f"GET {path}: the continue token is not a short string")
    remaining = metadata.get("remainingItemCount")
    announced = remaining if isinstance(remaining, int) and not isinstance(remaining, bool) else 0
    return items, token, max(0, announced)


def _stopped(progress: KindProgress, reason: Message) -> ListStopped:
    """Partial when something was read already, failed when the very first page hit the limit."""
    if progress.pages:
        unused = message(
            ". 읽은 오브젝트 {count}개는 쓰지 않았습니다",
            "; the {count} objects read were not used",
            count=progress.objects,
        )
        return ListStopped(
            Coverage.partial, Message(reason.render("ko") + unused.render("ko"), reason + unused)
        )
    return ListStopped(Coverage.failed, reason)


def _size_stop(mebibytes: str, path: str, where: str) -> Message:
    english = "stopped after {size} MiB of {path}" if where == "after" else "stopped at {size} MiB of {path}"
    return message(
        "{path:을} {size}MiB 읽고 멈췄습니다 [limit: --max-kind-mb]",
        english + " [limit: --max-kind-mb]",
        size=mebibytes,
        path=path,
    )


def _limit_flag(limit: str) -> str:
    return {
        "request-timeout": "--timeout",
        "page-bytes": "--max-page-mb",
        "retry-budget": "--retry-budget",
        "scan-deadline": "--scan-timeout",
    }.get(limit, limit)


def _a(value: object) -> str:
    """'a string', 'a list', 'an integer': what a value is, never the value itself."""
    names = {str: "a string", list: "a list", dict: "an object", int: "an integer", float: "a number"}
    return names.get(type(value), "true or false" if isinstance(value, bool) else "null")


def _with_type(item: dict[str, Any], resource: Resource) -> KubeObject:
    """List items omit apiVersion and kind; put them back so every object stands on its own."""
    if not item.get("apiVersion"):
        item["apiVersion"] = resource.api_version
    if not item.get("kind"):
        item["kind"] = resource.kind
    return item
