"""Long random-looking strings: key material with no known prefix and no telling name around it.

A shape rule cannot be perfect, so it is measured (tests/checker/test_redaction.py): random base64
and hex are caught, while CamelCase names, paths, UIDs, digests and container ids survive.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter

from kubegap.redaction.detectors import REDACTED

# Starts only where a run of token characters starts (the look-behind), so the scan is linear.
_RANDOM_CANDIDATE = re.compile(r"(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_=-]{32,}+")
_DIGEST_PREFIX = re.compile(r"(?:(?:sha\d{1,3}|md5|blake\w{0,4}):|[a-z][a-z0-9+.-]{0,20}://)$", re.IGNORECASE)
_HEX = re.compile(r"[0-9a-fA-F]++")


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


def looks_random(token: str) -> bool:
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


def redact_random(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if _DIGEST_PREFIX.search(text, max(0, match.start() - 24), match.start()):
            return token
        return REDACTED if looks_random(token) else token

    return _RANDOM_CANDIDATE.sub(replace, text)


PATTERNS = {"random string": _RANDOM_CANDIDATE, "digest prefix": _DIGEST_PREFIX, "hex": _HEX}
