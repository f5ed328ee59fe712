"""Find an incident from a pasted log line that contains one of its error signatures.

The words and the matching rule live in `kubegap.knowledge.error_patterns`, shared with the checker's
symptoms; this module keeps the names the library's index and search use. To stay fast on a large
library, the index keeps each signature's distinct literal words; only the signatures whose literal
words all occur in the pasted text are checked for order in Python.
"""

from __future__ import annotations

from kubegap.knowledge.error_patterns import (
    MAX_PASTED_WORDS,
    WILDCARD,
    literal_words,
    occurs_in,
    occurs_loosely,
    pattern,
    words,
)

__all__ = ["MAX_PASTED_WORDS", "WILDCARD", "literal_words", "occurs_in", "occurs_loosely", "pattern", "words"]
