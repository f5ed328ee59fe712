"""Fixtures for fleet tests: several emulated API servers behind one kubeconfig with a context each."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fleet_helpers import Fleet

from k8s_emulator.factories import gpu_cluster


@pytest.fixture
def fleet(tmp_path: Path) -> Iterator[Fleet]:
    built = Fleet(tmp_path)
    yield built
    built.stop()


@pytest.fixture
def gpu_objects() -> list[dict[str, Any]]:
    return list(gpu_cluster(nodes=4, pods=40, namespaces=2))
