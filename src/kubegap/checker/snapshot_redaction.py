"""What `kubegap snapshot` writes by default: the cluster's structure, with its values redacted.

A snapshot is a file people attach to tickets and send to others, so it must not carry the cluster's
configuration files and credentials. Written without `--raw`, every object keeps its kind, metadata,
keys and shape, and loses:

* every value of a ConfigMap's `data` and `binaryData` (the keys stay), except the two files checks
  parse: a dcgm-exporter counters CSV (every line a `DCGM_...` field) and Kueue's
  `controller_manager_config.yaml`;
* every literal `value` of an `env` list anywhere in an object (the containers of every workload kind,
  a ClusterPolicy's component env), the names and `valueFrom` references staying, except the variables
  checks judge (`KEPT_ENV_PREFIXES`, `KEPT_ENV_NAMES`), never one whose name says it is a credential;
* in `command` and `args`, the value of a secret-named flag, and in annotations the value under a
  secret name; there and in every value kept above, secret-shaped text, by the rules every output
  of kubegap uses (`kubegap.redaction`), without cutting long values.

Empty values stay empty and `null` stays `null`, so "set" and "unset" read alike. Objects are copied
where they change and never edited, because the snapshot in memory shares equal parts between objects.
`tests/checker/test_snapshot_redaction.py` scans every check fixture and the demo cluster raw and
redacted and requires the same findings: a check that starts to judge another variable or file fails
it until the lists here name it.
"""

from __future__ import annotations

import re
from typing import Any

from kubegap.checker.snapshot import KubeObject
from kubegap.redaction import REDACTED, TRUNCATE_AT, is_secret_name, redact_args, redact_text

# Variables whose values checks judge (NCCL and PyTorch watchdogs, dcgm-exporter's collectors, device
# plugin and validator switches, GPU visibility). They configure runtimes and carry no credentials.
KEPT_ENV_PREFIXES = ("NCCL_", "TORCH_NCCL_", "TORCH_DISTRIBUTED_", "DCGM_", "NVIDIA_", "CUDA_")
KEPT_ENV_NAMES = frozenset({"DP_DISABLE_HEALTHCHECKS", "DISABLE_DEV_CHAR_SYMLINK_CREATION"})
KUEUE_CONFIG_KEY = "controller_manager_config.yaml"
_COUNTER_LINE = re.compile(r"DCGM_[A-Z0-9_]++(?:[ \t]*+,.*+)?+")  # on a stripped line; linear time
_DEEPEST = 200  # no Kubernetes object nests deeper; a subtree below this is dropped whole
_MEMO_LIMIT = 1 << 20  # entries: equal parts are shared between objects, so each is walked once


def keeps_env_value(name: object) -> bool:
    """True when a literal env value under `name` is written (still shape-redacted)."""
    if not isinstance(name, str) or is_secret_name(name):
        return False
    return name in KEPT_ENV_NAMES or name.startswith(KEPT_ENV_PREFIXES)


def redact_objects(objects: list[KubeObject]) -> list[KubeObject]:
    """The objects with their values redacted as the module docstring says; the inputs are unchanged."""
    redactor = _Redactor()
    return [redactor.object(obj) for obj in objects]


def _text(value: str) -> str:
    """Secret-shaped parts replaced, the value never cut."""
    return redact_text(value, limit=max(len(value), TRUNCATE_AT))


def _is_counters_csv(value: str) -> bool:
    lines = [line.strip() for line in value.splitlines()]
    fields = [line for line in lines if line and not line.startswith("#")]
    return bool(fields) and all(_COUNTER_LINE.fullmatch(line) for line in fields)


def _config_value(field: str, key: object, value: Any) -> Any:
    if value is None or value == "":
        return value
    parsed_by_a_check = isinstance(value, str) and (
        _is_counters_csv(value) or (key == KUEUE_CONFIG_KEY and "kueue" in value)
    )
    return _text(value) if field == "data" and parsed_by_a_check else REDACTED


def _env_value(name: object, value: Any) -> Any:
    if value is None or value == "":
        return value
    if keeps_env_value(name):
        return _text(value) if isinstance(value, str) else value
    return REDACTED


class _Redactor:
    """Walks objects, copying only what changes; parts shared between objects are walked once."""

    def __init__(self) -> None:
        self._done: dict[int, Any] = {}

    def object(self, obj: KubeObject) -> KubeObject:
        if type(obj) is not dict:
            return obj
        result: KubeObject = self._walk(obj, 0)
        if obj.get("kind") == "ConfigMap":
            result = self._config_map(result)
        return result

    def _config_map(self, obj: KubeObject) -> KubeObject:
        changed = dict(obj)
        for field in ("data", "binaryData"):
            values = obj.get(field)
            if isinstance(values, dict):
                changed[field] = {key: _config_value(field, key, value) for key, value in values.items()}
            elif values is not None:
                changed[field] = REDACTED
        return changed

    def _walk(self, value: Any, depth: int) -> Any:
        kind = type(value)
        if kind is not dict and kind is not list:
            return value
        key = id(value)
        done = self._done.get(key)
        if done is not None:
            return done
        if depth > _DEEPEST:
            result: Any = REDACTED
        elif kind is dict:
            result = self._mapping(value, depth)
        else:
            walked = [self._walk(item, depth + 1) for item in value]
            result = walked if any(new is not old for new, old in zip(walked, value, strict=True)) else value
        if len(self._done) >= _MEMO_LIMIT:
            self._done.clear()
        self._done[key] = result
        return result

    def _mapping(self, value: dict[str, Any], depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        changed = False
        for key, item in value.items():
            new: Any
            if key == "env" and type(item) is list:
                new = self._env(item)
            elif key in ("args", "command") and type(item) is list:
                new = _args(item)
            elif key == "annotations" and type(item) is dict:
                new = _annotations(item)
            else:
                new = self._walk(item, depth + 1)
            result[key] = new
            changed = changed or new is not item
        return result if changed else value

    def _env(self, entries: list[Any]) -> list[Any]:
        result = []
        for entry in entries:
            if type(entry) is dict and "value" in entry:
                value = _env_value(entry.get("name"), entry["value"])
                if value != entry["value"]:
                    entry = {**entry, "value": value}
            result.append(entry)
        return result if any(new is not old for new, old in zip(result, entries, strict=True)) else entries


def _args(args: list[Any]) -> list[Any]:
    """`redact_args`, with two differences a file needs: a secret-named `--flag=value` loses its whole
    value (an argument is one word, whatever spaces or newlines it holds), and long words are redacted
    whole instead of cut (a cut can change a verdict)."""
    shown = redact_args(args)
    for index, word in enumerate(args):
        if not isinstance(word, str):
            continue
        flag, equals, value = word.partition("=")
        # an empty value (`--ServerApp.token=` or `=''`) stays: "no token at all" is a verdict
        if equals and flag.startswith("-") and is_secret_name(flag) and value.strip("'\""):
            shown[index] = f"{flag}={REDACTED}"
        elif len(word) > TRUNCATE_AT and shown[index] != REDACTED:
            shown[index] = _text(word)
    return args if shown == args else shown


def _annotations(annotations: dict[Any, Any]) -> dict[Any, Any]:
    result: dict[Any, Any] = {}
    for key, value in annotations.items():
        if not isinstance(value, str) or not value:
            result[key] = value
        elif isinstance(key, str) and is_secret_name(key):
            result[key] = REDACTED
        else:
            result[key] = _text(value)
    return annotations if result == annotations else result
