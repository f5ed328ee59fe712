"""Read the `items` of a large JSON List or snapshot a window at a time, never the whole document.

`orjson.loads` of a whole cluster dump holds the file and every object as dicts at once (about nine
times the file's size). Here the file is read in blocks and the top-level `items` array is cut into
windows of whole items, each parsed by orjson as one array `[item, item, ...]`, so only one window's
dicts exist beside what the caller keeps.

Cutting is fast and never wrong: a window ends at the last `}` where the count of brackets opened
since the window's start is back to zero (counted with bytes.count, ignoring that strings may hold
brackets), and orjson then checks the window. A window that parses and ends in `}` is exactly a run of
whole items, because a JSON object cannot be a proper prefix of another. If a string's brackets
misled the count, the window fails to parse and is cut again item by item by a scanner that knows
strings. The members before and after `items` are parsed as one small document at the end.

Anything unexpected (not an object, no top-level `items` array, invalid JSON, damaged gzip) raises
NotStreamable; the caller holds items back until the stream ends, so it can then read the file whole,
which also gives the exact error message for a broken file. A streaming parser such as ijson would
be a new dependency and measured no faster than orjson on windows.
"""

from __future__ import annotations

import gzip
import re
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import orjson

from kubegap.checker.sources._limits import CappedReader, limits

WINDOW = 2 << 20  # bytes of items parsed at once
_GZIP_MAGIC = b"\x1f\x8b"
_UTF8_BOM = b"\xef\xbb\xbf"
_NOT_SPACE = re.compile(rb"[^ \t\r\n]")  # anything but JSON's white space
_ITEMS_KEY = re.compile(rb'"items"[ \t\r\n]*:[ \t\r\n]*\[')
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[][{}]', re.DOTALL)
_KEY_CANDIDATES = 32  # nested "items" keys tried before the top-level one; more means a strange file


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class NotStreamable(Exception):
    """The file cannot be streamed; read it whole instead."""


def _brackets(buffer: bytes, start: int, end: int) -> int:
    """Opened minus closed brackets in buffer[start:end], strings not excepted."""
    return (
        buffer.count(b"{", start, end)
        + buffer.count(b"[", start, end)
        - buffer.count(b"}", start, end)
        - buffer.count(b"]", start, end)
    )


