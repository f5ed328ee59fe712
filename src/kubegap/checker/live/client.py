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
from kubegap.bilingual import Message, message
from kubegap.checker.live.bounded_http import (
    BodyTooLarge,
    RequestDeadline,
    install_deadlines,
    mebibytes,
    read_bounded,
    request_deadline,
)
from kubegap.checker.live.credentials import prepare
from kubegap.checker.live.kubeconfig import choose_context, clean, load_error, resolve_kubeconfig
from kubegap.checker.live.request_paths import ReadOnlyViolation, check_path
from kubegap.errors import ClusterError, KubeconfigError, KubegapError

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
# The operating system's words for the usual socket failures, as a Korean engineer would say them.
_KOREAN_SOCKET_ERRORS = {
    "connection refused": "연결이 거부됐습니다",
    "connection reset by peer": "상대가 연결을 끊었습니다",
    "no route to host": "호스트로 가는 경로가 없습니다",
    "network is unreachable": "네트워크에 닿을 수 없습니다",
    "connection timed out": "연결 시간이 초과됐습니다",
}
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
        self.host: str = _without_userinfo(str(configuration.host))  # for messages; requests use the original
        # False for https with insecure-skip-tls-verify: the scan says so once (urllib3 warned on
        # every connection).
        self.verifies_tls = bool(configuration.verify_ssl) or not self.host.startswith("https://")
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
        self.reads_logs = False  # True only when the user passed --logs: pods/log GETs then pass

    @classmethod
    def from_kubeconfig(
        cls,
        kubeconfig: str | None = None,
        context: str | None = None,
        *,
        credential_deadline: float | None = None,
        **options: Any,
    ) -> ReadOnlyClient:
        """Load auth like kubectl: `kubeconfig`, else $KUBECONFIG, else ~/.kube/config, else in-cluster.

        A credential plugin (exec) must finish by `credential_deadline` (a time.monotonic() value, the
        scan's), and within a minute in any case; see `credentials` for what else is checked first.
        """
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
                    raise ClusterError(
                        message(
                            "클러스터 안 설정을 읽지 못했습니다: {error}",
                            "in-cluster config could not be loaded: {error}",
                            error=clean(error),
                        )
                    ) from None
                client = cls(configuration, **options)
                client.in_cluster = True
                return client
            raise KubeconfigError(
                message(
                    "kubeconfig가 없고(KUBECONFIG가 설정되지 않았고 ~/.kube/config도 없음) 클러스터 안에서 "
                    "실행 중도 아닙니다. `kubegap scan --demo`나 `kubegap scan --snapshot FILE`을 써 보세요.",
                    "No kubeconfig found (KUBECONFIG is unset and ~/.kube/config does not exist) and not "
                    "running inside a cluster; {hint}.",
                    hint=_DEMO_HINT,
                )
            )
        chosen = choose_context(path, context)  # a clear one-line error for any broken file
        prepared = prepare(chosen, credential_deadline)  # tokenFile read, exec plugin run, both bounded
        try:
            kube_config.load_kube_config_from_dict(
                prepared.config, context=chosen.name, client_configuration=configuration, persist_config=False
            )
            client = cls(configuration, kubeconfig=path, context=chosen.name, **options)
        except Exception as error:  # the client raises anything from a bad certificate or data field
            raise load_error(path, context, error) from None
        if prepared.renew is not None:
            configuration.refresh_api_key_hook = prepared.renew  # type: ignore[assignment]
        return client

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
        status, body = self._fetch(path, params, deadline, max_bytes, "application/json")
        return self._decode(path, status, body), len(body)

    def get_log(
        self,
        namespace: str,
        pod: str,
        container: str,
        *,
        previous: bool,
        tail_lines: int,
        limit_bytes: int,
        deadline: float | None = None,
    ) -> str:
        """The last `tail_lines` lines (at most `limit_bytes`) of one container's log, as text.

        Refused before any I/O unless `reads_logs` is set (the user passed --logs); the path guard
        lets only this bounded GET of the `log` subresource through (request_paths.py).
        """
        path = f"/api/v1/namespaces/{namespace}/pods/{pod}/log"
        params: dict[str, str | int] = {
            "container": container,
            "tailLines": tail_lines,
            "limitBytes": limit_bytes,
            "previous": "true" if previous else "false",
        }
        check_path(path, params, logs=self.reads_logs)
        _, body = self._fetch(path, params, deadline, limit_bytes + 4096, "text/plain")
        return body[:limit_bytes].decode("utf-8", errors="replace")

    def _fetch(
        self,
        path: str,
        params: Mapping[str, str | int] | None,
        deadline: float | None,
        max_bytes: int | None,
        accept: str,
    ) -> tuple[int, bytes]:
        """One GET with bounded retries, after check_path passed; (status, body) of a 2xx answer."""
        query = [(key, str(value)) for key, value in (params or {}).items()]
        cap = max_bytes or self.max_page_bytes
        attempt = 0
        while True:
            self._bucket.take()  # the rate limit may sleep: the deadlines are taken after it
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                raise ApiError(
                    message(
                        "GET {path:을} 보내지 않았습니다: 스캔의 시간 예산이 다 됐습니다",
                        "GET {path} was not sent: the scan's time budget ran out",
                        path=path,
                    ),
                    path=path,
                    limit="scan-deadline",
                )
            request_deadline = now + self.timeout if deadline is None else min(now + self.timeout, deadline)
            with self._count_lock:
                self._count += 1
            try:
                status, headers, body = self._send_get(path, query, request_deadline, cap, accept)
            except ConfigException as error:  # an exec plugin or token file failed while refreshing
                raise ClusterError(
                    message(
                        "{host}의 자격 증명을 갱신하지 못했습니다: {error}",
                        "credentials for {host} could not be refreshed: {error}",
                        host=self.host,
                        error=clean(error),
                    )
                ) from None
            except BodyTooLarge as error:
                raise ApiError(
                    message(
                        "GET {path}의 응답이 {cap:을} 넘어(적어도 {size}) 페이지 크기 한도에서 멈췄습니다",
                        "GET {path} answered more than {cap} (at least {size}); "
                        "the page byte limit stopped it",
                        path=path,
                        cap=mebibytes(cap),
                        size=mebibytes(error.size),
                    ),
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
            except KubegapError:  # a credential plugin that failed while renewing a token: its own line
                raise
            except Exception as failure:  # anything else the HTTP stack raises: its text may quote a
                # header (a token), so only its type is named
                raise ClusterError(
                    message(
                        "GET {path:을} 보내지 못했습니다({kind})",
                        "GET {path} could not be sent ({kind})",
                        path=path,
                        kind=type(failure).__name__,
                    )
                ) from None
            if 200 <= status < 300:
                return status, body
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
        self, path: str, query: list[tuple[str, str]], deadline: float, max_bytes: int, accept: str
    ) -> tuple[int, Mapping[str, str], bytes]:
        """The single place bytes leave: the method is the literal "GET", never a parameter."""
        with request_deadline(deadline):  # cuts off a server that trickles its headers, and bounds a
            # credential plugin that runs again to renew an expired token (while auth is serialised)
            method, url, headers, _, _ = self._api.param_serialize(
                "GET",
                path,
                query_params=query,
                header_params={"Accept": accept},
                auth_settings=["BearerToken"],
            )
            per_operation = max(0.001, min(self.timeout, deadline - time.monotonic()))
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
                message(
                    "GET {path:이} {status:로} 답했지만 본문이 JSON이 아닙니다",
                    "GET {path} answered {status} with a body that is not JSON",
                    path=path,
                    status=str(status),
                ),
                status=status,
                path=path,
            ) from None
        if not isinstance(parsed, dict):
            raise MalformedBody(
                message(
                    "GET {path:이} {status:로} 답했지만 JSON이 객체가 아닙니다",
                    "GET {path} answered {status} with JSON that is not an object",
                    path=path,
                    status=str(status),
                ),
                status=status,
                path=path,
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
        answered = (
            message(
                "GET {path:이} {status:로} 답했고",
                "GET {path} answered {status};",
                path=path,
                status=str(status),
            )
            if status
            else message("GET {path:이} 답하지 않았고", "GET {path} got no answer;", path=path)
        )
        if self.retry_wait_spent + wait > self.max_total_retry_wait:
            raise ApiError(
                answered
                + message(
                    "다시 시도하지 않았습니다: 이 스캔은 재시도 예산 {budget}초 가운데 "
                    "이미 {spent}초를 기다렸습니다",
                    "not retried: this scan already waited {spent} s of its {budget} s retry budget",
                    spent=f"{self.retry_wait_spent:.0f}",
                    budget=f"{self.max_total_retry_wait:g}",
                ),
                status=status,
                path=path,
                limit="retry-budget",
            )
        if deadline is not None and time.monotonic() + wait >= deadline:
            raise ApiError(
                answered
                + message(
                    "다시 시도하지 않았습니다: 기다리면 스캔의 시간 예산을 넘깁니다",
                    "not retried: the wait would pass the scan's time budget",
                ),
                status=status,
                path=path,
                limit="scan-deadline",
            )
        self.retry_wait_spent += wait
        self._sleep(wait)

    def _unreachable(self, path: str, error: BaseException, cut_by_scan: bool) -> ApiError:
        if cut_by_scan:
            return ApiError(
                message(
                    "GET {path:이} 중간에 끊겼습니다: 스캔의 시간 예산이 다 됐습니다",
                    "GET {path} was cut off: the scan's time budget ran out",
                    path=path,
                ),
                path=path,
                limit="scan-deadline",
            )
        if isinstance(error, RequestDeadline):
            return ApiError(
                message(
                    "GET {path:이} {seconds}초 안에 응답을 다 받지 못해 시간 초과됐습니다",
                    "GET {path} timed out after {seconds}s without a complete answer",
                    path=path,
                    seconds=f"{self.timeout:g}",
                ),
                path=path,
                limit="request-timeout",
            )
        return ApiError(
            message(
                "{host}의 Kubernetes API에 닿지 못했습니다: {why}",
                "cannot reach the Kubernetes API at {host}: {why}",
                host=self.host,
                why=self._explain(error),
            ),
            path=path,
        )

    def _explain(self, error: BaseException) -> Message:
        if isinstance(error, urllib3.exceptions.ReadTimeoutError):
            return message(
                "{seconds}초 동안 응답이 없어 시간 초과됐습니다",
                "timed out after {seconds}s without an answer",
                seconds=f"{self.timeout:g}",
            )
        if isinstance(error, urllib3.exceptions.NameResolutionError):
            return message("호스트 이름을 찾을 수 없습니다", "the host name does not resolve")
        if isinstance(error, urllib3.exceptions.NewConnectionError):
            cause = error.__cause__ or error.__context__
            reason = getattr(cause, "strerror", None) or str(error).rsplit(":", 1)[-1]
            said = str(reason).strip().lower()
            if said in _KOREAN_SOCKET_ERRORS:
                return message(_KOREAN_SOCKET_ERRORS[said], "{reason}", reason=said)
            if said:
                return message("연결하지 못했습니다({reason})", "{reason}", reason=said)
            return message("연결하지 못했습니다", "connection failed")
        # The kubernetes REST layer re-raises urllib3's SSLError as ApiException(reason="SSLError\n...").
        text = str(error.reason or "") if isinstance(error, ApiException) else str(error)
        if isinstance(error, urllib3.exceptions.SSLError) or text.startswith("SSLError"):
            reason = text.split("]", 1)[-1].split("(_ssl", 1)[0].strip()
            return message(
                "TLS 검증에 실패했습니다({reason}). 클러스터의 CA 인증서를 확인하세요",
                "TLS verification failed ({reason}); check the cluster's CA certificate",
                reason=reason or "handshake error",
            )
        if isinstance(error, urllib3.exceptions.ConnectTimeoutError):
            return message(
                "{seconds}초 안에 연결되지 않았습니다",
                "connection timed out after {seconds}s",
                seconds=f"{self.timeout:g}",
            )
        if isinstance(error, ApiException):
            said = clean(error.reason or "")
            return message(
                "TLS 또는 프로토콜 오류: {reason}", "{reason}", reason=said or "TLS or protocol error"
            )
        if isinstance(error, urllib3.exceptions.ProtocolError):
            return message("연결이 끊겼습니다", "the connection was dropped")
        said = clean(error) or type(error).__name__
        return message("연결 오류: {reason}", "{reason}", reason=said)


def _without_userinfo(url: str) -> str:
    """A server URL as shown in messages: `https://user:password@host` loses `user:password@`."""
    scheme, separator, rest = url.partition("://")
    authority, slash, path = rest.partition("/")
    return f"{scheme}{separator}{authority.rpartition('@')[2]}{slash}{path}" if separator else url


def _parse_retry_after(value: str, fallback: float) -> float:
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return fallback
    return moment.timestamp() - time.time()


def _status_message(path: str, status: int, body: bytes, attempt: int) -> Message:
    """One line from a Kubernetes Status body, e.g. 'GET /api/v1/nodes answered 403: nodes is forbidden'.

    The server's own words (`detail`) stay as the server wrote them, in both languages.
    """
    detail = ""
    try:
        parsed = orjson.loads(body) if body else None
    except orjson.JSONDecodeError:
        parsed = None
    if isinstance(parsed, dict):
        detail = clean(parsed.get("message") or parsed.get("reason") or "", 500)
    said = message(
        "GET {path:이} {status:로} 답했습니다", "GET {path} answered {status}", path=path, status=str(status)
    )
    if attempt:
        said = message(
            "GET {path:이} {attempt}번 다시 시도한 뒤에도 {status:로} 답했습니다",
            "GET {path} answered {status} after {attempt} retries",
            path=path,
            status=str(status),
            attempt=attempt,
        )
    return said + f": {detail}" if detail else said
