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


_INVISIBLE_OR_SPACING = re.compile(f"{_INVISIBLE.pattern[:-1]}\t\n\u2028\u2029]")
_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def visible(text: str, *, names: bool = False) -> str:
    """Control characters, zero-width characters and bidi overrides as visible `\\x..`/`\\u....`.

    With `names`, tabs, newlines and line separators are shown too (`\\n`): in a name they are never
    layout, and shown raw they would start a line of output the name does not own.
    """
    return (_INVISIBLE_OR_SPACING if names else _INVISIBLE).sub(_escape_invisible, text)


def _escape_invisible(match: re.Match[str]) -> str:
    character = match.group(0)
    if character in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[character]
    code = ord(character)
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


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def code_spans(text: str) -> list[tuple[str, bool]]:
    """`text` cut into (part, is_code) at its backtick spans: our sentences quote commands that way.

    The web shows the code parts as <code> and Markdown as code spans, so a reader sees a command,
    not a pair of backticks. A backtick inside a value only moves where a span starts or ends: every
    part is still escaped as text or as code by whoever renders it.
    """
    parts: list[tuple[str, bool]] = []
    position = 0
    for found in _CODE_SPAN.finditer(text):
        if found.start() > position:
            parts.append((text[position : found.start()], False))
        parts.append((found.group(1), True))
        position = found.end()
    if position < len(text):
        parts.append((text[position:], False))
    return parts


def markdown_sentence(text: str, *, in_table: bool = False) -> str:
    """Prose with its backtick spans kept as code spans, everything else escaped as `markdown_text`."""
    return "".join(
        markdown_code(part, in_table=in_table) if code else markdown_text(part, in_table=in_table)
        for part, code in code_spans(text)
    )


def sarif_text(text: str) -> str:
    """A SARIF plain-text message: `\\`, `[` and `]` escaped so no embedded link can be formed."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
