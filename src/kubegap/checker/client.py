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
from urllib.parse import unquote

import orjson
import urllib3
from kubernetes import client as kube_client
from kubernetes import config as kube_config
from kubernetes.client.exceptions import ApiException
from kubernetes.config.config_exception import ConfigException

from kubegap import __version__
from kubegap.errors import ClusterError

RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504})
# A refused or timed-out connection rarely heals within seconds: retry it less than an overloaded server.
_CONNECTION_RETRIES = 2
_REFUSED_SUBRESOURCES = frozenset({"exec", "attach", "log", "portforward", "proxy", "eviction", "binding"})
# Where a pod's service account is mounted; a module attribute so tests can point it at a temp dir.
SERVICE_ACCOUNT_DIR = Path("/var/run/secrets/kubernetes.io/serviceaccount")
_DEMO_HINT = "try `kubegap scan --demo` or `kubegap scan --snapshot FILE`"


class ApiError(ClusterError):
    """A request that failed after retries: `status` is the HTTP status, or 0 when no response came."""

    def __init__(self, message: str, *, status: int = 0, path: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.path = path


class ReadOnlyViolation(ClusterError):
    """A request kubegap must never send (Secrets, watch, exec, logs); raised before any I/O."""

    code = "read-only-violation"


def check_path(path: str, params: Mapping[str, object] | None = None) -> None:
    """Refuse any request that could read Secrets or do more than a plain read."""
    if not path.startswith("/") or "://" in path or "?" in path or "#" in path:
        raise ReadOnlyViolation(f"refused request path {path!r}: give an API path without a query string")
    segments = [unquote(part) for part in path.strip("/").split("/")]
    if any(part in {".", ".."} for part in segments):
        raise ReadOnlyViolation(f"refused request path {path!r}: relative segments are not allowed")
    lowered = [part.lower() for part in segments]
    if params and any(str(key).lower() == "watch" for key in params):
        raise ReadOnlyViolation(f"refused watch request for {path}: kubegap only lists")
    resource, subresource = _resource_of(lowered)
    if resource == "secrets" or (resource is None and "secrets" in lowered):
        raise ReadOnlyViolation(f"refused request for {path}: kubegap never reads Secrets")
    if resource == "watch":
        raise ReadOnlyViolation(f"refused watch request for {path}: kubegap only lists")
    if subresource in _REFUSED_SUBRESOURCES:
        raise ReadOnlyViolation(
            f"refused request for {path}: kubegap never uses the {subresource} subresource"
        )


def _resource_of(segments: list[str]) -> tuple[str | None, str | None]:
    """(resource, subresource) of an API path; (None, None) for non-resource paths such as /version."""
    if segments[:1] == ["api"]:
        rest = segments[2:]
    elif segments[:1] == ["apis"]:
        rest = segments[3:]
    else:
        return None, None
    if not rest:
        return "", None
    if rest[0] == "watch":
        return "watch", None
    if rest[0] == "namespaces" and len(rest) >= 3:
        return rest[2], rest[4] if len(rest) > 4 else None
    return rest[0], rest[2] if len(rest) > 2 else None


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
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        configuration.retries = False  # retries are ours, so they are bounded and counted
        self._api = kube_client.ApiClient(configuration)
        self._api.user_agent = f"kubegap/{__version__} (read-only)"
        self.host: str = str(configuration.host)
        self.kubeconfig = kubeconfig  # the file(s) read, "" when in-cluster or built by hand
        self.context = context  # the context used, "" when in-cluster
        self.in_cluster = False  # True when auth came from the pod's service account
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
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
        try:
            _contexts, active = kube_config.list_kube_config_contexts(config_file=path)
            chosen = context or (active or {}).get("name", "")
            kube_config.load_kube_config(
                config_file=path, context=context, client_configuration=configuration, persist_config=False
            )
        except (ConfigException, OSError, ValueError, TypeError, KeyError) as error:
            where = f"context {context!r} in " if context else ""
            raise ClusterError(f"cannot use {where}kubeconfig {path}: {error}; {_DEMO_HINT}") from None
        return cls(configuration, kubeconfig=path, context=str(chosen), **options)

    @property
    def requests(self) -> int:
        """How many HTTP requests were sent, retries included."""
        return self._count

    def describe(self) -> str:
        """Where this client reads from, for reports: 'context prod (/home/me/.kube/config)'."""
        if self.kubeconfig:
            return f"context {self.context or '(default)'} ({self.kubeconfig})"
        return f"in-cluster service account ({self.host})" if self.in_cluster else self.host

    def get(self, path: str, params: Mapping[str, str | int] | None = None) -> dict[str, Any]:
        """GET one API path and return its JSON body; raise ApiError for any failure after retries."""
        check_path(path, params)
        query = [(key, str(value)) for key, value in (params or {}).items()]
        attempt = 0
        while True:
            self._bucket.take()
            with self._count_lock:
                self._count += 1
            try:
                status, headers, body = self._send_get(path, query)
            except ConfigException as error:  # an exec plugin or token file failed while refreshing
                raise ClusterError(f"credentials for {self.host} could not be refreshed: {error}") from None
            except (urllib3.exceptions.HTTPError, ApiException, OSError) as error:
                if attempt >= min(self.max_retries, _CONNECTION_RETRIES):
                    raise ApiError(
                        f"cannot reach the Kubernetes API at {self.host}: {self._explain(error)}", path=path
                    ) from None
                self._sleep(self._backoff(attempt, None))
                attempt += 1
                continue
            if 200 <= status < 300:
                return self._decode(path, status, body)
            if status in RETRYABLE_STATUSES and attempt < self.max_retries:
                self._sleep(self._backoff(attempt, headers.get("Retry-After")))
                attempt += 1
                continue
            raise ApiError(_status_message(path, status, body, attempt), status=status, path=path)

    def close(self) -> None:
        self._api.close()

    def __enter__(self) -> ReadOnlyClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _send_get(self, path: str, query: list[tuple[str, str]]) -> tuple[int, Mapping[str, str], bytes]:
        """The single place bytes leave: the method is the literal "GET", never a parameter."""
        method, url, headers, _, _ = self._api.param_serialize(
            "GET",
            path,
            query_params=query,
            header_params={"Accept": "application/json"},
            auth_settings=["BearerToken"],
        )
        response = self._api.call_api(method, url, header_params=headers, _request_timeout=self.timeout)
        try:
            body = response.read()
        finally:
            response.response.release_conn()
        return response.status, response.headers, body or b""

    def _decode(self, path: str, status: int, body: bytes) -> dict[str, Any]:
        try:
            parsed = orjson.loads(body)
        except orjson.JSONDecodeError:
            raise ApiError(
                f"GET {path} answered {status} with a body that is not JSON", status=status
            ) from None
        if not isinstance(parsed, dict):
            raise ApiError(f"GET {path} answered {status} with JSON that is not an object", status=status)
        return parsed

    def _backoff(self, attempt: int, retry_after: str | None) -> float:
        """Seconds to wait before retry `attempt`: Retry-After when given, else doubling; both capped."""
        wait = 0.25 * (2**attempt)
        if retry_after:
            wait = _parse_retry_after(retry_after, wait)
        return max(0.0, min(wait, self.max_retry_wait))

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


def resolve_kubeconfig(explicit: str | None) -> str | None:
    """The kubeconfig path(s) to read, as kubectl picks them; None when there is none at all.

    The value of $KUBECONFIG is read now, not at import time, because MCP hosts and tests change it;
    a colon-separated $KUBECONFIG keeps only the files that exist, as kubectl merges them.
    """
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise ClusterError(f"kubeconfig {explicit} does not exist; {_DEMO_HINT}.")
        return str(path)
    from_env = os.environ.get("KUBECONFIG", "")
    if from_env:
        existing = [str(Path(part).expanduser()) for part in from_env.split(os.pathsep) if part]
        existing = [part for part in existing if Path(part).is_file()]
        if existing:
            return os.pathsep.join(existing)
    default = Path("~/.kube/config").expanduser()
    return str(default) if default.is_file() else None


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
