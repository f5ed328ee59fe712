"""The chosen context's credentials, made ready before the first request, as kubectl would use them.

kubegap hands the Kubernetes client a kubeconfig in which nothing is left to run or read: a
`tokenFile` is read here (bounded, never a FIFO or a device, trimmed as kubectl trims it), an `exec:`
plugin is run here (`exec_plugin`: bounded in time, input and output), and what they give replaces
them. A bearer token must be something an HTTP header can carry: one with a line break (what
`token: |` writes) is refused in one line that never quotes it, as kubectl refuses it too. A proxy
must be an http(s) URL; `auth-provider` gcp and azure, removed from kubectl in 1.26, are refused
with kubectl's advice. When an exec token expires mid-scan, the plugin runs again under the
current request's deadline; an expired `auth-provider: oidc` id-token is renewed here (`oidc`), within
the same deadline, instead of by the client with no time limit.
"""

from __future__ import annotations

import base64
import os
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from urllib3.util import parse_url

from kubegap.bilingual import message
from kubegap.checker.live import oidc
from kubegap.checker.live.bounded_http import current_deadline
from kubegap.checker.live.exec_plugin import PLUGIN_SECONDS, ExecCredential, PluginFailure, run_plugin
from kubegap.checker.live.kubeconfig import ChosenContext, absolute, problem
from kubegap.errors import KubeconfigError

TOKEN_FILE_BYTES = 1 << 20  # Go's default limit on request headers: no API server takes a bigger token
_REFRESH_EARLY = 10.0  # seconds before expirationTimestamp that an exec token is renewed
_REMOVED_PROVIDERS = {"gcp": "gke-gcloud-auth-plugin", "azure": "kubelogin"}
_PROXY_SCHEMES = ("http", "https")


@dataclass(frozen=True)
class Prepared:
    """A one-context kubeconfig the client loads without running or reading anything more, and, for
    an exec token that expires, how to renew it."""

    config: dict[str, Any]
    renew: Callable[[Any], None] | None = None


def prepare(chosen: ChosenContext, deadline: float | None) -> Prepared:
    """Check the proxy and the credentials of `chosen`; run its plugin by `deadline` (time.monotonic())."""
    _check_proxy(chosen)
    user = absolute(chosen.user.body, ("client-certificate", "client-key", "tokenFile"), chosen.user.file)
    provider = user.get("auth-provider")
    name = provider.get("name") if isinstance(provider, dict) else None
    if name in _REMOVED_PROVIDERS:
        raise _user_problem(
            chosen,
            "auth-provider {name:은} kubectl 1.26에서 없어졌습니다. "
            "{plugin} 자격 증명 플러그인(exec)을 쓰세요",
            "auth-provider {name} was removed from kubectl in 1.26; "
            "use the {plugin} credential plugin (exec)",
            name=name,
            plugin=_REMOVED_PROVIDERS[str(name)],
        )
    settings = provider.get("config") if isinstance(provider, dict) else None
    if (
        isinstance(provider, dict)
        and isinstance(settings, dict)
        and name == "oidc"
        and oidc.expired(settings)
    ):
        user["auth-provider"] = {**provider, "config": _renewed_oidc(chosen, settings, deadline)}
    if user.get("token"):
        _check_token(chosen, str(user["token"]), "token")
        return Prepared(chosen.as_config(user))
    if user.get("tokenFile"):
        user["token"] = _read_token_file(chosen, str(user.pop("tokenFile")))
        return Prepared(chosen.as_config(user))
    spec = user.pop("exec", None)
    if spec is None:
        return Prepared(chosen.as_config(user))
    if not isinstance(spec, dict):
        raise _exec_problem(chosen, message("exec가 매핑이 아닙니다", "exec is not a mapping"))
    credential = _run(chosen, spec, deadline)
    if credential.token:
        user["token"] = credential.token
    else:
        user["client-certificate-data"] = base64.b64encode(credential.certificate.encode()).decode()
        user["client-key-data"] = base64.b64encode(credential.key.encode()).decode()
    renew = _renewer(chosen, spec, credential.expires) if credential.token and credential.expires else None
    return Prepared(chosen.as_config(user), renew)


def _run(chosen: ChosenContext, spec: dict[str, Any], deadline: float | None) -> ExecCredential:
    ends = deadline if deadline is not None else time.monotonic() + PLUGIN_SECONDS
    folder = os.path.dirname(os.path.abspath(chosen.user.file)) if chosen.user.file else os.getcwd()
    try:
        credential = run_plugin(spec, cwd=folder, cluster=chosen.cluster.body, deadline=ends)
    except PluginFailure as failure:
        raise _exec_problem(chosen, failure.said) from None
    fault = _token_fault(credential.token)
    if fault is not None:
        raise _exec_problem(
            chosen, message("토큰에 {what}", "its token holds {what_en}", what=fault[0], what_en=fault[1])
        )
    return credential


def _renewed_oidc(chosen: ChosenContext, config: dict[str, Any], deadline: float | None) -> dict[str, Any]:
    """A copy of an auth-provider oidc `config` with its expired id-token renewed by `deadline`."""
    renewed = dict(config)
    try:
        oidc.refresh(renewed, deadline)
    except oidc.RefreshFailure as failure:
        raise _user_problem(
            chosen,
            "사용자 {user}의 OIDC id-token이 만료되었고 새로 받지 못했습니다: {reason}",
            "the OIDC id-token of user {user} expired and could not be renewed: {reason}",
            user=repr(chosen.user.name[:80]),
            reason=failure.said,
        ) from None
    return renewed


