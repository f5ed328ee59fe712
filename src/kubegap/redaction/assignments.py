"""`name=value` in free text: flags, environment lines, YAML, JSON inside a string, env pairs.

`--password=x`, `--api-key x`, `password: x`, `PASSWORD=x`, `password = "x y"`, `"password":"x"`
(a docker config, a `last-applied-configuration` annotation), `\\"password\\":\\"x\\"` (the same JSON
escaped once more), `{"name":"DB_PASSWORD","value":"x"}` and `- name: DB_PASSWORD` / `value: x` (an
env list written out as text). Only the name and separator are matched by the patterns; the value is
read after the name proved secret, so a name that is not secret never swallows text that holds the
next assignment ("agent:Node/token: x"). A quoted value runs to its closing quote, spaces included.

A name that is only key-like (`MISTRAL_KEY=`, `datadog-key:`) hides a value that looks like key
material (`values.looks_like_key_material`); a secret name hides anything but a reference.
"""

from __future__ import annotations

import re

from kubegap.redaction.formats import REDACTED
from kubegap.redaction.names import is_secret_name, is_weak_secret_name, name_kind
from kubegap.redaction.values import is_not_a_secret, looks_like_key_material

# The look-behinds hold every character the names consume, so no run is scanned from its middle.
# Each name's start test follows its first character, so the scan skips to possible first characters.
_FLAG_NAME = re.compile(r"(-(?<![A-Za-z0-9_.\-]-)-?[A-Za-z][A-Za-z0-9_.\-]{0,127}+)(=|\s++(?!-))")
# A name, then `=`, `:`, `=>` or `:=`, with the quotes of JSON (escaped any number of times, as a
# JSON string inside a repr inside SARIF is) on either side.
_ENV_NAME = re.compile(
    r"([A-Za-z_](?<![A-Za-z0-9_.\-][A-Za-z_])[A-Za-z0-9_.\-]{0,127}+)"
    r"((?:\\{0,8}+[\"'])?[ \t]*+(?:=>|:=|=|:)[ \t]*+(?:\\{0,8}+[\"'])?)"
)
_FLAG_VALUE = re.compile(r"[^\s\"',;]++")
_ENV_VALUE = re.compile(r"(?:[^\s\"',;&\\]|\\(?![\"'nrt]))++")
# A quoted value starts right after its opening quote (the look-behinds), so no scan starts inside one.
# Under a name that is only key-like, the key is its run of token characters: `MISTRAL_KEY=abc에`
# (a Korean particle) or `datadog-key: abc:` (end of a sentence) hide `abc` alone.
_KEY_VALUE = re.compile(r"[A-Za-z0-9+/=_\-]++")
_QUOTED_VALUES = {
    '"': re.compile(r"(?<=\")(?:[^\"\\\n]|\\[^\n]){1,1024}+(?=\")"),
    "'": re.compile(r"(?<=')[^'\n]{1,1024}+(?=')"),
    '\\"': re.compile(r"(?<=\\\")[^\"\\\n]{1,1024}+(?=\\++\")"),
}
# An env pair written out: `"name": "DB_PASSWORD", "value": "..."` or `name: DB_PASSWORD` + `value: ...`,
# the line break real or escaped (`\\n`, as a repr or a JSON string shows it).
_PAIR_NAME = re.compile(
    r"(?<![A-Za-z0-9_])(\\{0,8}+[\"']?)name\1[ \t]*+:[ \t]*+"
    r"(\\{0,8}+[\"']?)([A-Za-z_][A-Za-z0-9_.\-]{0,127}+)\2"
)
_PAIR_VALUE = re.compile(
    r"(?<=[A-Za-z0-9_.\-\"'])[ \t]*+,?[ \t]*+(?:(?:\r?\n|\\{1,8}+[nr])[ \t]*+){0,2}+(?:- )?"
    r"(\\{0,8}+[\"']?)value\1[ \t]*+:[ \t]*+(\\{0,8}+[\"']?)"
)


_PATH_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-/")


def _with_path(text: str, start: int, name: str) -> str:
    """`checksum/secret`, `example.com/api-key`: a name after `/` is read with its path, whose first
    part can say "a hash of" or "a label key"."""
    begin = start - 1
    while begin > 0 and start - begin < 128 and text[begin - 1] in _PATH_CHARS:
        begin -= 1
    return text[begin:start] + name if begin < start - 1 else name


def _value_after(text: str, end: int, separator: str, plain: re.Pattern[str]) -> re.Match[str] | None:
    """The value that starts at `end`: to its closing quote when the separator opened one."""
    quote = '\\"' if separator.endswith('\\"') else separator[-1:] if separator[-1:] in "\"'" else ""
    if quote:
        quoted = _QUOTED_VALUES[quote].match(text, end)
        if quoted is not None:
            return quoted
    return plain.match(text, end)


def _redact_assignments(text: str, names: re.Pattern[str], plain: re.Pattern[str]) -> str:
    parts: list[str] = []
    position = 0
    for found in names.finditer(text):
        start = found.start()
        if start < position:
            continue
        name = found.group(1)
        if start and text[start - 1] == "/":
            name = _with_path(text, start, name)
        kind = name_kind(name)
        if not kind:
            continue
        secret = kind != "key"
        value = _value_after(text, found.end(), found.group(2), plain if secret else _KEY_VALUE)
        if value is None:
            continue
        shown = value.group(0)
        if shown.startswith(REDACTED) or is_not_a_secret(shown):
            continue
        if shown.isdigit() and is_weak_secret_name(name):
            continue  # `pass=3`: a count
        if not secret and not looks_like_key_material(shown):
            continue
        parts += [text[position : found.end()], REDACTED]
        position = value.end()
    parts.append(text[position:])
    return "".join(parts)


def _redact_pairs(text: str) -> str:
    parts: list[str] = []
    position = 0
    for found in _PAIR_NAME.finditer(text):
        if found.start() < position or not is_secret_name(found.group(3)):
            continue
        label = _PAIR_VALUE.match(text, found.end())
        if label is None:
            continue
        value = _value_after(text, label.end(), label.group(2), _ENV_VALUE)
        if value is None or value.group(0).startswith(REDACTED) or is_not_a_secret(value.group(0)):
            continue
        parts += [text[position : label.end()], REDACTED]
        position = value.end()
    parts.append(text[position:])
    return "".join(parts)


def redact_named_assignments(text: str) -> str:
    text = _redact_assignments(text, _FLAG_NAME, _FLAG_VALUE)
    text = _redact_assignments(text, _ENV_NAME, _ENV_VALUE)
    return _redact_pairs(text) if "value" in text else text
