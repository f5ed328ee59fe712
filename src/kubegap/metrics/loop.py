"""The exporter's scan loop: one fleet scan per interval on a background thread.

With no context named, the one target is "the cluster kubectl would use", which inside a pod is the
service account's own cluster. `--all-contexts` re-reads the kubeconfig every round, so a context
added to the file is scraped from the next round on without a restart.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import click

from kubegap.checker.fleet import FleetRequest, resolve_contexts, scan_fleet
from kubegap.checker.fleet.report import ClusterResult
from kubegap.checker.fleet.scan import scan_one
from kubegap.checker.scanning import ScanRequest
from kubegap.errors import KubegapError
from kubegap.metrics.state import ExporterState
from kubegap.unexpected import describe

Scanner = Callable[[str, ScanRequest], ClusterResult]


@dataclass(frozen=True)
class Targets:
    """What each round scans: named contexts, every context, or ("") the default cluster."""

    request: ScanRequest
    contexts: tuple[str, ...] = ()
    all_contexts: bool = False
    default_name: str = "in-cluster"  # the `cluster` label of the default target
    concurrency: int = 4

    def resolve(self) -> list[str]:
        if not self.contexts and not self.all_contexts:
            return [""]
        return resolve_contexts(self.request.live.kubeconfig, self.contexts, self.all_contexts)


class ScanLoop:
    def __init__(
        self, targets: Targets, state: ExporterState, interval: float, scanner: Scanner = scan_one
    ) -> None:
        self._targets = targets
        self._state = state
        self._interval = interval
        self._scanner = scanner
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_round(self) -> None:
        """Scan every target once and fold the results into the state; never raises."""
        try:
            names = self._targets.resolve()
        except KubegapError as error:
            click.echo(f"Error: {error.one_line()} (retrying in {self._interval:g}s)", err=True)
            self._state.finish_round()
            return
        request = FleetRequest(names, self._targets.request, self._targets.concurrency)
        fleet = scan_fleet(request, scanner=self._scanner)
        for result in fleet.clusters:
            self._state.record(result, name=result.name or self._targets.default_name)
            if result.report is None:
                click.echo(f"{result.name or self._targets.default_name}: {result.error}", err=True)
        self._state.finish_round()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._forever, name="kubegap-exporter", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _forever(self) -> None:
        while not self._stop.is_set():
            try:
                self.run_round()
            except Exception as error:  # a bug must not end the loop (stale metrics) or print a traceback
                click.echo(f"Error: unexpected {describe(error)} (retrying in {self._interval:g}s)", err=True)
                self._state.finish_round()
            self._stop.wait(self._interval)
