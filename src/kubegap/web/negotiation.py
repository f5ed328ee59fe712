"""Pick the reader's language from Accept-Language when the path does not name one (only `/`)."""

from __future__ import annotations

from kubegap.text import DEFAULT_LANG, Lang

_MAX_HEADER = 1000


def preferred_lang(header: str) -> Lang:
    """The supported language with the highest q; ties go to the earlier one; default Korean.

    'en-US,en;q=0.9,ko;q=0.8' -> en; 'ko-KR' -> ko; '*' or garbage -> ko.
    """
    best: tuple[float, int, Lang] | None = None
    for position, part in enumerate(header[:_MAX_HEADER].split(",")):
        name, _, params = part.strip().partition(";")
        head = name.strip().lower()[:2]
        if head not in ("ko", "en"):
            continue
        quality = _quality(params)
        if quality <= 0:
            continue
        candidate = (quality, -position, "ko" if head == "ko" else "en")
        if best is None or candidate[:2] > best[:2]:
            best = candidate  # type: ignore[assignment]
    return best[2] if best else DEFAULT_LANG


def _quality(params: str) -> float:
    for param in params.split(";"):
        key, _, value = param.strip().partition("=")
        if key.strip().lower() == "q":
            try:
                quality = float(value.strip())
            except ValueError:
                return 0.0
            return quality if 0.0 <= quality <= 1.0 else 0.0
    return 1.0
