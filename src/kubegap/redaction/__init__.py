"""The one redaction chokepoint: every string kubegap sends out (reports, MCP, web) passes through here.

Two rules work together. By name: a value stored under a name that says "secret" (an env var
`AWS_SECRET_ACCESS_KEY`, a dict key `password`, a flag `--token`) is replaced whatever it looks like
(`names.py`). By shape: a value that looks like a known credential format (`detectors.py`: GitHub,
GitLab, Slack, Google, AWS, Azure, Stripe, OpenAI, Anthropic, Hugging Face, NGC and 40 more, JWTs,
PEM keys, `Bearer ...`, URL passwords) or like random key material (`randomness.py`) is replaced
wherever it appears. Things that merely look technical must survive: image digests, UIDs, resource
versions, container ids, paths. Only outgoing data is redacted; the snapshot itself is never changed.

Redact first, cut after: a long text is redacted over its shown part plus a margin, then cut, so a
token is never halved before it is recognised (a cut token's prefix is no longer a known shape).
Every pattern is linear-time, so a 1 MB string costs milliseconds, not minutes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from kubegap.redaction.detectors import AUTHORIZATION, CONTEXT_FORMATS, REDACTED, TOKENS, URL_PASSWORD
from kubegap.redaction.names import is_identifier_name, is_secret_name, name_words
from kubegap.redaction.randomness import redact_random

TRUNCATE_AT = 4000  # longest string sent out; a 10 MB label value must not flood a report
# Characters past the cut that are still redacted, so a token that crosses the cut is seen whole.
CUT_MARGIN = 16_384

_VARIABLE_REFERENCE = re.compile(r"\$(?:[A-Za-z_]\w{0,127}|\{[A-Za-z_]\w{0,127}\}|\([A-Za-z_]\w{0,127}\))")
_BOOLEANS = frozenset({"true", "false", "yes", "no", "on", "off", "0", "1", ""})
# `--password=x`, `--api-key x`, `-token=x`, `password: x`, `PASSWORD=x`, `password = "x"` in free text.
# Only the name and separator are matched; the value is read after the name proved secret, so a
# name that is not secret never swallows text that holds the next assignment ("agent:Node/token: x").
# The look-behinds hold every character the names consume, so no run is scanned from its middle.
_FLAG_NAME = re.compile(r"(?<![A-Za-z0-9_.\-])(--?[A-Za-z][A-Za-z0-9_.\-]{0,127}+)(=|\s++(?!-))")
_ENV_NAME = re.compile(r"(?<![A-Za-z0-9_.\-])([A-Za-z_][A-Za-z0-9_.\-]{0,127}+)([ \t]*+[=:][ \t]*+[\"']?)")
_FLAG_VALUE = re.compile(r"[^\s\"',;]++")
_ENV_VALUE = re.compile(r"[^\s\"',;&]++")

__all__ = [
    "CONTEXT_FORMATS",
    "REDACTED",
    "TRUNCATE_AT",
    "is_secret_name",
    "name_words",
    "redact_args",
    "redact_env",
    "redact_text",
    "redact_value",
    "truncate",
]


def _redact_assignments(text: str, names: re.Pattern[str], values: re.Pattern[str]) -> str:
    parts: list[str] = []
    position = 0
    for found in names.finditer(text):
        if found.start() < position or not is_secret_name(found.group(1)):
            continue
        value = values.match(text, found.end())
        if value is None:
            continue
        shown = value.group(0)
        if shown.startswith(REDACTED) or shown.lower() in _BOOLEANS or _VARIABLE_REFERENCE.fullmatch(shown):
            continue
        parts.append(text[position : found.end()])
        parts.append(REDACTED)
        position = value.end()
    parts.append(text[position:])
    return "".join(parts)


def _redact_named_assignments(text: str) -> str:
    text = _redact_assignments(text, _FLAG_NAME, _FLAG_VALUE)
    return _redact_assignments(text, _ENV_NAME, _ENV_VALUE)


def truncate(text: str, limit: int = TRUNCATE_AT) -> str:
    """Text cut at `limit` characters with a note; never inside a `[REDACTED]` marker."""
    if len(text) <= limit:
        return text
    cut = limit
    marker = text.rfind("[", max(0, cut - len(REDACTED)), cut)
    if marker != -1 and text.startswith(REDACTED, marker) and marker + len(REDACTED) > cut:
        cut = marker
    return f"{text[:cut]}… (+{len(text) - cut:,} characters)"


def _redact_shapes(text: str, random_strings: bool) -> str:
    text = TOKENS.sub(REDACTED, text)
    text = AUTHORIZATION.sub(CONTEXT_FORMATS[0].replacement, text)
    text = URL_PASSWORD.sub(CONTEXT_FORMATS[1].replacement, text)
    text = _redact_named_assignments(text)
    return redact_random(text) if random_strings else text


def redact_text(text: str, *, limit: int = TRUNCATE_AT, random_strings: bool = True) -> str:
    """Every secret-shaped part of free text replaced, then the text cut at `limit` characters.

    Only the part that can be shown (plus CUT_MARGIN) is scanned, so a 10 MB value costs what its
    first 20 KB cost. `random_strings=False` keeps long random-looking tokens (values known to be
    identifiers).
    """
    if not text:
        return text
    if len(text) > limit + CUT_MARGIN:
        hidden = len(text) - limit - CUT_MARGIN
        redacted = _redact_shapes(text[: limit + CUT_MARGIN], random_strings)
        shown = truncate(redacted, limit)
        if shown is redacted:  # redaction shortened it below the limit: the rest is still unseen
            return f"{redacted}… (+{hidden:,} characters)"
        kept, _, _ = shown.rpartition("… (+")
        return f"{kept}… (+{len(text) - len(kept):,} characters)"
    return truncate(_redact_shapes(text, random_strings), limit)


def redact_args(args: Iterable[object]) -> list[object]:
    """A container's command/args: `--token abc` (two items) and `--token=abc` (one) both lose the value."""
    result: list[object] = []
    hide_next = False
    for arg in args:
        if not isinstance(arg, str):
            result.append(redact_value(arg))
            hide_next = False
            continue
        if hide_next and not arg.startswith("-"):
            result.append(REDACTED)
            hide_next = False
            continue
        hide_next = arg.startswith("-") and "=" not in arg and is_secret_name(arg)
        result.append(redact_text(arg))
    return result


