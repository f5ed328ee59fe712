"""A real HTTP server on 127.0.0.1 that answers like a Kubernetes API server, for tests and benchmarks.

It serves discovery, cluster-wide and namespaced LIST with `limit`/`continue` paging, GET of one
object, and a minimal `Table` for kubectl's default output. Faults (status codes, Retry-After, latency)
are injected per path pattern. Every request is logged; write verbs are answered 405 and logged too,
so a test can prove that nothing but GET was ever sent.
"""

from __future__ import annotations

import contextlib
import posixpath
import re
import ssl
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import orjson
import yaml

from .faults import Fault, head_bytes, send_oversized, send_trickle, with_endless_continue
from .store import ObjectStore, load_objects
from .wire import respond_api_path
from .wire import status_body as _status

SERVER_VERSION = {
    "major": "1",
    "minor": "31",
    "gitVersion": "v1.31.0-kubegap-emulator",
    "platform": "linux/amd64",
}


@dataclass(frozen=True)
class LoggedRequest:
    method: str
    path: str
    query: dict[str, str] = field(default_factory=dict)
    accept: str = ""
    authorization: str = ""

    @property
    def touches_secrets(self) -> bool:
        """Any spelling: percent-encoded (even twice), relative segments, any case."""
        decoded = self.path
        for _ in range(5):
            decoded = unquote(decoded)
        return "secrets" in [part.casefold() for part in posixpath.normpath(decoded).split("/")]


