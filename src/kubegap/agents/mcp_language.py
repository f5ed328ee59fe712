"""The language an MCP answer is in: the call's `lang`, else the server's.

The server's language is `kubegap mcp --lang`, else the rule every command follows
(`cli_support.resolve_lang`: $KUBEGAP_LANG, then the locale, then English), read at each call, so a
host that starts the server with KUBEGAP_LANG=ko gets Korean titles, text, resources and errors.
"""

from __future__ import annotations

from kubegap.cli_support import resolve_lang
from kubegap.text import Lang

_server_lang: str | None = None


def set_server_lang(lang: str | None) -> None:
    """What `kubegap mcp --lang` chose (None: the environment decides, at each call)."""
    global _server_lang
    _server_lang = lang


def server_lang(asked: str | None = None) -> Lang:
    """The language of one answer: the call's `lang`, else the server's."""
    return resolve_lang(asked or _server_lang)