def redact_env(env: Iterable[object]) -> list[object]:
    """A container's `env` list: `{"name": "HF_TOKEN", "value": "..."}` keeps the name, hides the value."""
    return [redact_value(entry) for entry in env]


def _redact_scalar_under(value: object) -> object:
    """The value under a secret name: gone, unless it is a boolean, empty, or a `$VAR` reference."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, str) and (
        value.lower() in _BOOLEANS or _VARIABLE_REFERENCE.fullmatch(value.strip())
    ):
        return value
    return REDACTED


def redact_value(value: Any) -> Any:
    """Deep copy of `value` with secrets replaced, by key name and by value shape; the input is untouched.

    Keys are redacted too: a label or annotation key, or a ConfigMap data key, is data like any other.
    """
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, Mapping):
        return _redact_mapping(value)
    if isinstance(value, list | tuple | set | frozenset):
        return [redact_value(item) for item in value]
    return value


def _redact_key(key: Any) -> Any:
    return redact_text(key, limit=512) if isinstance(key, str) else key


def _redact_mapping(mapping: Mapping[Any, Any]) -> dict[Any, Any]:
    # A Kubernetes env entry or a name/value pair: the secret-ness is in the sibling "name".
    pair_name = mapping.get("name")
    result: dict[Any, Any] = {}
    for key, item in mapping.items():
        key_text = str(key)
        shown_key = _redact_key(key)
        if key_text in {"data", "stringData", "binaryData"} and mapping.get("kind") == "Secret":
            result[shown_key] = REDACTED
        elif key_text == "value" and isinstance(pair_name, str) and is_secret_name(pair_name):
            result[shown_key] = _redact_scalar_under(item)
        elif key_text in {"args", "command"} and isinstance(item, list):
            result[shown_key] = redact_args(item)
        elif is_secret_name(key_text) and not isinstance(item, Mapping | list):
            result[shown_key] = _redact_scalar_under(item)
        elif isinstance(item, str) and is_identifier_name(key_text):
            result[shown_key] = redact_text(item, random_strings=False)
        else:
            result[shown_key] = redact_value(item)
    return result
