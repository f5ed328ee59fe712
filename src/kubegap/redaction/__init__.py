"""The one redaction chokepoint: every string kubegap sends out (reports, MCP, web) passes through here.

Two rules work together. By name: a value stored under a name that says "secret" (an env var
`AWS_SECRET_ACCESS_KEY`, a dict key `password`, a flag `--token`, `"password":` inside a JSON
string) is replaced whatever it looks like, unless it is a reference (`$VAR`, `{{ template }}`, a
file path: `values.py`); a name that is only key-like (`MISTRAL_KEY`) hides what looks like key
material (`names.py`, `assignments.py`). By shape: a value that looks like a known credential
format (`formats.py`: 100+ rows, GitHub, GitLab, Slack, Google, AWS, Azure, Stripe, OpenAI,
Anthropic, Hugging Face, NGC, Groq, Together, Datadog, Grafana, Sentry ..., JWTs, key blocks,
password hashes), a context format (`Bearer ...`, URL passwords, Go DSNs: `detectors.py`), a
command-line credential (`curl -u`, `mysql -p`, `wandb login`, `.netrc`: `commands.py`), any of
these URL-, hex- or base64-encoded (`encodings.py`), or random key material (`randomness.py`) is
replaced wherever it appears. Things that merely look technical must survive: image digests and
tags, UIDs, resource versions, checksum annotations, container ids, paths, Secret *names*; a
benchmark (`bench/redaction_false_positives.py`) counts what real manifests lose. Only outgoing
data is redacted; the snapshot itself is never changed.

Redact first, cut after: a long text is redacted over its shown part plus a margin, then cut, so a
token is never halved before it is recognised (a cut token's prefix is no longer a known shape).
Every pattern is linear-time, so a 1 MB string costs milliseconds, not minutes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kubegap.redaction.assignments import redact_named_assignments
from kubegap.redaction.commands import hidden_spans, redact_command_lines
from kubegap.redaction.detectors import CONTEXT_FORMATS, REDACTED, redact_tokens
from kubegap.redaction.encodings import redact_encoded
from kubegap.redaction.names import (
    is_identifier_name,
    is_key_name,
    is_secret_name,
    is_weak_secret_name,
    name_words,
    names_a_secret_object,
)
from kubegap.redaction.randomness import redact_random
from kubegap.redaction.values import is_not_a_secret, looks_like_key_material

TRUNCATE_AT = 4000  # longest string sent out; a 10 MB label value must not flood a report
# Characters past the cut that are still redacted, so a token that crosses the cut is seen whole.
CUT_MARGIN = 16_384

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


def truncate(text: str, limit: int = TRUNCATE_AT) -> str:
    """Text cut at `limit` characters with a note; never inside a `[REDACTED]` marker."""
    if len(text) <= limit:
        return text
    cut = limit
    marker = text.rfind("[", max(0, cut - len(REDACTED)), cut)
    if marker != -1 and text.startswith(REDACTED, marker) and marker + len(REDACTED) > cut:
        cut = marker
    return f"{text[:cut]}… (+{len(text) - cut:,} characters)"


def _redact_shapes(text: str, random_strings: bool, depth: int = 0) -> str:
    if depth or len(text) > _SHORT:
        return _redact_passes(text, random_strings, depth)
    key = (text, random_strings)
    if key in _CLEAN:
        return text
    shown = _redact_passes(text, random_strings, depth)
    if shown == text:
        if len(_CLEAN) >= _CLEAN_SIZE:
            _CLEAN.clear()
        _CLEAN.add(key)
    return shown


# Reports repeat the same short strings (keys, names, kinds) thousands of times. Those that hold no
# secret are remembered, so the next one costs a set lookup; a string that held one is never kept.
_SHORT = 256
_CLEAN_SIZE = 16_384
_CLEAN: set[tuple[str, bool]] = set()


def _redact_passes(text: str, random_strings: bool, depth: int) -> str:
    text = redact_tokens(text)
    if len(text) >= 16:
        text = redact_encoded(
            text, lambda decoded, level: _redact_shapes(decoded, random_strings, level), depth
        )
    text = redact_command_lines(text)
    if "=" in text or ":" in text or "-" in text:
        text = redact_named_assignments(text)
    return redact_random(text) if random_strings and len(text) >= 32 else text


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


def redact_args(args: Iterable[object], *, command: Sequence[object] = ()) -> list[object]:
    """A container's command/args: `--token abc` (two items), `--token=abc` (one), `-p pw` after
    `sshpass` or `docker login`, `-u user:pw` after `curl` all lose the secret. `command` is the
    container's `command` list, when `args` continue it."""
    items = list(args)
    words = [item if isinstance(item, str) else "" for item in [*command, *items]]
    cuts: dict[int, tuple[int, int]] = {}
    for index, start, end in hidden_spans(words):
        if index >= len(command) and end > start:
            cuts.setdefault(index - len(command), (start, end))
    result: list[object] = []
    hide_next = False
    for position, arg in enumerate(items):
        if not isinstance(arg, str):
            result.append(redact_value(arg))
            hide_next = False
            continue
        if hide_next and not arg.startswith("-") and not is_not_a_secret(arg):
            result.append(REDACTED)
            hide_next = False
            continue
        hide_next = arg.startswith("-") and "=" not in arg and is_secret_name(arg)
        if position in cuts:
            start, end = cuts[position]
            arg = arg[:start] + REDACTED + arg[end:]
        result.append(redact_text(arg))
    return result


