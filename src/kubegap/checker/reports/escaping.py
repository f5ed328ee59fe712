"""Output encoding per format, for text that came from the cluster or the files (names, messages).

An object named ``train` <img src=https://evil.example/p.png> [click](https://evil.example) `x``
must show as that name, not as an image and a link, when the Markdown report is posted as a PR
comment; an ESC sequence in a label must not repaint the terminal. So:

* `visible()` (every format, via `one_line`): control characters and bidirectional overrides
  become visible escapes such as `\\x1b` and `\\u202e`, so no byte can steer a terminal or reorder
  what a reader sees;
* `markdown_code()`: a code span whose fence is longer than any run of backticks inside, so the
  text cannot close it; `|` escaped for table cells;
* `markdown_text()`: HTML-significant characters as entities, Markdown punctuation escaped, and
  anything a renderer would auto-link (URLs, `www.`, e-mail addresses) put in a code span;
* `sarif_text()`: SARIF's own markup in plain-text messages (embedded links `[text](target)`)
  escaped as the SARIF 2.1.0 specification asks, with a backslash.

JSON stays plain data (encoding is the serializer's job) and HTML is auto-escaped by the templates.
Each function takes text that is already redacted: escaping first would hide a token's shape from
the redaction patterns.
"""

from __future__ import annotations

import re

_INVISIBLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"
)
# Inline Markdown syntax (emphasis, code, links, images, tables, strike-through); the characters that
# matter only at the start of a line (#, -, +, 1.) never start one here.
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]!|~])")
# What GitHub-flavoured Markdown turns into links by itself: scheme URLs, `www.` names, e-mail.
_AUTOLINKS = re.compile(
    r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{0,30}+:/{1,3}[^\s<>]*+"
    r"|(?<![A-Za-z0-9.\-])www\.[^\s<>]++"
    r"|(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]{1,64}+@[A-Za-z0-9\-]{1,63}+(?:\.[A-Za-z0-9\-]{1,63}+)++"
)
_BACKTICK_RUNS = re.compile(r"`++")


def visible(text: str) -> str:
    """Control characters, zero-width characters and bidi overrides as visible `\\x..`/`\\u....`."""
    return _INVISIBLE.sub(_escape_invisible, text)


def _escape_invisible(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def markdown_code(text: str, *, in_table: bool = True) -> str:
    """`text` as one code span that nothing inside can close; `|` escaped inside table cells."""
    longest = max((len(run) for run in _BACKTICK_RUNS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") or not text.strip() else text
    span = f"{fence}{padded}{fence}"
    return span.replace("|", "\\|") if in_table else span


def _escape_plain(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", text)


def markdown_text(text: str, *, in_table: bool = True) -> str:
    """Prose that renders as exactly these characters: no HTML, no emphasis, no link, no image."""
    parts: list[str] = []
    position = 0
    for found in _AUTOLINKS.finditer(text):
        parts.append(_escape_plain(text[position : found.start()]))
        parts.append(markdown_code(found.group(0), in_table=in_table))
        position = found.end()
    parts.append(_escape_plain(text[position:]))
    return "".join(parts)


def sarif_text(text: str) -> str:
    """A SARIF plain-text message: `\\`, `[` and `]` escaped so no embedded link can be formed."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
