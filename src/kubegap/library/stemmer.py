"""The English Snowball stemmer, loaded without the other thirty-odd languages of its package.

`import snowballstemmer` runs the package's `__init__`, which imports every language's stemmer (some
have class bodies of thousands of lines): about a tenth of a second on a quiet machine, several
tenths on a busy one, paid by the first English word of every one-shot `kubegap incidents list -q`
and of the MCP server's first search. We need English only. Its module needs just the package's
`basestemmer` and `among`, by relative import, so the package folder is mounted under a private
name (never `snowballstemmer` itself, so anyone importing the real package gets the real package)
and only those three modules load from it. The algorithm and its results are the package's own.
When PyStemmer (the C implementation the package would prefer) is installed, that is used instead.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
import types
from collections.abc import Callable
from functools import lru_cache

_PRIVATE = "_kubegap_snowball"
_lock = threading.Lock()


@lru_cache(maxsize=1)
def english() -> Callable[[str], str]:
    """`stemWord` of the English Snowball stemmer."""
    try:
        import Stemmer  # PyStemmer: what snowballstemmer prefers too
    except ImportError:
        pass
    else:
        return Stemmer.Stemmer("english").stemWord
    with _lock:
        spec = importlib.util.find_spec("snowballstemmer")  # finds the folder, runs nothing
        folder = list(spec.submodule_search_locations or []) if spec is not None else []
        if not folder:
            import snowballstemmer  # an unusual install: take the package the ordinary way

            return snowballstemmer.stemmer("english").stemWord
        if _PRIVATE not in sys.modules:
            package = types.ModuleType(_PRIVATE)
            package.__path__ = folder
            sys.modules[_PRIVATE] = package
        module = importlib.import_module(f"{_PRIVATE}.english_stemmer")
    return module.EnglishStemmer().stemWord