def _renewer(chosen: ChosenContext, spec: dict[str, Any], expires: float | None) -> Callable[[Any], None]:
    """A refresh hook for the client's configuration: a new exec token shortly before the old expires."""
    state = {"expires": expires}
    lock = threading.Lock()  # requests on several threads renew once

    def renew(configuration: Any) -> None:
        with lock:
            ends_at = state["expires"]
            if ends_at is None or time.time() < ends_at - _REFRESH_EARLY:
                return
            credential = _run(chosen, spec, current_deadline())
            state["expires"] = credential.expires
            configuration.api_key["BearerToken"] = f"Bearer {credential.token}"

    return renew


def _read_token_file(chosen: ChosenContext, path: str) -> str:
    """The token in `path`, read at most TOKEN_FILE_BYTES and trimmed as kubectl trims it."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise _file_problem(
            chosen, path, "cannot be read ({reason})", reason=error.strerror or "error"
        ) from None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise _file_problem(chosen, path, "is not a regular file")
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            raw = handle.read(TOKEN_FILE_BYTES + 1)
    except OSError as error:
        raise _file_problem(
            chosen, path, "cannot be read ({reason})", reason=error.strerror or "error"
        ) from None
    finally:
        os.close(descriptor)
    if len(raw) > TOKEN_FILE_BYTES:
        raise _file_problem(chosen, path, "holds more than 1 MiB")
    token = raw.decode("utf-8", "replace").strip()
    if not token:
        raise _file_problem(chosen, path, "is empty")
    _check_token(chosen, token, "tokenFile")
    return token


def _token_fault(token: str) -> tuple[str, str] | None:
    """What keeps `token` out of an HTTP header (Korean, English), or None when it fits in one."""
    if all(" " <= character <= "~" for character in token):
        return None
    if "\n" in token or "\r" in token:
        return "줄바꿈이나 다른 제어 문자가 있습니다", "a line break or another control character"
    return "제어 문자나 ASCII가 아닌 문자가 있습니다", "a control character or a non-ASCII character"


def _check_token(chosen: ChosenContext, token: str, source: str) -> None:
    """A token an HTTP header can carry, or one line that names the user and never the token."""
    fault = _token_fault(token)
    if fault is None:
        return
    block = source == "token" and "\n" in token
    raise _user_problem(
        chosen,
        "사용자 {user}의 {source}에 {what}{ko_fix}. kubectl도 이런 토큰은 보내지 않습니다",
        "the {source} of user {user} holds {what_en}{fix}; kubectl refuses it too",
        user=repr(chosen.user.name[:80]),
        source="token" if source == "token" else f"{source} token",
        what=fault[0],
        what_en=fault[1],
        fix=" (`token: |` ends the token with a line break; write `token: |-` or the token on the line)"
        if block
        else "",
        ko_fix=". `token: |`는 토큰 끝에 줄바꿈을 붙이니 `token: |-`로 쓰거나 토큰을 같은 줄에 쓰세요"
        if block
        else "",
    )


def _check_proxy(chosen: ChosenContext) -> None:
    proxy = chosen.cluster.body.get("proxy-url")
    if proxy is None:
        return
    try:
        parsed = parse_url(str(proxy))
        scheme, host = (parsed.scheme or "").lower(), parsed.host
    except Exception:  # urllib3 raises LocationParseError, ValueError or worse for garbage
        scheme, host = "", None
    if scheme.startswith("socks"):
        raise _cluster_problem(
            chosen,
            "proxy-url: {scheme} 프록시는 지원하지 않습니다. "
            "HTTP(S) 프록시나 API 서버로 가는 SSH 터널을 쓰세요",
            "proxy-url: {scheme} proxies are not supported; "
            "use an http(s) proxy or an SSH tunnel to the API server",
            scheme=scheme,
        )
    if scheme not in _PROXY_SCHEMES or not host:
        raise _cluster_problem(
            chosen,
            "proxy-url {shown:은} kubegap이 쓸 수 있는 URL이 아닙니다"
            "(http:// 또는 https://와 호스트가 필요합니다)",
            "proxy-url {shown} is not a URL kubegap can use (it needs http:// or https:// and a host)",
            shown=repr(_without_password(str(proxy))[:100]),
        )


def _without_password(url: str) -> str:
    scheme, separator, rest = url.partition("://")
    if not separator:
        return url
    authority, slash, path = rest.partition("/")
    return f"{scheme}://{authority.rpartition('@')[2]}{slash}{path}"


def _user_problem(chosen: ChosenContext, ko: str, en: str, **values: object) -> KubeconfigError:
    return problem(chosen.user.file or chosen.path, ko, en, **values)


def _cluster_problem(chosen: ChosenContext, ko: str, en: str, **values: object) -> KubeconfigError:
    return problem(chosen.cluster.file or chosen.path, ko, en, **values)


def _file_problem(chosen: ChosenContext, path: str, en: str, **values: object) -> KubeconfigError:
    korean = {
        "cannot be read ({reason})": "읽을 수 없습니다({reason})",
        "is not a regular file": "일반 파일이 아닙니다",
        "holds more than 1 MiB": "1 MiB보다 큽니다",
        "is empty": "비어 있습니다",
    }[en]
    return _user_problem(
        chosen,
        "사용자 {user}의 tokenFile {file}: " + korean,
        "tokenFile {file} of user {user} " + en,
        user=repr(chosen.user.name[:80]),
        file=path,
        **values,
    )


def _exec_problem(chosen: ChosenContext, reason: object) -> KubeconfigError:
    return _user_problem(
        chosen,
        "컨텍스트 {context}의 자격 증명 플러그인(exec)이 실패했습니다: {reason}",
        "the credential plugin (exec) of context {context} failed: {reason}",
        context=repr(chosen.name[:80]),
        reason=reason,
    )
