"""English stemming loads the English Snowball stemmer alone, with the package's own results."""

from __future__ import annotations

import re
import subprocess
import sys

from kubegap.knowledge.loader import BUNDLED_ROOT
from kubegap.library.stemmer import english


def test_stems_equal_the_snowball_package_on_every_corpus_word() -> None:
    import snowballstemmer

    reference = snowballstemmer.stemmer("english").stemWord
    words: set[str] = set()
    for path in sorted((BUNDLED_ROOT / "incidents").glob("*.yaml")):
        words |= set(re.findall(r"[a-z]{4,}", path.read_text(encoding="utf-8").lower()))
    assert len(words) > 1000
    assert [word for word in sorted(words) if english()(word) != reference(word)] == []
    assert english()("restarted") == "restart"


def test_a_search_term_needs_no_other_language() -> None:
    probe = (
        "import sys\n"
        "from kubegap.library.analysis import latin_term\n"
        "assert latin_term('restarted') == 'restart'\n"
        "print(sorted(name for name in sys.modules if 'stemmer' in name))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = done.stdout.strip()
    assert "english_stemmer" in loaded
    assert "catalan_stemmer" not in loaded and "'snowballstemmer'" not in loaded, loaded
