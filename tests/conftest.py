"""Shared test helpers: paths to the bundled knowledge base and to ../shared when present."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


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
    import os

    os.environ["KUBEGAP_WORD_CACHE"] = str(tmp_path_factory.mktemp("word-cache") / "words.sqlite3")
