"""The `auth-provider: oidc` refresh, done here, bounded like an exec plugin, before the client loads.

The Kubernetes client renews an expired OIDC id-token itself while it loads the kubeconfig: a GET of
the issuer's discovery document and a POST to its token endpoint, both with no time limit (an issuer
that accepts the connection and never answers holds the scan forever), any size of answer, and no
certificate check at all when the kubeconfig names no `idp-certificate-authority`. So kubegap does
the renewal first, as client-go does it, and hands the client a fresh token it has no reason to renew:

- both requests must finish by the deadline (what is left of the scan's budget, PLUGIN_SECONDS at
  most), and each answer may be at most ANSWER_BYTES;
- the issuer's certificate is checked against `idp-certificate-authority(-data)`, else the system's
  roots; the token endpoint must be an http(s) URL, and https when the issuer is;
- the refresh token and client secret go only to that token endpoint; the new tokens stay in memory
  (the kubeconfig file is never written);
- any failure is one line naming the user and the reason, never a token.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from typing import Any
from urllib.parse import urlencode

import urllib3

from kubegap.bilingual import Message, message
from kubegap.checker.live.bounded_http import (
    BodyTooLarge,
    RequestDeadline,
    install_deadlines,
    read_bounded,
    request_deadline,
)
from kubegap.checker.live.exec_plugin import PLUGIN_SECONDS

ANSWER_BYTES = 1 << 20  # a discovery document or a token answer is a few KiB


class RefreshFailure(Exception):
    """The id-token expired and could not be renewed; `said` is the reason in both languages."""

    def __init__(self, said: Message) -> None:
        super().__init__(said)
        self.said = said


def expired(config: dict[str, Any], now: float | None = None) -> bool:
    """True when `id-token` is a JWT whose `exp` has passed (what makes the client renew it)."""
    token = config.get("id-token")
    parts = token.split(".") if isinstance(token, str) else []
    if len(parts) != 3:
        return False
    try:
        claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except (ValueError, binascii.Error):
        return False
    expires = claims.get("exp") if isinstance(claims, dict) else None
    if not isinstance(expires, int | float) or isinstance(expires, bool):
        return False
    return float(expires) <= (time.time() if now is None else now)


def refresh(config: dict[str, Any], deadline: float | None) -> None:
    """Renew `config`'s id-token (and refresh-token) in place by `deadline` (time.monotonic())."""
    missing = [key for key in ("idp-issuer-url", "refresh-token", "client-id") if not config.get(key)]
    if missing:
        raise RefreshFailure(
            message(
                "토큰을 새로 받을 {keys}가 없습니다",
                "there is no {keys} to renew it with",
                keys=", ".join(missing),
            )
        )
    ends = min(deadline if deadline is not None else float("inf"), time.monotonic() + PLUGIN_SECONDS)
    issuer = str(config["idp-issuer-url"]).rstrip("/")
    pool = _pool(config)
    discovery = _answer(pool, "GET", f"{issuer}/.well-known/openid-configuration", None, ends)
    endpoint = discovery.get("token_endpoint")
    scheme = str(endpoint).split("://", 1)[0].lower() if isinstance(endpoint, str) else ""
    if scheme not in ("http", "https") or (issuer.lower().startswith("https://") and scheme != "https"):
        raise RefreshFailure(
            message(
                "발급자가 알려 준 token_endpoint를 쓸 수 없습니다",
                "the issuer's token_endpoint cannot be used (it must be an https URL)",
            )
        )
    secret = str(config.get("client-secret") or "")
    basic = base64.b64encode(f"{config['client-id']}:{secret}".encode()).decode()
    form = {"grant_type": "refresh_token", "refresh_token": str(config["refresh-token"])}
    form["client_id"] = str(config["client-id"])
    answer = _answer(pool, "POST", str(endpoint), (urlencode(form), basic), ends)
    token = answer.get("id_token")
    if not isinstance(token, str) or not token:
        raise RefreshFailure(
            message("발급자의 응답에 id_token이 없습니다", "the issuer's answer has no id_token")
        )
    config["id-token"] = token
    if isinstance(answer.get("refresh_token"), str) and answer["refresh_token"]:
        config["refresh-token"] = answer["refresh_token"]


def _pool(config: dict[str, Any]) -> urllib3.PoolManager:
    authority: dict[str, Any] = {}
    if config.get("idp-certificate-authority-data"):
        try:
            pem = base64.b64decode(str(config["idp-certificate-authority-data"]), validate=True).decode()
        except (ValueError, binascii.Error):
            raise RefreshFailure(
                message(
                    "idp-certificate-authority-data가 base64가 아닙니다",
                    "idp-certificate-authority-data is not base64",
                )
            ) from None
        authority["ca_cert_data"] = pem
    elif config.get("idp-certificate-authority"):
        authority["ca_certs"] = str(config["idp-certificate-authority"])
    pool = urllib3.PoolManager(cert_reqs="CERT_REQUIRED", retries=False, **authority)
    install_deadlines(pool)
    return pool


def _answer(
    pool: urllib3.PoolManager, method: str, url: str, form: tuple[str, str] | None, ends: float
) -> dict[str, Any]:
    """The JSON object `url` answers with, by `ends`, at most ANSWER_BYTES; else RefreshFailure."""
    left = ends - time.monotonic()
    if left <= 0:
        raise _late()
    headers = {"Accept": "application/json"}
    body = None
    if form is not None:
        body = form[0].encode()
        headers |= {"Content-Type": "application/x-www-form-urlencoded", "Authorization": f"Basic {form[1]}"}
    try:
        with request_deadline(ends):
            response = pool.request(
                method,
                url,
                body=body,
                headers=headers,
                preload_content=False,
                redirect=False,
                timeout=urllib3.Timeout(connect=left, read=left),
            )
            try:
                raw = read_bounded(response, ends, ANSWER_BYTES, left)
            finally:
                response.release_conn()
    except (RequestDeadline, urllib3.exceptions.TimeoutError):
        raise _late() from None
    except BodyTooLarge:
        raise RefreshFailure(
            message("발급자의 응답이 1 MiB보다 큽니다", "the issuer answered with more than 1 MiB")
        ) from None
    except Exception as error:  # what the HTTP layer raises may quote a header: named by its type only
        if time.monotonic() >= ends:
            raise _late() from None
        raise RefreshFailure(
            message(
                "발급자에게 요청하지 못했습니다({kind})",
                "the issuer could not be asked ({kind})",
                kind=type(error).__name__,
            )
        ) from None
    if response.status != 200:
        raise RefreshFailure(
            message("발급자가 {status}로 답했습니다", "the issuer answered {status}", status=response.status)
        )
    try:
        document = json.loads(raw)
    except ValueError:
        document = None
    if not isinstance(document, dict):
        raise RefreshFailure(
            message("발급자의 응답이 JSON 객체가 아닙니다", "the issuer's answer is not a JSON object")
        )
    return document


def _late() -> RefreshFailure:
    return RefreshFailure(
        message(
            "스캔 시간 예산 안에 끝나지 않았습니다",
            "it did not finish within what was left of the scan's time budget",
        )
    )
