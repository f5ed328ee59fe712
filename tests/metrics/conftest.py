"""Exporter tests reach the API emulator and fleet helpers by path, as the live tests do."""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = Path(__file__).resolve().parents[1]
for folder in (_TESTS, _TESTS / "checker" / "fleet"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
