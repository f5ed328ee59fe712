"""The server's one cluster scan: run in a background thread, kept in memory, rescanned on request.

A live scan can take minutes on a large cluster, so the server answers at once and the page says
"scanning" until the report is there. Every failure ends as a one-line message in the state (a
KubegapError's own line; anything else is logged and named), so no page can turn it into a 500.
Rescans are rate-limited: at most one start per `min_interval` seconds, and never two at a time;
they are started by a POST carrying `action_token` (web/security.py), never by a GET.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from kubegap.checker.fleet.report import FleetReport
from kubegap.checker.scan_report import ScanReport
from kubegap.errors import KubegapError
from kubegap.redaction import redact_text
from kubegap.unexpected import describe
from kubegap.web.cluster_source import OFF, ClusterSource

_LOG = logging.getLogger("kubegap.web")

RESCAN_INTERVAL = 30.0

Scanner = Callable[
    [], ScanReport | FleetReport
]  # a fleet scan (serve --context a --context b) gives the latter


@dataclass(frozen=True)
class ScanState:
    """What the pages read: `state` is off, waiting (not started yet), scanning, done or error."""

    state: str
    source: ClusterSource
    report: ScanReport | None = None
    error: str = ""
    started_at: str = ""
    finished_at: str = ""
    fleet: FleetReport | None = None  # set instead of `report` when several clusters were scanned


@dataclass(frozen=True)
class RescanOutcome:
    """started, running (a scan is under way), too-soon (`wait` seconds left) or off."""

    outcome: str
    wait: int = 0


def _now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _default_scanner(source: ClusterSource) -> Scanner | None:
    request = source.request
    if request is None:
        return None

    def scan() -> ScanReport:
        from kubegap.checker.scanning import run_scan

        return run_scan(request)

    return scan


class ClusterScan:
    """Holds the latest scan of one source; safe to read from the event loop while a thread scans."""

    def __init__(
        self,
        source: ClusterSource = OFF,
        scanner: Scanner | None = None,
        *,
        min_interval: float = RESCAN_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._source = source
        self._scanner = scanner if scanner is not None else _default_scanner(source)
        self._min_interval = min_interval
        self._clock = clock
        self._lock = threading.Lock()
        self._state = ScanState("off" if self._scanner is None else "waiting", source)
        self._last_start: float | None = None
        self._thread: threading.Thread | None = None
        # Shown in the cluster page's rescan form and required by the POST that starts a scan, so a
        # page on another site (which cannot read ours) cannot start one.
        self.action_token = secrets.token_urlsafe(24)
        # Keys the opaque ids that stand for context names in URLs (a name can hold a credential).
        self.link_key = secrets.token_bytes(32)

    @classmethod
    def off(cls) -> ClusterScan:
        return cls(OFF)

    @property
    def source(self) -> ClusterSource:
        return self._source

    def state(self) -> ScanState:
        with self._lock:
            return self._state

    def start(self) -> bool:
        """Begin a scan in a daemon thread; False when scanning is off or a scan is already running."""
        if not self._claim():
            return False
        self._thread = threading.Thread(target=self._run, name="kubegap-cluster-scan", daemon=True)
        self._thread.start()
        return True

    def run_now(self) -> ScanState:
        """Scan in the calling thread (tests, and callers that want the report before serving)."""
        if self._claim():
            self._run()
        return self.state()

    def wait(self, timeout: float | None = None) -> ScanState:
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return self.state()

    def request_rescan(self) -> RescanOutcome:
        """Start another scan unless one is running or the last one started under `min_interval` ago."""
        with self._lock:
            if self._scanner is None:
                return RescanOutcome("off")
            if self._state.state == "scanning":
                return RescanOutcome("running")
            if self._last_start is not None:
                left = self._min_interval - (self._clock() - self._last_start)
                if left > 0:
                    return RescanOutcome("too-soon", max(1, int(left + 0.999)))
        return RescanOutcome("started") if self.start() else RescanOutcome("running")

    def _claim(self) -> bool:
        with self._lock:
            if self._scanner is None or self._state.state == "scanning":
                return False
            self._last_start = self._clock()
            previous = self._state
            self._state = ScanState(
                "scanning", self._source, previous.report, "", _now(), fleet=previous.fleet
            )
            return True

    def _run(self) -> None:
        scanner = self._scanner
        assert scanner is not None  # _claim refuses to start without one
        report: ScanReport | None = None
        fleet: FleetReport | None = None
        error = ""
        try:
            result = scanner()
            if isinstance(result, FleetReport):
                fleet = result
            else:
                report = result
        except KubegapError as problem:
            error = problem.one_line()
        except Exception as problem:  # a bug in a check or a client: one redacted line, shown and logged
            error = f"unexpected {type(problem).__name__}: {' '.join(str(problem).split())}"  # redacted below
            _LOG.error("cluster scan failed: %s", describe(problem))
        with self._lock:
            started = self._state.started_at
            if fleet is not None:
                self._state = ScanState("done", self._source, None, "", started, _now(), fleet)
            elif report is not None:
                self._state = ScanState("done", self._source, report, "", started, _now())
            else:
                text = redact_text(error, limit=500) or "the scan failed"
                self._state = ScanState("error", self._source, None, text, started, _now())