def redact_env(env: Iterable[object]) -> list[object]:
    """A container's `env` list: `{"name": "HF_TOKEN", "value": "..."}` keeps the name, hides the value."""
    return [redact_value(entry) for entry in env]


def _redact_scalar_under(value: object, name: str) -> object:
    """The value under a secret name: gone, unless it is a switch, empty, or a reference (`$VAR`,
    `{{ template }}`, a file path), or a number under a name such as `pass` (a count)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float) and is_weak_secret_name(name):
        return value
    if isinstance(value, str) and is_not_a_secret(value):
        return redact_text(value)
    return REDACTED


def redact_value(value: Any) -> Any:
    """Deep copy of `value` with secrets replaced, by key name and by value shape; the input is untouched.

    Keys are redacted too: a label or annotation key, or a ConfigMap data key, is data like any other.
    """
    kind = type(value)
    if kind is str:
        return redact_text(value)
    if kind is dict:
        return _redact_mapping(value)
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, Mapping):
        return _redact_mapping(value)
    if isinstance(value, list | tuple | set | frozenset):
        return [redact_value(item) for item in value]
    return value


def _redact_key(key: Any) -> Any:
    return redact_text(key, limit=512) if isinstance(key, str) else key


# A report repeats a few hundred keys (`kind`, `message`, label keys) hundreds of thousands of times:
# what each says about its value is worked out once. Only keys that hold no secret are remembered.
_KeyPlan = tuple[Any, bool, bool, bool, bool]  # shown key, secret name, key-like, identifier, ends `Secret`
_KEY_PLANS: dict[str, _KeyPlan] = {}
_KEY_PLANS_SIZE = 8192


def _key_plan(key: Any) -> _KeyPlan:
    plan = _KEY_PLANS.get(key) if type(key) is str else None
    if plan is not None:
        return plan
    text = str(key)
    shown = _redact_key(key)
    plan = (shown, is_secret_name(text), is_key_name(text), is_identifier_name(text), text.endswith("Secret"))
    if type(key) is str and shown == key:
        if len(_KEY_PLANS) >= _KEY_PLANS_SIZE:
            _KEY_PLANS.clear()
        _KEY_PLANS[key] = plan
    return plan


def _redact_mapping(mapping: Mapping[Any, Any]) -> dict[Any, Any]:
    # A Kubernetes env entry or a name/value pair: the secret-ness is in the sibling "name".
    pair_name = mapping.get("name")
    command = mapping.get("command")
    result: dict[Any, Any] = {}
    for key, item in mapping.items():
        key_text = str(key)
        shown_key, secret_name, key_name, identifier, names_secret = _key_plan(key)
        text = isinstance(item, str)
        if key_text in {"data", "stringData", "binaryData"} and mapping.get("kind") == "Secret":
            result[shown_key] = REDACTED
        elif key_text == "value" and isinstance(pair_name, str) and _is_named_secret(pair_name, item):
            result[shown_key] = _redact_scalar_under(item, pair_name)
        elif key_text in {"args", "command"} and isinstance(item, list):
            before = command if key_text == "args" and isinstance(command, list) else []
            result[shown_key] = redact_args(item, command=before)
        elif text and names_secret and names_a_secret_object(key_text, item):
            result[shown_key] = redact_text(item)
        elif (secret_name or (text and key_name and looks_like_key_material(item))) and not isinstance(
            item, Mapping | list
        ):
            result[shown_key] = _redact_scalar_under(item, key_text)
        elif text and identifier:
            result[shown_key] = redact_text(item, random_strings=False)
        else:
            result[shown_key] = redact_value(item)
    return result


def _is_named_secret(name: str, value: object) -> bool:
    """A secret name, or a key-like name (`MISTRAL_KEY`) over a value that looks like key material."""
    if is_secret_name(name):
        return True
    return isinstance(value, str) and is_key_name(name) and looks_like_key_material(value)