class ItemStream:
    """One JSON file's top-level `items`, in windows; `head` holds the members before `items`."""

    def __init__(self, file: _Readable, window: int = WINDOW) -> None:
        self._file = file
        self._window = window
        self._buffer = b""
        self._position = 0
        self._dropped = 0  # bytes of the file before the buffer
        self._eof = False
        self._opening = b""  # the document up to `"items"`, e.g. b'{"apiVersion":"v1",'
        self.head: dict[str, Any] = {}
        self._find_items()

    # -- reading --------------------------------------------------------------------------------

    def _fill(self, wanted: int) -> None:
        """Buffer at least `wanted` unread bytes (-1: all), or all that is left; drops what was read."""
        if self._position:
            self._buffer = self._buffer[self._position :]
            self._dropped += self._position
            self._position = 0
        blocks = [self._buffer]
        size = len(self._buffer)
        while (size < wanted or wanted < 0) and not self._eof:
            try:
                block = self._file.read(max(wanted - size, self._window) if wanted >= 0 else -1)
            except (OSError, EOFError, zlib.error):
                raise NotStreamable("damaged file") from None
            if not block:
                self._eof = True
                break
            blocks.append(block)
            size += len(block)
        self._buffer = b"".join(blocks)

    def _next_byte(self) -> bytes:
        """The next byte that is not white space (b'' at the end); the position is left on it.

        Found by a regular expression, not byte by byte: a file of a gigabyte of spaces (a gzip
        bomb's favourite) must cost a scan in C, not a Python loop per byte.
        """
        while True:
            found = _NOT_SPACE.search(self._buffer, self._position)
            if found is not None:
                self._position = found.start()
                return self._buffer[self._position : self._position + 1]
            self._position = len(self._buffer)
            if self._eof:
                return b""
            self._fill(self._window)

    # -- the document around the items ----------------------------------------------------------

    def _find_items(self) -> None:
        """Locate the top-level `"items": [`; `head` is the document before it, parsed."""
        self._fill(self._window)
        if self._buffer.startswith(_UTF8_BOM):
            self._position = len(_UTF8_BOM)
        if self._next_byte() != b"{":
            raise NotStreamable("not a JSON object")
        start, search, tried = self._position, self._position, 0
        while tried < _KEY_CANDIDATES:
            found = _ITEMS_KEY.search(self._buffer, search)
            if found is None:
                if self._eof:
                    break
                search = max(start, len(self._buffer) - 64)
                self._fill(len(self._buffer) - start + self._window)  # keeps the buffer from `start`
                start, search = 0, search - start
                continue
            tried += 1
            opening = self._buffer[start : found.start()]
            head = self._members(opening)
            if head is not None:
                self._opening, self.head = opening, head
                self._position = found.end()
                return
            search = found.end()
        raise NotStreamable("no top-level items array")

    @staticmethod
    def _members(opening: bytes) -> dict[str, Any] | None:
        """The members before a candidate key, parsed; None when the key is not at the top level."""
        text = opening.rstrip()
        if text.endswith(b","):
            text = text[:-1]
        elif not text.endswith(b"{"):
            return None
        try:
            parsed = orjson.loads(text + b"}")
        except orjson.JSONDecodeError:
            return None
        return parsed if isinstance(parsed, dict) else None

    def document(self) -> dict[str, Any]:
        """The whole document with `items` empty; call after the windows are read."""
        self._fill(-1)
        rest = self._buffer[self._position :]
        try:
            parsed = orjson.loads(self._opening + b'"items":[]' + rest)
        except orjson.JSONDecodeError:
            raise NotStreamable("invalid JSON after the items") from None
        if not isinstance(parsed, dict) or parsed.get("items") != []:
            raise NotStreamable("items is not a top-level array")
        return parsed

    # -- the items --------------------------------------------------------------------------------

    def windows(self) -> Iterator[list[Any]]:
        """Lists of consecutive items, a window at a time, until the closing `]`."""
        first = True
        while True:
            mark = self._next_byte()
            if first and mark == b"]":
                break
            if not first:
                if mark == b"]":
                    break
                if mark != b",":
                    raise NotStreamable("invalid JSON between items")
                self._position += 1
                self._next_byte()
            first = False
            yield self._window_items()
        self._position += 1

    def _window_items(self) -> list[Any]:
        """Whole items from the position on, about a window's worth; at least one."""
        window = self._window
        while True:
            self._fill(window)
            end = self._last_item_end(min(len(self._buffer), window))
            if end is not None:
                try:
                    parsed = orjson.loads(b"".join((b"[", memoryview(self._buffer)[:end], b"]")))
                except orjson.JSONDecodeError:  # brackets in strings misled the count
                    return self._exact_items(self._dropped + end)
                self._position = end
                assert isinstance(parsed, list)
                return parsed
            if self._eof:
                return self._exact_items(self._dropped + len(self._buffer))
            window *= 2  # one item larger than the window

    def _last_item_end(self, end: int) -> int | None:
        """One past the last `}` before `end` where the brackets opened since 0 are all closed."""
        buffer = self._buffer
        cut = buffer.rfind(b"}", 0, end)
        if cut < 0:
            return None
        depth = _brackets(buffer, 0, cut + 1)
        while depth != 0:
            previous = buffer.rfind(b"}", 0, cut)
            if previous < 0:
                return None
            depth -= _brackets(buffer, previous + 1, cut + 1)
            cut = previous
        return cut + 1

    def _exact_items(self, limit: int) -> list[Any]:
        """Items one by one until the file offset `limit` or the array's end: slow, for odd windows."""
        found = [self._exact_item()]
        while self._dropped + self._position < limit and self._next_byte() == b",":
            self._position += 1
            self._next_byte()
            found.append(self._exact_item())
        return found

    def _exact_item(self) -> Any:
        """One item at the position, its end found by a scanner that skips strings."""
        wanted = self._window
        while True:
            self._fill(wanted)
            buffer, depth = self._buffer, 0
            if buffer[:1] not in (b"{", b"["):
                raise NotStreamable("an item that is not an object or array")
            for token in _TOKEN.finditer(buffer):
                mark = token.group()[:1]
                if mark == b'"':
                    continue
                depth += 1 if mark in (b"{", b"[") else -1
                if depth == 0:
                    try:
                        item = orjson.loads(memoryview(buffer)[: token.end()])
                    except orjson.JSONDecodeError:
                        break
                    self._position = token.end()
                    return item
            if self._eof:
                raise NotStreamable("invalid JSON in items")
            wanted = len(buffer) * 2


@contextmanager
def item_stream(path: Path, window: int | None = None) -> Iterator[ItemStream]:
    """An ItemStream over the file, gunzipped when it starts with the gzip magic bytes.

    Raises NotStreamable when the file is not a JSON object with a top-level items array.
    """
    try:
        raw = path.open("rb")
    except OSError:
        raise NotStreamable("unreadable") from None
    with raw:
        try:
            gzipped = raw.read(2) == _GZIP_MAGIC
            raw.seek(0)
        except OSError:
            raise NotStreamable("unreadable") from None
        chosen = limits()
        if not gzipped:
            yield ItemStream(CappedReader(raw, path, chosen), window or WINDOW)
            return
        with gzip.GzipFile(fileobj=raw, mode="rb") as unzipped:
            yield ItemStream(CappedReader(unzipped, path, chosen, compressed=raw), window or WINDOW)
