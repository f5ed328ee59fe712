"""The token formats compiled into one pass, plus the formats that keep part of what they match.

Every pattern runs in linear time, which `tests/checker/test_pattern_linear_time.py` proves on 1 MB
adversarial strings: each one starts with a look-behind that refuses to start inside a run of the
characters its body consumes, so a long run is scanned from its start only, never from each of its
positions (the quadratic case a 200,000-letter string once hit); bodies use possessive quantifiers
where a failed match could otherwise backtrack, and runs that must be followed by more are bounded
or stop at the text that could start the next attempt (a URL password stops at the next `://`).
"""

from __future__ import annotations

import re

from kubegap.redaction.formats import REDACTED, TOKEN_FORMATS, Detector

__all__ = [
    "AUTHORIZATION",
    "CONTEXT_FORMATS",
    "GO_DSN",
    "REDACTED",
    "SHAPES",
    "TOKEN_GROUPS",
    "URL_PASSWORD",
    "all_patterns",
    "redact_tokens",
]

# Authorization schemes; each one's word-start test follows its first letter (see formats.py: the scan
# then skips to the positions that hold a possible first letter).
_SCHEME_WORDS = ("Bearer", "bearer", "BEARER", "Basic", "basic", "BASIC", "Token", "token", "TOKEN")
_SCHEMES = "|".join(
    f"{word[0]}(?<![A-Za-z0-9_]{word[0]}){word[1:]}"
    for word in (*_SCHEME_WORDS, "ApiKey", "Api-Key", "SSWS", "Splunk", "GenieKey")
)
# Formats that keep part of the match (the scheme and user of a URL, the word Bearer). Each starts
# with a character class or a literal, its start test right after, for the same reason.
CONTEXT_FORMATS: tuple[Detector, ...] = (
    Detector(
        "authorization header",
        # A scheme word, then a credential that is not a lower-case word ("token injected above").
        rf"((?:{_SCHEMES})[ \t]++)(?![a-z\-]++(?![A-Za-z0-9._~+/=]))[A-Za-z0-9._~+/=\-]{{8,}}+",
        r"\1" + REDACTED,
    ),
    Detector(
        "url with password",
        # scheme://user:password@ with an empty user allowed (`redis://:pw@host`) and `/` allowed in the
        # password, though not a port followed by a path (`https://host:8443/a/@b` has no password).
        r"([A-Za-z](?<![A-Za-z0-9+.\-][A-Za-z])[A-Za-z0-9+.\-]{0,30}://[^/\s:@\"'<>]{0,256}+):"
        r"(?![0-9]{1,5}/)(?:[^\s@\"'<>/:]|/(?!/)|:(?!//))++@",
        r"\1:" + REDACTED + "@",
    ),
    Detector(
        "go dsn password",
        # user:password@tcp(host:3306)/db, the Go MySQL driver's form, which has no scheme.
        r"([A-Za-z0-9_.\-](?<![A-Za-z0-9_.\-:@][A-Za-z0-9_.\-])[A-Za-z0-9_.\-]{0,63}+)"
        r":[^\s@\"'<>:]{1,256}+@(?=(?:tcp|tcp6|unix|udp)\()",
        r"\1:" + REDACTED + "@",
    ),
)


# Rows whose first characters fall in one group share one pattern; a string is scanned once per
# group, and each scan skips at C speed to the next position holding one of the group's first
# characters. Few groups keep short strings cheap, several keep each group's list of rows short.
_GROUPS = 6
_ROWS = {f"r{number}": row for number, row in enumerate(TOKEN_FORMATS)}


def _alternative(name: str, row: Detector, without_lead: bool) -> str:
    pattern = row.full_pattern.replace("(?P<keep>", f"(?P<keep_{name}>")
    return f"{pattern[len(row.lead) :] if without_lead else pattern}(?P<{name}>)"


def _grouped() -> tuple[re.Pattern[str], ...]:
    by_lead: dict[str, list[str]] = {}
    for name, row in _ROWS.items():
        if row.start != "shape":
            by_lead.setdefault(row.lead, []).append(_alternative(name, row, without_lead=True))
    leads = sorted(by_lead)
    groups = [leads[index::_GROUPS] for index in range(_GROUPS)]
    return tuple(
        re.compile("|".join(f"{lead}(?:{'|'.join(by_lead[lead])})" for lead in group)) for group in groups
    )


TOKEN_GROUPS = _grouped()
SHAPES = re.compile(
    "|".join(
        _alternative(name, row, without_lead=False) for name, row in _ROWS.items() if row.start == "shape"
    )
)
AUTHORIZATION = re.compile(CONTEXT_FORMATS[0].pattern)
URL_PASSWORD = re.compile(CONTEXT_FORMATS[1].pattern)
GO_DSN = re.compile(CONTEXT_FORMATS[2].pattern)


def _hidden(text: str) -> list[tuple[int, int]]:
    """(start, end) of every token in `text`, by every row, overlapping ones merged."""
    spans: list[tuple[int, int]] = []
    for pattern in (*TOKEN_GROUPS, SHAPES):
        for match in pattern.finditer(text):
            row = _ROWS[match.lastgroup or ""]
            start = match.start() + row.keep
            kept = match.groupdict().get(f"keep_{match.lastgroup}")
            if kept:
                start += len(kept)
            reach = start
            while reach > match.start() - row.back and reach > 0 and text[reach - 1] in row.back_chars:
                reach -= 1
            spans.append((reach, match.end()))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def redact_tokens(text: str) -> str:
    """Every token format, then the context formats (Bearer, URL passwords, Go DSNs), replaced."""
    parts: list[str] = []
    position = 0
    for start, end in _hidden(text):
        parts += [text[position:start], REDACTED]
        position = end
    parts.append(text[position:])
    text = "".join(parts)
    if " " in text or "\t" in text:
        text = AUTHORIZATION.sub(CONTEXT_FORMATS[0].replacement, text)
    if "://" in text:
        text = URL_PASSWORD.sub(CONTEXT_FORMATS[1].replacement, text)
    return GO_DSN.sub(CONTEXT_FORMATS[2].replacement, text) if "@" in text else text


def all_patterns() -> dict[str, re.Pattern[str]]:
    """Every detector compiled on its own, by name (the linear-time test runs each)."""
    compiled = {detector.name: re.compile(detector.full_pattern) for detector in TOKEN_FORMATS}
    compiled["authorization header"] = AUTHORIZATION
    compiled["url with password"] = URL_PASSWORD
    compiled["go dsn password"] = GO_DSN
    for number, group in enumerate(TOKEN_GROUPS):
        compiled[f"token formats, group {number}"] = group
    compiled["token formats without a fixed first character"] = SHAPES
    return compiled
