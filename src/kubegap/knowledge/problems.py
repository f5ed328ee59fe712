"""One thing wrong in the knowledge base, said so that an editor can jump straight to it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, order=True)
class Problem:
    path: Path
    line: int
    field: str
    message: str

    def render(self, relative_to: Path | None = None) -> str:
        shown = self.path
        if relative_to is not None:
            try:
                shown = self.path.relative_to(relative_to)
            except ValueError:
                shown = self.path
        return f"{shown}:{self.line}: {self.field}: {self.message}"
