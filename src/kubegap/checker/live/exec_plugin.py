"""Run a kubeconfig's credential plugin (`exec:`) as kubectl does, but bounded in time, input and output.

The Kubernetes client ran plugins with no time limit, handed them the terminal's (or the MCP pipe's)
stdin when stdout was a terminal, and read their whole output: a plugin that slept held a
`--scan-timeout 8` scan for a minute, and an interactive login waited forever. Here a plugin runs
with no stdin (end of file at once) in a session of its own (no controlling terminal to prompt on),
is told it is not interactive (KUBERNETES_EXEC_INFO), may write at most OUTPUT_BYTES, and must finish
by its deadline (inside the scan's budget, PLUGIN_SECONDS at most), or it and everything it started
is killed. Every failure is a `PluginFailure` holding one bilingual sentence.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kubegap.bilingual import Message, message
from kubegap.redaction import redact_text

PLUGIN_SECONDS = 60.0  # the most one plugin run may take, even with a larger scan budget left
OUTPUT_BYTES = 1 << 20  # an ExecCredential with a certificate and key is a few KiB
_ERROR_BYTES = 16 << 10  # stderr kept for the error line
_API_VERSIONS = ("client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1")


class PluginFailure(Exception):
    """A plugin that could not give a credential; `said` is the reason in both languages."""

    def __init__(self, said: Message) -> None:
        super().__init__(said)
        self.said = said


@dataclass(frozen=True)
class ExecCredential:
    token: str = ""
    certificate: str = ""  # PEM, when the plugin gives a client certificate instead of a token
    key: str = ""
    expires: float | None = None  # time.time() value of expirationTimestamp, when given


def run_plugin(
    spec: Mapping[str, Any], *, cwd: str, cluster: Mapping[str, Any], deadline: float
) -> ExecCredential:
    """Run the plugin `spec` (a kubeconfig `exec:` mapping) until `deadline` (a time.monotonic() value)."""
    argv, env, api_version = _command(spec, cluster)
    started = time.monotonic()
    allowed = min(deadline, started + PLUGIN_SECONDS) - started
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd if os.path.isdir(cwd) else None,
            env=env,
            start_new_session=True,  # no controlling terminal; killed as a group
        )
    except OSError as error:
        hint = " ".join(str(spec.get("installHint") or "").split())[:200]
        raise PluginFailure(
            message(
                "{command:을} 실행할 수 없습니다({reason}){hint}",
                "cannot start {command} ({reason}){hint}",
                command=_short(argv[0]),
                reason=error.strerror or type(error).__name__,
                hint=f". {redact_text(hint)}" if hint else "",
            )
        ) from None
    output, errors = _collect(
        process, started + max(0.0, allowed), allowed, deadline < started + PLUGIN_SECONDS
    )
    if process.returncode != 0:
        said = redact_text(" ".join(errors.decode("utf-8", "replace").split()), limit=200)
        raise PluginFailure(
            message(
                "종료 코드 {code:로} 끝났습니다{ko_said}",
                "exited with {code}{said}",
                code=str(process.returncode),
                said=f": {said}" if said else "",
                ko_said=f": {said}" if said else "",
            )
        )
    return _credential(output, api_version)


def _command(spec: Mapping[str, Any], cluster: Mapping[str, Any]) -> tuple[list[str], dict[str, str], str]:
    command, args, variables = spec.get("command"), spec.get("args") or [], spec.get("env") or []
    api_version = str(spec.get("apiVersion") or "")
    if not isinstance(command, str) or not command:
        raise PluginFailure(message("command가 없습니다", "it names no command"))
    if api_version not in _API_VERSIONS:
        raise PluginFailure(
            message(
                "apiVersion {version:은} 지원하지 않습니다({supported})",
                "apiVersion {version} is not supported ({supported})",
                version=repr(api_version[:80]),
                supported=", ".join(_API_VERSIONS),
            )
        )
    if spec.get("interactiveMode") == "Always":
        raise PluginFailure(
            message(
                "interactiveMode: Always라서 터미널에서 로그인해야 하는데, kubegap은 플러그인을 터미널 없이 "
                "실행합니다. kubectl로 먼저 한 번 로그인한 뒤 다시 실행하세요",
                "it asks for a terminal (interactiveMode: Always) and kubegap runs plugins without one; "
                "log in once with kubectl, then run kubegap again",
            )
        )
    if not isinstance(args, list) or not all(isinstance(arg, str) for arg in args):
        raise PluginFailure(message("args가 문자열 목록이 아닙니다", "its args are not a list of strings"))
    env = dict(os.environ)
    for variable in variables if isinstance(variables, list) else [None]:
        if not isinstance(variable, dict) or not isinstance(variable.get("name"), str):
            raise PluginFailure(
                message("env 항목에 name과 value가 필요합니다", "an env entry needs name and value")
            )
        env[variable["name"]] = str(variable.get("value") or "")
    info: dict[str, Any] = {
        "apiVersion": api_version,
        "kind": "ExecCredential",
        "spec": {"interactive": False},
    }
    if spec.get("provideClusterInfo"):
        info["spec"]["cluster"] = _cluster_info(cluster)
    env["KUBERNETES_EXEC_INFO"] = json.dumps(info)
    return [command, *args], env, api_version


def _cluster_info(cluster: Mapping[str, Any]) -> dict[str, Any]:
    """The cluster as client.authentication.k8s.io names its fields (for provideClusterInfo)."""
    names = {
        "server": "server",
        "tls-server-name": "tlsServerName",
        "insecure-skip-tls-verify": "insecureSkipTLSVerify",
        "certificate-authority-data": "certificateAuthorityData",
        "proxy-url": "proxyURL",
        "disable-compression": "disableCompression",
    }
    info = {wire: cluster[key] for key, wire in names.items() if key in cluster}
    for extension in cluster.get("extensions") or []:
        if isinstance(extension, dict) and extension.get("name") == "client.authentication.k8s.io/exec":
            info["config"] = extension.get("extension")
    return info


def _collect(
    process: subprocess.Popen[bytes], ends: float, allowed: float, by_budget: bool
) -> tuple[bytes, bytes]:
    """stdout and (the start of) stderr, until both close and the process exits, or the plugin dies."""
    assert process.stdout is not None and process.stderr is not None
    output, errors = bytearray(), bytearray()
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ, output)
        selector.register(process.stderr, selectors.EVENT_READ, errors)
        while selector.get_map():
            left = ends - time.monotonic()
            if left <= 0:
                _kill(process)
                raise PluginFailure(_too_slow(allowed, by_budget))
            for key, _ in selector.select(left):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                if key.data is output and len(output) + len(chunk) > OUTPUT_BYTES:
                    _kill(process)
                    raise PluginFailure(message("1 MiB가 넘게 출력했습니다", "it wrote more than 1 MiB"))
                if key.data is output or len(errors) < _ERROR_BYTES:
                    key.data.extend(chunk)
    try:
        process.wait(max(0.0, ends - time.monotonic()))
    except subprocess.TimeoutExpired:
        _kill(process)
        raise PluginFailure(_too_slow(allowed, by_budget)) from None
    finally:
        process.stdout.close()
        process.stderr.close()
    return bytes(output), bytes(errors)


def _too_slow(allowed: float, by_budget: bool) -> Message:
    return message(
        "{seconds}초 안에 끝나지 않았습니다({ko_why}). 터미널이나 브라우저 로그인을 기다렸을 수 있습니다",
        "it did not finish within {seconds} s ({why}); "
        "it may be waiting for a login in a terminal or browser",
        seconds=f"{max(allowed, 0.0):.0f}",
        why="what was left of the scan's time budget" if by_budget else "kubegap's limit for a plugin",
        ko_why="스캔 시간 예산의 남은 시간" if by_budget else "kubegap의 플러그인 한도",
    )


def _kill(process: subprocess.Popen[bytes]) -> None:
    """The plugin and everything it started (its session's process group)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(5)
    for pipe in (process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()


def _credential(output: bytes, api_version: str) -> ExecCredential:
    try:
        data = json.loads(output)
    except (ValueError, RecursionError):
        data = None
    status = data.get("status") if isinstance(data, dict) else None
    if not isinstance(data, dict) or data.get("kind") != "ExecCredential" or not isinstance(status, dict):
        raise PluginFailure(
            message("ExecCredential JSON을 출력하지 않았습니다", "it did not print an ExecCredential (JSON)")
        )
    if data.get("apiVersion") != api_version:
        raise PluginFailure(
            message(
                "apiVersion이 요청한 {wanted:와} 다릅니다",
                "its apiVersion is not {wanted}, as asked",
                wanted=api_version,
            )
        )
    token, certificate, key = (
        status.get(name) for name in ("token", "clientCertificateData", "clientKeyData")
    )
    if isinstance(token, str) and token:
        return ExecCredential(token=token, expires=_expiry(status))
    if isinstance(certificate, str) and isinstance(key, str) and certificate and key:
        return ExecCredential(certificate=certificate, key=key, expires=_expiry(status))
    raise PluginFailure(
        message(
            "token도, clientCertificateData와 clientKeyData도 주지 않았습니다",
            "it gave neither a token nor clientCertificateData and clientKeyData",
        )
    )


def _expiry(status: Mapping[str, Any]) -> float | None:
    stamp = status.get("expirationTimestamp")
    if not isinstance(stamp, str):
        return None
    try:
        return dt.datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _short(text: str) -> str:
    return text if len(text) <= 120 else f"{text[:120]}…"
