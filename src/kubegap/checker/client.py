"""The one read-only chokepoint between kubegap and a Kubernetes API server.

`ReadOnlyClient.get` is the only method that talks to the cluster, and it can only send GET: there is
no generic `request(method, ...)` to misuse. Before any I/O, every path is checked: anything naming the
`secrets` resource (in any group or namespace), a watch, or a pod exec/attach/log/proxy subresource is
refused. Auth comes from the official `kubernetes` client's config loaders, so client certificates,
bearer tokens, exec plugins, auth providers and in-cluster service accounts all work as in kubectl,
and requests go through that client's own REST layer (which refreshes exec-plugin tokens).
"""

from __future__ import annotations

import email.utils
import os
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import orjson
import urllib3
from kubernetes import client as kube_client
from kubernetes import config as kube_config
from kubernetes.client.exceptions import ApiException
from kubernetes.config.config_exception import ConfigException

from kubegap import __version__
from kubegap.bilingual import message
from kubegap.checker.bounded_http import (
    BodyTooLarge,
    RequestDeadline,
    install_deadlines,
    mebibytes,
    read_bounded,
    request_deadline,
)
from kubegap.checker.kubeconfig import (
    check_kubeconfig,
    client_errors,
    exec_error,
    load_error,
    resolve_kubeconfig,
)
from kubegap.checker.request_paths import ReadOnlyViolation, check_path
from kubegap.errors import ClusterError

__all__ = [
    "ApiError",
    "MalformedBody",
    "ReadOnlyClient",
    "ReadOnlyViolation",
    "check_path",
    "resolve_kubeconfig",
]

RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504})
# A refused or timed-out connection rarely heals within seconds: retry it less than an overloaded server.
_CONNECTION_RETRIES = 2
# Where a pod's service account is mounted; a module attribute so tests can point it at a temp dir.
SERVICE_ACCOUNT_DIR = Path("/var/run/secrets/kubernetes.io/serviceaccount")
_DEMO_HINT = "try `kubegap scan --demo` or `kubegap scan --snapshot FILE`"


