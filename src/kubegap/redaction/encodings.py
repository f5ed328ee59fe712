"""Secrets inside an encoding: URL-encoded (`password%3Dhunter2`, `https%3A%2F%2Fu%3Apw%40host`),
hex-encoded (`70617373776f72643d...`) and base64-encoded text (a docker config, a kubeconfig's
`client-key-data`, `user:password` in a Basic header of a config file).

Each run is decoded and the decoded text redacted like any other (one level deeper, at most twice);
a URL-encoded run whose decoded form held a secret is shown decoded and redacted, a hex or base64 run
is hidden whole. A run that decodes to text without a secret is left as it is, and `decoded_text`
lets the randomness rule spare it too: base64 of a JSON annotation is not key material.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from urllib.parse import unquote

from kubegap.redaction.formats import REDACTED

Redactor = Callable[[str, int], str]

# Runs start where a run of their characters starts (the look-behinds), so each scan is linear.
_URL_RUN = re.compile(r"(?<![^\s\"'<>`])[^\s\"'<>`]*?%[0-9A-Fa-f]{2}[^\s\"'<>`]*+")
_HEX_RUN = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){8,}+(?![0-9A-Fa-f])")
# A base64 run may start right after `=` (`--flag=<base64>`); `=` ends one as padding only.
_BASE64_RUN = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{16,}+={0,2}(?![A-Za-z0-9+/=_\-])")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
MAX_DEPTH = 2
_LONGEST_DECODED = 65_536


def _printable(data: bytes) -> str | None:
    """The bytes as text when they are text (UTF-8, nearly all printable), else None."""
    if len(data) < 6:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    shown = sum(1 for char in text if char.isprintable() or char in "\n\r\t")
    return text if shown >= 0.95 * len(text) else None


def decoded_bytes(token: str) -> bytes | None:
    """A hex or base64 token decoded (the first 64 KB), or None when it is neither."""
    token = token[: _LONGEST_DECODED * 2]
    if len(token) % 2 == 0 and all(char in "0123456789abcdefABCDEF" for char in token):
        try:
            return bytes.fromhex(token)
        except ValueError:
            return None
    body = token.rstrip("=")
    if "-" in body or "_" in body:
        if "+" in body or "/" in body:
            return None
        body = body.replace("-", "+").replace("_", "/")
    body = body[: len(body) - len(body) % 4] if len(body) % 4 == 1 else body
    try:
        return base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def decoded_text(token: str) -> str | None:
    """A hex or base64 token's decoded text, when it decodes to text."""
    data = decoded_bytes(token)
    return _printable(data) if data is not None else None


def redact_encoded(text: str, redact: Redactor, depth: int) -> str:
    """Runs of URL-encoded, hex and base64 text whose decoded form holds a secret, redacted."""
    if depth >= MAX_DEPTH:
        return text

    def url_run(match: re.Match[str]) -> str:
        run = match.group(0)
        decoded = unquote(run)
        if decoded == run or not _PERCENT.search(run):
            return run
        shown = redact(decoded, depth + 1)
        return run if shown == decoded else shown

    def encoded_run(match: re.Match[str]) -> str:
        run = match.group(0)
        decoded = decoded_text(run)
        if decoded is None:
            return run
        return run if redact(decoded, depth + 1) == decoded else REDACTED

    if "%" in text:
        text = _URL_RUN.sub(url_run, text)
    text = _HEX_RUN.sub(encoded_run, text)
    return _BASE64_RUN.sub(encoded_run, text)
