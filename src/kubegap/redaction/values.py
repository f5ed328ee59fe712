"""What a value under a secret name is, when it is not the secret: a reference, a path, a switch.

`HF_TOKEN: $HF_TOKEN`, `password: {{ .Values.password }}`, `TOKEN=$(curl ...)`,
`GOOGLE_APPLICATION_CREDENTIALS: /secret/gcp/key.json`, `--token-file=/var/run/token`,
`api_key="none"` and `DB_PASSWORD: ""` say where a secret comes from, or that there is none; checks
and readers need them, and hiding them hides nothing. Everything else under a secret name is hidden,
whatever it looks like, since a password need not look like anything.

And the other way round: a name such as `MISTRAL_KEY` or `datadog-key` does not prove its value a
secret (`cache-key`, `topologyKey` are not), but a value that looks like key material under it is one.
"""

from __future__ import annotations

import re

from kubegap.redaction.names import is_secret_name

_SWITCHES = frozenset({"", "true", "false", "yes", "no", "on", "off", "0", "1", "none", "null", "nil"})
# $VAR, ${VAR...}, $(command ...), {{ template }}, {placeholder}, %(name)s, and a template's field
# path (.Values.key).
_REFERENCE = re.compile(
    r"\$[A-Za-z_{(]|\{\{|\{[A-Za-z_][\w.\-]{0,63}\}$|%\([A-Za-z_]\w{0,63}\)s$|\$\{?[0-9]"
    r"|\.(?:Values|Release|Chart|Capabilities|Files|Template)\."
)
# An absolute or home path of two or more parts, none of them key material.
_PATH = re.compile(r"(?:~|\.{1,2})?(?:/[A-Za-z0-9._\-]{1,128}){2,32}/?")
# The name of another variable: `GITHUB_TOKEN` as the value of `TOKEN_ENV`.
_VARIABLE_NAME = re.compile(r"(?<![A-Z0-9_])[A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)++")
_ALPHANUMERIC = re.compile(r"[A-Za-z0-9]")
_KEY_MATERIAL = re.compile(r"[A-Za-z0-9+/=_\-]{20,512}")
_HEX = re.compile(r"(?<![0-9a-fA-F])[0-9a-fA-F]{32,}+")


def _mixed(part: str) -> bool:
    """A path part that reads as key material (base64 cut at its slashes), not as a file name."""
    return (
        len(part) >= 10
        and any(char.isdigit() for char in part)
        and any(char.isupper() for char in part)
        and any(char.islower() for char in part)
    )


def is_not_a_secret(value: str) -> bool:
    """True for what a secret name may hold that is not a secret: a switch, a reference, a path."""
    text = value.strip().strip("\"'")
    if text.lower() in _SWITCHES or not _ALPHANUMERIC.search(text):
        return True
    if _REFERENCE.match(text):
        return True
    if _PATH.fullmatch(text) and not any(_mixed(part) for part in text.split("/")):
        return True
    return bool(_VARIABLE_NAME.fullmatch(text) and is_secret_name(text))


def looks_like_key_material(value: str) -> bool:
    """A value a key-like name (`MISTRAL_KEY`) holds that reads as a key: 32+ hex characters, or 20+
    token characters mixing upper case, lower case and digits (not a word, a path, a host, a label
    value such as `build-cache-v2-20240101`); a colon or full stop that ends a sentence is not part of it."""
    text = value.strip().strip("\"'").rstrip(":.")
    if _HEX.fullmatch(text):
        return True
    if len(text) < 20 or not _KEY_MATERIAL.fullmatch(text):
        return False
    return (
        any(char.isdigit() for char in text)
        and any(char.isupper() for char in text)
        and any(char.islower() for char in text)
    )
