"""Long random-looking strings: key material with no known prefix and no telling name around it.

A shape rule cannot be perfect, so it is measured (tests/checker/test_redaction.py): random base64
and hex are caught, while CamelCase names, paths, model names (`org/Model-7B-Instruct`), UIDs,
digests, image tags, container ids, base64 of text (a JSON annotation) and of images survive.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter

from kubegap.redaction.encodings import decoded_bytes, decoded_text
from kubegap.redaction.formats import REDACTED

# Starts only where a run of token characters starts (the look-behind), so the scan is linear.
# `=` only as padding at the end, so that `--flag=<key>` is read as the key alone.
_RANDOM_CANDIDATE = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{32,}+={0,2}")
# What may stand before a hash that is not a secret: `sha256:`, `md5:`, a URL scheme, an image
# reference's `repo/name:` (a tag made of a commit hash), `@`, or a name that says hash
# (`checksum/config: `, `pod-template-hash=`, `revision: `).
_DIGEST_PREFIX = re.compile(
    r"(?:(?:sha\d{1,3}|md5|blake\w{0,4}):|(?<![a-z0-9+.\-])[a-z][a-z0-9+.\-]{0,20}+://"
    r"|(?<![A-Za-z0-9._\-])[A-Za-z0-9._\-]++/[A-Za-z0-9._/\-]*+:|@"
    r"|(?<![A-Za-z0-9_./\-])[A-Za-z0-9_./\-]{0,64}?(?:checksum|hash|digest|sha[0-9]{0,3}|fingerprint|revision|commit)"
    r"[A-Za-z0-9_./\-]{0,64}+[ \t]*+[:=][ \t]*+[\"']?)$",
    re.IGNORECASE,
)
# A token that starts with `//` right after a scheme is the rest of a URL (`hf://org/model`).
_SCHEME = re.compile(r"(?<![a-z0-9+.\-])[a-z][a-z0-9+.\-]{0,20}+:$", re.IGNORECASE)
_HEX = re.compile(r"[0-9a-fA-F]++")
# File signatures of base64 images and documents in configuration (logos, test payloads).
_MAGIC = (b"\xff\xd8\xff", b"\x89PNG", b"GIF8", b"%PDF", b"<svg", b"RIFF")


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


def _reads_as_name(token: str) -> bool:
    """A path or a model name: `/` beside `-` or `_` (no base64 alphabet has both), or many
    separators (`NVIDIA-Nemotron-3-Ultra-550B-A55B-FP8-block`)."""
    body = token.rstrip("=")
    if "/" in body and ("-" in body or "_" in body):
        return True
    separators = sum(body.count(char) for char in "-_")
    return separators >= 6 and separators >= 0.12 * len(body)


def _encodes_text_or_image(token: str) -> bool:
    if decoded_text(token) is not None:
        return True
    data = decoded_bytes(token[:16])
    return data is not None and data.startswith(_MAGIC)


def looks_random(token: str) -> bool:
    """A long token that reads like key material rather than a name, path, digest or UID."""
    if _HEX.fullmatch(token):
        return len(token) >= 48 and _entropy(token) >= 3.0 and decoded_text(token) is None
    if len(token) < 40 or _reads_as_name(token):
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
    random = (entropy >= 4.0 and switches >= 0.45) or (entropy >= 4.5 and switches >= 0.3)
    return random and not _encodes_text_or_image(token)


def redact_random(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        start = match.start()
        if _DIGEST_PREFIX.search(text, max(0, start - 96), start):
            return token
        if token.startswith("//") and _SCHEME.search(text, max(0, start - 24), start):
            return token
        return REDACTED if looks_random(token) else token

    return _RANDOM_CANDIDATE.sub(replace, text)


PATTERNS = {
    "random string": _RANDOM_CANDIDATE,
    "digest prefix": _DIGEST_PREFIX,
    "hex": _HEX,
    "scheme": _SCHEME,
}
