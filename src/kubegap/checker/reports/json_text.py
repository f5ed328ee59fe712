"""JSON text of a report document (JSON, SARIF): any integer, and nothing that can steer a display.

Two things the serializer alone gets wrong:

* orjson refuses integers outside 64 bits, and such values reach evidence from snapshots, YAML
  (`0x…`, `1_000…`) and live bodies: one `replicas: 1180591620717411303424` used to crash
  `-f json` and `-f sarif`. Those integers are written as their decimal digits in a string, so the
  value survives exactly and no consumer's 64-bit parser overflows on it.
* JSON escapes C0 control characters but keeps DEL, C1 controls, zero-width characters and bidi
  overrides raw, so `cat report.json` could still be steered by a name from the cluster. They are
  written as `\\uXXXX` escapes: the same string to a JSON parser, inert on a terminal.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

_SMALLEST = -(2**63)
_LARGEST = 2**64 - 1
# What orjson leaves raw that a terminal or a bidi-aware viewer acts on (C0 is escaped already).
_RAW_INVISIBLE = re.compile(
    "[\x7f-\x9f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"
)


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group(0)):04x}"


def fits(value: Any) -> Any:
    """`value` with every integer orjson cannot write turned into its decimal string (copies only then)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if _SMALLEST <= value <= _LARGEST else str(value)
    if isinstance(value, dict):
        return {key: fits(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [fits(item) for item in value]
    return value


def dumps(document: Any) -> str:
    """Indented JSON text ending in a newline; never raises on a large integer."""
    try:
        raw = orjson.dumps(document, option=orjson.OPT_INDENT_2, default=str)
    except TypeError:
        raw = orjson.dumps(fits(document), option=orjson.OPT_INDENT_2, default=str)
    return _RAW_INVISIBLE.sub(_escape, raw.decode()) + "\n"
