"""Shared test helpers: paths to the bundled knowledge base and to ../shared when present, and one
search index of the bundled knowledge base for the whole run.

The index: many tests (and the `kubegap` processes they start) open the bundled library with
`KUBEGAP_DB=:memory:` or a temporary HOME, and each such open used to build the index again (seconds
of Korean analysis every time). The run keeps one index file in a per-user folder of the temporary
directory, pointed to by XDG_CACHE_HOME (subprocesses inherit it); `Library.open` copies it into
memory when its fingerprint matches, so every open is the same index without a build. The file is
rebuilt when the knowledge files or the indexing code change, and parallel workers wait for one build.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
TEST_CACHE = Path(tempfile.gettempdir()) / f"kubegap-tests-{os.getuid()}" / "cache"

# Marked here by path, so the list of what is slow or timed lives in one place (`make test` runs all).
# slow: exhaustive sweeps, real installs, browsers and external clients; `-m "not slow"` leaves them
# out while developing.
SLOW = (
    "tests/bench/",
    "tests/e2e/",
    "tests/packaging/test_wheel_install.py",
    "tests/packaging/test_pre_commit_hook.py",
    "tests/checker/test_pattern_linear_time.py",
    "tests/checker/test_input_fuzz.py",
    "tests/metrics/test_prometheus_e2e.py",
)
# serial: tests that bound wall-clock time (a fault must end within N seconds, `initialize` within
# 8 s); `make test` runs them after the parallel part, alone, so other tests' load cannot fail them.
SERIAL = (
    "tests/e2e/test_mcp_clients.py",  # the clients give a server a few seconds to answer
    "tests/checker/live/test_live_faults.py",
    "tests/checker/live/test_live_cli.py",
    "tests/mcp/test_mcp_bounds.py",
    "tests/mcp/test_mcp_stdio.py",
)


def pytest_configure(config: pytest.Config) -> None:
    # pip keeps the user's own cache: the packaging tests install real packages (some with HOME in a
    # temporary folder), and the wheels `make setup` just downloaded are there.
    user_cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    if user_cache != str(TEST_CACHE):
        os.environ.setdefault("PIP_CACHE_DIR", str(Path(user_cache) / "pip"))
    os.environ["XDG_CACHE_HOME"] = str(TEST_CACHE)
    # Many tests read stderr exactly; on a busy machine even a small fixture's index can take over
    # a second to build. The notice has its own tests (tests/library/test_library_index_reuse.py).
    os.environ["KUBEGAP_BUILD_NOTICE"] = "off"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow: list[pytest.Item] = []
    others: list[pytest.Item] = []
    for item in items:
        where = Path(str(item.path)).resolve().relative_to(REPO).as_posix()
        if where.startswith(SERIAL):
            item.add_marker(pytest.mark.serial)
        if where.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
            slow.append(item)
        else:
            others.append(item)
    # The long files first, each kept whole and in order: parallel workers then end together instead
    # of three waiting while the fourth runs a real install that was handed out last.
    items[:] = slow + others


@pytest.fixture
def shared_dir() -> Path:
    """The read-only ../shared folder beside the project; CI always has it, a user's clone may not."""
    if not SHARED.is_dir():
        pytest.skip("../shared is absent (a user's clone): these tests read real-world inputs from it")
    return SHARED


@pytest.fixture(scope="session", autouse=True)
def _private_word_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Korean query words Kiwi analysed are remembered per user; tests keep theirs in a temporary file
    (subprocesses inherit the variable) instead of the developer's cache."""
    os.environ["KUBEGAP_WORD_CACHE"] = str(tmp_path_factory.mktemp("word-cache") / "words.sqlite3")


@pytest.fixture(scope="session", autouse=True)
def _bundled_index() -> Iterator[None]:
    """The bundled knowledge base's index in TEST_CACHE, built at most once (one worker builds, the
    others wait on the lock and then find it current)."""
    from kubegap.knowledge.loader import default_root
    from kubegap.library import Library
    from kubegap.library.store import cache_location

    TEST_CACHE.mkdir(parents=True, exist_ok=True)
    with (TEST_CACHE / "build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            Library.open(db_path=cache_location(default_root())).close()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    yield
