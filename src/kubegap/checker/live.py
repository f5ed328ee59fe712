"""Read a live cluster into a Snapshot: one paginated LIST per kind, through the read-only client.

Every kind asked for ends with a coverage verdict, so a check never passes on data that was not read:
read, absent (not served: a CRD that is not installed), forbidden (401/403), failed (timeouts, 5xx
after retries, a list that expired twice), or not collected (Secrets, which kubegap never reads).
Items of a kind are kept only when the whole list was read; a half-read kind is failed, not quietly short.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from kubegap.bilingual import message, render_any
from kubegap.checker.client import ApiError, ReadOnlyClient, ReadOnlyViolation
from kubegap.checker.discovery import Discovery, Resource, discover
from kubegap.checker.snapshot import Coverage, KindCoverage, KubeObject, Snapshot
from kubegap.checker.sources._compact import Compactor

PAGE_SIZE = 500


def read_cluster(
    kinds: Sequence[str],
    *,
    kubeconfig: str | None = None,
    context: str | None = None,
    namespaces: Sequence[str] | None = None,
    qps: float = 20,
    timeout: float = 30,
    progress: bool = False,
    client: ReadOnlyClient | None = None,
) -> Snapshot:
    """List every kind in `kinds` (kind keys such as 'apps/DaemonSet') from the cluster, read-only.

    With `namespaces`, namespaced kinds are listed in those namespaces only; cluster-scoped kinds are
    always listed whole. Raises ClusterError (one line) when the cluster cannot be reached at all.
    """
    owned = client is None
    active = client or ReadOnlyClient.from_kubeconfig(
        kubeconfig, context, qps=qps, burst=max(1, int(qps * 2)), timeout=timeout
    )
    already_sent = active.requests
    try:
        keys = list(dict.fromkeys(kinds))
        snapshot = Snapshot(
            source=_source_line(active.describe()),
            mode="live",
            context=active.context,
            kubeconfig=active.kubeconfig,
            created_at=dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        )
        discovery = discover(active, [key for key in keys if key != "Secret"])
        compactor = Compactor()  # the same pruning and sharing as streamed snapshot files
        with _ProgressBar(progress, len(keys)) as bar, _collector_paused():
            for key in keys:
                coverage, items = _read_kind(
                    active, discovery, key, namespaces, bar.counter(key), compactor.compact
                )
                snapshot.coverage[key] = coverage
                if items is not None:
                    snapshot.objects[key] = items
                bar.done(key, len(items or ()), coverage)
        snapshot.requests = active.requests - already_sent
        return snapshot
    finally:
        if owned:
            active.close()


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while pages pile up, as json loaders do.

    Listed objects are acyclic dicts that reference counting frees, yet every few thousand new dicts
    the collector walks all of them again; on 150,000 pods that costs several times the parse itself
    (see bench/bench_checker.py).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _read_kind(
    client: ReadOnlyClient,
    discovery: Discovery,
    key: str,
    namespaces: Sequence[str] | None,
    on_items: Callable[[int], None],
    compact: Callable[[KubeObject], KubeObject],
) -> tuple[KindCoverage, list[KubeObject] | None]:
    if key == "Secret":
        return KindCoverage(Coverage.not_collected, "never read: kubegap does not read Secrets"), None
    resource = discovery.find(key)
    if resource is None:
        failure = discovery.failure_for(key)
        if failure:
            return KindCoverage(Coverage.failed, f"discovery failed: {failure}"), None
        return KindCoverage(Coverage.absent, f"the API server does not serve {key}"), None
    scopes: list[str | None] = list(namespaces) if namespaces and resource.namespaced else [None]
    items: list[KubeObject] = []
    try:
        for namespace in scopes:
            items.extend(_list_all(client, resource, namespace, on_items, compact))
    except ReadOnlyViolation as refused:
        return KindCoverage(Coverage.not_collected, f"never read: {refused.one_line()}"), None
    except ApiError as error:
        return _coverage_for(error), None
    detail = f"namespaces: {', '.join(namespaces)}" if namespaces and resource.namespaced else ""
    return KindCoverage(Coverage.read, detail), items


def _list_all(
    client: ReadOnlyClient,
    resource: Resource,
    namespace: str | None,
    on_items: Callable[[int], None],
    compact: Callable[[KubeObject], KubeObject],
) -> list[KubeObject]:
    """Page through one LIST; when the continue token expires (410 Gone), start over once."""
    path = resource.list_path(namespace)
    for attempt in range(2):
        items: list[KubeObject] = []
        token = ""
        try:
            while True:
                params: dict[str, str | int] = {"limit": PAGE_SIZE}
                if token:
                    params["continue"] = token
                page = client.get(path, params)
                for item in page.get("items") or []:
                    if isinstance(item, dict):
                        items.append(compact(_with_type(item, resource)))
                on_items(len(items))
                token = str((page.get("metadata") or {}).get("continue") or "")
                if not token:
                    return items
        except ApiError as error:
            if error.status == 410 and attempt == 0:
                continue
            if error.status == 410:
                raise ApiError(
                    f"the list of {path} expired twice while paging (410 Gone)", status=410, path=path
                ) from None
            raise
    raise AssertionError("unreachable")  # pragma: no cover


def _with_type(item: dict[str, Any], resource: Resource) -> KubeObject:
    """List items omit apiVersion and kind; put them back so every object stands on its own."""
    if not item.get("apiVersion"):
        item["apiVersion"] = resource.api_version
    if not item.get("kind"):
        item["kind"] = resource.kind
    return item


def _coverage_for(error: ApiError) -> KindCoverage:
    if error.status in (401, 403):
        return KindCoverage(Coverage.forbidden, error.one_line())
    if error.status == 404:
        return KindCoverage(Coverage.absent, error.one_line())
    return KindCoverage(Coverage.failed, error.one_line())


class _ProgressBar:
    """A rich progress bar on stderr while listing, or nothing at all when progress is off."""

    def __init__(self, enabled: bool, total: int) -> None:
        self._progress: Progress | None = None
        if enabled:
            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._task = self._progress.add_task("listing", total=total)

    def __enter__(self) -> _ProgressBar:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._progress is not None:
            self._progress.stop()

    def counter(self, key: str) -> Callable[[int], None]:
        progress = self._progress
        if progress is None:
            return lambda count: None
        return lambda count: progress.update(self._task, description=f"listing {key}: {count} objects")

    def done(self, key: str, count: int, coverage: KindCoverage) -> None:
        if self._progress is not None:
            self._progress.update(
                self._task, advance=1, description=f"{key}: {coverage.status.value} ({count})"
            )


def _source_line(described: str) -> str:
    """'live: context prod (...)' / '실제 클러스터: 컨텍스트 prod (...)' for the report header."""
    return message("실제 클러스터: {ko}", "live: {en}", ko=render_any(described, "ko"), en=str(described))
