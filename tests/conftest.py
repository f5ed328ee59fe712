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
