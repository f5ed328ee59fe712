"""A per-user memory of Korean query words the corpus never uses, so Kiwi loads once per new word.

The index holds every Korean word of the corpus with its analysis (see analysis.VocabularyCollector);
a query word outside it needs Kiwi, whose model takes about a second to load, which is more than a
one-shot `kubegap incidents list -q ...` may spend. The analysis Kiwi gives such a word is kept here
(`$XDG_CACHE_HOME/kubegap/words-<kiwi version>-<rules>.sqlite3`, or beside `$KUBEGAP_DB`), so the next
search with it, in any process, is as fast as one with a corpus word. `<rules>` is a digest of the
function lemmas korean.py drops, because what is kept is Kiwi's answer after that filter: a release
that changes the list starts a fresh file instead of reading stale analyses. Best effort by design: a
cache that cannot be opened or written (read-only home, a locked file) is simply not used; search
never fails because of it. `KUBEGAP_WORD_CACHE=off` turns it off.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
from importlib import metadata
from pathlib import Path

from kubegap.library import korean

# A Korean word's analysis: (lemma, start, end, compound) relative to the word's own start.
ChunkAnalysis = tuple[tuple[str, int, int, bool], ...]

ENV = "KUBEGAP_WORD_CACHE"
MAX_WORDS = 50_000
_lock = threading.Lock()
_connection: sqlite3.Connection | None = None
_unusable = False


def location() -> Path | None:
    """Where the cache lives, or None when it is off."""
    setting = os.environ.get(ENV, "")
    if setting.lower() in {"off", "0", "no"}:
        return None
    if setting:
        return Path(setting)
    try:
        version = metadata.version("kiwipiepy")
    except metadata.PackageNotFoundError:
        version = "none"
    name = f"words-{version}-{_rules_digest()}.sqlite3"
    database = os.environ.get("KUBEGAP_DB")
    if database and database != ":memory:":
        return Path(database).parent / name
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kubegap"
    return cache / name


def _rules_digest() -> str:
    """Eight hex digits naming the analysis rules a remembered word went through."""
    rules = " ".join(sorted(korean.KOREAN_STOP_LEMMAS))
    return hashlib.sha256(rules.encode("utf-8")).hexdigest()[:8]


def _open() -> sqlite3.Connection | None:
    global _connection, _unusable
    if _connection is not None or _unusable:
        return _connection
    path = location()
    if path is None:
        _unusable = True
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(str(path), timeout=0.2, check_same_thread=False)
        connection.execute("CREATE TABLE IF NOT EXISTS words (word TEXT PRIMARY KEY, analysis TEXT NOT NULL)")
        _connection = connection
    except (OSError, sqlite3.Error):
        _unusable = True
    return _connection


def find(words: list[str]) -> dict[str, ChunkAnalysis]:
    """The remembered analyses of these words (those never seen are simply absent)."""
    with _lock:
        connection = _open()
        if connection is None or not words:
            return {}
        try:
            rows = connection.execute(
                "SELECT word, analysis FROM words WHERE word IN (SELECT value FROM json_each(?))",
                (json.dumps(sorted(set(words)), ensure_ascii=False),),
            ).fetchall()
        except sqlite3.Error:
            return {}
    return {word: tuple(tuple(item) for item in json.loads(analysis)) for word, analysis in rows}


def remember(entries: dict[str, ChunkAnalysis]) -> None:
    with _lock:
        connection = _open()
        if connection is None or not entries:
            return
        with contextlib.suppress(sqlite3.Error), connection:
            connection.executemany(
                "INSERT OR REPLACE INTO words VALUES (?, ?)",
                [(word, json.dumps(analysis, ensure_ascii=False)) for word, analysis in entries.items()],
            )
            count = connection.execute("SELECT count(*) FROM words").fetchone()[0]
            if count > MAX_WORDS:
                connection.execute("DELETE FROM words")  # crude but bounded; it refills as needed


def reset() -> None:
    """Forget the open connection (tests point the cache elsewhere between cases)."""
    global _connection, _unusable
    with _lock:
        if _connection is not None:
            _connection.close()
        _connection = None
        _unusable = False