class KubeEmulator:
    """Start with `with KubeEmulator(objects) as emulator:`; `emulator.url` is the server address."""

    def __init__(
        self,
        objects: Iterable[dict[str, Any]] = (),
        *,
        enable: Iterable[str] = (),
        token: str | None = None,
        tls: tuple[str | Path, str | Path] | None = None,
    ) -> None:
        self.store = ObjectStore(objects, enable)
        self.token = token  # when set, requests without `Authorization: Bearer <token>` get 401
        self.tls = tls  # (certificate file, key file): serve HTTPS, as a real API server does
        self.faults: list[Fault] = []
        # (namespace, pod, container) -> log text, served by the pods/log subresource (tailLines and
        # limitBytes honoured; `previous=true` serves the key with container + ":previous" if present)
        self.pod_logs: dict[tuple[str, str, str], str] = {}
        self._log: list[LoggedRequest] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @classmethod
    def from_files(cls, *paths: str | Path, **options: Any) -> KubeEmulator:
        return cls([obj for path in paths for obj in load_objects(path)], **options)

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("the emulator is not running")
        scheme = "https" if self.tls else "http"
        return f"{scheme}://127.0.0.1:{self._server.server_address[1]}"

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the emulator is not running")
        return int(self._server.server_address[1])

    def start(self) -> KubeEmulator:
        self._server = _Server(("127.0.0.1", 0), _handler_for(self))
        if self.tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(str(self.tls[0]), str(self.tls[1]))
            self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), name="k8s-emulator", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> KubeEmulator:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    def inject(self, fault: Fault) -> Fault:
        with self._lock:
            self.faults.append(fault)
        return fault

    @property
    def requests(self) -> list[LoggedRequest]:
        with self._lock:
            return list(self._log)

    def non_get_requests(self) -> list[LoggedRequest]:
        return [request for request in self.requests if request.method != "GET"]

    def secret_requests(self) -> list[LoggedRequest]:
        return [request for request in self.requests if request.touches_secrets]

    def count(self, pattern: str) -> int:
        """Requests whose path fully matches `pattern`."""
        return sum(1 for request in self.requests if re.fullmatch(pattern, request.path))

    def reset_log(self) -> None:
        with self._lock:
            self._log.clear()

    def write_kubeconfig(
        self, path: str | Path, *, context: str = "emulator", token: str | None = None
    ) -> Path:
        """A kubeconfig for this server with a bearer-token user, so real config loaders are exercised."""
        user: dict[str, str] = {"token": token or self.token or "kubegap-emulator-token"}
        document = {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{"name": "emulator", "cluster": {"server": self.url}}],
            "users": [{"name": "emulator-user", "user": user}],
            "contexts": [{"name": context, "context": {"cluster": "emulator", "user": "emulator-user"}}],
            "current-context": context,
        }
        target = Path(path)
        target.write_text(yaml.safe_dump(document))
        return target

    def _record(self, request: LoggedRequest) -> Fault | None:
        """Log a request and pick the first fault that applies to it (counting its use)."""
        with self._lock:
            self._log.append(request)
            for fault in self.faults:
                if request.method == "GET" and fault.applies(request.path, request.query):
                    fault.hits += 1
                    return fault
        return None


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up (timeout tests) closes its socket; that is not an error here."""


def _handler_for(emulator: KubeEmulator) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out in separate writes

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = dict(parse_qsl(parts.query, keep_blank_values=True))
            request = LoggedRequest(
                "GET",
                parts.path,
                query,
                self.headers.get("Accept", ""),
                self.headers.get("Authorization", ""),
            )
            fault = emulator._record(request)
            if fault is not None:
                time.sleep(fault.delay)
                if fault.body is not None:
                    self._send(fault.status or 200, fault.body)
                    return
                if fault.status:
                    headers = {"Retry-After": fault.retry_after} if fault.retry_after else {}
                    self._send(fault.status, _status(fault.status, "injected fault"), headers)
                    return
            if emulator.token and not _bearer_matches(request.authorization, emulator.token):
                self._send(401, _status(401, "Unauthorized"))
                return
            if fault is not None and fault.mode.endswith("-continue"):
                query = {key: value for key, value in request.query.items() if key != "continue"}
                status, body = _route(emulator, LoggedRequest("GET", request.path, query, request.accept))
                limit = int(query["limit"]) if query.get("limit", "").isdigit() else 500
                self._send(status, with_endless_continue(fault, body, limit))
                return
            log = _pod_log(emulator, request)
            if log is not None:
                self._send_text(*log)
                return
            status, body = _route(emulator, request)
            if fault is not None and fault.mode == "trickle":
                self._stream(
                    status, lambda write: send_trickle(write, orjson.dumps(body), fault.interval), body
                )
                return
            if fault is not None and fault.mode == "trickle-headers":
                payload = orjson.dumps(body)
                self.close_connection = True
                with contextlib.suppress(OSError):
                    send_trickle(self._write_now, head_bytes(status, len(payload)) + payload, fault.interval)
                return
            if fault is not None and fault.mode == "oversized":
                kind, version = str(body.get("kind", "List")), str(body.get("apiVersion", "v1"))
                self._stream(
                    status, lambda write: send_oversized(write, kind[:-4], version, fault.size), None
                )
                return
            self._send(status, body)

        def _write_now(self, data: bytes) -> None:
            self.wfile.write(data)
            self.wfile.flush()

        def _stream(self, status: int, produce: Any, body: dict[str, Any] | None) -> None:
            """Headers now, the body as `produce(write)` sends it; no Content-Length when `body` is None."""
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                if body is not None:
                    self.send_header("Content-Length", str(len(orjson.dumps(body))))
                else:
                    self.send_header("Connection", "close")
                    self.close_connection = True
                self.end_headers()
                self.wfile.flush()

                def write(data: bytes) -> None:
                    self.wfile.write(data)
                    self.wfile.flush()

                produce(write)
            except (BrokenPipeError, ConnectionResetError, OSError):
                self.close_connection = True

        def _refuse(self) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            emulator._record(LoggedRequest(self.command, parts.path, dict(parse_qsl(parts.query))))
            self._send(405, _status(405, f"the emulator is read-only: {self.command} is not allowed"))

        do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = _refuse

        def do_HEAD(self) -> None:
            self._refuse()

        def _send_text(self, status: int, text: bytes) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(text)))
                self.end_headers()
                self.wfile.write(text)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

        def _send(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
            payload = b"" if self.command == "HEAD" else orjson.dumps(body)
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

    return Handler


def _pod_log(emulator: KubeEmulator, request: LoggedRequest) -> tuple[int, bytes] | None:
    """A pods/log answer as the API server gives it (text, tailLines, limitBytes), or None for other paths."""
    segments = request.path.strip("/").split("/")
    if (
        len(segments) != 7
        or segments[:3] != ["api", "v1", "namespaces"]
        or segments[4:7:2] != ["pods", "log"]
    ):
        return None
    container = request.query.get("container", "")
    if request.query.get("previous") == "true":
        container += ":previous"
    text = emulator.pod_logs.get((segments[3], segments[5], container))
    if text is None:
        return 404, b'{"kind":"Status","status":"Failure","code":404,"reason":"NotFound"}'
    lines = text.splitlines(keepends=True)
    tail = request.query.get("tailLines", "")
    if tail.isdigit():
        lines = lines[-int(tail) :]
    data = "".join(lines).encode()
    size = request.query.get("limitBytes", "")
    return 200, data[: int(size)] if size.isdigit() else data


def _bearer_matches(header: str, token: str) -> bool:
    """The auth scheme is case-insensitive (RFC 9110); the in-cluster loader sends "bearer <token>"."""
    scheme, _, value = header.partition(" ")
    return scheme.lower() == "bearer" and value == token


def _route(emulator: KubeEmulator, request: LoggedRequest) -> tuple[int, dict[str, Any]]:
    store = emulator.store
    segments = [unquote(part) for part in request.path.strip("/").split("/") if part]
    if segments == ["version"]:
        return 200, SERVER_VERSION
    if segments == ["api"]:
        return 200, {"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": []}
    if segments == ["apis"]:
        return 200, {
            "kind": "APIGroupList",
            "apiVersion": "v1",
            "groups": [_group(name, versions) for name, versions in store.groups().items()],
        }
    if len(segments) == 2 and segments[0] == "apis":
        versions = store.groups().get(segments[1])
        if versions is None:
            return 404, _status(404, f"the server could not find the requested resource ({request.path})")
        return 200, {"kind": "APIGroup", "apiVersion": "v1", **_group(segments[1], versions)}
    if segments[:1] == ["api"] and len(segments) >= 2:
        return respond_api_path(store, "", segments[1], segments[2:], request.query, request.accept)
    if segments[:1] == ["apis"] and len(segments) >= 3:
        return respond_api_path(store, segments[1], segments[2], segments[3:], request.query, request.accept)
    return 404, _status(404, f"the server could not find the requested resource ({request.path})")


def _group(name: str, versions: list[str]) -> dict[str, Any]:
    entries = [{"groupVersion": f"{name}/{version}", "version": version} for version in versions]
    return {"name": name, "versions": entries, "preferredVersion": entries[0]}
