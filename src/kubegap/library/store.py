"""Where the library index lives and when it is rebuilt, so nobody ever runs a build step.

`Library.open` fingerprints the knowledge files (their names and bytes, plus the source of the indexing
code and of the model the stored documents follow) and compares it with the fingerprint in the index's
`meta` table. When they differ it builds a new index into a temporary file beside the old one and
renames it into place, which is atomic: another process sees the old index or the new one, never half
of one, and a process that has the old one open keeps reading it. The default location is a per-user
cache file keyed by the knowledge folder (`$XDG_CACHE_HOME/kubegap/library-<hash>.sqlite3`),
`$KUBEGAP_DB` overrides it (`:memory:` allowed), and when the cache folder cannot be written the index
is built in memory instead. An in-memory index is copied from the per-user cache file when that file
was built from the very same fingerprint (milliseconds instead of a build), so `:memory:` means "write
nothing", never "build again"; a `$KUBEGAP_DB` file that is missing or stale is likewise copied from it.
The cache file of another folder holding the very same knowledge (a second install of the package)
serves as well: the fingerprint is of the contents, not of the path.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import tempfile
from pathlib import Path

from kubegap.knowledge import error_model, error_text, model, organizations, scope
from kubegap.knowledge.loader import Knowledge
from kubegap.knowledge.organizations import FILE_NAME as ORGANIZATIONS_FILE
from kubegap.library import analysis, glossary, index, korean, ranking, stemmer

DB_ENV = "KUBEGAP_DB"
MEMORY = ":memory:"


def _fingerprinted(root: Path) -> list[tuple[str, Path]]:
    """Every file the fingerprint reads, with the label it is hashed under ('' for code)."""
    modules = (
        analysis,
        korean,
        ranking,
        glossary,
        error_text,
        stemmer,
        model,
        error_model,
        organizations,
        scope,
    )
    files = [("", Path(module.__file__ or "")) for module in modules]
    files.append(("", Path(index.__file__ or "")))
    own_glossary = root / "glossary.yaml"
    files.append(("", own_glossary if own_glossary.is_file() else glossary.BUNDLED_GLOSSARY))
    files.append((f"\0{ORGANIZATIONS_FILE}\0", root / ORGANIZATIONS_FILE))
    for name in ("retired.yaml", "secondary-sources.yaml", "terminology.yaml"):  # their problems are stored
        files.append((f"\0{name}\0", root / name))
    for folder in ("taxonomy", "incidents", "studies", "errors"):
        for path in sorted((root / folder).glob("*.yaml")) if (root / folder).is_dir() else []:
            files.append((f"\0{folder}/{path.name}\0", path))
    return files


def fingerprint(root: Path) -> str:
    """Names and bytes of every knowledge file, of the indexing code and of the model the stored
    documents follow: any change means a rebuild."""
    digest = hashlib.sha256(index.FORMAT.encode())
    for label, path in _fingerprinted(root):
        digest.update(label.encode())
        with contextlib.suppress(OSError):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def file_stamps(root: Path) -> tuple[tuple[str, int, int], ...]:
    """Name, size and modification time of every fingerprinted file: a change to any file changes
    these, so a long-running process re-reads the files only when they do (see Library.is_stale)."""
    stamps = []
    for _, path in _fingerprinted(root):
        try:
            status = path.stat()
            stamps.append((str(path), status.st_size, status.st_mtime_ns))
        except OSError:
            stamps.append((str(path), -1, -1))
    return tuple(stamps)


def count_incidents(root: Path) -> int:
    """How many incident files a build will read (for the notice a slow build prints)."""
    folder = root / "incidents"
    return sum(1 for _ in folder.glob("*.yaml")) if folder.is_dir() else 0


def default_location(root: Path) -> str:
    """$KUBEGAP_DB, else the per-user cache file for this knowledge folder."""
    override = os.environ.get(DB_ENV)
    if override:
        return override
    return cache_location(root)


def cache_location(root: Path) -> str:
    """The per-user cache file for this knowledge folder, whatever $KUBEGAP_DB says."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kubegap"
    key = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16]
    return str(cache / f"library-{key}.sqlite3")


def connect(location: str, *, read_only: bool) -> sqlite3.Connection:
    if location == MEMORY:
        connection = sqlite3.connect(MEMORY, check_same_thread=False)
    else:
        mode = "ro" if read_only else "rwc"
        uri = f"{Path(location).resolve().as_uri()}?mode={mode}"
        connection = sqlite3.connect(uri, uri=True, check_same_thread=False)
    connection.execute("PRAGMA temp_store = MEMORY")
    connection.execute("PRAGMA cache_size = -32768")
    return connection


def stored_fingerprint(location: str) -> str | None:
    """The fingerprint an existing index was built from, or None when there is no usable index."""
    if location == MEMORY or not Path(location).is_file():
        return None
    try:
        connection = connect(location, read_only=True)
        try:
            row = connection.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
        finally:
            connection.close()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def same_index(root: Path, print_: str) -> str:
    """A per-user cache file built from `print_`: this folder's own, else one kept for another copy of
    the same knowledge (the bundled knowledge base of a second install); '' when there is none."""
    own = cache_location(root)
    if stored_fingerprint(own) == print_:
        return own
    folder = Path(own).parent
    siblings = sorted(folder.glob("library-*.sqlite3")) if folder.is_dir() else []
    return next((str(path) for path in siblings if stored_fingerprint(str(path)) == print_), "")


def copy_to_memory(location: str, print_: str) -> sqlite3.Connection | None:
    """An in-memory copy of the index at `location` when it was built from `print_`, else None."""
    if not location or stored_fingerprint(location) != print_:
        return None
    try:
        source = connect(location, read_only=True)
        try:
            copy = connect(MEMORY, read_only=False)
            source.backup(copy)
        finally:
            source.close()
        row = copy.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
    except sqlite3.Error:
        return None
    if not row or row[0] != print_:  # rebuilt by another process between the two reads
        copy.close()
        return None
    return copy


def copy_file(source: str, location: str, print_: str) -> bool:
    """Copy the index at `source` to `location` (atomically) when it was built from `print_`."""
    if not source or source == location or stored_fingerprint(source) != print_:
        return False
    folder = Path(location).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".library-", suffix=".tmp", dir=folder)
        os.close(handle)
    except OSError:
        return False
    try:
        origin = connect(source, read_only=True)
        target = sqlite3.connect(temporary)
        try:
            origin.backup(target)
        finally:
            origin.close()
            target.close()
        if stored_fingerprint(temporary) != print_:  # rebuilt by another process while we copied
            os.unlink(temporary)
            return False
        os.replace(temporary, location)
    except (OSError, sqlite3.Error):
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return False
    return True


def build_file(knowledge: Knowledge, location: str, print_: str) -> None:
    """Build into a temporary file in the same folder, then rename it over `location` atomically."""
    folder = Path(location).parent
    folder.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".library-", suffix=".tmp", dir=folder)
    os.close(handle)
    try:
        connection = sqlite3.connect(temporary)
        try:
            index.build(connection, knowledge, print_)
        finally:
            connection.close()
        os.replace(temporary, location)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
