"""The one redaction chokepoint: every string kubegap sends out (reports, MCP, web) passes through here.

Two rules work together. By name: a value stored under a name that says "secret" (an env var
`AWS_SECRET_ACCESS_KEY`, a dict key `password`, a flag `--token`) is replaced whatever it looks like.
By shape: a value that looks like a known credential (AWS key id, GitHub/Slack/Hugging Face/OpenAI
tokens, JWTs, PEM private keys, `Bearer ...`, URL passwords, long random strings) is replaced wherever
it appears. Things that merely look technical must survive: image digests, UIDs, resource versions,
container ids, paths. Only outgoing data is redacted; the snapshot itself is never copied or changed.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

REDACTED = "[REDACTED]"
TRUNCATE_AT = 4000  # longest string sent out; a 10 MB label value must not flood a report


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that make a name secret on their own.
_SECRET_WORDS = _words(
    "TOKEN TOKENS PASSWORD PASSWORDS PASSWD PASSPHRASE PWD SECRET SECRETS CREDENTIAL "
    "CREDENTIALS CREDS AUTH OAUTH AUTHORIZATION PRIVATE APIKEY ACCESSKEY SECRETKEY PRIVATEKEY "
    "AUTHTOKEN ACCESSTOKEN COOKIE SIGNATURE"
)
_KEY_WORDS = frozenset({"KEY", "KEYS"})
# KEY is a credential only after one of these (API_KEY, SSH_KEY); topologyKey and a taint `key` are not.
_KEY_QUALIFIERS = _words(
    "API ACCESS SECRET PRIVATE SSH SSL TLS ENCRYPTION SIGNING MASTER LICENSE CLIENT APP "
    "SESSION WEBHOOK DEPLOY GPG PGP SHARED ROOT ADMIN SERVICE STORAGE ACCOUNT BOT DB DATABASE"
)
# A last word that says the value is an identifier (container ids, hashes): shape rules for random
# strings are skipped there, known credential shapes still apply.
_IDENTIFIER_WORDS = _words("ID IDS UID UIDS HASH DIGEST CHECKSUM SHA SHA256")
_VARIABLE_REFERENCE = re.compile(
    r"\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\}|\([A-Za-z_][A-Za-z0-9_]*\))"
)
_SECRET_SUFFIXES = ("PASSWORD", "PASSWD", "SECRET", "TOKEN", "APIKEY")
# A last word that says the value is a reference or a location, not the secret itself.
_REFERENCE_WORDS = _words("FILE FILES PATH DIR NAME NAMES REF MODE TYPE URL ENDPOINT TTL ENABLED")
_BOOLEANS = frozenset({"true", "false", "yes", "no", "on", "off", "0", "1", ""})

_CAMEL_BOUNDARY = re.compile(r"([a-z0-9])([A-Z])")
_WORD_SPLIT = re.compile(r"[^A-Z0-9]+")

_PEM_BLOCK = re.compile(
    r"-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----"
    r"|-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[A-Za-z0-9+/=\s]*"
)
_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = (
    (_PEM_BLOCK, REDACTED),
    (re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b"), REDACTED),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b"), REDACTED),
    (re.compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}"), REDACTED),
    (re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}"), REDACTED),
    (re.compile(r"\bxox[abposre]-[A-Za-z0-9-]{10,}"), REDACTED),
    (re.compile(r"\bhf_[A-Za-z0-9]{30,}\b"), REDACTED),
    (re.compile(r"\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{20,}"), REDACTED),
    (re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"), REDACTED),
    (re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"), REDACTED),
    (re.compile(r"\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE), r"\1\2" + REDACTED),
    (re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://[^/\s:@\"']+):([^/\s@\"']+)@"), r"\1:" + REDACTED + "@"),
)
# `--password=x`, `--api-key x`, `-token=x`, `password: x`, `PASSWORD=x` inside free text.
_FLAG_ASSIGNMENT = re.compile(r"(?<![A-Za-z0-9_])(--?[A-Za-z][A-Za-z0-9_.-]*)(=|\s+)([^\s\"',;]+)")
_ENV_ASSIGNMENT = re.compile(r"(?<![A-Za-z0-9_\-])([A-Za-z_][A-Za-z0-9_]*)(=|:\s*)([^\s\"',;&]+)")
_RANDOM_CANDIDATE = re.compile(r"(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_=-]{32,}")
_DIGEST_PREFIX = re.compile(r"(?:(?:sha\d+|md5|blake\w*):|[a-z][a-z0-9+.-]*://)$", re.IGNORECASE)
_HEX = re.compile(r"[0-9a-fA-F]+")


def name_words(name: str) -> list[str]:
    """`awsSecretAccessKey`, `AWS_SECRET_ACCESS_KEY`, `--aws-secret` -> upper-case words."""
    spaced = _CAMEL_BOUNDARY.sub(r"\1_\2", name)
    return [word for word in _WORD_SPLIT.split(spaced.upper()) if word]


def is_secret_name(name: str) -> bool:
    """True when a name (env var, dict key, flag) says its value is a credential.

    `NCCL_IB_HCA`, `TOKENIZERS_PARALLELISM`, `secretName`, `tls-private-key-file` and a bare `key` (a taint
    or label key) are not; `API_KEY`, `HF_TOKEN`, `dbPassword` and `AWS_SECRET_ACCESS_KEY` are.
    """
    if "/" in name and "." in name.split("/")[0]:
        return False  # a kind key such as `rbac.authorization.k8s.io/ClusterRoleBinding` names a resource
    words = name_words(name)
    if not words or words[-1] in _REFERENCE_WORDS:
        return False
    for index, word in enumerate(words):
        if word in _SECRET_WORDS or word.endswith(_SECRET_SUFFIXES):
            return True
        if word in _KEY_WORDS and index > 0 and words[index - 1] in _KEY_QUALIFIERS:
            return True
    return False


def _entropy(text: str) -> float:
    counts = Counter(text)
    length = len(text)
    return -sum(count / length * math.log2(count / length) for count in counts.values())


def _char_class(char: str) -> int:  # separators are skipped by the caller
    return 0 if char.islower() else 1 if char.isupper() else 2 if char.isdigit() else 3


def _class_switches(token: str) -> float:
    """Share of neighbours of different kinds: ~0.65 in random base64, ~0.2-0.3 in CamelCase words."""
    classes = [_char_class(char) for char in token if char not in "-_/+="]
    if len(classes) < 2:
        return 0.0
    return sum(1 for left, right in itertools.pairwise(classes) if left != right) / (len(classes) - 1)


def _looks_random(token: str) -> bool:
    """A long token that reads like key material rather than a name, path, digest or UID."""
    if _HEX.fullmatch(token):
        return len(token) >= 48 and _entropy(token) >= 3.0
    if len(token) < 40:
        return False
    has_classes = (
        any(char.isdigit() for char in token)
        and any(char.isupper() for char in token)
        and any(char.islower() for char in token)
    )
    if not has_classes:
        return False
    entropy = _entropy(token)
    switches = _class_switches(token)
    return (entropy >= 4.0 and switches >= 0.45) or (entropy >= 4.5 and switches >= 0.3)


def _redact_random(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if _DIGEST_PREFIX.search(text, max(0, match.start() - 24), match.start()):
            return token
        return REDACTED if _looks_random(token) else token

    return _RANDOM_CANDIDATE.sub(replace, text)


def _redact_named_assignments(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        name, separator, value = match.groups()
        if value == REDACTED or value.lower() in _BOOLEANS or value.startswith("-"):
            return match.group(0)
        return f"{name}{separator}{REDACTED}" if is_secret_name(name) else match.group(0)

    text = _FLAG_ASSIGNMENT.sub(replace, text)
    return _ENV_ASSIGNMENT.sub(replace, text)


def truncate(text: str, limit: int = TRUNCATE_AT) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… (+{len(text) - limit:,} characters)"


def redact_text(text: str, *, limit: int = TRUNCATE_AT, random_strings: bool = True) -> str:
    """Redact every secret-shaped part of free text; long text is truncated first.

    `random_strings=False` keeps long random-looking tokens (for values known to be identifiers).
    """
    if not text:
        return text
    text = truncate(text, limit)
    for pattern, replacement in _SHAPES:
        text = pattern.sub(replacement, text)
    text = _redact_named_assignments(text)
    return _redact_random(text) if random_strings else text


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


def _is_identifier_name(name: str) -> bool:
    words = name_words(name)
    return bool(words) and words[-1] in _IDENTIFIER_WORDS


def _redact_scalar_under(key: str, value: object) -> object:
    """The value under a secret name: gone, unless it is a boolean, empty, or a `$VAR` reference."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, str) and (
        value.lower() in _BOOLEANS or _VARIABLE_REFERENCE.fullmatch(value.strip())
    ):
        return value
    return REDACTED


