"""Whole-word matching of names and images, so `gpud` never matches `gpudirect` nor `burn` `auburn`.

Names, labels and image paths are cut into lower-case words at every non-alphanumeric character, and
a phrase matches only as consecutive whole words: `nccl-tests` matches `nvidia-nccl-tests-job` and
`nccl_tests`, never `ncclx`. Images lose their registry host, tag and digest first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

_SPLIT = re.compile(r"[^a-z0-9]+")


@lru_cache(maxsize=8192)
def tokens(text: str) -> tuple[str, ...]:
    """Lower-case words of a name, label or image path (cached: the same few strings recur per pod)."""
    return tuple(word for word in _SPLIT.split(text.lower()) if word)


def image_path(image: str) -> str:
    """`nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5@sha256:...` -> `nvidia/k8s/dcgm-exporter`."""
    path = image.split("@", 1)[0]
    parts = path.split("/")
    if len(parts) > 1 and ("." in parts[0] or ":" in parts[0] or parts[0] == "localhost"):
        parts = parts[1:]
    last = parts[-1].split(":", 1)[0] if parts else ""
    return "/".join([*parts[:-1], last])


def image_name(image: str) -> str:
    """The last path step of an image without its tag: `nvidia/cuda:12.4` -> `cuda`."""
    return image_path(image).rsplit("/", 1)[-1]


def has_phrase(words: Sequence[str], phrase: str) -> bool:
    """The phrase's words appear consecutively in `words`."""
    wanted = tokens(phrase)
    size = len(wanted)
    if size == 0 or wanted[0] not in words:
        return False
    return any(tuple(words[index : index + size]) == wanted for index in range(len(words) - size + 1))


def first_phrase(words: Sequence[str], phrases: Iterable[str]) -> str:
    """The first of `phrases` found in `words`, or ''.

    A tuple of phrases (every caller's constant lists) is looked up through an index of its phrases'
    first words, so each call costs one lookup per word instead of one scan per phrase: a scan asks
    this several times for each of 150,000 pods.
    """
    if not isinstance(phrases, tuple):
        return next((phrase for phrase in phrases if has_phrase(words, phrase)), "")
    index = _phrase_index(phrases)
    best = len(phrases)
    for start, word in enumerate(words):
        for order, wanted in index.get(word, ()):
            if order < best and tuple(words[start : start + len(wanted)]) == wanted:
                best = order
    return phrases[best] if best < len(phrases) else ""


@lru_cache(maxsize=256)
def _phrase_index(phrases: tuple[str, ...]) -> dict[str, tuple[tuple[int, tuple[str, ...]], ...]]:
    """First word -> (position in `phrases`, the phrase's words) of each phrase with words."""
    index: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    for order, phrase in enumerate(phrases):
        wanted = tokens(phrase)
        if wanted:
            index.setdefault(wanted[0], []).append((order, wanted))
    return {word: tuple(found) for word, found in index.items()}
