"""Every finding every check produces on its fixtures has a Korean sentence a person can read.

The message is a bilingual template: the English is what JSON and logs keep, the Korean is what a
Korean reader sees. No placeholder may be left unfilled, and the Korean must not fall back to
English prose (ids, code and product names in Latin letters are fine).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from check_fixture_loader import fixture_paths, load_fixture

from korean_words import english_words
from kubegap.bilingual import Message
from kubegap.checker.registry import get_check
from kubegap.checker.runner import run_one

_PLACEHOLDER = re.compile(r"\{[a-z_]+(:[가-힣]+)?\}")


@pytest.mark.parametrize("path", fixture_paths(), ids=lambda path: f"{path.parent.name}/{path.name}")
def test_findings_speak_korean(path: Path) -> None:
    check = get_check(path.parent.name)
    for finding in run_one(check, load_fixture(path, check.meta)):
        assert isinstance(finding.message, Message), f"{check.id}: message built from an English f-string"
        korean, english = finding.message_in("ko"), finding.message_in("en")
        assert english == finding.message
        assert re.search("[가-힣]", korean), f"{check.id}: no Korean in {korean!r}"
        assert not _PLACEHOLDER.search(korean) and not _PLACEHOLDER.search(english), (korean, english)
        assert not english_words(korean, _data_words(finding.message)), f"{check.id}: English in {korean!r}"


def _data_words(said: Message) -> set[str]:
    """Words inside the values a message names (object names, resources, roles): data, not prose."""
    values = [str(value) for name, value in said.params if not name.startswith(("ko", "en"))]
    return {word for value in values for word in re.findall(r"[A-Za-z]+", value)}