def redact_value(value: Any) -> Any:
    """Deep copy of `value` with secrets replaced, by key name and by value shape; the input is untouched."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, Mapping):
        return _redact_mapping(value)
    if isinstance(value, list | tuple | set | frozenset):
        return [redact_value(item) for item in value]
    return value


def _redact_mapping(mapping: Mapping[Any, Any]) -> dict[Any, Any]:
    # A Kubernetes env entry or a name/value pair: the secret-ness is in the sibling "name".
    pair_name = mapping.get("name")
    result: dict[Any, Any] = {}
    for key, item in mapping.items():
        key_text = str(key)
        if key_text in {"data", "stringData", "binaryData"} and mapping.get("kind") == "Secret":
            result[key] = REDACTED
        elif key_text == "value" and isinstance(pair_name, str) and is_secret_name(pair_name):
            result[key] = _redact_scalar_under(pair_name, item)
        elif key_text in {"args", "command"} and isinstance(item, list):
            result[key] = redact_args(item)
        elif is_secret_name(key_text) and not isinstance(item, Mapping | list):
            result[key] = _redact_scalar_under(key_text, item)
        elif isinstance(item, str) and _is_identifier_name(key_text):
            result[key] = redact_text(item, random_strings=False)
        else:
            result[key] = redact_value(item)
    return result