class ApiError(ClusterError):
    """A request that failed after retries: `status` is the HTTP status, or 0 when no response came.

    `limit` names the bound that ended it ("request-timeout", "page-bytes", "retry-budget",
    "scan-deadline"), or is "" for an ordinary failure, so the reader can say which limit spoiled a kind.
    """

    def __init__(self, message: str, *, status: int = 0, path: str = "", limit: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.path = path
        self.limit = limit


class MalformedBody(ApiError):
    """The server answered 2xx with a body that is not a JSON object of the expected shape."""


class _TokenBucket:
    """Client-side rate limit like client-go's: `rate` requests a second with bursts up to `burst`."""

    def __init__(self, rate: float, burst: int, sleep: Callable[[float], None]) -> None:
        self._rate = rate
        self._burst = max(1, burst)
        self._tokens = float(self._burst)
        self._stamp = time.monotonic()
        self._sleep = sleep
        self._lock = threading.Lock()

    def take(self) -> None:
        if self._rate <= 0:
            return
        with self._lock:
            now = time.monotonic()
            self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
            self._stamp = now
            wait = 0.0 if self._tokens >= 1 else (1 - self._tokens) / self._rate
            self._tokens -= 1
        if wait > 0:
            self._sleep(wait)


class ReadOnlyClient:
    """GET-only access to one API server, rate limited, with bounded retries and a request counter."""

    def __init__(
        self,
        configuration: kube_client.Configuration,
        *,
        kubeconfig: str = "",
        context: str = "",
        qps: float = 20,
        burst: int = 40,
        timeout: float = 30,
        max_retries: int = 4,
        max_retry_wait: float = 10.0,
        max_total_retry_wait: float = 60.0,
        max_page_bytes: int = 64 * 1024 * 1024,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        configuration.retries = False  # retries are ours, so they are bounded and counted
        self._api = kube_client.ApiClient(configuration)
        install_deadlines(self._api.rest_client.pool_manager)
        self._api.user_agent = f"kubegap/{__version__} (read-only)"
        self.host: str = str(configuration.host)
        self.kubeconfig = kubeconfig  # the file(s) read, "" when in-cluster or built by hand
        self.context = context  # the context used, "" when in-cluster
        self.in_cluster = False  # True when auth came from the pod's service account
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.max_total_retry_wait = max_total_retry_wait
        self.max_page_bytes = max_page_bytes
        self.retry_wait_spent = 0.0  # seconds slept before retries, across every request of this client
        self._sleep = sleep
        self._bucket = _TokenBucket(qps, burst, sleep)
        self._count = 0
        self._count_lock = threading.Lock()

    @classmethod
    def from_kubeconfig(
        cls, kubeconfig: str | None = None, context: str | None = None, **options: Any
    ) -> ReadOnlyClient:
        """Load auth like kubectl: `kubeconfig`, else $KUBECONFIG, else ~/.kube/config, else in-cluster."""
        configuration = kube_client.Configuration()
        path = resolve_kubeconfig(kubeconfig)
        if path is None:
            token = SERVICE_ACCOUNT_DIR / "token"
            if os.environ.get("KUBERNETES_SERVICE_HOST") and token.exists():
                loader = kube_config.incluster_config.InClusterConfigLoader(
                    token_filename=str(token), cert_filename=str(SERVICE_ACCOUNT_DIR / "ca.crt")
                )
                try:
                    loader.load_and_set(configuration)
                except ConfigException as error:
                    raise ClusterError(f"in-cluster config could not be loaded: {error}") from None
                client = cls(configuration, **options)
                client.in_cluster = True
                return client
            raise ClusterError(
                "No kubeconfig found (KUBECONFIG is unset and ~/.kube/config does not exist) and not "
                f"running inside a cluster; {_DEMO_HINT}."
            )
        chosen = check_kubeconfig(path, context)  # a clear one-line error for any broken file
        try:
            with client_errors() as logged:
                kube_config.load_kube_config(
                    config_file=path, context=chosen, client_configuration=configuration, persist_config=False
                )
        except Exception as error:  # the client raises anything from a bad certificate or exec plugin
            raise load_error(path, context, error) from None
        if logged:
            raise exec_error(path, chosen, logged)
        return cls(configuration, kubeconfig=path, context=str(chosen), **options)

    @property
    def requests(self) -> int:
        """How many HTTP requests were sent, retries included."""
        return self._count

    def describe(self) -> str:
        """Where this client reads from, for reports: 'context prod (/home/me/.kube/config)'."""
        if self.kubeconfig:
            return message(
                "컨텍스트 {ko_context} ({path})",
                "context {context} ({path})",
                context=self.context or "(default)",
                ko_context=self.context or "(기본)",
                path=self.kubeconfig,
            )
        return f"in-cluster service account ({self.host})" if self.in_cluster else self.host

    def get(
        self,
        path: str,
        params: Mapping[str, str | int] | None = None,
        *,
        deadline: float | None = None,
        max_bytes: int | None = None,
    ) -> dict[str, Any]:
        """GET one API path and return its JSON object; raise ApiError for any failure after retries."""
        return self.get_sized(path, params, deadline=deadline, max_bytes=max_bytes)[0]

    def get_sized(
        self,
        path: str,
        params: Mapping[str, str | int] | None = None,
        *,
        deadline: float | None = None,
        max_bytes: int | None = None,
    ) -> tuple[dict[str, Any], int]:
        """`get`, with the size of the body in bytes (the reader counts bytes per kind).

        Each attempt must deliver its whole body within `timeout` seconds (connect included) and in at
        most `max_bytes` bytes; `deadline` (a time.monotonic() value) is the scan's, which no attempt
        and no retry wait may pass.
        """
        check_path(path, params)
        query = [(key, str(value)) for key, value in (params or {}).items()]
        cap = max_bytes or self.max_page_bytes
        attempt = 0
        while True:
            self._bucket.take()  # the rate limit may sleep: the deadlines are taken after it
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                raise ApiError(
                    f"GET {path} was not sent: the scan's time budget ran out",
                    path=path,
                    limit="scan-deadline",
                )
            request_deadline = now + self.timeout if deadline is None else min(now + self.timeout, deadline)
            with self._count_lock:
                self._count += 1
            try:
                status, headers, body = self._send_get(path, query, request_deadline, cap)
            except ConfigException as error:  # an exec plugin or token file failed while refreshing
                raise ClusterError(f"credentials for {self.host} could not be refreshed: {error}") from None
            except BodyTooLarge as error:
                raise ApiError(
                    f"GET {path} answered more than {mebibytes(cap)} (at least {mebibytes(error.size)}); "
                    "the page byte limit stopped it",
                    status=200,
                    path=path,
                    limit="page-bytes",
                ) from None
            except (RequestDeadline, urllib3.exceptions.HTTPError, ApiException, OSError) as failure:
                # When the deadline cut the connection, say so rather than "the connection was dropped".
                cut = time.monotonic() >= request_deadline - 0.01
                problem: BaseException = RequestDeadline() if cut else failure
                cut_by_scan = deadline is not None and time.monotonic() >= deadline - 0.01
                if cut_by_scan or attempt >= min(self.max_retries, _CONNECTION_RETRIES):
                    raise self._unreachable(path, problem, cut_by_scan) from None
                self._wait(path, 0, attempt, None, deadline)
                attempt += 1
                continue
            if 200 <= status < 300:
                return self._decode(path, status, body), len(body)
            if status in RETRYABLE_STATUSES and attempt < self.max_retries:
                self._wait(path, status, attempt, headers.get("Retry-After"), deadline)
                attempt += 1
                continue
            raise ApiError(_status_message(path, status, body, attempt), status=status, path=path)

    def close(self) -> None:
        self._api.close()

    def __enter__(self) -> ReadOnlyClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _send_get(
        self, path: str, query: list[tuple[str, str]], deadline: float, max_bytes: int
    ) -> tuple[int, Mapping[str, str], bytes]:
        """The single place bytes leave: the method is the literal "GET", never a parameter."""
        method, url, headers, _, _ = self._api.param_serialize(
            "GET",
            path,
            query_params=query,
            header_params={"Accept": "application/json"},
            auth_settings=["BearerToken"],
        )
        per_operation = max(0.001, min(self.timeout, deadline - time.monotonic()))
        with request_deadline(deadline):  # cuts off a server that trickles its headers too
            response = self._api.call_api(
                method, url, header_params=headers, _request_timeout=(per_operation, per_operation)
            )
        raw = response.response
        complete = False
        try:
            body = read_bounded(raw, deadline, max_bytes, self.timeout)
            complete = True
        finally:
            if complete:
                raw.release_conn()
            else:
                raw.close()  # a half-read connection must never go back to the pool
        return response.status, response.headers, body

    def _decode(self, path: str, status: int, body: bytes) -> dict[str, Any]:
        try:
            parsed = orjson.loads(body)
        except orjson.JSONDecodeError:
            raise MalformedBody(
                f"GET {path} answered {status} with a body that is not JSON", status=status, path=path
            ) from None
        if not isinstance(parsed, dict):
            raise MalformedBody(
                f"GET {path} answered {status} with JSON that is not an object", status=status, path=path
            )
        return parsed

    def _backoff(self, attempt: int, retry_after: str | None) -> float:
        """Seconds to wait before retry `attempt`: Retry-After when given, else doubling; both capped."""
        wait = 0.25 * (2**attempt)
        if retry_after:
            wait = _parse_retry_after(retry_after, wait)
        return max(0.0, min(wait, self.max_retry_wait))

    def _wait(
        self, path: str, status: int, attempt: int, retry_after: str | None, deadline: float | None
    ) -> None:
        """Sleep before a retry, unless that would spend the scan's retry budget or pass its deadline."""
        wait = self._backoff(attempt, retry_after)
        answered = f"answered {status}" if status else "got no answer"
        if self.retry_wait_spent + wait > self.max_total_retry_wait:
            raise ApiError(
                f"GET {path} {answered}; not retried: this scan already waited "
                f"{self.retry_wait_spent:.0f} s of its {self.max_total_retry_wait:g} s retry budget",
                status=status,
                path=path,
                limit="retry-budget",
            )
        if deadline is not None and time.monotonic() + wait >= deadline:
            raise ApiError(
                f"GET {path} {answered}; not retried: the wait would pass the scan's time budget",
                status=status,
                path=path,
                limit="scan-deadline",
            )
        self.retry_wait_spent += wait
        self._sleep(wait)

    def _unreachable(self, path: str, error: BaseException, cut_by_scan: bool) -> ApiError:
        if cut_by_scan:
            return ApiError(
                f"GET {path} was cut off: the scan's time budget ran out", path=path, limit="scan-deadline"
            )
        if isinstance(error, RequestDeadline):
            return ApiError(
                f"GET {path} timed out after {self.timeout:g}s without a complete answer",
                path=path,
                limit="request-timeout",
            )
        return ApiError(f"cannot reach the Kubernetes API at {self.host}: {self._explain(error)}", path=path)

    def _explain(self, error: BaseException) -> str:
        if isinstance(error, urllib3.exceptions.ReadTimeoutError):
            return f"timed out after {self.timeout:g}s without an answer"
        if isinstance(error, urllib3.exceptions.NameResolutionError):
            return "the host name does not resolve"
        if isinstance(error, urllib3.exceptions.NewConnectionError):
            cause = error.__cause__ or error.__context__
            reason = getattr(cause, "strerror", None) or str(error).rsplit(":", 1)[-1]
            return str(reason).strip().lower() or "connection failed"
        # The kubernetes REST layer re-raises urllib3's SSLError as ApiException(reason="SSLError\n...").
        text = str(error.reason or "") if isinstance(error, ApiException) else str(error)
        if isinstance(error, urllib3.exceptions.SSLError) or text.startswith("SSLError"):
            reason = text.split("]", 1)[-1].split("(_ssl", 1)[0].strip()
            return (
                f"TLS verification failed ({reason or 'handshake error'}); check the cluster's CA certificate"
            )
        if isinstance(error, urllib3.exceptions.ConnectTimeoutError):
            return f"connection timed out after {self.timeout:g}s"
        if isinstance(error, ApiException):
            return " ".join(str(error.reason or "TLS or protocol error").split())
        if isinstance(error, urllib3.exceptions.ProtocolError):
            return "the connection was dropped"
        return " ".join(str(error).split()) or type(error).__name__


def _parse_retry_after(value: str, fallback: float) -> float:
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return fallback
    return moment.timestamp() - time.time()


def _status_message(path: str, status: int, body: bytes, attempt: int) -> str:
    """One line from a Kubernetes Status body, e.g. 'GET /api/v1/nodes: 403 Forbidden: nodes is forbidden'."""
    detail = ""
    try:
        parsed = orjson.loads(body) if body else None
    except orjson.JSONDecodeError:
        parsed = None
    if isinstance(parsed, dict):
        detail = str(parsed.get("message") or parsed.get("reason") or "")
    retried = f" after {attempt} retries" if attempt else ""
    text = f"GET {path} answered {status}{retried}" + (f": {detail}" if detail else "")
    return " ".join(text.split())
