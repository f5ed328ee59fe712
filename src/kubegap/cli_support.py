"""What every subcommand shares: the one language setting, as a click option.

Language: `--lang` (on the subcommand or before it, `kubegap --lang ko scan`), else $KUBEGAP_LANG,
else the locale ($LC_ALL, $LC_MESSAGES, $LANG), else English. Every command resolves it the same way,
so `incidents` and `scan` never disagree about which language a person reads.
"""

from __future__ import annotations

import os
from typing import Any

import click

from kubegap.text import LANGS, Lang

LANG_ENV = "KUBEGAP_LANG"
_LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def _from_value(value: str | None) -> Lang | None:
    head = (value or "").strip().lower()[:2]
    if head == "ko":
        return "ko"
    if head == "en":
        return "en"
    return None


def resolve_lang(explicit: str | None = None) -> Lang:
    """The language to speak: the flag, then $KUBEGAP_LANG, then the locale, then English."""
    for candidate in (explicit, os.environ.get(LANG_ENV)):
        chosen = _from_value(candidate)
        if chosen:
            return chosen
    for variable in _LOCALE_VARIABLES:
        value = os.environ.get(variable)
        if value:  # the first locale variable that is set decides, as in POSIX
            return _from_value(value) or "en"
    return "en"


def _lang_callback(context: click.Context, _parameter: click.Parameter, value: str | None) -> Lang:
    root = context.find_root()
    given = value or (root.params.get("lang") if root is not context else None)
    return resolve_lang(given)


def lang_option(function: Any) -> Any:
    """`--lang ko|en` on a subcommand; without it the group's `--lang`, $KUBEGAP_LANG or the locale."""
    return click.option(
        "--lang",
        type=click.Choice(LANGS, case_sensitive=False),
        default=None,
        callback=_lang_callback,
        help=f"Language (default: ${LANG_ENV}, else the locale, else en).",
    )(function)
