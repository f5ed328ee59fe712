"""Packaging tests find their helpers (and the metrics test's process helpers) by path."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
for folder in (_HERE, _HERE.parent / "metrics"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
