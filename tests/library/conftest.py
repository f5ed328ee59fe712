"""Fixtures for the library tests; see library_helpers.py for the fixture knowledge base."""

from __future__ import annotations

import pytest
from library_helpers import FIXTURE_ROOT

from kubegap.library import Library


@pytest.fixture(scope="session")
def library() -> Library:
    return Library.open(FIXTURE_ROOT, db_path=":memory:")
