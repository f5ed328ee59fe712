"""Read a live cluster into a Snapshot: one paginated LIST per kind, through the read-only client.

Every kind asked for ends with a coverage verdict, so a check never passes on data that was not read:
read, absent (not in discovery: a CRD that is not installed), forbidden (401/403), failed (timeouts, 5xx
after retries, a 404 for a kind discovery announced, a list that expired twice, a limit hit on the first
page), malformed (a body of the wrong shape), partial (a page, byte or time limit hit part-way), or not
collected (Secrets, which kubegap never reads). Items of a kind are kept only when the whole list was
read; a half-read kind is partial, not quietly short. The scan itself always ends: `LiveLimits` bounds
every request, every kind and the whole scan, and kinds the budget did not reach are failed with that
reason.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import time
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from kubegap.bilingual import Message, message, render_any
from kubegap.checker.live.client import ApiError, ReadOnlyClient, ReadOnlyViolation
from kubegap.checker.live.discovery import Discovery, discover
from kubegap.checker.live.limits import LiveLimits, ScanClock
from kubegap.checker.live.pages import PAGE_SIZE, KindProgress, ListStopped, list_all
from kubegap.checker.names import is_namespace_name
from kubegap.checker.snapshot import Coverage, KindCoverage, KubeObject, Snapshot
from kubegap.checker.sources._compact import Compactor
from kubegap.checker.symptoms.catalog import catalog
from kubegap.checker.symptoms.events import DEFAULT_WINDOW_SECONDS, EVENT_KINDS, EventDigest
from kubegap.checker.symptoms.logs import LogLimits, log_signals, log_targets
from kubegap.checker.symptoms.signals import pod_places
from kubegap.errors import UsageError

__all__ = ["PAGE_SIZE", "read_cluster"]


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
    limits: LiveLimits | None = None,
    event_window: int = DEFAULT_WINDOW_SECONDS,
    logs: LogLimits | None = None,
) -> Snapshot:
    """List every kind in `kinds` (kind keys such as 'apps/DaemonSet') from the cluster, read-only.

    With `namespaces`, namespaced kinds are listed in those namespaces only; cluster-scoped kinds are
    always listed whole. Raises ClusterError (one line) when the cluster cannot be reached at all.
    `limits` defaults to LiveLimits with `timeout` as the request timeout. Events are kept as
    bounded digests of the last `event_window` seconds (see checker/symptoms/events.py). With `logs`
    (the user passed --logs), pods already showing a symptom get one bounded log GET each, matched
    and dropped (checker/symptoms/logs.py); without it no log is ever requested.
    """
    bounds = limits or LiveLimits(request_timeout=timeout)
    bad = [name for name in namespaces or () if not is_namespace_name(name)]
    if bad:
        raise UsageError(
            message(
                "{name:은} Kubernetes 네임스페이스 이름으로 쓸 수 없습니다",
                "namespace {name} is not a valid Kubernetes namespace name",
                name=repr(bad[0][:80]),
            )
        )
    clock = ScanClock(fixed=bounds.scan_timeout, ceiling=bounds.scan_ceiling)
    owned = client is None
    active = client or ReadOnlyClient.from_kubeconfig(
        kubeconfig,
        context,
        qps=qps,
        burst=max(1, int(qps * 2)),
        timeout=bounds.request_timeout,
        max_retries=bounds.max_retries,
        max_retry_wait=bounds.max_retry_wait,
        max_total_retry_wait=bounds.max_total_retry_wait,
        max_page_bytes=bounds.max_page_bytes,
        credential_deadline=clock.deadline,  # a credential plugin runs inside the scan's budget
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
            event_window=event_window,
        )
        discovery = discover(active, [key for key in keys if key != "Secret"], deadline=clock.deadline)
        clock.plan(_planned_lists(discovery, keys, namespaces))
        compactor = Compactor()  # the same pruning and sharing as streamed snapshot files
        reader = _KindReader(active, discovery, namespaces, bounds, clock, compactor.compact)
        reader.events_until, reader.event_window = time.time(), event_window
        with _ProgressBar(progress, len(keys)) as bar, _collector_paused():
            for key in keys:
                coverage, items = reader.read(key, bar.counter(key))
                snapshot.coverage[key] = coverage
                if items is not None:
                    snapshot.objects[key] = items
                bar.done(key, len(items or ()), coverage)
        if logs is not None:
            _read_logs(active, snapshot, logs, clock)
        snapshot.requests = active.requests - already_sent
        if not active.verifies_tls:
            snapshot.notes.append(
                message(
                    "{host}의 TLS 검증을 껐습니다(insecure-skip-tls-verify): "
                    "API 서버가 누구인지 확인하지 않았습니다",
                    "TLS verification is off for {host} (insecure-skip-tls-verify): "
                    "the API server's identity was not checked",
                    host=active.host,
                )
            )
        snapshot.notes.append(_budget_note(clock, snapshot))
        return snapshot
    finally:
        if owned:
            active.close()


def _read_logs(client: ReadOnlyClient, snapshot: Snapshot, limits: LogLimits, clock: ScanClock) -> None:
    """The logs of at most `limits.pods` pods with a symptom, within the scan's budget; each failure is
    counted in the note, never fatal."""
    if snapshot.status_of("Pod").status is not Coverage.read:
        return
    targets = log_targets(snapshot, limits.pods)
    matcher, read, failed, places = catalog().match, 0, 0, pod_places(snapshot)
    client.reads_logs = True
    try:
        for target in targets:
            try:
                text = client.get_log(
                    target.namespace,
                    target.pod,
                    target.container,
                    previous=target.previous,
                    tail_lines=limits.tail_lines,
                    limit_bytes=limits.limit_bytes,
                    deadline=clock.deadline,
                )
            except (ApiError, ReadOnlyViolation):
                failed += 1
                continue
            read += 1
            snapshot.log_signals.extend(log_signals(places, target, text, matcher, time.time()))
    finally:
        client.reads_logs = False
    snapshot.notes.append(
        message(
            "파드 로그: 증상이 있는 파드 {read}개의 로그를 읽었습니다"
            "(각 마지막 {lines}줄, 최대 {size}KiB){ko_failed}",
            "pod logs: read for {read} pods with a symptom (last {lines} lines, at most {size} KiB each)"
            "{failed}",
            read=str(read),
            lines=str(limits.tail_lines),
            size=str(limits.limit_bytes // 1024),
            failed=f"; {failed} could not be read" if failed else "",
            ko_failed=f". {failed}개는 읽지 못했습니다" if failed else "",
        )
    )


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


def _planned_lists(discovery: Discovery, keys: Sequence[str], namespaces: Sequence[str] | None) -> int:
    """How many LISTs the scan will start: one per kind, or one per namespace for namespaced kinds."""
    total = 0
    for key in keys:
        resource = discovery.find(key)
        if resource is not None:
            total += len(namespaces) if namespaces and resource.namespaced else 1
    return total


def _budget_note(clock: ScanClock, snapshot: Snapshot) -> Message:
    stopped = sum(1 for coverage in snapshot.coverage.values() if "--scan-timeout" in coverage.detail)
    if clock.fixed is not None:
        ko_budget = f"{clock.fixed:g}초(--scan-timeout)"
    else:
        ko_budget = (
            f"{clock.budget:.0f}초(목록 {clock.planned_lists}개와 서버가 알린 오브젝트 "
            f"{clock.announced_objects:,}개에 맞춘 값, --scan-timeout으로 정함)"
        )
    return message(
        "라이브 읽기에 {elapsed}초가 걸렸습니다(시간 예산 {ko_budget}){ko_ran_out}",
        "live read took {elapsed} s of a {budget} time budget{ran_out}",
        elapsed=f"{clock.elapsed():.1f}",
        budget=clock.describe(),
        ko_budget=ko_budget,
        ran_out=f"; it ran out, {stopped} kinds were not read completely" if stopped else "",
        ko_ran_out=f". 예산이 바닥나 {stopped}개 종류를 끝까지 읽지 못했습니다" if stopped else "",
    )


class _KindReader:
    """Reads one kind at a time, within the scan's limits, into a coverage verdict and its objects."""

    def __init__(
        self,
        client: ReadOnlyClient,
        discovery: Discovery,
        namespaces: Sequence[str] | None,
        limits: LiveLimits,
        clock: ScanClock,
        compact: Callable[[KubeObject], KubeObject],
    ) -> None:
        self._client = client
        self._discovery = discovery
        self._namespaces = namespaces
        self._limits = limits
        self._clock = clock
        self._compact = compact
        self.events_until: float | None = None  # set to read Events as bounded digests
        self.event_window = DEFAULT_WINDOW_SECONDS
        self._event_uids: set[str] = set()  # uids of event groups read whole

    def read(self, key: str, on_items: Callable[[int], None]) -> tuple[KindCoverage, list[KubeObject] | None]:
        if key == "Secret":
            return KindCoverage(Coverage.not_collected, "never read: kubegap does not read Secrets"), None
        resource = self._discovery.find(key)
        if resource is None:
            return self._not_found(key), None
        if self._clock.expired():
            return KindCoverage(
                Coverage.failed,
                message(
                    "읽지 않음: 이 종류 차례가 오기 전에 스캔 시간 예산 {budget}초가 다 됐습니다 "
                    "[limit: --scan-timeout]",
                    "not read: the scan's time budget of {budget} s ran out before this kind "
                    "[limit: --scan-timeout]",
                    budget=f"{self._clock.budget:.0f}",
                ),
            ), None
        namespaces = self._namespaces
        scopes: list[str | None] = list(namespaces) if namespaces and resource.namespaced else [None]
        items: list[KubeObject] = []
        spent = KindProgress()
        compact: Callable[[KubeObject], KubeObject | None] = self._compact
        digest = None
        if key in EVENT_KINDS and self.events_until is not None:
            # one digest per group, told what a group read whole already counted (see events.py)
            digest = EventDigest(catalog().match, self.events_until, self.event_window, self._event_uids)
            compact = digest.keep
        try:
            for namespace in scopes:
                items.extend(
                    list_all(
                        self._client,
                        resource,
                        namespace,
                        self._limits,
                        self._clock,
                        on_items,
                        compact,
                        spent,
                    )
                )
        except ReadOnlyViolation as refused:
            return KindCoverage(
                Coverage.not_collected, message("읽지 않음: ", "never read: ") + refused.sentence()
            ), None
        except ListStopped as stopped:
            return KindCoverage(stopped.status, stopped.detail), None
        except ApiError as error:
            return _coverage_for(error), None
        detail = (
            message("네임스페이스: {names}", "namespaces: {names}", names=", ".join(namespaces))
            if namespaces and resource.namespaced
            else ""
        )
        if digest is not None:
            self._event_uids |= digest.uids
        return KindCoverage(Coverage.read, detail), items

    def _not_found(self, key: str) -> KindCoverage:
        malformed = self._discovery.malformed_for(key)
        if malformed:
            return KindCoverage(
                Coverage.malformed,
                message("디스커버리 응답 형식이 잘못됨: ", "discovery was malformed: ") + malformed,
            )
        failure = self._discovery.failure_for(key)
        if failure:
            return KindCoverage(Coverage.failed, message("디스커버리 실패: ", "discovery failed: ") + failure)
        return KindCoverage(Coverage.absent, f"the API server does not serve {key}")


def _coverage_for(error: ApiError) -> KindCoverage:
    """Forbidden for 401/403, failed for everything else, 404 included.

    The kind was listed by discovery, so a 404 on its LIST is a read that failed (an aggregated API
    that went away, a proxy in the way, a server that lies), never a sign the kind is not served:
    only "not in discovery" is absent, or a check would pass on what it never saw.
    """
    if error.status in (401, 403):
        return KindCoverage(Coverage.forbidden, error.sentence())
    if error.status == 404:
        return KindCoverage(
            Coverage.failed,
            message(
                "디스커버리가 알린 종류인데 목록 요청이 404를 받았습니다:",
                "discovery lists this kind, yet its LIST answered 404:",
            )
            + error.sentence(),
        )
    return KindCoverage(Coverage.failed, error.sentence())


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
